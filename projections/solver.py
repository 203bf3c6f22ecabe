"""An exact double-dummy search for trick-taking with every hand open: Preferans, Solo Whist and raspasy.

Three or four hands of equal size, in playing order; a trump or none; who leads; and a **side** (the
players who play together) with its **objective**: to take as many tricks as it can, or as few. Every
other player plays against the side, all of them together. The value of a position is **the side's total
tricks in the deal** (taken so far plus best play by both camps from there):

- a Preferans contract: the declarer alone, most tricks; a misère: the declarer alone, fewest;
- Solo Whist: the declarer (and the partner of a prop and cop, wherever he sits), most tricks, or fewest
  for a misère;
- a raspas (each for himself): one player, fewest, the other two making him take as many as they can: what
  he can guarantee. The talon's cards lead the first tricks as :class:`~vistlog.events.play.Play` plays
  them (``talon``), a trick nobody wins going to a player who sits out (``taker``) or to its first player.

The search asks one yes-or-no question at a time (can the camp that wants tricks for the side make it at least
``k``?), with alpha-beta cut-offs; at the start of each trick, sure tricks bound the answer (the leader's cards
above every other of their suit, the top trumps of one camp: :mod:`~vistlog.projections.hints`, with the move
order), and where they do not answer, a table shared by every question asked of one deal answers positions met
before. The table is a **partition search**: each answer is kept with the cards whose ranks decided it (the winner
of a trick that beat a card of its suit, and what the sure tricks rest on), as a pattern of who holds the live cards
of each suit from the top down to the lowest such card; any position with the same suit lengths in every hand and
the same pattern has the same answer, whatever its lower cards. Where the side plays for the fewest tricks (a
misère, a raspas) most ranks decide and patterns would cost more than they share, so the table there is keyed by the
whole position squeezed to its live cards (measured in docs/performance.md); and where that side is one player with
no trump, a position the table does not answer is first asked of a **relaxed game** in which the others choose who
of them leads after each trick he does not take (:mod:`~vistlog.projections.relaxed`): fewer than ``k`` tricks there
is fewer than ``k`` here, and it is searched in a fraction of the cards. Equal cards are merged (a hand's cards with
no live card between them are one move; a pattern's boundary is carried through such a run) and moves are tried in a
cheap order. The play rules are :class:`~vistlog.events.play.Play`'s (follow suit; void, trump when the game says
so; otherwise any card): a test checks this module's moves against it on random positions.

>>> from vistlog.events.cards import parse_card
>>> hands = {"A": ["AS", "7D"], "B": ["KS", "AD"], "C": ["QS", "8D"]}
>>> s = Solver({p: [parse_card(c) for c in cs] for p, cs in hands.items()}, ["A", "B", "C"], "A",
...            trump=None, side="A")
>>> s.value()  # the ace of spades first: one trick
1
>>> s.value([parse_card("7D")])  # the seven of diamonds first: B's ace, then B leads the king of spades
1
>>> s.value([parse_card("7D"), parse_card("AD"), parse_card("8D")]), s.tricks
(1, 2)

The compiled search (:mod:`vistlog.projections._csolver`, built where a C compiler exists) runs the same
search; :data:`COMPILED` says whether it is here; ``engine="python"`` (or ``VISTLOG_SOLVER=python``) asks for
this module's, the reference the tests compare it against (values and cards tried, position by position).
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Final

from vistlog.events.cards import Card, Suit

from .hints import Hints
from .questions import OutOfBudget, Questions, _narrowed
from .relaxed import Relaxed
from .cardbits import _SQUEEZE, _SUIT_MASK, _SUIT_NO, _beats, _bits, _mask, _pins, _runs, _top, card_index, card_of

__all__ = ["Solver", "OutOfBudget", "card_index", "card_of", "COMPILED", "engine_name"]


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


class Solver(Hints, Relaxed, Questions):
    """One deal's open-hand search: the hands as play begins, the seats in playing order, who leads, the
    trump, the **side** (one player or several) and whether it wants the ``fewest`` tricks. Every question
    asked of it shares one table.

    ``talon``: cards that lead the first tricks (a Preferans raspas), one a trick; ``taker``: a trick that
    nobody's card wins against its talon card goes to a player who sits out (else to its first player);
    ``must_trump``: a player void in the suit led must trump when he can (Preferans; not Solo Whist).
    ``engine``: ``None`` (the compiled search when built, else this module's), ``"python"`` or
    ``"compiled"``.
    """

    def __init__(self, hands: Mapping[str, Iterable[Card]], seating: Sequence[str], leader: str,
                 trump: Suit | None, side: str | Collection[str], fewest: bool = False, *,
                 talon: Sequence[Card] = (), taker: bool = False, must_trump: bool = True,
                 engine: str | None = None) -> None:
        n = len(seating)
        if n not in (3, 4):
            raise ValueError(f"the solver plays three or four hands, not {n}")
        if talon and n != 3:
            raise ValueError("talon leads are played by three hands")
        self.seating = list(seating)
        self.n = n
        self.masks = [_mask(hands[p]) for p in self.seating]
        sizes = {m.bit_count() for m in self.masks}
        if len(sizes) != 1:
            raise ValueError(f"the {n} hands must hold the same number of cards")
        seen = 0
        for m in self.masks:
            if seen & m:
                raise ValueError("a card is in two hands")
            seen |= m
        self.tricks = sizes.pop()
        self.talon = [card_index(c) for c in talon]
        if len(self.talon) > self.tricks or any(seen >> b & 1 for b in self.talon):
            raise ValueError("the talon's leads must be cards outside the hands, no more than the tricks")
        # the talon cards still to lead, from trick t on
        self._talon_rest = [sum(1 << b for b in self.talon[t:]) for t in range(len(self.talon) + 1)]
        names = [side] if isinstance(side, str) else list(side)
        if not names or any(p not in self.seating for p in names):
            raise ValueError(f"the side {names} must be players who hold cards")
        self.side = tuple(p for p in self.seating if p in names)
        self.fewest = fewest
        self.leader = self.seating.index(leader)
        self.trump = -1 if trump is None else _SUIT_NO[trump]
        self.taker = taker
        self.must_trump = must_trump
        self.nodes = 0
        """Cards tried so far, for the bench."""
        self._limit = 0  # the cards one question may try (0: any number)
        self._deadline = 0.0  # the monotonic second questions stop unanswered (0: never)
        self._stop_at = 0  # this question's last card (the Python search)
        self._check_at = 0  # when the Python search reads the clock next
        self._in = [p in self.side for p in self.seating]
        # who wants the side to win a trick: its own players when it wants tricks, the others otherwise
        self._max = [inside != fewest for inside in self._in]
        # who has a camp-mate (the move order leads low under another's top card then)
        self._mated = [sum(x == inside for x in self._in) > 1 for inside in self._in]
        engine = engine_name() if engine is None else engine
        if engine == "compiled" and _csolver is None:
            raise RuntimeError("the compiled solver is not built in this install")
        if engine not in ("python", "compiled"):
            raise ValueError(f"unknown engine {engine!r}: python or compiled")
        self.engine = engine
        side_mask = sum(1 << i for i, inside in enumerate(self._in) if inside)
        self._c = (_csolver.Search(n, side_mask, int(fewest), self.trump, int(must_trump), self.talon, int(taker))
                   if engine == "compiled" else None)
        self._tt: dict[int, dict[tuple[int, ...], dict[tuple[int, ...], list[int]]]] = {}
        self._exact: dict[int, list[int]] = {}
        self._seen: dict[tuple[int, ...], list[int]] = {}
        self._relaxed_table: dict[tuple[int, ...], list[int]] = {}
        self._positions: dict[tuple[Card, ...], tuple[tuple[int, ...], int, tuple[tuple[int, int], ...], int, int]] = {}
        # playing for the fewest (a misère, a raspas) the ranks that decide are most of them, and patterns cost
        # more than they share (measured: bench/analysis.py, 3 and 4 hands); the exact table serves them
        self._plain = fewest
        # the side's one player when it plays alone for the fewest with no trump (:meth:`_under`), else -1
        self._alone = self._in.index(True) if fewest and self.trump < 0 and sum(self._in) == 1 else -1

    # ------------------------------------------------------------------ positions

    def position(self, played: Sequence[Card] = ()) -> tuple[list[int], int, list[tuple[int, int]], int, int]:
        """After ``played`` (cards in order from the first lead): the hands' masks, who plays next, the
        cards of the trick under way as (seat, bit), the side's tricks so far and the talon tricks done.

        A line of play is asked card by card (:meth:`best_line`, the analyses): the positions are kept, so a
        card after a known position is one step, not a replay from the first lead."""
        key = tuple(played)
        got = self._positions.get(key)
        if got is None:
            if len(self._positions) > 4096:
                self._positions.clear()
            before = self._positions.get(key[:-1]) if key else None
            cards: list[tuple[int, int]]
            if before is None:
                hands, leader, cards, won, t = list(self.masks), self.leader, [], 0, 0
                for card in played:
                    hands, leader, cards, won, t = self._step(hands, leader, cards, won, t, card)
            else:
                hands, leader, cards, won, t = self._step(list(before[0]), before[1], list(before[2]), before[3],
                                                          before[4], key[-1])
            got = (tuple(hands), leader, tuple(cards), won, t)
            self._positions[key] = got
        return list(got[0]), (got[1] + len(got[2])) % self.n, list(got[2]), got[3], got[4]

    def _step(self, h: list[int], leader: int, trick: list[tuple[int, int]], won: int, t: int, card: Card
              ) -> tuple[list[int], int, list[tuple[int, int]], int, int]:
        """One card played (``h`` and ``trick`` changed in place): the trick's leader, the side's tricks so far
        and the talon tricks done after it."""
        n = self.n
        seat = (leader + len(trick)) % n
        b = card_index(card)
        if not h[seat] >> b & 1:
            raise ValueError(f"{self.seating[seat]} does not hold {card} here")
        if not self._legal(h[seat], self._led(trick, t)) >> b & 1:
            raise ValueError(f"{self.seating[seat]} may not play {card} here")
        h[seat] &= ~(1 << b)
        trick.append((seat, b))
        if len(trick) == n:
            w = self._winner(trick, t)
            won += w >= 0 and self._in[w]
            leader = w if w >= 0 else 0
            t += t < len(self.talon)
            trick = []
        return h, leader, trick, won, t

    def _led(self, trick: Sequence[tuple[int, int]], t: int) -> int:
        if t < len(self.talon):
            return self.talon[t] >> 4
        return trick[0][1] >> 4 if trick else -1

    def _legal(self, hand: int, led: int) -> int:
        if led < 0:
            return hand
        same = hand & _SUIT_MASK[led]
        if same:
            return same
        if self.must_trump and self.trump >= 0:
            trumps = hand & _SUIT_MASK[self.trump]
            if trumps:
                return trumps
        return hand

    def _winner(self, trick: Sequence[tuple[int, int]], t: int) -> int:
        """Who wins a full trick: a seat, or -1 for the player who sits out (a talon trick nobody wins)."""
        trump = self.trump
        if t >= len(self.talon):
            seat, best = trick[0]
            for s, c in trick[1:]:
                if _beats(c, best, trump):
                    seat, best = s, c
            return seat
        lead = self.talon[t]
        led = lead >> 4
        seat, best, top = trick[0][0], -1, 0
        for s, c in trick:
            suit = c >> 4
            score = 100 + (c & 15) if suit == trump else (c & 15) + 1 if suit == led else 0
            if score > top:
                top, seat, best = score, s, c
        if top == 0:
            return -1 if self.taker else trick[0][0]
        if self.taker and best >> 4 != trump and (lead & 15) > (best & 15):
            return -1
        return seat

    def legal(self, played: Sequence[Card] = ()) -> list[Card]:
        """The cards the player to move may play after ``played`` (every one, equal cards not merged)."""
        h, seat, trick, _, t = self.position(played)
        return [card_of(b) for b in _bits(self._legal(h[seat], self._led(trick, t)))]

    def to_play(self, played: Sequence[Card] = ()) -> str:
        """Who plays the next card after ``played``."""
        return self.seating[self.position(played)[1]]

    # ------------------------------------------------------------------ the search

    def _ge(self, h: list[int], seat: int, trick: list[tuple[int, int]], t: int, k: int) -> bool:
        """Can the side's tricks still to come be made at least ``k``?"""
        seconds = 0.0
        if self._deadline:
            seconds = self._deadline - time.monotonic()
            if seconds <= 0:
                raise OutOfBudget
        if self._c is not None:
            ok, nodes = self._c.ge(tuple(h), seat, [x for pair in trick for x in pair], t, k, self._limit, seconds)
            self.nodes += nodes
            if ok is None:
                raise OutOfBudget
            return bool(ok)
        self._stop_at = self.nodes + self._limit if self._limit else 0
        self._check_at = self.nodes
        hands = list(h)
        if not trick:
            return self._start(hands, seat, t, k)[0]
        return self._card(hands, seat, list(trick), t, k)[0]

    # A search answers (yes or no, the cards whose ranks decided it). The table keeps, per leader and suit
    # lengths of every hand, patterns: in each suit the owners of the live cards from the top down to the
    # lowest card that mattered, with the bounds proved for every position showing that pattern (partition
    # search: positions differing only in cards that never mattered are one).

    def _owners(self, h: list[int], alive: int, t: int) -> list[int]:
        """Per suit, who holds each live card: two planes of a bit a live card, the lowest card lowest, the
        first plane (low 16 bits) for the second hand or the fourth, the other for the third hand or the fourth
        (the fourth: the fourth hand, or a talon card still to lead)."""
        x = h[3] if self.n == 4 else self._talon_rest[t]
        m0, m1 = h[1] | x, h[2] | x
        sq = _SQUEEZE
        out = []
        for shift in (0, 16, 32, 48):
            a = alive >> shift & 0xFFFF
            lo, hi, up = (a & 0xFF) << 8, (a >> 8) << 8, (a & 0xFF).bit_count()
            q0 = sq[lo | (m0 >> shift & 0xFF)] | sq[hi | (m0 >> (shift + 8) & 0xFF)] << up
            q1 = sq[lo | (m1 >> shift & 0xFF)] | sq[hi | (m1 >> (shift + 8) & 0xFF)] << up
            out.append(q0 | q1 << 16)
        return out

    def _start(self, h: list[int], leader: int, t: int, k: int) -> tuple[bool, int]:
        if k <= 0:
            return True, 0
        r = h[leader].bit_count()
        if k > r:
            return False, 0
        if r == 1 and t >= len(self.talon):  # the last trick: one card a hand, no table
            return self._last(h, leader, t)
        if self._plain:
            if self._under(h, leader, t):
                return False, 0
            return self._start_exact(h, leader, t, k, r), 0
        alive = self._talon_rest[t] if t < len(self.talon) else 0
        for x in h:
            alive |= x
        lo, hi, lo_rel, hi_rel = 0, r, 0, 0
        if not self.fewest and t >= len(self.talon):  # sure tricks first: where they answer, the table is not read
            lo, hi, lo_rel, hi_rel = self._sure(h, leader, alive, r)
            if lo >= k:
                return True, lo_rel
            if hi < k:
                return False, hi_rel
        shape = leader << 2 | t
        for x in h:
            for s in (0, 16, 32, 48):
                shape = shape << 4 | (x >> s & 0xFFFF).bit_count()
        owners = self._owners(h, alive, t)
        counts = [(alive >> (16 * s) & 0xFFFF).bit_count() for s in range(4)]
        bucket = self._tt.get(shape)
        if bucket is not None:  # each depth of pattern seen here, the one that answered last first (the dict's end)
            for depth in reversed(bucket):
                e = bucket[depth].get(tuple(owners[s] & _top(counts[s], depth[s]) for s in range(4)))
                if e is not None:
                    if e[0] > lo:
                        lo, lo_rel = e[0], _pins(alive, depth)
                    if e[1] < hi:
                        hi, hi_rel = e[1], _pins(alive, depth)
                    if lo >= k or hi < k:  # answered: its depth moves first, the patterns after it are not read
                        bucket[depth] = bucket.pop(depth)
                        break
        if lo >= k:
            return True, lo_rel
        if hi < k:
            return False, hi_rel
        ok, rel = self._card(h, leader, [], t, k)
        # each suit pinned from the top down to its lowest card that mattered, and on through the cards below it
        # of the same hand (equal cards are one move: a run the boundary cut would be two elsewhere)
        x = h[3] if self.n == 4 else self._talon_rest[t]
        holders = [*h[:3], x] if self.n == 3 else h
        low = []
        for s in range(4):
            a = alive >> (16 * s) & 0xFFFF
            mine = rel >> (16 * s) & 0xFFFF
            if not mine:
                low.append(0)
                continue
            b = (mine & -mine).bit_length() - 1
            hand = next(y for y in holders if y >> (16 * s + b) & 1) >> (16 * s)
            below = a & ((1 << b) - 1)
            while below and hand >> (below.bit_length() - 1) & 1:
                b = below.bit_length() - 1
                below ^= 1 << b
            low.append((a >> b).bit_count())
        rel = _pins(alive, low)
        if bucket is None:
            bucket = self._tt[shape] = {}
        patterns = bucket.setdefault(tuple(low), {})
        e = patterns.setdefault(tuple(owners[s] & _top(counts[s], low[s]) for s in range(4)), [0, r])
        return _narrowed(e, k, ok), rel

    def _last(self, h: list[int], leader: int, t: int) -> tuple[bool, int]:
        """The last trick, a card a hand: whether the side takes it, and the cards whose ranks decided it (the
        cards tried are counted as the search would)."""
        seats = [(leader + i) % self.n for i in range(self.n)]
        trick = [(seat, h[seat].bit_length() - 1) for seat in seats]
        w = self._winner(trick, t)
        self.nodes += self.n
        return self._in[w], self._decided(trick, t, w)

    def _start_exact(self, h: list[int], leader: int, t: int, k: int, r: int) -> bool:
        """The exact table (playing for the fewest): the key is the whole position squeezed to its live cards.
        A position met again card for card finds its entry by its hands alone (the same entry: no squeezing)."""
        raw = (leader, t, *h)
        b = self._seen.get(raw)
        if b is None:
            alive = self._talon_rest[t] if t < len(self.talon) else 0
            for x in h:
                alive |= x
            key = leader << 2 | t
            for s, seq in enumerate(self._owners(h, alive, t)):
                key = (key << 30 | (alive >> (16 * s) & 0xFFFF).bit_count() << 26 | (seq & 0x1FFF) << 13
                       | seq >> 16 & 0x1FFF)
            b = self._exact.get(key)
            if b is None:
                b = self._exact[key] = [0, r]
            self._seen[raw] = b
        if b[0] >= k:
            return True
        if b[1] < k:
            return False
        if self._alone >= 0 and t >= len(self.talon) and not self._relaxed_start(h, leader, k):  # relaxed.py
            return _narrowed(b, k, False)
        return _narrowed(b, k, self._card(h, leader, [], t, k)[0])

    def _card(self, h: list[int], seat: int, trick: list[tuple[int, int]], t: int, k: int) -> tuple[bool, int]:
        hand = h[seat]
        led = self._led(trick, t)
        legal = self._legal(hand, led)
        alive = self._talon_rest[t] if t < len(self.talon) else 0
        for x in h:
            alive |= x
        for _, b in trick:
            alive |= 1 << b
        moves = _runs(legal, hand, alive)
        maxer = self._max[seat]
        moves = self._order(moves, seat, trick, t, alive, h)
        self.nodes += len(moves)
        if self._spent():
            raise OutOfBudget
        n = len(trick)
        last = n == self.n - 1
        seen = 0
        for b in moves:
            h[seat] = hand & ~(1 << b)
            trick.append((seat, b))
            if last:
                w = self._winner(trick, t)
                nt = t + (t < len(self.talon))
                if w < 0:
                    ok, rel = self._start(h, 0, nt, k)
                else:
                    ok, rel = self._start(h, w, nt, k - self._in[w])
                if not self._plain:  # the exact table needs no ranks
                    rel |= self._decided(trick, t, w)
            else:
                ok, rel = self._card(h, (seat + 1) % self.n, trick, t, k)
            trick.pop()
            h[seat] = hand
            if ok == maxer:
                return ok, rel
            seen |= rel
        return not maxer, seen

    def _spent(self) -> bool:
        """The question's budget is spent: more cards tried than its limit, or its time past."""
        return bool((self._stop_at and self.nodes > self._stop_at)
                    or (self._deadline and self.nodes >= self._check_at and self._past()))

    def _past(self) -> bool:
        """The clock is past the deadline (read every 4,096 cards)."""
        self._check_at = self.nodes + 4096
        return time.monotonic() > self._deadline

    def _decided(self, trick: list[tuple[int, int]], t: int, w: int) -> int:
        """The cards whose ranks decided a full trick: the winner's card when it beat another of its suit (a
        talon trick: every card of it, and the talon's)."""
        if t < len(self.talon):
            out = 1 << self.talon[t]
            for _, c in trick:
                out |= 1 << c
            return out
        best = next(c for s, c in trick if s == w)
        return 1 << best if any(c >> 4 == best >> 4 and c != best for _, c in trick) else 0
