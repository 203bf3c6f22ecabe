"""Solo Whist (вист-соло): four players, the solo auction, the turned card, points.

One class of :data:`vistlog.events.variants.VARIANTS`, on the base :class:`~vistlog.events.game.GameState`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ...cards import SOLO_ORDER, SOLO_WHIST_DECK, Card, GameKind
from ...game import DealState, GameState
from ...model import Allocation, BidMade, ContractMade, DealStarted, Discard, GameStarted, OpeningBalance, WhistMade
from ...play import Play, solo_whist_trump
from ...problems import Issue
from ...rules import SoloWhistOptions
from ...variant import CONTRACT, DealMode, Variant
from .score import SCORING

__all__ = ["SoloWhistGame", "SoloWhistDeal"]


class SoloWhistDeal(DealState):
    """A Solo Whist deal: everybody passing is a redeal or the general misère, never a raspas; a prop
    waits for its cop (who accepted it)."""

    def __init__(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None) -> None:
        super().__init__(number, dealer, holders, started)
        self.cop: str | None = None

    def snapshot(self) -> list[Any]:
        """The base deal's values, then who accepted the prop."""
        return [*super().snapshot(), self.cop]

    def restore(self, saved: list[Any]) -> list[Any]:
        """See :meth:`snapshot`."""
        rest = super().restore(saved)
        self.cop = rest[0]
        return rest[1:]


class SoloWhistGame(GameState[SoloWhistDeal]):
    """A Solo Whist (вист-соло) game: four players, points, no talon, no whists."""

    @property
    def solo(self) -> SoloWhistOptions:
        """The options of a Solo Whist game."""
        assert isinstance(self.options, SoloWhistOptions)
        return self.options

    CONTRACTS = tuple(b for b in SOLO_ORDER if b != "cop")
    NEEDS = (("prop", "partner"), ("abundance", "trump"))

    def bid_words(self) -> tuple[str, ...]:
        return tuple(["pass", *SOLO_ORDER])

    def flags_allowed(self) -> tuple[str, ...]:
        flags = ("turned", "partner", "trump")
        return flags

    def all_pass_played(self) -> bool:
        return self.solo.all_pass == "general_misere"

    def _deal_mode(self, d: SoloWhistDeal) -> str:
        if d.contract is not None:
            return "contract"
        return "general_misere" if d.tricks is not None or d.play is not None else "redeal"

    def targets(self) -> tuple[tuple[str, int], ...]:
        return tuple((c, self.solo.table[c].tricks) for c in self.CONTRACTS if c in self.solo.table)

    ALL_PASS_BIDS = True

    @classmethod
    def start_issues(cls, ev: GameStarted) -> list[Issue]:
        if len(ev.players) != 4:
            return [Issue("players-count", "players", f"Solo Whist is for 4 players, not {len(ev.players)}")]
        if ev.pool is not None:
            return [Issue("pool-solo-whist", "pool", "Solo Whist has no pool")]
        return []
    AUCTION_ENDS_BEFORE_CONTRACT = False
    LAST_TRICK_NEEDED = True

    def new_deal(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None
                 ) -> SoloWhistDeal:
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

    def _auction(self, d: SoloWhistDeal, ev: BidMade) -> list[Issue]:
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
            if d.highest[0] == ev.player:
                return [Issue("cop-own-prop", "player", f"{ev.player} made the prop and cannot accept it")]
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

    def _solo_can_speak(self, d: SoloWhistDeal, strict: bool = False) -> set[str]:
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

    def _contract_rules(self, d: SoloWhistDeal, ev: ContractMade) -> list[Issue]:
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

    def _play_allowed(self, d: SoloWhistDeal) -> str | None:
        if d.redeal:
            return "the hands were thrown in (redeal): there is no play"
        if d.contract is None:
            if d.all_passed and self.solo.all_pass == "general_misere":
                return None
            if d.all_passed:
                return "everybody passed and the rules redeal: there is no play"
            return "no contract yet"
        return None

    def _new_play(self, d: SoloWhistDeal, hands: Mapping[str, tuple[Card, ...]]) -> Play:
        held = {p: list(cs) for p, cs in hands.items()}
        c = d.contract
        text = c.contract.text if c is not None else None
        turned = d.begun.turned.suit if d.begun.turned is not None else None
        leader = c.declarer if c is not None and text == "full_abundance" else d.holders[0]
        shown: tuple[tuple[Card, str], ...] = ()
        if d.begun.turned is not None and d.dealer is not None:
            shown = ((d.begun.turned, d.dealer),)  # the turned card: the dealer keeps it
        return Play(held, d.holders, leader, solo_whist_trump(text, turned, c.trump if c is not None else None),
                    shown=shown)


    def _whist(self, ev: WhistMade) -> list[Issue]:
        return [Issue("event-preferans-only", "type", "a whist call belongs to Preferans")]

    def _discard(self, ev: Discard) -> list[Issue]:
        return [Issue("event-preferans-only", "type", "a discard belongs to Preferans")]

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


SoloWhistGame.HANDLERS = {**GameState.HANDLERS, WhistMade: SoloWhistGame._whist, Discard: SoloWhistGame._discard,
                          Allocation: SoloWhistGame._allocation}


VARIANT: Final = Variant("solo_whist", GameKind.SOLO_WHIST, "Solo Whist", SoloWhistGame, SoloWhistOptions, SCORING,
                         (CONTRACT, DealMode("general_misere"), DealMode("redeal")))
"""Solo Whist, as the write side knows it (registered in :data:`vistlog.events.variants.VARIANTS`)."""
