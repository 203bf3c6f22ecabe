"""One big log on every core: its games split among worker processes, the output that of one process.

:func:`run_split` reads the file once in this process and does what concerns the whole file:
the lines (length, JSON, a torn end), the hash chain, and the running ``seq`` (what each event's
``seq`` should be). It routes each line of a game, still as bytes, to the worker that has the
game (games are dealt round-robin as they first appear); each worker decodes its lines, checks
and folds them exactly as one process would, being told the ``seq`` each event should carry.
The workers' problems come back keyed by their line, the games by the line that started them
(each on disk, see :mod:`vistlog.projections.spool`), so the merged report is the one
:func:`vistlog.projections.batch.run_sequential` gives, problem for problem and game for game.

>>> from vistlog.projections.batch import run_sequential
>>> one = run_sequential("settle", ["samples/sochi-evening.jsonl"]).in_order()[0]
>>> split = run_split("settle", "samples/sochi-evening.jsonl", jobs=2)
>>> split == one
True
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import orjson

from vistlog.events.codec import DecodeError, decode_obj, decode_owned
from vistlog.events.ids import IdTable
from vistlog.events.chain import CHAIN_MESSAGES
from vistlog.events.lines import RawLine, problem_of, read_events
from vistlog.events.problems import LogUnreadable
from vistlog.events.model import GameStarted
from vistlog.events.problems import Problem

from .fold import GameResult, Pipeline
from .reports import FileReport, kind_view
from .spool import END, GameViews, Key, Problems, SpoolWriter, merged

__all__ = ["run_split", "WorkerFailed", "BATCH", "QUEUED"]

BATCH = 1024
"""Lines sent to a worker at a time."""
QUEUED = 16
"""Batches that may wait for one worker before reading stops to let it catch up (memory stays bounded)."""


def _what(kind: str) -> tuple[Callable[[GameResult], dict[str, Any]], bool]:
    return kind_view(kind)


class WorkerFailed(RuntimeError):
    """A worker process met an internal error (a bug, not a problem of the log: hence not a
    :class:`~vistlog.events.problems.VistlogError`); raised in the process that reads the file.
    Like every vistlog error it has ``code`` and ``problems``."""

    code = "worker-failed"
    problems: tuple[Problem, ...] = ()


def _worker(inbox: Any, conn: Connection, path: str, kind: str) -> None:
    """Check and fold the lines of the games given to this process; send back what they gave.

    An internal error goes back as a :class:`WorkerFailed` (no traceback here); the worker still
    takes every batch up to the end, so that the reading process never waits on a full queue.
    """
    failed: str | None = None
    work: _Work | None = None
    try:
        work = _Work(path, kind)
    except Exception as exc:
        failed = f"{type(exc).__name__}: {exc}"
    conn.send(("spools", [w.path for w in (work.problems, work.games)] if work is not None else []))
    while True:
        batch = inbox.get()
        end = batch[0] == "end"
        if work is not None and failed is None:
            try:
                if end:
                    work.close(batch[1])
                else:
                    work.feed(batch)
            except Exception as exc:
                failed = f"{type(exc).__name__}: {exc}"
        if end:
            if work is not None and failed is None:
                conn.send((work.problems.close(), work.games.close()))
            else:  # the work's spool files go with it, when this function returns
                conn.send(WorkerFailed(failed or "no work"))
            conn.close()
            return


class _Work:
    """What one worker holds: its pipeline, and what its games gave so far, on disk: the problems, each
    stored with its place (line, 0, its place among the problems of the line), and the views, in the
    order the games started, each stored with its first line."""

    def __init__(self, path: str, kind: str) -> None:
        self.path = path
        self.what, detail = _what(kind)
        self.pipe = Pipeline(path, detail)
        self.problems = SpoolWriter(Problems)
        self.games = SpoolWriter(GameViews)
        self.first_line: dict[str, int] = {}

    def take(self, lineno: int, out: tuple[Problem | GameResult, ...] | list[Problem | GameResult]) -> None:
        for k, item in enumerate(out):
            if isinstance(item, GameResult):
                self.games.put(item.index, self.what(item), stored=(self.first_line[item.game],))
            else:
                self.problems.append(item, (lineno, 0, k))

    def close(self, complete: bool) -> None:
        """The file has ended (``complete``: it was read to its end): the problems found at the end
        stand after every line, in the order of their games' first lines."""
        if not complete:
            return
        at_end: list[tuple[Key, Problem]] = []
        for k, item in enumerate(self.pipe.close()):
            if isinstance(item, GameResult):
                self.games.put(item.index, self.what(item), stored=(self.first_line[item.game],))
            else:
                at_end.append(((END, self.first_line.get(item.game or "", 0), k), item))
        for key, problem in sorted(at_end, key=lambda kp: kp[0]):
            self.problems.append(problem, key)

    def feed(self, batch: list[tuple[int, Any, int, str | None]]) -> None:
        """Decode, check and fold a batch of lines."""
        pipe, path = self.pipe, self.path
        for lineno, content, expected, broken in batch:
            pipe.checker.expect_seq(expected)
            if isinstance(content, Problem):
                pipe.note_unreadable(content)
                self.problems.append(content, (lineno, 0, 0))
                continue
            data = orjson.loads(content)
            try:
                event = decode_owned(data)
            except DecodeError as exc:
                problem = problem_of(path, lineno, data, exc)
                pipe.note_unreadable(problem)
                self.problems.append(problem, (lineno, 0, 0))
                continue
            lead: list[Problem | GameResult] = []
            if broken:
                lead.append(Problem(path, lineno, event.seq, "_chain", CHAIN_MESSAGES[broken], event.game, code=broken))
                fold = pipe.folds.get(event.game)
                if fold is not None:
                    fold.mark_broken()
            new = type(event) is GameStarted and event.game not in pipe.folds
            out = pipe.feed(lineno, event)
            if new and event.game in pipe.folds:
                self.first_line[event.game] = lineno
            self.take(lineno, [*lead, *out])


