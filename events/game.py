"""The game state machine: given the game so far, is the next event legal?

:class:`LogChecker` checks a whole file: ``seq`` runs 1, 2, 3…; every event names a game
that was started; each game's events go to its state. As python-chess has a board class per
variant, each game has a class on the shared :class:`GameState` (the envelope: players, deal
numbers and rotation, voids, checkpoints, the end): :class:`PreferansGame`, :class:`SoloWhistGame`
and :class:`vistlog.events.serbian.SerbianGame`, which fill in the auction, the contract, the
play and the columns of their own game (:func:`game_class` picks one). ``check`` returns the
problems of one event as :class:`~vistlog.events.problems.Issue` values (code, field,
message), and an empty list when the event is legal; a refused event changes nothing. After a
refused event the rest of that deal is skipped without further complaint (``deal_broken``) and
checking resumes at the next deal, so one mistake is reported once and never hides the next game.

The machine never scores. The one rule that needs the score (no deal after every pool is
closed) asks a :class:`ClosureOracle` that the caller may supply (the projections do).

>>> from vistlog.events.codec import decode
>>> chk = LogChecker()
>>> chk.check(decode(b'{"seq":1,"type":"game_started","game":"g","kind":"preferans",'
...                  b'"players":["A","B","C"],"pool":10,"rules":{"preset":"sochi"}}'))
[]
>>> chk.check(decode(b'{"seq":2,"type":"deal_started","game":"g","deal":2,"dealer":"A"}'))
[Issue(code='deal-out-of-order', field='deal', message='expected deal 1, got 2')]
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, Protocol, cast

import attrs

from .cards import (
    PREFERANS_DECK, SOLO_ORDER, SOLO_WHIST_DECK, Bid, Card, GameKind, Suit, WhistCall, all_bids, final_calls,
    half_stands, is_raspas,
)
from .model import (
    DEAL_EVENTS, Adjustment, Allocation, BidMade, CardPlayed, ContractMade, DealStarted, DealVoided, Discard, Event,
    GameEnded, GameStarted, OpeningBalance, ScoreRecorded, Tricks, WhistMade,
)
from .ids import IdTable
from .play import Play
from .problems import Issue
from .text import ignorable_characters, printable, unsafe_characters
from .rules import PreferansOptions, SoloWhistOptions
from .seating import clockwise, defenders, dealer_sits_out, holders

__all__ = ["LogChecker", "GameState", "PreferansGame", "SoloWhistGame", "DealState", "SoloWhistDeal", "ClosureOracle",
           "Issue", "game_class", "Table"]

_STAKE = re.compile(r"^\d{1,12}(\.\d{1,6})?$")


class ClosureOracle(Protocol):
    """Tells the checker whether a game's pools are all closed (the projections know)."""

    def all_pools_closed(self, game: str) -> bool:
        """True when every player of ``game`` has closed the pool (Serbian: the bulas add up to 0)."""
        ...

    def under_refa(self, game: str, player: str) -> bool:
        """Serbian preferans: ``player`` holds an unplayed refa, so his next game is doubled."""
        ...


@attrs.frozen
class Table:
    """Where a game stands for whoever records its next deal (the score pad, ``vistlog deal``)."""

    game: str
    kind: GameKind
    tricks_total: int | None
    """What a deal's tricks add up to (None where play may stop once the outcome is decided)."""
    players: tuple[str, ...]
    next_deal: int
    """The number the next new deal gets."""
    dealer: str | None
    """Who deals it; None before the first deal (anybody may)."""
    first_to_speak: str | None
    """Who speaks (and leads) first in it: the first holder to the dealer's left."""
    holders: tuple[str, ...]
    """Who holds cards in it (in a four-handed Preferans game the dealer sits out)."""
    open_deal: int | None
    """A deal that has started and is not finished (its next event must finish it)."""
    voided: tuple[tuple[int, str], ...]
    """Voided deals not yet recorded again, each with its dealer."""
    ended: bool
    """A ``game_ended`` was recorded."""
    over: bool = False
    """The rules end the game here: no deal may start (every pool closed; Serbian: the bulas at 0)."""
    dealer_sits_out: bool = False
    """In a four-handed Preferans game the dealer holds no cards."""
    contracts: tuple[str, ...] = ()
    """The contracts of this game, lowest first, as the log writes them."""
    calls: tuple[str, ...] = ()
    """The defenders' calls its rules allow (none in Solo Whist), then its kontras (Serbian)."""
    flags: tuple[str, ...] = ()
    """What else a deal of this game may say: ``bomb``, ``turned`` (of the deal); ``dark``,
    ``without_three``, ``totus``, ``igra``, ``partner``, ``trump`` (of the contract)."""

    def holders_for(self, dealer: str) -> tuple[str, ...]:
        """Who holds cards when ``dealer`` deals, from his left."""
        return tuple(holders(list(self.players), dealer, dealer_sits_out=self.dealer_sits_out))


class DealState:
    """Where one deal stands: the auction, the contract, the defence, the play."""

    def __init__(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None) -> None:
        self.number = number
        self.dealer = dealer
        self.holders = holders
        self.started = started
        self.bids: list[tuple[str, Bid]] = []
        self.passed: set[str] = set()
        self.silent: set[str] = set()
        self.highest: tuple[str, Bid] | None = None
        self.cop: str | None = None
        self.auction_over = False
        self.all_passed = False
        self.contract: ContractMade | None = None
        self.calls: list[tuple[str, WhistCall]] = []
        self.defenders: list[str] = []
        self.needs_calls = False
        self.discarded: tuple[Card, ...] | None = None
        self.play: Play | None = None
        self.tricks: Tricks | None = None
        self.finished = False
        self.without_play = False
        self.redeal = False
        self.broken = False
        self.replacement = False  # this deal records a voided one again

    @property
    def begun(self) -> DealStarted:
        """The ``deal_started`` event (every deal that is not broken has one)."""
        assert self.started is not None
        return self.started

    def tricks_taken(self) -> tuple[dict[str, int] | None, str | None]:
        """The tricks each player took and who took the last, as far as the deal shows them:
        from its ``tricks`` event, else from its cards once every trick is played (``None`` when
        not known). What the read side asks of a finished deal's play."""
        taken = last = None
        if self.tricks is not None:
            taken, last = dict(self.tricks.taken), self.tricks.last
        elif self.play is not None and self._play_over():
            taken = dict(self.play.taken)
        if self.play is not None and self.play.complete:
            last = self.play.last_winner
        return taken, last

    def _play_over(self) -> bool:
        """The card play has ended (here: every trick is played)."""
        assert self.play is not None
        return self.play.complete

    @property
    def raspas(self) -> bool:
        """True for a Preferans deal that everybody passed (no contract): :func:`~vistlog.events.cards.is_raspas`."""
        return is_raspas(self.contract, self.all_passed, self.tricks is not None or self.play is not None)


