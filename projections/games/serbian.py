"""Serbian preferans, as the read side knows it: one :class:`~vistlog.projections.variants.Reading`, registered once.

Its scoring is :mod:`vistlog.projections.serbian`; the views it names are imported only when asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from ..entries import Row
from ..variants import Reading, Scoring, register
from ..serbian import game_over, score_deal, serbian_result

__all__ = ["READING"]


def _starting_bula(players: Sequence[str], size: int | None) -> list[Row]:
    return [("bula", p, size, "the starting bula", None) for p in players] if size else []


def _layout() -> Any:
    from ..render.layouts import BULA

    return BULA


def _teller() -> Callable[..., Iterator[str]]:
    from ..replay import tell_serbian_deals

    return tell_serbian_deals


def _counter() -> tuple[str | None, Callable[..., None]]:
    from ..stats import count_serbian

    column = "bula"  # the moves of a bula are what a Serbian deal's outcome is read from
    return column, count_serbian


READING: Final = register(Reading(
    "serbian",
    Scoring("serbian", "points", "bula", score=lambda o, size, players, rec, totals, streak: score_deal(o, rec, totals),
            over=lambda totals, size: game_over(totals), results=serbian_result, opening=_starting_bula,
            columns=("bula", "soups"), writes=("bula", "soups", "refe")),
    layout=_layout, teller=_teller, counter=_counter))
"""Serbian preferans, as the read side knows it (:mod:`vistlog.projections.variants`)."""
