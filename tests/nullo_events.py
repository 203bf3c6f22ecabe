"""Nullo, a fourth game written only here: its write side (issue 45's proof that a game is a few modules and one
registration).

Nullo (нуль) is played with the Preferans deck by three players (four: the dealer sits out), in logs of its own
kind (``nullo``). There is no auction:
every deal is played at once for the fewest tricks, the holder on the dealer's left leading, no trump; the two
talon cards are put aside. Each trick costs its taker ``trick_cost`` points, written in a column of Nullo's own
(``penalty``); the game is over when a player's penalty reaches the limit the game starts with (``pool``):
the checker knows it from the game's tally, which this module's :data:`SCORING` keeps.
The read side is :mod:`tests.nullo_projections`.

Nothing outside this module and that one knows the game: it registers itself (:func:`register_nullo`), and every
generic part of vistlog (the checker, the fold, the renderers, the replay, the statistics, the pad) finds it by
name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from vistlog.events.cards import Card, GameKind
from vistlog.events.entries import Column, DealScore, Totals
from vistlog.events.game import DealState, GameState
from vistlog.events.model import BidMade, ContractMade, DealStarted, GameStarted
from vistlog.events.play import Play
from vistlog.events.problems import Issue
from vistlog.events.record import DealRecord
from vistlog.events.rules import PRESETS, Preset, option, whole
from vistlog.events.scoring import Scoring
from vistlog.events.variant import DealMode, Variant
from vistlog.events.variants import find_variant, register

__all__ = ["NulloOptions", "NulloGame", "SCORING", "VARIANT", "PRESET", "register_nullo", "score_deal"]


@attrs.frozen
class NulloOptions:
    """Nullo's one rule option."""

    trick_cost: int = option(1, whole(1, 10), "what one trick costs its taker, in points")


class NulloGame(GameState[DealState]):
    """A Nullo game: every deal is played for the fewest tricks, without an auction."""

    DEALER_OUT_AT_FOUR = True
    OVER_WHY = "a player reached the limit"
    GAME_OVER = "a player reached the limit: game {game} is over; record its game_ended, or start a new game"

    @classmethod
    def start_issues(cls, ev: GameStarted) -> list[Issue]:
        if ev.pool is None:
            return [Issue("pool-missing", "pool", "a Nullo game says its limit (pool)")]
        if ev.pool < 1:
            return [Issue("pool-size", "pool", f"{ev.pool} is not a limit (1 or more)")]
        return []

    def _game_over(self) -> bool:
        return self.pools_closed()

    def _deal_fields(self, ev: DealStarted) -> list[Issue]:
        if ev.bomb:
            return [Issue("bombs-off", "bomb", "Nullo has no bombs")]
        if ev.turned is not None:
            return [Issue("turned-card-preferans", "turned", "Nullo turns no card")]
        return []

    def _auction(self, d: DealState, ev: BidMade) -> list[Issue]:
        return [Issue("bid-unknown", "bid", "Nullo has no auction: every deal is played for the fewest tricks")]

    def _contract_rules(self, d: DealState, ev: ContractMade) -> list[Issue]:
        return [Issue("contract-unknown", "contract", "Nullo has no contracts")]

    def _play_allowed(self, d: DealState) -> str | None:
        return None

    def _new_play(self, d: DealState, hands: Mapping[str, tuple[Card, ...]]) -> Play:
        return Play(hands, d.holders, d.holders[0])

    def _deal_mode(self, d: DealState) -> str:
        return "nullo"


def score_deal(o: NulloOptions, size: int, players: Sequence[str], rec: DealRecord, totals: Totals,
               streak: int) -> DealScore:
    """What a Nullo deal writes: each trick costs its taker ``trick_cost`` points."""
    score = DealScore(rec.number)
    for p, n in (rec.taken or {}).items():
        if n:
            score.write("penalty", p, -n * o.trick_cost, f"{n} trick(s) × {o.trick_cost}")
    return score


def _limit_reached(totals: Totals, size: int) -> bool:
    return min(totals["penalty"].values()) <= -size


SCORING: Final = Scoring("nullo", "points", "pool", score=score_deal, over=_limit_reached,
                        sheet=(Column("penalty"),), columns=())
"""Nullo's arithmetic: a column of its own, each player's penalty for the tricks he took (no adjustment of the log
names it), the game over when a player's reaches minus the limit."""

KIND: Final = GameKind.register("nullo", 10)
"""Nullo's own kind of log: the Preferans deck, ten tricks a deal (registered with the game: see below)."""
GameKind.unregister("nullo")

PRESET: Final = Preset("nullo", KIND, "Nullo: every deal for the fewest tricks, a point a trick",
                       {}, NulloOptions, "nullo")
"""The one preset Nullo is played by."""

MODE: Final = DealMode("nullo", each_for_fewest=True)
"""Nullo's one deal mode, which no other game has: no declarer, each for the fewest tricks."""

VARIANT: Final = Variant("nullo", KIND, "Nullo", NulloGame, NulloOptions, SCORING, (MODE,))
"""Nullo, as the write side knows it."""


def register_nullo() -> Variant:
    """Nullo's one registration on the write side: the game and its preset (a test registers it for its own
    tests and takes it away after, so that no other test sees a fourth game)."""
    GameKind.register("nullo", 10)
    registered = register(VARIANT, [PRESET])
    assert find_variant("nullo") is registered and PRESETS["nullo"] is PRESET, "Nullo's write side did not register"
    return registered
