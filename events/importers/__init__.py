"""Importers and exporters of foreign formats: one module per format.

An importer is a function ``(path, data: bytes) -> list[ImportedGame]``: the games a source
holds, as event dicts in log order without ``seq`` (``append`` assigns it), each carrying
``_source`` (the file and the record it came from). It raises :class:`SourceError` for a
source it cannot read at all; a game it can read but that breaks the rules is left to the
state machine, which checks every imported game exactly as ``append`` does.

An exporter is a function ``(events of one game) -> str``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import cattrs

from vistlog.events.problems import VistlogError

__all__ = ["ImportedGame", "SourceError", "IMPORTERS", "EXPORTERS", "source", "structure"]


class SourceError(VistlogError):
    """A source that cannot be read as its format (the message names the place)."""

    code = "source-unreadable"


@attrs.define
class ImportedGame:
    """One game read from a source: its id, its events (dicts, no ``seq``), and notes on what
    was left out or how it was read (``import`` prints them)."""

    game: str
    events: list[dict[str, Any]]
    origin: str
    notes: list[str] = attrs.Factory(list)


_FOREIGN = cattrs.Converter(forbid_extra_keys=False)
"""The one converter for other programs' files: their own fields are kept to what we read."""

T = TypeVar("T")


def structure(raw: Any, cls: type[T], path: str, what: str) -> T:
    """A foreign file's parsed JSON as the typed classes of its format (``cls``); a file of another
    shape is one :class:`SourceError` naming the first field that does not fit."""
    try:
        return _FOREIGN.structure(raw, cls)
    except cattrs.BaseValidationError as exc:
        why = cattrs.transform_error(exc, path="")[0].replace(" @ .", " at ").replace(" @ ", " at ")
        raise SourceError(f"{path}: not {what}: {why}") from None
    except (ValueError, TypeError) as exc:
        raise SourceError(f"{path}: not {what}: {exc}") from None


def source(path: str, record: str | int) -> dict[str, Any]:
    """The ``_source`` extension of an imported event."""
    return {"file": path, "record": record}


Importer = Callable[[str, bytes], list[ImportedGame]]
Exporter = Callable[[list[dict[str, Any]]], str]


def _registry() -> tuple[dict[str, Importer], dict[str, Exporter]]:
    from . import csv_protocol, gchet, jsonl, pbn, ppn, preferans_score, pulya

    imp: dict[str, Importer] = {"jsonl": jsonl.read, "csv": csv_protocol.read, "pbn": pbn.read,
           "preferans-score": preferans_score.read, "gchet": gchet.read, "pulya": pulya.read,
           "ppn": ppn.read}
    exp: dict[str, Exporter] = {"csv": csv_protocol.write, "pbn": pbn.write}
    return imp, exp


IMPORTERS, EXPORTERS = _registry()
