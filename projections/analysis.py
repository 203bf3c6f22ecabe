"""The post-mortem of a game with its hands open: was each contract makeable, which card cost a trick and
what it cost in whists, what each whist decision was worth, and whether a claim holds.

Every deal of a Preferans contract whose hands are recorded is solved double-dummy
(:class:`~vistlog.projections.solver.Solver`): its value at the first lead and, card by card, the value
before and after each card, always **the declarer's total tricks in the deal** (taken so far plus best
play by both sides from there). A card after which the value moves against its player's side is a
mistake: the cards that would have kept the value are named, and its cost is the deal scored twice
through the same scoring as ``settle`` (the sheet as it stood before the deal, the deal's entries, the
settlement of both), once with the card played and once with the best card, each followed by best play:
the difference per player, in the game's unit.

Best play after a position is one line that keeps the value at every card (:meth:`Solver.best_line`):
the declarer's tricks are exact; how two defenders share theirs is that line's, since their share does
not change the double-dummy value.

>>> from vistlog.projections.fold import run
>>> game = next(g for g in run("samples/classic-bombs.jsonl") if not isinstance(g, Exception))
>>> a = analyse(game)
>>> [(d.deal, d.contract, d.value) for d in a.deals]
[(6, '6S', 6), (7, '6C', 5), (14, '6C', 1)]
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

import attrs

from vistlog.events.cards import Card, WhistCall
from vistlog.events.model import CardPlayed, Claim, DealStarted
from vistlog.events.play import held_after_discard
from vistlog.events.record import DealRecord

from vistlog.events.entries import Num, exact, exact_div
from .fold import GameResult
from .worth import Camp, Worth, by_suit as _by_suit, camps as _camps, each_for_fewest, shape as _shape, solver_for, \
    taken_after as _taken_after
from .decisions import deal_decisions
from .odds import Decision, SingleDummy, decision_json
from .budget import ANSWERS, BUDGETS, asked, default_budget, fate_of, fates, limited, within
from .questions import OutOfBudget
from .solver import Solver, engine_name
from .variants import reading_of

__all__ = ["ANSWERS", "BUDGETS", "CardVerdict", "CallVerdict", "ClaimVerdict", "DiscardVerdict", "DealAnalysis",
           "GameAnalysis", "analyse", "analysis_json", "claim_verdicts", "claim_json", "default_budget", "solver_for"]


@attrs.frozen
class CardVerdict:
    """One card of the play with the double-dummy value before and after it (declarer's total tricks; in a
    raspas, the card's own player's): exact, or past the deal's budget the range the search proved."""

    seq: int
    player: str
    card: Card
    low: tuple[int, int]
    """The least the value before and after the card can be (proved)."""
    high: tuple[int, int]
    """The most the value before and after the card can be (proved; equal to :attr:`low` when exact)."""
    mistake: bool = False
    """The value moved against the player's side (proved: past the budget, the ranges do not meet)."""
    better: tuple[Card, ...] = ()
    """For a mistake: every card that would have kept the value (empty where the budget did not allow)."""
    cost: Mapping[str, Num] = attrs.Factory(dict)
    """For a mistake: what each player would have had with the better card minus what he has with this
    one, both followed by best play (in the game's unit; a player who lost by it shows a positive cost)."""
    makeable: bool | None = None
    """The contract's fate after the card: makeable with best play from there, or not (``None``: a raspas, or
    not decided within the budget)."""

    @property
    def exact(self) -> bool:
        """Both values are exact."""
        return self.low == self.high

    @property
    def before(self) -> int | None:
        """The value before the card (``None``: only a range is proved)."""
        return self.low[0] if self.low[0] == self.high[0] else None

    @property
    def after(self) -> int | None:
        """The value after the card (``None``: only a range is proved)."""
        return self.low[1] if self.low[1] == self.high[1] else None


@attrs.frozen
class CallVerdict:
    """A defender's whist decision against the other one, both followed by best play."""

    player: str
    call: str
    instead: str
    gain: Num
    """What the decision gave him compared with ``instead`` (positive: it was the better one)."""


@attrs.frozen
class ClaimVerdict:
    """A claim against the open hands."""

    seq: int
    player: str
    tricks: int
    accepted: bool
    claimed: int
    """The declarer's total tricks under the claim."""
    best: int
    """The declarer's total tricks with best play from where the claim was made."""
    holds: bool
    """The claim holds against every defence: the claimer's side is sure of at least what it claimed."""


