"""What every format module shares: :class:`ImportedGame`, :class:`SourceError`, the typed reading of a
foreign file (:func:`structure`), the ``_source`` mark, and :func:`bounded`, which keeps any input from
ending in an internal error. The formats import this module; the package imports the formats."""

from __future__ import annotations

import csv
from collections.abc import Callable
from typing import Any, Final, TypeVar

import attrs
import cattrs

from vistlog.events.problems import VistlogError

__all__ = ["ImportedGame", "SourceError", "Importer", "Exporter", "LARGEST", "source", "structure", "bounded"]


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


LARGEST: Final = 2**63 - 1
"""The largest whole number a log holds (what a JSON Lines reader takes as a 64-bit integer)."""


def _too_big(events: list[dict[str, Any]]) -> str | None:
    """The first number of the events past :data:`LARGEST`, as ``field = value`` (walked without recursion)."""
    stack: list[tuple[str, Any]] = [(str(ev.get("type", "event")), ev) for ev in events]
    while stack:
        where, v = stack.pop()
        if type(v) is int and not -LARGEST <= v <= LARGEST:
            return f"{where} = {str(v)[:20]}…"
        if isinstance(v, dict):
            stack.extend((f"{where}.{k}", x) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((f"{where}.{i}", x) for i, x in enumerate(v))
    return None


def bounded(read: Importer) -> Importer:
    """An importer whose input cannot end in an internal error: a file nested too deep, a cell or a number
    past what Python's readers take, or a number past :data:`LARGEST` is one :class:`SourceError`."""
    def guarded(path: str, data: bytes) -> list[ImportedGame]:
        try:
            games = read(path, data)
        except RecursionError:
            raise SourceError(f"{path}: nested too deep to be read") from None
        except csv.Error as exc:
            raise SourceError(f"{path}: not CSV that can be read ({exc})") from None
        except ValueError as exc:
            if "digits" not in str(exc):
                raise
            raise SourceError(f"{path}: a number of over 4,300 digits (a log holds numbers up to {LARGEST})") from None
        for game in games:
            big = _too_big(game.events)
            if big is not None:
                raise SourceError(f"{path}: game {game.game}: {big}: past the largest number a log holds ({LARGEST})")
        return games

    guarded.__doc__ = read.__doc__
    return guarded
