"""How each game is scored, looked up once by its name (the write side's
:data:`vistlog.events.variants.VARIANTS` names the same games).

A :class:`Scoring` says, for one game, what a deal writes, when the rules end the game, what the totals
give each player and in what unit, and what a game's first line writes. The fold and the settlement ask
:func:`scoring_of` and never which game it is; the views keep their own table by the same names
(:data:`vistlog.projections.render.layouts.LAYOUTS`).

>>> SCORINGS["preferans"].unit, SCORINGS["serbian"].size, SCORINGS["solo_whist"].size
('whists', 'bula', None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs

from vistlog.events.record import DealRecord
from vistlog.events.rules import PreferansOptions, Rules

from . import preferans, serbian, solo_whist
from .entries import DealScore, Num, Row, Totals
from .settlement import per_conversion_result, preferans_result

__all__ = ["Scoring", "SCORINGS", "scoring_of"]

Score = Callable[[Any, int, Sequence[str], DealRecord, Totals, int], DealScore]
"""What one deal writes: (options, pool size, players, the deal's record, the totals before it, the
raspasy in a row before it)."""


@attrs.frozen
class Scoring:
    """One game's arithmetic (see the module docstring)."""

    name: str
    unit: str
    """What a result is counted in: ``whists`` or ``points``."""
    size: str | None
    """What ``game_started.pool`` counts: ``pool``, ``bula``, or nothing."""
    score: Score
    over: Callable[[Totals, int], bool]
    """The rules end the game on these totals (every pool closed; the bulas at 0)."""
    results: Callable[[Any, Sequence[str], Totals], dict[str, Num]]
    """The exact result of each player for the totals, in :attr:`unit`."""
    streak: Callable[[Any, DealRecord, int], int] = lambda _o, _rec, run: 0
    """The raspasy in a row after a deal (a game without raspasy never has one)."""
    opening: Callable[[Sequence[str], int | None], list[Row]] = lambda _players, _size: []
    """What the game writes before its first deal (Serbian: every player's starting bula)."""
    deals_sum_to_zero: bool = False
    """Every deal's entries add up to 0 (Solo Whist's points), checked deal by deal."""
    columns: tuple[str, ...] = ()
    """The sheet's columns an agreed adjustment may write (``whists`` and ``soups`` are written on another
    player)."""


def _preferans_results(o: PreferansOptions, players: Sequence[str], totals: Totals) -> dict[str, Num]:
    fn = per_conversion_result if o.rounding == "per_conversion" else preferans_result
    pool = totals.pool if o.pool_in_settlement else {}
    return dict(fn(players, pool, totals.mountain, totals.whists, pool_point=o.pool_point,
                   mountain_point=o.mountain_point, divisor=o.settlement_divisor))


def _starting_bula(players: Sequence[str], size: int | None) -> list[Row]:
    return [("bula", p, size, "the starting bula", None) for p in players] if size else []


SCORINGS: Final[Mapping[str, Scoring]] = {s.name: s for s in (
    Scoring("preferans", "whists", "pool",
            score=lambda o, size, players, rec, totals, streak: preferans.score_deal(o, size, players, rec, totals,
                                                                                    streak),
            over=lambda totals, size: min(totals.pool.values()) >= size,
            results=_preferans_results, streak=preferans.next_streak, columns=("pool", "mountain", "whists")),
    Scoring("solo_whist", "points", None,
            score=lambda o, size, players, rec, totals, streak: solo_whist.score_deal(o, rec),
            over=lambda totals, size: False,
            results=lambda o, players, totals: dict(totals.points), deals_sum_to_zero=True, columns=("points",)),
    Scoring("serbian", "points", "bula",
            score=lambda o, size, players, rec, totals, streak: serbian.score_deal(o, rec, totals),
            over=lambda totals, size: serbian.game_over(totals),
            results=serbian.serbian_result, opening=_starting_bula, columns=("bula", "soups")),
)}
"""Every game's scoring, by the name of its variant."""


def scoring_of(rules: Rules) -> Scoring:
    """The scoring of a game's rules (by the variant its preset names)."""
    return SCORINGS[rules.variant]
