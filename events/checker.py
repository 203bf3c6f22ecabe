"""The checker of a whole file: ``seq`` runs 1, 2, 3…; every event names a game that was started; each
game's events go to the state of its variant (:func:`vistlog.events.variants.find_variant`).

>>> from vistlog.events.codec import decode
>>> chk = LogChecker()
>>> chk.check(decode(b'{"seq":1,"type":"game_started","game":"g","kind":"preferans",'
...                  b'"players":["A","B","C"],"pool":10,"rules":{"preset":"sochi"}}'))
[]
>>> chk.check(decode(b'{"seq":3,"type":"deal_started","game":"g","deal":1,"dealer":"A"}'))
[Issue(code='seq-order', field='seq', message='expected 2, got 3 (a line is missing, repeated or out of order)')]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from .codec import LARGEST
from .entries import Totals
from .game import DealState, GameSnapshot, GameState, Table
from .ids import IdTable
from .nextstep import Next, next_step
from .notation import notation_word
from .model import (
    DEAL_EVENTS, Adjustment, Allocation, CardPlayed, Claim, DealStarted, DealVoided, Discard, Event, GameEnded,
    GameStarted, ScoreRecorded,
)
from .problems import Issue, Problem
from .tally import Tally
from .verdicts import Follower
from .text import blank_characters, ignorable_characters, lookalike_keys, printable, unsafe_characters
from .variants import find_variant

__all__ = ["LogChecker", "MAX_PLAYERS"]

UNREHEARSED: Final = frozenset({CardPlayed, Claim, Discard, Allocation})
"""What :meth:`LogChecker.rehearse` does not try: card play (a deal's play is kept as it is, not copied)."""

_STAKE = re.compile(r"\d{1,12}(\.\d{1,6})?", re.ASCII)


MAX_PLAYERS: Final = 4
"""The most players any game has (Preferans with a sitting-out dealer, Solo Whist)."""


class LogChecker:
    """Checks the events of one file in order; see the module docstring.

    ``follower`` is told what the accepted events came to (:mod:`~vistlog.events.verdicts`): each game opened,
    with ``detail`` each deal's record once it has ended and every row its scoring wrote, and each game's standing
    when it closes (``eager``: after every change, and a deal as soon as it has ended, for a live view). After
    a refused event the rest of its deal is skipped quietly, as a file is read, so that one mistake is said once.
    """

    def __init__(self, follower: Follower | None = None, detail: bool = False, eager: bool = False) -> None:
        self.follower = follower
        self.detail = detail
        self.eager = eager
        self.games: dict[str, GameState] = {}
        self.bad_games: set[str] = set()
        self.ended = IdTable()
        """Games that have ended: their state is released, only the id is kept (compactly)."""
        self.next_seq = 1
        self.rehearsing = False

    def __call__(self, ev: Event) -> list[Issue]:
        return self.check(ev)

    def check(self, ev: Event) -> list[Issue]:
        """The problems of ``ev``; an empty list when it is legal (and then applied).

        One dispatch for the common event (in order, of the current deal of a game under way):
        straight to the game's handler. Other events of a known game go through
        :meth:`GameState.check` (which a game's class may extend); anything else through the
        checks in full, which say what is wrong.
        """
        seq = ev.seq
        if seq == self.next_seq and ev.v == 1 and type(ev) is not GameStarted:
            state = self.games.get(ev.game)
            if state is not None:
                self.next_seq = seq + 1
                if type(ev) in DEAL_EVENTS and not state.ended:
                    d = state.deal
                    handler = state.HANDLERS.get(type(ev))
                    if d is not None and handler is not None and ev.deal == d.number and not d.broken:  # type: ignore[union-attr]
                        issues = handler(state, ev)
                        if issues:
                            self.mark_broken(ev)
                        elif self.eager:
                            state.catch_up()
                        return issues
                issues = state.check(ev)
                if issues:
                    self.mark_broken(ev)
                elif state.ended:
                    self._release(ev.game)
                elif self.eager:
                    state.catch_up()
                return issues
        issues = self._check_in_full(ev)
        if issues:
            self.mark_broken(ev)
        return issues

    def go_live(self) -> None:
        """From now on tell each game's standing after every change and a deal as soon as it seems over (as
        ``eager``), and tell now, for every game under way, where it stands and the deal that seems over: what a live
        view asks once it has read a log's start without them (cheaper than telling every deal of it)."""
        self.eager = True
        for state in self.games.values():
            state.tally.eager = state.tally.follower is not None
            if state.tally.eager:
                state.tally.tell_standing()
                state.catch_up()

    def admit(self, ev: Event) -> list[Issue]:
        """The same as :meth:`check` (the name a writer's check goes by)."""
        return self.check(ev)

    def event(self, lineno: int, ev: Event) -> list[Issue]:
        """:meth:`check`, as a writer's :class:`~vistlog.events.log.Sink` is fed (the line is not needed)."""
        return self.check(ev)

    def unreadable(self, lineno: int, problem: Problem) -> None:
        """A line of the log that is no event (:meth:`note_unreadable`)."""
        if problem.code != "torn-line":
            self.note_unreadable(problem.game, problem.event_type, problem.deal, problem.seq)

    def rehearse(self, events: Sequence[Event], then: Callable[[], list[Issue]] | None = None
                 ) -> list[list[Issue]] | None:
        """Each event's problems were they checked now, in order, and ``then``'s (asked once they have all been
        tried, on the state after them) as one list more; the checker is then as it was, and nothing was told.

        A writer tries a batch first, so that one refused costs nothing and one accepted is checked once for
        real (:class:`~vistlog.events.log.LogWriter`). A deal handed over on the way is weighed, not counted
        (:attr:`~vistlog.events.tally.Tally.tried`). ``None`` for a batch with card play
        (:data:`UNREHEARSED`): check it for real.

        >>> from vistlog.events.codec import decode_obj
        >>> chk = LogChecker()
        >>> chk.check(decode_obj({"seq": 1, "type": "game_started", "game": "g", "kind": "preferans",
        ...                       "players": ["A", "B", "C"], "pool": 10, "rules": {"preset": "sochi"}}))
        []
        >>> deal = [decode_obj({"seq": 2, "type": "deal_started", "game": "g", "deal": 1, "dealer": "A"}),
        ...         decode_obj({"seq": 3, "type": "bid", "game": "g", "deal": 1, "player": "C", "bid": "6S"})]
        >>> [[i.code for i in issues] for issues in chk.rehearse(deal)]
        [[], ['bid-out-of-turn']]
        >>> chk.next_seq, chk.games["g"].deals_started
        (2, 0)
        """
        if any(type(ev) in UNREHEARSED for ev in events):
            return None
        next_seq, follower, bad, games = self.next_seq, self.follower, set(self.bad_games), set(self.games)
        kept: list[tuple[GameState, GameSnapshot, bool, Totals | None]] = []
        seen: set[str] = set()
        self.follower, self.rehearsing = None, True
        out: list[list[Issue]] = []
        try:
            for ev in events:
                state = self.games.get(ev.game)
                if state is not None and ev.game not in seen:
                    seen.add(ev.game)
                    kept.append((state, state.snapshot(), state.tally.trying, state.tally.tried))
                    state.tally.trying = True
                out.append(self.check(ev))
            if then is not None:
                out.append(then())
        finally:
            while kept:
                state, saved, trying, tried = kept.pop()
                state.restore(saved)
                state.tally.trying, state.tally.tried = trying, tried
            for game in [g for g in self.games if g not in games]:  # started in the rehearsal
                del self.games[game]
            self.next_seq, self.follower, self.bad_games = next_seq, follower, bad
            self.rehearsing = False
        return out

    def under_way(self) -> list[str]:
        """The games under way, in the order they started."""
        return list(self.games)

    def open_deal(self, game: str, deal: int | None) -> str | None:
        """Why deal ``deal`` of ``game`` is not finished, when it is the deal under way and is not (else ``None``)."""
        state = self.games.get(game)
        if state is None or state.deal is None or state.deal.number != deal:
            return None
        return state.unfinished()

    def next_step(self, game: str, draft: Sequence[Mapping[str, Any] | Event] = (), *, declarer: str | None = None,
                  contract: str | None = None, all_pass: bool = False, auction: bool = False) -> Next:
        """What may come next in ``game`` (under way) with ``draft`` tried on it, the game left as it was
        (:func:`~vistlog.events.nextstep.next_step`)."""
        return next_step(self.games[game], draft, declarer=declarer, contract=contract, all_pass=all_pass,
                         auction=auction)

    def table(self, game: str) -> Table | None:
        """Where ``game`` stands (None when it is not under way in this file)."""
        state = self.games.get(game)
        return state.table() if state is not None else None

    def _release(self, game: str, why_open: str | None = None) -> None:
        if self.rehearsing:  # an ended game stays, and says so to whatever is tried after
            return
        state = self.games.pop(game)
        state.tally.flush(state.hand_over())
        state.tally.close(why_open)
        self.ended.add(game)

    def _check_in_full(self, ev: Event) -> list[Issue]:
        issues: list[Issue] = []
        if ev.seq != self.next_seq:
            issues.append(Issue("seq-order", "seq", f"expected {self.next_seq}, got {ev.seq}"
                           + (" (a line is missing, repeated or out of order)" if ev.seq > 0 else "")))
        self.next_seq = max(ev.seq, 0) + 1
        if ev.v != 1:
            return [*issues, Issue("version", "v", f"format version {ev.v} is not supported (this program reads v1)")]
        if not ev.game:
            return [*issues, Issue("game-empty", "game", "empty game id")]
        if isinstance(ev, GameStarted):
            return issues + self._start(ev)
        state = self.games.get(ev.game)
        if state is None:
            if ev.game in self.ended:
                return [*issues, Issue("after-game-ended", "type",
                                       f"game {ev.game} has ended; nothing may follow game_ended")]
            if ev.game in self.bad_games:
                return issues
            self.bad_games.add(ev.game)
            return [*issues, Issue("game-not-started", "game", f"game {ev.game!r} has no game_started before it")]
        issues += state.check(ev)
        if state.ended and not issues:
            self._release(ev.game)
        return issues

    def _start(self, ev: GameStarted) -> list[Issue]:
        if ev.game in self.games or ev.game in self.bad_games or ev.game in self.ended:
            return [Issue("game-twice", "game", f"game {ev.game!r} was already started in this file")]
        issues = self._game_fields(ev)
        if issues:
            self.bad_games.add(ev.game)
            return issues
        variant = find_variant(ev.rules.preset)
        tally = Tally(ev, variant.scoring, self.follower, self.detail, self.eager)
        self.games[ev.game] = variant.start(ev, tally)
        return []

    @staticmethod
    def _game_fields(ev: GameStarted) -> list[Issue]:
        n = len(ev.players)
        bad = unsafe_characters(ev.game)
        if bad or not unicodedata.is_normalized("NFC", ev.game):
            why = f"control or format characters ({bad})" if bad else "not in Unicode NFC form"
            return [Issue("game-id-invalid", "game", f"{printable(ev.game)!r}: {why}")]
        if ev.pool is not None and not -LARGEST <= ev.pool <= LARGEST:
            return [Issue("number-too-large", "pool", f"pool = {str(ev.pool)[:20]}…: past the largest number a log "
                                                      f"holds ({LARGEST})")]
        if n > MAX_PLAYERS:  # before any per-name work: a list of 100,000 names is refused at once
            return [Issue("players-count", "players", f"a game has at most {MAX_PLAYERS} players, not {n}")]
        seen: dict[str, str] = {}
        for i, name in enumerate(ev.players):
            if not name.strip():
                return [Issue("player-name-empty", f"players.{i}", "a player's name is empty")]
            bad = unsafe_characters(name)
            if bad:
                return [Issue("player-name-invalid", f"players.{i}",
                              f"{printable(name)!r} holds control or format characters ({bad})")]
            bad = ignorable_characters(name)
            if bad:  # a name that prints like another, or as nothing
                return [Issue("player-name-invalid", f"players.{i}",
                              f"{printable(name)!r} holds characters that print as nothing ({bad}): two names "
                              "would look alike")]
            if not unicodedata.is_normalized("NFC", name):
                return [Issue("player-name-not-nfc", f"players.{i}",
                              f"{name!r} is not in Unicode NFC form; write it {unicodedata.normalize('NFC', name)!r}")]
            keys = lookalike_keys(name)
            if not keys[0]:
                return [Issue("player-name-empty", f"players.{i}",
                              f"{printable(name)!r} prints blank ({blank_characters(name)}): a player's name is empty")]
            if blank_characters(name[0] + name[-1]):
                trimmed = name.strip().strip("\u2800")
                return [Issue("player-name-spaces", f"players.{i}",
                              f"{printable(name)!r} has blanks at its ends ({blank_characters(name[0] + name[-1])}); "
                              f"write it {printable(trimmed)!r}")]
            word = notation_word(name)
            if word is not None:
                return [Issue("player-name-notation", f"players.{i}",
                              f"{printable(name)!r} " + ("is" if word == name else f"holds {word!r},") +
                              " a word of the deal notation (a deal line would read it as that word, not as the "
                              "player): give the player another name")]
            if name in seen.values():
                return [Issue("player-twice", f"players.{i}", f"{name} is listed twice")]
            other = seen.get(keys[0]) or seen.get(keys[1])
            if other is not None:
                return [Issue("players-look-alike", f"players.{i}",
                              f"{printable(name)!r} looks like {printable(other)!r} (case, ё/е or letters of "
                              "another alphabet): two players of one game need names a reader tells apart")]
            seen.update(dict.fromkeys(keys, name))
        if ev.rules.kind is not ev.kind:
            return [Issue("preset-other-game", "rules.preset", f"{ev.rules.preset} is a {ev.rules.kind.value} preset, "
                                     f"not for {ev.kind.value}")]
        issues = find_variant(ev.rules.preset).game.start_issues(ev)
        if issues:
            return issues
        if ev.stake is not None and not _STAKE.fullmatch(ev.stake):
            return [Issue("stake-invalid", "stake", f"{ev.stake!r} is not a decimal amount such as \"0.10\"")]
        return []

    def note_unreadable(self, game: str | None, event_type: str | None, deal: int | None,
                        seq: int | None = None) -> None:
        """A line of ``game`` could not be decoded: it still took its place in the file (its
        ``seq``), and what depends on it is skipped quietly."""
        self.next_seq = (seq if seq is not None and seq > 0 else self.next_seq) + 1
        if game is None:
            return
        if event_type == "game_started":
            if game not in self.games:
                self.bad_games.add(game)
            return
        state = self.games.get(game)
        if state is None:
            return
        if event_type == "deal_started":
            state.tally.flush(state.hand_over())  # the deal before it has ended
        if event_type == "deal_started" and deal == state.deals_started + 1:
            state.deals_started = deal
            state.deal = state.new_deal(deal, None, list(state.players), None)
            state.deal.broken = True
        elif state.deal is not None and not state.deal.finished:
            state.deal.broken = True

    def deal_of(self, game: str) -> DealState | None:
        """The current deal of ``game`` (``None`` when none, or the game is unknown or has ended): for the
        write side's own use (the card-level importer derives tricks from it); the read side is handed
        the deals' records through its tally."""
        state = self.games.get(game)
        return state.deal if state is not None else None

    def end(self) -> None:
        """The file has ended (or is read no further): every game still open is closed where it stands, its
        last deal scored and its final standing told, with why it could not stop there (if it could not)."""
        for game in list(self.games):
            self._release(game, self.open_at_end(game))

    def open_at_end(self, game: str) -> str | None:
        """Why ``game`` cannot stop where the file ends (its deal is unfinished), unless that was
        said already when the game tried to end or go on; ``None`` when it may."""
        state = self.games.get(game)
        why = state.unfinished() if state is not None else None
        if why and state is not None and state.deal is not None and state.reported_unfinished == state.deal.number:
            return None
        return why

    def expect_seq(self, seq: int) -> None:
        """The next event comes with ``seq`` (lines read but not checked, such as those that could not
        be decoded, still took their place)."""
        self.next_seq = seq

    def mark_broken(self, ev: Event) -> None:
        """After a refused event: skip the rest of its deal quietly."""
        state = self.games.get(ev.game)
        if state is None or isinstance(ev, GameStarted):
            return
        if state.deal is not None and not isinstance(ev, (GameEnded, DealVoided, ScoreRecorded, Adjustment)):
            if isinstance(ev, DealStarted):
                # a refused deal_started: the deal still took its number, so later deals line up
                if type(ev.deal) is int and ev.deal == state.deals_started + 1 and ev.dealer in state.players:
                    state.deals_started = ev.deal
                    state.deal = state.new_deal(ev.deal, ev.dealer, [p for p in state.players], ev)
                    state.deal.broken = True
                return
            state.deal.broken = True
