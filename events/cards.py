"""Suits, cards and bids: the small value types of both games.

Every type parses the spellings FORMAT.md allows and prints the canonical one:

>>> parse_card("T♥"), str(parse_card("10H"))
(Card(rank=10, suit=<Suit.H: 'H'>), '10H')
>>> parse_bid("7♠").text, parse_bid("misère").text
('7S', 'misere')

Parsing is a dictionary look-up into tables built once at import, so the codec's
hot path pays no more for a card than for a string.
"""

from __future__ import annotations

import enum
from typing import ClassVar, Final

import attrs

from .calls import WhistCall, final_calls, half_stands, obligation, whister_share

__all__ = [
    "Suit",
    "Card",
    "Bid",
    "WhistCall",
    "final_calls",
    "half_stands",
    "Kontra",
    "GameKind",
    "parse_suit",
    "parse_card",
    "parse_bid",
    "PREFERANS_DECK",
    "SOLO_WHIST_DECK",
    "RANK_NAMES",
    "obligation",
    "whister_share",
]


class Suit(enum.Enum):
    """A suit, in Preferans order: spades < clubs < diamonds < hearts."""

    S = "S"
    C = "C"
    D = "D"
    H = "H"

    __hash__ = object.__hash__  # members are singletons: hash them in C (Enum's own hash is Python code)

    @property
    def order(self) -> int:
        """Rank of the suit in a Preferans auction (S=0 … H=3; NT is 4)."""
        return _SUIT_ORDER[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♠ ♣ ♦ ♥."""
        return _SUIT_SYMBOL[self]

    def __str__(self) -> str:
        return self.value


_SUIT_ORDER: Final = {Suit.S: 0, Suit.C: 1, Suit.D: 2, Suit.H: 3}
_SUIT_SYMBOL: Final = {Suit.S: "♠", Suit.C: "♣", Suit.D: "♦", Suit.H: "♥"}
_SUIT_SPELLINGS: Final = {
    **{s.value: s for s in Suit},
    **{s.value.lower(): s for s in Suit},
    **{sym: s for s, sym in _SUIT_SYMBOL.items()},
    "♤": Suit.S, "♧": Suit.C, "♢": Suit.D, "♡": Suit.H,
}

RANK_NAMES: Final = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
                     10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_SPELLINGS: Final = {**{v: k for k, v in RANK_NAMES.items()}, "T": 10, "t": 10,
                          "j": 11, "q": 12, "k": 13, "a": 14}


class GameKind:
    """The kind of a log (``game_started.kind``): the deck its games are dealt from, and how many tricks a deal has.
    Two are built in, :attr:`PREFERANS` (32 cards, 10 tricks) and :attr:`SOLO_WHIST` (52 cards, 13 tricks); a game
    with a deck of its own registers its kind (:meth:`register`). One value per name, compared as an enum's members
    (``is``); ``GameKind("preferans")`` looks one up.

    >>> GameKind("solo_whist") is GameKind.SOLO_WHIST, GameKind.PREFERANS.tricks, GameKind.known()[:2]
    (True, 10, ('preferans', 'solo_whist'))
    """

    __slots__ = ("ranks", "tricks", "value")
    _ALL: ClassVar[dict[str, GameKind]] = {}  # registered now: the table the codec reads
    _MADE: ClassVar[dict[str, GameKind]] = {}  # every kind ever made: one value per name, registered or not
    PREFERANS: ClassVar[GameKind]
    SOLO_WHIST: ClassVar[GameKind]

    value: str
    tricks: int
    ranks: tuple[str, ...]
    """The ranks of its deck, lowest first (a page offers them for a turned card)."""

    def __new__(cls, value: str) -> GameKind:
        try:
            return cls._ALL[value]
        except (KeyError, TypeError):
            raise ValueError(f"{value!r} is not a kind of log (kinds: {', '.join(cls._ALL)})") from None

    @classmethod
    def register(cls, value: str, tricks: int, ranks: tuple[str, ...] = ()) -> GameKind:
        """The kind called ``value`` (made the first time: ``tricks`` a deal has), registered; registering it
        again gives the same value, and with other tricks is a :class:`ValueError`."""
        kind = cls._MADE.get(value)
        if kind is None:
            kind = object.__new__(cls)
            object.__setattr__(kind, "value", value)
            object.__setattr__(kind, "tricks", tricks)
            object.__setattr__(kind, "ranks", ranks or tuple(RANK_NAMES.values()))
            cls._MADE[value] = kind
        elif kind.tricks != tricks:
            raise ValueError(f"the kind {value} has {kind.tricks} tricks a deal, not {tricks}")
        cls._ALL[value] = kind
        return kind

    @classmethod
    def unregister(cls, value: str) -> None:
        """Take a kind away (a log of it no longer reads): what a test does after registering a game of its own."""
        cls._ALL.pop(value, None)

    @classmethod
    def known(cls) -> tuple[str, ...]:
        """Every kind registered now, by name."""
        return tuple(cls._ALL)

    @classmethod
    def lookup(cls) -> dict[str, GameKind]:
        """Every kind registered now, by name (the registry itself: a kind registered later is in it)."""
        return cls._ALL

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a kind of log is not changed")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return GameKind, (self.value,)

    def __copy__(self) -> GameKind:
        return self

    def __deepcopy__(self, memo: object) -> GameKind:
        return self

    def __repr__(self) -> str:
        return f"<GameKind.{self.value.upper()}: {self.value!r}>"


GameKind.PREFERANS = GameKind.register("preferans", 10, ("7", "8", "9", "10", "J", "Q", "K", "A"))
GameKind.SOLO_WHIST = GameKind.register("solo_whist", 13)


class Kontra(enum.Enum):
    """Serbian preferans: the doublings of a deal, in the order they may be said.

    >>> Kontra.REKONTRA.factor, Kontra.REKONTRA.by_declarer
    (4, True)
    """

    KONTRA = "kontra"
    REKONTRA = "rekontra"
    SUBKONTRA = "subkontra"
    MORTKONTRA = "mortkontra"

    @property
    def step(self) -> int:
        """1 for kontra … 4 for mortkontra."""
        return list(Kontra).index(self) + 1

    @property
    def factor(self) -> int:
        """The multiplier of the deal's value: 2, 4, 8, 16."""
        return 2 ** self.step

    @property
    def by_declarer(self) -> bool:
        """Rekontra and mortkontra are the declarer's; kontra and subkontra the defender's."""
        return self.step % 2 == 0


WHIST_SPELLINGS: Final = {
    **{c.value: c for c in WhistCall},
    "вист": WhistCall.WHIST, "Вист": WhistCall.WHIST, "пас": WhistCall.PASS, "Пас": WhistCall.PASS,
    "полвиста": WhistCall.HALF, "Полвиста": WhistCall.HALF, "пол-виста": WhistCall.HALF,
    "dođem": WhistCall.WHIST, "ne dođem": WhistCall.PASS, "zovem": WhistCall.INVITE,
}
"""Every accepted spelling of a whist call (printed canonically: whist, pass, half)."""

RUSSIAN_SUITS: Final = {
    "пик": "S", "пики": "S", "пика": "S", "треф": "C", "трефы": "C", "трефа": "C", "крести": "C",
    "бубен": "D", "бубей": "D", "бубны": "D", "бубна": "D", "черв": "H", "червей": "H", "черви": "H", "червы": "H",
    "черва": "H",
}
"""Russian suit names in bids and contracts (``6 пик``, ``7 червей``)."""
RUSSIAN_NO_TRUMP: Final = ("бк", "БК", "б/к", "без козыря", "без козырей")

class Card:
    """A playing card; ``rank`` is 2..14 (11 J, 12 Q, 13 K, 14 A).

    Cards are interned: ``Card(14, Suit.S)`` always returns the same object, so equality and
    hashing are identity (done in C, the hot path of card-level play), and a card is immutable.
    Cards order by rank, then by suit (the Preferans order).

    >>> str(Card(14, Suit.S)), Card(14, Suit.S) is parse_card("A♠")
    ('AS', True)
    """

    __slots__ = ("_key", "rank", "suit")
    rank: int
    suit: Suit
    _key: tuple[int, int]

    def __new__(cls, rank: int, suit: Suit) -> Card:
        card = _INTERNED.get((rank, suit))
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "_key", (rank, suit.order))
            card = _INTERNED.setdefault((rank, suit), card)  # one object per card, even made in two threads at once
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __reduce__(self) -> tuple[type[Card], tuple[int, Suit]]:
        return Card, (self.rank, self.suit)

    @property
    def symbol(self) -> str:
        """The card as a person reads it, its suit as a symbol.

        >>> Card(13, Suit.S).symbol, Card(10, Suit.H).symbol
        ('K♠', '10♥')
        """
        return RANK_NAMES[self.rank] + self.suit.symbol

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __lt__(self, other: object) -> bool:
        return self._key < other._key if type(other) is Card else NotImplemented

    def __le__(self, other: object) -> bool:
        return self._key <= other._key if type(other) is Card else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self._key > other._key if type(other) is Card else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self._key >= other._key if type(other) is Card else NotImplemented

    def __repr__(self) -> str:
        return f"Card(rank={self.rank!r}, suit={self.suit!r})"

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + self.suit.value


