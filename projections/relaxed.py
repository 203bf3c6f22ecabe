"""An upper bound on the tricks a lone player playing for the fewest with no trump (a misère; a raspas once its talon
leads are done) can be made to take, for the open-hand search (:class:`~vistlog.projections.solver.Solver`).

It searches a **relaxed game**: the same cards and the same rules, except that after every trick he does not take
the others choose which of them leads next (in the real game the one who took it). Every way they have of playing
the real game is a way of playing this one, so what they cannot make him take here they cannot there: "fewer than
k tricks" proved here is proved for the real game (the other way round it proves nothing, and the exact search is
asked). The exact search asks it wherever its own table has no answer; a clean misère (fewer than one trick) is its
chief case.

What it buys: in the relaxed game a card of the others matters only by where it lies among *his* cards of its suit
(which of his it beats), never by how it stands to theirs, for who takes a trick among them no longer matters. So a
hand's cards between the same two of his are one move, and positions that differ only in how the others' cards lie
among themselves between his are one entry of its table: the others' equivalent lines are searched once. A clean
misère, which the exact search proves by trying every defence, is proved here in a small part of the cards
(measured in docs/performance.md). The compiled search (``_csolver.c``) does the same, step for step.
"""

from __future__ import annotations

from .cardbits import _SQUEEZE, _SUIT_MASK, _runs
from .questions import OutOfBudget, _narrowed

__all__ = ["Relaxed"]


class Relaxed:
    """The relaxed game of :class:`~vistlog.projections.solver.Solver` (its base: it reads its deal): the side's one
    player (``_alone``, "he" below), playing for the fewest with no trump, against the others, who choose which of
    them leads after each trick he does not take. Its answers hold whatever question of the deal is asked: one table
    (``_relaxed_table``: bounds of his tricks to come, per position and who leads) serves them all."""

    n: int
    nodes: int
    talon: list[int]
    _alone: int
    _relaxed_table: dict[tuple[int, ...], list[int]]

    def _under(self, h: list[int], leader: int, t: int) -> bool:
        raise NotImplementedError  # the bound of :class:`~vistlog.projections.hints.Hints`

    def _spent(self) -> bool:
        raise NotImplementedError  # the question's budget, the search's own

    def _led(self, trick: list[tuple[int, int]], t: int) -> int:
        raise NotImplementedError  # the play rules and the trick's winner, the search's own

    def _legal(self, hand: int, led: int) -> int:
        raise NotImplementedError

    def _winner(self, trick: list[tuple[int, int]], t: int) -> int:
        raise NotImplementedError

    def _relaxed_start(self, h: list[int], lead: int, k: int) -> bool:
        """At the start of a trick: can the others make him take at least ``k`` tricks more in the relaxed game?
        ``lead``: the seat to lead, or ``n`` for any of the others (after a trick he did not take). No: proved
        for the real game too (:class:`OutOfBudget` past the question's budget)."""
        d = self._alone
        r = h[d].bit_count()
        if k <= 0:
            return True
        if k > r:
            return False
        if self._under(h, (d + 1) % self.n if lead == self.n else lead, len(self.talon)):  # under for good
            return False
        key = (lead, *self._relaxed_key(h))
        b = self._relaxed_table.get(key)
        if b is None:
            b = self._relaxed_table[key] = [0, r]
        if b[0] >= k:
            return True
        if b[1] < k:
            return False
        if lead == self.n:
            ok = any(self._relaxed_trick(h, seat, [], k) for seat in range(self.n) if seat != d)
        else:
            ok = self._relaxed_trick(h, lead, [], k)
        return _narrowed(b, k, ok)

    def _relaxed_key(self, h: list[int]) -> tuple[int, ...]:
        """The position as the relaxed game sees it: how many cards of each suit he holds, and each other hand's cards
        squeezed among his and its own (which of his each card is above: not how the others' cards lie among
        themselves, which does not matter there). The compiled search keys it otherwise, the same positions alike."""
        d, sq = self._alone, _SQUEEZE
        mine = h[d]
        key = [(mine & 0xFFFF).bit_count() | (mine >> 16 & 0xFFFF).bit_count() << 4
               | (mine >> 32 & 0xFFFF).bit_count() << 8 | (mine >> 48).bit_count() << 12]
        for i, x in enumerate(h):
            if i == d:
                continue
            both, code = x | mine, 0
            for shift in (0, 16, 32, 48):
                a, m = both >> shift & 0xFFFF, x >> shift & 0xFFFF
                low = a & 0xFF
                code = code << 16 | sq[low << 8 | (m & 0xFF)] | sq[(a >> 8) << 8 | (m >> 8)] << low.bit_count()
            key.append(code)
        return tuple(key)

    def _relaxed_trick(self, h: list[int], seat: int, trick: list[tuple[int, int]], k: int) -> bool:
        """``seat`` to play to the trick under way: can the others make him take at least ``k`` tricks more?"""
        d, n, t = self._alone, self.n, len(self.talon)
        hand = h[seat]
        moves = self._relaxed_moves(h, seat, trick, self._legal(hand, self._led(trick, t)))
        self.nodes += len(moves)
        if self._spent():
            raise OutOfBudget
        catcher = seat != d
        for b in moves:
            h[seat] = hand & ~(1 << b)
            trick.append((seat, b))
            if len(trick) == n:
                made = self._relaxed_start(h, d, k - 1) if self._winner(trick, t) == d else self._relaxed_start(h, n, k)
            else:
                made = self._relaxed_trick(h, (seat + 1) % n, trick, k)
            trick.pop()
            h[seat] = hand
            if made == catcher:
                return made
        return not catcher

    def _relaxed_moves(self, h: list[int], seat: int, trick: list[tuple[int, int]], legal: int) -> list[int]:
        """The moves, in the order tried. His: one card of each run of his with no other live card between them,
        under the card winning the trick highest first, then over it lowest first (void: highest first); the
        others': one card of each stretch of a suit between two of his (the one he played to this trick counts),
        lowest first."""
        d = self._alone
        moves = []
        if seat == d:
            alive = 0
            for x in h:
                alive |= x
            for _, c in trick:
                alive |= 1 << c
            moves = _runs(legal, h[d], alive)
            if not trick:
                return moves
            suit = trick[0][1] >> 4
            if moves[0] >> 4 != suit:  # void: a discard, highest first
                return sorted(moves, key=lambda b: -(b & 15))
            top = max(c for _, c in trick if c >> 4 == suit)
            return [b for b in reversed(moves) if b < top] + [b for b in moves if b > top]
        bounds = h[d]
        for s, c in trick:
            if s == d:
                bounds |= 1 << c
        m, last = legal, -1
        while m:
            low = m & -m
            m ^= low
            b = low.bit_length() - 1
            band = (b >> 4) << 5 | (bounds & _SUIT_MASK[b >> 4] & (low - 1)).bit_count()
            if band != last:
                moves.append(b)
                last = band
        return moves
