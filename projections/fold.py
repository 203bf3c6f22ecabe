"""Folding a checked log into games: entries, totals, checkpoints and the settlement.

:func:`run` is the one pass of ARCHITECTURE.md: each line is read, decoded, checked by
:class:`vistlog.events.game.LogChecker` and folded here, once. It yields :class:`Problem` values as
they are found and a :class:`GameResult` for each game as soon as the game ends (or the
file does), then forgets it, so memory follows one game, not the file.

A game's deals are kept as :class:`DealRecord` values: a ``deal_voided`` refolds the game
from its start without the voided deal, so its effects vanish from everything after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import IO

import attrs

from vistlog.events.cards import GameKind
from vistlog.events.game import DealState, LogChecker
from vistlog.events.log import read_events
from vistlog.events.problems import Issue, Problem
from vistlog.events.text import printable
from vistlog.events.model import (
    DEAL_EVENTS, Adjustment, Allocation, DealStarted, DealVoided, Event, GameEnded, GameStarted, OpeningBalance,
    ScoreRecorded,
)
from vistlog.events.rules import PreferansOptions, SoloWhistOptions

from . import preferans, solo_whist
from .entries import Entry, Num, Totals, fmt
from .record import DealRecord, record_of
from .settlement import money, payments, results, round_to_zero_sum

__all__ = ["GameFold", "GameResult", "Pipeline", "run", "fold_events"]


@attrs.frozen
class Checkpoint:
    """A ``score_recorded`` event and where it stood."""

    event: ScoreRecorded
    line: int | None


@attrs.frozen(kw_only=True)
class GameResult:
    """Everything the read side knows about one game at the end of the fold."""

    game: str
    kind: GameKind
    started: GameStarted
    players: tuple[str, ...]
    deals: int
    records: tuple[DealRecord, ...]
    entries: tuple[Entry, ...]
    totals: Totals = attrs.field(eq=False)
    checkpoints: tuple[Checkpoint, ...]
    result: dict[str, Num]
    rounded: dict[str, int]
    money: dict[str, str] | None
    payments: list[dict[str, str]] | None
    zero_sum: bool
    zero_sum_problem: str | None
    problems: int
    ended: bool
    index: int

    @property
    def sound(self) -> bool:
        """No problem was found in this game."""
        return self.problems == 0

    def totals_after(self, deal: int | None) -> Totals:
        """The sheet after ``deal`` (all of it when ``None``)."""
        if deal is None:
            return self.totals
        t = Totals(self.players)
        for e in self.entries:
            if e.deal <= deal:
                t.apply(e)
        return t


class GameFold:
    """One game being folded."""

    def __init__(self, started: GameStarted, index: int) -> None:
        self.started = started
        self.index = index
        self.kind = started.kind
        self.players = list(started.players)
        self.options = started.rules.options
        self.items: list[tuple[str, object]] = []
        self.pending: DealState | None = None
        self.pending_allocs: list[Allocation] = []
        self.pending_events: list[Event] = []
        self.records: list[DealRecord] = []
        self.voided: set[int] = set()
        self.checkpoints: list[Checkpoint] = []
        self.problems = 0
        self.scoring_problems: list[tuple[int, str]] = []
        self.ended = False
        self.deals = 0
        self._reset()

    def _reset(self) -> None:
        self.totals = Totals(self.players)
        self.entries: list[Entry] = []
        self.streak = 0
        self.current_deal = 0

    # ------------------------------------------------------------------ feeding

    def feed(self, ev: Event, deal_state: DealState | None, line: int | None = None) -> None:
        """Fold an event the checker accepted (``deal_state``: the deal it opens, for ``deal_started``)."""
        kind = type(ev)
        if kind in DEAL_EVENTS:
            self.pending_events.append(ev)
            if kind is Allocation:
                self.pending_allocs.append(ev)  # type: ignore[arg-type]
            return
        if kind is DealStarted:
            self.flush()
            self.pending = deal_state
            self.pending_allocs = []
            self.pending_events = [ev]
            self.deals = ev.deal  # type: ignore[union-attr]
            return
        self.flush()
        if isinstance(ev, OpeningBalance):
            self._add_item("opening", ev)
        elif isinstance(ev, Adjustment):
            self._add_item("adjustment", ev)
        elif isinstance(ev, DealVoided):
            self.voided.add(ev.deal)
            self._refold()
        elif isinstance(ev, ScoreRecorded):
            self.checkpoints.append(Checkpoint(ev, line))
        elif isinstance(ev, GameEnded):
            self.ended = True

    def mark_broken(self) -> None:
        """A problem was found in this game."""
        self.problems += 1

    def flush(self) -> None:
        """Score the pending deal, if any."""
        d = self.pending
        if d is None:
            return
        self.pending = None
        if d.broken or not d.finished:  # refused or unfinished deals were reported by the checker
            return
        rec = record_of(d, self.pending_allocs, self.pending_events)
        self._add_item("deal", rec)

    def _add_item(self, kind: str, item: object) -> None:
        self.items.append((kind, item))
        if kind == "deal":
            assert isinstance(item, DealRecord)
            self.records.append(item)
        self._apply_item(kind, item)

    def _refold(self) -> None:
        self._reset()
        self.scoring_problems = []
        for kind, item in self.items:
            self._apply_item(kind, item)

    def _apply_item(self, kind: str, item: object) -> None:
        if kind == "deal":
            assert isinstance(item, DealRecord)
            self.current_deal = item.number
            entries = self._score(item)
            void = item.number in self.voided
            for e in entries:
                if void:
                    e = attrs.evolve(e, void=True)
                self.entries.append(e)
                self.totals.apply(e)
            if not void and isinstance(self.options, PreferansOptions):
                self.streak = preferans.next_streak(self.options, item, self.streak)
            return
        assert isinstance(item, (OpeningBalance, Adjustment))
        deal = 0 if kind == "opening" else self.current_deal
        reason = printable(getattr(item, "reason", None) or "agreed")
        why = "opening balance" if kind == "opening" else f"adjustment: {reason}"
        for column in ("pool", "mountain", "points"):
            for p, x in getattr(item, column).items():
                self._entry(Entry(deal, column, p, x, why))
        for w, row in item.whists.items():
            for t, x in row.items():
                self._entry(Entry(deal, "whists", w, x, why, on=t))

    def _entry(self, e: Entry) -> None:
        if e.amount:
            self.entries.append(e)
            self.totals.apply(e)

    def _score(self, rec: DealRecord) -> list[Entry]:
        if isinstance(self.options, SoloWhistOptions):
            return solo_whist.score_deal(self.options, rec)
        assert self.started.pool is not None
        score = preferans.score_deal(self.options, self.started.pool, self.players, rec, self.totals, self.streak)
        for message in score.problems:
            self.scoring_problems.append((rec.number, message))
        return score.entries

    # ------------------------------------------------------------------ questions

    def all_pools_closed(self) -> bool:
        """Every pool has reached the pool size (pending deal scored first)."""
        self.flush()
        return min(self.totals.pool.values()) >= (self.started.pool or 0)

    def result(self) -> GameResult:
        """Finish the fold and settle."""
        self.flush()
        t = self.totals
        stake = self.started.stake
        result = results(self.options, self.players, t)
        zero_problem = self._zero_sum_problem()
        total = sum(result.values(), Fraction(0))
        if total != 0 and zero_problem is None:
            zero_problem = f"the results sum to {total}, not 0"
        rounded = round_to_zero_sum(result, self.players)
        cash = money(result, self.players, stake) if stake else None
        return GameResult(
            game=self.started.game, kind=self.kind, started=self.started, players=tuple(self.players),
            deals=self.deals, records=tuple(self.records), entries=tuple(self.entries), totals=t,
            checkpoints=tuple(self.checkpoints), result=result, rounded=rounded, money=cash,
            payments=payments(cash, self.players) if cash else None, zero_sum=zero_problem is None,
            zero_sum_problem=zero_problem, problems=self.problems + len(self.scoring_problems),
            ended=self.ended, index=self.index,
        )

    def _zero_sum_problem(self) -> str | None:
        """Why some deal is not zero-sum, or ``None``.

        Solo Whist: the points of every deal must add up to 0. Preferans: a deal is zero-sum
        in whists by the value model itself (pool and mountain are valued against the mean,
        a whist is a claim of one player on another), so what can break it is an entry that
        is not an exact claim between players of the game; the game's settlement is then
        summed exactly in :meth:`result`.
        """
        players = set(self.players)
        by_deal: dict[int, Num] = {}
        for e in self.entries:
            if e.void:
                continue
            if e.player not in players or (e.on is not None and (e.on not in players or e.on == e.player)):
                return f"deal {e.deal}: an entry names somebody who is not another player ({e.describe()})"
            if not isinstance(e.amount, (int, Fraction)) or isinstance(e.amount, bool):
                return f"deal {e.deal}: {e.amount!r} is not an exact number"
            if self.kind is GameKind.SOLO_WHIST:
                by_deal[e.deal] = by_deal.get(e.deal, 0) + e.amount
        for deal, total in by_deal.items():
            if total != 0 and deal != 0:
                return f"deal {deal} is not zero-sum: its points add up to {fmt(total)}"
        return None


class _Oracle:
    """Answers the checker's question about closed pools from the folds."""

    def __init__(self, folds: dict[str, GameFold]) -> None:
        self.folds = folds

    def all_pools_closed(self, game: str) -> bool:
        fold = self.folds.get(game)
        return fold is not None and fold.all_pools_closed()


