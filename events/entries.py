"""Sheet entries and the running totals they add up to.

An :class:`Entry` is one number written on the sheet, with its reason in words: pool or
mountain points of a player, whists written by one player on another, or Solo Whist
points. Everything downstream (the sheet, the settlement, the audit trail, the replay,
the drawing) reads entries; nothing recomputes a score.

>>> t = Totals(["A", "B", "C"])
>>> t.apply(Entry(1, "pool", "A", 2, "6S made"))
>>> t.apply(Entry(1, "whists", "B", 4, "2 tricks × 2", on="A"))
>>> t.pool["A"], t.whists_by("B")
(2, {'A': 4})
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Final, Literal

import attrs

from .plain import Plain

from .problems import VistlogError

__all__ = ["Entry", "Totals", "DealScore", "Row", "Column", "COLUMNS", "fmt", "exact", "exact_div", "Num",
           "ADJUSTMENT_REASON"]

ADJUSTMENT_REASON: Final = "adjustment: "
"""What an agreed adjustment's entries say before the adjustment's own words (which no view translates)."""

Column = Literal["pool", "mountain", "whists", "points", "bula", "soups", "refe"]
"""A column of the sheet: a typo in one is a type error."""
COLUMNS: Final[tuple[Column, ...]] = ("pool", "mountain", "whists", "points", "bula", "soups", "refe")
PAIRED: Final = frozenset({"whists", "soups"})
"""Columns written by one player on another (``on`` names the other)."""


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
    the last deal before it). ``column`` is ``pool``, ``mountain``, ``whists`` or ``points``,
    or for Serbian preferans ``bula``, ``soups`` or ``refe`` (+1 a refa drawn, −1 one played);
    ``player`` owns the column (for whists and soups: the writer) and ``on`` is whom they are
    written on. ``void`` marks entries of a voided deal: shown, never counted.
    """

    deal: int
    column: Column
    player: str
    amount: Num
    reason: str
    on: str | None = None
    void: bool = False

    def describe(self) -> str:
        """``+2 pool Аня: 6S made`` style text."""
        sign = "+" if self.amount >= 0 else ""
        where = f"{self.column} {self.player}→{self.on}" if self.column in PAIRED else f"{self.column} {self.player}"
        return f"{sign}{fmt(self.amount)} {where}: {self.reason}"


Row = tuple[Column, str, Num, str, str | None]
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

    def write(self, column: Column, player: str, amount: Num, reason: str, on: str | None = None) -> None:
        """Write ``amount`` in ``column`` of ``player`` (on ``on``, for whists and soups)."""
        self.rows.append((column, player, amount, reason, on))

    @property
    def entries(self) -> list[Entry]:
        """The rows as entries of the deal."""
        return [Entry(self.deal, c, p, x, why, o) for c, p, x, why, o in self.rows]


class Totals:
    """Running totals of a game, in the columns its scoring declares (every column by default): pool, mountain,
    whists (writer → target) and points; for Serbian preferans bula, soups (writer → target), open refe and the
    refe drawn. A column the game does not declare stays empty, and nothing may be added to it.

    >>> t = Totals(["A", "B"], ("points",))
    >>> t.points, t.pool
    ({'A': 0, 'B': 0}, {})
    >>> t.add("pool", "A", 2)
    Traceback (most recent call last):
    ...
    vistlog.events.problems.VistlogError: this game's sheet has no pool column (its columns: points)
    """

    def __init__(self, players: Iterable[str], columns: Iterable[str] = COLUMNS) -> None:
        self.players = list(players)
        declared = set(columns)
        self.columns: tuple[str, ...] = tuple(c for c in COLUMNS if c in declared)
        """The columns the game declares (:attr:`vistlog.events.scoring.Scoring.writes`), in sheet order."""
        held = self.columns

        def zeros(column: str) -> dict[str, Num]:
            return {p: 0 for p in self.players} if column in held else {}

        self.pool: dict[str, Num] = zeros("pool")
        self.mountain: dict[str, Num] = zeros("mountain")
        self.points: dict[str, Num] = zeros("points")
        self.whists: dict[tuple[str, str], Num] = {}
        self.bula: dict[str, Num] = zeros("bula")
        self.soups: dict[tuple[str, str], Num] = {}
        self.refe: dict[str, Num] = zeros("refe")
        self.refe_written = 0
        """How many times refe were drawn (each time one for every player)."""

    def apply(self, e: Entry) -> None:
        """Add one entry (void entries add nothing)."""
        if not e.void:
            self.add(e.column, e.player, e.amount, e.on)

    def add(self, column: Column, player: str, amount: Num, on: str | None = None) -> None:
        """Add ``amount`` to ``column`` of ``player`` (written on ``on``, for whists and soups)."""
        if column not in self.columns:
            raise VistlogError(f"this game's sheet has no {column} column (its columns: {', '.join(self.columns)})")
        if column in PAIRED:
            assert on is not None
            pairs = self.whists if column == "whists" else self.soups
            key = (player, on)
            pairs[key] = pairs.get(key, 0) + amount
        else:
            getattr(self, column)[player] += amount
            if column == "refe" and amount > 0 and player == self.players[0]:
                self.refe_written += 1

    def whists_by(self, writer: str) -> dict[str, Num]:
        """Whists ``writer`` has written on each other player (zeros left out)."""
        return {t: v for (w, t), v in sorted(self.whists.items(), key=lambda kv: self.players.index(kv[0][1]))
                if w == writer and v}

    def __repr__(self) -> str:
        return (f"Totals(pool={self.pool!r}, mountain={self.mountain!r}, whists={self.whists!r}, "
                f"points={self.points!r}, bula={self.bula!r}, soups={self.soups!r}, refe={self.refe!r}, "
                f"refe_written={self.refe_written!r})")

    def copy(self) -> Totals:
        """An independent copy."""
        other = Totals(self.players, self.columns)
        other.pool = dict(self.pool)
        other.mountain = dict(self.mountain)
        other.points = dict(self.points)
        other.whists = dict(self.whists)
        other.bula = dict(self.bula)
        other.soups = dict(self.soups)
        other.refe = dict(self.refe)
        other.refe_written = self.refe_written
        return other

    def soups_by(self, writer: str) -> dict[str, Num]:
        """Soups ``writer`` has written on each other player (zeros left out)."""
        return {t: v for (w, t), v in sorted(self.soups.items(), key=lambda kv: self.players.index(kv[0][1]))
                if w == writer and v}

    def value(self, player: str, field: str, on: str | None = None) -> Num:
        """One number of the sheet: ``pool``, ``mountain``, ``points`` or ``whists`` on ``on``."""
        if field in PAIRED:
            assert on is not None
            return (self.whists if field == "whists" else self.soups).get((player, on), 0)
        return getattr(self, field)[player]
