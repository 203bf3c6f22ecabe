"""Folding a checked log into games: entries, totals, checkpoints and the settlement.

:func:`run` is the one pass (docs/architecture.md): each line is read, decoded, checked by
:class:`vistlog.events.checker.LogChecker` and folded here, once. It yields :class:`Problem` values as
they are found and a :class:`GameResult` for each game as soon as the game ends (or the
file does), then forgets it, so memory follows one game, not the file.

The checker decides and scores each deal once; a game's fold (:class:`GameFold`) is a fold over what it told
(:mod:`vistlog.events.verdicts`): deal records, the rows written, a refold after a ``deal_voided`` (the rows
from there on withdrawn and told again, so a voided deal's effects vanish from everything after it), and where
the game stands when it closes.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import IO

import attrs

from vistlog.events.cards import GameKind
from vistlog.events.checker import LogChecker
from vistlog.events.tally import Items
from vistlog.events.verdicts import DealClosed, GameOpened, Provisional, Rewound, Rows, Standing, Verdict
from vistlog.events.variants import find_variant
from vistlog.events.record import DealRecord
from vistlog.events.chain import CHAIN_MESSAGES
from vistlog.events.lines import Refused, read_events
from vistlog.events.problems import Issue, Problem, VistlogError
from vistlog.events.model import (
    DEAL_EVENTS, Allocation, Claim, DealStarted, Event, GameEnded, GameStarted,
    ScoreRecorded,
)

from vistlog.events.entries import Entry, Num, Totals
from .settlement import money, payments, round_to_zero_sum
from .kept import DealRecords
from .variants import reading_of

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
    records: Sequence[DealRecord]
    """Each deal's record in deal order (a long game's read back from its spill file, one at a time)."""
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
    detail: bool = True
    voided: frozenset[int] = frozenset()
    """The deal records struck out, by the ``seq`` of their ``deal_started``."""
    deals_kept: bool = True
    """Each deal's record and own events were kept (:attr:`records`; the replay and the drawing read them)."""
    claimed: tuple[DealRecord, ...] = ()
    """With detail, the record of every deal whose play ended with a claim, with its own events (kept even
    when :attr:`deals_kept` is not: the audit judges the claims with the hands)."""

    @property
    def variant(self) -> str:
        """The game it is (``preferans``, ``solo_whist``, ``serbian``): the key of every per-game table."""
        return self.started.rules.variant

    @property
    def sound(self) -> bool:
        """No problem was found in this game."""
        return self.problems == 0

    def told(self, upto: int | None = None, since: int = 0) -> Iterator[tuple[DealRecord, bool, list[Entry]]]:
        """Each deal record up to deal ``upto``, whether it is struck out, and its own entries: a deal
        voided and recorded again shows both records, the voided one struck with its entries and the one
        that stands with its own (what the replay and the HTML page tell). ``since``: the records before it
        (in this order) are passed over unread, so that the last deals of a long game are told in their
        own time."""
        records = self.records
        since = max(0, min(since, len(records)))
        first = records[since].number if since < len(records) else 0
        by_deal: dict[int, list[Entry]] = {}
        for e in self.entries:
            if e.deal >= first:
                by_deal.setdefault(e.deal, []).append(e)
        shown = records[max(0, since - 1):] if since else records  # a record's twin lies next to it
        count = Counter(r.number for r in shown)
        for k, rec in enumerate(shown):
            if since and k == 0:
                continue
            if upto is not None and rec.number > upto:
                return
            entries = by_deal.get(rec.number, [])
            if count[rec.number] > 1:  # the deal has a voided record and the record that stands
                void = rec.seq in self.voided
                entries = [e for e in entries if e.void == void]
            else:  # a deal with no entries (a redeal) is struck out all the same
                void = rec.seq in self.voided or any(e.void for e in entries)
            yield rec, void, entries

    def totals_after(self, deal: int | None) -> Totals:
        """The sheet after ``deal`` (all of it when ``None``; a game folded without detail has only that)."""
        if deal is None:
            return self.totals
        if not self.detail:
            raise VistlogError(f"game {self.game} was folded without detail: only its final sheet is known")
        t = Totals(self.players, self.totals.declared)
        for e in self.entries:
            if e.deal <= deal:
                t.apply(e)
        return t


