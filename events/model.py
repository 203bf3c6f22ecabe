"""One frozen attrs class per event type of FORMAT.md, and the :data:`Event` union.

The classes are frozen attrs classes without slots (see :func:`_class_defaults` for why).

Every event carries the envelope (``seq``, ``game``, ``v``, ``at``, ``by``, ``note``) and
``extensions``: the fields whose names start with ``_`` (``_source``, ``_chain``), kept as
read and written back unchanged. :data:`TAGS` maps each class to its ``type``.

>>> Tricks(seq=6, game="g", deal=1, taken={"Аня": 6, "Боря": 4}).total
10
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from .cards import Bid, Card, GameKind, Kontra, Suit, WhistCall
from .rules import Rules

__all__ = [
    "EventBase", "GameStarted", "OpeningBalance", "DealStarted", "BidMade", "ContractMade",
    "WhistMade", "KontraMade", "Discard", "CardPlayed", "Tricks", "Allocation", "Adjustment", "DealVoided",
    "SheetLine", "ScoreRecorded", "GameEnded", "Event", "TAGS", "BY_TAG", "DEAL_EVENTS",
]

_NO_EXT: Final[Mapping[str, Any]] = {}


@attrs.frozen(kw_only=True, slots=False)
class EventBase:
    """The envelope every event has. ``extensions`` holds the ``_``-prefixed fields."""

    seq: int
    game: str
    v: int = 1
    at: str | None = None
    by: str | None = None
    note: str | None = None
    extensions: Mapping[str, Any] = attrs.field(default=_NO_EXT, eq=False, repr=False)

    @property
    def type(self) -> str:
        """The event's ``type`` tag."""
        return TAGS[type(self)]


@attrs.frozen(kw_only=True, slots=False)
class GameStarted(EventBase):
    """First event of a game: who plays, what game, with which rules."""

    kind: GameKind
    players: tuple[str, ...]
    pool: int | None = None
    rules: Rules
    stake: str | None = None


@attrs.frozen(kw_only=True, slots=False)
class OpeningBalance(EventBase):
    """A game carried over from paper or another program, before the first deal."""

    pool: dict[str, int] = attrs.Factory(dict)
    mountain: dict[str, int] = attrs.Factory(dict)
    whists: dict[str, dict[str, int]] = attrs.Factory(dict)
    points: dict[str, int] = attrs.Factory(dict)
    bula: dict[str, int] = attrs.Factory(dict)
    """Serbian preferans: each player's bula as carried over (replaces the starting ``pool``)."""
    soups: dict[str, dict[str, int]] = attrs.Factory(dict)
    """Serbian preferans: soups written, writer → target → amount."""


@attrs.frozen(kw_only=True, slots=False)
class DealStarted(EventBase):
    """A new deal: its number, the dealer, and optionally the cards."""

    deal: int
    dealer: str
    bomb: int = 0
    hands: dict[str, tuple[Card, ...]] | None = None
    talon: tuple[Card, ...] | None = None
    turned: Card | None = None
    replaces_voided: bool = False


@attrs.frozen(kw_only=True, slots=False)
class BidMade(EventBase):
    """One call of the auction (``type`` ``bid``)."""

    deal: int
    player: str
    bid: Bid


@attrs.frozen(kw_only=True, slots=False)
class ContractMade(EventBase):
    """What is played (``type`` ``contract``)."""

    deal: int
    declarer: str
    contract: Bid
    dark: bool = False
    without_three: bool = False
    totus: bool = False
    helps: tuple[str, ...] = ()
    partner: str | None = None
    trump: Suit | None = None
    igra: bool = False
    """Serbian preferans: declared without taking the talon (*igra*), one number higher."""


@attrs.frozen(kw_only=True, slots=False)
class WhistMade(EventBase):
    """A Preferans defender's decision (``type`` ``whist``)."""

    deal: int
    player: str
    call: WhistCall


@attrs.frozen(kw_only=True, slots=False)
class KontraMade(EventBase):
    """Serbian preferans: a doubling of the deal (``type`` ``kontra``), in the order spoken.

    ``level`` is ``kontra`` (a defender), ``rekontra`` (the declarer), ``subkontra`` (the
    kontra-player) or ``mortkontra`` (the declarer). *Može* (no kontra) is not logged.
    """

    deal: int
    player: str
    level: Kontra


