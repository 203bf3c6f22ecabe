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
from fractions import Fraction
from typing import IO, ClassVar

import attrs

from vistlog.events.cards import GameKind
from vistlog.events.checker import LogChecker
from vistlog.events.record import LONG_NAME, DealRecord
from vistlog.events.chain import CHAIN_MESSAGES
from vistlog.events.lines import Refused, read_events
from vistlog.events.problems import Issue, Problem, VistlogError
from vistlog.events.text import printable
from vistlog.events.model import (
    DEAL_EVENTS, Adjustment, Allocation, Claim, DealStarted, DealVoided, Event, GameEnded, GameStarted,
    OpeningBalance, ScoreRecorded,
)

from .entries import ADJUSTMENT_REASON, Column, DealScore, Entry, Num, Totals, fmt
from .settlement import money, payments, round_to_zero_sum
from .kept import DealRecords, _Items, _Snapshot
from .variants import scoring_of

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
        t = Totals(self.players)
        for e in self.entries:
            if e.deal <= deal:
                t.apply(e)
        return t


class GameFold:
    """One game being folded.

    ``detail`` keeps what the sheet after any deal, the audit and the replay read: every entry
    with its reason (equal reasons shared) and, with ``events``, every deal's record and own events
    (the replay, the drawing, the statistics and PPN read them; the sheet and the audit do not). Without
    detail (``validate``, ``settle``) only the running totals are kept, and memory does not grow with
    the game. A ``deal_voided``
    refolds from the last snapshot before the voided deal (one every :attr:`EVERY` items), so
    voids cost the deals after them, not the whole game.
    """

    EVERY: ClassVar[int] = 32
    SNAPSHOTS: ClassVar[int] = 64

    def __init__(self, started: GameStarted, index: int, detail: bool = True, events: bool = True) -> None:
        self.started = started
        self.index = index
        self.detail = detail
        self.keep_events = detail and events  # each deal's record and own events
        self.kind = started.kind
        self.players = list(started.players)
        self.options = started.rules.options
        self.items = _Items()
        self.pending_allocs: list[Allocation] = []
        self.pending_events: list[Event] = []
        self.record_numbers = array("q")  # with events kept: each deal record's number and item, in fold order
        self.record_items = array("q")
        self.void_keys: set[int] = set()  # the deal records struck out, by the seq of their deal_started
        self.live = array("q")  # deal number → the seq of the record that stands for it (0: none)
        self.replacement_of: dict[int, int] = {}  # a voided record → the item that records its deal again
        self.replacements: set[int] = set()  # those items: folded right after the record they replace
        self.checkpoints: list[Checkpoint] = []
        self.claimed: list[DealRecord] = []  # with detail, the records of deals ended by a claim, events and all
        self.problems = 0
        self.scoring_problems: list[tuple[int, str, int]] = []  # deal, message, seq of the event
        self.lines: dict[int, int] = {}  # seq → line, for the allocations a scoring problem may name
        self.ended = False
        self.deals = 0
        self.totals = Totals(self.players)
        self.entries: list[Entry] = []
        self.reasons: dict[str, str] = {}  # one string for each reason kept: a long game repeats them
        self.names = {p: p for p in self.players}  # and the players' names, not each event's copy
        self.long_names = self.names if any(len(p) > LONG_NAME for p in self.players) else None
        """A deal's record refers to these rather than copies of them: worth its cost for long names."""
        self.streak = 0
        self.current_deal = 0
        self.bad_entry: str | None = None
        self.deal_sums: dict[int, Num] = {}  # Solo Whist: every deal's points must add up to 0
        self.scoring = scoring_of(started.rules)
        for column, player, amount, reason, on in self.scoring.opening(self.players, started.pool):
            self._write(0, column, player, amount, reason, on)
        self.snapshots: list[_Snapshot] = [self._snapshot()]

    def _snapshot(self, at: int = 0) -> _Snapshot:
        """The state before item ``at``."""
        return _Snapshot(at, self.totals.copy(), self.streak, self.current_deal, len(self.entries),
                         len(self.scoring_problems), self.bad_entry, self.deal_sums.get(self.current_deal, 0))

    # ------------------------------------------------------------------ feeding

    def feed(self, ev: Event, ended: DealRecord | None = None, line: int | None = None) -> None:
        """Fold an event the checker accepted; ``ended``: the deal the checker handed over with it
        (:meth:`~vistlog.events.checker.LogChecker.hand_over`), for an event that is not part of a deal."""
        kind = type(ev)
        if kind in DEAL_EVENTS:
            if self.detail:
                self.pending_events.append(ev)
            if kind is Allocation:
                self.pending_allocs.append(ev)  # type: ignore[arg-type]
                if line is not None:
                    self.lines[ev.seq] = line
            return
        if kind is DealStarted:
            self.flush(ended)
            self.pending_allocs = []
            self.pending_events = [ev] if self.detail else []
            self.deals = max(self.deals, ev.deal)  # type: ignore[union-attr]
            return
        self.flush(ended)
        if isinstance(ev, OpeningBalance):
            self._add_item("opening", ev)
        elif isinstance(ev, Adjustment):
            self._add_item("adjustment", ev)
        elif isinstance(ev, DealVoided):
            key = self._live(ev.deal)
            if key is not None:
                self.void_keys.add(key)
            self._refold(ev.deal)
        elif isinstance(ev, ScoreRecorded):
            self.checkpoints.append(Checkpoint(ev, line))
        elif isinstance(ev, GameEnded):
            self.ended = True

    def mark_broken(self) -> None:
        """A problem was found in this game."""
        self.problems += 1

    def flush(self, ended: DealRecord | None) -> None:
        """Score a deal the checker handed over, with the events that came with it."""
        if ended is None:
            return
        rec = ended
        own = tuple(self.pending_events)
        kept = own if self.keep_events else ()
        if self.pending_allocs or kept:
            rec = attrs.evolve(rec, allocations=tuple(self._allocations()), events=kept)
        if any(type(e) is Claim for e in own):  # the audit judges a claim with the deal's hands and cards
            self.claimed.append(rec if kept else attrs.evolve(rec, events=own))
        self.pending_allocs, self.pending_events = [], []
        voided = self._live(rec.number)
        if len(self.live) <= rec.number:
            self.live.extend(bytes(8 * (rec.number + 1 - len(self.live))))
        self.live[rec.number] = rec.seq
        if rec.replaces and voided is not None:
            # the deal as it really was: folded in the voided record's place, and everything after it again
            self.replacement_of[voided] = len(self.items)
            self.replacements.add(len(self.items))
            if self.keep_events:
                self._note_record(rec)
            self.items.append(("deal", rec))
            self._refold(rec.number)
            return
        self._add_item("deal", rec)

    def _allocations(self) -> list[Allocation]:
        """The deal's allocations, naming the game's own copy of each player (for long names)."""
        names = self.long_names
        if not names:
            return self.pending_allocs
        return [attrs.evolve(a, player=names.get(a.player, a.player),
                             help={names.get(p, p): x for p, x in a.help.items()}) for a in self.pending_allocs]

    def _live(self, deal: int) -> int | None:
        """The seq of the record that stands for ``deal``, if any."""
        return (self.live[deal] or None) if 0 <= deal < len(self.live) else None

    def _take_snapshot(self, at: int) -> None:
        """Keep the state before item ``at``. The newest :attr:`SNAPSHOTS` stay one every :attr:`EVERY` items;
        older ones are thinned by half each time there are twice as many (the first always stays), so a
        game that never ends keeps a bounded number and a void of an old deal refolds a little more."""
        snapshots = self.snapshots
        snapshots.append(self._snapshot(at))
        if len(snapshots) > 2 * self.SNAPSHOTS + 1:
            snapshots[1:self.SNAPSHOTS + 1] = snapshots[2:self.SNAPSHOTS + 1:2]

    def _add_item(self, kind: str, item: object) -> None:
        if len(self.items) % self.EVERY == 0 and len(self.items) > self.snapshots[-1].at:
            self._take_snapshot(len(self.items))
        if kind == "deal" and self.keep_events:
            self._note_record(item)  # type: ignore[arg-type]
        self.items.append((kind, item))
        self._apply_item(kind, item)

    def _note_record(self, rec: DealRecord) -> None:
        """The next item is a deal's record, and records are kept: note where it is."""
        self.record_numbers.append(rec.number)
        self.record_items.append(len(self.items))

    def _refold(self, voided: int) -> None:
        """Fold again from the last snapshot taken before deal ``voided`` was folded, that deal now void.

        Snapshots come in item order and their deals never decrease, so every item before the
        chosen one belongs to an earlier deal and stands as it was.
        """
        while len(self.snapshots) > 1 and self.snapshots[-1].current_deal >= voided:
            self.snapshots.pop()
        snap = self.snapshots[-1]
        self.totals = snap.totals.copy()
        self.streak = snap.streak
        self.current_deal = snap.current_deal
        del self.entries[snap.entries:]
        del self.scoring_problems[snap.problems:]
        self.bad_entry = snap.bad_entry
        for deal in [d for d in self.deal_sums if d >= snap.current_deal]:
            del self.deal_sums[deal]
        if snap.deal_sum:
            self.deal_sums[snap.current_deal] = snap.deal_sum
        for k, (kind, item) in enumerate(self.items.since(snap.at), start=snap.at):
            if k in self.replacements:
                continue
            if k % self.EVERY == 0 and k > self.snapshots[-1].at:
                self._take_snapshot(k)
            self._apply_item(kind, item)
            while kind == "deal" and isinstance(item, DealRecord) and item.seq in self.replacement_of:
                kind, item = next(self.items.since(self.replacement_of[item.seq]))
                self._apply_item(kind, item)

    def _apply_item(self, kind: str, item: object) -> None:
        if kind == "deal":
            assert isinstance(item, DealRecord)
            n = self.current_deal = item.number
            score = self._score(item)
            for message, seq in score.problems:
                self.scoring_problems.append((n, message, seq))
            if item.seq in self.void_keys:  # shown, never counted
                if self.detail:
                    self.entries += [Entry(n, c, p, x, why, on, void=True) for c, p, x, why, on in score.rows]
                return
            for column, player, amount, reason, on in score.rows:
                self._write(n, column, player, amount, reason, on)
            self.streak = self.scoring.streak(self.options, item, self.streak)
            return
        assert isinstance(item, (OpeningBalance, Adjustment))
        deal = 0 if kind == "opening" else self.current_deal
        reason = printable(getattr(item, "reason", None) or "agreed")
        why = "opening balance" if kind == "opening" else ADJUSTMENT_REASON + reason
        own: tuple[Column, ...] = ("pool", "mountain", "points")
        rows: list[tuple[Column, str, Num, str | None]] = [
            (column, p, x, None) for column in own for p, x in getattr(item, column).items()]
        rows += [("whists", w, x, t) for w, row in item.whists.items() for t, x in row.items()]
        rows += [("bula", p, x - (self.started.pool or 0) if kind == "opening" else x, None)  # the bula carried over
                 for p, x in item.bula.items()]
        rows += [("soups", w, x, t) for w, row in item.soups.items() for t, x in row.items()]
        for column, p, x, on in rows:
            if x:
                self._write(deal, column, p, x, why, on)

    def _write(self, deal: int, column: Column, player: str, amount: Num, reason: str, on: str | None = None
               ) -> None:
        """Count one number written on the sheet (and keep it as an :class:`Entry` with detail)."""
        self._check(deal, column, player, amount, reason, on)
        if self.detail:
            names = self.names
            on = None if on is None else names.get(on, on)
            self.entries.append(Entry(deal, column, names.get(player, player), amount,
                                      self.reasons.setdefault(reason, reason), on))
        self.totals.add(column, player, amount, on)

    def _score(self, rec: DealRecord) -> DealScore:
        return self.scoring.score(self.options, self.started.pool or 0, self.players, rec, self.totals, self.streak)

    # ------------------------------------------------------------------ questions

    def all_pools_closed(self) -> bool:
        """Every pool has reached the pool size (Serbian: the bulas add up to 0)."""
        return self.scoring.over(self.totals, self.started.pool or 0)

    def under_refa(self, player: str) -> bool:
        """Serbian: ``player`` holds an unplayed refa."""
        return self.totals.refe.get(player, 0) > 0

    def result(self) -> GameResult:
        """Finish the fold and settle (the last deal handed over first: :meth:`flush`)."""
        t = self.totals
        stake = self.started.stake
        result = self.scoring.results(self.options, self.players, t)
        zero_problem = self._zero_sum_problem()
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

    def _check(self, deal: int, column: Column, player: str, amount: Num, reason: str, on: str | None) -> None:
        """Note the first entry that breaks zero-sum (see :meth:`_zero_sum_problem`)."""
        if self.bad_entry is None:
            players = self.players
            if player not in players or (on is not None and (on not in players or on == player)):
                entry = Entry(deal, column, player, amount, reason, on)
                self.bad_entry = f"deal {deal}: an entry names somebody who is not another player ({entry.describe()})"
            elif not isinstance(amount, (int, Fraction)) or isinstance(amount, bool):
                self.bad_entry = f"deal {deal}: {amount!r} is not an exact number"
            elif self.scoring.deals_sum_to_zero:
                self.deal_sums[deal] = self.deal_sums.get(deal, 0) + amount

    def _zero_sum_problem(self) -> str | None:
        """Why some deal is not zero-sum, or ``None``.

        Solo Whist: the points of every deal must add up to 0. Preferans: a deal is zero-sum
        in whists by the value model itself (pool and mountain are valued against the mean,
        a whist is a claim of one player on another), so what can break it is an entry that
        is not an exact claim between players of the game; the game's settlement is then
        summed exactly in :meth:`result`. Entries are checked as they are folded (:meth:`_check`).
        """
        if self.bad_entry is not None:
            return self.bad_entry
        for deal, total in self.deal_sums.items():
            if total != 0 and deal != 0:
                return f"deal {deal} is not zero-sum: its points add up to {fmt(total)}"
        return None


