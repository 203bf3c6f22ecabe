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
from typing import Any

import attrs

from vistlog.events.problems import VistlogError

__all__ = ["ImportedGame", "SourceError", "IMPORTERS", "EXPORTERS", "source"]


class SourceError(VistlogError):
    """A source that cannot be read as its format (the message names the place)."""


@attrs.define
class ImportedGame:
    """One game read from a source: its id, its events (dicts, no ``seq``), and notes on what
    was left out or how it was read (``import`` prints them)."""

    game: str
    events: list[dict[str, Any]]
    origin: str
    notes: list[str] = attrs.Factory(list)


def source(path: str, record: str | int) -> dict[str, Any]:
    """The ``_source`` extension of an imported event."""
    return {"file": path, "record": record}


Importer = Callable[[str, bytes], list[ImportedGame]]
Exporter = Callable[[list[dict[str, Any]]], str]


def _registry() -> tuple[dict[str, Importer], dict[str, Exporter]]:
    from . import csv_protocol, gchet, jsonl, pbn, preferans_score, pulya

    imp: dict[str, Importer] = {"jsonl": jsonl.read, "csv": csv_protocol.read, "pbn": pbn.read,
           "preferans-score": preferans_score.read, "gchet": gchet.read, "pulya": pulya.read}
    exp: dict[str, Exporter] = {"csv": csv_protocol.write, "pbn": pbn.write}
    return imp, exp


IMPORTERS, EXPORTERS = _registry()
