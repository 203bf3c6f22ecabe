"""The decisions of a deal made with the cards hidden, weighed single-dummy (:mod:`.odds`): each defender's whist
call (the choices the game's own state machine offered him then: the legal-next query,
:func:`~vistlog.events.nextstep.next_step`), the opening lead (the lead that catches a misère among them) and,
asked for, the declarer's discard after the talon (every pair of his twelve cards, the contract as declared).

The contract is part of what the player knew: to a player outside the declaring side, a layout fits only when
the side, with best play by both camps, comes within a trick of what its contract needs (for a misère: is
caught at most once), since the declarer chose it with his own cards in view. Layouts that do not fit are
drawn and put aside, up to :data:`~vistlog.projections.odds.TRIES` for each one asked; a decision is weighed
on the layouts found (``samples`` of ``drawn``); when none fits it has no choices and rank 0.

A whist call is weighed with the other calls as they went on: the later calls recorded are kept while the game
still accepts them, and a defender who must still speak says what he finally said if he may, else pass. Every
layout is then played out double-dummy from the first lead, and the deal scored with those calls.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from vistlog.events.cards import Card, WhistCall, final_calls
from vistlog.events.codec import unstructure
from vistlog.events.entries import Num
from vistlog.events.model import CardPlayed, DealStarted, Discard, Event, GameStarted, WhistMade
from vistlog.events.nextstep import next_step
from vistlog.events.record import DealRecord
from vistlog.events.variants import find_variant

from .worth import Camp, Worth, by_suit as _by_suit, shape as _shape, solver_for, taken_after as _taken_after
from .odds import MIN_KEPT, Decision, Score, SingleDummy, ranked, view
from .solver import Solver

__all__ = ["deal_decisions", "call_choices"]

_WORDS = frozenset(c.value for c in WhistCall)
_NOT_DRAFTED = frozenset({"card_played", "claim", "discard", "allocation"})
Calls = tuple[tuple[str, WhistCall], ...]


def deal_decisions(rec: DealRecord, hands: Mapping[str, list[Card]], camp: Camp, worth: Worth, game: str,
                   started: GameStarted, sd: SingleDummy, calls_weighed: bool, engine: str | None = None,
                   only: Sequence[Mapping[str, Sequence[Card]]] | None = None, discards: bool = False,
                   budget: float | None = None) -> tuple[Decision, ...]:
    """Every whist call (where the game weighs them) and the opening lead of one contract deal, weighed
    single-dummy; ``discards``: the declarer's discard too, where he took the talon (every pair of his twelve
    cards on every layout: tens of times the work of a lead). ``only``: solve these layouts (each the hands as
    play began) instead of drawing them. ``budget``: the seconds each decision may take, past which it draws no more
    layouts once it has one (:attr:`~vistlog.projections.odds.Decision.cut`)."""
    w = _Weigher(rec, hands, camp, worth, game, sd, engine, only)
    w.budget = budget
    return (*(w.discard() if discards else ()), *(w.calls(started) if calls_weighed and not camp[1] else ()),
            *w.lead())


class _Weigher:
    """One deal's decisions: what its side needs, who plays for what, and a memo of the deal's worth."""

    def __init__(self, rec: DealRecord, hands: Mapping[str, list[Card]], camp: Camp, worth: Worth, game: str,
                 sd: SingleDummy, engine: str | None, only: Sequence[Mapping[str, Sequence[Card]]] | None) -> None:
        assert rec.contract is not None and rec.setup is not None
        self.rec, self.hands, self.worth, self.game, self.sd, self.engine, self.only = (
            rec, hands, worth, game, sd, engine, only)
        self.side, self.fewest = camp
        self.needed = worth.scoring.needed(worth.options, rec)
        self._memo: dict[tuple[Any, ...], dict[str, Num]] = {}
        self.budget: float | None = None

    def worth_of(self, taken: Mapping[str, int] | None, calls: Calls | None = None) -> dict[str, Num]:
        """What the deal gives each player with these tricks (and calls: as recorded when ``None``)."""
        key = (calls, None if taken is None else tuple(sorted(taken.items())))
        if key not in self._memo:
            self._memo[key] = self.worth.of(self.rec, calls=self.rec.calls if calls is None else calls,
                                            taken=taken)
        return self._memo[key]

    def made(self, tricks: int) -> bool:
        """The side's contract is made with these tricks."""
        return tricks <= self.needed if self.fewest else tricks >= self.needed

    def goal(self, player: str) -> tuple[str, Callable[[int], bool]]:
        """What ``player`` plays for, and whether a number of side tricks meets it."""
        ours = player in self.side
        goal = "make" if ours else "catch" if self.fewest else "set"
        return goal, (self.made if ours else lambda t: not self.made(t))

    def solver(self, hs: Mapping[str, Sequence[Card]]) -> Solver:
        return solver_for(self.rec, hs, self.side, self.fewest, self.engine)

    def fitting(self, hs: Mapping[str, Sequence[Card]], player: str) -> Solver | None:
        """The layout's search, when the contract fits it for ``player``: to one outside the side, the side
        comes within a trick of what it needs with best play by both camps (the declarer chose it with his own
        cards in view)."""
        s = self.solver(hs)
        if self.only is not None or player in self.side:
            return s
        return s if (not s.holds([], self.needed + 2) if self.fewest else s.holds([], self.needed - 1)) else None

    def taken(self, s: Solver, hs: Mapping[str, Sequence[Card]], first: Sequence[Card], value: int
              ) -> dict[str, int]:
        """The tricks each player takes when ``first`` is followed by best play keeping ``value``."""
        return _taken_after(self.rec, hs, [*first, *s.best_line(first, value)])

    def decide(self, seq: int, player: str, kind: str, made: str, choices: Sequence[str], score: Score
               ) -> list[Decision]:
        seen = view(self.rec, self.hands, player, [])
        name, wins = self.goal(player)
        odds, n, drawn, every, cut = self.sd.odds(seen, f"{self.game}:{self.rec.number}:{seq}", choices, score,
                                                  wins, self.only,
                                                  None if self.budget is None else time.monotonic() + self.budget)
        if not odds:
            return [Decision(self.rec.number, seq, player, kind, made, name, seen.layouts.count, n, drawn, every, odds,
                             0, 0, cut=cut)]
        rank, cost, ties = ranked(odds, made)
        enough = every or self.only is not None or n >= MIN_KEPT
        return [Decision(self.rec.number, seq, player, kind, made, name, seen.layouts.count, n, drawn, every, odds,
                         rank if enough else 0, cost.mean if enough else 0, cost.low if enough else 0,
                         cost.high if enough else 0, ties, enough, cut)]

    def calls(self, started: GameStarted) -> list[Decision]:
        """Each whist call, against the calls the game offered then."""
        rec, out = self.rec, []
        state = find_variant(started.rules.preset).start(started)
        finals = {p: w.value for p, w in rec.final_calls().items()}
        for k, e in enumerate(rec.events):
            if not isinstance(e, WhistMade):
                continue
            before = _draft(rec.events[:k])
            options = call_choices(state, before, e.player)
            if len(options) < 2 or e.call.value not in options:
                continue
            later = [(x.player, x.call.value) for x in rec.events[k + 1:] if isinstance(x, WhistMade)]
            seqs = {o: _calls_with(state, before, e.player, o, later, finals) for o in options}

            def score(hs: Mapping[str, Sequence[Card]], seqs: dict[str, Calls] = seqs, p: str = e.player
                      ) -> dict[str, tuple[int, Num]] | None:
                s = self.fitting(hs, p)
                if s is None:
                    return None
                v = s.value()
                taken = self.taken(s, hs, [], v)
                return {o: (v, self.worth_of(taken if WhistCall.WHIST in final_calls(cs).values() else None, cs)[p])
                        for o, cs in seqs.items()}

            out += self.decide(e.seq, e.player, "call", e.call.value, options, score)
        return out

    def lead(self) -> list[Decision]:
        """The first card of the play, against every legal lead."""
        lead = next((e for e in self.rec.events if isinstance(e, CardPlayed)), None)
        if lead is None:
            return []
        legal = self.solver(self.hands).legal([])
        groups = _equal_cards(legal, self.hands[lead.player])

        def score(hs: Mapping[str, Sequence[Card]]) -> dict[str, tuple[int, Num]] | None:
            s = self.fitting(hs, lead.player)
            if s is None:
                return None
            got: dict[str, tuple[int, Num]] = {}
            for first, same in groups:
                v = s.value([first])
                w = self.worth_of(self.taken(s, hs, [first], v))[lead.player]
                got.update((str(x), (v, w)) for x in same)
            return got

        return self.decide(lead.seq, lead.player, "lead", str(lead.card), [str(x) for x in legal], score)

    def discard(self) -> list[Decision]:
        """The declarer's two cards put away after taking the talon, against every other pair of his twelve
        (touching cards tried once), the contract as he declared it."""
        rec, c = self.rec, self.rec.contract
        assert c is not None
        start = next((e for e in rec.events if isinstance(e, DealStarted)), None)
        put = next((e for e in rec.events if isinstance(e, Discard)), None)
        if start is None or start.hands is None or not start.talon or put is None or c.igra:
            return []
        twelve = [*start.hands[c.declarer], *start.talon]
        kinds: dict[tuple[tuple[str, int], ...], list[tuple[Card, ...]]] = {}
        for pair in itertools.combinations(sorted(twelve, key=_by_suit), 2):
            kinds.setdefault(_shape(pair, twelve), []).append(pair)
        label = {pair: " ".join(str(x) for x in pair) for pairs in kinds.values() for pair in pairs}
        made = label[tuple(sorted(put.cards, key=_by_suit))]

        def score(hs: Mapping[str, Sequence[Card]]) -> dict[str, tuple[int, Num]]:
            got: dict[str, tuple[int, Num]] = {}
            for pairs in kinds.values():
                held = {**hs, c.declarer: [x for x in twelve if x not in pairs[0]]}
                s = self.solver(held)
                v = s.value(guess=self.needed)
                w = self.worth_of(self.taken(s, held, [], v))[c.declarer]
                got.update((label[pair], (v, w)) for pair in pairs)
            return got

        return self.decide(put.seq, c.declarer, "discard", made, list(label.values()), score)


