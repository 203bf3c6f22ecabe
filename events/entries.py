"""Sheet entries and the running totals they add up to.

An :class:`Entry` is one number written on the sheet, with its reason in words, in one of the
:class:`Column` values its game's scoring declares (pool or mountain points of a player, whists written by one
player on another, Solo Whist points, …). Everything downstream (the sheet, the settlement, the audit trail, the
replay, the drawing) reads entries; nothing recomputes a score.

>>> t = Totals(["A", "B", "C"], (Column("pool"), Column("whists", paired=True)))
>>> t.apply(Entry(1, "pool", "A", 2, "6S made"))
>>> t.apply(Entry(1, "whists", "B", 4, "2 tricks × 2", on="A"))
>>> t["pool"]["A"], t.pairs_by("whists", "B")
(2, {'A': 4})
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, Final

import attrs

from .plain import Plain

from .problems import VistlogError

__all__ = ["Entry", "Totals", "DealScore", "Row", "Column", "fmt", "exact", "exact_div", "Num", "ADJUSTMENT_REASON"]

ADJUSTMENT_REASON: Final = "adjustment: "
"""What an agreed adjustment's entries say before the adjustment's own words (which no view translates)."""


@attrs.frozen(repr=False)
class Column(Plain):
    """One column of a game's sheet, declared by its scoring (:attr:`vistlog.events.scoring.Scoring.sheet`).

    ``paired``: a number in it is written by one player on another (whists); ``counted``: it is written for every
    player at once, and the sheet counts how many times (Serbian refe drawn).

    >>> Column("whists", paired=True).paired, Column("pool").counted
    (True, False)
    """

    name: str
    paired: bool = False
    counted: bool = False

    def __repr__(self) -> str:
        return f"Column({self.name!r})"


Num = int | Fraction
"""Scores are exact: whole numbers stay ``int``, anything else is a ``Fraction``."""


def exact_div(x: Num, n: int) -> Num:
    """``x / n`` exactly, as an int when it divides."""
    if type(x) is int and x % n == 0:
        return x // n
    q = Fraction(x) / n
    return q.numerator if q.denominator == 1 else q


def fmt(x: Num) -> str:
    """A number as a paper sheet writes it: ``12``, ``-3``, ``7/2``."""
    if type(x) is int:
        return str(x)
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def exact(x: Num) -> int | str:
    """A value for JSON: a whole number as a number, anything else as its exact string (``"7/2"``)."""
    return x if type(x) is int else x.numerator if Fraction(x).denominator == 1 else fmt(x)


@attrs.frozen(repr=False, eq=False)
class Entry(Plain):
    """One number on the sheet.

    ``deal`` is the deal it belongs to (0 for an opening balance; an adjustment belongs to
    the last deal before it). ``column`` is one the game's scoring declares (:class:`Column`: ``pool``,
    ``mountain``, ``whists`` of Russian preferans, ``points`` of Solo Whist, …); ``player`` owns the column
    (in a paired column, such as whists: the writer) and ``on`` is whom it is written on. ``void`` marks entries
    of a voided deal: shown, never counted.
    """

    deal: int
    column: str
    player: str
    amount: Num
    reason: str
    on: str | None = None
    void: bool = False

    def describe(self) -> str:
        """``+2 pool Аня: 6S made`` style text."""
        sign = "+" if self.amount >= 0 else ""
        where = f"{self.column} {self.player}→{self.on}" if self.on is not None else f"{self.column} {self.player}"
        return f"{sign}{fmt(self.amount)} {where}: {self.reason}"


Row = tuple[str, str, Num, str, str | None]
"""One number a deal writes, before it is an :class:`Entry`: column, player, amount, reason, on."""


@attrs.define
class DealScore:
    """What scoring one deal writes: :class:`Row` values, made into entries only when asked.

    A fold without detail (``validate``, ``settle``) adds the rows to its totals and never makes an
    :class:`Entry`; the sheet, the audit and the replay ask for :attr:`entries`.

    >>> s = DealScore(3)
    >>> s.write("pool", "A", 2, "6S made")
    >>> s.write("whists", "B", 4, "2 tricks × 2", on="A")
    >>> [e.describe() for e in s.entries]
    ['+2 pool A: 6S made', '+4 whists B→A: 2 tricks × 2']
    """

    deal: int
    rows: list[Row] = attrs.Factory(list)
    problems: list[tuple[str, int]] = attrs.Factory(list)
    """Each problem found while scoring (e.g. an allocation that does not add up): its message and
    the ``seq`` of the event it is about."""

    def write(self, column: str, player: str, amount: Num, reason: str, on: str | None = None) -> None:
        """Write ``amount`` in ``column`` of ``player`` (on ``on``, in a paired column)."""
        self.rows.append((column, player, amount, reason, on))

    @property
    def entries(self) -> list[Entry]:
        """The rows as entries of the deal."""
        return [Entry(self.deal, c, p, x, why, o) for c, p, x, why, o in self.rows]


class Totals:
    """Running totals of a game, keyed by the columns its scoring declares (:class:`Column`), in their order.

    ``totals[column]`` maps each player to his number, or in a paired column each ``(writer, on)`` pair written
    so far; a column the game does not declare is refused.

    >>> t = Totals(["A", "B"], (Column("points"),))
    >>> t["points"], t.columns
    ({'A': 0, 'B': 0}, ('points',))
    >>> t.add("pool", "A", 2)
    Traceback (most recent call last):
    ...
    vistlog.events.problems.VistlogError: this game's sheet has no pool column (its columns: points)
    """

    def __init__(self, players: Iterable[str], columns: Iterable[Column]) -> None:
        self.players = list(players)
        declared: dict[str, Column] = {}
        for c in columns:
            declared.setdefault(c.name, c)
        self.declared: tuple[Column, ...] = tuple(declared.values())
        """The columns, as the game declares them (:attr:`vistlog.events.scoring.Scoring.sheet`)."""
        self.columns: tuple[str, ...] = tuple(declared)
        """Their names, in sheet order."""
        self.paired: frozenset[str] = frozenset(c.name for c in self.declared if c.paired)
        """The columns written by one player on another."""
        self._counted: frozenset[str] = frozenset(c.name for c in self.declared if c.counted)
        self._of: dict[str, dict[Any, Num]] = {
            c.name: {} if c.paired else {p: 0 for p in self.players} for c in self.declared}
        self.times: dict[str, int] = {c: 0 for c in self._counted}
        """How many times each counted column was written for every player (Serbian: refe drawn)."""

    def __getitem__(self, column: str) -> dict[Any, Num]:
        """A column's numbers: by player, or in a paired column by ``(writer, on)``."""
        try:
            return self._of[column]
        except KeyError:
            raise VistlogError(self._no(column)) from None

    def __contains__(self, column: object) -> bool:
        return column in self._of

    def _no(self, column: str) -> str:
        return f"this game's sheet has no {column} column (its columns: {', '.join(self.columns)})"

    def apply(self, e: Entry) -> None:
        """Add one entry (void entries add nothing)."""
        if not e.void:
            self.add(e.column, e.player, e.amount, e.on)

    def add(self, column: str, player: str, amount: Num, on: str | None = None) -> None:
        """Add ``amount`` to ``column`` of ``player`` (written on ``on``, in a paired column)."""
        held = self._of.get(column)
        if held is None:
            raise VistlogError(self._no(column))
        if column in self.paired:
            assert on is not None
            key = (player, on)
            held[key] = held.get(key, 0) + amount
        else:
            held[player] += amount
            if amount > 0 and column in self._counted and player == self.players[0]:
                self.times[column] += 1

    def pairs_by(self, column: str, writer: str) -> dict[str, Num]:
        """What ``writer`` has written on each other player in a paired column, in seating order (zeros left out).

        >>> t = Totals(["A", "B", "C"], (Column("whists", paired=True),))
        >>> t.add("whists", "B", 4, on="A")
        >>> t.pairs_by("whists", "B")
        {'A': 4}
        """
        if column not in self.paired:
            raise VistlogError(f"{column} is not written on a player (paired columns: "
                               f"{', '.join(c for c in self.columns if c in self.paired) or 'none'})")
        held = self[column]
        return {t: held[(writer, t)] for t in self.players if held.get((writer, t))}

    def __repr__(self) -> str:
        return f"Totals({self._of!r}, times={self.times!r})"

    def copy(self) -> Totals:
        """An independent copy."""
        other = Totals(self.players, self.declared)
        other._of = {c: dict(v) for c, v in self._of.items()}
        other.times = dict(self.times)
        return other

    def value(self, player: str, column: str, on: str | None = None) -> Num:
        """One number of the sheet: ``player``'s in ``column``, or in a paired column what he wrote on ``on``."""
        if column in self.paired:
            assert on is not None
            return self[column].get((player, on), 0)
        return self[column][player]
