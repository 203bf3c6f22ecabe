"""Solo Whist, as the read side knows it: one :class:`~vistlog.projections.variants.Reading`, registered once.

Its scoring is :mod:`vistlog.events.solo_whist_score` (the write side's); the views it names are imported only when
asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from vistlog.events.entries import Num, Totals
from vistlog.events.rules import SoloWhistOptions

from ..variants import Reading, register

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


def _results(o: SoloWhistOptions, players: Sequence[str], totals: Totals) -> dict[str, Num]:
    return dict(totals.points)


READING: Final = register(Reading(
    "solo_whist", _results, layout=_layout, teller=_teller, counter=_counter))
"""Solo Whist, as the read side knows it (:mod:`vistlog.projections.variants`)."""
