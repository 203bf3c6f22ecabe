"""A game's arithmetic of the sheet, declared once with its :class:`~vistlog.events.variant.Variant`.

A :class:`Scoring` says what one deal writes, what the game writes before its first deal, when the rules end the
game on the totals, and what run of deals its rules carry on. The write side keeps each game's totals with it
(:class:`~vistlog.events.tally.Tally`: the checker asks it whether every pool is closed); the read side folds the
same rows into the sheet and settles the totals (:attr:`vistlog.projections.variants.Reading.results`).

>>> from vistlog.events.variants import VARIANTS
>>> VARIANTS["preferans"].scoring.unit, VARIANTS["serbian"].scoring.size, VARIANTS["solo_whist"].scoring.size
('whists', 'bula', None)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from .plain import Plain

from .entries import Column, DealScore, Row, Totals
from .record import DealRecord

__all__ = ["Scoring", "Score"]

Score = Callable[[Any, int, Sequence[str], DealRecord, Totals, int], DealScore]
"""What one deal writes: (options, pool size, players, the deal's record, the totals before it, the
run its rules carry before it, :attr:`Scoring.streak`)."""


def _no_streak(_options: Any, _rec: DealRecord, _run: int) -> int:
    return 0


def _level_needed(_options: Any, rec: DealRecord) -> int:
    c = rec.contract
    return 0 if c is None else c.contract.level or 0


def _nothing_first(_players: Sequence[str], _size: int | None) -> list[Row]:
    return []


@attrs.frozen(repr=False, eq=False)
class Scoring(Plain):
    """One game's arithmetic (see the module docstring)."""

    name: str
    unit: str
    """What a result is counted in: ``whists`` or ``points``."""
    size: str | None
    """What ``game_started.pool`` counts: ``pool``, ``bula``, or nothing."""
    score: Score
    over: Callable[[Totals, int], bool]
    """The rules end the game on these totals (every pool closed; the bulas at 0)."""
    streak: Callable[[Any, DealRecord, int], int] = _no_streak
    """The count of deals in a row the game's rules carry from one deal to the next (Russian preferans: the
    raspasy in a row; a game without such a run never has one)."""
    opening: Callable[[Sequence[str], int | None], list[Row]] = _nothing_first
    """What the game writes before its first deal (Serbian: every player's starting bula)."""
    needed: Callable[[Any, DealRecord], int] = _level_needed
    """The tricks a contract's declaring side must take (one playing for the fewest: the most it may take), as the
    open-hand analysis judges a contract makeable; by default the contract's level (a misère's: none)."""
    deals_sum_to_zero: bool = False
    """Every deal's entries add up to 0 (Solo Whist's points), checked deal by deal."""
    sheet: tuple[Column, ...] = ()
    """Every column of its sheet, in the order the sheet shows them (:attr:`vistlog.api.Sheet.columns`): the
    totals are kept by these, and no other is written."""
    columns: tuple[str, ...] = attrs.field(default=attrs.Factory(lambda s: s.writes, takes_self=True))
    """The columns an agreed adjustment may write (the log's adjustments name ``pool``, ``mountain``, ``whists``,
    ``points``, ``bula``, ``soups``): by default every column of :attr:`sheet`."""

    def __attrs_post_init__(self) -> None:
        if not set(self.columns) <= set(self.writes):
            raise ValueError(f"{self.name}: an adjustment may write only a column of the sheet ({self.columns})")

    @property
    def writes(self) -> tuple[str, ...]:
        """The names of its sheet's columns, in order."""
        return tuple(c.name for c in self.sheet)

    def totals(self, players: Sequence[str]) -> Totals:
        """Empty totals of its sheet for ``players``."""
        return Totals(players, self.sheet)
