"""Russian preferans, as the read side knows it: one :class:`~vistlog.projections.variants.Reading`, registered once.

Its scoring is :mod:`vistlog.events.games.preferans.score` (the write side's); the views it names are imported only when
asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vistlog.events.rules import PreferansOptions

from vistlog.events.entries import Num, Totals
from ...settlement import per_conversion_result, preferans_result
from ...parts import Part
from ...variants import ModeWords, Reading, register

__all__ = ["READING"]


def _results(o: PreferansOptions, players: Sequence[str], totals: Totals) -> dict[str, Num]:
    fn = per_conversion_result if o.rounding == "per_conversion" else preferans_result
    pool = totals["pool"] if o.pool_in_settlement else {}
    return dict(fn(players, pool, totals["mountain"], totals["whists"], pool_point=o.pool_point,
                   mountain_point=o.mountain_point, divisor=o.settlement_divisor))


READING: Final = register(Reading(
    "preferans", _results, layout=Part("vistlog.projections.render.layouts", "POOL"),
    teller=Part("vistlog.projections.replay", "tell_deals"),
    counter=Part("vistlog.projections.games.preferans.counts", "count_preferans"),
    closing=Part("vistlog.projections.games.preferans.counts", "count_closing"), calls_weighed=True,
    modes={"raspas": ModeWords("  Everybody passed: raspasy", "raspasy", "raspasy")}))
"""Russian preferans, as the read side knows it (:mod:`vistlog.projections.variants`)."""
