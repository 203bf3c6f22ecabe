"""What the player could know: single-dummy odds for the decisions made with most cards hidden (a defender's
whist call, the opening lead, the lead that catches a misère).

At each decision the deciding player saw his own hand (a declarer: his discard too), the cards every player
saw before play (the game's :attr:`~vistlog.events.play.PlaySetup.shown`: a talon opened to all, a turned
card), the cards played so far and the voids they showed, the contract and the calls. The unseen cards are
dealt every way that fits (:class:`~vistlog.projections.layouts.Layouts`); N of those layouts are drawn
uniformly (all of them, exactly, when there are no more than N), each is solved with all hands open, and
every legal choice is scored on each: the side's tricks, whether the contract is made (or set, or the
misère caught), and what the deal is worth to the deciding player through the game's own scoring and
settlement. The means come with 95% intervals (a normal interval for tricks and worth, Wilson's for the
chance); the choice made is ranked among the others by its worth, and its cost (what the best was worth more)
has an interval of its own, from the differences between the two on the same layouts. No interval of drawn
layouts is a point: where every layout gave the same value, the share of layouts that could give another is
at most 3/n (the rule of three), each as far as the value can go. Below :data:`MIN_KEPT` drawn layouts a
decision ranks nothing and says so.

The layouts of a decision are drawn from a generator seeded by the seed, the game, the deal and the
decision's event, so the output is the same whichever process solves which deal.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from vistlog.events.cards import Card
from vistlog.events.entries import Num, exact, exact_div
from vistlog.events.model import DealStarted
from vistlog.events.record import DealRecord

from .layouts import Layouts

__all__ = ["Estimate", "ChoiceOdds", "Decision", "SingleDummy", "Seen", "view", "estimate", "chance", "ranked",
           "decision_json", "MIN_KEPT"]

_Z2 = Fraction(38416, 10000)
"""1.96 squared: the normal quantile of a 95% two-sided interval."""
_SCALE = 10000
"""Interval bounds are rounded outward to this many parts of one."""
MIN_KEPT = 30
"""Fewer layouts kept than this (drawn, not every one) rank nothing: the decision's choices are shown, with their
intervals, but no rank and no cost."""
OUT = "\x00out"
"""The place of the unseen cards out of play (a discard, a closed talon, a hand that sits out)."""


@attrs.frozen
class Estimate:
    """A mean over the layouts and its 95% interval (``low == mean == high`` when every layout was solved, or
    when the layouts were given rather than drawn)."""

    mean: Num
    low: Num
    high: Num


@attrs.frozen
class ChoiceOdds:
    """One legal choice at a decision, over the layouts."""

    choice: str
    tricks: Estimate
    """The declaring side's tricks in the deal."""
    chance: Estimate
    """The chance of the deciding player's goal (:attr:`Decision.goal`)."""
    worth: Estimate
    """What the deal is worth to the deciding player (whists, or the game's unit)."""
    behind: Estimate = Estimate(0, 0, 0)
    """What the best choice was worth more than this one, layout by layout (its mean and interval): ``low > 0``
    tells the two apart at this many layouts. The best's own: 0, up to how far another may be ahead of it."""


@attrs.frozen
class Decision:
    """A decision made with the cards hidden, and the odds of every choice it had."""

    deal: int
    seq: int
    player: str
    kind: str
    """``call`` (a whist call) or ``lead`` (the opening lead)."""
    made: str
    goal: str
    """What :attr:`ChoiceOdds.chance` is the chance of: ``make`` (the player's side's contract), ``set`` (the
    contract against him) or ``catch`` (the misère against him)."""
    layouts: int
    """How many layouts fit the cards the player saw."""
    samples: int
    """The layouts the choices were weighed on: those drawn that fit the contract (see :mod:`.decisions`)."""
    drawn: int
    """The layouts drawn (or, exact, listed) to find them."""
    exact: bool
    """Every layout was weighed (no more than the samples asked fit the cards seen)."""
    choices: tuple[ChoiceOdds, ...]
    """Best first: by worth, then chance, then the choice's name."""
    rank: int
    """The choice made among them (1: no choice was worth more; 0: not ranked, see :attr:`enough`)."""
    cost: Num
    """What the best choice was worth more than the one made, on average."""
    cost_low: Num = 0
    cost_high: Num = 0
    """The cost's 95% interval (from the paired differences on the same layouts)."""
    ties: int = 1
    """How many choices cannot be told apart from the best at this many layouts (the best among them)."""
    enough: bool = True
    """Enough layouts were kept to rank the choices (:data:`MIN_KEPT`; every layout, or layouts given, always)."""
    cut: bool = False
    """The budget stopped the drawing before :attr:`samples` reached what was asked: the choices are weighed on the
    layouts drawn first (a random sample still, smaller, so its intervals are wider)."""