class GameState:
    """One game's state: players, rules, the current deal, whether it has ended.

    ``HANDLERS`` maps each event class to the method that checks and applies it; a game with
    other rules (:class:`vistlog.events.serbian.SerbianGame`) is a subclass with its own.
    """

    HANDLERS: ClassVar[dict[type, Callable[[Any, Any], list[Issue]]]]

    def __init__(self, started: GameStarted, oracle: ClosureOracle | None) -> None:
        self.started = started
        self.id = started.game
        self.kind = started.kind
        self.players = list(started.players)
        self.player_set = frozenset(self.players)
        n = len(self.players)
        self._clockwise = {p: clockwise(self.players, p) for p in self.players}
        self.dealer_sits_out = dealer_sits_out(self.kind is GameKind.PREFERANS, self.players)
        self._n = n
        self.options = started.rules.options
        self.oracle = oracle
        self.deal: DealState | None = None
        self.deals_started = 0
        self.voided: set[int] = set()
        self.ended = False
        self.raspas_by_dealer = 0
        self.raspas_run = 0  # raspasy in a row before the current deal (raspas_exit)
        self.replaced: set[int] = set()  # voided deals recorded again (replaces_voided)
        self.dealers = bytearray()  # who dealt each deal, as 1 + his place (a deal recorded again keeps its dealer)
        self.regular: DealState | None = None  # the last deal in number order, for the rotation
        self.reported_unfinished: int | None = None

    # ------------------------------------------------------------------ helpers

    @property
    def pref(self) -> PreferansOptions:
        """The options of a Preferans game."""
        assert isinstance(self.options, PreferansOptions)
        return self.options

    @property
    def solo(self) -> SoloWhistOptions:
        """The options of a Solo Whist game."""
        assert isinstance(self.options, SoloWhistOptions)
        return self.options

    def left_of(self, player: str, among: list[str] | None = None) -> list[str]:
        """Players clockwise starting after ``player`` (only those in ``among``)."""
        order = self._clockwise[player]
        return order if among is None else [p for p in order if p in among]

    def _player(self, name: str, field: str, *, holder: bool = False) -> list[Issue]:
        if name not in self.player_set:
            return [Issue("player-unknown", field, f"{name!r} is not a player of game {self.id}{self._guess(name)}")]
        if holder and self.deal is not None and name not in self.deal.holders:
            return [Issue("player-sits-out", field, f"{name} deals and sits this deal out")]
        return []

    def _guess(self, name: str) -> str:
        """`` (did you mean X?)`` when one player's name is close: case, е/ё, a letter or two."""
        def fold(s: str) -> str:
            return s.casefold().replace("ё", "е")

        same = [p for p in self.players if fold(p) == fold(name)]
        close = same or difflib.get_close_matches(name, self.players, n=1, cutoff=0.7)
        return f" (did you mean {close[0]}?)" if len(close) == 1 or same else ""

    def _names(self, names: Mapping[str, object] | list[str], field: str) -> list[Issue]:
        for name in names:
            if name not in self.players:
                return [Issue("player-unknown", f"{field}.{name}",
                              f"{name!r} is not a player of game {self.id}{self._guess(name)}")]
        return []

    # ------------------------------------------------------------------ dispatch

    def check(self, ev: Event) -> list[Issue]:
        """The problems of ``ev`` in this game now; applies it when there are none."""
        if self.ended:
            return [Issue("after-game-ended", "type", f"game {self.id} has ended; nothing may follow game_ended")]
        handler = self.HANDLERS.get(type(ev))
        if handler is None:
            return [Issue("event-misplaced", "type", f"{ev.type} is not allowed here")]
        if type(ev) in DEAL_EVENTS:
            d = self.deal
            if d is None:
                return [Issue("deal-not-started", "deal", f"no deal has started in game {self.id}")]
            deal: int = ev.deal  # type: ignore[union-attr]
            if deal != d.number:
                return [Issue("deal-not-current", "deal", f"deal {deal} is not the current deal {d.number}")]
            if d.broken:
                return []
        return handler(self, ev)

    def new_deal(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None
                 ) -> DealState:
        """A fresh deal of this game (a subclass for another game returns its own deal class)."""
        return DealState(number, dealer, holders, started)

    def unfinished(self) -> str | None:
        """Why the current deal is not finished, or ``None``."""
        d = self.deal
        if d is None or d.finished or d.broken or (d.number in self.voided and not d.replacement):
            return None
        if d.contract is None and not d.auction_over and not d.bids:
            return f"deal {d.number} has no result (no contract, no tricks)"
        if d.needs_calls and not self._calls_done():
            return f"deal {d.number}: the defenders have not both spoken"
        return f"deal {d.number} has no tricks"

    def next_dealer(self) -> str | None:
        """Who deals the next deal (the rotation, and a raspas dealer's repeats); None before the
        first deal, which anybody may deal."""
        prev = self.regular
        if prev is None or prev.dealer is None:
            return None
        return prev.dealer if self._dealer_deals_again(prev) else self.left_of(prev.dealer)[0]

    def table(self) -> Table:
        """Where the game stands for whoever records the next deal."""
        dealer = self.next_dealer()
        holding = holders(self.players, dealer, dealer_sits_out=self.dealer_sits_out) if dealer else []
        d = self.deal
        open_deal = d.number if d is not None and self.unfinished() is not None else None
        voided = tuple((n, self.players[self.dealers[n] - 1]) for n in sorted(self.voided - self.replaced))
        return Table(game=self.id, kind=self.kind, tricks_total=None if self.PLAY_MAY_STOP else self.kind.tricks,
                     players=tuple(self.players), next_deal=self.deals_started + 1, dealer=dealer,
                     first_to_speak=holding[0] if holding else None, holders=tuple(holding), open_deal=open_deal,
                     voided=voided, ended=self.ended, over=open_deal is None and self._game_over(),
                     dealer_sits_out=self.dealer_sits_out,
                     contracts=self.CONTRACTS, calls=self.calls_allowed(), flags=self.flags_allowed())

    CONTRACTS: ClassVar[tuple[str, ...]] = ()
    """The contracts of the game, lowest first."""

    def calls_allowed(self) -> tuple[str, ...]:
        """The defenders' calls (and kontras) the rules of this game allow."""
        return ()

    def flags_allowed(self) -> tuple[str, ...]:
        """What else a deal of this game may say (see :attr:`Table.flags`)."""
        return ()

    # ------------------------------------------------------------------ what each game's class says

    PLAY_MAY_STOP: ClassVar[bool] = False
    """Play may stop once the outcome is decided, so a deal's tricks may total less than all."""
    GAME: ClassVar[str] = "Preferans"
    """The game's name in messages."""
    ALL_PASS: ClassVar[str] = ""
    """What everybody passing is called, for messages."""
    AUCTION_ENDS_BEFORE_CONTRACT: ClassVar[bool] = True
    LAST_TRICK_NEEDED: ClassVar[bool] = False
    GAME_OVER: ClassVar[str] = ("every pool is closed: game {game} is over (the rules end it so); "
                                "record its game_ended, or start a new game")
    """Why no deal may start once :meth:`_game_over` says so."""
    """A deal without contract may be played (Solo Whist's general misère) and then needs ``last``."""

    def _game_over(self) -> bool:
        """The rules end the game now (asked before a deal starts)."""
        return False

    def _dealer_deals_again(self, prev: DealState) -> bool:
        """After ``prev`` the same dealer deals again."""
        return False

    def _after_deal(self, prev: DealState) -> None:
        """What a finished deal changes for the next ones."""

    def _deal_fields(self, ev: DealStarted) -> list[Issue]:
        """Problems of a ``deal_started``'s cards and bomb."""
        raise NotImplementedError

    def _auction(self, d: DealState, ev: BidMade) -> list[Issue]:
        """Problems of a bid (the base class has checked the player and that the auction is open)."""
        raise NotImplementedError

    def _contract_rules(self, d: DealState, ev: ContractMade) -> list[Issue]:
        """Problems of a contract under this game's rules."""
        raise NotImplementedError

    def _play_allowed(self, d: DealState) -> str | None:
        """Why no card may be played now, or ``None``."""
        raise NotImplementedError

    def _new_play(self, d: DealState, hands: Mapping[str, tuple[Card, ...]]) -> Play:
        """The play of the deal: who holds what, who leads, the trump."""
        raise NotImplementedError

    def _balance_columns(self, ev: OpeningBalance) -> list[Issue]:
        """Problems of the columns of a balance or an adjustment."""
        return []

    def _sheet_columns(self, name: str, line: Any) -> list[Issue]:
        """Problems of the columns of one line of a recorded sheet (here: those of the Russian games)."""
        if line.bula is not None or line.soups is not None or line.result is not None:
            return [Issue("bula-russian", f"sheet.{name}", "bula, soups and result belong to Serbian preferans")]
        return []

    # ------------------------------------------------------------------ deal start

    def _deal_started(self, ev: DealStarted) -> list[Issue]:
        issues = self._player(ev.dealer, "dealer")
        if issues:
            return issues
        if ev.replaces_voided or (ev.deal in self.voided and ev.deal not in self.replaced):
            return self._replacement(ev)
        if ev.deal != self.deals_started + 1:
            return [Issue("deal-out-of-order", "deal", f"expected deal {self.deals_started + 1}, got {ev.deal}")]
        why = self.unfinished()
        if why:
            self.reported_unfinished = self.deal.number if self.deal else None
            return [Issue("deal-unfinished", "deal", f"{why}; deal {ev.deal} cannot start")]
        if self.deals_started and self._game_over():
            return [Issue("pools-closed", "deal", self.GAME_OVER.format(game=self.id))]
        prev = self.regular
        expected = self.next_dealer()
        if expected is not None and ev.dealer != expected:
            return [Issue("dealer-wrong", "dealer", f"{expected} deals deal {ev.deal}, not {ev.dealer}")]
        issues = self._deal_fields(ev)
        if issues:
            return issues
        if prev is not None and prev.dealer is not None and prev.dealer == ev.dealer:
            self.raspas_by_dealer += 1
        else:
            self.raspas_by_dealer = 0
        if prev is not None and prev.finished and not prev.broken and prev.number not in self.voided:
            self._after_deal(prev)
        holding = holders(self.players, ev.dealer, dealer_sits_out=self.dealer_sits_out)
        self.deals_started = ev.deal
        self.deal = self.regular = self.new_deal(ev.deal, ev.dealer, holding, ev)
        if len(self.dealers) <= ev.deal:
            self.dealers.extend(bytes(ev.deal + 1 - len(self.dealers)))
        self.dealers[ev.deal] = 1 + self.players.index(ev.dealer)
        return []

    def _replacement(self, ev: DealStarted) -> list[Issue]:
        """A voided deal recorded again, as it really was (``replaces_voided``)."""
        if not ev.replaces_voided:
            return [Issue("deal-replace-flag-missing", "replaces_voided",
                          f"deal {ev.deal} was voided: record it again with \"replaces_voided\": true")]
        if ev.deal not in self.voided:
            return [Issue("deal-not-voided", "replaces_voided", f"deal {ev.deal} was not voided: nothing to replace")]
        if ev.deal in self.replaced:
            return [Issue("deal-replaced-twice", "replaces_voided",
                          f"deal {ev.deal} was already recorded again; void it again first")]
        why = self.unfinished()
        if why:
            self.reported_unfinished = self.deal.number if self.deal else None
            return [Issue("deal-unfinished", "deal", f"{why}; deal {ev.deal} cannot be recorded again")]
        place = self.dealers[ev.deal] if 0 <= ev.deal < len(self.dealers) else 0
        dealer = self.players[place - 1] if place else None
        if dealer is not None and ev.dealer != dealer:
            return [Issue("dealer-wrong", "dealer", f"{dealer} dealt deal {ev.deal}, not {ev.dealer}")]
        issues = self._deal_fields(ev)
        if issues:
            return issues
        self.replaced.add(ev.deal)
        holding = holders(self.players, ev.dealer, dealer_sits_out=self.dealer_sits_out)
        self.deal = self.new_deal(ev.deal, ev.dealer, holding, ev)
        self.deal.replacement = True
        return []

    def _hands(self, hands: Mapping[str, tuple[Card, ...]], holders: list[str], size: int,
               deck: frozenset[Card], game: str) -> list[Issue]:
        issues = self._names(hands, "hands")
        if issues:
            return issues
        if set(hands) != set(holders):
            missing = [p for p in holders if p not in hands]
            if missing:
                return [Issue("hand-missing", "hands", f"no hand for {', '.join(missing)}")]
            extra = [p for p in hands if p not in holders]
            return [Issue("hand-of-sitting-out", f"hands.{extra[0]}",
                          f"{extra[0]} sits this deal out and holds no cards")]
        seen: set[Card] = set()
        for player, cards in hands.items():
            if len(cards) != size:
                return [Issue("hand-size", f"hands.{player}", f"{len(cards)} cards; a {game} hand has {size}")]
            for card in cards:
                if card not in deck:
                    return [Issue("card-not-in-deck", f"hands.{player}", f"{card} is not a {game} card")]
                if card in seen:
                    return [Issue("card-dealt-twice", f"hands.{player}", f"{card} is dealt twice")]
                seen.add(card)
        return []

    # ------------------------------------------------------------------ auction

    def _bid(self, ev: BidMade) -> list[Issue]:
        d = self.deal
        assert d is not None
        issues = self._player(ev.player, "player", holder=True)
        if issues:
            return issues
        if d.contract is not None:
            return [Issue("auction-over", "bid", "the auction is over: the contract is set")]
        if d.auction_over:
            return [Issue("auction-over", "bid", "the auction is over")]
        return self._auction(d, ev)

    def _next_speaker(self, d: DealState, can_speak: set[str]) -> str | None:
        last = d.bids[-1][0] if d.bids else None
        order = self.left_of(last, d.holders) if last else d.holders
        for p in order:
            if p in can_speak:
                return p
        return None

    def _contract(self, ev: ContractMade) -> list[Issue]:
        d = self.deal
        assert d is not None
        issues = self._player(ev.declarer, "declarer", holder=True)
        if issues:
            return issues
        if d.contract is not None:
            return [Issue("contract-twice", "contract",
                          f"deal {d.number} already has a contract ({d.contract.contract})")]
        if d.all_passed:
            return [Issue("contract-after-all-pass", "contract", "everybody passed: there is no contract"
                     + self.ALL_PASS)]
        if d.redeal:
            return [Issue("contract-prop-not-accepted", "contract",
                          "the prop was not accepted: the hands are thrown in")]
        if d.bids and not d.auction_over and self.AUCTION_ENDS_BEFORE_CONTRACT:
            return [Issue("contract-auction-open", "contract", "the auction is not over")]
        if d.tricks is not None or d.play is not None:
            return [Issue("contract-after-play", "contract", "play has begun: too late for a contract")]
        if ev.igra:
            return [Issue("igra-russian", "igra", "igra belongs to Serbian preferans")]
        issues = self._contract_rules(d, ev)
        if issues:
            return issues
        d.contract = ev
        d.auction_over = True
        return []

    def _calls_done(self) -> bool:
        d = self.deal
        assert d is not None
        return len(d.calls) >= 2

    def _whists_outcome(self, d: DealState) -> str:
        """``play`` when someone whists, ``none`` when both passed or a half stands."""
        if any(c is WhistCall.WHIST for c in final_calls(d.calls).values()):
            return "play"
        return "none"

    def _preferans_player(self, player: str, what: str) -> list[Issue]:
        """Problems of a Preferans-only event made by ``player``, who must hold cards."""
        return self._player(player, "player", holder=True)

    def _whist(self, ev: WhistMade) -> list[Issue]:
        d = self.deal
        assert d is not None
        issues = self._preferans_player(ev.player, "a whist call")
        if issues:
            return issues
        if d.contract is None:
            return [Issue("whist-no-contract", "type", "no contract to whist against")]
        if not d.needs_calls:
            c = d.contract
            why = ("a misère is never whisted" if c.contract.is_misere else
                   "a тотус has no whist calls" if c.totus else
                   "the declarer gave up without three" if c.without_three else
                   f"a 10-game is not whisted under ten_game {self.pref.ten_game}")
            return [Issue("whist-not-called-for", "call", why)]
        if d.tricks is not None or d.play is not None:
            return [Issue("whist-after-play", "call", "play has begun")]
        first, second = d.defenders
        calls = [c for _, c in d.calls]
        n = len(calls)
        if n == 0:
            expected = first
        elif n == 1:
            expected = second
        elif n == 2 and calls == [WhistCall.PASS, WhistCall.HALF]:
            expected = first
        else:
            return [Issue("whist-too-many", "player", "both defenders have spoken")]
        if ev.player != expected:
            return [Issue("whist-out-of-turn", "player", f"it is {expected}'s call, not {ev.player}'s")]
        if ev.call is WhistCall.INVITE:
            return [Issue("invite-russian", "call", "invite (zovem) belongs to Serbian preferans")]
        if ev.call is WhistCall.HALF:
            if n != 1 or calls[0] is not WhistCall.PASS:
                return [Issue("half-whist-misplaced", "call",
                              "half (полвиста) is only for the second defender after the first passed")]
            if not self.pref.half_whist:
                return [Issue("half-whist-off", "call",
                              f"the rules of game {self.id} have no half-whist (option half_whist)")]
            if d.contract.contract.level not in (6, 7):
                return [Issue("half-whist-level", "call",
                              f"half-whist is only on a 6 or 7, not on {d.contract.contract}")]
        if n == 2 and ev.call is WhistCall.HALF:
            return [Issue("whist-after-half", "call", "the first defender may only whist or pass after a half")]
        d.calls.append((ev.player, ev.call))
        decided = len(d.calls) >= 2 and self._whists_outcome(d) == "none"
        d.finished = d.without_play = decided
        return []

    # ------------------------------------------------------------------ play

    def _holders_for_tricks(self, d: DealState) -> tuple[list[str], list[str]]:
        """(who must be listed, who may be listed) in ``tricks.taken``."""
        may = list(d.holders)
        if self.dealer_sits_out and d.contract is None and self.pref.talon_tricks_to_dealer:
            may.append(d.begun.dealer)
        return d.holders, may

    def _tricks(self, ev: Tricks) -> list[Issue]:
        d = self.deal
        assert d is not None
        if d.tricks is not None:
            return [Issue("tricks-twice", "type", f"deal {d.number} already has its tricks")]
        why = self._play_allowed(d)
        if why:
            return [Issue("tricks-without-play", "taken", why)]
        must, may = self._holders_for_tricks(d)
        issues = self._tricks_listed(ev, must, may, lambda name: Issue(
            "player-sits-out", f"taken.{name}", f"{name} deals and sits this deal out"))
        if issues:
            return issues
        total_needed = self.kind.tricks
        for name, n in ev.taken.items():
            if not 0 <= n <= total_needed:
                return [Issue("tricks-range", f"taken.{name}", f"{n} tricks is not 0..{total_needed}")]
        if ev.total != total_needed:
            return [Issue("tricks-sum", "taken",
                          f"taken adds up to {ev.total}, a {self.GAME} deal has {total_needed} tricks")]
        if ev.last is not None:
            issues = self._player(ev.last, "last", holder=True)
            if issues:
                return issues
            if ev.taken.get(ev.last, 0) == 0:
                return [Issue("last-trick-wrong", "last", f"{ev.last} took no trick, so not the last one")]
        if self.LAST_TRICK_NEEDED and d.contract is None and ev.last is None and d.play is None:
            return [Issue("last-trick-missing", "last", "a general misère needs who took the last trick (field last)")]
        if d.play is not None:
            if not d.play.complete:
                return [Issue("tricks-not-played", "taken", f"the cards show only {d.play.trick_no - 1} tricks played")]
            derived = d.play.taken
            if any(ev.taken.get(p, 0) != derived.get(p, 0) for p in {*derived, *ev.taken}):
                shown = ", ".join(f"{p} {n}" for p, n in derived.items())
                return [Issue("tricks-differ-from-cards", "taken", f"the cards give {shown}")]
        d.tricks = ev
        d.finished = True
        d.without_play = False
        return []

    def _tricks_listed(self, ev: Tricks, must: list[str], may: list[str], not_here: Callable[[str], Issue]
                       ) -> list[Issue]:
        """``tricks.taken`` names players of the game, every one of ``must`` and none but ``may``."""
        for name in ev.taken:
            if name not in self.players:
                return [Issue("player-unknown", f"taken.{name}",
                              f"{name!r} is not a player of game {self.id}{self._guess(name)}")]
            if name not in may:
                return [not_here(name)]
        missing = [p for p in must if p not in ev.taken]
        if missing:
            return [Issue("tricks-missing", "taken", f"no tricks for {', '.join(missing)}")]
        return []

    def _card(self, ev: CardPlayed) -> list[Issue]:
        d = self.deal
        assert d is not None
        if d.tricks is not None:
            return [Issue("card-after-tricks", "card", "the tricks are already recorded")]
        if d.play is None:  # once play has begun, nothing that decides whether it may is accepted
            why = self._play_allowed(d)
            if why:
                return [Issue("card-without-play", "card", why)]
            hands = d.begun.hands
            if hands is None:
                return [Issue("card-without-hands", "card", "card-level play needs the hands in deal_started")]
            d.play = self._new_play(d, hands)
        err = d.play.play(ev.player, ev.card)
        if err:
            return [Issue(err[0], "card", err[1])]
        if d.play.complete:
            d.finished = True
        return []

    def _discard(self, ev: Discard) -> list[Issue]:
        d = self.deal
        assert d is not None
        issues = self._preferans_player(ev.player, "a discard")
        if issues:
            return issues
        if d.discarded is not None:
            return [Issue("discard-twice", "cards", "the discard is already recorded")]
        if len(ev.cards) != 2 or ev.cards[0] == ev.cards[1]:
            return [Issue("discard-size", "cards", "a discard is two different cards")]
        if d.contract is not None and ev.player != d.contract.declarer:
            return [Issue("discard-not-declarer", "player",
                          f"{d.contract.declarer} declares and discards, not {ev.player}")]
        if d.highest is not None and d.contract is None and ev.player != d.highest[0]:
            return [Issue("discard-not-declarer", "player",
                          f"{d.highest[0]} won the auction and discards, not {ev.player}")]
        if d.play is not None or d.tricks is not None:
            return [Issue("discard-after-play", "cards", "play has begun")]
        issues = self._discarded_held(d, ev)
        if issues:
            return issues
        d.discarded = ev.cards
        return []

    def _discarded_held(self, d: DealState, ev: Discard) -> list[Issue]:
        """The two cards put away were in the declarer's hand or the talon (when the cards are known)."""
        hands = d.begun.hands
        if hands is not None:
            held = set(hands.get(ev.player, ())) | set(d.begun.talon or ())
            for card in ev.cards:
                if card not in held:
                    return [Issue("discard-not-held", "cards", f"{ev.player} does not hold {card} (hand and talon)")]
        return []

    def _allocation(self, ev: Allocation) -> list[Issue]:
        d = self.deal
        assert d is not None
        issues = self._player(ev.player, "player") or self._names(ev.help, "help")
        if issues:
            return issues
        if ev.player in ev.help:
            return [Issue("allocation-self", f"help.{ev.player}", "a player does not help himself")]
        if not d.finished:
            return [Issue("allocation-undecided", "type", f"deal {d.number} is not decided yet")]
        return []

    # ------------------------------------------------------------------ outside deals

    def _opening(self, ev: OpeningBalance) -> list[Issue]:
        if self.deals_started:
            return [Issue("opening-balance-late", "type", "an opening balance comes before the first deal")]
        for name, m in (("pool", ev.pool), ("mountain", ev.mountain), ("points", ev.points)):
            issues = self._names(m, name)
            if issues:
                return issues
        for writer, row in ev.whists.items():
            issues = self._names([writer], "whists") or self._names(row, f"whists.{writer}")
            if issues:
                return issues
        if ev.bula or ev.soups:
            return [Issue("bula-russian", "bula", "bula and soups belong to Serbian preferans")]
        return self._balance_columns(ev)

    def _adjustment(self, ev: Adjustment) -> list[Issue]:
        as_balance = OpeningBalance(seq=ev.seq, game=ev.game, pool=ev.pool, mountain=ev.mountain,
                                    whists=ev.whists, points=ev.points, bula=ev.bula, soups=ev.soups)
        return [i for i in self._opening(as_balance) if i.field != "type"]

    def _voided(self, ev: DealVoided) -> list[Issue]:
        if not 1 <= ev.deal <= self.deals_started:
            return [Issue("void-unplayed", "deal",
                          f"deal {ev.deal} has not been played (last deal {self.deals_started})")]
        if ev.deal in self.voided and ev.deal not in self.replaced:
            return [Issue("void-twice", "deal", f"deal {ev.deal} is already void")]
        self.voided.add(ev.deal)
        self.replaced.discard(ev.deal)  # a deal recorded again may be voided again, then recorded again
        return []

    def _recorded(self, ev: ScoreRecorded) -> list[Issue]:
        if not 0 <= ev.after_deal <= self.deals_started:
            return [Issue("checkpoint-unplayed", "after_deal",
                          f"deal {ev.after_deal} has not been played (last deal {self.deals_started})")]
        issues = self._names(ev.sheet, "sheet")
        if issues:
            return issues
        for name, line in ev.sheet.items():
            issues = self._sheet_columns(name, line)
            if issues:
                return issues
            if line.whists:
                issues = self._names(line.whists, f"sheet.{name}.whists")
                if issues:
                    return issues
        return []

    def _ended(self, ev: GameEnded) -> list[Issue]:
        why = self.unfinished()
        if why:
            self.reported_unfinished = self.deal.number if self.deal else None
            return [Issue("game-end-unfinished", "type", f"{why}; the game cannot end here")]
        self.ended = True
        return []


