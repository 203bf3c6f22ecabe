"""Issue 62: the move order of a hand before the last playing for the most (:meth:`Hints._order`). It decides no
value (the search tries every card it must); these positions pin down what it tries first, and the cross-engine
tests (``tests/test_search.py``) hold the compiled order to the same cards."""

from __future__ import annotations

import pytest

from vistlog.events.cards import Card, Suit, parse_card
from vistlog.projections.cardbits import _runs, card_index, card_of
from vistlog.projections.solver import Solver

from .test_search import FOUR


def _first(hands: dict[str, str], led: str, trump: Suit | None = None) -> Card:
    """The card South tries first, second to play after East leads ``led`` (North and South against East and West,
    for the most tricks)."""
    cards = {p: [parse_card(c) for c in hs.split()] for p, hs in hands.items()}
    s = Solver(cards, FOUR, "E", trump, ("N", "S"), must_trump=False, engine="python")
    h, seat, trick, _won, t = s.position([parse_card(led)])
    alive = 1 << card_index(parse_card(led))
    for x in h:
        alive |= x
    moves = _runs(s._legal(h[seat], s._led(trick, t)), h[seat], alive)
    return card_of(s._order(moves, seat, trick, t, alive, h)[0])


def test_the_cheapest_card_none_after_him_can_beat_comes_first() -> None:
    """His queen would fall to West's king: the ace, the one card of his that keeps the trick, first."""
    assert _first({"N": "4S 5S 6S", "E": "3S 7D 8D", "S": "AS QS 2S", "W": "KS 9D JD"}, "3S") == parse_card("AS")


def test_low_when_his_camp_mate_takes_it_whatever() -> None:
    """North, last, holds the ace over everything West can play: South keeps his queen."""
    assert _first({"N": "AS 5S 6S", "E": "3S 7D 8D", "S": "QS 2S 9H", "W": "JS 9D JD"}, "3S") == parse_card("2S")


def test_low_when_every_card_of_his_that_takes_it_can_be_beaten() -> None:
    """West holds the ace and king over his queen: South plays low."""
    assert _first({"N": "4S 5S 6S", "E": "3S 7D 8D", "S": "QS 2S 9H", "W": "AS KS JD"}, "3S") == parse_card("2S")


@pytest.mark.parametrize(("west", "first"), [("7H 9D JD", "QS"), ("JS 9D JD", "2S")])
def test_a_ruff_after_him_leaves_the_trick_to_take(west: str, first: str) -> None:
    """West void in spades with a trump could ruff North's ace: South takes the trick with his queen himself
    (with a spade, West cannot, and South keeps the queen)."""
    hands = {"N": "AS 5S 6S", "E": "3S 7D 8D", "S": "QS 2S 9H", "W": west}
    assert _first(hands, "3S", trump=Suit.H) == parse_card(first)
