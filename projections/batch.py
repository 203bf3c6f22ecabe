"""Many logs at once: a pure function per log, an associative merge, and two runners.

:func:`validate_file`, :func:`settle_file` and :func:`audit_file` turn one log into a :class:`Report` (plain,
picklable data). :func:`merge` joins reports; it is associative and commutative with the
unit :data:`EMPTY`, so any grouping or order of the same logs gives the same report, which
is what makes :func:`run_local` (a process pool, in batches) and :func:`run_dask` (a Dask
cluster, ``dask.bag.from_sequence(...).map(...).fold(merge)``) safe.

>>> a = Report(files=((1, FileReport("b.jsonl", (), (), None)),))
>>> b = Report(files=((0, FileReport("a.jsonl", (), (), None)),))
>>> [f.path for f in merge(a, b).in_order()] == [f.path for f in merge(b, a).in_order()] == ["a.jsonl", "b.jsonl"]
True
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import partial
from pathlib import Path
from typing import Any


from vistlog.events.log import LogUnreadable
from vistlog.events.problems import Problem

from .fold import run
from .reports import EMPTY, KIND_VIEWS, FileReport, Report, kind_view, merge
from .spool import GameViews, Problems, SpoolWriter

__all__ = ["FileReport", "Report", "EMPTY", "merge", "validate_file", "settle_file", "audit_file", "analyse_file",
           "file_report", "expand",
           "KIND_VIEWS",
           "run_local", "run_dask", "run_sequential", "progress_bar"]


def _one(path: str, kind: str, spool: bool) -> FileReport:
    what, detail = kind_view(kind)
    problems = SpoolWriter(Problems, spool)
    games = SpoolWriter(GameViews, spool)
    try:
        for item in run(path, detail=detail):
            if isinstance(item, Problem):
                problems.append(item)
            else:
                games.put(item.index, what(item))
    except LogUnreadable as exc:
        return FileReport(path, (), problems.close(), str(exc))
    return FileReport(path, games.close(), problems.close(), None)


def settle_file(index: int, path: str, spool: bool = True) -> Report:
    """The settlement of every game of one log (the ``settle --format json`` game objects); ``spool``:
    kept on disk, not in memory, until read (see :mod:`vistlog.projections.spool`)."""
    return Report(((index, _one(path, "settle", spool)),))


def validate_file(index: int, path: str, spool: bool = True) -> Report:
    """The problems of one log, and per game its id and number of deals."""
    return Report(((index, _one(path, "validate", spool)),))


def audit_file(index: int, path: str, spool: bool = True) -> Report:
    """The audit of every game of one log (the ``audit --format json`` game objects)."""
    return Report(((index, _one(path, "audit", spool)),))


def stats_file(index: int, path: str, spool: bool = True) -> Report:
    """Per game of one log its statistics summary (:func:`~vistlog.projections.stats.summary`), or, for
    a game with problems, ``{"game", "unsound": N}``: only sound games count."""
    return Report(((index, _one(path, "stats", spool)),))


def analyse_file(index: int, path: str, spool: bool = True) -> Report:
    """The open-hand analysis of every game of one log (the ``analyse --format json`` game objects)."""
    return Report(((index, _one(path, "analyse", spool)),))


def file_report(kind: str, index: int, path: str, spool: bool = True) -> Report:
    """What ``kind`` (a key of :data:`KIND_VIEWS`, or a kind with options: :func:`kind_view`) keeps of every game
    of one log."""
    return Report(((index, _one(path, kind, spool)),))



def expand(inputs: Sequence[str], suffix: str = ".jsonl") -> list[str]:
    """Files as given, folders as every ``*SUFFIX`` file below them (sorted); ``-`` stays."""
    out: list[str] = []
    for item in inputs:
        p = Path(item)
        if item != "-" and p.is_dir():
            out += sorted(str(x) for x in p.rglob(f"*{suffix}") if x.is_file())
        else:
            out.append(item)
    return out


def _batch(kind: str, items: list[tuple[int, str]]) -> Report:
    fn = partial(file_report, kind)
    report = EMPTY
    for index, path in items:
        report = merge(report, fn(index, path, True))
    return report


def run_sequential(kind: str, paths: Sequence[str]) -> Report:
    """All logs in this process, one after the other."""
    return _batch(kind, list(enumerate(paths)))


def _batches(paths: Sequence[str], size: int) -> list[list[tuple[int, str]]]:
    items = list(enumerate(paths))
    return [items[i:i + size] for i in range(0, len(items), size)]


def run_local(kind: str, paths: Sequence[str], jobs: int | None = None, batch_size: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> Report:
    """All logs on a process pool of ``jobs`` workers (default: every core), in batches."""
    jobs = jobs or os.cpu_count() or 1
    if jobs > 1 and len(paths) == 1 and paths[0] != "-" and Path(paths[0]).is_file():
        from .split import run_split  # one log: its games split among the workers

        report = Report(((0, run_split(kind, paths[0], jobs)),))
        if progress:
            progress(1, 1)
        return report
    if jobs == 1 or len(paths) <= 1:
        report = EMPTY
        for i, path in enumerate(paths):
            report = merge(report, file_report(kind, i, path, True))
            if progress:
                progress(i + 1, len(paths))
        return report
    size = batch_size or max(1, min(64, len(paths) // (jobs * 4) or 1))
    batches = _batches(paths, size)
    report = EMPTY
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(_batch, kind, b): len(b) for b in batches}
        for fut in as_completed(futures):
            report = merge(report, fut.result())
            done += futures[fut]
            if progress:
                progress(done, len(paths))
    return report


def run_dask(kind: str, paths: Sequence[str], address: str, partition_size: int | None = None) -> Report:
    """All logs on a Dask cluster (``address``, or ``local`` for a LocalCluster on 127.0.0.1), in partitions
    of ``partition_size`` logs (by default at most 50, and small enough that every worker has four).

    Needs the optional extra: ``pip install 'vistlog[dask]'``.
    """
    try:
        import dask.bag as db
        from distributed import Client, LocalCluster
    except ImportError:
        raise RuntimeError("--dask needs the optional extra: pip install 'vistlog[dask]'") from None
    cluster = None
    if address == "local":
        # the scheduler's HTTP server on loopback and a free port: with no address it takes 8787, shared by every
        # other cluster on the machine (two runs side by side warned, and one took the other's port)
        cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, host="127.0.0.1",
                               dashboard_address="127.0.0.1:0", processes=True)
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise RuntimeError(f"--dask {address}: cannot reach a scheduler there ({type(exc).__name__}: {exc})") \
                from None
    try:
        fn = partial(file_report, kind)
        workers = max(1, sum(client.nthreads().values()))
        size = partition_size or max(1, min(50, len(paths) // (4 * workers)))
        bag = db.from_sequence(list(enumerate(paths)), partition_size=size)
        return bag.map(lambda ip: fn(ip[0], ip[1], False)).fold(merge, merge, initial=EMPTY).compute()  # type: ignore[no-any-return]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def progress_bar(stream: Any = None, unit: str = "logs") -> Callable[..., None] | None:
    """A progress bar on standard error when it is a terminal, else ``None`` (``unit``: what is counted). It is
    called with what is done and the total, and may be told how the done were answered (``{"exact": 3, "range":
    1}``: shown after the count, ``3 exact · 1 range``)."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return None

    def show(done: int, total: int, answers: Mapping[str, int] | None = None) -> None:
        width = 30
        filled = width * done // max(total, 1)
        said = "".join(f" · {n} {what}" for what, n in (answers or {}).items() if n)
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {unit}{said}\x1b[K")
        if done >= total:
            stream.write("\n")
        stream.flush()

    return show
