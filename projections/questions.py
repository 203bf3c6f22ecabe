"""The questions asked of one deal's open-hand search (:class:`~vistlog.projections.solver.Solver`): the value of a
position, the range a budget proves, whether a card keeps the value, whether a camp is sure of some tricks, the
cards that keep the value and a line of best play. Each is a run of yes-or-no questions to the search (``_ge``:
can the side's tricks to come be made at least ``k``?); a budget (:meth:`Questions.limit`) stops a question that
runs past it unanswered (:class:`OutOfBudget`), and :meth:`Questions.bounds` says what the answered ones prove."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence

from vistlog.events.cards import Card

__all__ = ["Questions", "OutOfBudget"]


def _narrowed(bounds: list[int], k: int, ok: bool) -> bool:
    """A table entry's bounds (the least and the most proved) narrowed by the answer ``ok`` to "at least ``k``?";
    the answer."""
    if ok:
        if k > bounds[0]:
            bounds[0] = k
    elif k - 1 < bounds[1]:
        bounds[1] = k - 1
    return ok


class OutOfBudget(Exception):
    """A question the search stopped unanswered: it tried more cards than its budget or ran past its time
    (:meth:`Questions.limit`). Nothing it learnt on the way is kept unproved: every table entry is an answer."""


class Questions:
    """The questions of :class:`~vistlog.projections.solver.Solver`, asked through its positions and its search."""

    fewest: bool
    tricks: int
    n: int
    _max: list[bool]
    _limit: int
    _deadline: float

    def position(self, played: Sequence[Card] = ()) -> tuple[list[int], int, list[tuple[int, int]], int, int]:
        """The position after ``played``: the hands, who is to play, the trick so far, the side's tricks, the
        trick's number (the search's own)."""
        raise NotImplementedError

    def legal(self, played: Sequence[Card] = ()) -> list[Card]:
        """The cards the player to play may play after ``played`` (the search's own)."""
        raise NotImplementedError

    def _ge(self, h: list[int], seat: int, trick: list[tuple[int, int]], t: int, k: int) -> bool:
        raise NotImplementedError

    def limit(self, seconds: float | None = None, nodes: int | None = None) -> None:
        """From now on, a question stops unanswered (:class:`OutOfBudget`) once it has tried ``nodes`` cards or
        ``seconds`` from now have passed (``None``: no such limit; ``limit()`` lifts both). :meth:`bounds` gives
        what the questions answered so far prove."""
        self._limit = nodes or 0
        self._deadline = time.monotonic() + seconds if seconds is not None else 0.0

    @property
    def objective(self) -> str:
        """``most`` or ``fewest``: what the side plays for."""
        return "fewest" if self.fewest else "most"

    def value(self, played: Sequence[Card] = (), guess: int | None = None, *, low: int | None = None,
              high: int | None = None) -> int:
        """The side's total tricks in the deal after ``played`` with best play by both camps from there
        (the tricks it has taken plus the most, or for ``fewest`` the fewest, still to come).

        ``guess`` is where the search starts (each step from it is one yes-or-no search); ``low`` and
        ``high``, totals the value is known to lie between, spare the searches outside them. Past a budget
        (:meth:`limit`) it raises :class:`OutOfBudget`: :meth:`bounds` says what is proved by then."""
        known = self._narrow(played, guess, low, high, [0, 0])
        return known[0]

    def bounds(self, played: Sequence[Card] = (), guess: int | None = None, *, low: int | None = None,
               high: int | None = None) -> tuple[int, int]:
        """The side's total tricks after ``played`` as :meth:`value` finds it, within the budget of
        :meth:`limit`: ``(v, v)`` when the search finished, else the range the questions it answered prove
        (the value is never outside it).

        >>> from vistlog.events.cards import parse_card
        >>> from vistlog.projections.solver import Solver
        >>> hands = {"A": ["AS", "7D"], "B": ["KS", "AD"], "C": ["QS", "8D"]}
        >>> s = Solver({p: [parse_card(c) for c in cs] for p, cs in hands.items()}, ["A", "B", "C"], "A",
        ...            trump=None, side="A")
        >>> s.limit(nodes=1); s.bounds()  # the ace of spades is sure; whether the king of spades is, not asked
        (1, 2)
        >>> s.limit(); s.bounds()
        (1, 1)
        """
        known = [0, 0]
        with contextlib.suppress(OutOfBudget):
            self._narrow(played, guess, low, high, known)
        return known[0], known[1]

    def _narrow(self, played: Sequence[Card], guess: int | None, low: int | None, high: int | None,
                known: list[int]) -> list[int]:
        """Narrow ``known`` (the side's total tricks: the least and the most proved so far) one yes-or-no question
        at a time from ``guess`` (by default one trick for the fewest, half for the most) up or down until it is
        one value; an :class:`OutOfBudget` leaves it as far as it got."""
        h, seat, trick, won, t = self.position(played)
        lo, hi = 0, h[seat].bit_count()
        if low is not None:
            lo = max(lo, low - won)
        if high is not None:
            hi = min(hi, high - won)
        known[:] = [won + lo, won + hi]
        v = min(max((guess - won) if guess is not None else (1 if self.fewest else hi // 2), lo), hi)
        while lo < hi:
            k = min(max(v, lo + 1), hi)  # is it at least k? yes: lo = k; no: hi = k - 1
            if self._ge(h, seat, trick, t, k):
                lo, v = k, k + 1
            else:
                hi, v = k - 1, k - 1
            known[:] = [won + lo, won + hi]
        return known

    def keeps(self, played: Sequence[Card], card: Card, value: int) -> bool:
        """Does ``card``, played after ``played``, keep the value ``value`` (the value there)? One
        yes-or-no search: a card never gives its own camp more than the value."""
        h, seat, trick, won, t = self.position([*played, card])
        before = self.position(played)[1]
        if self._max[before]:
            return self._ge(h, seat, trick, t, value - won)
        return not self._ge(h, seat, trick, t, value - won + 1)

    def holds(self, played: Sequence[Card], at_least: int) -> bool:
        """Can the camp that wants tricks for the side be sure of ``at_least`` side tricks in all after
        ``played`` (the side's own camp when it plays for most, the others when for fewest)?"""
        h, seat, trick, won, t = self.position(played)
        return self._ge(h, seat, trick, t, at_least - won)

    def best_cards(self, played: Sequence[Card] = (), value: int | None = None) -> tuple[int, list[Card]]:
        """The value after ``played`` and every legal card that keeps it (equal cards included)."""
        v = self.value(played) if value is None else value
        return v, [card for card in self.legal(played) if self.keeps(played, card, v)]

    def best_line(self, played: Sequence[Card] = (), value: int | None = None) -> list[Card]:
        """A rest of play keeping the value at every card: best play by both camps from ``played``."""
        line = list(played)
        v = self.value(line) if value is None else value
        total = self.tricks * self.n
        while len(line) < total:
            for card in self.legal(line):
                if self.keeps(line, card, v):
                    line.append(card)
                    break
            else:  # pragma: no cover - some card always keeps the value
                raise AssertionError("no card keeps the value")
        return line[len(played):]
