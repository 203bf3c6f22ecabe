"""What a deal's open-hand analyses share: who plays for what (:func:`camps`), the search of a deal as its game
set it up (:func:`solver_for`), the tricks a line of play gives (:func:`taken_after`), and a deal's worth to each
player through the game's own scoring (:class:`Worth`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from vistlog.events.cards import Card
from vistlog.events.entries import Num, Totals
from vistlog.events.record import DealRecord
from vistlog.events.variants import VARIANTS

from .fold import GameResult
from .solver import Solver
from .variants import reading_of, scoring_of

__all__ = ["Worth", "Camp", "camps", "each_for_fewest", "solver_for", "taken_after", "by_suit", "shape"]


class Worth:
    """A deal's worth to each player through the game's own scoring: the sheet before the deal, the
    deal's entries on it, and the settlement of both."""

    def __init__(self, result: GameResult) -> None:
        self.result = result
        self.scoring = scoring_of(result.started.rules)
        self.settle = reading_of(result.variant).results
        self.options = result.started.rules.options
        self.players = list(result.players)
        # the sheet up to deal _upto, walked forward as the deals are asked
        self._sheet = Totals(self.players, result.totals.declared)
        self._upto = -1
        self._entries = sorted(result.entries, key=lambda e: e.deal)
        self._next = 0
        self._before: dict[int, tuple[Totals, dict[str, Num]]] = {}
        self.streak: dict[int, int] = {}
        """The raspasy in a row before each deal (what a raspas's price reads), filled as the deals are walked."""

    def _sheet_before(self, deal: int) -> Totals:
        """The sheet as it stood before ``deal`` (the deals are asked in order: one pass over the entries)."""
        if deal - 1 < self._upto:
            return self.result.totals_after(deal - 1)
        entries = self._entries
        while self._next < len(entries) and entries[self._next].deal <= deal - 1:
            self._sheet.apply(entries[self._next])
            self._next += 1
        self._upto = deal - 1
        return self._sheet.copy()

    def of(self, rec: DealRecord, **changes: Any) -> dict[str, Num]:
        """What the deal with ``changes`` (its tricks, its calls) writes, settled, per player."""
        n = rec.number
        if n not in self._before:
            totals = self._sheet_before(n)
            self._before[n] = (totals, self.settle(self.options, self.players, totals))
        totals, base = self._before[n]
        score = self.scoring.score(self.options, self.result.started.pool or 0, self.players,
                                   attrs.evolve(rec, **changes), totals, self.streak.get(n, 0))
        after = totals.copy()
        for column, player, amount, _why, on in score.rows:
            after.add(column, player, amount, on)
        settled = self.settle(self.options, self.players, after)
        return {p: settled[p] - base[p] for p in self.players}


Camp = tuple[tuple[str, ...], bool]
"""Players who play together and whether they play for the fewest tricks."""


def each_for_fewest(rec: DealRecord, variant: str) -> bool:
    """The deal went by a mode of its game played with no declarer, each for himself for the fewest (a raspas)."""
    return VARIANTS[variant].mode(rec.mode).each_for_fewest


def camps(rec: DealRecord, variant: str) -> list[Camp] | str:
    """Who plays for what in a deal of the game ``variant``, from its record: a contract's declaring side (the
    declarer and his partner) for the most tricks or the fewest; in a mode played each for himself for the fewest
    (a raspas), every player alone; or why the deal has none to solve (its mode's words say why, when they do:
    :attr:`~vistlog.projections.variants.ModeWords.unsolved`)."""
    c = rec.contract
    if c is not None:
        side = (c.declarer, *((c.partner,) if c.partner else ()))
        return [(side, c.contract.fewest)]
    if each_for_fewest(rec, variant):
        return [((p,), True) for p in (rec.setup.seating if rec.setup else rec.holders)]
    words = reading_of(variant).modes.get(rec.mode)
    return words.unsolved if words is not None and words.unsolved else "no contract"


def solver_for(rec: DealRecord, hands: Mapping[str, Sequence[Card]], side: Sequence[str], fewest: bool,
               engine: str | None = None) -> Solver:
    """The open-hand search of a deal played as its game set it up (:attr:`DealRecord.setup`), for ``side``."""
    setup = rec.setup
    assert setup is not None
    return Solver({p: hands[p] for p in setup.seating}, setup.seating, setup.leader, setup.trump, side, fewest,
                  talon=setup.talon_leads, taker=setup.talon_taker is not None, must_trump=setup.must_trump,
                  engine=engine)


def taken_after(rec: DealRecord, hands: Mapping[str, Sequence[Card]], line: Sequence[Card]) -> dict[str, int]:
    """The tricks each player takes when the deal is played along ``line`` (every card of it), by the game's
    own play (:attr:`DealRecord.setup`)."""
    assert rec.setup is not None
    play = rec.setup.play({p: hands[p] for p in rec.setup.seating})
    for card in line:
        err = play.play(play.to_play, card)
        assert err is None, err
    return dict(play.taken)


def by_suit(card: Card) -> tuple[str, int]:
    """A card's place in a hand sorted by suit, then rank."""
    return card.suit.value, card.rank


def shape(pair: Sequence[Card], mine: Sequence[Card]) -> tuple[tuple[str, int], ...]:
    """A discard up to equal cards: each card named by the run of the declarer's touching cards it is in."""
    def run_of(card: Card) -> tuple[str, int]:
        top = card.rank
        while any(x.suit is card.suit and x.rank == top + 1 for x in mine):
            top += 1
        return card.suit.value, top
    return tuple(sorted(run_of(x) for x in pair))
