"""Solo Whist, as the read side knows it: one :class:`~vistlog.projections.variants.Reading`, registered once.

Its scoring is :mod:`vistlog.projections.solo_whist`; the views it names are imported only when asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from ..variants import Reading, Scoring, register
from ..solo_whist import score_deal

__all__ = ["READING"]


def _layout() -> Any:
    from ..render.layouts import POINTS

    return POINTS


def _teller() -> Callable[..., Iterator[str]]:
    from ..replay import tell_deals

    return tell_deals


def _counter() -> tuple[str | None, Callable[..., None]]:
    from ..stats import count_solo_whist

    return None, count_solo_whist


READING: Final = register(Reading(
    "solo_whist",
    Scoring("solo_whist", "points", None, score=lambda o, size, players, rec, totals, streak: score_deal(o, rec),
            over=lambda totals, size: False, results=lambda o, players, totals: dict(totals.points),
            deals_sum_to_zero=True, columns=("points",)),
    layout=_layout, teller=_teller, counter=_counter,
    unsolved="Solo Whist is not analysed (four hands, partnerships)"))
"""Solo Whist, as the read side knows it (:mod:`vistlog.projections.variants`)."""
