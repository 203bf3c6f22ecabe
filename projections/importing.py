"""Importing many sources into one checked, chained log.

Each source is read by its format's importer (``vistlog.events.importers``); each game it holds is
checked on its own by the same state machine and folds as ``append`` uses (with ``seq``
numbered as it will be); a game with any problem is left out and named, with the file and
record of every problem; the games that pass, and whose ids the log does not have yet, are
appended in one locked, all-or-nothing, hash-chained ``append``. One bad game or one
unreadable file never stops the batch.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import orjson

from vistlog.events.checker import LogChecker
from vistlog.events.verdicts import Standing, Verdict
from vistlog.events.codec import DecodeError, decode_obj
from vistlog.events.model import GameEnded
from vistlog.events.importers import IMPORTERS, EventList, ImportedGame, SourceError
from vistlog.events.log import LogUnreadable, LogWriter, Problem, Spool, read_events
from vistlog.events.problems import VistlogError


__all__ = ["ImportOutcome", "ImportClash", "import_sources", "check_game", "renamed"]


class ImportClash(VistlogError):
    """An import asked for what its sources cannot give (one id for several games)."""

    code = "import-clash"


@attrs.define
class ImportOutcome:
    """What an import did: the games appended, the games refused (with why), unreadable sources."""

    imported: list[str] = attrs.Factory(list)
    refused: dict[str, list[str]] = attrs.Factory(dict)
    unreadable: list[str] = attrs.Factory(list)
    renamed: dict[str, str] = attrs.Factory(dict)
    """Games brought in under a new id (``--rename``): the id in the source → the id in the log."""

    @property
    def exit_code(self) -> int:
        """2 when a source could not be read at all, 1 when a game was refused, else 0."""
        return 2 if self.unreadable else 1 if self.refused else 0


def _where(ev: dict[str, Any]) -> str:
    src = ev.get("_source") or {}
    return f"{src.get('file', '?')} {src.get('record', '')}".strip()


def check_game(game: ImportedGame) -> list[str]:
    """The problems of one imported game, each naming the source record it came from."""
    return _checked(game)[0]


def _checked(game: ImportedGame) -> tuple[list[str], bool]:
    """The problems of one imported game, and whether its rules end it where the source stops (every
    pool closed: the program that wrote it closed the game). The write side's own check: the checker, and
    what its tally's scoring found."""
    told: list[Verdict] = []
    checker = LogChecker(told.append)
    problems: list[str] = []
    closed: list[Standing] = []

    def scored(where: str) -> None:
        for v in told:
            if type(v) is Standing and v.final and v.game == game.game:
                closed.append(v)
                problems.extend(f"{where}: deal {deal}: {message}" for deal, message, _seq in v.faults)
                if v.zero_sum_problem:
                    problems.append(f"{where}: game {game.game}: {v.zero_sum_problem}")
        told.clear()

    for k, ev in enumerate(game.events, start=1):
        obj = dict(ev)
        obj["seq"] = k
        try:
            decoded = decode_obj(obj)
        except DecodeError as exc:
            problems.append(f"{_where(ev)}: {exc.field + ': ' if exc.field else ''}{exc.message}")
            checker.expect_seq(k + 1)
            continue
        issues = checker.admit(decoded)
        if issues:
            problems += [f"{_where(ev)}: {i.field + ': ' if i.field else ''}{i.message}" for i in issues]
        elif type(decoded) is GameEnded and decoded.game == game.game:
            scored(_where(ev))
    ended = bool(closed)
    if not ended:
        checker.end()
        for v in told:
            if type(v) is Standing and v.final and v.game == game.game and v.open:
                problems.append(f"{game.origin}: game {game.game}: {v.open} at the end of the file")
        scored(game.origin)
    over = bool(closed) and closed[-1].over and not closed[-1].ended
    return problems, over


def _what_was_read(path: str, g: ImportedGame, closed: bool = False, was: str | None = None) -> str:
    deals = sum(1 for e in g.events if e.get("type") == "deal_started")
    ended = any(e.get("type") == "game_ended" for e in g.events)
    renamed = f" (its id {was} is in the log already)" if was else ""
    return (f"{path}: game {g.game}{renamed}: {deals} deal(s), " +
            ("ended: every pool is closed, as the rules end it" if closed else "ended" if ended else
             "not ended (the source does not say it ended; more may be appended)"))


