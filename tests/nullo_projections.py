"""Nullo, the fourth game written only here: its read side, one :class:`~vistlog.projections.variants.Reading`.

Each deal writes every taker's tricks as negative points (``trick_cost`` each: the write side's scoring, which
the checker's tally and the fold share); a player's result is what he lost less than the others, so the results
add up to 0. The sheet is laid out as running points (the layout Solo Whist uses), the replay tells each deal as the
Russian games do, and the statistics count the deals each player took no trick in. The write side is
:mod:`tests.nullo_events` (imported here first, as a game's two sides go together).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from vistlog.events.record import DealRecord
from vistlog.events.entries import Num, Totals
from vistlog.projections.parts import Part
from vistlog.projections.variants import ModeWords, Reading, TableView, reading_of, register

from . import nullo_events
from .nullo_events import NulloOptions

__all__ = ["READING", "register_nullo", "count"]


def _results(o: NulloOptions, players: Sequence[str], totals: Totals) -> dict[str, Num]:
    total = sum(totals["penalty"].values())
    results = {p: len(players) * totals["penalty"][p] - total for p in players}
    assert sum(results.values()) == 0, results  # what one player wins the others lose
    return results


def count(rec: DealRecord, moves: dict[tuple[int, str], Any], per: dict[str, dict[str, Any]],
           raspas: set[int]) -> None:
    for p in rec.holders:
        per[p]["declared"].setdefault("nullo", [0, 0])
        per[p]["declared"]["nullo"][0] += 1
        per[p]["declared"]["nullo"][1] += (rec.taken or {}).get(p, 0) == 0


WORDS: Final = {
    "ru": {"Nullo": "нуль", "penalty": "штраф",
           "Sheet": "Очки", "Sheet:": "Очки:", "Sheet after deal {n}:": "Очки после сдачи {n}:",
           "  Nullo: each takes as few tricks as he can": "  Нуль: каждый берёт как можно меньше взяток",
           "nullo": "нуль", "mode_nullo": "Нуль",
           "  [VOID: struck from the sheet]": "  [АННУЛИРОВАНА: вычеркнута из записи]"},
    "en": {"Sheet": "Points", "Sheet:": "Points:", "Sheet after deal {n}:": "Points after deal {n}:",
           "mode_nullo": "Nullo"},
}
"""Nullo's own words: no auction, no raspasy; its one deal mode is «нуль»."""

READING: Final = Reading(
    "nullo", _results, layout=Part("vistlog.projections.render.layouts", "POINTS"),
    teller=Part("vistlog.projections.replay", "tell_deals"), counter=Part("tests.nullo_projections", "count"),
    moves=None, all_pass="all-pass",
    unsolved="Nullo is not analysed (each for himself)", words=WORDS,
    modes={"nullo": ModeWords("  Nullo: each takes as few tricks as he can", "nullo", "nullo")},
    table_view=lambda contracts: TableView(("nullo",), (), 2, passing=("nullo",), contracts={}))
"""Nullo, as the read side knows it."""


def register_nullo() -> Reading:
    """Nullo's one registration on the read side (the write side's first: a game's two sides go together)."""
    nullo_events.register_nullo()
    registered = register(READING)
    assert reading_of("nullo") is registered, "Nullo's read side did not register"
    return registered
