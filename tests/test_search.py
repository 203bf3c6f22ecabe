"""The general double-dummy search (issue 46): four hands and partnerships (Solo Whist), one player for the
fewest tricks against two (a raspas) with the talon's cards leading the first tricks, checked against a plain
minimax over :class:`~vistlog.events.play.Play` written here; its legal moves are Play's; the compiled search
gives the same values and tries the same cards on every position.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vistlog.events.cards import PREFERANS_DECK, SOLO_WHIST_DECK, Card, Suit, parse_card
from vistlog.events.play import Play
from vistlog.projections import solver as solver_module
from vistlog.projections.solver import Solver

FOUR = ["N", "E", "S", "W"]
THREE = ["A", "B", "C"]
BIG = sorted(SOLO_WHIST_DECK, key=lambda c: (c.suit.order, c.rank))
SMALL = sorted(PREFERANS_DECK, key=lambda c: (c.suit.order, c.rank))
needs_compiled = pytest.mark.skipif(not solver_module.COMPILED, reason="the compiled solver is not built here")


def minimax(play: Play, side: Sequence[str], fewest: bool) -> int:
    """Every line of play to the end, no pruning, no table: the side's tricks, by the rules of Play."""
    if play.complete:
        return sum(play.taken.get(p, 0) for p in side)
    p = play.to_play
    values = []
    for card in sorted(play.hands[p], key=lambda c: (c.suit.order, c.rank)):
        if play.is_legal(p, card):
            after = play.copy()
            after.play(p, card)
            values.append(minimax(after, side, fewest))
    return max(values) if (p in side) != fewest else min(values)


@st.composite
def solo_whist_endings(draw: st.DrawFn, most: int = 3) -> tuple[dict[str, list[Card]], str, Suit | None,
                                                                  tuple[str, ...], bool]:
    """Four hands of up to ``most`` cards of the 52, a trump or none, a side of one or two players
    (wherever they sit) playing for the most tricks or (one player) the fewest."""
    n = draw(st.integers(1, most))
    cards = draw(st.permutations(BIG))[:4 * n]
    hands = {p: list(cards[k * n:(k + 1) * n]) for k, p in enumerate(FOUR)}
    side = tuple(draw(st.lists(st.sampled_from(FOUR), min_size=1, max_size=2, unique=True)))
    fewest = len(side) == 1 and draw(st.booleans())
    trump = None if fewest else draw(st.sampled_from([None, *Suit]))
    return hands, draw(st.sampled_from(FOUR)), trump, side, fewest


@st.composite
def raspas_endings(draw: st.DrawFn, most: int = 4) -> tuple[dict[str, list[Card]], str, list[Card], bool, str]:
    """Three hands of up to ``most`` cards of the 32, up to two talon cards leading the first tricks, a trick
    nobody wins going to a fourth player who sits out (or to its first player), one player for the fewest."""
    n = draw(st.integers(1, most))
    cards = draw(st.permutations(SMALL))[:3 * n + 2]
    hands = {p: list(cards[k * n:(k + 1) * n]) for k, p in enumerate(THREE)}
    talon = list(cards[3 * n:3 * n + min(n, draw(st.integers(0, 2)))])
    return hands, draw(st.sampled_from(THREE)), talon, draw(st.booleans()), draw(st.sampled_from(THREE))


@settings(max_examples=60, deadline=None)
@given(solo_whist_endings())
def test_four_hands_and_partnerships_are_plain_minimax(deal: tuple[dict[str, list[Card]], str, Suit | None,
                                                                   tuple[str, ...], bool]) -> None:
    hands, leader, trump, side, fewest = deal
    play = Play(hands, FOUR, leader, trump)
    s = Solver(hands, FOUR, leader, trump, side, fewest, must_trump=False, engine="python")
    assert s.value() == minimax(play, side, fewest)
    for card in s.legal():  # and after every first card
        after = play.copy()
        after.play(leader, card)
        assert s.value([card]) == minimax(after, side, fewest)