class GameFold:
    """One game being folded from what the checker told of it (:mod:`~vistlog.events.verdicts`), keeping what the
    views read.

    ``detail`` keeps what the sheet after any deal, the audit and the replay read: every entry
    with its reason and, with ``events``, every deal's record and own events
    (the replay, the drawing, the statistics and PPN read them; the sheet and the audit do not). Without
    detail (``validate``, ``settle``) only the game's final standing is kept, and memory does not grow with
    the game.
    """

    def __init__(self, started: GameStarted, index: int, detail: bool = True, events: bool = True) -> None:
        self.started = started
        self.index = index
        self.detail = detail
        self.keep_events = detail and events  # each deal's record and own events
        self.kind = started.kind
        self.players = list(started.players)
        self.scoring = find_variant(started.rules.preset).scoring
        self.pending_events: list[Event] = []
        self.records = Items()  # with events kept: each deal's record, as it closed
        self.record_numbers = array("q")  # and its number, in that order
        self.last: DealRecord | None = None
        self.checkpoints: list[Checkpoint] = []
        self.claimed: list[DealRecord] = []  # with detail, the records of deals ended by a claim, events and all
        self.problems = 0
        self.lines: dict[int, int] = {}  # seq → line, for the allocations a scoring problem may name
        self.entries: list[Entry] = []
        self.totals = self.scoring.totals(self.players)
        self.standing: Standing | None = None
        self.shown = -1  # a live fold: where the entries of the provisional deal shown at the end begin (-1: none)

    # ------------------------------------------------------------------ what the checker told

    def told(self, verdict: Verdict, checking: Event | None = None) -> None:
        """One value of the checker's stream about this game (``checking``: the event being checked, which a live
        checker closes a deal at as soon as it is accepted)."""
        kind = type(verdict)
        if kind is Rows:
            entries = verdict.entries  # type: ignore[union-attr]
            self.entries += entries
            add = self.totals.add
            for e in entries:
                if not e.void:
                    add(e.column, e.player, e.amount, e.on)
        elif kind is DealClosed:
            self._closed(verdict)  # type: ignore[arg-type]
        elif kind is Provisional:
            self._provisional(verdict, checking)  # type: ignore[arg-type]
        elif kind is Rewound:
            del self.entries[verdict.rows:]  # type: ignore[union-attr]
            self.totals = Totals(self.players, self.totals.declared)
            for e in self.entries:
                if not e.void:
                    self.totals.apply(e)
        elif kind is Standing:
            self.standing = verdict  # type: ignore[assignment]

    def _closed(self, closed: DealClosed) -> None:
        rec, own = closed.record, tuple(self.pending_events)
        self.pending_events = []
        last = self.last
        if closed.amends and last is not None:  # counted before its allocations: its events, then those since
            own = last.events + own
            if self.claimed and self.claimed[-1].seq == last.seq:
                self.claimed.pop()
        kept = own if self.keep_events else ()
        if kept:
            rec = attrs.evolve(rec, events=kept)
        if any(type(e) is Claim for e in own):  # the audit judges a claim with the deal's hands and cards
            self.claimed.append(rec if kept else attrs.evolve(rec, events=own))
        self.last = rec
        if not self.keep_events:
            return
        if closed.amends and len(self.records):
            self.records.replace_last(("deal", rec))
        else:
            self.records.append(("deal", rec))
            self.record_numbers.append(rec.number)

    def _provisional(self, told: Provisional, checking: Event | None) -> None:
        """A live fold shows the deal that seems over at the end of its records and entries until it is closed
        (or goes on): the one shown before is taken away first."""
        if self.shown >= 0:
            for e in self.entries[self.shown:]:
                self.totals.add(e.column, e.player, -e.amount, e.on)
            del self.entries[self.shown:]
            if self.keep_events:
                self.records.pop_last()
                self.record_numbers.pop()
            self.shown = -1
        rec = told.record
        if rec is None:
            return
        self.shown = len(self.entries)
        self.entries += told.entries
        for e in told.entries:
            self.totals.add(e.column, e.player, e.amount, e.on)
        if self.keep_events:
            own = (*self.pending_events, *((checking,) if type(checking) in DEAL_EVENTS else ()))
            self.records.append(("deal", attrs.evolve(rec, events=own)))
            self.record_numbers.append(rec.number)

    # ------------------------------------------------------------------ what the pipeline saw

    def opened(self, ev: DealStarted) -> None:
        """An accepted ``deal_started``: the events kept with the deal's record begin."""
        self.pending_events = [ev] if self.detail else []

    def collect(self, ev: Event, line: int | None) -> None:
        """An accepted event of the deal under way: kept with its record (with detail), an allocation's line
        noted (a scoring problem names it)."""
        if self.detail:
            self.pending_events.append(ev)
        if line is not None and type(ev) is Allocation:
            self.lines[ev.seq] = line

    def mark_broken(self) -> None:
        """A problem was found in this game."""
        self.problems += 1

    def result(self) -> GameResult:
        """The game settled where it stands: as it closed, or as the checker last told it (a live view)."""
        standing = self.standing
        if standing is None:
            raise VistlogError(f"game {self.started.game}: the checker has not told where it stands")
        live = not standing.final  # a game under way: what it holds now, which later events do not change
        t = self.totals.copy() if self.detail and live else standing.totals
        assert t is not None
        stake = self.started.stake
        options = self.started.rules.options
        result = reading_of(self.scoring.name).results(options, self.players, t)
        zero_problem = standing.zero_sum_problem
        total = sum(result.values())
        if total != 0 and zero_problem is None:
            zero_problem = f"the results sum to {total}, not 0"
        rounded = round_to_zero_sum(result, self.players)
        cash = money(result, self.players, stake) if stake else None
        if self.keep_events:
            numbers = self.record_numbers
            order = array("q", sorted(range(len(numbers)), key=numbers.__getitem__))
            records: Sequence[DealRecord] = DealRecords(self.records.frozen() if live else self.records, order)
        else:
            records = ()
        return GameResult(
            game=self.started.game, kind=self.kind, started=self.started, players=tuple(self.players),
            deals=standing.deals, records=records,
            entries=tuple(self.entries), totals=t,
            checkpoints=tuple(self.checkpoints), result=result, rounded=rounded, money=cash,
            payments=payments(cash, self.players) if cash else None, zero_sum=zero_problem is None,
            zero_sum_problem=zero_problem, problems=self.problems + len(standing.faults),
            ended=standing.ended, index=self.index, detail=self.detail, voided=standing.voided,
            deals_kept=self.keep_events, claimed=tuple(self.claimed),
        )


