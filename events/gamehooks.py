"""What a game implements: the extension contract of the shared state machine, one documented hook each.

:class:`~vistlog.events.game.GameState` holds what every game shares (the envelope: players, deal numbers and
the rotation, voids, hands and tricks, balances, the end) and asks its game for the rest through the hooks
below. A game is one subclass (each in its package of :mod:`vistlog.events.games`) that sets the
class attributes and overrides the hooks its rules need: those that raise :class:`NotImplementedError` here it
must; the others have the default every game without that rule wants. mypy checks each override against the
signature here. A game's deals are a :class:`DealState` subclass when they hold more (the defence, the discard,
the prop's partner); :meth:`GameHooks.new_deal` makes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, Generic, TypeVar, cast

from .cards import Bid, Card, parse_bid
from .native import mypyc_attr
from .model import Allocation, BidMade, Claim, ContractMade, DealStarted, GameStarted, OpeningBalance, Tricks
from .play import Play
from .problems import Issue

__all__ = ["DealState", "GameHooks", "D"]

_POOLS_CLOSED: Final = "every pool is closed"


@mypyc_attr(allow_interpreted_subclasses=True)  # a game written outside vistlog subclasses it too
class DealState:
    """Where one deal stands, in every game: who deals and holds cards, the auction, the contract, the play
    and the tricks. A game whose deals have more keeps them in its own deal class
    (:class:`~vistlog.events.games.preferans.game.PreferansDeal`: the defence and the discard;
    :class:`~vistlog.events.games.solo_whist.game.SoloWhistDeal`: the prop's partner)."""

    def __init__(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None) -> None:
        self.number = number
        self.dealer = dealer
        self.holders = holders
        self.started = started
        self.bids: list[tuple[str, Bid]] = []
        self.passed: set[str] = set()
        self.silent: set[str] = set()
        self.highest: tuple[str, Bid] | None = None
        self.auction_over = False
        self.all_passed = False
        self.contract: ContractMade | None = None
        self.play: Play | None = None
        self.tricks: Tricks | None = None
        self.claim: Claim | None = None
        self.claimed: dict[str, int] | None = None
        """The tricks an accepted claim gave: those taken in play and the claim's."""
        self.finished = False
        self.without_play = False
        self.redeal = False
        self.broken = False
        self.replacement = False  # this deal records a voided one again
        self.allocations: list[Allocation] = []
        """The agreed allocations of the deal's whists (after it is decided), which its record carries."""

    def snapshot(self) -> list[Any]:
        """What an event may change in this deal, containers copied; :meth:`restore` puts it back (python-chess's
        ``_BoardState``). A game's deal class with more state extends both: its own values after the base's. The
        play under way is kept as it is: cards are tried on its copy (:meth:`~vistlog.events.play.Play.copy`),
        and an event that sets up the play puts a new one in its place."""
        return [self.dealer, list(self.holders), self.started, list(self.bids), set(self.passed), set(self.silent),
                self.highest, self.auction_over, self.all_passed, self.contract, self.play, self.tricks, self.claim,
                None if self.claimed is None else dict(self.claimed), self.finished, self.without_play, self.redeal,
                self.broken, self.replacement, list(self.allocations)]

    def restore(self, saved: list[Any]) -> list[Any]:
        """Put back what :meth:`snapshot` gave; what is left of ``saved`` (a subclass's own values)."""
        (self.dealer, self.holders, self.started, self.bids, self.passed, self.silent, self.highest, self.auction_over,
         self.all_passed, self.contract, self.play, self.tricks, self.claim, self.claimed, self.finished,
         self.without_play, self.redeal, self.broken, self.replacement, self.allocations) = saved[:20]
        return saved[20:]

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
        if self.claimed is not None:
            return dict(self.claimed), None
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


D = TypeVar("D", bound=DealState)
"""The deal class of a game (its :meth:`GameState.new_deal` makes them)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a game written outside vistlog subclasses it too
class GameHooks(Generic[D]):
    """The hooks and class attributes a game sets (see the module docstring)."""

    @classmethod
    def start_issues(cls, ev: GameStarted) -> list[Issue]:
        """What this game asks of its ``game_started`` (the players, the pool) beyond every game's envelope."""
        return []

    def new_deal(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None
                 ) -> D:
        """A fresh deal of this game (a subclass for another game returns its own deal class)."""
        return cast(D, DealState(number, dealer, holders, started))

    def _record_fields(self, d: D) -> dict[str, Any]:
        """What a game's deal records beyond the envelope (the defence, the kontras)."""
        return {}

    def _deal_mode(self, d: D) -> str:
        """How a finished deal went, by a mode its game declares (:attr:`vistlog.events.variant.Variant.modes`):
        here ``contract``, else ``passed``."""
        return "contract" if d.contract is not None else "passed"

    CONTRACTS: ClassVar[tuple[str, ...]] = ()
    """The contracts of the game, lowest first."""
    NEEDS: ClassVar[tuple[tuple[str, str], ...]] = ()
    """What a contract must say besides its declarer (see :attr:`Table.needs`)."""
    DEALER_OUT_AT_FOUR: ClassVar[bool] = False
    """Four players: the dealer deals and sits the deal out (Russian preferans); else everybody holds cards."""

    def calls_allowed(self) -> tuple[str, ...]:
        """The defenders' calls (and kontras) the rules of this game allow."""
        return ()

    def bid_words(self) -> tuple[str, ...]:
        """Every word of this game's auction (each is tried before it is offered: see
        :func:`~vistlog.events.nextstep.next_step`)."""
        return tuple(["pass", *self.CONTRACTS])

    def flags_allowed(self) -> tuple[str, ...]:
        """What else a deal of this game may say (see :attr:`Table.flags`)."""
        return ()

    def all_pass_played(self) -> bool:
        """A deal everybody passed is played out (see :attr:`Table.all_pass_played`)."""
        return True

    def targets(self) -> tuple[tuple[str, int], ...]:
        """The tricks each contract's declaring side must take (see :attr:`Table.targets`): its level."""
        out = []
        for c in self.CONTRACTS:
            try:
                out.append((c, parse_bid(c).level or 0))
            except ValueError:
                continue
        return tuple(out)

    # ------------------------------------------------------------------ what each game's class says

    PLAY_MAY_STOP: ClassVar[bool] = False
    """Play may stop once the outcome is decided, so a deal's tricks may total less than all."""
    ALL_PASS: ClassVar[str] = ""
    """What everybody passing is called, for messages."""
    ALL_PASS_BIDS: ClassVar[bool] = False
    """Everybody passing is the holders' passes (see :attr:`Table.all_pass_bids`)."""
    AUCTION_ENDS_BEFORE_CONTRACT: ClassVar[bool] = True
    LAST_TRICK_NEEDED: ClassVar[bool] = False
    OVER_WHY: ClassVar[str] = _POOLS_CLOSED
    """Why the rules end the game (:meth:`_game_over`), in a few words (:attr:`Table.over_why`)."""
    GAME_OVER: ClassVar[str] = (_POOLS_CLOSED + ": game {game} is over (the rules end it so); "
                                "record its game_ended, or start a new game")
    """Why no deal may start once :meth:`_game_over` says so."""
    """A deal without contract may be played (Solo Whist's general misère) and then needs ``last``."""

    def _game_over(self) -> bool:
        """The rules end the game now (asked before a deal starts)."""
        return False

    def _dealer_deals_again(self, prev: D) -> bool:
        """After ``prev`` the same dealer deals again."""
        return False

    def _after_deal(self, prev: D) -> None:
        """What a finished deal changes for the next ones."""

    def _deal_fields(self, ev: DealStarted) -> list[Issue]:
        """Problems of a ``deal_started``'s cards and bomb."""
        raise NotImplementedError

    def _auction(self, d: D, ev: BidMade) -> list[Issue]:
        """Problems of a bid (the base class has checked the player and that the auction is open)."""
        raise NotImplementedError

    def _contract_rules(self, d: D, ev: ContractMade) -> list[Issue]:
        """Problems of a contract under this game's rules."""
        raise NotImplementedError

    def _play_allowed(self, d: D) -> str | None:
        """Why no card may be played now, or ``None``."""
        raise NotImplementedError

    def _new_play(self, d: D, hands: Mapping[str, tuple[Card, ...]]) -> Play:
        """The play of the deal: who holds what, who leads, the trump."""
        raise NotImplementedError

    def _calls_pending(self, d: D) -> bool:
        """The deal waits for the defenders' calls (a game without them never does)."""
        return False

    def _holders_for_tricks(self, d: D) -> tuple[list[str], list[str]]:
        """(who must be listed, who may be listed) in ``tricks.taken``: those who hold cards."""
        return d.holders, d.holders

    def _balance_columns(self, ev: OpeningBalance) -> list[Issue]:
        """Problems of the columns of a balance or an adjustment."""
        return []

    def _sheet_columns(self, name: str, line: Any) -> list[Issue]:
        """Problems of the columns of one line of a recorded sheet (here: those of the Russian games)."""
        if line.bula is not None or line.soups is not None or line.result is not None:
            return [Issue("bula-russian", f"sheet.{name}", "bula, soups and result belong to Serbian preferans")]
        return []