@attrs.frozen
class DiscardVerdict:
    """The declarer's discard against the best one (asked for: every discard is a solve)."""

    discarded: tuple[Card, ...]
    value: int
    best: tuple[Card, ...]
    best_value: int


@attrs.frozen
class DealAnalysis:
    """One deal solved: a contract (its declaring **side** playing for the most tricks, or the fewest), or a
    raspas (each player for himself, :attr:`values`)."""

    deal: int
    declarer: str | None
    """The contract's declarer (``None``: a raspas)."""
    contract: str
    """The contract played (``raspas`` for a raspas)."""
    misere: bool
    """The declaring side plays for the fewest tricks (a misère)."""
    value: int | None
    """The side's tricks with best play from the first lead (``None``: a raspas, see :attr:`values`; or only a
    range proved within the budget, :attr:`low` and :attr:`high`)."""
    taken: int | None
    """The side's tricks as recorded (``None``: decided without play, or a raspas, see :attr:`taken_each`)."""
    level: str
    """``card`` (the cards are recorded) or ``protocol`` (the hands only)."""
    needed: int = 0
    """The tricks the contract needs (playing for the fewest: the most it may take)."""
    tricks: int = 10
    """The tricks of the deal (the other camp's with best play: ``tricks - value``)."""
    cards: tuple[CardVerdict, ...] = ()
    calls: tuple[CallVerdict, ...] = ()
    claim: ClaimVerdict | None = None
    discard: DiscardVerdict | None = None
    side: tuple[str, ...] = ()
    """Who plays together for the contract: the declarer, and a partner (Solo Whist's prop and cop)."""
    objective: str = "most"
    """What the side plays for: ``most`` or ``fewest`` tricks."""
    values: Mapping[str, int] = attrs.Factory(dict)
    """A raspas: what each player can guarantee, the fewest tricks he can hold himself to against the other
    two playing together to load him, from the first lead."""
    taken_each: Mapping[str, int] | None = None
    """A raspas: each player's tricks as recorded."""
    decisions: tuple[Decision, ...] = ()
    """Asked for (``single_dummy``): the whist calls and the opening lead weighed with the cards hidden."""
    fate: bool | None = None
    """The contract can be made against any defence (a misère: the declarer can be kept clean); ``None``: a
    raspas, or not decided within the budget."""
    low: int | None = None
    """A contract: the least the side's tricks with best play can be (proved; :attr:`value` when exact)."""
    high: int | None = None
    """A contract: the most the side's tricks with best play can be (proved; :attr:`value` when exact)."""
    ranges: Mapping[str, tuple[int, int]] = attrs.Factory(dict)
    """A raspas past its budget: each player whose value is not exact, with the range proved."""

    @property
    def makeable(self) -> bool:
        """The contract can be made against any defence (a misère: the declarer can be kept clean)."""
        return self.fate is True

    @property
    def answer(self) -> str:
        """How far the budget got: ``exact`` (every value), ``range`` (the fate decided, some value a range) or
        ``undecided`` (a contract's fate not decided within the budget)."""
        if self.declarer is not None and self.fate is None:
            return "undecided"
        return "exact" if not self.ranges and self.low == self.high and all(c.exact for c in self.cards) else "range"

    @property
    def mistakes(self) -> list[CardVerdict]:
        """The cards that cost their side a trick."""
        return [c for c in self.cards if c.mistake]


@attrs.frozen
class GameAnalysis:
    """Every deal of a game that could be solved, and why the others were not."""

    game: str
    unit: str
    players: tuple[str, ...]
    deals: tuple[DealAnalysis, ...]
    skipped: tuple[tuple[int, str], ...]
    engine: str = attrs.field(eq=False)
    """Which search solved it (the same answers either way)."""
    scoring: str | None = None
    """The game's scoring (its words: Solo Whist's «пункты»)."""


def _diff(a: Mapping[str, Num], b: Mapping[str, Num]) -> dict[str, Num]:
    return {p: exact_div(a[p] - b[p], 1) for p in a if a[p] != b[p]}


