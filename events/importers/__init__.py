"""Importers and exporters of foreign formats: one module per format.

An importer is a function ``(path, data: bytes) -> list[ImportedGame]``: the games a source
holds, as event dicts in log order without ``seq`` (``append`` assigns it), each carrying
``_source`` (the file and the record it came from). It raises :class:`SourceError` for a
source it cannot read at all; a game it can read but that breaks the rules is left to the
state machine, which checks every imported game exactly as ``append`` does.

An exporter is a function ``(events of one game) -> str``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .base import LARGEST, EventList, Exporter, ImportedGame, Importer, SourceError, bounded, source, structure

__all__ = ["ImportedGame", "SourceError", "IMPORTERS", "EXPORTERS", "CARRIES", "cannot_carry", "source",
           "structure", "LARGEST", "bounded", "EventList"]


_READERS: dict[str, str] = {"jsonl": "jsonl", "csv": "csv_protocol", "pbn": "pbn", "preferans-score": "preferans_score",
                            "gchet": "gchet", "pulya": "pulya", "ppn": "ppn"}
"""Each format read, by the module that reads it (its ``read``)."""
_WRITERS: dict[str, str] = {"csv": "csv_protocol", "pbn": "pbn"}
"""Each format written, by the module that writes it (its ``write``)."""


class _Formats(Mapping[str, Any]):
    """A format's reader or writer, by name; its module is imported when the format is first used."""

    def __init__(self, modules: dict[str, str], function: str, wrap: Callable[[Any], Any] | None = None) -> None:
        self._modules, self._function, self._wrap = modules, function, wrap
        self._found: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        found = self._found.get(name)
        if found is None:
            module = importlib.import_module(f"{__name__}.{self._modules[name]}")
            found = getattr(module, self._function)
            self._found[name] = found = self._wrap(found) if self._wrap is not None else found
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


IMPORTERS: Mapping[str, Importer] = _Formats(_READERS, "read", bounded)
"""Every importer by format name (``jsonl``, ``csv``, ``pbn``, ``preferans-score``, ``gchet``, ``pulya``, ``ppn``)."""
EXPORTERS: Mapping[str, Exporter] = _Formats(_WRITERS, "write")
"""Every exporter by format name (``csv``, ``pbn``)."""

CARRIES: dict[str, frozenset[str]] = {
    "csv": frozenset({"game_started", "deal_started", "contract", "whist", "tricks", "score_recorded", "game_ended"}),
    "pbn": frozenset({"game_started", "deal_started", "bid", "contract", "card_played", "tricks", "game_ended"}),
}
"""The event types each exporter writes; what else a game holds is lost in that format (:func:`cannot_carry`)."""

_WHAT = {"bid": "bid(s) (the auction)", "card_played": "card(s) played", "discard": "discard(s)",
         "deal_voided": "voided record(s) (only the record that stands is written)", "adjustment": "adjustment(s)",
         "opening_balance": "opening balance(s)", "allocation": "allocation(s)", "kontra": "kontra(s)",
         "score_recorded": "recorded sheet(s)", "whist": "whist decision(s)",
         "claim": "claim(s) (the tricks they gave are written)"}


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
