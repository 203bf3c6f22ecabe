"""Issue 62: a lone player for the fewest whom the search (:mod:`vistlog.projections.hints`) calls under for good,
another on lead or he himself with a safe lead, takes no trick more: checked against the plain minimax of
``tests/test_search.py`` on random small positions, and on the position that shows why his lead needs more."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from vistlog.events.cards import Card, parse_card
from vistlog.events.play import Play
from vistlog.projections.solver import Solver

from .test_search import BIG, FOUR, SMALL, THREE, minimax


def small_miseres(rng: random.Random, seats: list[str], deck: list[Card], sizes: Sequence[int], count: int,
                  low: int) -> Iterator[tuple[dict[str, list[Card]], str, int, Solver]]:
    """``count`` random small misères: the hands of ``seats``, of one of ``sizes`` cards each, dealt from ``deck`` (half
    the time from its ``low`` lowest), anyone on lead, the first seat alone for the fewest with no trump; each with
    the hands, the leader, the size and the pure search."""
    for _ in range(count):
        n = rng.choice(sizes)
        cards = rng.sample(deck[:low] if rng.random() < 0.5 else deck, len(seats) * n)
        hands = {p: cards[k * n:(k + 1) * n] for k, p in enumerate(seats)}
        leader = rng.choice(seats)
        yield hands, leader, n, Solver(hands, seats, leader, None, seats[0], True, must_trump=len(seats) == 3,
                                       engine="python")


def test_under_for_good_takes_no_trick_more_on_lead_or_not() -> None:
    """Random small misères (three hands of the 32 cards and four of the 52, the lone player's cards drawn low half
    the time): wherever the search calls him under for good, best play gives him no trick; his own lead among
    them."""
    rng = random.Random(2)
    for seats, deck, sizes in ((THREE, SMALL, (2, 3, 4)), (FOUR, BIG, (2, 3))):
        hits = on_lead = 0
        for hands, leader, _, s in small_miseres(rng, seats, deck, sizes, 3000, 16):
            h, seat, _, _, t = s.position()
            if not s._under(h, seat, t):
                continue
            hits += 1
            on_lead += leader == seats[0]
            assert minimax(Play(hands, seats, leader, None, must_trump=len(seats) == 3), (seats[0],), True) == 0
        assert hits > 200 and on_lead > 40, (hits, on_lead)


def test_on_lead_his_next_card_up_must_be_under_theirs_too() -> None:
    """A leads the seven of hearts (his lowest, under every other heart); C may win it with the jack and keep the
    eight, which he leads next: A's nine must go over it. His i-th lowest under their i-th is not enough on lead."""
    cards = {"A": "7H 9H QD", "B": "10C KC QC", "C": "8H 9C JH"}
    hands = {p: [parse_card(c) for c in text.split()] for p, text in cards.items()}
    s = Solver(hands, THREE, "A", None, "A", True, engine="python")
    h, seat, _, _, t = s.position()
    assert not s._under(h, seat, t)
    assert s.value() == 1 == minimax(Play(hands, THREE, "A", None, must_trump=True), ("A",), True)