@settings(max_examples=60, deadline=None)
@given(raspas_endings())
def test_raspas_with_talon_leads_is_plain_minimax(deal: tuple[dict[str, list[Card]], str, list[Card], bool, str]
                                                  ) -> None:
    hands, leader, talon, taker, player = deal
    play = Play(hands, THREE, leader, None, talon_leads=talon, talon_taker="D" if taker else None, must_trump=True)
    s = Solver(hands, THREE, leader, None, player, True, talon=talon, taker=taker, engine="python")
    assert s.value() == minimax(play, [player], True)


@pytest.mark.parametrize("seed", range(3))
def test_five_tricks_of_solo_whist_and_of_a_raspas_against_minimax(seed: int) -> None:
    """Endings of five tricks: the longest the plain minimax runs through here in a few seconds."""
    rng = random.Random(seed)
    cards = rng.sample(BIG, 20)
    hands = {p: cards[k * 5:(k + 1) * 5] for k, p in enumerate(FOUR)}
    side = ("S", "N") if seed % 2 else ("W",)
    trump = rng.choice(list(Suit))
    s = Solver(hands, FOUR, "N", trump, side, engine="python")  # must trump when void, as Preferans
    assert s.value() == minimax(Play(hands, FOUR, "N", trump, must_trump=True), side, False)
    small = rng.sample(SMALL, 17)
    hands3 = {p: small[k * 5:(k + 1) * 5] for k, p in enumerate(THREE)}
    talon = small[15:]
    r = Solver(hands3, THREE, "B", None, "C", True, talon=talon, taker=False, engine="python")
    assert r.value() == minimax(Play(hands3, THREE, "B", None, talon_leads=talon, must_trump=True), ["C"], True)


@pytest.mark.parametrize("seed", range(4))
def test_moves_are_those_of_play_with_four_hands_and_with_talon_leads(seed: int) -> None:
    rng = random.Random(seed)
    if seed % 2:
        cards = rng.sample(BIG, 52)
        hands = {p: cards[k * 13:(k + 1) * 13] for k, p in enumerate(FOUR)}
        seats, trump, talon, must = FOUR, rng.choice([None, *Suit]), [], False
    else:
        cards = rng.sample(SMALL, 32)
        hands = {p: cards[k * 10:(k + 1) * 10] for k, p in enumerate(THREE)}
        seats, trump, talon, must = THREE, None, cards[30:], True
    leader = rng.choice(seats)
    s = Solver(hands, seats, leader, trump, seats[0], must_trump=must, talon=talon)
    play = Play(hands, seats, leader, trump, talon_leads=talon, must_trump=must)
    line: list[Card] = []
    while not play.complete:
        p = play.to_play
        expected = sorted((c for c in play.hands[p] if play.is_legal(p, c)), key=lambda c: (c.suit.order, c.rank))
        assert sorted(s.legal(line), key=lambda c: (c.suit.order, c.rank)) == expected
        assert s.to_play(line) == p
        card = rng.choice(expected)
        play.play(p, card)
        line.append(card)


@settings(max_examples=40, deadline=None)
@given(solo_whist_endings(most=3), st.randoms(use_true_random=False))
def test_the_best_card_keeps_the_value_and_no_card_betters_its_camp(
        deal: tuple[dict[str, list[Card]], str, Suit | None, tuple[str, ...], bool], rng: random.Random) -> None:
    """Along a random line: some card keeps the value (its ``after`` equals ``before``), and no card gives its
    own camp more than the value before it (so a card never helps its player against the other camp)."""
    hands, leader, trump, side, fewest = deal
    s = Solver(hands, FOUR, leader, trump, side, fewest, must_trump=False, engine="python")
    line: list[Card] = []
    for _ in range(len(hands["N"]) * 4):
        before = s.value(line)
        player = s.to_play(line)
        wants_more = (player in side) != fewest
        afters = {card: s.value([*line, card]) for card in s.legal(line)}
        assert before in afters.values()
        for after in afters.values():
            assert after <= before if wants_more else after >= before
        line.append(rng.choice(sorted(afters, key=lambda c: (c.suit.order, c.rank))))


