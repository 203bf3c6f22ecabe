"""What the checker decided, as values: the one stream the read side folds.

The checker (:class:`~vistlog.events.checker.LogChecker`) owns every game's state. Besides each event's
problems (an empty list: accepted), it tells a *follower* what came of the events it accepted, in order, as the
frozen records below: a game opened, a deal closed (its record, once), the rows its scoring wrote on the sheet
(scored once, by the game's own scoring), a refold after a void (the rows from some point on are withdrawn and
follow again), and where the game stands (when asked to tell it live, and always once when the game closes); a
live follower is also told a deal that seems over before it is closed (:class:`Provisional`).
A projection is a fold over these values, as python-chess's ``pgn.BaseVisitor`` is over a game's moves: it never
reads the checker's state, nor changes it.

>>> from vistlog.events.checker import LogChecker
>>> from vistlog.events.codec import decode
>>> told = []
>>> chk = LogChecker(told.append, detail=True)
>>> for line in (b'{"seq":1,"type":"game_started","game":"g","kind":"preferans","players":["A","B","C"],'
...              b'"pool":10,"rules":{"preset":"sochi"}}',
...              b'{"seq":2,"type":"deal_started","game":"g","deal":1,"dealer":"A"}',
...              b'{"seq":3,"type":"contract","game":"g","deal":1,"declarer":"B","contract":"6S"}',
...              b'{"seq":4,"type":"whist","game":"g","deal":1,"player":"C","call":"pass"}',
...              b'{"seq":5,"type":"whist","game":"g","deal":1,"player":"A","call":"pass"}',
...              b'{"seq":6,"type":"game_ended","game":"g"}'):
...     assert chk.check(decode(line)) == []
>>> [type(v).__name__ for v in told]
['GameOpened', 'DealClosed', 'Rows', 'Standing']
>>> [e.describe() for e in told[2].entries]
['+2 pool B: 6S made without play (both defenders passed)']
>>> told[-1].totals["pool"], told[-1].final
({'A': 0, 'B': 2, 'C': 0}, True)
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from .entries import Entry, Totals
from .model import GameStarted
from .record import DealRecord

__all__ = ["GameOpened", "DealClosed", "Rows", "Rewound", "Standing", "Provisional", "Verdict", "Follower"]


@attrs.frozen(slots=True)
class GameOpened:
    """A ``game_started`` was accepted: the game's rows (its opening, if any) follow."""

    started: GameStarted

    @property
    def game(self) -> str:
        """The game's id."""
        return self.started.game


@attrs.frozen(slots=True)
class DealClosed:
    """A deal has ended: its record, made once. ``amends``: the record takes the place of the one told last (the
    same deal, which went on after it seemed over: a whist after a half-whist, allocations agreed)."""

    game: str
    record: DealRecord
    amends: bool = False


@attrs.frozen(slots=True)
class Rows:
    """What one item (a deal, a balance, an adjustment) wrote on the sheet, in order; a voided deal's rows are
    told too, marked ``void`` (shown, never counted). Told only to a follower that asked for detail."""

    game: str
    entries: tuple[Entry, ...]


@attrs.frozen(slots=True)
class Rewound:
    """A deal was voided or amended: the rows told after the first ``rows`` of the game are withdrawn; the items
    from there on are told again."""

    game: str
    rows: int


@attrs.frozen(slots=True)
class Standing:
    """Where a game stands: its totals and what its scoring found. ``final``: the game is closed (it ended, or the
    file did: ``open`` says why it could not stop there, if it could not), and ``totals`` is its own. Before then a
    follower told every row (``detail``) keeps its own totals and is told none (``None``)."""

    game: str
    totals: Totals | None = attrs.field(eq=False)
    deals: int
    voided: frozenset[int]
    """The deal records struck out, by the ``seq`` of their ``deal_started``."""
    faults: tuple[tuple[int, str, int], ...]
    """Scoring's findings: (deal, message, seq of the event it is about), an allocation that does not add up."""
    zero_sum_problem: str | None
    over: bool
    """The rules end the game on these totals (every pool closed)."""
    ended: bool
    final: bool = False
    open: str | None = None


@attrs.frozen(slots=True)
class Provisional:
    """Told to a live follower only: the deal under way has ended as far as anyone knows, and would be scored so
    if nothing more came (a whist after a half-whist, an allocation may still come; the deal is closed for good
    at the next event that is not part of it). ``record`` ``None``: the provisional deal told last is withdrawn
    (it went on, or it is closed now). ``totals``: the game's totals with it."""

    game: str
    record: DealRecord | None
    entries: tuple[Entry, ...] = ()
    totals: Totals | None = attrs.field(default=None, eq=False)


Verdict = GameOpened | DealClosed | Rows | Rewound | Standing | Provisional
"""One value of the stream."""

Follower = Callable[[Verdict], None]
"""Who is told the stream (``list.append`` will do)."""