_INTERNED: Final[dict[tuple[int, Suit], Card]] = {}


def _build_cards() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for suit_text, suit in _SUIT_SPELLINGS.items():
        for rank_text, rank in _RANK_SPELLINGS.items():
            table[rank_text + suit_text] = Card(rank, suit)
    return table


_CARDS: Final = _build_cards()

PREFERANS_DECK: Final = frozenset(Card(r, s) for s in Suit for r in range(7, 15))
"""The 32 cards of Preferans (7 to ace)."""
SOLO_WHIST_DECK: Final = frozenset(Card(r, s) for s in Suit for r in range(2, 15))
"""The 52 cards of Solo Whist."""


def parse_suit(text: str) -> Suit:
    """Parse ``S C D H`` or ``♠ ♣ ♦ ♥``; raise ``ValueError`` otherwise."""
    try:
        return _SUIT_SPELLINGS[text]
    except (KeyError, TypeError):
        raise ValueError(f"{text!r} is not a suit (S, C, D, H or ♠ ♣ ♦ ♥)") from None


def parse_card(text: str) -> Card:
    """Parse ``10S``, ``TS``, ``10♠``; raise ``ValueError`` naming the text otherwise."""
    try:
        return _CARDS[text]
    except (KeyError, TypeError):
        raise ValueError(f"{text!r} is not a card (rank 2..10, J, Q, K, A or T, then a suit)") from None


