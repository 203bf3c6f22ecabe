"""Solo Whist, as the read side knows it: one :class:`~vistlog.projections.variants.Reading`, registered once.

Its scoring is :mod:`vistlog.events.games.solo_whist.score` (the write side's); the views it names are imported
only when asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from vistlog.events.entries import Num, Totals
from vistlog.events.rules import SoloWhistOptions

from ...parts import Part
from ...variants import ModeWords, Reading, register

__all__ = ["READING"]


def _results(o: SoloWhistOptions, players: Sequence[str], totals: Totals) -> dict[str, Num]:
    return dict(totals["points"])


GENERAL_MISERE_UNSOLVED: Final = "a general misère (the last trick decides) is not analysed"
"""Why the analysis leaves a general misère alone: the search counts tricks, and the last trick alone decides it."""

WORDS: Final = {
    "ru": {"Sheet": "Пункты", "Sheet:": "Пункты:", "Sheet after deal {n}:": "Пункты после сдачи {n}:",
           "  [VOID: struck from the sheet]": "  [АННУЛИРОВАНА: вычеркнута из записи]",
           "raspas": "все пас", "raspasy": "все пас", "points": "пункты", "sheet": "Пункты",
           GENERAL_MISERE_UNSOLVED: "общий мизер (решает последняя взятка) не разбирается"},
    "en": {"Sheet": "Points", "Sheet:": "Points:", "Sheet after deal {n}:": "Points after deal {n}:",
           "raspas": "all pass", "raspasy": "all pass", "sheet": "Points"},
}
"""Solo Whist's own words: its sheet is the players' points (пункты), and it has no pool, no mountain, no raspasy."""

READING: Final = register(Reading(
    "solo_whist", _results, layout=Part("vistlog.projections.render.layouts", "POINTS"),
    teller=Part("vistlog.projections.replay", "tell_deals"),
    counter=Part("vistlog.projections.games.solo_whist.counts", "count_solo_whist"),
    moves=None, words=WORDS,
    all_pass="all-pass", modes={"general_misere": ModeWords("  Everybody passed: general misère",
                                                          unsolved=GENERAL_MISERE_UNSOLVED),
                                "redeal": ModeWords("  Everybody passed: redeal")}))
"""Solo Whist, as the read side knows it (:mod:`vistlog.projections.variants`)."""