GameState.HANDLERS = {
    DealStarted: GameState._deal_started, BidMade: GameState._bid, ContractMade: GameState._contract,
    WhistMade: GameState._whist, Tricks: GameState._tricks, CardPlayed: GameState._card,
    Discard: GameState._discard, Allocation: GameState._allocation, OpeningBalance: GameState._opening,
    Adjustment: GameState._adjustment, DealVoided: GameState._voided, ScoreRecorded: GameState._recorded,
    GameEnded: GameState._ended,
}


class PreferansGame(GameState):
    """A Russian Preferans game (sochi, leningrad, rostov, classic): pool, mountain, whists, raspasy."""

    CONTRACTS = tuple(b.text for b in sorted((b for b in all_bids() if b.auction_rank >= 0),
                                             key=lambda b: b.auction_rank))

    def calls_allowed(self) -> tuple[str, ...]:
        calls = (WhistCall.PASS, WhistCall.WHIST) + ((WhistCall.HALF,) if self.pref.half_whist else ())
        return tuple(c.value for c in calls)

    def flags_allowed(self) -> tuple[str, ...]:
        p = self.pref
        return (("bomb",) if p.bombs else ()) + ("without_three",) + (("dark",) if p.dark_games else ()) + (
            ("totus",) if p.totus else ())

    GAME = "Preferans"
    ALL_PASS = " (a raspas)"

    def _game_over(self) -> bool:
        return (self.pref.game_end == "pools_closed" and self.oracle is not None
                and self.oracle.all_pools_closed(self.id))

    def _dealer_deals_again(self, prev: DealState) -> bool:
        return prev.raspas and self.raspas_by_dealer + 1 < self.pref.raspas_dealer_repeats

    def _after_deal(self, prev: DealState) -> None:
        played = prev.tricks is not None or (prev.play is not None and prev.play.complete)
        self.raspas_run = self.pref.raspas_run(self.raspas_run, prev.raspas, prev.contract is not None, played)

    def _deal_fields(self, ev: DealStarted) -> list[Issue]:
        if not 0 <= ev.bomb <= 3:
            return [Issue("bomb-level", "bomb", f"bomb level {ev.bomb} is not 0..3")]
        if ev.bomb and not self.pref.bombs:
            return [Issue("bombs-off", "bomb", f"the rules of game {self.id} have no bombs (option bombs)")]
        if ev.turned is not None:
            return [Issue("turned-card-preferans", "turned", "a turned card belongs to Solo Whist, not Preferans")]
        if ev.talon is not None and len(ev.talon) != 2:
            return [Issue("talon-size", "talon", f"the talon has 2 cards, not {len(ev.talon)}")]
        if ev.hands is not None:
            holding = holders(self.players, ev.dealer, dealer_sits_out=self.dealer_sits_out)
            issues = self._hands(ev.hands, holding, 10, PREFERANS_DECK, "Preferans")
            if issues:
                return issues
            seen = {c for h in ev.hands.values() for c in h}
            for card in ev.talon or ():
                if card in seen:
                    return [Issue("talon-in-hand", "talon", f"{card} is in the talon and in a hand")]
                if card not in PREFERANS_DECK:
                    return [Issue("card-not-in-deck", "talon", f"{card} is not a Preferans card (7 to ace)")]
        return []

    def _auction(self, d: DealState, ev: BidMade) -> list[Issue]:
        bid = ev.bid
        if not bid.preferans:
            return [Issue("bid-unknown", "bid", f"{bid} is not a Preferans bid")]
        passed, silent, holding = d.passed, d.silent, d.holders
        expected = None
        for p in self._clockwise[d.bids[-1][0]] if d.bids else holding:
            if p not in passed and p not in silent and p in holding:
                expected = p
                break
        if ev.player != expected:
            return [Issue("bid-out-of-turn", "player", f"it is {expected}'s turn to bid, not {ev.player}'s")]
        o = cast(PreferansOptions, self.options)
        if bid.text == "hold":
            if not o.elder_hand_holds:
                return [Issue("hold-off", "bid",
                              f"the rules of game {self.id} have no «здесь» (option elder_hand_holds)")]
            if ev.player != d.holders[0]:
                return [Issue("hold-not-elder", "player", f"only the elder hand ({d.holders[0]}) holds («здесь»)")]
            if d.highest is None or d.highest[0] == ev.player:
                return [Issue("hold-nothing", "bid", "there is no bid of another player to hold")]
            bid = d.highest[1]
        elif not bid.is_pass and d.highest is not None and bid.auction_rank <= d.highest[1].auction_rank:
            return [Issue("bid-too-low", "bid", f"{bid} does not beat {d.highest[1]} ({d.highest[0]})")]
        if bid.is_misere and o.misere_first_word and any(p == ev.player for p, _ in d.bids):
            return [Issue("misere-not-first", "bid", f"misère is only a first word, and {ev.player} has spoken "
                                                     "(option misere_first_word)")]
        least = o.least_exit(self.raspas_run) if bid.level is not None else 0
        if bid.level is not None and bid.level < least:
            return [Issue("bid-below-raspas-exit", "bid",
                          f"after {self.raspas_run} raspas(y) in a row the least contract is {least} "
                          f"(option raspas_exit: {o.raspas_exit})")]
        d.bids.append((ev.player, ev.bid))
        if bid.is_pass:
            d.passed.add(ev.player)
        else:
            d.highest = (ev.player, bid)
            if bid.is_misere and o.misere_first_word:
                d.silent.add(ev.player)
        speakers = [p for p in holding if p not in passed and p not in silent]
        if d.highest is None:
            if not speakers:
                d.auction_over = d.all_passed = True
        elif not speakers or speakers == [d.highest[0]]:
            d.auction_over = True
        return []

    def _contract_rules(self, d: DealState, ev: ContractMade) -> list[Issue]:
        c = ev.contract
        o = self.pref
        if c.level is None and not c.is_misere:
            return [Issue("contract-unknown", "contract", f"{c} is not a Preferans contract (6S..10NT or misere)")]
        if ev.partner is not None or ev.trump is not None:
            return [Issue("contract-field-solo-whist", "partner" if ev.partner is not None else "trump",
                          "belongs to Solo Whist contracts")]
        if d.highest is not None:
            winner, top = d.highest
            if ev.declarer != winner:
                return [Issue("declarer-not-winner", "declarer", f"{winner} won the auction, not {ev.declarer}")]
            if top.is_misere != c.is_misere:
                return [Issue("contract-not-bid", "contract",
                              f"the auction was won with {top}; the contract cannot be {c}")]
            if not c.is_misere and c.auction_rank < top.auction_rank:
                return [Issue("contract-too-low", "contract", f"{c} is lower than the winning bid {top}")]
        if ev.dark and not o.dark_games:
            return [Issue("dark-games-off", "dark",
                          f"the rules of game {self.id} have no dark games (option dark_games)")]
        if ev.totus:
            if not o.totus:
                return [Issue("totus-off", "totus", f"the rules of game {self.id} have no тотус (option totus)")]
            if c.level != 10:
                return [Issue("totus-level", "totus", f"тотус is a 10-game, not {c}")]
            if len(ev.helps) > min(d.begun.bomb, 2):
                return [Issue("totus-helps", "helps", f"a тотус on bomb level {d.begun.bomb} helps at most "
                                  f"{min(d.begun.bomb, 2)} partner(s)")]
        elif ev.helps:
            return [Issue("helps-not-totus", "helps", "only a тотус helps partners")]
        for p in ev.helps:
            if p not in self.players or p == ev.declarer:
                return [Issue("helps-not-partner", "helps", f"{p!r} is not a partner of {ev.declarer}")]
        if ev.without_three and (c.is_misere or ev.totus):
            return [Issue("without-three-not-allowed", "without_three", f"{c} cannot be given up without three")]
        d.defenders = defenders(d.holders, ev.declarer)
        ten_called = c.level != 10 or o.ten_game == "whisted"
        d.needs_calls = not (ev.without_three or c.is_misere or ev.totus or not ten_called)
        if ev.without_three:
            d.finished = d.without_play = True
        return []

    def _play_allowed(self, d: DealState) -> str | None:
        if d.contract is None:
            if d.bids and not d.all_passed:
                return "the auction is not over"
            return None
        c = d.contract
        if c.without_three:
            return "the declarer gave up without three: there is no play"
        if d.needs_calls:
            if len(d.calls) < 2:
                return "the defenders have not both spoken"
            if self._whists_outcome(d) == "none":
                if half_stands(d.calls):
                    if self.pref.half_whist_played:
                        return None
                    return "the half-whist stands: the deal is decided without play"
                return "both defenders passed: the deal is decided without play"
        return None

    def _new_play(self, d: DealState, hands: Mapping[str, tuple[Card, ...]]) -> Play:
        held = {p: list(cs) for p, cs in hands.items()}
        c = d.contract
        trump = None
        talon_leads: tuple[Card, ...] = ()
        taker = None
        if c is not None:
            trump = c.contract.strain if c.contract.level is not None else None
            if d.discarded is not None:
                held[c.declarer] = [x for x in held[c.declarer] + list(d.begun.talon or ())
                                    if x not in d.discarded]
        else:
            talon_leads = d.begun.talon or ()
            if self.dealer_sits_out and self.pref.talon_tricks_to_dealer:
                taker = d.dealer
        return Play(held, d.holders, d.holders[0], trump, talon_leads=talon_leads,
                    talon_taker=taker, must_trump=True)

    def _balance_columns(self, ev: OpeningBalance) -> list[Issue]:
        if ev.points:
            return [Issue("points-in-preferans", "points",
                          "points belong to Solo Whist; Preferans has pool, mountain, whists")]
        return []

    def _sheet_columns(self, name: str, line: Any) -> list[Issue]:
        if line.points is not None:
            return super()._sheet_columns(name, line) or [
                Issue("points-in-preferans", f"sheet.{name}.points", "points belong to Solo Whist")]
        return super()._sheet_columns(name, line)