# --------------------------------------------------------------------------- bids

PREFERANS_BASE: Final = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
"""Base price of a Preferans contract by level (misère is 10)."""


SOLO_ORDER: Final = ("prop", "cop", "solo", "misere", "abundance", "trump_abundance",
                     "open_misere", "full_abundance")

SERBIAN_WORDS: Final = ("mine", "igra", "yours")
"""The Serbian auction's words besides the numbers 2…8 and ``igra2``…``igra8``: *mogu/moje*
(hold the current number), *igra* (a game without the talon), *tvoja je jača* (your game wins)."""

SERBIAN_CYRILLIC_BIDS: Final = {"могу": "mine", "игра": "igra", "твоја": "yours",
                                **{f"игра{n}": f"igra{n}" for n in range(2, 9)}}
"""The same words in Serbian Cyrillic, as a Russian line writes them (and reads them back)."""


@attrs.frozen
class Bid:
    """A call in either game's auction, or a contract: ``6S`` .. ``10NT``, ``misere``,
    ``pass`` or one of the Solo Whist bids.

    ``level`` and ``strain`` describe Preferans suit contracts (``strain`` None is NT).
    Whether a bid belongs to a game is asked with :attr:`preferans` / :attr:`solo_whist`.

    >>> b = parse_bid("8NT"); (b.level, b.strain, b.base_price)
    (8, None, 6)
    """

    text: str
    level: int | None = None
    strain: Suit | None = None
    number: int | None = None
    """A Serbian bid's number: 2 (pik) … 7 (sans), 8 (preferans); also of ``igra2``…``igra8``."""
    is_pass: bool = attrs.field(init=False, repr=False, eq=False)
    """True for ``pass``."""
    is_misere: bool = attrs.field(init=False, repr=False, eq=False)
    """True for ``misere`` (both games spell it alike)."""
    preferans: bool = attrs.field(init=False, repr=False, eq=False)
    """True when the bid exists in Preferans (a level contract, misère or pass)."""
    auction_rank: int = attrs.field(init=False, repr=False, eq=False)
    """Order of Preferans bids: 6S < … < 8NT < misère < 9S < … < 10NT (-1 for others)."""

    def __attrs_post_init__(self) -> None:
        # facts of the bid asked once per bid of every auction: worked out once, when it is made
        text, level = self.text, self.level
        misere = text == "misere"
        rank = -1
        if level is not None:
            rank = level * 10 + (4 if self.strain is None else self.strain.order)
        elif misere:
            rank = 85
        object.__setattr__(self, "is_pass", text == "pass")
        object.__setattr__(self, "is_misere", misere)
        object.__setattr__(self, "preferans", level is not None or text in ("misere", "pass", "hold"))
        object.__setattr__(self, "auction_rank", rank)

    @property
    def serbian(self) -> bool:
        """True when the bid exists in a Serbian auction (``pass``, ``2``…``8``, ``mine``, ``igra``,
        ``igra2``…``igra8``, ``yours``)."""
        return self.number is not None or self.text in SERBIAN_WORDS or self.text == "pass"

    @property
    def fewest(self) -> bool:
        """The declarer plays to take no trick: a misère (and Solo Whist's open misère).

        >>> parse_bid("open_misere").fewest, parse_bid("misere").fewest, parse_bid("solo").fewest
        (True, True, False)
        """
        return self.is_misere or self.text == "open_misere"

    @property
    def igra(self) -> bool:
        """True for ``igra`` and ``igra2``…``igra8``."""
        return self.text.startswith("igra")

    @property
    def solo_whist(self) -> bool:
        """True when the bid exists in Solo Whist."""
        return self.text in SOLO_ORDER or self.text == "pass"

    @property
    def base_price(self) -> int:
        """Preferans base price: 6→2, 7→4, 8→6, 9→8, 10→10, misère→10."""
        if self.level is not None:
            return PREFERANS_BASE[self.level]
        if self.is_misere:
            return 10
        raise ValueError(f"{self.text} has no Preferans price")

    @property
    def solo_rank(self) -> int:
        """Order of Solo Whist bids: prop (and cop) < solo < misère < … < full abundance."""
        if self.text == "cop":
            return 0
        return SOLO_ORDER.index(self.text) - 1 if self.text in SOLO_ORDER else -1

    def __str__(self) -> str:
        return self.text


