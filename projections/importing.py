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

from vistlog.events.codec import DecodeError, decode_obj
from vistlog.events.importers import IMPORTERS, ImportedGame, SourceError
from vistlog.events.log import LogUnreadable, Problem, append, read_events

from .fold import Pipeline

__all__ = ["ImportOutcome", "import_sources", "check_game"]


@attrs.define
class ImportOutcome:
    """What an import did: the games appended, the games refused (with why), unreadable sources."""

    imported: list[str] = attrs.Factory(list)
    refused: dict[str, list[str]] = attrs.Factory(dict)
    unreadable: list[str] = attrs.Factory(list)

    @property
    def exit_code(self) -> int:
        """2 when a source could not be read at all, 1 when a game was refused, else 0."""
        return 2 if self.unreadable else 1 if self.refused else 0


def _where(ev: dict[str, Any]) -> str:
    src = ev.get("_source") or {}
    return f"{src.get('file', '?')} {src.get('record', '')}".strip()


def check_game(game: ImportedGame) -> list[str]:
    """The problems of one imported game, each naming the source record it came from."""
    pipe = Pipeline("import", detail=False)
    problems: list[str] = []
    for k, ev in enumerate(game.events, start=1):
        obj = dict(ev)
        obj["seq"] = k
        try:
            decoded = decode_obj(obj)
        except DecodeError as exc:
            problems.append(f"{_where(ev)}: {exc.field + ': ' if exc.field else ''}{exc.message}")
            pipe.checker.expect_seq(k + 1)
            continue
        for item in pipe.feed(k, decoded):
            if isinstance(item, Problem):
                problems.append(f"{_where(ev)}: {item.field + ': ' if item.field else ''}{item.message}")
    for item in pipe.close():
        if isinstance(item, Problem):
            problems.append(f"{game.origin}: {item.message}")
    return problems


def _what_was_read(path: str, g: ImportedGame) -> str:
    deals = sum(1 for e in g.events if e.get("type") == "deal_started")
    ended = any(e.get("type") == "game_ended" for e in g.events)
    return (f"{path}: game {g.game}: {deals} deal(s), " +
            ("ended" if ended else "not ended (the source does not say it ended; more may be appended)"))


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
                   warn: Callable[[str], None] | None = None, key: bytes | None = None) -> ImportOutcome:
    """Import every source into ``log`` (see the module docstring)."""
    reader = IMPORTERS[fmt]
    out = ImportOutcome()
    taken = _existing_games(log)
    accepted: list[dict[str, Any]] = []
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
            if warn:
                warn(_what_was_read(path, g))
            if g.game in taken:
                out.refused[f"{path}: game {g.game}"] = [f"{path}: game {g.game} is already in {log}"]
                continue
            problems = check_game(g)
            if problems:
                out.refused[f"{path}: game {g.game}"] = problems
                continue
            taken.add(g.game)
            accepted += g.events
            out.imported.append(g.game)
        if progress:
            progress(i, len(sources))
    if accepted:
        lines = [(k, orjson.loads(orjson.dumps(ev))) for k, ev in enumerate(accepted, start=1)]
        append(log, lines, lambda: Pipeline(log, detail=False).check, source_name="import", warn=warn, key=key)
    return out
