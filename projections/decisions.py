"""The decisions of a deal made with the cards hidden, weighed single-dummy (:mod:`.odds`): each defender's whist
call (the choices the game's own state machine offered him then: the legal-next query,
:func:`~vistlog.events.nextstep.next_step`) and the opening lead (the lead that catches a misère among them).

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

from collections.abc import Mapping, Sequence
from typing import Any

from vistlog.events.cards import Card, WhistCall, final_calls
from vistlog.events.codec import unstructure
from vistlog.events.entries import Num
from vistlog.events.model import CardPlayed, DealStarted, Event, GameStarted, WhistMade
from vistlog.events.nextstep import next_step
from vistlog.events.record import DealRecord
from vistlog.events.variants import find_variant

from .worth import Camp, Worth, solver_for, taken_after as _taken_after
from .odds import Decision, SingleDummy, ranked, view
from .solver import Solver

__all__ = ["deal_decisions", "call_choices"]

_WORDS = frozenset(c.value for c in WhistCall)
_NOT_DRAFTED = frozenset({"card_played", "claim", "discard", "allocation"})
Calls = tuple[tuple[str, WhistCall], ...]


def deal_decisions(rec: DealRecord, hands: Mapping[str, list[Card]], camp: Camp, worth: Worth, game: str,
                   started: GameStarted, sd: SingleDummy, calls_weighed: bool, engine: str | None = None,
                   only: Sequence[Mapping[str, Sequence[Card]]] | None = None) -> tuple[Decision, ...]:
    """Every whist call (where the game weighs them) and the opening lead of one contract deal, weighed
    single-dummy. ``only``: solve these layouts (each the hands as play began) instead of drawing them."""
    c = rec.contract
    assert c is not None and rec.setup is not None
    side, fewest = camp
    needed = worth.scoring.needed(worth.options, rec)
    memo: dict[tuple[Any, ...], dict[str, Num]] = {}

    def worth_of(calls: Calls, taken: Mapping[str, int] | None) -> dict[str, Num]:
        key = (calls, None if taken is None else tuple(sorted(taken.items())))
        if key not in memo:
            memo[key] = worth.of(rec, calls=calls, taken=taken)
        return memo[key]

    def goal(player: str) -> tuple[str, Any]:
        made = (lambda t: t <= needed) if fewest else (lambda t: t >= needed)
        if player in side:
            return "make", made
        return ("catch" if fewest else "set"), (lambda t: not made(t))

    def fitting(hs: Mapping[str, Sequence[Card]], player: str) -> Solver | None:
        """The layout's search, when the contract fits it for ``player``: to one outside the side, the side
        comes within a trick of what it needs with best play by both camps (the declarer chose it with his own
        cards in view)."""
        s = solver_for(rec, hs, side, fewest, engine)
        if only is not None or player in side:
            return s
        return s if (not s.holds([], needed + 2) if fewest else s.holds([], needed - 1)) else None

    out: list[Decision] = []

    def decide(seq: int, player: str, kind: str, made: str, choices: Sequence[str], score: Any) -> None:
        seen = view(rec, hands, player, [])
        name, wins = goal(player)
        odds, n, drawn, every = sd.odds(seen, f"{game}:{rec.number}:{seq}", choices, score, wins, only)
        rank, cost = ranked(odds, made) if odds else (0, 0)
        out.append(Decision(rec.number, seq, player, kind, made, name, seen.layouts.count, n, drawn, every, odds,
                            rank, cost))

    if calls_weighed and not fewest:
        state = None
        for k, e in enumerate(rec.events):
            if not isinstance(e, WhistMade):
                continue
            if state is None:
                state = find_variant(started.rules.preset).start(started)
            before = _draft(rec.events[:k])
            options = call_choices(state, before, e.player)
            if len(options) < 2 or e.call.value not in options:
                continue
            later = [(x.player, x.call.value) for x in rec.events[k + 1:] if isinstance(x, WhistMade)]
            finals = {p: w.value for p, w in rec.final_calls().items()}
            seqs = {o: _calls_with(state, before, e.player, o, later, finals) for o in options}

            def score(hs: Mapping[str, Sequence[Card]], seqs: dict[str, Calls] = seqs, p: str = e.player
                      ) -> dict[str, tuple[int, Num]] | None:
                s = fitting(hs, p)
                if s is None:
                    return None
                v = s.value()
                taken = _taken_after(rec, hs, s.best_line(value=v))
                return {o: (v, worth_of(cs, taken if WhistCall.WHIST in final_calls(cs).values() else None)[p])
                        for o, cs in seqs.items()}

            decide(e.seq, e.player, "call", e.call.value, options, score)
    lead = next((e for e in rec.events if isinstance(e, CardPlayed)), None)
    if lead is not None:
        legal = solver_for(rec, hands, side, fewest, engine).legal([])
        groups = _equal_cards(legal, [c for c in hands[lead.player]])

        def score_lead(hs: Mapping[str, Sequence[Card]]) -> dict[str, tuple[int, Num]] | None:
            assert lead is not None
            s = fitting(hs, lead.player)
            if s is None:
                return None
            got: dict[str, tuple[int, Num]] = {}
            for first, same in groups:
                v = s.value([first])
                taken = _taken_after(rec, hs, [first, *s.best_line([first], v)])
                w = worth_of(rec.calls, taken)[lead.player]
                for x in same:
                    got[str(x)] = (v, w)
            return got

        decide(lead.seq, lead.player, "lead", str(lead.card), [str(x) for x in legal], score_lead)
    return tuple(out)


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