SOLO_WHIST_WORDS: Final = {
    "предложение": "prop", "принятие": "cop", "соло": "solo", "абонданс": "abundance",
    "козырный абонданс": "trump_abundance", "абонданс с козырем": "trump_abundance", "открытый мизер": "open_misere",
    "полный абонданс": "full_abundance",
}
"""The Solo Whist bids as the seed's Russian names them (read besides the canonical words)."""


def _build_bids() -> dict[str, Bid]:
    table: dict[str, Bid] = {}
    words = {**_SUIT_SPELLINGS, **{w: Suit(v) for w, v in RUSSIAN_SUITS.items()},
             **{w.capitalize(): Suit(v) for w, v in RUSSIAN_SUITS.items()}}
    for level in range(6, 11):
        for suit_text, suit in words.items():
            table[f"{level}{suit_text}"] = table[f"{level} {suit_text}"] = Bid(f"{level}{suit.value}", level, suit)
        for nt in ("NT", "nt", *RUSSIAN_NO_TRUMP):
            table[f"{level}{nt}"] = table[f"{level} {nt}"] = Bid(f"{level}NT", level, None)
    for name in ("pass", *SOLO_ORDER):
        table[name] = Bid(name)
    table["hold"] = Bid("hold")
    for n in range(2, 9):
        table[str(n)] = Bid(str(n), number=n)
        table[f"igra{n}"] = Bid(f"igra{n}", number=n)
    for word in SERBIAN_WORDS:
        table[word] = Bid(word)
    for alias, name in (("misère", "misere"), ("мизер", "misere"), ("пас", "pass"), ("здесь", "hold"),
                        *SOLO_WHIST_WORDS.items(), *SERBIAN_CYRILLIC_BIDS.items()):
        table[alias] = table[alias.capitalize()] = table[name]
    return table


_BIDS: Final = _build_bids()


def parse_bid(text: str) -> Bid:
    """Parse any bid or contract of either game; raise ``ValueError`` naming the text otherwise."""
    try:
        return _BIDS[text]
    except (KeyError, TypeError):
        raise ValueError(
            f"{text!r} is not a bid (6S..10NT, misere, pass, a Solo Whist bid: "
            + ", ".join(SOLO_ORDER) + "; or a Serbian one: 2..8, mine, igra, igra2..igra8, yours)"
        ) from None


def all_bids() -> list[Bid]:
    """Every canonical bid of both games (for schemas and generators)."""
    seen: dict[str, Bid] = {}
    for bid in _BIDS.values():
        seen.setdefault(bid.text, bid)
    return list(seen.values())
