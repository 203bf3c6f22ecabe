"""A log folded as it grows: each look reads only the lines appended since the last one and extends the
folds by them, so what a score pad shows after a deal costs that deal, not the game so far.

The fold is the log's writer's own :class:`~vistlog.events.log.Sink`: a deal recorded through
:attr:`LiveFold.writer` is tried, then checked once and folded by that one check, and what other processes
append is read by the same writer (one stream, one checker, one verdict per event).

>>> import shutil, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "evening.jsonl")
>>> _ = shutil.copy("samples/sochi-evening.jsonl", path)
>>> live = LiveFold(path)
>>> sorted(live.update())
['sochi-2026-11-28']
>>> live.result("sochi-2026-11-28").ended, live.update()
(True, set())
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from vistlog.events.log import LogWriter
from vistlog.events.model import Event, GameStarted
from vistlog.events.problems import Issue, Problem

from .fold import GameResult, Pipeline

__all__ = ["LiveFold"]


class LiveFold:
    """The games of one log, folded with detail (the replay, the drawing), extended by what was appended
    since the last :meth:`update` or through :attr:`writer`. A log that was replaced, cut or rewritten in
    place (another inode, shorter than what was read, or no longer holding what was read) is folded again
    from its start. A torn last line waits for the rest of it.

    ``key``, ``warn``, ``wait``: the :attr:`writer`'s (:class:`~vistlog.events.log.LogWriter`). Threads that
    read the fold hold :attr:`guard`, which the writer holds while it feeds the fold."""

    def __init__(self, path: str, *, key: bytes | None = None, warn: Callable[[str], None] | None = None,
                 wait: float | None = None) -> None:
        self.path = path
        self.changed: set[str] = set()
        """The games changed since the last :meth:`update` (told then)."""
        self.order: list[str] = []
        """The games, in the order they started."""
        self._fresh()
        self.guard = threading.RLock()
        """Held while the fold is read or fed (never while a writer waits for the log's own lock)."""
        self.writer = LogWriter(path, make_sink=self._fresh, key=key, warn=warn, wait=wait, guard=self.guard)
        """What reads the log into this fold, and appends to it (checked by this fold's checker)."""

    def _fresh(self) -> LiveFold:
        """Fold from the start again (the writer's sink, made anew when the log is read from its start)."""
        self.changed |= set(self.order)  # everything shown is folded again
        self.pipe = Pipeline(self.path, detail=True, events=True, live=True)
        self.order = []
        self.ended: dict[str, GameResult] = {}
        self.problems: dict[str, list[Problem]] = {}
        """The problems found so far, by game (``""``: lines of no game)."""
        return self

    @property
    def offset(self) -> int:
        """How far the log has been read, in bytes."""
        return self.writer.read_to

    def update(self) -> set[str]:
        """Read and fold what was appended since the last look; the games changed since the last look (by
        this look, or by what was written through :attr:`writer`). No lock is taken and an append under way is
        not read until it has finished (:func:`~vistlog.events.lines.committed_size`)."""
        with self.guard:
            if self.writer.read_to and not os.path.exists(self.path):  # the log went away: so does what it showed
                self.writer.forget()
                self._fresh()
            self.writer.refresh()
            self.pipe.go_live()  # the log's start read: from now on each deal is told as soon as it seems over
            changed, self.changed = self.changed, set()
        return changed

    # the writer's sink

    def event(self, lineno: int, ev: Event) -> list[Issue]:
        """Check and fold one event of the log (line ``lineno``); the checker's issues (none: accepted)."""
        if type(ev) is GameStarted and ev.game not in self.pipe.folds and ev.game not in self.ended:
            self.order.append(ev.game)
        self.changed.add(ev.game)
        issues, outs = self.pipe.take(lineno, ev)
        for out in outs:
            if isinstance(out, GameResult):
                self.ended[out.game] = out
            else:
                self.problems.setdefault(out.game or "", []).append(out)
        return issues

    def unreadable(self, lineno: int, problem: Problem) -> None:
        """Line ``lineno`` is no event: said among the lines of no game; its game's deal is skipped, as a
        fold of the whole file skips it."""
        self.problems.setdefault("", []).append(problem)
        self.pipe.note_unreadable(problem)

    def rehearse(self, events: list[Event], then: Callable[[], list[Issue]] | None) -> list[list[Issue]] | None:
        """What the checker would say of ``events`` now, changing nothing (:meth:`Pipeline.rehearse`)."""
        return self.pipe.rehearse(events, then)

    def result(self, game: str) -> GameResult | None:
        """``game`` as folded so far (``None``: no such game started): an ended game's result, or a game
        under way settled as it stands (its last deal scored once it is finished)."""
        if game in self.ended:
            return self.ended[game]
        fold = self.pipe.folds.get(game)
        return fold.result() if fold is not None else None
