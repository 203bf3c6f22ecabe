"""Importers and exporters of foreign formats: one module per format.

An importer is a function ``(path, data: bytes) -> list[ImportedGame]``: the games a source
holds, as event dicts in log order without ``seq`` (``append`` assigns it), each carrying
``_source`` (the file and the record it came from). It raises :class:`SourceError` for a
source it cannot read at all; a game it can read but that breaks the rules is left to the
state machine, which checks every imported game exactly as ``append`` does.

An exporter is a function ``(events of one game) -> str``.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from typing import Any, Final, TypeVar

import attrs
import cattrs

from vistlog.events.problems import VistlogError

__all__ = ["ImportedGame", "SourceError", "IMPORTERS", "EXPORTERS", "CARRIES", "cannot_carry", "source",
           "structure"]


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


def _registry() -> tuple[dict[str, Importer], dict[str, Exporter]]:
    from . import csv_protocol, gchet, jsonl, pbn, ppn, preferans_score, pulya

    readers: dict[str, Importer] = {"jsonl": jsonl.read, "csv": csv_protocol.read, "pbn": pbn.read,
                                    "preferans-score": preferans_score.read, "gchet": gchet.read,
                                    "pulya": pulya.read, "ppn": ppn.read}
    imp = {name: bounded(read) for name, read in readers.items()}
    exp: dict[str, Exporter] = {"csv": csv_protocol.write, "pbn": pbn.write}
    return imp, exp


IMPORTERS, EXPORTERS = _registry()

CARRIES: dict[str, frozenset[str]] = {
    "csv": frozenset({"game_started", "deal_started", "contract", "whist", "tricks", "score_recorded", "game_ended"}),
    "pbn": frozenset({"game_started", "deal_started", "bid", "contract", "card_played", "tricks", "game_ended"}),
}
"""The event types each exporter writes; what else a game holds is lost in that format (:func:`cannot_carry`)."""

_WHAT = {"bid": "bid(s) (the auction)", "card_played": "card(s) played", "discard": "discard(s)",
         "deal_voided": "voided record(s) (only the record that stands is written)", "adjustment": "adjustment(s)",
         "opening_balance": "opening balance(s)", "allocation": "allocation(s)", "kontra": "kontra(s)",
         "score_recorded": "recorded sheet(s)", "whist": "whist decision(s)"}


def cannot_carry(events: list[dict[str, Any]], fmt: str) -> list[str]:
    """What of a game ``fmt`` does not write, counted: ``["12 bid(s) (the auction)", …]`` (empty: nothing lost)."""
    carried = CARRIES.get(fmt)
    if carried is None:
        return []
    counts: dict[str, int] = {}
    for e in events:
        t = str(e.get("type"))
        if t not in carried:
            counts[t] = counts.get(t, 0) + 1
    hands = sum(1 for e in events if e.get("type") == "deal_started" and e.get("hands"))
    if hands and "card_played" not in carried:
        counts["hands"] = hands
    return [f"the hands of {n} deal(s)" if t == "hands" else f"{n} {_WHAT.get(t, t + ' event(s)')}"
            for t, n in counts.items()]
