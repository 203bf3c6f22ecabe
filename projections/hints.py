"""What the open-hand search (:class:`~vistlog.projections.solver.Solver`) knows of a position without searching it:
the tricks the leader's camp is sure of (the leader's own winners, one camp's top trumps), a lone player for the
fewest who is under every card for good, and the cheap order the moves are tried in. The compiled search
(``_csolver.c``) does the same, step for step: the tests compare the two card for card."""

from __future__ import annotations

from .cardbits import _SUIT_MASK, _beats

__all__ = ["Hints"]


class Hints:
    """The bounds and the move order of :class:`~vistlog.projections.solver.Solver` (its base: they read its deal)."""

    n: int
    trump: int
    fewest: bool
    must_trump: bool
    talon: list[int]
    _in: list[bool]
    _max: list[bool]
    _mated: list[bool]
    _alone: int

    def _under(self, h: list[int], leader: int, t: int) -> bool:
        """Playing alone for the fewest with no trump: can the side's player play under every card for good? So
        when in every suit his i-th lowest card is under the others' i-th lowest: whatever is led he plays his
        highest card under it (the others' i-th lowest stay above his), discards a highest card, never wins a trick
        and so never leads: no trick more (a clean misère proved at once). On lead himself he needs, besides, a suit
        the others hold where his (i+1)-th lowest is under their i-th: he leads his lowest of it, one of them takes
        it, and whichever cards of it they played, their i-th lowest left is still above his (i+1)-th, now his i-th
        (cards gone from a hand only raise its i-th lowest)."""
        seat = self._alone
        if seat < 0 or t < len(self.talon):
            return False
        mine, others = h[seat], 0
        for i, x in enumerate(h):
            if i != seat:
                others |= x
        lead = not self._in[leader]  # a safe lead found, or none needed
        for shift in (0, 16, 32, 48):
            d, o = mine >> shift & 0xFFFF, others >> shift & 0xFFFF
            x, y = d, o
            while x and y:
                if x & -x > y & -y:
                    return False
                x &= x - 1
                y &= y - 1
            if not lead and d and o:  # his (i+1)-th lowest under their i-th?
                x, y = d & (d - 1), o
                while x and y and x & -x < y & -y:
                    x &= x - 1
                    y &= y - 1
                lead = not (x and y)
        return lead

    def _quick(self, h: list[int], leader: int, alive: int) -> tuple[int, int]:
        """The tricks the leader takes in a row whatever the others do: in each suit, his cards above every
        other live card of it, as many as every player who could ruff still follows (of the other camp; a
        camp-mate too where a void player must trump); and those cards (what the bound rests on)."""
        hand = h[leader]
        mine = self._in[leader]
        trump = self.trump
        ruffers = []
        if trump >= 0:
            ruffers = [x for i, x in enumerate(h)  # a camp-mate who must trump takes the lead away
                       if (self._in[i] != mine or self.must_trump) and i != leader and x & _SUIT_MASK[trump]]
        q = rel = 0
        for s in range(4):
            a = alive >> (16 * s) & 0xFFFF
            own = hand >> (16 * s) & 0xFFFF
            top = 0
            while a and own >> (a.bit_length() - 1) & 1:
                b = a.bit_length() - 1
                a ^= 1 << b
                rel |= 1 << (16 * s + b)
                top += 1
            if top and s != trump:
                for x in ruffers:
                    top = min(top, (x >> (16 * s) & 0xFFFF).bit_count())
            q += top
        return q, rel

    def _sure(self, h: list[int], leader: int, alive: int, r: int) -> tuple[int, int, int, int]:
        """At a trick's start, playing for the most, the bounds sure tricks give the side's tricks to come (of ``r``):
        the least and the most, and the cards each rests on (the leader's quick tricks, a camp's top trumps)."""
        lo, hi, lo_rel, hi_rel = 0, r, 0, 0
        q, q_rel = self._quick(h, leader, alive)
        if self._in[leader]:
            if q > lo:
                lo, lo_rel = q, q_rel
        elif r - q < hi:
            hi, hi_rel = r - q, q_rel
        if self.trump >= 0:
            camp, g, g_rel = self._top_trumps(h, alive)
            if camp and g > lo:
                lo, lo_rel = g, g_rel
            if not camp and r - g < hi:
                hi, hi_rel = r - g, g_rel
        return lo, hi, lo_rel, hi_rel

    def _top_trumps(self, h: list[int], alive: int) -> tuple[bool, int, int]:
        """The top trumps held by one camp, each a trick whenever it is played: whether the camp is the side's,
        the most of them one player holds (two held by camp-mates may fall on one trick), and those cards."""
        a = alive >> (16 * self.trump) & 0xFFFF
        count = [0] * self.n
        camp = None
        g = rel = 0
        while a:
            b = a.bit_length() - 1
            a ^= 1 << b
            bit = 1 << (16 * self.trump + b)
            owner = next((i for i, x in enumerate(h) if x & bit), -1)
            if owner < 0:
                break
            if camp is None:
                camp = self._in[owner]
            elif self._in[owner] != camp:
                break
            rel |= bit
            count[owner] += 1
            g = max(g, count[owner])
        return bool(camp), g, rel

    def _order(self, moves: list[int], seat: int, trick: list[tuple[int, int]], t: int, alive: int, h: list[int]
               ) -> list[int]:
        """A cheap move order. Leading: a card above every live card of its suit first, then by rank, high first (low
        first for a side player playing for the fewest); for the most, before all, low in a suit whose top card a
        camp-mate holds, and under a suit's top card the other camp holds, low first for a player with camp-mates
        (sooner where the next hand holds that card; by rank for one alone), and a suit the other camp can ruff last.
        Following: low when the trick goes the player's way (the side's player playing for the fewest: his highest card
        under it, keeping his low ones; for the most, the hand before last counts it his way only when the last hand, of
        the other camp, cannot take it, and a hand before that when a camp-mate after it takes it whatever the others
        play), else, taking it being his wish, the cheapest card none of the others after him can beat first, then his
        other cards that take it, cheapest first (for the most, low first when every card of his that takes it can be
        beaten after him), else his highest card that stays under; discards by rank."""
        inside, trump = self._in, self.trump
        if not trick:
            weight = []
            for b in moves:
                above = alive & _SUIT_MASK[b >> 4] & ~((2 << b) - 1)
                if not above:
                    weight.append(32 + (b & 15))
                elif self.fewest:
                    weight.append(b & 15)
                else:
                    top = above.bit_length() - 1
                    holder = next((i for i, x in enumerate(h) if x >> top & 1), -1)
                    mate = holder >= 0 and holder != seat and inside[holder] == inside[seat]
                    weight.append(63 - (b & 15) if mate else 15 - (b & 15) + 8 * (holder == (seat + 1) % self.n)
                                  if self._mated[seat] else b & 15)
            if not self.fewest and trump >= 0:
                ruff = [x for i, x in enumerate(h) if inside[i] != inside[seat] and x & _SUIT_MASK[trump]]
                weight = [w - 64 if b >> 4 != trump and any(not x & _SUIT_MASK[b >> 4] for x in ruff) else w
                          for w, b in zip(weight, moves)]
            if inside[seat] and self.fewest:
                weight = [-x for x in weight]
            ranked = sorted(range(len(moves)), key=lambda i: -weight[i])
            return [moves[i] for i in ranked]
        if len(moves) < 2:
            return moves
        w_seat, w_card = trick[0]
        for s, c in trick[1:]:
            if _beats(c, w_card, trump):
                w_seat, w_card = s, c
        wins: list[int] = []
        rest: list[int] = []
        for b in moves:  # _beats, once a card
            (wins if ((b > w_card) if b >> 4 == w_card >> 4 else b >> 4 == trump) else rest).append(b)
        if len(rest) > 1 and rest[0] >> 4 != rest[-1] >> 4:  # discards: by rank, then suit
            rest.sort(key=lambda b: b & 15)
        maxer = self._max[seat]
        going = inside[w_seat] == maxer
        if going and not self.fewest and len(trick) == self.n - 2:  # the last hand, of the other camp, may take it
            last = (seat + 1) % self.n
            if inside[last] != inside[seat]:
                ws = w_card >> 4
                same = h[last] & _SUIT_MASK[ws]
                if same:
                    going = same.bit_length() - 1 < w_card
                elif trump >= 0 and ws != trump and h[last] & _SUIT_MASK[trump]:  # void in the suit led: a ruff
                    going = False
        # for the most, before the last hand, the trick not ruffed: who after him holds what of the suit led
        led = w_card >> 4
        ahead = not self.fewest and t >= len(self.talon) and len(trick) < self.n - 1 and led == trick[0][1] >> 4
        first = None
        if ahead:
            mate_top, their_top, ruffed = self._after(h, seat, len(trick), led)
            if not going and mate_top > w_card and mate_top > their_top and not ruffed:
                going = True  # a camp-mate after him takes it whatever the others play
            if not going:
                first = next((b for b in wins if b >> 4 == led and b > their_top), None)
        if going:  # the side's player playing for the fewest keeps his low cards: highest first
            return rest[::-1] + wins if inside[seat] and self.fewest else rest + wins
        if ahead and first is None and wins and wins[-1] >> 4 == led:  # beyond his reach: low first
            return rest + wins
        if inside[seat] == maxer:  # the cheapest card none after him can beat first, then the rest up
            return ([first] + [b for b in wins if b != first] if first is not None else wins) + rest
        return rest[::-1] + wins

    def _after(self, h: list[int], seat: int, played: int, suit: int) -> tuple[int, int, bool]:
        """Of the hands after ``seat`` to a trick with ``played`` cards in it, the highest card of ``suit`` in his
        camp-mates' hands and in the others' (-1: none), and whether one of the others can ruff it."""
        mate_top = their_top = -1
        ruff = False
        for i in range(1, self.n - played):
            p = (seat + i) % self.n
            held = h[p] & _SUIT_MASK[suit]
            top = held.bit_length() - 1
            if self._in[p] == self._in[seat]:
                mate_top = max(mate_top, top)
            else:
                their_top = max(their_top, top)
                ruff = ruff or (not held and self.trump >= 0 and suit != self.trump
                                and bool(h[p] & _SUIT_MASK[self.trump]))
        return mate_top, their_top, ruff

