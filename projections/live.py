"""A log folded as it grows: each look reads only the lines appended since the last one and extends the
folds by them, so what a score pad shows after a deal costs that deal, not the game so far.

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
from typing import Final

from vistlog.events.codec import DecodeError, decode
from vistlog.events.lines import committed_size, tail_mark
from vistlog.events.model import GameStarted
from vistlog.events.problems import Problem

from .fold import GameResult, Pipeline

__all__ = ["LiveFold"]

CHUNK: Final = 1 << 20
"""How much of the log is read at a time (the lines of a chunk are folded before the next is read)."""


class LiveFold:
    """The games of one log, folded with detail (the replay, the drawing), extended by what was appended
    since the last :meth:`update`. A log that was replaced, cut or rewritten in place (another inode, shorter
    than what was read, or no longer holding what was read) is folded again from its start. A torn last line
    waits for the rest of it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._reset(None)

    def _reset(self, identity: tuple[int, int] | None) -> None:
        self.pipe = Pipeline(self.path, detail=True, events=True, live=True)
        self.identity = identity
        self.offset = 0
        self.mark = b""
        self.lineno = 0
        self.order: list[str] = []
        """The games, in the order they started."""
        self.ended: dict[str, GameResult] = {}
        self.problems: dict[str, list[Problem]] = {}
        """The problems found so far, by game (``""``: lines of no game)."""

    def update(self) -> set[str]:
        """Read and fold what was appended since the last look; the games it changed. No lock is taken and an
        append under way is not read until it has finished (:func:`~vistlog.events.lines.committed_size`)."""
        try:
            fh = open(self.path, "rb")  # noqa: SIM115 - closed below
        except FileNotFoundError:
            if self.offset:
                self._reset(None)
            return set()
        with fh:
            st = os.fstat(fh.fileno())
            size = committed_size(self.path, fh.fileno())
            identity = (st.st_dev, st.st_ino)
            changed: set[str] = set()
            if identity != self.identity or size < self.offset or tail_mark(fh.fileno(), self.offset) != self.mark:
                changed = set(self.order)  # a log replaced or rewritten: everything it showed is folded again
                self._reset(identity)
            fh.seek(self.offset)
            rest = b""
            while self.offset + len(rest) < size:
                chunk = fh.read(min(CHUNK, size - self.offset - len(rest)))
                if not chunk:
                    break
                data = rest + chunk
                cut = data.rfind(b"\n") + 1
                rest = data[cut:]
                self.offset += cut
                self._feed(data[:cut], changed)
            self.mark = tail_mark(fh.fileno(), self.offset)
        self.pipe.go_live()  # the log's start read: from now on each deal is told as soon as it seems over
        return changed

    def _feed(self, data: bytes, changed: set[str]) -> None:
        for raw in data.split(b"\n")[:-1]:
            self.lineno += 1
            if not raw.strip():
                continue
            try:
                ev = decode(raw)
            except DecodeError as exc:
                self.problems.setdefault("", []).append(
                    Problem(self.path, self.lineno, exc.seq, exc.field, exc.message, None, code=exc.code))
                continue
            if type(ev) is GameStarted and ev.game not in self.pipe.folds and ev.game not in self.ended:
                self.order.append(ev.game)
            changed.add(ev.game)
            for out in self.pipe.feed(self.lineno, ev):
                if isinstance(out, GameResult):
                    self.ended[out.game] = out
                else:
                    self.problems.setdefault(out.game or "", []).append(out)

    def result(self, game: str) -> GameResult | None:
        """``game`` as folded so far (``None``: no such game started): an ended game's result, or a game
        under way settled as it stands (its last deal scored once it is finished)."""
        if game in self.ended:
            return self.ended[game]
        fold = self.pipe.folds.get(game)
        return fold.result() if fold is not None else None