class SoloWhistDeal(DealState):
    """A Solo Whist deal: everybody passing is a redeal or the general misère, never a raspas."""

    @property
    def raspas(self) -> bool:
        """Solo Whist has no raspas."""
        return False


class SoloWhistGame(GameState):
    """A Solo Whist (вист-соло) game: four players, points, no talon, no whists."""

    CONTRACTS = tuple(b for b in SOLO_ORDER if b != "cop")

    def flags_allowed(self) -> tuple[str, ...]:
        flags = ("turned", "partner", "trump")
        return flags

    GAME = "Solo Whist"
    AUCTION_ENDS_BEFORE_CONTRACT = False
    LAST_TRICK_NEEDED = True

    def new_deal(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None
                 ) -> DealState:
        return SoloWhistDeal(number, dealer, holders, started)

    def _deal_fields(self, ev: DealStarted) -> list[Issue]:
        if ev.bomb:
            return [Issue("bomb-solo-whist", "bomb", "bombs belong to Preferans")]
        if ev.talon is not None:
            return [Issue("talon-solo-whist", "talon", "Solo Whist has no talon")]
        if ev.hands is not None:
            issues = self._hands(ev.hands, self.players, 13, SOLO_WHIST_DECK, "Solo Whist")
            if issues:
                return issues
            if ev.turned is not None and ev.turned not in ev.hands.get(ev.dealer, ()):
                return [Issue("turned-card-not-in-hand", "turned",
                              f"the turned card {ev.turned} is not in the dealer's hand")]
        return []

    def _auction(self, d: DealState, ev: BidMade) -> list[Issue]:
        bid = ev.bid
        if not bid.solo_whist:
            return [Issue("bid-unknown", "bid", f"{bid} is not a Solo Whist bid")]
        eldest = d.holders[0]
        can_speak = self._solo_can_speak(d)
        if ev.player not in can_speak:
            if ev.player in d.passed:
                return [Issue("bid-after-pass", "player", f"{ev.player} has passed and is out of the auction")]
            return [Issue("bid-by-holder", "player", f"{ev.player} holds the highest bid and cannot speak now")]
        expected = self._next_speaker(d, can_speak)
        cop_right = (bid.text == "cop" and ev.player == eldest and eldest in d.passed)
        if ev.player != expected and not cop_right:
            return [Issue("bid-out-of-turn", "player", f"it is {expected}'s turn to bid, not {ev.player}'s")]
        if bid.text == "cop":
            if d.highest is None or d.highest[1].text != "prop" or d.cop is not None:
                return [Issue("cop-without-prop", "bid", "a cop accepts a standing prop, and there is none")]
            if ev.player in d.passed and not cop_right:
                return [Issue("cop-late", "player", f"{ev.player} has passed; only {eldest} may still cop")]
            d.cop = ev.player
            d.passed.discard(ev.player)
        elif not bid.is_pass:
            if d.highest is not None and bid.solo_rank <= d.highest[1].solo_rank:
                return [Issue("bid-too-low", "bid", f"{bid} does not beat {d.highest[1]} ({d.highest[0]})")]
            if bid.text == "prop" and d.highest is not None:
                return [Issue("prop-not-first", "bid", "a prop only opens the auction")]
            d.highest = (ev.player, bid)
            d.cop = None
        else:
            d.passed.add(ev.player)
        d.bids.append((ev.player, bid))
        if not self._solo_can_speak(d, strict=True):
            d.auction_over = True
            if d.highest is None:
                d.all_passed = True
                d.redeal = self.solo.all_pass == "redeal"
            elif d.highest[1].text == "prop" and d.cop is None and (
                    self.solo.unaccepted_prop == "redeal" or d.highest[0] in d.passed):
                d.redeal = True
            d.finished = d.without_play = d.redeal
        return []

    def _solo_can_speak(self, d: DealState, strict: bool = False) -> set[str]:
        """Who may still call. ``strict`` leaves out the eldest's optional late cop."""
        holding = set()
        if d.highest is not None:
            holding.add(d.highest[0])
            if d.cop:
                holding.add(d.cop)
        out = {p for p in d.holders if p not in d.passed and p not in holding}
        if d.highest is None and len(d.passed) == len(d.holders):
            return set()
        if not out and d.highest is not None and d.highest[1].text == "prop" and d.cop is None:
            proposer = d.highest[0]
            if self.solo.unaccepted_prop == "proposer_may_raise" and proposer not in d.passed:
                out = {proposer}
            eldest = d.holders[0]
            if not strict and eldest != proposer and eldest in d.passed:
                out.add(eldest)
        return out

    # ------------------------------------------------------------------ contract

    def _contract_rules(self, d: DealState, ev: ContractMade) -> list[Issue]:
        c = ev.contract
        if not c.solo_whist or c.text in ("pass", "cop"):
            return [Issue("contract-unknown", "contract", f"{c} is not a Solo Whist contract")]
        for flag in ("dark", "without_three", "totus"):
            if getattr(ev, flag):
                return [Issue("contract-flag-preferans", flag, "belongs to Preferans")]
        if ev.helps:
            return [Issue("helps-solo-whist", "helps", "belongs to Preferans")]
        if d.highest is not None:
            winner, top = d.highest
            if (ev.declarer, c.text) != (winner, top.text):
                return [Issue("contract-not-bid", "contract",
                              f"the auction gave {top} to {winner}, not {c} to {ev.declarer}")]
        if c.text == "prop":
            if ev.partner is None:
                return [Issue("partner-missing", "partner", "a prop needs the accepting partner")]
            issues = self._player(ev.partner, "partner")
            if issues:
                return issues
            if ev.partner == ev.declarer:
                return [Issue("partner-self", "partner", "the partner must be another player")]
            if d.cop is not None and ev.partner != d.cop:
                return [Issue("partner-not-cop", "partner", f"{d.cop} accepted the prop, not {ev.partner}")]
        elif ev.partner is not None:
            return [Issue("partner-not-prop", "partner", f"only a prop has a partner, not {c}")]
        if ev.trump is not None and c.text != "abundance":
            return [Issue("trump-not-abundance", "trump", f"only an abundance names its trump; {c} does not")]
        if ev.trump is None and c.text == "abundance":
            return [Issue("trump-missing", "trump", "an abundance names its trump suit (field trump)")]
        return []

    # ------------------------------------------------------------------ defence

    def _play_allowed(self, d: DealState) -> str | None:
        if d.redeal:
            return "the hands were thrown in (redeal): there is no play"
        if d.contract is None:
            if d.all_passed and self.solo.all_pass == "general_misere":
                return None
            if d.all_passed:
                return "everybody passed and the rules redeal: there is no play"
            return "no contract yet"
        return None

    def _new_play(self, d: DealState, hands: Mapping[str, tuple[Card, ...]]) -> Play:
        held = {p: list(cs) for p, cs in hands.items()}
        c = d.contract
        text = c.contract.text if c is not None else "general_misere"
        turned = d.begun.turned.suit if d.begun.turned is not None else None
        trump_of: dict[str, Suit | None] = {"prop": turned, "solo": turned, "trump_abundance": turned,
                                            "abundance": c.trump if c is not None else None}
        leader = c.declarer if c is not None and text == "full_abundance" else d.holders[0]
        return Play(held, d.holders, leader, trump_of.get(text))


    def _preferans_player(self, player: str, what: str) -> list[Issue]:
        return [Issue("event-preferans-only", "type", f"{what} belongs to Preferans")]

    def _allocation(self, ev: Allocation) -> list[Issue]:
        return [Issue("allocation-solo-whist", "type", "an allocation belongs to Preferans")]

    def _balance_columns(self, ev: OpeningBalance) -> list[Issue]:
        if ev.pool or ev.mountain or ev.whists:
            return [Issue("points-only", "points", "a Solo Whist balance has points only")]
        return []

    def _sheet_columns(self, name: str, line: Any) -> list[Issue]:
        if line.pool is not None or line.mountain is not None or line.whists is not None:
            return super()._sheet_columns(name, line) or [
                Issue("points-only", f"sheet.{name}", "a Solo Whist sheet has points only")]
        return super()._sheet_columns(name, line)


