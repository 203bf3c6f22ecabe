"""An exact double-dummy solver for a Preferans deal: three hands open, a trump or none, one declarer.

For a contract the value is the most tricks the declarer can take against two defenders who play
together; for a misère, the most tricks the defenders can force on him while he takes as few as he can.
Either way the value is **the declarer's tricks** from the position on.

The search asks one yes-or-no question at a time (can the side that wants tricks for the declarer make
it at least ``k``?), with alpha-beta cut-offs, a transposition table shared by every question asked of
one deal (keyed at the start of a trick by who holds which card, the cards squeezed to the live ones of
each suit, so that positions reached with different cards gone are one; each entry a lower and an upper
bound), equal cards merged (a hand's cards with no live card between them are one move) and a cheap
move order. The play rules are Preferans': follow suit; void, trump when you hold one; otherwise any
card. :class:`vistlog.events.play.Play` is the rule's one statement; a test checks this module's moves
against it on random positions.

>>> from vistlog.events.cards import parse_card, Suit
>>> hands = {"A": ["AS", "7D"], "B": ["KS", "AD"], "C": ["QS", "8D"]}
>>> s = Solver({p: [parse_card(c) for c in cs] for p, cs in hands.items()}, ["A", "B", "C"], "A",
...            trump=None, declarer="A")
>>> s.value()  # the ace of spades first: one trick
1
>>> s.value([parse_card("7D")])  # the seven of diamonds first: B's ace, then B leads the king of spades
1
>>> s.value([parse_card("7D"), parse_card("AD"), parse_card("8D")]), s.tricks
(1, 2)

The compiled solver (:mod:`vistlog.projections._csolver`, built at install where a C compiler exists)
runs the same search; :data:`COMPILED` says whether it is here, and ``engine="python"`` (or the
environment variable ``VISTLOG_SOLVER=python``) asks for this module's own search, the reference the
tests compare the compiled one against.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from vistlog.events.cards import Card, Suit

__all__ = ["Solver", "card_index", "card_of", "COMPILED", "engine_name"]

_SUITS: Final = (Suit.S, Suit.C, Suit.D, Suit.H)
_SUIT_NO: Final = {s: i for i, s in enumerate(_SUITS)}
_SUIT_MASK: Final = tuple(0xFF << (8 * i) for i in range(4))

try:  # the optional compiled search: same questions, same answers
    from . import _csolver  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - built where a C compiler exists
    _csolver = None

COMPILED: Final = _csolver is not None
"""The compiled solver was built with this install."""


def engine_name() -> str:
    """Which search runs by default: ``compiled`` when built, else ``python``; the environment variable
    ``VISTLOG_SOLVER=python`` asks for the pure search (the bench compares the two so)."""
    asked = os.environ.get("VISTLOG_SOLVER", "").strip().lower()
    if asked in ("python", "compiled"):
        return asked
    return "compiled" if COMPILED else "python"


def card_index(card: Card) -> int:
    """The card's bit in a hand's mask: 8 a suit, spades lowest, the 7 lowest in its suit.

    >>> from vistlog.events.cards import parse_card
    >>> card_index(parse_card("7S")), card_index(parse_card("AH"))
    (0, 31)
    """
    return _SUIT_NO[card.suit] * 8 + card.rank - 7


_CARDS: dict[int, Card] = {}


def card_of(index: int) -> Card:
    """The card at bit ``index`` (the inverse of :func:`card_index`)."""
    card = _CARDS.get(index)
    if card is None:
        card = _CARDS[index] = Card(rank=index % 8 + 7, suit=_SUITS[index // 8])
    return card


def _mask(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        if c.rank < 7:
            raise ValueError(f"{c} is not a card of the 32-card Preferans deck")
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


class Solver:
    """One deal's open-hand search: the hands as play begins, the seats in playing order, who leads,
    the trump, the declarer and whether it is a misère. Every question asked of it shares one table.

    ``engine``: ``None`` (the compiled search when built, else this module's), ``"python"`` or
    ``"compiled"``.
    """

    def __init__(self, hands: Mapping[str, Iterable[Card]], seating: Sequence[str], leader: str,
                 trump: Suit | None, declarer: str, misere: bool = False, engine: str | None = None) -> None:
        if len(seating) != 3:
            raise ValueError(f"the solver plays three hands, not {len(seating)}")
        self.seating = list(seating)
        self.masks = [_mask(hands[p]) for p in self.seating]
        sizes = {m.bit_count() for m in self.masks}
        if len(sizes) != 1:
            raise ValueError("the three hands must hold the same number of cards")
        if self.masks[0] & self.masks[1] or self.masks[0] & self.masks[2] or self.masks[1] & self.masks[2]:
            raise ValueError("a card is in two hands")
        self.leader = self.seating.index(leader)
        self.declarer = self.seating.index(declarer)
        self.trump = -1 if trump is None else _SUIT_NO[trump]
        self.misere = misere
        self.tricks = sizes.pop()
        self.nodes = 0
        """Cards tried so far, for the bench."""
        if engine is None:
            engine = engine_name()
        if engine == "compiled" and _csolver is None:
            raise RuntimeError("the compiled solver is not built in this install")
        if engine not in ("python", "compiled"):
            raise ValueError(f"unknown engine {engine!r}: python or compiled")
        self.engine = engine
        self._c = _csolver.Search(self.declarer, self.trump, int(misere)) if engine == "compiled" else None
        self._tt: dict[int, list[int]] = {}
        # who wants the declarer to win the trick: he in a contract, the defenders in a misère
        self._max = [(i == self.declarer) != misere for i in range(3)]

    # ------------------------------------------------------------------ positions

    def position(self, played: Sequence[Card] = ()) -> tuple[list[int], int, list[tuple[int, int]], int]:
        """After ``played`` (cards in order from the first lead): the hands' masks, who plays next, the
        cards of the trick under way as (seat, bit), and the declarer's tricks so far."""
        h = list(self.masks)
        leader = self.leader
        trick: list[tuple[int, int]] = []
        won = 0
        trump = self.trump
        for card in played:
            seat = (leader + len(trick)) % 3
            b = card_index(card)
            if not h[seat] >> b & 1:
                raise ValueError(f"{self.seating[seat]} does not hold {card} here")
            legal = self._legal(h[seat], trick[0][1] // 8 if trick else -1)
            if not legal >> b & 1:
                raise ValueError(f"{self.seating[seat]} may not play {card} here")
            h[seat] &= ~(1 << b)
            trick.append((seat, b))
            if len(trick) == 3:
                leader = _winner(trick, trump)
                won += leader == self.declarer
                trick = []
        return h, (leader + len(trick)) % 3, trick, won

    def _legal(self, hand: int, led: int) -> int:
        if led < 0:
            return hand
        same = hand & _SUIT_MASK[led]
        if same:
            return same
        if self.trump >= 0:
            trumps = hand & _SUIT_MASK[self.trump]
            if trumps:
                return trumps
        return hand

    def legal(self, played: Sequence[Card] = ()) -> list[Card]:
        """The cards the player to move may play after ``played`` (every one, equal cards not merged)."""
        h, seat, trick, _ = self.position(played)
        return [card_of(b) for b in _bits(self._legal(h[seat], trick[0][1] // 8 if trick else -1))]

    # ------------------------------------------------------------------ values

    def value(self, played: Sequence[Card] = (), guess: int | None = None, *, low: int | None = None,
              high: int | None = None) -> int:
        """The declarer's total tricks in the deal after ``played`` with best play by both sides from
        there (the tricks he has taken plus the most, or in a misère the fewest, still to come).

        ``guess`` is where the search starts (each step from it is one yes-or-no search); ``low`` and
        ``high``, totals the value is known to lie between, spare the searches outside them."""
        h, seat, trick, won = self.position(played)
        lo, hi = 0, h[seat].bit_count()
        if low is not None:
            lo = max(lo, low - won)
        if high is not None:
            hi = min(hi, high - won)
        if guess is None:
            guess = won + (1 if self.misere else hi // 2)
        v = min(max(guess - won, lo), hi)
        if v > lo and not self._ge(h, seat, trick, v):
            v -= 1
            while v > lo and not self._ge(h, seat, trick, v):
                v -= 1
            return won + v
        while v < hi and self._ge(h, seat, trick, v + 1):
            v += 1
        return won + v

    def keeps(self, played: Sequence[Card], card: Card, value: int) -> bool:
        """Does ``card``, played after ``played``, keep the value ``value`` (the value there)? One
        yes-or-no search: a card never gives its own side more than the value."""
        line = [*played, card]
        h, seat, trick, won = self.position(line)
        before = self.position(played)[1]
        if self._max[before]:
            return self._ge(h, seat, trick, value - won)
        return not self._ge(h, seat, trick, value - won + 1)

    def holds(self, played: Sequence[Card], at_least: int) -> bool:
        """Can the declarer's side be sure of ``at_least`` tricks for him in all (contract), or the
        defence force at least that many on him (misère), after ``played``?"""
        h, seat, trick, won = self.position(played)
        return self._ge(h, seat, trick, at_least - won)

    def best_cards(self, played: Sequence[Card] = (), value: int | None = None) -> tuple[int, list[Card]]:
        """The value after ``played`` and every legal card that keeps it (equal cards included)."""
        v = self.value(played) if value is None else value
        return v, [card for card in self.legal(played) if self.keeps(played, card, v)]

    def best_line(self, played: Sequence[Card] = (), value: int | None = None) -> list[Card]:
        """A rest of play keeping the value at every card: best play by both sides from ``played``."""
        line = list(played)
        v = self.value(line) if value is None else value
        total = self.tricks * 3
        while len(line) < total:
            for card in self.legal(line):
                if self.keeps(line, card, v):
                    line.append(card)
                    break
            else:  # pragma: no cover - some card always keeps the value
                raise AssertionError("no card keeps the value")
        return line[len(played):]

    # ------------------------------------------------------------------ the search

    def _ge(self, h: list[int], seat: int, trick: list[tuple[int, int]], k: int) -> bool:
        """Can the declarer's tricks still to come be made at least ``k``?"""
        if self._c is not None:
            flat = [x for pair in trick for x in pair]
            ok, nodes = self._c.ge(h[0], h[1], h[2], seat, flat, k)
            self.nodes += nodes
            return bool(ok)
        hands = list(h)
        if not trick:
            return self._start(hands, seat, k)
        return self._card(hands, seat, list(trick), k)

    def _start(self, h: list[int], leader: int, k: int) -> bool:
        if k <= 0:
            return True
        r = h[leader].bit_count()
        if k > r:
            return False
        h0, h1 = h[0], h[1]
        alive = h0 | h1 | h[2]
        sq = _SQUEEZE
        key = leader
        for shift in (0, 8, 16, 24):
            a = (alive >> shift & 0xFF) << 8
            key = (key << 20 | (a >> 8).bit_count() << 16 | sq[a | (h0 >> shift & 0xFF)] << 8
                   | sq[a | (h1 >> shift & 0xFF)])
        b = self._tt.get(key)
        if b is not None:
            if b[0] >= k:
                return True
            if b[1] < k:
                return False
        else:
            b = self._tt[key] = [0, r]
        ok = self._card(h, leader, [], k)
        if ok:
            if k > b[0]:
                b[0] = k
        elif k - 1 < b[1]:
            b[1] = k - 1
        return ok

    def _card(self, h: list[int], seat: int, trick: list[tuple[int, int]], k: int) -> bool:
        hand = h[seat]
        led = trick[0][1] // 8 if trick else -1
        legal = self._legal(hand, led)
        alive = h[0] | h[1] | h[2]
        for _, b in trick:
            alive |= 1 << b
        # one card of each run of equal cards: those whose next live card up the suit is not the hand's
        moves = []
        m = legal
        while m:
            low = m & -m
            m ^= low
            above = alive & _SUIT_MASK[(low.bit_length() - 1) >> 3] & ~((low << 1) - 1)
            if not (above & -above) & hand:
                moves.append(low.bit_length() - 1)
        maxer = self._max[seat]
        moves = self._order(moves, seat, trick, maxer)
        self.nodes += len(moves)
        n = len(trick)
        for b in moves:
            bit = 1 << b
            h[seat] = hand & ~bit
            trick.append((seat, b))
            if n == 2:
                w = _winner(trick, self.trump)
                ok = self._start(h, w, k - (w == self.declarer))
            else:
                ok = self._card(h, (seat + 1) % 3, trick, k)
            trick.pop()
            h[seat] = hand
            if ok == maxer:
                return ok
        return not maxer

    def _order(self, moves: list[int], seat: int, trick: list[tuple[int, int]], maxer: bool) -> list[int]:
        """A cheap move order: leading, high cards first (low ones for a misère's declarer); following,
        low when the trick already goes the player's way, else the cheapest card that takes it when taking
        it is his wish, else his highest card that stays under."""
        if not trick:
            return moves if seat == self.declarer and self.misere else moves[::-1]
        if len(moves) < 2:
            return moves
        trump = self.trump
        w_seat, w_card = trick[0]
        for s, c in trick[1:]:
            if _beats(c, w_card, trump):
                w_seat, w_card = s, c
        wins = [b for b in moves if _beats(b, w_card, trump)]
        rest = [b for b in moves if not _beats(b, w_card, trump)]
        decl = self.declarer
        if (w_seat == decl) == maxer:
            return rest + wins
        if (seat == decl) == maxer:
            return wins + rest
        return rest[::-1] + wins


def _beats(b: int, best: int, trump: int) -> bool:
    s, t = b >> 3, best >> 3
    if s == t:
        return b > best
    return s == trump


def _winner(trick: Sequence[tuple[int, int]], trump: int) -> int:
    seat, best = trick[0]
    for s, c in trick[1:]:
        if _beats(c, best, trump):
            seat, best = s, c
    return seat