def renamed(g: ImportedGame, game: str) -> ImportedGame:
    """The same game under another id (every event's ``game``)."""
    return attrs.evolve(g, game=game, events=EventList({**e, "game": game} for e in g.events))


def _free_id(game: str, taken: set[str]) -> str:
    """``game-2``, ``game-3``, …: the first not taken."""
    n = 2
    while f"{game}-{n}" in taken:
        n += 1
    return f"{game}-{n}"


def _existing_games(log: str) -> set[str]:
    if not os.path.exists(log) or os.path.getsize(log) == 0:
        return set()
    ids = set()
    try:
        for _, item in read_events(log):
            if not isinstance(item, Problem) and item.type == "game_started":
                ids.add(item.game)
    except LogUnreadable:
        pass
    return ids


def import_sources(fmt: str, sources: Sequence[str], log: str,
                   progress: Callable[[int, int], None] | None = None,
                   warn: Callable[[str], None] | None = None, key: bytes | None = None,
                   game_id: str | None = None, rename: bool = False) -> ImportOutcome:
    """Import every source into ``log`` (see the module docstring). ``game_id`` names the one game the
    sources hold (more than one is refused); with ``rename`` a game whose id is taken (in the log, or by
    an earlier source) comes in as ``ID-2``, ``ID-3``… and the new id is said; without, it is refused.
    A game whose rules end it where the source stops (every pool closed) gets its ``game_ended``."""
    reader = IMPORTERS[fmt]
    out = ImportOutcome()
    taken = _existing_games(log)
    accepted = Spool()  # the sound games' events, a JSON line each: on disk past a few MB, never all in memory
    try:
        _import_each(reader, fmt, sources, log, out, taken, accepted, progress, warn, game_id, rename)
        if accepted.length:
            lines = ((k, orjson.loads(line)) for k, line in enumerate(accepted.lines(), start=1))
            LogWriter(log, lambda: LogChecker().admit, key=key, warn=warn).append_stream(lines, "import")
    finally:
        accepted.close()
    return out


def _import_each(reader: Any, fmt: str, sources: Sequence[str], log: str, out: ImportOutcome, taken: set[str],
                 accepted: Spool, progress: Callable[[int, int], None] | None, warn: Callable[[str], None] | None,
                 game_id: str | None, rename: bool) -> None:
    """Read, check and spool each source's games in turn (a source's games are let go before the next is read)."""
    named = 0
    for i, path in enumerate(sources, start=1):
        try:
            with open(path, "rb") as fh:
                data = fh.read()
            games = reader(path, data)
        except OSError as exc:
            out.unreadable.append(f"{path}: cannot read ({exc.strerror or exc})")
            games = []
        except SourceError as exc:
            out.unreadable.append(str(exc))
            games = []
        except Exception as exc:  # noqa: BLE001 - one source never stops the batch
            out.unreadable.append(f"{path}: internal error reading it as {fmt} ({type(exc).__name__}: {exc}); "
                                  "please report it")
            games = []
        if not games and not any(u.startswith(f"{path}:") for u in out.unreadable):
            out.unreadable.append(f"{path}: holds no game to import")
        for g in games:
            for note in g.notes:
                if warn:
                    warn(note)
            was = None
            if game_id is not None:
                named += 1
                if named > 1:
                    raise ImportClash(f"--game-id names one game, and the sources hold more ({path}: {g.game}): "
                                      "import them one by one, or use --rename")
                g = renamed(g, game_id)
            if g.game in taken and rename:
                was, g = g.game, renamed(g, _free_id(g.game, taken))
            if g.game in taken:
                if warn:
                    warn(_what_was_read(path, g))
                out.refused[f"{path}: game {g.game}"] = [
                    f"{path}: game {g.game} is already in {log} (import it under another id: --game-id ID, "
                    "or --rename)"]
                continue
            problems, closed = _checked(g)
            if warn:
                warn(_what_was_read(path, g, closed, was))
            if problems:
                out.refused[f"{path}: game {g.game}"] = problems
                continue
            if closed:
                g.events.append({"v": 1, "type": "game_ended", "game": g.game, "reason": "every pool closed",
                                 "_source": {"file": path, "record": "the end: every pool closed"}})
            taken.add(g.game)
            for line in g.events.lines():
                accepted.write(line + b"\n")
            out.imported.append(g.game)
            if was:
                out.renamed[was] = g.game
        del games
        if progress:
            progress(i, len(sources))