def _why_not(rec: DealRecord, variant: str, hands: Mapping[str, list[Card]] | None) -> str | None:
    """Why a deal is not solved, or ``None`` (``hands``: those in play, :meth:`DealRecord.hands_in_play`)."""
    unsolved = reading_of(variant).unsolved
    if unsolved:
        return unsolved
    camps = _camps(rec, variant)
    if isinstance(camps, str):
        return camps
    if hands is None:
        return "the hands are not recorded"
    setup = rec.setup
    if setup is None:
        return "the play is not recorded"
    if len(setup.seating) < 3:
        return "fewer than three hands play (a defender did not come): not analysed"
    if len({len(hands.get(p, ())) for p in setup.seating}) != 1:
        return "the hands in play do not hold equal numbers of cards (the discard is not recorded)"
    return None


def analyse(result: GameResult, *, discards: bool = False, engine: str | None = None,
            deals: Container[int] | None = None, progress: Callable[..., None] | None = None,
            single_dummy: SingleDummy | None = None, budget: float | None = None) -> GameAnalysis:
    """The open-hand analysis of one game folded with its deals' events (``run(..., detail=True)``).

    ``discards``: also try every discard of a declarer whose talon is known (a yes-or-no search for each
    of the up to 66, equal cards once);
    ``deals``: only these deals (by number);
    ``progress``: called with the deals solved, the deals to solve and how the solved ones were answered (a
    mapping ``exact``/``range``/``undecided`` → deals), before each deal and at the end;
    ``single_dummy``: also weigh each contract's whist calls and opening lead with the cards the player could not
    see (:mod:`vistlog.projections.decisions`), and with ``discards`` the declarer's discard;
    ``budget``: seconds of search a deal may take (``None``: every count waits for its exact answer). With a
    budget the contract's fate is asked first, at the first lead and after each card (one yes-or-no question
    each), then the counts; a question the budget stops leaves the range the answered ones prove
    (:attr:`DealAnalysis.low`, :attr:`CardVerdict.low` …), never a guess. A deal answered within its budget is
    answered exactly as without one. Each single-dummy decision has a budget of its own, as many seconds: past it,
    it draws no more layouts once it has one, and is weighed on those (:attr:`~vistlog.projections.odds.Decision.cut`).
    """
    worth = Worth(result)
    done: list[DealAnalysis] = []
    skipped: list[tuple[int, str]] = []
    todo: list[tuple[DealRecord, dict[str, list[Card]]]] = []
    streak = 0
    for rec, void, _entries in result.told():
        if void:
            continue
        worth.streak[rec.number] = streak
        streak = worth.scoring.streak(worth.options, rec, streak)
        if deals is not None and rec.number not in deals:
            continue
        hands = rec.hands_in_play()
        why = _why_not(rec, result.variant, hands)
        if why is not None:
            if rec.contract is not None or rec.played or each_for_fewest(rec, result.variant):
                skipped.append((rec.number, why))
            continue
        assert hands is not None
        todo.append((rec, hands))
    answers = dict.fromkeys(ANSWERS, 0)
    for k, (rec, hands) in enumerate(todo):
        if progress is not None:
            progress(k, len(todo), dict(answers))
        until = None if budget is None else time.monotonic() + budget
        camps = _camps(rec, result.variant)
        assert not isinstance(camps, str)
        if rec.contract is None:
            one = _raspas(rec, hands, worth, engine, until)
        else:
            one = _deal(rec, hands, camps[0], worth, discards, engine, result.variant, until)
            if single_dummy is not None:  # each decision: a budget of its own
                one = attrs.evolve(one, decisions=deal_decisions(
                    rec, hands, camps[0], worth, result.game, result.started, single_dummy,
                    reading_of(result.variant).calls_weighed, engine, discards=discards, budget=budget))
        answers[one.answer] += 1
        done.append(one)
    if progress is not None and todo:
        progress(len(todo), len(todo), dict(answers))
    return GameAnalysis(result.game, worth.scoring.unit, tuple(result.players), tuple(done), tuple(skipped),
                        engine or engine_name(), result.variant)


def _values(solver: Solver, cards: Sequence[CardPlayed], wants_more: Mapping[str, bool], guess: int | None,
            known: Sequence[tuple[int | None, int | None]]) -> list[tuple[int, int]]:
    """The value before the first card and after each card, each the range proved (one value without a
    budget: a card never gives its own camp more than the value before it); ``guess``: where the first search
    starts (the tricks as recorded are near it); ``known``: bounds already proved at each point."""
    played = [e.card for e in cards]
    values = [solver.bounds(guess=guess, low=known[0][0], high=known[0][1])]
    for i, e in enumerate(cards):
        lo, hi = values[-1]
        low, high = known[i + 1]
        if wants_more[e.player]:
            values.append(solver.bounds(played[:i + 1], guess=hi, low=low, high=hi if high is None else min(hi, high)))
        else:
            values.append(solver.bounds(played[:i + 1], guess=lo, low=lo if low is None else max(lo, low), high=high))
    return values


