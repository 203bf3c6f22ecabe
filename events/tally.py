"""A game's running totals, kept by the write side from the deal records its state hands over.

What is legal next may depend on the score: no deal after every pool is closed (the bulas at 0), a Serbian
declarer under a refa. The game's state (:class:`~vistlog.events.game.GameState`) keeps a :class:`Tally`: each
finished deal's :class:`~vistlog.events.record.DealRecord` is scored by the game's
:class:`~vistlog.events.scoring.Scoring` and added to the totals as it is handed over, and the agreed balances and
adjustments with it; a ``deal_voided`` refolds from the last snapshot before the voided deal. A deal is scored
here once: what it wrote is told to the checker's follower as :mod:`~vistlog.events.verdicts` (the read side folds
them), and nobody else reads or changes a tally.

>>> from vistlog.events.codec import decode
>>> from vistlog.events.checker import LogChecker
>>> told = []
>>> chk = LogChecker(told.append)
>>> chk.check(decode(b'{"seq":1,"type":"game_started","game":"g","kind":"preferans",'
...                  b'"players":["A","B","C"],"pool":10,"rules":{"preset":"sochi"}}'))
[]
>>> [type(v).__name__ for v in told]
['GameOpened']
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterator
from fractions import Fraction
from typing import IO, Any, ClassVar

import attrs

from .entries import ADJUSTMENT_REASON, Entry, Num, Totals, fmt
from .model import Adjustment, DealStarted, DealVoided, Event, GameEnded, GameStarted, OpeningBalance
from .record import DealRecord
from .scoring import Scoring
from .text import printable
from .verdicts import DealClosed, Follower, GameOpened, Provisional, Rewound, Rows, Standing, Verdict

__all__ = ["Tally", "Items", "ADJUSTED"]

ADJUSTED: tuple[str, ...] = ("pool", "mountain", "points")
"""The columns of a balance or an adjustment written for one player (whists, soups on another; the bula apart)."""


class Items:
    """A game's folded items (deal records, balances, adjustments) in order, for refolding after a void.

    The newest :attr:`KEEP` stay in memory; older ones are pickled to a temporary file, so a game
    that never ends holds a bounded number of them in memory whatever its length. A :meth:`frozen` copy reads
    the items as they were while this goes on (the file is only appended to, and read at offsets).
    """

    KEEP: ClassVar[int] = 2048

    def __init__(self) -> None:
        self.recent: list[tuple[str, object]] = []
        self.first = 0  # the index of recent[0]
        self.spill: IO[bytes] | None = None
        self.offsets = array("q")
        self.spilled_to = 0  # where the spill file's items end

    def __len__(self) -> int:
        return self.first + len(self.recent)

    def append(self, item: tuple[str, object]) -> None:
        self.recent.append(item)
        if len(self.recent) > 2 * self.KEEP:
            import pickle
            import tempfile

            if self.spill is None:
                self.spill = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the fold
            self.spill.seek(0, os.SEEK_END)
            for old in self.recent[: self.KEEP]:
                self.offsets.append(self.spill.tell())
                pickle.dump(old, self.spill, protocol=pickle.HIGHEST_PROTOCOL)
            self.spill.flush()  # read back at offsets, by this or a frozen copy
            self.spilled_to = self.spill.tell()
            del self.recent[: self.KEEP]
            self.first += self.KEEP

    def replace_last(self, item: tuple[str, object]) -> None:
        """Put ``item`` in the place of the newest item (which is always in memory)."""
        self.recent[-1] = item

    def pop_last(self) -> None:
        """Take the newest item away (it is always in memory)."""
        self.recent.pop()

    def get(self, index: int) -> tuple[str, object]:
        """Item ``index``."""
        if index >= self.first:
            return self.recent[index - self.first]
        import pickle

        assert self.spill is not None
        start = self.offsets[index]
        end = self.offsets[index + 1] if index + 1 < len(self.offsets) else self.spilled_to
        return pickle.loads(os.pread(self.spill.fileno(), end - start, start))  # type: ignore[no-any-return]

    def since(self, index: int) -> Iterator[tuple[str, object]]:
        """Every item from ``index`` on."""
        for i in range(index, self.first):  # read at an offset each time (in get): two may be read at once
            yield self.get(i)
        yield from self.recent[max(index, self.first) - self.first:]

    def close(self) -> None:
        if self.spill is not None:
            self.spill.close()

    def frozen(self) -> Items:
        """The items as they are now, read while this goes on: a copy that shares the spill file (only ever
        appended to, and read at offsets), with its own list of the newest and its own offsets."""
        other = Items()
        other.recent, other.first, other.spill, other.offsets = list(self.recent), self.first, self.spill, \
            array("q", self.offsets)
        other.spilled_to = self.spilled_to
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Items:
        """A :meth:`frozen` copy."""
        return self.frozen()


@attrs.frozen
class _Snapshot:
    """The tally's state before item ``at``: where a refold after a void starts."""

    at: int
    totals: Totals
    streak: int
    current_deal: int
    problems: int
    bad_entry: str | None
    deal_sum: Num
    rows: int