def _next_seq(expected: int, data: Any) -> int:
    """The ``seq`` expected after a line: as :class:`~vistlog.events.checker.LogChecker` moves it for an
    event, and :meth:`~vistlog.events.checker.LogChecker.note_unreadable` for a line that does not decode."""
    seq = data.get("seq") if type(data) is dict else None
    if type(seq) is int and seq > 0:
        return seq + 1
    if type(seq) is int:  # seq ≤ 0: an event moves it to 1, a line that does not decode by one
        try:
            decode_obj(dict(data))
        except DecodeError:
            return expected + 1
        return 1
    return expected + 1


def run_split(kind: str, path: str, jobs: int) -> Any:
    """``kind`` (validate, settle, audit, stats) of one log with ``jobs`` worker processes: the same
    :class:`~vistlog.projections.batch.FileReport` as one process gives. A worker that dies (killed, out
    of memory) ends it with :class:`WorkerFailed` naming the worker; the others are stopped and no
    worker's spool file is left behind."""
    ctx = multiprocessing.get_context()
    conns: list[Connection] = []
    inboxes: list[Any] = []
    procs = []
    for _ in range(max(jobs, 1)):
        mine, theirs = ctx.Pipe(duplex=False)
        inbox = ctx.Queue(maxsize=QUEUED)  # sent by a feeder thread: a busy worker never holds up the others
        proc = ctx.Process(target=_worker, args=(inbox, theirs, path, kind), daemon=True)
        proc.start()
        theirs.close()
        conns.append(mine)
        inboxes.append(inbox)
        procs.append(proc)
    spools: list[str] = []
    try:
        for i, conn in enumerate(conns):
            spools += [p for p in _receive(conn, procs, i)[1] if p]
        return _feed(path, kind, conns, inboxes, procs)
    except BaseException:
        for inbox in inboxes:  # what waits for a dead reader is dropped, not flushed at exit
            inbox.cancel_join_thread()
            inbox.close()
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
            proc.join()
        for spool in spools:  # a worker killed before its end leaves no file behind
            with contextlib.suppress(OSError):
                os.unlink(spool)
        raise