def _equal_cards(legal: Sequence[Card], own: Sequence[Card]) -> list[tuple[Card, list[Card]]]:
    """The legal cards in groups of touching cards of one hand (each is worth the same on every layout)."""
    groups: list[tuple[Card, list[Card]]] = []
    held = {(y.suit, y.rank) for y in own}
    for card in sorted(legal, key=lambda x: (x.suit.value, -x.rank)):
        if groups and groups[-1][0].suit is card.suit and all(
                (card.suit, r) in held for r in range(card.rank, groups[-1][1][-1].rank)):
            groups[-1][1].append(card)
        else:
            groups.append((card, [card]))
    return groups


def _draft(events: Sequence[Event]) -> list[dict[str, Any]]:
    """A deal's events as a draft of a fresh game's first deal (numbered 1; no card play)."""
    out = []
    for e in events:
        if e.type in _NOT_DRAFTED:
            continue
        d = {k: v for k, v in unstructure(e).items() if k not in ("seq", "v", "game") and not k.startswith("_")}
        d["deal"] = 1
        if isinstance(e, DealStarted):
            d.pop("replaces_voided", None)
        out.append(d)
    return out


def call_choices(state: Any, draft: Sequence[Mapping[str, Any]], player: str) -> tuple[str, ...]:
    """The whist calls ``player`` may make after ``draft``, as the game answers the legal-next query."""
    n = next_step(state, draft)
    return tuple(w for p, w in n.calls if p == player and w in _WORDS) if n.step == "calls" else ()


def _calls_with(state: Any, before: list[dict[str, Any]], player: str, word: str,
                later: list[tuple[str, str]], finals: Mapping[str, str]) -> Calls:
    """The calls of the deal had ``player`` said ``word``: the later calls kept while legal, then each defender
    who must speak saying his final word if he may, else pass."""
    earlier = [(d["player"], d["call"]) for d in before if d["type"] == "whist"]
    new = [(player, word)]
    rest = list(later)
    for _ in range(8):
        n = next_step(state, [*before, *({"type": "whist", "deal": 1, "player": p, "call": w} for p, w in new)])
        options = [(p, w) for p, w in n.calls if w in _WORDS] if n.step == "calls" else []
        if not options:
            break
        while rest and rest[0] not in options:
            rest.pop(0)
        if rest:
            new.append(rest.pop(0))
            continue
        speaker = options[0][0]
        new.append((speaker, finals[speaker] if (speaker, finals.get(speaker)) in options else "pass"))
    return tuple((p, WhistCall(w)) for p, w in [*earlier, *new])
