"""Cards as values and card-level play: the interned cards, and :class:`Play` against a plain reference."""

from __future__ import annotations

import copy
import pickle
import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vistlog.events.cards import PREFERANS_DECK, Card, Suit, parse_card
from vistlog.events.play import Play


def test_a_card_is_one_object_whatever_makes_it() -> None:
    ace = parse_card("A♠")
    assert Card(14, Suit.S) is ace and parse_card("AS") is ace and parse_card("as") is ace
    assert pickle.loads(pickle.dumps(ace)) is ace
    assert copy.copy(ace) is ace and copy.deepcopy([ace])[0] is ace
    assert {Card(14, Suit.S): 1}[ace] == 1 and ace != parse_card("AH") and ace == Card(14, Suit.S)
    assert repr(ace) == "Card(rank=14, suit=<Suit.S: 'S'>)" and str(Card(10, Suit.H)) == "10H"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ace.rank = 13  # type: ignore[misc]


def test_cards_order_by_rank_then_suit() -> None:
    cards = [parse_card(c) for c in ("AS", "7H", "7S", "KD", "10C")]
    assert [str(c) for c in sorted(cards)] == ["7S", "7H", "10C", "KD", "AS"]
    assert parse_card("7S") < parse_card("7H") <= parse_card("7H") and parse_card("AS") > parse_card("KD")


def _reference(play: Play, hands: dict[str, set[Card]], player: str, card: Card, led: Suit | None) -> str | None:
    """What the rules say, worked out the slow way: scanning the hand."""
    if play.trick_no > play.total_tricks:
        return "play-complete"
    if player != play.to_play:
        return "card-out-of-turn"
    if card not in hands[player]:
        return "card-not-held"
    if led is not None and card.suit is not led:
        if any(c.suit is led for c in hands[player]):
            return "revoke"
        if play.must_trump and play.trump is not None and card.suit is not play.trump \
                and any(c.suit is play.trump for c in hands[player]):
            return "must-trump"
    return None


@given(st.integers(0, 2**32 - 1), st.sampled_from([None, *Suit]), st.booleans())
def test_play_agrees_with_a_plain_reference_card_after_card(seed: int, trump: Suit | None, must_trump: bool) -> None:
    """Per-suit counts, the player to play and the suit led are kept as the play goes; at every card
    (legal or not, by the right player or not) the verdict is the one the hands themselves give."""
    rng = random.Random(seed)
    deck = sorted(PREFERANS_DECK)
    rng.shuffle(deck)
    seats = ["A", "B", "C"]
    hands = {p: set(deck[10 * i: 10 * i + 10]) for i, p in enumerate(seats)}
    play = Play({p: list(h) for p, h in hands.items()}, seats, "B", trump, must_trump=must_trump)
    led: Suit | None = None
    current: list[tuple[str, Card]] = []
    while play.trick_no <= play.total_tricks:
        player = rng.choice(seats) if rng.random() < 0.2 else play.to_play
        card = rng.choice(sorted(hands[player])) if hands[player] and rng.random() < 0.9 else rng.choice(deck)
        want = _reference(play, hands, player, card, led)
        got = play.play(player, card)
        assert (got[0] if got else None) == want
        if want is None:
            hands[player].discard(card)
            current.append((player, card))
            led = led or card.suit
            if len(current) == 3:
                current, led = [], None
    assert sum(play.taken.values()) == 10 and play.complete
    assert play.play("A", deck[0]) is not None
