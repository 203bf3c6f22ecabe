"""Folding a checked log into games: entries, totals, checkpoints and the settlement.

:func:`run` is the one pass (docs/architecture.md): each line is read, decoded, checked by
:class:`vistlog.events.checker.LogChecker` and folded here, once. It yields :class:`Problem` values as
they are found and a :class:`GameResult` for each game as soon as the game ends (or the
file does), then forgets it, so memory follows one game, not the file.

A game's deals are kept as :class:`DealRecord` values: a ``deal_voided`` refolds the game
from its start without the voided deal, so its effects vanish from everything after it.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import IO, Any

import attrs

from vistlog.events.cards import GameKind
from vistlog.events.checker import LogChecker
from vistlog.events.scoring import Scoring
from vistlog.events.tally import Tally
from vistlog.events.variants import find_variant
from vistlog.events.record import DealRecord
from vistlog.events.chain import CHAIN_MESSAGES
from vistlog.events.lines import Refused, read_events
from vistlog.events.problems import Issue, Problem, VistlogError
from vistlog.events.model import (
    DEAL_EVENTS, Allocation, Claim, DealStarted, Event, GameEnded, GameStarted,
    ScoreRecorded,
)

from vistlog.events.entries import Column, DealScore, Entry, Num, Totals
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
        t = Totals(self.players, self.totals.columns)
        for e in self.entries:
            if e.deal <= deal:
                t.apply(e)
        return t


class GameFold(Tally):
    """One game being folded: the game's :class:`~vistlog.events.tally.Tally` (the checker keeps it, and hands
    it each deal that ends), keeping what the views read.

    ``detail`` keeps what the sheet after any deal, the audit and the replay read: every entry
    with its reason (equal reasons shared) and, with ``events``, every deal's record and own events
    (the replay, the drawing, the statistics and PPN read them; the sheet and the audit do not). Without
    detail (``validate``, ``settle``) only the running totals are kept, and memory does not grow with
    the game. A ``deal_voided`` refolds from the last snapshot before the voided deal.
    """

    def __init__(self, started: GameStarted, index: int, detail: bool = True, events: bool = True,
                 scoring: Scoring | None = None) -> None:
        self.index = index
        self.detail = detail
        self.keep_events = detail and events  # each deal's record and own events
        self.kind = started.kind
        self.pending_events: list[Event] = []
        self.record_numbers = array("q")  # with events kept: each deal record's number and item, in fold order
        self.record_items = array("q")
        self.checkpoints: list[Checkpoint] = []
        self.claimed: list[DealRecord] = []  # with detail, the records of deals ended by a claim, events and all
        self.problems = 0
        self.lines: dict[int, int] = {}  # seq → line, for the allocations a scoring problem may name
        self.entries: list[Entry] = []
        self.reasons: dict[str, str] = {}  # one string for each reason kept: a long game repeats them
        self.names = {p: p for p in started.players}  # and the players' names, not each event's copy
        super().__init__(started, scoring if scoring is not None else find_variant(started.rules.preset).scoring)

    # ------------------------------------------------------------------ feeding

    def feed(self, ev: Event, ended: DealRecord | None = None) -> None:
        """An accepted event that is not part of a deal (the checker hands it over, with the deal that ended)."""
        super().feed(ev, ended)
        if type(ev) is DealStarted and not self.trying:
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

    def _kept(self, rec: DealRecord, amended: DealRecord | None) -> DealRecord:
        own = tuple(self.pending_events)
        if amended is not None:  # counted before its allocations: its events, then those that came since
            own = amended.events + own
            if self.claimed and self.claimed[-1].seq == amended.seq:
                self.claimed.pop()
        kept = own if self.keep_events else ()
        if kept:
            rec = attrs.evolve(rec, events=kept)
        if any(type(e) is Claim for e in own):  # the audit judges a claim with the deal's hands and cards
            self.claimed.append(rec if kept else attrs.evolve(rec, events=own))
        self.pending_events = []
        return rec

    def _note_record(self, rec: DealRecord) -> None:
        if self.keep_events:
            self.record_numbers.append(rec.number)
            self.record_items.append(len(self.items))

    def _scored(self, deal: int, score: DealScore, void: bool) -> None:
        super()._scored(deal, score, void)
        if void and self.detail:
            self.entries += [Entry(deal, c, p, x, why, on, void=True) for c, p, x, why, on in score.rows]

    def _wrote(self, deal: int, column: Column, player: str, amount: Num, reason: str, on: str | None) -> None:
        super()._wrote(deal, column, player, amount, reason, on)
        if self.detail:
            names = self.names
            on = None if on is None else names.get(on, on)
            self.entries.append(Entry(deal, column, names.get(player, player), amount,
                                      self.reasons.setdefault(reason, reason), on))

    def _mark(self) -> Any:
        return (super()._mark(), len(self.entries))

    def _rewind(self, kept: Any, deal: int) -> None:
        own, entries = kept
        super()._rewind(own, deal)
        del self.entries[entries:]

    def result(self) -> GameResult:
        """Finish the fold and settle (the last deal handed over first:
        :meth:`~vistlog.events.checker.LogChecker.finish`)."""
        t = self.totals
        stake = self.started.stake
        result = reading_of(self.scoring.name).results(self.options, self.players, t)
        zero_problem = self.zero_sum_problem()
        total = sum(result.values())
        if total != 0 and zero_problem is None:
            zero_problem = f"the results sum to {total}, not 0"
        rounded = round_to_zero_sum(result, self.players)
        cash = money(result, self.players, stake) if stake else None
        if self.keep_events:
            numbers = self.record_numbers
            order = array("q", (self.record_items[k] for k in sorted(range(len(numbers)), key=numbers.__getitem__)))
            records: Sequence[DealRecord] = DealRecords(self.items, order)
        else:
            self.items.close()
            records = ()
        return GameResult(
            game=self.started.game, kind=self.kind, started=self.started, players=tuple(self.players),
            deals=self.deals, records=records,
            entries=tuple(self.entries), totals=t,
            checkpoints=tuple(self.checkpoints), result=result, rounded=rounded, money=cash,
            payments=payments(cash, self.players) if cash else None, zero_sum=zero_problem is None,
            zero_sum_problem=zero_problem, problems=self.problems + len(self.scoring_problems),
            ended=self.ended, index=self.index, detail=self.detail, voided=frozenset(self.void_keys),
            deals_kept=self.keep_events, claimed=tuple(self.claimed),
        )


CHAIN_CODES = frozenset(CHAIN_MESSAGES)


class Pipeline:
    """Checker and folds of one file, fed one decoded event at a time: each game's fold is the tally its state
    keeps (:class:`~vistlog.events.checker.LogChecker` is given :meth:`_fold_for`), so a deal is scored once."""

    def __init__(self, path: str, detail: bool = True, events: bool = True) -> None:
        self.path = path
        self.detail = detail
        self.events = events
        self.keep_events = detail and events
        """Each deal's own events are kept (as :attr:`GameFold.keep_events`)."""
        self.folds: dict[str, GameFold] = {}
        self.checker = LogChecker(self._fold_for)
        self.started = 0

    def _fold_for(self, started: GameStarted, scoring: Scoring) -> Tally:
        fold = self.folds[started.game] = GameFold(started, self.started, self.detail, self.events, scoring)
        self.started += 1
        return fold

    def feed(self, lineno: int | None, ev: Event) -> tuple[Problem | GameResult, ...]:
        """Check and fold one event; return its problems, and the game's result when it ends
        (an empty tuple for nearly every event: this runs once per line)."""
        issues = self.checker.check(ev)
        if issues:
            return self.refused(lineno, ev, issues)
        kind = type(ev)
        if kind in DEAL_EVENTS:  # nearly every event
            if self.detail or kind is Allocation:  # else the fold has nothing to keep of it
                fold = self.folds.get(ev.game)
                if fold is not None:
                    fold.collect(ev, lineno)
            return ()
        if kind is ScoreRecorded:
            fold = self.folds.get(ev.game)
            if fold is not None:
                fold.checkpoints.append(Checkpoint(ev, lineno))  # type: ignore[arg-type]
        elif kind is GameEnded:
            fold = self.folds.pop(ev.game, None)
            if fold is not None:
                return tuple(_finish(self.path, fold))
        return ()

    def all_pools_closed(self, game: str) -> bool:
        """Every pool of ``game`` is closed, the deal that ended scored first (what the rules end a game on)."""
        state = self.checker.games.get(game)
        return state is not None and state.pools_closed()

    def refused(self, lineno: int | None, ev: Event, issues: list[Issue]) -> tuple[Problem, ...]:
        """The checker refused ``ev``: its deal is skipped and its game unsound; the problems, one per issue."""
        self.checker.mark_broken(ev)
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
        """The file has ended: results of the games still open."""
        for fold in list(self.folds.values()):
            why = self.checker.open_at_end(fold.started.game)
            if why:
                fold.mark_broken()
                yield Problem(self.path, None, None, "", f"game {fold.started.game}: {why} at the end of the file",
                              fold.started.game, code="game-unfinished")
            self.checker.finish(fold.started.game)
            yield from _finish(self.path, fold)
        self.folds.clear()


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
    for deal, message, seq in fold.scoring_problems:
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
