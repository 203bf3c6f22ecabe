"""Russian Preferans (sochi, leningrad, rostov, classic): the auction, the contract, the whists, the talon.

One class of :data:`vistlog.events.variants.VARIANTS`, on the base :class:`~vistlog.events.game.GameState`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast


from ...calls import WhistCall, final_calls, half_stands
from ...cards import PREFERANS_DECK, Card, GameKind, all_bids
from ...game import DealState, GameSnapshot, GameState
from ...model import (
    Allocation, BidMade, Claim, ContractMade, DealStarted, Discard, GameStarted, OpeningBalance, WhistMade,
)
from ...play import Play, contract_trump, held_after_discard
from ...problems import Issue
from ...rules import PreferansOptions
from ...seating import defenders, holders
from ...tally import Tally
from ...variant import CONTRACT, PASSED, DealMode, Variant
from .score import SCORING

__all__ = ["PreferansGame", "PreferansDeal", "is_raspas"]


def is_raspas(contract: object | None, all_passed: bool, played: bool) -> bool:
    """A Russian Preferans deal is a raspas (распасы) when there is no contract and everybody passed,
    or cards or tricks were recorded without one. The one rule, asked by the state machine of a deal
    under way and by the record of a finished one (Serbian preferans has no raspas; Solo Whist's
    all-pass is its own rule): this game's, not the core's.

    >>> is_raspas(None, True, False), is_raspas(None, False, True), is_raspas("6S", False, True)
    (True, True, False)
    """
    return contract is None and (all_passed or played)


class PreferansDeal(DealState):
    """A Preferans deal: the envelope of every deal, and the defence and the discard."""

    def __init__(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None) -> None:
        super().__init__(number, dealer, holders, started)
        self.calls: list[tuple[str, WhistCall]] = []
        self.defenders: list[str] = []
        self.needs_calls = False
        self.discarded: tuple[Card, ...] | None = None

    def snapshot(self) -> list[Any]:
        """The base deal's values, then the defence and the discard."""
        return [*super().snapshot(), list(self.calls), list(self.defenders), self.needs_calls, self.discarded]

    def restore(self, saved: list[Any]) -> list[Any]:
        """See :meth:`snapshot`."""
        rest = super().restore(saved)
        self.calls, self.defenders, self.needs_calls, self.discarded = rest[:4]
        return rest[4:]


