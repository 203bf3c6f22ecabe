"""Cards as bits, for the open-hand search (:mod:`vistlog.projections.solver`): a hand is a 64-bit mask, 16 bits
a suit (spades, clubs, diamonds, hearts), the two lowest in its suit, so the 32-card and the 52-card decks are
one; and the table that squeezes a suit's cards to its live ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from vistlog.events.cards import Card, Suit

__all__ = ["card_index", "card_of"]

_SUITS: Final = (Suit.S, Suit.C, Suit.D, Suit.H)
_SUIT_NO: Final = {s: i for i, s in enumerate(_SUITS)}
_SUIT_MASK: Final = tuple(0xFFFF << (16 * i) for i in range(4))


def card_index(card: Card) -> int:
    """The card's bit in a hand's mask: 16 a suit, spades lowest, the two lowest in its suit.

    >>> from vistlog.events.cards import parse_card
    >>> card_index(parse_card("2S")), card_index(parse_card("7S")), card_index(parse_card("AH"))
    (0, 5, 60)
    """
    return _SUIT_NO[card.suit] * 16 + card.rank - 2


_CARDS: dict[int, Card] = {}


def card_of(index: int) -> Card:
    """The card at bit ``index`` (the inverse of :func:`card_index`)."""
    card = _CARDS.get(index)
    if card is None:
        card = _CARDS[index] = Card(rank=index % 16 + 2, suit=_SUITS[index // 16])
    return card


def _mask(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << card_index(c)
    return m


def _compress_table() -> list[int]:
    """For a suit's live cards ``a`` and a hand's cards ``h`` of it (8 bits each): ``h``'s cards
    counted among the live ones only (the bits of ``a`` squeezed together), at ``a << 8 | h``."""
    table = [0] * 65536
    for a in range(256):
        live = [i for i in range(8) if a >> i & 1]
        for h in range(256):
            if h & ~a:
                continue
            table[a << 8 | h] = sum(1 << j for j, i in enumerate(live) if h >> i & 1)
    return table


_SQUEEZE: Final = _compress_table()


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _runs(legal: int, hand: int, alive: int) -> list[int]:
    """One card of each run of ``legal`` cards (a hand's cards with no other ``alive`` card between them play alike):
    those whose next live card up the suit is not ``hand``'s, lowest first."""
    out = []
    m = legal
    while m:
        low = m & -m
        m ^= low
        above = alive & _SUIT_MASK[(low.bit_length() - 1) >> 4] & ~((low << 1) - 1)
        if not (above & -above) & hand:
            out.append(low.bit_length() - 1)
    return out


def _top(count: int, depth: int) -> int:
    """Both owner planes' bits of the top ``depth`` of a suit's ``count`` live cards (the solver's patterns)."""
    m = (1 << count) - (1 << (count - depth))
    return m | m << 16


def _pins(alive: int, depth: Sequence[int]) -> int:
    """The top ``depth[s]`` live cards of each suit ``s``."""
    out = 0
    for s in range(4):
        a = alive >> (16 * s) & 0xFFFF
        for _ in range(depth[s]):
            b = a.bit_length() - 1
            a ^= 1 << b
            out |= 1 << (16 * s + b)
    return out


def _beats(b: int, best: int, trump: int) -> bool:
    s, t = b >> 4, best >> 4
    if s == t:
        return b > best
    return s == trump