PreferansGame.HANDLERS = {**GameState.HANDLERS, Allocation: PreferansGame._allocation}
SoloWhistGame.HANDLERS = {**GameState.HANDLERS, Allocation: SoloWhistGame._allocation}


def game_class(started: GameStarted) -> type[GameState]:
    """The checker class for a game's rules: :class:`GameState`, or the Serbian one."""
    if started.rules.preset == "serbian":
        from .serbian import SerbianGame  # the Serbian module builds on this one
        return SerbianGame
    return PreferansGame if started.kind is GameKind.PREFERANS else SoloWhistGame


MAX_PLAYERS: Final = 4
"""The most players any game has (Preferans with a sitting-out dealer, Solo Whist)."""


class LogChecker:
    """Checks the events of one file in order; see the module docstring."""

    def __init__(self, oracle: ClosureOracle | None = None) -> None:
        self.oracle = oracle
        self.games: dict[str, GameState] = {}
        self.bad_games: set[str] = set()
        self.ended = IdTable()
        """Games that have ended: their state is released, only the id is kept (compactly)."""
        self.next_seq = 1

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
                        return handler(state, ev)
                issues = state.check(ev)
                if state.ended:
                    self._release(ev.game)
                return issues
        return self._check_in_full(ev)

    def table(self, game: str) -> Table | None:
        """Where ``game`` stands (None when it is not under way in this file)."""
        state = self.games.get(game)
        return state.table() if state is not None else None

    def _release(self, game: str) -> None:
        del self.games[game]
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
        if state.ended:
            self._release(ev.game)
        return issues

    def _start(self, ev: GameStarted) -> list[Issue]:
        if ev.game in self.games or ev.game in self.bad_games or ev.game in self.ended:
            return [Issue("game-twice", "game", f"game {ev.game!r} was already started in this file")]
        issues = self._game_fields(ev)
        if issues:
            self.bad_games.add(ev.game)
            return issues
        self.games[ev.game] = game_class(ev)(ev, self.oracle)
        return []

    @staticmethod
    def _game_fields(ev: GameStarted) -> list[Issue]:
        n = len(ev.players)
        bad = unsafe_characters(ev.game)
        if bad or not unicodedata.is_normalized("NFC", ev.game):
            why = f"control or format characters ({bad})" if bad else "not in Unicode NFC form"
            return [Issue("game-id-invalid", "game", f"{printable(ev.game)!r}: {why}")]
        if n > MAX_PLAYERS:  # before any per-name work: a list of 100,000 names is refused at once
            return [Issue("players-count", "players", f"a game has at most {MAX_PLAYERS} players, not {n}")]
        seen: set[str] = set()
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
            if name in seen:
                return [Issue("player-twice", f"players.{i}", f"{name} is listed twice")]
            seen.add(name)
        if ev.rules.kind is not ev.kind:
            return [Issue("preset-other-game", "rules.preset", f"{ev.rules.preset} is a {ev.rules.kind.value} preset, "
                                     f"not for {ev.kind.value}")]
        if ev.rules.preset == "serbian":
            if n != 3:
                return [Issue("players-count", "players", f"Serbian preferans is for 3 players, not {n}")]
            if ev.pool is None or ev.pool < 2 or ev.pool % 2:
                return [Issue("pool-size", "pool", f"the bula must be an even number ≥ 2, not {ev.pool}")]
        elif ev.kind is GameKind.PREFERANS:
            if n not in (3, 4):
                return [Issue("players-count", "players", f"Preferans is for 3 or 4 players, not {n}")]
            if ev.pool is None:
                return [Issue("pool-missing", "pool", "a Preferans game needs the pool size")]
            if ev.pool < 1:
                return [Issue("pool-size", "pool", f"pool size {ev.pool} must be at least 1")]
        else:
            if n != 4:
                return [Issue("players-count", "players", f"Solo Whist is for 4 players, not {n}")]
            if ev.pool is not None:
                return [Issue("pool-solo-whist", "pool", "Solo Whist has no pool")]
        if ev.stake is not None and not _STAKE.match(ev.stake):
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
        if event_type == "deal_started" and deal == state.deals_started + 1:
            state.deals_started = deal
            state.deal = state.new_deal(deal, None, list(state.players), None)
            state.deal.broken = True
        elif state.deal is not None and not state.deal.finished:
            state.deal.broken = True

    def deal_of(self, game: str) -> DealState | None:
        """The current deal of ``game`` (``None`` when none, or the game is unknown or has ended)."""
        state = self.games.get(game)
        return state.deal if state is not None else None

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

    def game_of(self, ev: Event) -> GameState | None:
        """The state of the game an event belongs to (``None`` when unknown or broken)."""
        return self.games.get(ev.game)

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