def _verdict(rec: DealRecord, hands: Mapping[str, list[Card]], worth: Worth, solver: Solver,
             played: Sequence[Card], i: int, e: CardPlayed, before: tuple[int, int], after: tuple[int, int],
             wants_more: bool, own: bool, makeable: bool | None = None) -> CardVerdict:
    """One card against the values before and after it; a mistake (the value moved against its camp, the
    ranges apart) names the cards that kept the value and what it cost, both followed by best play, where both
    values are exact and the budget allows (``own``: only its player's cost, as in a raspas)."""
    low, high = (before[0], after[0]), (before[1], after[1])
    if not ((after[1] < before[0]) if wants_more else (after[0] > before[1])):
        return CardVerdict(e.seq, e.player, e.card, low, high, makeable=makeable)
    if low != high:
        return CardVerdict(e.seq, e.player, e.card, low, high, True, makeable=makeable)

    def priced() -> tuple[tuple[Card, ...], dict[str, Num]]:
        better = tuple(solver.best_cards(played[:i], before[0])[1])
        bad = [*played[:i + 1], *solver.best_line(played[:i + 1], after[0])]
        good = [*played[:i], better[0], *solver.best_line([*played[:i], better[0]], before[0])]
        cost = _diff(worth.of(rec, taken=_taken_after(rec, hands, good)),
                     worth.of(rec, taken=_taken_after(rec, hands, bad)))
        return better, ({p: x for p, x in cost.items() if p == e.player} if own else cost)

    better, cost = asked(priced, ((), {}))
    return CardVerdict(e.seq, e.player, e.card, low, high, True, better, cost, makeable)


def _deal(rec: DealRecord, hands: Mapping[str, list[Card]], camp: Camp, worth: Worth, discards: bool,
          engine: str | None, variant: str, until: float | None = None) -> DealAnalysis:
    c = rec.contract
    assert c is not None and rec.setup is not None
    side, fewest = camp
    solver = limited(solver_for(rec, hands, side, fewest, engine), until)
    cards = [e for e in rec.events if isinstance(e, CardPlayed)]
    claim = next((e for e in rec.events if isinstance(e, Claim)), None)
    played = [e.card for e in cards]
    wants_more = {p: (p in side) != fewest for p in rec.setup.seating}
    taken = None if rec.taken is None else sum(rec.taken.get(p, 0) for p in side)
    needed = worth.scoring.needed(worth.options, rec)
    told = fates(solver, played, needed, fewest) if until is not None else [None] * (len(played) + 1)
    known = [within(f, needed, fewest) for f in told]
    values = _values(solver, cards, wants_more, None if fewest else taken, known)  # a misère's search starts at one
    verdicts = tuple(_verdict(rec, hands, worth, solver, played, i, e, values[i], values[i + 1],
                              wants_more[e.player], False, fate_of(*values[i + 1], needed, fewest))
                     for i, e in enumerate(cards))
    low, high = values[0]
    exact = low == high
    return DealAnalysis(
        deal=rec.number, declarer=c.declarer, contract=c.contract.text, misere=fewest, value=low if exact else None,
        taken=taken, level="card" if cards else "protocol", needed=needed,
        tricks=solver.tricks, cards=verdicts, side=solver.side, objective=solver.objective,
        calls=asked(lambda: _calls(rec, worth, lambda: _taken_after(rec, hands, solver.best_line(value=low))), ())
        if exact and reading_of(variant).calls_weighed else (),
        claim=None if claim is None else asked(lambda: _claim(claim, solver, played)),
        discard=_discard(rec, hands, engine, low, until) if discards and exact else None,
        fate=fate_of(low, high, needed, fewest), low=low, high=high)


