"""Many logs at once: check, settle or audit whole folders, import other programs' files, statistics.

Every function streams: memory holds one game at a time whatever the size of the archive (a
report keeps each game's JSON-ready view on disk until it is read back).

>>> from vistlog import archive
>>> paths = archive.find_logs(["samples/"])
>>> report = archive.run_many("settle", paths, jobs=1)
>>> [(f.path.split("/")[-1], f.ok) for f in report.in_order()][:2]
[('classic-bombs.jsonl', True), ('corrected-deal.jsonl', True)]
>>> stats, _ = archive.statistics(paths, jobs=1)
>>> stats.games
6
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Literal

from vistlog.events.log import LogUnreadable
from vistlog.events.problems import VistlogError
from vistlog.projections import batch, importing
from vistlog.projections.batch import FileReport, Report
from vistlog.projections.decision_stats import DecisionTally
from vistlog.projections.importing import ImportOutcome
from vistlog.projections.stats import Archive, ArchiveBuilder, read_aliases

from .recording import _key

__all__ = [
    "find_logs", "run_many", "Report", "FileReport", "progress_bar", "import_files", "ImportOutcome",
    "statistics", "Archive", "ManyKind", "decision_statistics", "DecisionTally",
]

ManyKind = Literal["validate", "settle", "audit", "stats", "analyse", "analyse-discards"]
"""What :func:`run_many` does with each log."""

SUFFIXES = {"jsonl": ".jsonl", "csv": ".csv", "pbn": ".pbn", "ppn": ".ppn"}
"""The file ending :func:`import_files` looks for in a folder, by format (``.json`` otherwise)."""


def find_logs(inputs: Sequence[str], suffix: str = ".jsonl") -> list[str]:
    """Files as given, folders as every ``*SUFFIX`` file below them (sorted); ``-`` stays."""
    return batch.expand(inputs, suffix)


def progress_bar(unit: str = "logs") -> Callable[..., None] | None:
    """A progress bar on standard error when it is a terminal, else ``None`` (``unit``: what it counts)."""
    return batch.progress_bar(unit=unit)


def run_many(kind: ManyKind | str, paths: Sequence[str], *, jobs: int | None = None, dask: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> Report:
    """Run ``kind`` over many logs on ``jobs`` local processes (default: every core; one log is split
    by game among them) or on a Dask scheduler at ``dask`` (``local`` starts one on this machine).

    What it gives does not depend on ``jobs`` or ``dask``: each log's :class:`FileReport` (a
    JSON-ready view per game, its problems, or why it is unreadable) in input order.
    """
    if dask:
        try:
            return batch.run_dask(kind, paths, dask)
        except RuntimeError as exc:
            raise VistlogError(str(exc)) from None
    return batch.run_local(kind, paths, jobs=jobs, progress=progress)


def import_files(fmt: str, sources: Sequence[str], log: str | os.PathLike[str], *,
                 key: bytes | None = None, key_file: str | os.PathLike[str] | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 warn: Callable[[str], None] | None = None, game_id: str | None = None,
                 rename: bool = False) -> ImportOutcome:
    """Import files of another program (folders: every file of the format below them) into ``log``.

    Each game is checked on its own; the sound ones whose ids the log does not have yet are
    appended in one locked, hash-chained append (keyed with ``key`` or ``key_file``); the rest
    are named in the outcome with every problem. One bad game or file never stops the others.
    ``game_id`` gives the one game imported its id; ``rename`` brings a game whose id is taken in
    as ``ID-2`` (``outcome.renamed`` says so). A game whose rules end it where the source stops
    (every pool closed) is ended (``game_ended``).
    """
    from .output import OutputError

    target = os.fspath(log)
    try:
        return importing.import_sources(fmt, find_logs(sources, SUFFIXES.get(fmt, ".json")), target,
                                        progress=progress, warn=warn, key=_key(key, key_file),
                                        game_id=game_id, rename=rename)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write ({exc.strerror or exc})") from None


def statistics(paths: Sequence[str], *, jobs: int | None = None, dask: str | None = None,
               period: Literal["day", "week", "month"] = "day", aliases: str | os.PathLike[str] | None = None,
               kind: str | None = None, since: str | None = None,
               until: str | None = None, progress: Callable[[int, int], None] | None = None
               ) -> tuple[Archive, Report]:
    """Every player's record, contract statistics and Glicko-2 ratings across ``paths``.

    ``aliases`` is a CSV file ``name,alias`` merging a person's spellings; ``kind``, ``since`` and
    ``until`` (``YYYY-MM-DD``) choose the games; ``period`` is the rating period. Games with
    problems are left out and named in :attr:`Archive.left_out`. Returns the archive and the
    report of the logs read (their problems and unreadable files).
    """
    names: dict[str, str] = {}
    if aliases is not None:
        path = os.fspath(aliases)
        try:
            with open(path, "rb") as fh:
                names = read_aliases(path, fh.read())
        except OSError as exc:
            raise LogUnreadable(f"{path}: cannot open ({exc.strerror or exc})") from None
    report = run_many("stats", paths, jobs=jobs, dask=dask, progress=progress)
    builder = ArchiveBuilder(period, names)
    wanted = kind.replace("-", "_") if kind else None
    for f in report.in_order():
        for g in f.games:  # read back one at a time: memory holds the totals, not the games
            if "unsound" in g:
                builder.leave_out(f.path, g["game"], g["unsound"])
            elif (wanted is None or g["kind"] == wanted) and (since is None or (g["date"] or "") >= since) \
                    and (until is None or (g["date"] or "9") <= until):
                builder.add(g)
    return builder.archive(), report


def decision_statistics(paths: Sequence[str], *, samples: int = 200, seed: int = 0, jobs: int | None = None,
                        dask: str | None = None, progress: Callable[[int, int], None] | None = None,
                        budget: float | None = None) -> tuple[DecisionTally, Report]:
    """How each player's whist calls and opening leads weighed single-dummy across ``paths`` (``analyse
    --single-dummy`` of every game, ``samples`` layouts a decision drawn by ``seed``): the same numbers on one
    process, ``jobs`` or a Dask scheduler at ``dask``. Only sound games count. ``budget``: the seconds of
    open-hand search a deal may take (``analyse --budget``; ``None``: exact)."""
    kind = f"analyse:{samples}:{seed}" + ("" if budget is None else f"@{budget:g}")
    report = run_many(kind, paths, jobs=jobs, dask=dask, progress=progress)
    tally = DecisionTally()
    for f in report.in_order():
        if f.problems:
            continue
        for g in f.games:
            tally.add(g)
    return tally, report