class PreferansGame(GameState[PreferansDeal]):
    """A Russian Preferans game (sochi, leningrad, rostov, classic): pool, mountain, whists, raspasy."""

    CONTRACTS = tuple(b.text for b in sorted((b for b in all_bids() if b.auction_rank >= 0),
                                             key=lambda b: b.auction_rank))
    DEALER_OUT_AT_FOUR = True

    def __init__(self, started: GameStarted, tally: Tally) -> None:
        super().__init__(started, tally)
        self.raspas_run = 0
        """Raspasy in a row before the current deal (the options' ``raspas_exit``)."""

    def snapshot(self) -> GameSnapshot:
        """The game's values, then the raspasy in a row."""
        own, deals = super().snapshot()
        return [*own, self.raspas_run], deals

    def restore(self, snapshot: GameSnapshot) -> None:
        """See :meth:`snapshot`."""
        own, deals = snapshot
        super().restore((own, deals))
        self.raspas_run = own[11]

    def new_deal(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None
                 ) -> PreferansDeal:
        return PreferansDeal(number, dealer, holders, started)

    def _record_fields(self, d: PreferansDeal) -> dict[str, Any]:
        """A Preferans deal's record has the defenders and their calls."""
        fields: dict[str, Any] = {"defenders": tuple(d.defenders), "calls": tuple(d.calls)}
        playing = self._playing(d) if d.contract is not None else []
        if len(playing) > 1:  # somebody defends: the contract is played
            fields.update(leader=self._leader(d, playing), playing=tuple(playing))
        return fields

    def _playing(self, d: PreferansDeal) -> list[str]:
        """Who plays cards in the deal's contract, in turn order: every holder."""
        return d.holders

    def _leader(self, d: PreferansDeal, playing: list[str]) -> str:
        """Who leads the first trick among ``playing``: the elder hand."""
        return playing[0]

    @classmethod
    def start_issues(cls, ev: GameStarted) -> list[Issue]:
        n = len(ev.players)
        if n not in (3, 4):
            return [Issue("players-count", "players", f"Preferans is for 3 or 4 players, not {n}")]
        if ev.pool is None:
            return [Issue("pool-missing", "pool", "a Preferans game needs the pool size")]
        if ev.pool < 1:
            return [Issue("pool-size", "pool", f"pool size {ev.pool} must be at least 1")]
        return []

    def calls_allowed(self) -> tuple[str, ...]:
        calls = (WhistCall.PASS, WhistCall.WHIST) + ((WhistCall.HALF,) if self.pref.half_whist else ())
        return tuple(c.value for c in calls)

    def bid_words(self) -> tuple[str, ...]:
        return tuple(["pass", "hold", *self.CONTRACTS])

    def flags_allowed(self) -> tuple[str, ...]:
        p = self.pref
        return (("bomb",) if p.bombs else ()) + ("without_three",) + (("dark",) if p.dark_games else ()) + (
            ("totus",) if p.totus else ())

    ALL_PASS = " (a raspas)"

    def _game_over(self) -> bool:
        return self.pref.game_end == "pools_closed" and self.pools_closed()

    def _raspas(self, d: PreferansDeal) -> bool:
        """The deal is a raspas (:func:`is_raspas`)."""
        return is_raspas(d.contract, d.all_passed, d.tricks is not None or d.play is not None)

    def _deal_mode(self, d: PreferansDeal) -> str:
        return "raspas" if self._raspas(d) else super()._deal_mode(d)

    def _dealer_deals_again(self, prev: PreferansDeal) -> bool:
        return self._raspas(prev) and self.dealt_again + 1 < self.pref.raspas_dealer_repeats

    def _after_deal(self, prev: PreferansDeal) -> None:
        played = prev.tricks is not None or (prev.play is not None and prev.play.complete)
        self.raspas_run = self.pref.raspas_run(self.raspas_run, self._raspas(prev), prev.contract is not None, played)

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

    def _auction(self, d: PreferansDeal, ev: BidMade) -> list[Issue]:
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

    def _contract_rules(self, d: PreferansDeal, ev: ContractMade) -> list[Issue]:
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

    def _play_allowed(self, d: PreferansDeal) -> str | None:
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

    def _new_play(self, d: PreferansDeal, hands: Mapping[str, tuple[Card, ...]]) -> Play:
        c = d.contract
        held = {p: list(cs) for p, cs in hands.items()}
        trump = None
        talon_leads: tuple[Card, ...] = ()
        taker = None
        shown: tuple[tuple[Card, str], ...] = ()
        if c is not None:
            trump = contract_trump(c.contract)
            held = held_after_discard(hands, c.declarer, d.begun.talon, d.discarded)
            shown = tuple((card, c.declarer) for card in d.begun.talon or ())  # opened to all, then taken
        else:
            talon_leads = d.begun.talon or ()
            if self.dealer_sits_out and self.pref.talon_tricks_to_dealer:
                taker = d.dealer
        return Play(held, d.holders, self._leader(d, d.holders), trump, talon_leads=talon_leads,
                    talon_taker=taker, must_trump=True, shown=shown)

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

    @property
    def pref(self) -> PreferansOptions:
        """The options of a Preferans game."""
        assert isinstance(self.options, PreferansOptions)
        return self.options

    def _calls_pending(self, d: PreferansDeal) -> bool:
        return d.needs_calls and not self._calls_done()

    def _calls_done(self) -> bool:
        d = self.deal
        assert d is not None
        return len(d.calls) >= 2

    def _whists_outcome(self, d: PreferansDeal) -> str:
        """``play`` when someone whists, ``none`` when both passed or a half stands."""
        if any(c is WhistCall.WHIST for c in final_calls(d.calls).values()):
            return "play"
        return "none"

    def _whist(self, ev: WhistMade) -> list[Issue]:
        d = self.deal
        assert d is not None
        issues = self._player(ev.player, "player", holder=True)
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

    def _holders_for_tricks(self, d: PreferansDeal) -> tuple[list[str], list[str]]:
        """(who must be listed, who may be listed) in ``tricks.taken``."""
        may = list(d.holders)  # the talon's tricks go to a sitting-out dealer on a raspas, where the rules say so
        if self.dealer_sits_out and d.contract is None and self.pref.talon_tricks_to_dealer:
            may.append(d.begun.dealer)
        return d.holders, may

    def _discard(self, ev: Discard) -> list[Issue]:
        d = self.deal
        assert d is not None
        issues = self._player(ev.player, "player", holder=True)
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

    def _discarded_held(self, d: PreferansDeal, ev: Discard) -> list[Issue]:
        """The two cards put away were in the declarer's hand or the talon (when the cards are known)."""
        hands = d.begun.hands
        if hands is not None:
            held = set(hands.get(ev.player, ())) | set(d.begun.talon or ())
            for card in ev.cards:
                if card not in held:
                    return [Issue("discard-not-held", "cards", f"{ev.player} does not hold {card} (hand and talon)")]
        return []

    def _claim(self, ev: Claim) -> list[Issue]:
        """A claim between tricks of a contract's play: the claimer plays, the number fits the tricks left,
        and (accepted) the deal has its tricks."""
        d = self.deal
        assert d is not None
        if d.tricks is not None or d.claim is not None or (d.play is not None and d.play.complete):
            return [Issue("claim-after-play", "type", f"deal {d.number}'s play has ended")]
        if d.contract is None:
            return [Issue("claim-in-raspas", "type",
                          "a raspas is played each for himself: record its cards or tricks, not a claim")]
        issues = self._player(ev.player, "player")
        if issues:
            return issues
        if d.play is None:
            issues = self._start_play(d, "claim")
            if issues:
                return issues
        play = d.play
        assert play is not None
        if ev.player not in play.seating:
            return [Issue("claim-not-playing", "player", f"{ev.player} plays no cards in deal {d.number}")]
        if play.current:
            return [Issue("claim-mid-trick", "tricks", f"trick {play.trick_no} is under way "
                          f"({len(play.current)} card(s) played): a claim is made between tricks")]
        left = play.total_tricks - play.trick_no + 1
        if not 0 <= ev.tricks <= left:
            return [Issue("claim-range", "tricks", f"{ev.tricks} is not 0..{left}: {left} trick(s) are left to play")]
        credit = self._claim_credit(d, ev, left)
        if isinstance(credit, Issue):
            return [credit]
        d.claim = ev
        if ev.accepted:
            taken = dict(play.taken)
            for p, n in credit.items():
                taken[p] = taken.get(p, 0) + n
            d.claimed = taken
            d.finished = True
        return []

    def _claim_credit(self, d: PreferansDeal, ev: Claim, left: int) -> dict[str, int] | Issue:
        """Who takes the tricks to come under a claim: the declarer his side's, the defence's to the
        claimer when he defends, else to the one whister (a misère's: to the first defender, which
        scoring does not tell apart), else as ``split`` says."""
        assert d.contract is not None and d.play is not None
        declarer = d.contract.declarer
        mine = ev.tricks if ev.player == declarer else left - ev.tricks
        defence = left - mine
        credit = {declarer: mine}
        defending = [p for p in d.play.seating if p != declarer]
        if ev.split is not None:
            for name in ev.split:
                if name not in defending:
                    return Issue("claim-split", f"split.{name}", f"{name} is not a defender playing deal {d.number}")
            if sum(ev.split.values()) != defence or min(ev.split.values(), default=0) < 0:
                return Issue("claim-split", "split", f"split must give the defence's {defence} trick(s)")
            return {**credit, **ev.split}
        if not defence:
            return credit
        if ev.player != declarer:
            return {**credit, ev.player: defence}
        whisters = [p for p, c in final_calls(d.calls).items() if c is WhistCall.WHIST and p in defending]
        if d.contract.contract.is_misere or len(whisters) < 2:
            return {**credit, (whisters or defending)[0]: defence}
        if not ev.accepted:  # disputed: the tricks event that follows says who took what
            return credit
        return Issue("claim-split", "split",
                     f"both defenders whisted: say in split who takes the defence's {defence} trick(s)")

    def _allocation(self, ev: Allocation) -> list[Issue]:
        d = self.deal
        assert d is not None
        issues = self._bounded(ev) or self._player(ev.player, "player") or self._names(ev.help, "help")
        if issues:
            return issues
        if ev.player in ev.help:
            return [Issue("allocation-self", f"help.{ev.player}", "a player does not help himself")]
        if not d.finished:
            return [Issue("allocation-undecided", "type", f"deal {d.number} is not decided yet")]
        d.allocations.append(ev)
        return []


PreferansGame.HANDLERS = {**GameState.HANDLERS, WhistMade: PreferansGame._whist, Discard: PreferansGame._discard,
                          Allocation: PreferansGame._allocation, Claim: PreferansGame._claim}


VARIANT: Final = Variant("preferans", GameKind.PREFERANS, "Preferans", PreferansGame, PreferansOptions, SCORING,
                         (CONTRACT, DealMode("raspas", each_for_fewest=True), PASSED))
"""Preferans, as the write side knows it (registered in :data:`vistlog.events.variants.VARIANTS`)."""