CHAIN_CODES = frozenset(CHAIN_MESSAGES)


class Pipeline:
    """Checker and folds of one file, fed one decoded event at a time: the checker decides, and tells each game's
    fold what it decided (:meth:`_told`); the folds never see the checker's state. ``live``: the checker tells a
    deal as soon as it has ended and each game's standing after every change (a view of a log as it grows)."""

    def __init__(self, path: str, detail: bool = True, events: bool = True, live: bool = False) -> None:
        """``live``: see the class; the checker is told to go live by :meth:`go_live` (a view that reads a long log
        first and looks after, pays for every deal told at once only from then on)."""
        self.path = path
        self.detail = detail
        self.events = events
        self.keep_events = detail and events
        """Each deal's own events are kept (as :attr:`GameFold.keep_events`)."""
        self.folds: dict[str, GameFold] = {}
        self.closed: dict[str, GameFold] = {}  # told closed while an event was being checked, not yet yielded
        self.checker = LogChecker(self._told, detail=detail)
        self.started = 0
        self.live = live
        self.gone_live = False
        self.checking: Event | None = None  # live: the event under check

    def _told(self, verdict: Verdict) -> None:
        if type(verdict) is GameOpened:
            started = verdict.started  # type: ignore[union-attr]
            self.folds[started.game] = GameFold(started, self.started, self.detail, self.events)
            self.started += 1
            return
        fold = self.folds.get(verdict.game)
        if fold is not None:
            fold.told(verdict, self.checking)
            if type(verdict) is Standing and verdict.final:  # type: ignore[union-attr]
                self.closed[verdict.game] = self.folds.pop(verdict.game)

    def feed(self, lineno: int | None, ev: Event) -> tuple[Problem | GameResult, ...]:
        """Check and fold one event; return its problems, and the game's result when it ends
        (an empty tuple for nearly every event: this runs once per line)."""
        if self.live:
            self.checking = ev
            issues = self.checker.check(ev)
            self.checking = None
        else:
            issues = self.checker.check(ev)
        if issues:
            return self.refused(lineno, ev, issues)
        return self._folded(lineno, ev)

    def take(self, lineno: int | None, ev: Event) -> tuple[list[Issue], tuple[Problem | GameResult, ...]]:
        """As :meth:`feed`, with the checker's verdict apart: ``ev``'s issues (none: it was accepted, and
        folded), and what the fold gives."""
        self.checking = ev if self.live else None
        issues = self.checker.check(ev)
        self.checking = None
        if issues:
            return issues, self.refused(lineno, ev, issues)
        return issues, self._folded(lineno, ev)

    def rehearse(self, events: Sequence[Event], then: Callable[[], list[Issue]] | None
                 ) -> list[list[Issue]] | None:
        """Each event's issues were it fed now, ``then``'s after them; nothing changes, nothing is folded
        (:meth:`~vistlog.events.checker.LogChecker.rehearse`)."""
        return self.checker.rehearse(events, then)

    def _folded(self, lineno: int | None, ev: Event) -> tuple[Problem | GameResult, ...]:
        kind = type(ev)
        if kind in DEAL_EVENTS:  # nearly every event
            if self.detail or kind is Allocation:  # else the fold has nothing to keep of it
                fold = self.folds.get(ev.game)
                if fold is not None:
                    fold.collect(ev, lineno)
            return ()
        if kind is DealStarted:
            fold = self.folds.get(ev.game)
            if fold is not None:
                fold.opened(ev)  # type: ignore[arg-type]
        elif kind is ScoreRecorded:
            fold = self.folds.get(ev.game)
            if fold is not None:
                fold.checkpoints.append(Checkpoint(ev, lineno))  # type: ignore[arg-type]
        elif kind is GameEnded:
            fold = self.closed.pop(ev.game, None)
            if fold is not None:
                return tuple(_finish(self.path, fold))
        return ()

    def go_live(self) -> None:
        """From now on the checker tells each deal that seems over at once (:meth:`LogChecker.go_live`)."""
        if self.live and not self.gone_live:
            self.gone_live = True
            self.checker.go_live()

    def refused(self, lineno: int | None, ev: Event, issues: list[Issue]) -> tuple[Problem, ...]:
        """The checker refused ``ev`` (and skips the rest of its deal): its game is unsound; the problems, one per
        issue."""
        fold = self.folds.get(ev.game)
        if fold is not None:
            fold.mark_broken()
        return tuple(Problem(self.path, lineno, ev.seq, i.field, i.message, ev.game, code=i.code) for i in issues)

    @property
    def unkept(self) -> frozenset[type]:
        """The event types the fold has nothing to keep of once checked: for them, checking is all
        (:func:`fold_events` hands them straight to the checker). With detail the fold sees every deal's
        events, one deal at a time: it keeps the whole record of a deal that ended with a claim."""
        return frozenset() if self.detail else DEAL_EVENTS - {Allocation}

    def note_unreadable(self, problem: Problem) -> None:
        """A line that could not be decoded: its game is unsound, its deal is skipped."""
        if problem.code == "torn-line":
            return
        self.checker.note_unreadable(problem.game, problem.event_type, problem.deal, problem.seq)
        fold = self.folds.get(problem.game) if problem.game else None
        if fold is not None:
            fold.mark_broken()

    def check(self, ev: Event) -> list[Issue]:
        """The problems of ``ev`` as issues; folds it when legal."""
        return [Issue(p.code, p.field, p.message) for p in self.feed(None, ev) if isinstance(p, Problem)]

    def close(self) -> Iterator[Problem | GameResult]:
        """The file has ended: results of the games still open, in the order they started."""
        self.checker.end()
        for fold in sorted(self.closed.values(), key=lambda f: f.index):
            why = fold.standing.open if fold.standing is not None else None
            if why:
                fold.mark_broken()
                yield Problem(self.path, None, None, "", f"game {fold.started.game}: {why} at the end of the file",
                              fold.started.game, code="game-unfinished")
            yield from _finish(self.path, fold)
        self.closed.clear()