@attrs.frozen(kw_only=True, slots=False)
class Discard(EventBase):
    """The declarer's two cards put away after taking the talon."""

    deal: int
    player: str
    cards: tuple[Card, ...]


@attrs.frozen(kw_only=True, slots=False)
class CardPlayed(EventBase):
    """One card of card-level play."""

    deal: int
    player: str
    card: Card


@attrs.frozen(kw_only=True, slots=False)
class Tricks(EventBase):
    """The result of play: tricks taken by each player who held cards.

    ``last`` (an addition of this project) names who took the last trick; a Solo Whist
    general misère needs it when the cards are not recorded.
    """

    deal: int
    taken: dict[str, int]
    last: str | None = None

    @property
    def total(self) -> int:
        """Sum of the tricks taken."""
        return sum(self.taken.values())


@attrs.frozen(kw_only=True, slots=False)
class Allocation(EventBase):
    """Where a player puts points they won: pool, own mountain (negative), help to others."""

    deal: int
    player: str
    pool: int = 0
    mountain: int = 0
    help: dict[str, int] = attrs.Factory(dict)


@attrs.frozen(kw_only=True, slots=False)
class Adjustment(EventBase):
    """A manual, agreed entry."""

    pool: dict[str, int] = attrs.Factory(dict)
    mountain: dict[str, int] = attrs.Factory(dict)
    whists: dict[str, dict[str, int]] = attrs.Factory(dict)
    points: dict[str, int] = attrs.Factory(dict)
    bula: dict[str, int] = attrs.Factory(dict)
    soups: dict[str, dict[str, int]] = attrs.Factory(dict)
    reason: str | None = None


@attrs.frozen(kw_only=True, slots=False)
class DealVoided(EventBase):
    """A deal struck out: it stays in the history, its effects are removed."""

    deal: int
    reason: str | None = None


@attrs.frozen(kw_only=True)
class SheetLine:
    """One player's line of a recorded sheet; any field may be left out."""

    pool: int | None = None
    mountain: int | None = None
    whists: dict[str, int] | None = None
    points: int | None = None
    bula: int | None = None
    soups: dict[str, int] | None = None
    result: int | None = None
    """Serbian preferans: the final result as written (PPN ``Result``), positive = winning."""


@attrs.frozen(kw_only=True, slots=False)
class ScoreRecorded(EventBase):
    """What a scorekeeper wrote after a deal, for audits. Changes no score."""

    after_deal: int
    sheet: dict[str, SheetLine]


@attrs.frozen(kw_only=True, slots=False)
class GameEnded(EventBase):
    """The end of a game."""

    reason: str | None = None


Event = (GameStarted | OpeningBalance | DealStarted | BidMade | ContractMade | WhistMade | KontraMade | Discard
         | CardPlayed | Tricks | Allocation | Adjustment | DealVoided | ScoreRecorded | GameEnded)
"""Any event of format v1."""

TAGS: Final[dict[type, str]] = {
    GameStarted: "game_started", OpeningBalance: "opening_balance", DealStarted: "deal_started",
    BidMade: "bid", ContractMade: "contract", WhistMade: "whist", KontraMade: "kontra", Discard: "discard",
    CardPlayed: "card_played", Tricks: "tricks", Allocation: "allocation", Adjustment: "adjustment",
    DealVoided: "deal_voided", ScoreRecorded: "score_recorded", GameEnded: "game_ended",
}
BY_TAG: Final[dict[str, type]] = {tag: cls for cls, tag in TAGS.items()}

DEAL_EVENTS: Final = frozenset({BidMade, ContractMade, WhistMade, KontraMade, Discard, CardPlayed, Tricks,
                                Allocation})
"""Events that belong to the current deal (they carry ``deal``)."""


def _class_defaults() -> None:
    """Immutable defaults become class attributes too, so that the codec's fast path may build
    an event by installing its validated dict as the instance ``__dict__`` (one step instead of
    a ``setattr`` per field) and leave out the fields the line did not have. The classes stay
    frozen: their ``__setattr__`` still refuses every change."""
    for cls in TAGS:
        for f in attrs.fields(cls):
            if f.default is not attrs.NOTHING and not isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
                setattr(cls, f.name, f.default)


_class_defaults()