CHAIN_CODES = frozenset(CHAIN_MESSAGES)


class _Oracle:
    """Answers the checker's question about closed pools from the folds."""

    def __init__(self, folds: dict[str, GameFold]) -> None:
        self.folds = folds
        self.checker: LogChecker | None = None

    def all_pools_closed(self, game: str) -> bool:
        fold = self.folds.get(game)
        if fold is None:
            return False
        if self.checker is not None:
            fold.flush(self.checker.hand_over(game))  # the deal that ended is scored first
        return fold.all_pools_closed()

    def under_refa(self, game: str, player: str) -> bool:
        fold = self.folds.get(game)
        return fold is not None and fold.under_refa(player)


class Pipeline:
    """Checker and folds of one file, fed one decoded event at a time."""

    def __init__(self, path: str, detail: bool = True, events: bool = True) -> None:
        self.path = path
        self.detail = detail
        self.events = events
        self.keep_events = detail and events
        """Each deal's own events are kept (as :attr:`GameFold.keep_events`)."""
        self.folds: dict[str, GameFold] = {}
        self.oracle = _Oracle(self.folds)
        self.checker = LogChecker(self.oracle)
        self.oracle.checker = self.checker
        self.started = 0

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
                    fold.feed(ev, None, lineno)
            return ()
        fold = self.folds.get(ev.game)
        if kind is GameStarted:
            self.folds[ev.game] = GameFold(ev, self.started, self.detail, self.events)  # type: ignore[arg-type]
            self.started += 1
            return ()
        if fold is None:  # a game whose start was refused: reported once already
            return ()
        fold.feed(ev, self.checker.hand_over(ev.game, kind is DealStarted), lineno)
        if kind is GameEnded:
            return tuple(_finish(self.path, self.folds.pop(ev.game)))
        return ()

    def all_pools_closed(self, game: str) -> bool:
        """Every pool of ``game`` is closed, the deal that ended scored first (what the rules end a game on)."""
        return self.oracle.all_pools_closed(game)

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
            if problem.event_type == "deal_started":
                fold.flush(self.checker.hand_over(fold.started.game))

    def check(self, ev: Event) -> list[Issue]:
        """For ``append``: the problems of ``ev`` as issues; folds it when legal."""
        return [Issue(p.code, p.field, p.message) for p in self.feed(None, ev) if isinstance(p, Problem)]

    def close(self) -> Iterator[Problem | GameResult]:
        """The file has ended: results of the games still open."""
        for fold in list(self.folds.values()):
            why = self.checker.open_at_end(fold.started.game)
            if why:
                fold.mark_broken()
                yield Problem(self.path, None, None, "", f"game {fold.started.game}: {why} at the end of the file",
                              fold.started.game, code="game-unfinished")
            fold.flush(self.checker.hand_over(fold.started.game))
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