def fold_events(path: str, items: Iterator[tuple[int, Event | Problem]], detail: bool = True,
                events: bool = True) -> Iterator[Problem | GameResult]:
    """Check and fold decoded items (see :func:`run`; ``events``: keep each deal's own events)."""
    return _fold(Pipeline(path, detail, events), items)


def _fold(pipe: Pipeline, items: Iterator[tuple[int, Event | Problem | Refused]]) -> Iterator[Problem | GameResult]:
    check, unkept, refused = pipe.checker.check, pipe.unkept, pipe.refused
    for lineno, item in items:
        if type(item) in unkept:  # nearly every event: one dispatch, to its game's handler
            issues = check(item)  # type: ignore[arg-type]
            if issues:
                yield from refused(lineno, item, issues)  # type: ignore[arg-type]
            continue
        if isinstance(item, Refused):  # checked as it was read (see run)
            yield from refused(lineno, item.event, item.issues)
            continue
        if isinstance(item, Problem):
            if item.code in CHAIN_CODES:  # the line's event follows and is used: the game is only unsound
                fold = pipe.folds.get(item.game) if item.game else None
                if fold is not None:
                    fold.mark_broken()
            else:
                pipe.note_unreadable(item)
            yield item
        else:
            out = pipe.feed(lineno, item)
            if out:
                yield from out
    yield from pipe.close()


def _finish(path: str, fold: GameFold) -> Iterator[Problem | GameResult]:
    res = fold.result()
    assert fold.standing is not None
    for deal, message, seq in fold.standing.faults:
        yield Problem(path, fold.lines.get(seq), seq, "allocation", f"deal {deal}: {message}", fold.started.game,
                      code="allocation-sum")
    if res.zero_sum_problem:
        yield Problem(path, None, None, "", f"game {res.game}: {res.zero_sum_problem}", res.game, code="zero-sum")
    yield res


def run(path: str, stream: IO[bytes] | None = None, detail: bool = True, events: bool = True
        ) -> Iterator[Problem | GameResult]:
    """Read, check and fold a log in one streaming pass (``detail``, ``events``: see :class:`GameFold`).

    The events the fold keeps nothing of (without detail: every bid, card, call, contract and trick)
    are checked as they are read and never leave the reader unless refused.
    Raises :class:`vistlog.events.log.LogUnreadable` for input that is not a log at all.
    """
    pipe = Pipeline(path, detail, events)
    return _fold(pipe, read_events(path, stream, check=pipe.checker.check, quiet=pipe.unkept))
