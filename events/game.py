"""The base of every game's state machine: given the game so far, is the next event legal?

As python-chess has a board class per variant, each game has a class on the shared
:class:`GameState`, which knows no game: it holds the envelope (players, deal numbers and the
rotation, voids and deals recorded again, hands, tricks and cards, balances, checkpoints, the end)
and asks its subclass for the rest through hooks (the auction, the contract, the play, the
columns, when the game is over). The games are subclasses, each in its own package of
:mod:`vistlog.events.games`, registered once in :data:`vistlog.events.variants.VARIANTS`;
:class:`~vistlog.events.checker.LogChecker` checks a whole file. ``check`` returns the problems of one event as
:class:`~vistlog.events.problems.Issue` values (code, field, message), and an empty list when the
event is legal; a refused event changes nothing. After a refused event the rest of that deal is
skipped without further complaint (``deal_broken``) and checking resumes at the next deal, so one
mistake is reported once and never hides the next game.

The rules that need the score (no deal after every pool is closed; a Serbian declarer under a refa) ask the
game's :class:`~vistlog.events.tally.Tally`, which the state keeps from the deal records it hands over itself
(:meth:`GameState.pools_closed`). The examples are :class:`~vistlog.events.checker.LogChecker`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, cast

from .cards import Card
from .native import mypyc_attr
from .model import (
    DEAL_EVENTS, Adjustment, BidMade, CardPlayed, ContractMade, DealStarted, DealVoided, Event,
    Claim, GameEnded, GameStarted, OpeningBalance, ScoreRecorded, Tricks,
)
from .problems import Issue
from .record import LONG_NAME, DealRecord
from .seating import clockwise, dealer_sits_out, holders
from .codec import LARGEST, too_big, unstructure
from .tally import Tally
from .text import free_text_problem

__all__ = ["GameState", "DealState", "GameHooks", "GameSnapshot", "Issue", "Table"]
from .gamehooks import D, DealState, GameHooks
from .table import Table


GameSnapshot = tuple[list[Any], list[tuple[DealState, list[Any]]]]
"""What :meth:`GameState.snapshot` gives: the game's own values, and each deal's with the deal."""
_NO_PLAY: Final = {"card": ("card-without-play", "card-without-hands"),
                   "claim": ("claim-without-play", "claim-without-hands")}
"""The codes of a card or a claim where the deal has no play, or no hands."""

_NUMBERS_BOUNDED: Final = frozenset({OpeningBalance, Adjustment, ScoreRecorded})
"""The events outside the checked ranges of play whose numbers are only bounded by :data:`LARGEST`."""
_FREE_TEXT: Final = frozenset({Adjustment, DealVoided, GameEnded})
"""The events that carry a person's own words (``reason``), checked by
:func:`~vistlog.events.text.free_text_problem`."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a game written outside vistlog subclasses it too
class GameState(GameHooks[D]):
    """One game's state: players, rules, the current deal, whether it has ended.

    ``HANDLERS`` maps each event class to the method that checks and applies it; a game with
    other rules (:class:`vistlog.events.games.serbian.game.SerbianGame`) is a subclass with its own.
    """

    HANDLERS: ClassVar[dict[type, Callable[[Any, Any], list[Issue]]]]

    def __init__(self, started: GameStarted, tally: Tally) -> None:
        self.started = started
        self.id = started.game
        self.kind = started.kind
        self.title = started.rules.variant  # the game's name in messages: its Variant's title (Variant.start)
        self.players = list(started.players)
        self.player_set = frozenset(self.players)
        n = len(self.players)
        self._clockwise = {p: clockwise(self.players, p) for p in self.players}
        self.dealer_sits_out = dealer_sits_out(self.DEALER_OUT_AT_FOUR, self.players)
        self._n = n
        self.options = started.rules.options
        self.tally = tally
        """The game's totals, kept from the deals this state hands over (:meth:`pools_closed`)."""
        self.deal: D | None = None
        self.deals_started = 0
        self.voided: set[int] = set()
        self.ended = False
        self.dealt_again = 0  # how many times in a row the same player dealt (a game may let a dealer deal again)
        self.replaced: set[int] = set()  # voided deals recorded again (replaces_voided)
        self.dealers = bytearray()  # who dealt each deal, as 1 + his place (a deal recorded again keeps its dealer)
        self.regular: D | None = None  # the last deal in number order, for the rotation
        self.reported_unfinished: int | None = None
        self.pending: D | None = None  # the deal not yet handed to the tally (hand_over)
        self.handing: D | None = None  # the one a deal_started just took the place of
        self.own_names = {p: p for p in self.players} if any(len(p) > LONG_NAME for p in self.players) else None
        """A deal's record refers to these rather than each event's copy: worth its cost for long names."""

    # ------------------------------------------------------------------ helpers

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
        import difflib
        same = [p for p in self.players if p.casefold().replace("ё", "е") == name.casefold().replace("ё", "е")]
        close = same or difflib.get_close_matches(name, self.players, n=1, cutoff=0.7)
        return f" (did you mean {close[0]}?)" if len(close) == 1 or same else ""

    def _names(self, names: Mapping[str, object] | list[str], field: str) -> list[Issue]:
        for name in names:
            if name not in self.players:
                return [Issue("player-unknown", f"{field}.{name}",
                              f"{name!r} is not a player of game {self.id}{self._guess(name)}")]
        return []

    # ------------------------------------------------------------------ trying events

    def snapshot(self) -> GameSnapshot:
        """What an event may change in this game and its deals (containers copied), for :meth:`restore`: events
        are tried and undone (:mod:`~vistlog.events.nextstep`, which has the tally count nothing meanwhile)."""
        deals: list[tuple[DealState, list[Any]]] = []
        for d in (self.deal, self.regular, self.pending, self.handing):
            if d is not None and all(d is not kept for kept, _ in deals):
                deals.append((d, d.snapshot()))
        own: list[Any] = [self.deal, self.deals_started, set(self.voided), self.ended, self.dealt_again,
                          set(self.replaced), bytearray(self.dealers), self.regular, self.reported_unfinished,
                          self.pending, self.handing]
        return own, deals

    def restore(self, snapshot: GameSnapshot) -> None:
        """Put back what :meth:`snapshot` gave (once: the containers it holds are the game's again)."""
        own, deals = snapshot
        (self.deal, self.deals_started, self.voided, self.ended, self.dealt_again, self.replaced, self.dealers,
         self.regular, self.reported_unfinished, self.pending, self.handing) = own[:11]
        for d, saved in deals:
            d.restore(saved)

    # ------------------------------------------------------------------ dispatch

    def check(self, ev: Event) -> list[Issue]:
        """The problems of ``ev`` in this game now; applies it when there are none."""
        if self.ended:
            return [Issue("after-game-ended", "type", f"game {self.id} has ended; nothing may follow game_ended")]
        handler = self.HANDLERS.get(type(ev))
        if handler is None:
            return [Issue("event-misplaced", "type", f"{ev.type} is not allowed here")]
        if type(ev) in _NUMBERS_BOUNDED:
            issues = self._bounded(ev)
            if issues:
                return issues
        if type(ev) in _FREE_TEXT:
            why = free_text_problem(cast(Adjustment | DealVoided | GameEnded, ev).reason)
            if why:
                return [Issue("reason-invalid", "reason", f"the reason {why}")]
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
        issues = handler(self, ev)
        if not issues:  # the deal that ended goes to the tally first
            self.tally.feed(ev, self.hand_over(type(ev) is DealStarted))
        return issues

    def _finished_record(self) -> DealRecord | None:
        """The record of the deal under way once it is finished (not handed over: more may still come)."""
        d = self.pending
        return self.record(d) if d is not None and d.finished and not d.broken else None

    def catch_up(self) -> None:
        """Tell a live follower the deal under way as it would be scored now, once finished (nothing is counted:
        :meth:`~vistlog.events.tally.Tally.provisional`); it is handed over at the next event that is not part of
        it."""
        self.tally.provisional(self._finished_record())

    def pools_closed(self) -> bool:
        """The rules end the game on its totals (every pool closed; Serbian: the bulas add up to 0), with the deal
        that has ended, which is counted only when the next deal starts (until then more may come: a whist after
        a half-whist, allocations), so it is weighed here without being counted."""
        return self.tally.over(self._finished_record())

    def hand_over(self, starting: bool = False) -> DealRecord | None:
        """The deal that has ended, as a :class:`DealRecord`, once. ``starting``: asked right after a
        ``deal_started`` was accepted, for the deal it took the place of; else (at any other event that is
        not part of a deal, or at the end) for the deal under way, which is then done with. A deal refused
        or unfinished gives ``None``: the problems said why."""
        if starting:
            d, self.handing = self.handing, None
        else:
            d, self.pending = self.pending, None
        if d is None or d.broken or not d.finished:
            return None
        return self.record(d)

    def record(self, d: D) -> DealRecord:
        """The frozen record of a finished deal, made once: the envelope's facts and what the game's
        deals have more (:meth:`_record_fields`)."""
        taken, last = d.tricks_taken()
        fields: dict[str, Any] = {
            "number": d.number, "dealer": d.begun.dealer, "holders": tuple(d.holders), "bomb": d.begun.bomb,
            "contract": d.contract, "taken": taken, "last_trick": last, "all_passed": d.all_passed,
            "redeal": d.redeal, "seq": d.begun.seq, "replaces": d.begun.replaces_voided, "turned": d.begun.turned,
            "mode": self._deal_mode(d), "allocations": tuple(d.allocations)}
        hands = d.begun.hands  # how the cards went, or would have gone with the hands dealt
        if d.play is not None or (hands is not None and (taken is not None or d.contract is not None)):
            fields["setup"] = (d.play or self._new_play(d, hands or {})).setup
        fields.update(self._record_fields(d))
        return self._named(DealRecord(**fields))

    def _named(self, rec: DealRecord) -> DealRecord:
        """The record with the game's own copy of each name (a game with a long name holds it once)."""
        return rec.renamed(self.own_names) if self.own_names else rec

    def unfinished(self) -> str | None:
        """Why the current deal is not finished, or ``None``."""
        d = self.deal
        if d is None or d.finished or d.broken or (d.number in self.voided and not d.replacement):
            return None
        if d.contract is None and not d.auction_over and not d.bids:
            return f"deal {d.number} has no result (no contract, no tricks)"
        if self._calls_pending(d):
            return f"deal {d.number}: the defenders have not both spoken"
        if d.claim is not None:
            return f"deal {d.number}: the claim was disputed; record the tricks the table agreed on"
        return f"deal {d.number} has no tricks"

    def next_dealer(self) -> str | None:
        """Who deals the next deal (the rotation, and a dealer dealing again where the game allows it); None before
        the first deal, which anybody may deal."""
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
        over = open_deal is None and self._game_over()
        voided = tuple((n, self.players[self.dealers[n] - 1]) for n in sorted(self.voided - self.replaced))
        return Table(game=self.id, kind=self.kind, tricks_total=None if self.PLAY_MAY_STOP else self.kind.tricks,
                     players=tuple(self.players), next_deal=self.deals_started + 1, dealer=dealer,
                     first_to_speak=holding[0] if holding else None, holders=tuple(holding), open_deal=open_deal,
                     voided=voided, ended=self.ended, over=over,
                     dealer_sits_out=self.dealer_sits_out,
                     contracts=self.CONTRACTS, calls=self.calls_allowed(), flags=self.flags_allowed(),
                     all_pass_bids=self.ALL_PASS_BIDS, all_pass_played=self.all_pass_played(),
                     last_needed=self.LAST_TRICK_NEEDED, needs=self.NEEDS, targets=self.targets(),
                     over_why=self.OVER_WHY if over else "", variant=self.started.rules.variant)

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
        self.tally.flush(self.hand_over())  # a deal starts: the one before it is over, and counted (tried: weighed)
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
            self.dealt_again += 1
        else:
            self.dealt_again = 0
        if prev is not None and prev.finished and not prev.broken and prev.number not in self.voided:
            self._after_deal(prev)
        holding = holders(self.players, ev.dealer, dealer_sits_out=self.dealer_sits_out)
        self.deals_started = ev.deal
        self.deal = self.regular = self._begin(self.new_deal(ev.deal, ev.dealer, holding, ev))
        if len(self.dealers) <= ev.deal:
            self.dealers.extend(bytes(ev.deal + 1 - len(self.dealers)))
        self.dealers[ev.deal] = 1 + self.players.index(ev.dealer)
        return []

    def _begin(self, d: D) -> D:
        """A deal starts: the one before it is ready to be handed over (:meth:`hand_over`)."""
        self.handing, self.pending = self.pending, d
        return d

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
        self.deal = self._begin(self.new_deal(ev.deal, ev.dealer, holding, ev))
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

    def _next_speaker(self, d: D, can_speak: set[str]) -> str | None:
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

    # ------------------------------------------------------------------ play

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
                          f"taken adds up to {ev.total}, a {self.title} deal has {total_needed} tricks")]
        if ev.last is not None:
            issues = self._player(ev.last, "last", holder=True)
            if issues:
                return issues
            if ev.taken.get(ev.last, 0) == 0:
                return [Issue("last-trick-wrong", "last", f"{ev.last} took no trick, so not the last one")]
        if self.LAST_TRICK_NEEDED and d.contract is None and ev.last is None and d.play is None:
            return [Issue("last-trick-missing", "last", "a general misère needs who took the last trick (field last)")]
        if d.claimed is not None:
            if any(ev.taken.get(p, 0) != n for p, n in d.claimed.items()) or ev.total != sum(d.claimed.values()):
                shown = ", ".join(f"{p} {n}" for p, n in d.claimed.items())
                return [Issue("tricks-differ-from-claim", "taken", f"the accepted claim gives {shown}")]
        elif d.claim is not None and d.play is not None:
            for p, n in d.play.taken.items():
                if ev.taken.get(p, 0) < n:
                    return [Issue("tricks-below-played", f"taken.{p}",
                                  f"{p} took {n} trick(s) before the claim, not {ev.taken.get(p, 0)}")]
        elif d.play is not None:
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
        if d.claim is not None:
            return [Issue("card-after-claim", "card", "play ended with the claim")]
        if d.play is None:  # once play has begun, nothing that decides whether it may is accepted
            issues = self._start_play(d, "card")
            if issues:
                return issues
        assert d.play is not None
        err = d.play.play(ev.player, ev.card)
        if err:
            return [Issue(err[0], "card", err[1])]
        if d.play.complete:
            d.finished = True
        return []

    def _start_play(self, d: D, field: str) -> list[Issue]:
        """Card play begins (a card or a claim asks): why it may not, or nothing when :attr:`DealState.play`
        is set up."""
        no_play, no_hands = _NO_PLAY[field]
        why = self._play_allowed(d)
        if why:
            return [Issue(no_play, field, why)]
        hands = d.begun.hands
        if hands is None:
            return [Issue(no_hands, field, "card-level play needs the hands in deal_started")]
        d.play = self._new_play(d, hands)
        return []

    def _claim(self, ev: Claim) -> list[Issue]:
        return [Issue("claim-not-here", "type",
                      f"claims are recorded in Russian Preferans deals; in {self.title} record the tricks")]

    # ------------------------------------------------------------------ outside deals

    def _opening(self, ev: OpeningBalance) -> list[Issue]:
        if self.deals_started:
            return [Issue("opening-balance-late", "type", "an opening balance comes before the first deal")]
        return self._balance_fields(ev)

    def _balance_fields(self, ev: OpeningBalance) -> list[Issue]:
        """The names and columns of a balance or an adjustment."""
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
        return self._balance_columns(ev) or self._declared_columns(ev)

    def _declared_columns(self, ev: OpeningBalance) -> list[Issue]:
        """A column of a balance or an adjustment that the game's scoring does not declare (the built-in games say
        it in their own words first: :meth:`_balance_columns`)."""
        declared = self.tally.scoring.columns
        for column in ("pool", "mountain", "points", "whists", "bula", "soups"):
            if getattr(ev, column) and column not in declared:
                return [Issue("column-undeclared", column, f"{self.title} has no {column} column an adjustment may "
                                                           f"write (those it may: {', '.join(declared) or 'none'})")]
        return []

    @staticmethod
    def _bounded(ev: Event) -> list[Issue]:
        """A number of ``ev`` past :data:`~vistlog.events.codec.LARGEST` (the one bound of every entry point)."""
        big = too_big({k: v for k, v in unstructure(ev).items() if not k.startswith("_")})
        if big is None:
            return []
        return [Issue("number-too-large", big.partition(" = ")[0],
                      f"{big}: past the largest number a log holds ({LARGEST})")]

    def _adjustment(self, ev: Adjustment) -> list[Issue]:
        as_balance = OpeningBalance(seq=ev.seq, game=ev.game, pool=ev.pool, mountain=ev.mountain,
                                    whists=ev.whists, points=ev.points, bula=ev.bula, soups=ev.soups)
        return self._balance_fields(as_balance)

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
    Tricks: GameState._tricks, CardPlayed: GameState._card, Claim: GameState._claim,
    OpeningBalance: GameState._opening,
    Adjustment: GameState._adjustment, DealVoided: GameState._voided, ScoreRecorded: GameState._recorded,
    GameEnded: GameState._ended,
}