class Tally:
    """One game's totals, kept from its items (see the module docstring).

    A ``deal_voided`` refolds from the last snapshot before the voided deal (one every :attr:`EVERY` items), so
    voids cost the deals after them, not the whole game. ``follower`` is told what the game's items write
    (:mod:`~vistlog.events.verdicts`): with ``detail``, each deal's record once and every row written (without,
    only where the game stands when it closes: a fold that keeps no entries pays for nothing more); ``eager``:
    where the game stands after every change, not only when it closes (a live view).
    """

    EVERY: ClassVar[int] = 32
    SNAPSHOTS: ClassVar[int] = 64

    def __init__(self, started: GameStarted, scoring: Scoring, follower: Follower | None = None,
                 detail: bool = False, eager: bool = False) -> None:
        self.started = started
        self.game = started.game
        self.players = list(started.players)
        self.options = started.rules.options
        self.scoring = scoring
        self.size = started.pool or 0
        self.follower = follower
        self.detail = detail and follower is not None
        self.eager = eager and follower is not None
        self.items = Items()
        self.void_keys: set[int] = set()  # the deal records struck out, by the seq of their deal_started
        self.live = array("q")  # deal number → the seq of the record that stands for it (0: none)
        self.replacement_of: dict[int, int] = {}  # a voided record → the item that records its deal again
        self.replacements: set[int] = set()  # those items: folded right after the record they replace
        self.ended = False
        self.deals = 0
        self.totals = scoring.totals(self.players)
        self.streak = 0
        self.current_deal = 0
        self.snapshots: list[_Snapshot] = []
        self.scoring_problems: list[tuple[int, str, int]] = []  # deal, message, seq of the event
        self.bad_entry: str | None = None
        self.deal_sums: dict[int, Num] = {}  # a game whose deals sum to 0: each deal's sum
        self.rows = 0
        """How many rows were told (with detail): a refold withdraws those after a snapshot's count."""
        self.told: list[Entry] = []  # the rows of the item being applied, to be told
        self.names = {p: p for p in self.players}  # the rows name the game's own copy of each name
        self.reasons: dict[str, str] = {}  # and one string for each reason: a long game repeats them
        self.last: DealRecord | None = None
        """The last deal record counted: a deal that goes on after it seemed over (a whist called after a
        half-whist), or whose allocations are agreed after it, amends it (:meth:`flush`)."""
        self.provisional_out = False  # a Provisional deal was told and not yet withdrawn
        self.trying = False
        """Events are only being tried (:func:`vistlog.events.nextstep.next_step`,
        :meth:`~vistlog.events.checker.LogChecker.rehearse`): nothing is counted; a deal handed over meanwhile is
        weighed on :attr:`tried` instead."""
        self.tried: Totals | None = None
        """While trying: the totals with the deal handed over meanwhile (what the questions below answer on, as
        they would once it is counted); put back by whoever tried."""
        if follower is not None:
            follower(GameOpened(started))
        for column, player, amount, reason, on in self.scoring.opening(self.players, self.started.pool):
            self._write(0, column, player, amount, reason, on)
        self._tell_rows()
        self.snapshots.append(self._snapshot())
        if self.eager:
            self._tell(self.standing())

    # ------------------------------------------------------------------ questions

    def over(self, ended: DealRecord | None = None) -> bool:
        """The rules end the game on these totals: every pool closed (Serbian: the bulas add up to 0); with
        ``ended``, a deal not counted yet, on the totals it would make (nothing is counted)."""
        base = self.totals if self.tried is None else self.tried
        if ended is None or self._live(ended.number) == ended.seq:
            return self.scoring.over(base, self.size)
        totals = base.copy()
        score = self.scoring.score(self.options, self.size, self.players, ended, totals, self.streak)
        for column, player, amount, _reason, on in score.rows:
            totals.add(column, player, amount, on)
        return self.scoring.over(totals, self.size)

    def held(self, column: str, player: str) -> Num:
        """What ``player`` has in ``column`` (Serbian: ``refe``, his unplayed refe)."""
        return (self.totals if self.tried is None else self.tried).value(player, column)

    def faults(self) -> list[tuple[str, str, int | None]]:
        """What scoring found wrong so far, as (code, message, seq of the event it is about): an allocation that
        does not add up (``allocation-sum``), a deal that is not zero-sum (``zero-sum``)."""
        found: list[tuple[str, str, int | None]] = [
            ("allocation-sum", f"deal {deal}: {message}", seq) for deal, message, seq in self.scoring_problems]
        why = self.zero_sum_problem()
        if why:
            found.append(("zero-sum", f"game {self.started.game}: {why}", None))
        return found

    def zero_sum_problem(self) -> str | None:
        """Why some deal is not zero-sum, or ``None``.

        A game whose deals sum to 0 (Solo Whist's points): the points of every deal must add up to 0. Preferans:
        a deal is zero-sum in whists by the value model itself (pool and mountain are valued against the mean, a
        whist is a claim of one player on another), so what can break it is an entry that is not an exact claim
        between players of the game; the game's settlement is summed exactly by the read side. Entries are
        checked as they are written (:meth:`_write`).
        """
        if self.bad_entry is not None:
            return self.bad_entry
        for deal, total in self.deal_sums.items():
            if total != 0 and deal != 0:
                return f"deal {deal} is not zero-sum: its points add up to {fmt(total)}"
        return None

    def standing(self, final: bool = False, why_open: str | None = None) -> Standing:
        """Where the game stands (``final``: it is closed, and the totals are handed over rather than copied; a
        follower told every row keeps its own totals, and is told none before the game closes)."""
        totals = self.totals if final else None if self.detail else self.totals.copy()
        return Standing(self.game, totals, self.deals,
                        frozenset(self.void_keys), tuple(self.scoring_problems), self.zero_sum_problem(),
                        self.scoring.over(self.totals, self.size), self.ended, final, why_open)

    # ------------------------------------------------------------------ feeding

    def tell_standing(self) -> None:
        """Tell the follower where the game stands now."""
        self._tell(self.standing())

    def feed(self, ev: Event, ended: DealRecord | None = None) -> None:
        """An accepted event that is not part of a deal, after the deal that ``ended`` (if any) is scored."""
        if self.trying:
            return
        self.flush(ended)
        kind = type(ev)
        if kind is DealStarted:
            self.deals = max(self.deals, ev.deal)  # type: ignore[union-attr]
        elif kind is OpeningBalance:
            self._add_item("opening", ev)
        elif kind is Adjustment:
            self._add_item("adjustment", ev)
        elif kind is DealVoided:
            key = self._live(ev.deal)  # type: ignore[union-attr]
            if key is not None:
                self.void_keys.add(key)
            self._refold(ev.deal)  # type: ignore[union-attr]
        elif kind is GameEnded:
            self.ended = True
        if self.eager:
            self._tell(self.standing())

    def flush(self, ended: DealRecord | None) -> None:
        """Score a deal that has ended (``None``: none has; a record counted already is not counted again, nor one
        that ends only in events being tried)."""
        if ended is None:
            return
        if self.trying:  # weighed as it would count, nothing counted
            if self.tried is None and self._live(ended.number) != ended.seq:
                totals = self.totals.copy()
                score = self.scoring.score(self.options, self.size, self.players, ended, totals, self.streak)
                for column, player, amount, _reason, on in score.rows:
                    totals.add(column, player, amount, on)
                self.tried = totals
            return
        if self._live(ended.number) == ended.seq:  # counted already, when the deal seemed over
            last = self.last
            if last is not None and last.seq == ended.seq and ended != last:
                self._amend(ended)
            return
        rec = self.last = ended
        voided = self._live(rec.number)
        if len(self.live) <= rec.number:
            self.live.extend(bytes(8 * (rec.number + 1 - len(self.live))))
        self.live[rec.number] = rec.seq
        if self.detail:
            self._tell(DealClosed(self.game, rec))
        if rec.replaces and voided is not None:
            # the deal as it really was: folded in the voided record's place, and everything after it again
            self.replacement_of[voided] = len(self.items)
            self.replacements.add(len(self.items))
            self.items.append(("deal", rec))
            self._refold(rec.number)
        else:
            self._add_item("deal", rec)
        if self.eager:
            self._tell(self.standing())

    def close(self, why_open: str | None = None) -> None:
        """The game is closed (it ended, or the file did: ``why_open``, why it could not stop there): its final
        standing is told, and its items let go."""
        self._tell(self.standing(True, why_open))
        self.items.close()

    def _amend(self, ended: DealRecord) -> None:
        """The last deal counted again as it ended after all (a whist called after a half-whist, the allocations
        agreed since): its item replaced, the game refolded from the snapshot before it."""
        self.last = ended
        if self.detail:
            self._tell(DealClosed(self.game, ended, amends=True))
        self.items.replace_last(("deal", ended))
        self._refold(ended.number)

    def provisional(self, ended: DealRecord | None) -> None:
        """Tell a live follower the deal under way as it would be scored if nothing more came (``None``: no deal
        has ended, and one told before is withdrawn); nothing is counted."""
        if not self.eager or self.trying:
            return
        if ended is None or self._live(ended.number) == ended.seq:
            if self.provisional_out:
                self.provisional_out = False
                self._tell(Provisional(self.game, None))
            return
        totals = self.totals.copy()
        score = self.scoring.score(self.options, self.size, self.players, ended, totals, self.streak)
        entries = []
        for column, player, amount, reason, on in score.rows:
            totals.add(column, player, amount, on)
            entries.append(self._entry(ended.number, column, player, amount, reason, on, False))
        self._tell(Provisional(self.game, ended, tuple(entries), totals))
        self.provisional_out = True

    def _tell(self, verdict: Verdict) -> None:
        follower = self.follower
        if follower is not None:
            if self.provisional_out and type(verdict) is not Provisional:
                self.provisional_out = False
                follower(Provisional(self.game, None))
            follower(verdict)

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

    def _snapshot(self, at: int = 0) -> _Snapshot:
        return _Snapshot(at, self.totals.copy(), self.streak, self.current_deal, len(self.scoring_problems),
                         self.bad_entry, self.deal_sums.get(self.current_deal, 0), self.rows)

    def _add_item(self, kind: str, item: object) -> None:
        if len(self.items) % self.EVERY == 0 and len(self.items) > self.snapshots[-1].at:
            self._take_snapshot(len(self.items))
        self.items.append((kind, item))
        self._apply_item(kind, item)

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
        self.current_deal = deal = snap.current_deal
        del self.scoring_problems[snap.problems:]
        self.bad_entry = snap.bad_entry
        for d in [d for d in self.deal_sums if d >= deal]:
            del self.deal_sums[d]
        if snap.deal_sum:
            self.deal_sums[deal] = snap.deal_sum
        if self.detail:
            self.rows = snap.rows
            self._tell(Rewound(self.game, snap.rows))
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
            score = self.scoring.score(self.options, self.size, self.players, item, self.totals, self.streak)
            for message, seq in score.problems:
                self.scoring_problems.append((n, message, seq))
            if item.seq in self.void_keys:  # shown, never counted
                if self.detail:
                    self.told = [self._entry(n, c, p, x, why, on, True) for c, p, x, why, on in score.rows]
                    self._tell_rows()
                return
            for column, player, amount, reason, on in score.rows:
                self._write(n, column, player, amount, reason, on)
            self._tell_rows()
            self.streak = self.scoring.streak(self.options, item, self.streak)
            return
        assert isinstance(item, (OpeningBalance, Adjustment))
        deal = 0 if kind == "opening" else self.current_deal
        reason = printable(getattr(item, "reason", None) or "agreed")
        why = "opening balance" if kind == "opening" else ADJUSTMENT_REASON + reason
        rows: list[tuple[str, str, Num, str | None]] = [
            (column, p, x, None) for column in ADJUSTED for p, x in getattr(item, column).items()]
        rows += [("whists", w, x, t) for w, row in item.whists.items() for t, x in row.items()]
        rows += [("bula", p, x - (self.started.pool or 0) if kind == "opening" else x, None)  # the bula carried over
                 for p, x in item.bula.items()]
        rows += [("soups", w, x, t) for w, row in item.soups.items() for t, x in row.items()]
        for column, p, x, on in rows:
            if x:
                self._write(deal, column, p, x, why, on)
        self._tell_rows()

    def _write(self, deal: int, column: str, player: str, amount: Num, reason: str, on: str | None = None
               ) -> None:
        """Count one number written on the sheet; the first that breaks zero-sum is noted."""
        if self.bad_entry is None:
            players = self.players
            if player not in players or (on is not None and (on not in players or on == player)):
                entry = Entry(deal, column, player, amount, reason, on)
                self.bad_entry = f"deal {deal}: an entry names somebody who is not another player ({entry.describe()})"
            elif not isinstance(amount, (int, Fraction)) or isinstance(amount, bool):
                self.bad_entry = f"deal {deal}: {amount!r} is not an exact number"
            elif self.scoring.deals_sum_to_zero:
                self.deal_sums[deal] = self.deal_sums.get(deal, 0) + amount
        if self.detail:
            self.told.append(self._entry(deal, column, player, amount, reason, on, False))
        self.totals.add(column, player, amount, on)

    def _entry(self, deal: int, column: str, player: str, amount: Num, reason: str, on: str | None,
               void: bool) -> Entry:
        names = self.names
        return Entry(deal, column, names.get(player, player), amount, self.reasons.setdefault(reason, reason),
                     None if on is None else names.get(on, on), void)

    def _tell_rows(self) -> None:
        if self.told:
            told, self.told = tuple(self.told), []
            self.rows += len(told)
            self._tell(Rows(self.game, told))
