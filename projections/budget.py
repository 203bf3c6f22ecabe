"""A deal's analysis within a budget (issue 62): the seconds its searches may take, the contract's fate asked
first (a yes-or-no question at its threshold), and what a fate or a range proves. :mod:`vistlog.projections.analysis`
asks; nothing here is a guess: a question the budget stops answers ``None``.

>>> fate_of(0, 13, 0, True), fate_of(1, 13, 0, True), within(True, 6, False)
(None, False, (6, None))
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from vistlog.events.cards import Card

from .questions import OutOfBudget
from .solver import Solver, engine_name

__all__ = ["ANSWERS", "BUDGETS", "asked", "default_budget", "fate_of", "fates", "limited", "seconds", "threshold",
           "within"]


BUDGETS: Final = {"compiled": 2.0, "python": 20.0}
"""Seconds of search a deal may take by default, by engine (``analyse --budget``; the pure search is some ten
times slower)."""


def seconds(text: str) -> float | None:
    """A budget written as text (``--budget``, ``VISTLOG_BUDGET``, a run's kind ``analyse@2``): a number of seconds
    above 0 and below 10⁹, else ``None``.

    >>> seconds("2.5"), seconds("0"), seconds("1e9"), seconds("nan"), seconds("soon")
    (2.5, None, None, None, None)
    """
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0 < value < 1e9 else None


def default_budget(engine: str | None = None) -> float | None:
    """The budget a deal has by default with ``engine`` (default: the one that runs, :func:`engine_name`): the
    environment variable ``VISTLOG_BUDGET`` when set (seconds, or ``exact``: ``None``, every count exact), else
    :data:`BUDGETS`'s.

    >>> default_budget() in (None, BUDGETS["compiled"], BUDGETS["python"]) or "VISTLOG_BUDGET" in os.environ
    True
    """
    given = os.environ.get("VISTLOG_BUDGET", "").strip().lower()
    if given == "exact":
        return None
    found = seconds(given)
    return found if found is not None else BUDGETS[engine or engine_name()]


ANSWERS: Final = ("exact", "range", "undecided")
"""How a deal was answered within its budget (:attr:`~vistlog.projections.analysis.DealAnalysis.answer`)."""


def limited(solver: Solver, until: float | None) -> Solver:
    """``solver`` stopping its questions at ``until`` (a monotonic time; ``None``: never)."""
    if until is not None:
        solver.limit(seconds=max(until - time.monotonic(), 0.0))
    return solver


def asked(question: Callable[[], Any], default: Any = None) -> Any:
    """The answer, or ``default`` where the budget stopped the question."""
    try:
        return question()
    except OutOfBudget:
        return default


def threshold(needed: int, fewest: bool) -> int:
    """The side's tricks the camp that wants them must be sure of to decide the contract: the contract's
    (made), or one past a misère's (failed)."""
    return needed + 1 if fewest else needed


def fate_of(low: int, high: int, needed: int, fewest: bool) -> bool | None:
    """The contract's fate a range of the side's tricks decides (``None``: it does not)."""
    if fewest:
        return True if high <= needed else False if low > needed else None
    return True if low >= needed else False if high < needed else None


def within(fate: bool | None, needed: int, fewest: bool) -> tuple[int | None, int | None]:
    """The least and the most tricks of the side a fate proves."""
    if fate is None:
        return None, None
    if fewest:
        return (None, needed) if fate else (needed + 1, None)
    return (needed, None) if fate else (None, needed - 1)


def fates(solver: Solver, played: Sequence[Card], needed: int, fewest: bool) -> list[bool | None]:
    """The contract's fate at the first lead and after each card, a yes-or-no question each (``None``: the
    budget stopped it)."""
    at = threshold(needed, fewest)

    def fate(i: int) -> bool:
        return solver.holds(played[:i], at) != fewest

    return [asked(functools.partial(fate, i)) for i in range(len(played) + 1)]
