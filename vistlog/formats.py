"""Other programs' formats: :func:`load` reads them, :func:`dump` writes one game in them (each format's
module is imported only when that format is used)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from .games import read_games, result_of
from .given import flat

__all__ = ["FORMATS_IN", "FORMATS_OUT", "load", "dump", "cannot_carry"]



from vistlog.events.codec import unstructure
from vistlog.events.importers import EXPORTERS, IMPORTERS, ImportedGame, SourceError
from vistlog.events.importers import cannot_carry as _cannot_carry
from vistlog.events.importers.jsonl import derive_tricks
from vistlog.events.model import Event
from vistlog.events.problems import UnknownName
from vistlog.projections.games.serbian.ppn import write as ppn_write



FORMATS_IN = tuple(IMPORTERS)
"""The formats :func:`load` reads."""


_FOLDED_EXPORTERS = {"ppn": ppn_write}


FORMATS_OUT = (*EXPORTERS, *_FOLDED_EXPORTERS)
"""The formats :func:`dump` writes."""


def load(source: str | os.PathLike[str] | bytes, format: str, *, name: str | None = None) -> list[ImportedGame]:
    """Read a file of another program (``format`` one of :data:`FORMATS_IN`) into games of events.

    Each game's ``events`` are dicts without ``seq``: :func:`read_games` reads the games as they
    are, and :func:`append` writes them (each checked only then). Raises
    :class:`~vistlog.events.importers.SourceError` for a source that is not of that format.

    >>> (game,) = load("samples/sochi-protocol.csv", "csv")
    >>> dict(next(read_games([game])).settlement().rounded)
    {'Аня': -577, 'Боря': 115, 'Вова': 462}
    """
    if format not in IMPORTERS:
        raise UnknownName(f"no importer for {format!r} (formats: {', '.join(IMPORTERS)})")
    if isinstance(source, bytes):
        return IMPORTERS[format](name or "<bytes>", source)
    path = os.fspath(source)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot open ({exc.strerror or exc})") from None
    return IMPORTERS[format](name or path, data)


def dump(events: Iterable[Event | Mapping[str, Any] | ImportedGame], format: str) -> str:
    """Write one game's events in another program's format (one of :data:`FORMATS_OUT`).

    >>> print(dump(load("samples/sochi-protocol.csv", "csv"), "csv").splitlines()[0])
    # game: sochi-2026-11-28
    """
    if format not in FORMATS_OUT:
        raise UnknownName(f"no exporter for {format!r} (formats: {', '.join(FORMATS_OUT)})")
    dicts = [dict(ev) if isinstance(ev, Mapping) else unstructure(ev) for ev in flat(events)]
    if format in _FOLDED_EXPORTERS:  # formats that carry the scores: the game is folded first
        games = list(read_games([{**d, "seq": i} for i, d in enumerate(dicts, start=1)]))
        if len(games) != 1 or games[0].problems:
            why = "; ".join(str(p) for p in (games[0].problems if games else ())[:3]) or "not one game"
            raise SourceError(f"cannot write {format}: {why}")
        return _FOLDED_EXPORTERS[format](result_of(games[0]))
    for d in dicts:
        d.pop("_chain", None)
        d.pop("_mac", None)
    game = str(dicts[0].get("game", "")) if dicts else ""
    return EXPORTERS[format](list(derive_tricks(ImportedGame(game, dicts, "<events>")).events))


def cannot_carry(events: Iterable[Event | Mapping[str, Any] | ImportedGame], format: str) -> list[str]:
    """What of a game :func:`dump` cannot write in ``format``, counted (empty: the format keeps it all).

    >>> from vistlog.games import game_events
    >>> cannot_carry(game_events("samples/corrected-deal.jsonl"), "csv")
    ['14 bid(s) (the auction)', '1 voided record(s) (only the record that stands is written)']
    """
    if format not in FORMATS_OUT:
        raise UnknownName(f"no exporter for {format!r} (formats: {', '.join(FORMATS_OUT)})")
    return _cannot_carry([dict(ev) if isinstance(ev, Mapping) else unstructure(ev) for ev in flat(events)], format)