def _dead(procs: list[Any], i: int) -> WorkerFailed:
    proc = procs[i]
    proc.join(1)
    code = proc.exitcode
    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    return WorkerFailed(f"worker {i + 1} of {len(procs)} (process {proc.pid}) died ({how}); the command stopped")


def _put(inbox: Any, batch: Any, procs: list[Any], i: int) -> None:
    """Give a worker a batch, waiting while its queue is full, and noticing when it has died."""
    while True:
        try:
            inbox.put(batch, timeout=0.2)
            return
        except queue.Full:
            if not procs[i].is_alive():
                raise _dead(procs, i) from None


def _receive(conn: Connection, procs: list[Any], i: int) -> Any:
    """A worker's next message; a worker that died before sending it is a :class:`WorkerFailed`."""
    while not conn.poll(0.2):
        if not procs[i].is_alive() and not conn.poll(0):
            raise _dead(procs, i)
    try:
        return conn.recv()
    except EOFError:
        raise _dead(procs, i) from None


def _feed(path: str, kind: str, conns: list[Connection], inboxes: list[Any], procs: list[Any]) -> Any:
    pending: list[list[tuple[int, Any, int, str | None]]] = [[] for _ in conns]
    owner: dict[str, int] = {}  # the worker of each game under way; of the ended ones in ``ended``
    ended = IdTable()
    turn = 0

    def route(game: str) -> int:
        nonlocal turn
        i = owner.get(game)
        if i is None:
            i = ended.get(game)
            if i is None:
                i = owner[game] = turn % len(conns)
                turn += 1
        return i

    own = SpoolWriter(Problems)  # the problems of lines that belong to no game, stored with their place
    expected = 1
    unreadable: str | None = None

    def send(i: int, item: tuple[int, Any, int, str | None]) -> None:
        pending[i].append(item)
        if len(pending[i]) >= BATCH:
            _put(inboxes[i], pending[i], procs, i)
            pending[i] = []

    try:
        for lineno, item in read_events(path, undecoded=True):
            if isinstance(item, RawLine):
                game = item.data.get("game")
                if type(game) is str:
                    i = route(game)
                    send(i, (lineno, item.content, expected, item.broken))
                    if item.data.get("type") == "game_ended" and game in owner:
                        ended[game] = owner.pop(game)  # later lines of it still go to the same worker
                else:
                    try:
                        decode_obj(item.data)
                    except DecodeError as exc:
                        own.append(problem_of(path, lineno, item.data, exc), (lineno, 0, 0))
                expected = _next_seq(expected, item.data)
                continue
            assert isinstance(item, Problem)
            if item.game is not None:
                i = route(item.game)
                send(i, (lineno, item, expected, None))
            else:
                own.append(item, (lineno, 0, 0))
            if item.code != "torn-line":
                expected = (item.seq if item.seq is not None and item.seq > 0 else expected) + 1
    except LogUnreadable as exc:
        unreadable = str(exc)
    for i, inbox in enumerate(inboxes):
        if pending[i]:
            _put(inbox, pending[i], procs, i)
        _put(inbox, ("end", unreadable is None), procs, i)
    problems = [own.close()]
    parts = []
    failed: WorkerFailed | None = None
    for i, (conn, proc) in enumerate(zip(conns, procs)):
        got = _receive(conn, procs, i)
        proc.join()
        if isinstance(got, WorkerFailed):
            failed = failed or got
            continue
        problems.append(got[0])
        parts.append(got[1])
    if failed is not None:
        raise failed
    if unreadable is not None:
        return FileReport(path, (), merged(Problems, problems), unreadable)
    return FileReport(path, merged(GameViews, parts), merged(Problems, problems), None)