def _raspas(rec: DealRecord, hands: Mapping[str, list[Card]], worth: Worth, engine: str | None,
            until: float | None = None) -> DealAnalysis:
    """A raspas: each player's guaranteed tricks from the first lead, and each card judged by what its own
    player can still guarantee just before and just after it (ranges past the budget)."""
    assert rec.setup is not None
    seating = rec.setup.seating
    solvers = {p: limited(solver_for(rec, hands, (p,), True, engine), until) for p in seating}
    cards = [e for e in rec.events if isinstance(e, CardPlayed)]
    played = [e.card for e in cards]
    start = {p: s.bounds() for p, s in solvers.items()}
    verdicts = []
    for i, e in enumerate(cards):
        s = solvers[e.player]
        before = start[e.player] if i == 0 else s.bounds(played[:i])
        after = s.bounds(played[:i + 1], guess=before[0], low=before[0])
        verdicts.append(_verdict(rec, hands, worth, s, played, i, e, before, after, False, True))
    first = solvers[seating[0]]
    return DealAnalysis(
        deal=rec.number, declarer=None, contract="raspas", misere=True, value=None, taken=None,
        level="card" if cards else "protocol", tricks=first.tricks, cards=tuple(verdicts), side=(),
        objective="fewest", values={p: lo for p, (lo, hi) in start.items() if lo == hi},
        taken_each=None if rec.taken is None else dict(rec.taken),
        ranges={p: (lo, hi) for p, (lo, hi) in start.items() if lo != hi})


def _calls(rec: DealRecord, worth: Worth, best_play: Callable[[], dict[str, int]]) -> tuple[CallVerdict, ...]:
    """Each defender's whist or pass against the other, the other defender's decision kept, with best
    play (``best_play``: the tricks it gives; a half-whist is not weighed)."""
    finals = rec.final_calls()
    if rec.contract is None or rec.contract.contract.is_misere or len(finals) != 2 or rec.half_stands:
        return ()
    flip = {WhistCall.WHIST: WhistCall.PASS, WhistCall.PASS: WhistCall.WHIST}
    if any(call not in flip for call in finals.values()):
        return ()

    best = best_play()

    def with_calls(calls: dict[str, WhistCall]) -> dict[str, Num]:
        whisted = WhistCall.WHIST in calls.values()
        return worth.of(rec, calls=tuple(calls.items()), taken=best if whisted else None)

    actual = with_calls(finals)
    return tuple(CallVerdict(p, call.value, flip[call].value,
                             exact_div(actual[p] - with_calls({**finals, p: flip[call]})[p], 1))
                 for p, call in finals.items())


def _claim(ev: Claim, solver: Solver, played: list[Card]) -> ClaimVerdict:
    _h, _seat, _trick, won, _t = solver.position(played)
    left = solver.tricks - len(played) // solver.n
    ours = ev.player in solver.side
    claimed = won + (ev.tricks if ours else left - ev.tricks)
    best = solver.value(played, guess=claimed)
    wants_more = ours != solver.fewest
    holds = best >= claimed if wants_more else best <= claimed
    return ClaimVerdict(ev.seq, ev.player, ev.tricks, ev.accepted, claimed, best, holds)


def _discard(rec: DealRecord, hands: Mapping[str, list[Card]], engine: str | None, value: int,
             until: float | None = None) -> DiscardVerdict | None:
    """Every discard of the declarer's twelve cards (equal cards tried once) against the one made: a discard
    is solved only when one yes-or-no search says it does better than the best so far."""
    c = rec.contract
    start = next((e for e in rec.events if isinstance(e, DealStarted)), None)
    if c is None or start is None or start.hands is None or not start.talon or c.igra:
        return None
    twelve = sorted([*start.hands[c.declarer], *start.talon], key=_by_suit)
    if len(twelve) - len(hands[c.declarer]) != 2:
        return None
    actual = tuple(sorted(set(twelve) - set(hands[c.declarer]), key=_by_suit))
    misere = c.contract.fewest
    best, best_value = actual, value
    tried: set[tuple[tuple[str, int], ...]] = set()
    for pair in itertools.combinations(twelve, 2):
        shape = _shape(pair, twelve)
        if shape in tried:
            continue
        tried.add(shape)
        held = held_after_discard(start.hands, c.declarer, start.talon, pair)
        s = limited(solver_for(rec, held, (c.declarer,), misere, engine), until)
        try:
            if not s.holds([], best_value) if misere else s.holds([], best_value + 1):
                best, best_value = pair, s.value(guess=best_value - 1 if misere else best_value + 1)
        except OutOfBudget:
            return None
    return DiscardVerdict(actual, value, tuple(best), best_value)