def _mean(xs: Sequence[Num]) -> Fraction:
    return Fraction(sum(xs)) / len(xs)


def _sqrt_up(q: Fraction) -> Fraction:
    """A square root rounded up to 1/_SCALE."""
    scaled = q * _SCALE * _SCALE
    r = math.isqrt(scaled.numerator // scaled.denominator)
    if r * r * scaled.denominator < scaled.numerator:
        r += 1
    return Fraction(r, _SCALE)


def _bounds(low: Fraction, high: Fraction) -> tuple[Num, Num]:
    return (exact_div(Fraction(math.floor(low * _SCALE), _SCALE), 1),
            exact_div(Fraction(math.ceil(high * _SCALE), _SCALE), 1))


def estimate(xs: Sequence[Num], exact_mean: bool, span: tuple[Num, Num] | None = None) -> Estimate:
    """The mean of ``xs`` with its normal 95% interval (none when ``exact_mean``: every layout was solved).
    Where the layouts all agree, the interval is the rule of three's: at most 3/n of the layouts give another
    value, each at most as far as ``span`` (the values it can take) allows (one unit either way without one).

    >>> e = estimate([5] * 200, False, (0, 10))
    >>> e.mean, float(e.low), float(e.high)
    (5, 4.925, 5.075)
    """
    m = _mean(xs)
    n = len(xs)
    if exact_mean:
        return Estimate(exact_div(m, 1), exact_div(m, 1), exact_div(m, 1))
    var = sum((Fraction(x) - m) ** 2 for x in xs) / (n - 1) if n > 1 else Fraction(0)
    if not var:
        return Estimate(exact_div(m, 1), *_agreed(m, n, span))
    half = _sqrt_up(Fraction(_Z2 * var / n))
    return Estimate(exact_div(m, 1), *_bounds(m - half, m + half))


def _agreed(m: Fraction, n: int, span: tuple[Num, Num] | None) -> tuple[Num, Num]:
    """The 95% bounds of a mean whose ``n`` drawn layouts all gave ``m`` (the rule of three)."""
    lo, hi = (min(Fraction(span[0]), m), max(Fraction(span[1]), m)) if span is not None else (m, m)
    if lo == hi:  # nothing the value could be was ever seen: a unit either way
        lo, hi = m - 1, m + 1
    q = min(Fraction(1), Fraction(3, n))
    return _bounds(m - q * (m - lo), m + q * (hi - m))


def chance(hits: int, n: int, exact_mean: bool) -> Estimate:
    """A proportion with Wilson's 95% interval (which stays inside 0…1 and is not empty at 0 or 1)."""
    p = Fraction(hits, n)
    if exact_mean:
        return Estimate(exact_div(p, 1), exact_div(p, 1), exact_div(p, 1))
    denom = 1 + _Z2 / n
    centre = (p + _Z2 / (2 * n)) / denom
    half = _sqrt_up(_Z2 * (p * (1 - p) / n + _Z2 / (4 * n * n))) / denom
    low, high = _bounds(max(Fraction(0), centre - half), min(Fraction(1), centre + half))
    return Estimate(exact_div(p, 1), low, high)


# ---------------------------------------------------------------------- what the player saw

@attrs.frozen
class Seen:
    """What one player knew at a decision: the cards he holds, those each player has played, and the layouts
    of the cards he has not seen."""

    player: str
    own: tuple[Card, ...]
    played: Mapping[str, tuple[Card, ...]]
    layouts: Layouts

    @property
    def tricks(self) -> int:
        """The tricks of the deal: the cards the deciding player held as play began."""
        return len(self.own) + len(self.played.get(self.player, ()))

    def hands(self, layout: Mapping[str, Sequence[Card]]) -> dict[str, list[Card]]:
        """The hands as play began, with ``layout`` holding the unseen cards."""
        return {p: [*(self.own if p == self.player else layout.get(p, ())), *cs] for p, cs in self.played.items()}


def view(rec: DealRecord, hands: Mapping[str, Sequence[Card]], player: str, played: Sequence[Card]) -> Seen:
    """What ``player`` knew after ``played`` (the deal's first cards) of a deal whose hands in play were
    ``hands``: his own cards (a declarer's discard too), the cards shown to all, the cards played and the voids
    they showed."""
    setup = rec.setup
    start = next(e for e in rec.events if isinstance(e, DealStarted))
    assert setup is not None and start.hands is not None
    deck = {c for cs in start.hands.values() for c in cs} | set(start.talon or ())
    play = setup.play({p: hands[p] for p in setup.seating})
    by: dict[str, list[Card]] = {p: [] for p in setup.seating}
    voids: dict[str, set[Any]] = {p: set() for p in setup.seating}
    for card in played:
        who = play.to_play
        led = play.current[0][1].suit if play.current else (
            play.talon_leads[play.trick_no - 1].suit if play.trick_no <= len(play.talon_leads) else None)
        if led is not None and card.suit is not led:
            voids[who].add(led)
            if setup.must_trump and setup.trump is not None and card.suit is not setup.trump:
                voids[who].add(setup.trump)  # void in the suit led and not trumping: no trump either
        by[who].append(card)
        play.play(who, card)
    gone = set(played)
    now = {p: [c for c in hands[p] if c not in gone] for p in setup.seating}
    known = set(now[player]) | gone | set(setup.talon_leads)
    c = rec.contract
    if c is not None and c.declarer == player:  # he knows what he put away
        known |= (set(start.hands.get(player, ())) | set(start.talon or ())) - set(hands[player])
    unseen = deck - known
    places = {q: len(now[q]) for q in setup.seating if q != player}
    out = len(unseen) - sum(places.values())
    if out:
        places[OUT] = out
    shown = {card: q for card, q in setup.shown if card in unseen}
    groups: dict[tuple[str, ...], list[Card]] = {}
    for card in sorted(unseen, key=lambda x: (x.suit.value, x.rank)):
        may = [shown[card]] if card in shown else [q for q in setup.seating if q != player]
        allowed = tuple([q for q in may if card.suit not in voids[q]] + ([OUT] if out else []))
        groups.setdefault(allowed, []).append(card)
    return Seen(player, tuple(now[player]), {p: tuple(cs) for p, cs in by.items()},
                Layouts(places, [(cs, allowed) for allowed, cs in groups.items()]))


# ---------------------------------------------------------------------- the odds

Score = Callable[[Mapping[str, Sequence[Card]]], "Mapping[str, tuple[int, Num]] | None"]
"""What one layout (the hands as play began) gives each choice: the side's tricks and the worth to the
deciding player; ``None`` when the layout does not fit what the player knew of the others (their contract)."""

TRIES = 40
"""Layouts drawn per layout kept, at most, before a decision is weighed on fewer than asked."""


@attrs.frozen
class SingleDummy:
    """How the decisions are weighed: ``samples`` layouts each (every one when no more fit), drawn by ``seed``."""

    samples: int = 200
    seed: int = 0

    def draw(self, lay: Layouts, key: str) -> tuple[Iterator[dict[str, list[Card]]], bool]:
        """The layouts to try for one decision (``key`` names it), and whether they are all of them."""
        if lay.count <= self.samples:
            return iter(lay), True
        rng = random.Random(f"{self.seed}:{key}")
        return (lay.sample(rng) for _ in range(self.samples * TRIES)), False

    def odds(self, seen: Seen, key: str, choices: Sequence[str], score: Score, wins: Callable[[int], bool],
             only: Sequence[Mapping[str, Sequence[Card]]] | None = None, until: float | None = None
             ) -> tuple[tuple[ChoiceOdds, ...], int, int, bool, bool]:
        """Every choice scored on each layout kept (``score``); ``wins(tricks)``: the deciding player's goal is
        met. Best first, with the layouts kept and tried, whether they were all of them, and whether ``until``
        stopped the drawing. ``only``: these
        layouts instead of drawn ones (the checks give the true one: their means have no interval). ``until``: a
        monotonic time past which no more layouts are drawn once one is kept (:attr:`Decision.cut`; every layout
        listed, fewer than :attr:`samples`, is always weighed: a prefix of the list would be no sample)."""
        todo: Iterator[Mapping[str, Sequence[Card]]]
        if only is not None:
            todo, every = iter(only), False
        else:
            todo, every = self.draw(seen.layouts, key)
        tricks: dict[str, list[int]] = {c: [] for c in choices}
        worth: dict[str, list[Num]] = {c: [] for c in choices}
        kept = tried = 0
        cut = False
        for one in todo:
            tried += 1
            got = score(seen.hands(one))
            if got is None:
                continue
            kept += 1
            for c in choices:
                t, w = got[c]
                tricks[c].append(t)
                worth[c].append(w)
            if kept == self.samples and not every:
                break
            if until is not None and kept and not every and only is None and time.monotonic() >= until:
                cut = True
                break
        if not kept:  # nothing drawn fits: weighed on nothing, said so
            return (), 0, tried, every, cut
        point = every or only is not None
        values = [w for c in choices for w in worth[c]]
        span = (min(values), max(values))
        odds = [ChoiceOdds(c, estimate(tricks[c], point, (0, seen.tricks)),
                           chance(sum(map(wins, tricks[c])), kept, point), estimate(worth[c], point, span))
                for c in choices]
        odds.sort(key=lambda o: (-Fraction(o.worth.mean), -Fraction(o.chance.mean), o.choice))
        best = worth[odds[0].choice]
        wide = Fraction(span[1]) - Fraction(span[0])
        odds[1:] = [attrs.evolve(o, behind=estimate([b - x for b, x in zip(best, worth[o.choice])], point,
                                                    (-wide, wide))) for o in odds[1:]]
        # the best is behind none on average; how far behind it may be: as far as another may be ahead of it
        ahead = max([Fraction(0), *(-Fraction(o.behind.low) for o in odds[1:])])
        odds[0] = attrs.evolve(odds[0], behind=Estimate(0, 0, exact_div(ahead, 1)))
        return tuple(odds), kept, tried, every, cut


def ranked(odds: Sequence[ChoiceOdds], made: str) -> tuple[int, Estimate, int]:
    """The choice made's rank among ``odds`` (1: none was worth more), what the best was worth more (with its
    interval), and how many choices cannot be told apart from the best (their cost's interval reaches 0)."""
    chosen = next(o for o in odds if o.choice == made)
    mine = Fraction(chosen.worth.mean)
    rank = 1 + sum(Fraction(o.worth.mean) > mine for o in odds)
    ties = sum(Fraction(o.behind.low) <= 0 for o in odds)
    return rank, chosen.behind, ties


def decision_json(d: Decision) -> dict[str, Any]:
    """A decision as ``analyse --single-dummy --format json`` writes it (docs/cli.md)."""
    def est(e: Estimate) -> dict[str, Any]:
        return {"mean": exact(e.mean), "low": exact(e.low), "high": exact(e.high)}

    return {"seq": d.seq, "player": d.player, "kind": d.kind, "made": d.made, "goal": d.goal,
            "layouts": d.layouts, "samples": d.samples, "drawn": d.drawn, "exact": d.exact, "enough": d.enough,
            "rank": d.rank if d.enough else None, "cost": exact(d.cost) if d.enough else None,
            "cost_low": exact(d.cost_low) if d.enough else None, "cost_high": exact(d.cost_high) if d.enough else None,
            "ties": d.ties if d.enough else None, **({"cut": True} if d.cut else {}),
            "choices": [{"choice": o.choice, "tricks": est(o.tricks), "chance": est(o.chance),
                         "worth": est(o.worth), "behind": est(o.behind)} for o in d.choices]}