Position = tuple[dict[str, list[Card]], list[str], str, Suit | None, tuple[str, ...], bool, list[Card], bool, bool]


def _positions() -> list[Position]:
    """Four-hand deals of 13 cards down to 4 (solo, prop and cop sitting side by side or facing, misère) and raspasy
    of 10 cards with talon."""
    rng = random.Random(46)
    out: list[Position] = []
    for k in range(12):
        n = 4 + k % 4
        cards = rng.sample(BIG, 4 * n)
        hands = {p: cards[j * n:(j + 1) * n] for j, p in enumerate(FOUR)}
        side, fewest = [(("S",), False), (("S", "E"), False), (("W",), True), (("N", "S"), False)][k % 4]
        out.append((hands, FOUR, rng.choice(FOUR), None if fewest else rng.choice([None, *Suit]), side, fewest,
                    [], False, False))
    for k in range(6):
        cards = rng.sample(SMALL, 32)
        hands = {p: cards[j * 10:(j + 1) * 10] for j, p in enumerate(THREE)}
        out.append((hands, THREE, rng.choice(THREE), None, (THREE[k % 3],), True, cards[30:], k % 2 == 1, True))
    return out


@needs_compiled
def test_compiled_and_pure_agree_on_four_hands_and_talon_leads() -> None:
    """The same answers and the same cards tried, position after position, with four hands and with talon
    leads (the pure search is the reference)."""
    rng = random.Random(4)
    for hands, seats, leader, trump, side, fewest, talon, taker, must in _positions():
        kw = {"talon": talon, "taker": taker, "must_trump": must}
        py = Solver(hands, seats, leader, trump, side, fewest, engine="python", **kw)  # type: ignore[arg-type]
        c = Solver(hands, seats, leader, trump, side, fewest, engine="compiled", **kw)  # type: ignore[arg-type]
        line: list[Card] = []
        for _ in range(rng.randint(len(seats), 3 * len(seats))):
            line.append(rng.choice(py.legal(line)))
        for k in range(0, len(line) + 1, 2):
            h, seat, trick, _won, t = py.position(line[:k])
            for target in (1, 2, 3):
                assert py._ge(h, seat, trick, t, target) == c._ge(h, seat, trick, t, target)
            assert py.value(line[:k]) == c.value(line[:k])
        assert py.nodes == c.nodes


@pytest.mark.parametrize("engine", ["python", pytest.param("compiled", marks=needs_compiled)])
def test_the_last_trick_is_played_out_and_its_cards_counted(engine: str) -> None:
    """A card a hand: the trick's winner decides (a ruff over the led suit's ace, or the ace where there is no
    trump), for a side playing for the most or the fewest, and each question counts the four cards as tried,
    as the search through the trick would."""
    hands = {p: [parse_card(c)] for p, c in zip(FOUR, ("9S", "KS", "3H", "AS"))}
    for trump, side, fewest, value in ((Suit.H, ("N", "S"), False, 1), (Suit.H, ("E", "W"), False, 0),
                                       (None, "W", False, 1), (None, "S", True, 0), (Suit.H, "S", True, 1)):
        s = Solver(hands, FOUR, "N", trump, side, fewest, must_trump=False, engine=engine)
        assert (s.value(), s.nodes) == (value, 4), (trump, side, fewest)


def test_a_side_must_be_players_who_hold_cards_and_talon_leads_are_for_three() -> None:
    cards = BIG[:8]
    hands = {p: cards[k * 2:(k + 1) * 2] for k, p in enumerate(FOUR)}
    with pytest.raises(ValueError, match="side"):
        Solver(hands, FOUR, "N", None, "X")
    with pytest.raises(ValueError, match="three hands"):
        Solver(hands, FOUR, "N", None, "N", talon=[BIG[20]])
    s = Solver(hands, FOUR, "N", None, ["S", "N"])
    assert s.side == ("N", "S") and s.objective == "most"
