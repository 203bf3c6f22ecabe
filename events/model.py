"""One frozen attrs class per event type of FORMAT.md, and the :data:`Event` union.

The classes are frozen attrs classes without slots (see :func:`_class_defaults` for why), each without a
``__repr__`` and ``__eq__`` of its own: :class:`~vistlog.events.plain.Plain`'s serve them all.

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

from .plain import Plain
from .cards import Bid, Card, GameKind, Kontra, Suit, WhistCall
from .rules import Rules

__all__ = [
    "FrozenDict", "freeze", "freeze_flat", "Columns",
    "EventBase", "GameStarted", "OpeningBalance", "DealStarted", "BidMade", "ContractMade",
    "WhistMade", "KontraMade", "Discard", "CardPlayed", "Claim", "Tricks", "Allocation", "Adjustment", "DealVoided",
    "SheetLine", "ScoreRecorded", "GameEnded", "Event", "TAGS", "BY_TAG", "DEAL_EVENTS",
]

class FrozenDict(dict[Any, Any]):
    """A dict that refuses every change: the mappings an event holds.

    >>> d = FrozenDict({"A": 6})
    >>> d["A"] = 7
    Traceback (most recent call last):
    ...
    TypeError: an event's mapping cannot be changed
    """

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("an event's mapping cannot be changed")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return self


def freeze(value: Any) -> Any:
    """``value`` with every dict a :class:`FrozenDict` and every list a tuple, all the way down (the
    converter of every mapping field, so that an event shares nothing it can be changed through)."""
    if type(value) is dict or (isinstance(value, dict) and type(value) is not FrozenDict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if type(value) is list:
        return tuple(freeze(v) for v in value)
    if attrs.has(type(value)):
        changes = {f.name: freeze(getattr(value, f.name)) for f in attrs.fields(type(value))
                   if isinstance(getattr(value, f.name), (dict, list))}
        return attrs.evolve(value, **changes) if changes else value
    return value


def freeze_flat(value: Any) -> Any:
    """:func:`freeze` of a mapping of numbers or strings (one level): the common case, kept cheap."""
    return value if type(value) is FrozenDict or value is None else FrozenDict(value)


_NO_EXT: Final[Mapping[str, Any]] = FrozenDict()

@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class EventBase(Plain):
    """The envelope every event has. ``extensions`` holds the ``_``-prefixed fields."""

    seq: int
    game: str
    v: int = 1
    at: str | None = None
    by: str | None = None
    note: str | None = None
    extensions: Mapping[str, Any] = attrs.field(default=_NO_EXT, eq=False, repr=False, converter=freeze)

    @property
    def type(self) -> str:
        """The event's ``type`` tag."""
        return TAGS[type(self)]



