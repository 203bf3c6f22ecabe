"""Serbian preferans, as the read side knows it: one :class:`~vistlog.projections.variants.Reading`, registered once.

Its scoring is :mod:`vistlog.events.serbian_score` (the write side's); the views it names are imported only when
asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from vistlog.events.serbian_score import serbian_result

from ..variants import Reading, register

__all__ = ["READING"]


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


READING: Final = register(Reading("serbian", serbian_result, layout=_layout, teller=_teller, counter=_counter))
"""Serbian preferans, as the read side knows it (:mod:`vistlog.projections.variants`)."""
