"""Issue 62 (its first part): a search within a budget. A question that runs out of its cards or its time stops
unanswered, and :meth:`Solver.bounds` gives the range the answered questions prove — never a guess: the exact
value is always inside it, pure and compiled alike, and with no budget it is the value itself."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vistlog.events.cards import Card, Suit
from vistlog.projections.solver import COMPILED, Solver

from .test_solver import SEATS, _positions, _random_line, _ten_card_deal, small_deals

needs_compiled = pytest.mark.skipif(not COMPILED, reason="the compiled solver is not built in this install")


@given(small_deals(sizes=(3, 5)), st.integers(1, 300), st.randoms(use_true_random=False))
def test_a_range_within_a_budget_holds_the_value(deal: tuple[dict[str, list[Card]], str, Suit | None, str, bool],
                                                 nodes: int, rng: random.Random) -> None:
    hands, leader, trump, declarer, misere = deal
    exact = Solver(hands, SEATS, leader, trump, declarer, misere, engine="python")
    tight = Solver(hands, SEATS, leader, trump, declarer, misere, engine="python")
    tight.limit(nodes=nodes)
    line = _random_line(rng, exact, rng.randint(0, 3 * exact.tricks - 1))
    for k in range(len(line) + 1):
        v = exact.value(line[:k])
        low, high = tight.bounds(line[:k])
        assert low <= v <= high, (k, low, v, high)
    tight.limit()
    assert tight.bounds() == (exact.value(), exact.value())


@needs_compiled
def test_the_compiled_search_stops_where_the_pure_one_does() -> None:
    """A budget of cards is the same budget in both searches (they try the same cards in the same order): the
    same ranges, position after position, each holding the value."""
    for hands, leader, trump, declarer, misere, _ in _positions()[::3]:
        seats = list(hands)
        exact = Solver(hands, seats, leader, trump, declarer, misere, engine="compiled")
        for nodes in (1, 7, 60, 500):
            py = Solver(hands, seats, leader, trump, declarer, misere, engine="python")
            c = Solver(hands, seats, leader, trump, declarer, misere, engine="compiled")
            py.limit(nodes=nodes)
            c.limit(nodes=nodes)
            low, high = py.bounds()
            assert (low, high) == c.bounds()
            assert low <= exact.value() <= high
            assert py.nodes == c.nodes


@pytest.mark.parametrize("engine", ["python", pytest.param("compiled", marks=needs_compiled)])
def test_a_time_budget_stops_a_long_question(engine: str) -> None:
    """A ten-card misère given no time at all, then a thousandth of a second: each range holds the value the
    search finds unhurried, and the time out leaves the table sound for the questions after it."""
    rng = random.Random(11)
    hands, leader, _ = _ten_card_deal(rng, True)
    s = Solver(hands, SEATS, leader, None, "B", True, engine=engine)
    exact = Solver(hands, SEATS, leader, None, "B", True, engine=engine).value()
    s.limit(seconds=0)
    assert s.bounds() == (0, 10)
    s.limit(seconds=0.001)
    low, high = s.bounds()
    assert low <= exact <= high
    s.limit()
    assert s.bounds() == (exact, exact) and s.value() == exact