def analysis_json(a: GameAnalysis, problems: int = 0) -> dict[str, Any]:
    """One game of ``analyse --format json``: ``{"game", "deals": [{"deal", "declarer", "contract", "side",
    "objective", "value", "cards": [{"seq", "player", "card", "before", "after"}, …]}, …]}`` and more fields; a
    raspas has ``values`` (each player's) instead of ``side`` and ``value`` (docs/cli.md). ``problems``: how many
    the game has (``"problems": N`` when any: a deal with a refused event is not analysed)."""
    deals = []
    for d in a.deals:
        out: dict[str, Any] = {"deal": d.deal, "declarer": d.declarer, "contract": d.contract}
        if d.declarer is None:  # a raspas: each for himself
            out.update(objective=d.objective, values=dict(d.values), taken=d.taken_each)
            if d.ranges:
                out.update(exact=False, ranges={p: list(r) for p, r in d.ranges.items()})
        else:
            out.update(side=list(d.side), objective=d.objective, value=d.value,
                       defence=None if d.value is None else d.tricks - d.value, needed=d.needed, makeable=d.fate,
                       taken=d.taken)
            if d.value is None:
                out.update(exact=False, low=d.low, high=d.high)
        before = [d.fate, *(x.makeable for x in d.cards)]  # the fate before each card
        out.update(level=d.level, cards=[_card_json(x, before[k]) for k, x in enumerate(d.cards)])
        if d.answer != "exact":
            out.update(answer=d.answer, tricks=d.tricks)
        if d.calls:
            out["calls"] = [{"player": x.player, "call": x.call, "instead": x.instead, "gain": exact(x.gain)}
                            for x in d.calls]
        if d.claim is not None:
            out["claim"] = claim_json(d.claim)
        if d.decisions:
            out["decisions"] = [decision_json(x) for x in d.decisions]
        if d.discard is not None:
            x = d.discard
            out["discard"] = {"discarded": [str(y) for y in x.discarded], "value": x.value,
                              "best": [str(y) for y in x.best], "best_value": x.best_value}
        deals.append(out)
    out = {"game": a.game, "scoring": a.scoring, "unit": a.unit, "deals": deals,
           "skipped": [{"deal": n, "why": why} for n, why in a.skipped]}
    if problems:
        out["problems"] = problems
    return out


def claim_json(k: ClaimVerdict) -> dict[str, Any]:
    """A claim's verdict as ``analyse`` and ``audit`` write it in JSON."""
    return {"seq": k.seq, "player": k.player, "tricks": k.tricks, "accepted": k.accepted,
            "claimed": k.claimed, "best": k.best, "holds": k.holds}


def claim_verdicts(result: GameResult, engine: str | None = None) -> tuple[tuple[int, ClaimVerdict], ...]:
    """Every claim of a game whose hands are recorded, by deal, judged with the cards open (what the
    audit adds to its report, from :attr:`GameResult.claimed`: kept whenever the game is folded with detail)."""
    out = []
    for rec in result.claimed:
        claim = next((e for e in rec.events if isinstance(e, Claim)), None)
        hands = rec.hands_in_play()
        camps = _camps(rec, result.variant)
        if (rec.seq in result.voided or claim is None or isinstance(camps, str) or rec.contract is None
                or _why_not(rec, result.variant, hands) is not None):
            continue
        assert hands is not None
        solver = solver_for(rec, hands, *camps[0], engine=engine)
        played = [e.card for e in rec.events if isinstance(e, CardPlayed)]
        out.append((rec.number, _claim(claim, solver, played)))
    return tuple(out)


def _card_json(x: CardVerdict, fate: bool | None) -> dict[str, Any]:
    """A card: its values, ``exact: false`` with ``before_low`` … ``after_high`` past the budget, ``fate``
    (``made``/``failed``) where it turned a decided fate (``fate``: the one before it)."""
    out: dict[str, Any] = {"seq": x.seq, "player": x.player, "card": str(x.card), "before": x.before,
                           "after": x.after}
    if not x.exact:
        out.update(exact=False, before_low=x.low[0], before_high=x.high[0], after_low=x.low[1],
                   after_high=x.high[1])
    if fate is not None and x.makeable is not None and x.makeable != fate:
        out["fate"] = "made" if x.makeable else "failed"
    if x.mistake:
        out.update(mistake=True, better=[str(c) for c in x.better], cost={p: exact(v) for p, v in x.cost.items()})
    return out