@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class GameStarted(EventBase):
    """First event of a game: who plays, what game, with which rules."""

    kind: GameKind
    players: tuple[str, ...]
    pool: int | None = None
    rules: Rules
    stake: str | None = None


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class Columns(EventBase):
    """The columns a balance or an adjustment writes (not an event type of its own)."""

    pool: dict[str, int] = attrs.field(factory=FrozenDict, converter=freeze_flat)
    mountain: dict[str, int] = attrs.field(factory=FrozenDict, converter=freeze_flat)
    whists: dict[str, dict[str, int]] = attrs.field(factory=FrozenDict, converter=freeze)
    points: dict[str, int] = attrs.field(factory=FrozenDict, converter=freeze_flat)
    bula: dict[str, int] = attrs.field(factory=FrozenDict, converter=freeze_flat)
    """Serbian preferans: each player's bula (in a balance, as carried over: it replaces the starting ``pool``)."""
    soups: dict[str, dict[str, int]] = attrs.field(factory=FrozenDict, converter=freeze)
    """Serbian preferans: soups written, writer → target → amount."""


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class OpeningBalance(Columns):
    """A game carried over from paper or another program, before the first deal."""


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class DealStarted(EventBase):
    """A new deal: its number, the dealer, and optionally the cards."""

    deal: int
    dealer: str
    bomb: int = 0
    hands: dict[str, tuple[Card, ...]] | None = attrs.field(default=None, converter=freeze)
    talon: tuple[Card, ...] | None = None
    turned: Card | None = None
    replaces_voided: bool = False


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class BidMade(EventBase):
    """One call of the auction (``type`` ``bid``)."""

    deal: int
    player: str
    bid: Bid


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
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


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class WhistMade(EventBase):
    """A Preferans defender's decision (``type`` ``whist``)."""

    deal: int
    player: str
    call: WhistCall


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class KontraMade(EventBase):
    """Serbian preferans: a doubling of the deal (``type`` ``kontra``), in the order spoken.

    ``level`` is ``kontra`` (a defender), ``rekontra`` (the declarer), ``subkontra`` (the
    kontra-player) or ``mortkontra`` (the declarer). *Može* (no kontra) is not logged.
    """

    deal: int
    player: str
    level: Kontra


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class Discard(EventBase):
    """The declarer's two cards put away after taking the talon."""

    deal: int
    player: str
    cards: tuple[Card, ...]


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class CardPlayed(EventBase):
    """One card of card-level play."""

    deal: int
    player: str
    card: Card


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class Claim(EventBase):
    """During card play, between tricks, a player claims ``tricks`` of the tricks still to play for his
    side; the others accept (``accepted``, the default) or dispute. Play ends there. An accepted claim
    gives the deal its tricks; a disputed one is followed by the ``tricks`` the table agreed on.

    The defence's share of the tricks to come goes to the claimer when he defends, else to the one
    defender who whisted; when two whisted and the declarer leaves them some, ``split`` says who takes
    how many (docs/format.md).
    """

    deal: int
    player: str
    tricks: int
    accepted: bool = True
    split: dict[str, int] | None = attrs.field(default=None, converter=freeze_flat)


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class Tricks(EventBase):
    """The result of play: tricks taken by each player who held cards.

    ``last`` (an addition of this project) names who took the last trick; a Solo Whist
    general misère needs it when the cards are not recorded.
    """

    deal: int
    taken: dict[str, int] = attrs.field(converter=freeze_flat)
    last: str | None = None

    @property
    def total(self) -> int:
        """Sum of the tricks taken."""
        return sum(self.taken.values())


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class Allocation(EventBase):
    """Where a player puts points they won: pool, own mountain (negative), help to others."""

    deal: int
    player: str
    pool: int = 0
    mountain: int = 0
    help: dict[str, int] = attrs.field(factory=FrozenDict, converter=freeze_flat)


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class Adjustment(Columns):
    """A manual, agreed entry."""

    reason: str | None = None


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class DealVoided(EventBase):
    """A deal struck out: it stays in the history, its effects are removed."""

    deal: int
    reason: str | None = None


@attrs.frozen(kw_only=True)
class SheetLine:
    """One player's line of a recorded sheet; any field may be left out."""

    pool: int | None = None
    mountain: int | None = None
    whists: dict[str, int] | None = attrs.field(default=None, converter=freeze_flat)
    points: int | None = None
    bula: int | None = None
    soups: dict[str, int] | None = attrs.field(default=None, converter=freeze_flat)
    result: int | None = None
    """Serbian preferans: the final result as written (PPN ``Result``), positive = winning."""


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class ScoreRecorded(EventBase):
    """What a scorekeeper wrote after a deal, for audits. Changes no score."""

    after_deal: int
    sheet: dict[str, SheetLine] = attrs.field(converter=freeze)


@attrs.frozen(kw_only=True, slots=False, repr=False, eq=False)
class GameEnded(EventBase):
    """The end of a game."""

    reason: str | None = None


Event = (GameStarted | OpeningBalance | DealStarted | BidMade | ContractMade | WhistMade | KontraMade | Discard
         | CardPlayed | Claim | Tricks | Allocation | Adjustment | DealVoided | ScoreRecorded | GameEnded)
"""Any event of format v1."""

TAGS: Final[dict[type, str]] = {
    GameStarted: "game_started", OpeningBalance: "opening_balance", DealStarted: "deal_started",
    BidMade: "bid", ContractMade: "contract", WhistMade: "whist", KontraMade: "kontra", Discard: "discard",
    CardPlayed: "card_played", Claim: "claim", Tricks: "tricks", Allocation: "allocation", Adjustment: "adjustment",
    DealVoided: "deal_voided", ScoreRecorded: "score_recorded", GameEnded: "game_ended",
}
BY_TAG: Final[dict[str, type]] = {tag: cls for cls, tag in TAGS.items()}

DEAL_EVENTS: Final = frozenset({BidMade, ContractMade, WhistMade, KontraMade, Discard, CardPlayed, Claim,
                                Tricks, Allocation})
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