class Pipeline:
    """Checker and folds of one file, fed one decoded event at a time."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.folds: dict[str, GameFold] = {}
        self.checker = LogChecker(_Oracle(self.folds))
        self.started = 0

    def feed(self, lineno: int | None, ev: Event) -> tuple[Problem | GameResult, ...]:
        """Check and fold one event; return its problems, and the game's result when it ends
        (an empty tuple for nearly every event: this runs once per line)."""
        issues = self.checker.check(ev)
        fold = self.folds.get(ev.game)
        if issues:
            self.checker.mark_broken(ev)
            if fold is not None:
                fold.mark_broken()
            return tuple(Problem(self.path, lineno, ev.seq, i.field, i.message, ev.game, code=i.code) for i in issues)
        kind = type(ev)
        if kind is GameStarted:
            self.folds[ev.game] = GameFold(ev, self.started)  # type: ignore[arg-type]
            self.started += 1
            return ()
        if fold is None:  # a game whose start was refused: reported once already
            return ()
        deal_state = None
        if kind is DealStarted:
            state = self.checker.games.get(ev.game)
            deal_state = state.deal if state is not None else None
        fold.feed(ev, deal_state, lineno)
        if kind is GameEnded:
            return tuple(_finish(self.path, self.folds.pop(ev.game)))
        return ()

    def note_unreadable(self, problem: Problem) -> None:
        """A line that could not be decoded: its game is unsound, its deal is skipped."""
        if problem.message.startswith("torn last line"):
            return
        self.checker.note_unreadable(problem.game, problem.event_type, problem.deal, problem.seq)
        fold = self.folds.get(problem.game) if problem.game else None
        if fold is not None:
            fold.mark_broken()
            if problem.event_type == "deal_started":
                fold.flush()

    def check(self, ev: Event) -> list[Issue]:
        """For ``append``: the problems of ``ev`` as issues; folds it when legal."""
        return [Issue(p.code, p.field, p.message) for p in self.feed(None, ev) if isinstance(p, Problem)]

    def close(self) -> Iterator[Problem | GameResult]:
        """The file has ended: results of the games still open."""
        for fold in list(self.folds.values()):
            state = self.checker.games.get(fold.started.game)
            why = state.unfinished() if state is not None else None
            if why and state is not None and state.deal is not None and state.reported_unfinished == state.deal.number:
                why = None  # said already, when the game tried to end or go on
            if why:
                fold.mark_broken()
                yield Problem(self.path, None, None, "", f"game {fold.started.game}: {why} at the end of the file",
                              fold.started.game, code="game-unfinished")
            yield from _finish(self.path, fold)
        self.folds.clear()


def fold_events(path: str, items: Iterator[tuple[int, Event | Problem]]) -> Iterator[Problem | GameResult]:
    """Check and fold decoded items (see :func:`run`)."""
    pipe = Pipeline(path)
    for lineno, item in items:
        if isinstance(item, Problem):
            pipe.note_unreadable(item)
            yield item
        else:
            out = pipe.feed(lineno, item)
            if out:
                yield from out
    yield from pipe.close()


def _finish(path: str, fold: GameFold) -> Iterator[Problem | GameResult]:
    res = fold.result()
    for deal, message in fold.scoring_problems:
        yield Problem(path, None, None, f"deal {deal}", message, fold.started.game, code="allocation-sum")
    if res.zero_sum_problem:
        yield Problem(path, None, None, "", f"game {res.game}: {res.zero_sum_problem}", res.game, code="zero-sum")
    yield res


def run(path: str, stream: IO[bytes] | None = None) -> Iterator[Problem | GameResult]:
    """Read, check and fold a log in one streaming pass.

    Raises :class:`vistlog.events.log.LogUnreadable` for input that is not a log at all.
    """
    return fold_events(path, read_events(path, stream))
