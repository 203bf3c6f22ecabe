"""Card-level play: who leads, following suit, trumps, and who wins each trick.

A :class:`Play` is set up with the hands, the seating of the players who hold cards, the
first leader and the trump; :meth:`Play.play` takes one card and returns ``None`` or the
problem code and the reason the card is illegal (a revoke names the card, the suit and the trick).

>>> from vistlog.events.cards import parse_card as c, Suit
>>> p = Play({"A": [c("AS"), c("7H")], "B": [c("KS"), c("8H")]}, ["A", "B"], "A", trump=Suit.H)
>>> p.play("A", c("AS")), p.play("B", c("8H"))
(None, ('revoke', 'trick 1: B must follow ♠ with KS, not play 8H'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

from .cards import Bid, Card, Suit
from .plain import Plain

__all__ = ["Play", "PlaySetup", "held_after_discard", "contract_trump", "solo_whist_trump"]


@attrs.frozen(repr=False, eq=False)
class PlaySetup(Plain):
    """How a deal's card play begins, as its game sets it up: who plays in what order, who leads the first
    trick, the trump, the talon's cards that lead the first tricks and who takes a trick none of the
    players wins, and whether a void player must trump. A deal's record keeps it
    (:attr:`vistlog.events.record.DealRecord.setup`), so that a reader replays or solves the deal by the
    game's own rules without asking which game it is.

    >>> from vistlog.events.cards import parse_card as c
    >>> setup = PlaySetup(("A", "B"), "B", Suit.H)
    >>> setup.play({"A": [c("AS")], "B": [c("7H")]}).to_play
    'B'
    """

    seating: tuple[str, ...]
    leader: str
    trump: Suit | None = None
    talon_leads: tuple[Card, ...] = ()
    talon_taker: str | None = None
    must_trump: bool = False
    shown: tuple[tuple[Card, str], ...] = ()
    """Cards every player saw go to a player before the first lead, with him (a talon opened to all and taken
    by the declarer, who may have put them away; Solo Whist's turned card, which the dealer keeps)."""

    def play(self, hands: Mapping[str, Iterable[Card]]) -> Play:
        """A new :class:`Play` of ``hands`` set up so."""
        return Play(hands, self.seating, self.leader, self.trump, talon_leads=self.talon_leads,
                    talon_taker=self.talon_taker, must_trump=self.must_trump, shown=self.shown)


class Play:
    """The state of play of one deal.

    ``talon_leads``: cards that lead the first tricks of a Preferans raspas, one per trick;
    players must follow the talon card's suit. A talon card that no player beats in its suit
    wins the trick for ``talon_taker`` (the 4-player dealer under the classic rules) or,
    when there is none, for the highest card of the suit played (else the trick's first player).
    ``must_trump``: a player void in the suit led must play a trump when he has one (Preferans).

    Each hand keeps a count of its cards by suit, so following suit is checked in constant time;
    who plays next and the suit led are kept as the play goes, not worked out per card.
    """

    def __init__(self, hands: Mapping[str, Iterable[Card]], seating: Sequence[str], leader: str,
                 trump: Suit | None = None, *, talon_leads: Sequence[Card] = (),
                 talon_taker: str | None = None, must_trump: bool = False,
                 shown: Sequence[tuple[Card, str]] = ()) -> None:
        self.shown = tuple(shown)
        self.hands: dict[str, set[Card]] = {p: set(cards) for p, cards in hands.items()}
        self._suits: dict[str, dict[Suit, int]] = {p: _count_suits(h) for p, h in self.hands.items()}
        self.seating = list(seating)
        self.trump = trump
        self.must_trump = must_trump
        self.talon_leads = list(talon_leads)
        self.talon_taker = talon_taker
        self.total_tricks = min((len(h) for h in self.hands.values()), default=0)
        self.taken: dict[str, int] = {p: 0 for p in self.seating}
        if talon_taker is not None:
            self.taken.setdefault(talon_taker, 0)
        self.trick_no = 1
        self.current: list[tuple[str, Card]] = []
        self.last_winner: str | None = None
        self.to_play = leader
        """Who plays the next card."""
        self.first_leader = leader
        """Who led the first trick."""
        self._begin_trick(leader)

    @property
    def setup(self) -> PlaySetup:
        """How this play was set up (its hands aside)."""
        return PlaySetup(tuple(self.seating), self.first_leader, self.trump, tuple(self.talon_leads),
                         self.talon_taker, self.must_trump, self.shown)

    def copy(self) -> Play:
        """A copy of the play under way, to try cards on: its hands, counts, tricks and trick are its own.

        (The compiled build cannot copy its classes with :mod:`copy`; this costs a tenth of a deep copy.)
        """
        new = Play({}, self.seating, self.seating[self._lead_index], self.trump, talon_leads=self.talon_leads,
                   talon_taker=self.talon_taker, must_trump=self.must_trump, shown=self.shown)
        new.first_leader = self.first_leader
        new.hands = {p: set(h) for p, h in self.hands.items()}
        new._suits = {p: dict(c) for p, c in self._suits.items()}
        new.total_tricks = self.total_tricks
        new.taken = dict(self.taken)
        new.trick_no = self.trick_no
        new.current = list(self.current)
        new.last_winner = self.last_winner
        new.to_play = self.to_play
        new._lead_index = self._lead_index
        new._led = self._led
        return new

    @property
    def complete(self) -> bool:
        """True when every trick has been played."""
        return self.trick_no > self.total_tricks

    @property
    def leader(self) -> str:
        """Who leads the current trick."""
        return self.seating[self._lead_index]

    def _begin_trick(self, leader: str) -> None:
        """Trick :attr:`trick_no` starts: ``leader`` plays first, and a talon card, if any, sets the suit led."""
        self._lead_index = self.seating.index(leader)
        self.to_play = leader
        self._led = self.talon_leads[self.trick_no - 1].suit if self.trick_no <= len(self.talon_leads) else None

    def play(self, player: str, card: Card) -> tuple[str, str] | None:
        """Play a card; return ``None``, or the problem code and why it is illegal (nothing changes then)."""
        err = self.check(player, card)
        if err is not None:
            return err
        self.hands[player].discard(card)
        self._suits[player][card.suit] -= 1
        current = self.current
        current.append((player, card))
        n = len(self.seating)
        if len(current) == n:
            self._finish_trick()
        else:
            if self._led is None:
                self._led = card.suit
            self.to_play = self.seating[(self._lead_index + len(current)) % n]
        return None

    def is_legal(self, player: str, card: Card) -> bool:
        """May ``player`` play ``card`` now? Nothing changes."""
        return self.check(player, card) is None

    def check(self, player: str, card: Card) -> tuple[str, str] | None:
        """``None`` when ``player`` may play ``card`` now, else the problem code and why not; nothing changes."""
        if self.trick_no > self.total_tricks:
            return "play-complete", f"all {self.total_tricks} tricks have been played"
        if player != self.to_play:
            return "card-out-of-turn", f"trick {self.trick_no}: it is {self.to_play}'s turn, not {player}'s"
        hand = self.hands.get(player)
        if hand is None or card not in hand:
            return "card-not-held", f"trick {self.trick_no}: {player} does not hold {card}"
        led = self._led
        if led is not None and card.suit is not led:
            counts = self._suits[player]
            if counts[led]:
                same = min(c for c in hand if c.suit is led)
                return ("revoke", f"trick {self.trick_no}: {player} must follow {led.symbol} with {same}, "
                        f"not play {card}")
            trump = self.trump
            if self.must_trump and trump is not None and card.suit is not trump and counts[trump]:
                lowest = min(c for c in hand if c.suit is trump)
                return ("must-trump", f"trick {self.trick_no}: {player} has no {led.symbol} and must trump with "
                        f"{lowest}, not play {card}")
        return None

    def _finish_trick(self) -> None:
        trick = self.current
        talon = self.talon_leads[self.trick_no - 1] if self.trick_no <= len(self.talon_leads) else None
        led = talon.suit if talon is not None else trick[0][1].suit
        trump = self.trump
        winner, best = trick[0]
        top = -1
        for who, card in trick:
            s = 100 + card.rank if card.suit is trump else card.rank if card.suit is led else 0
            if s > top:
                top, winner, best = s, who, card
        if talon is not None and (top == 0 or talon.rank > best.rank) and best.suit is not trump:
            if self.talon_taker is not None:
                winner = self.talon_taker
            elif top == 0:
                winner = trick[0][0]
        self.taken[winner] = self.taken.get(winner, 0) + 1
        self.last_winner = winner
        self.trick_no += 1
        self.current = []
        self._begin_trick(winner if winner in self.seating else self.seating[0])


def _count_suits(hand: Iterable[Card]) -> dict[Suit, int]:
    counts = dict.fromkeys(Suit, 0)
    for card in hand:
        counts[card.suit] += 1
    return counts


def held_after_discard(hands: Mapping[str, Iterable[Card]], declarer: str, talon: Iterable[Card] | None,
                       discarded: Iterable[Card] | None) -> dict[str, list[Card]]:
    """Who holds what when play begins: the hands as dealt, the declarer's with the talon taken and
    the discard put away (as dealt when nothing was discarded).

    >>> from vistlog.events.cards import parse_card as c
    >>> held_after_discard({"A": [c("AS")], "B": [c("KS")]}, "A", [c("7H"), c("8H")], [c("AS"), c("8H")])["A"]
    [Card(rank=7, suit=<Suit.H: 'H'>)]
    """
    held = {p: list(cs) for p, cs in hands.items()}
    if discarded is not None:
        gone = set(discarded)
        held[declarer] = [x for x in held[declarer] + list(talon or ()) if x not in gone]
    return held


def contract_trump(bid: Bid) -> Suit | None:
    """The trump of a Preferans contract: its suit (no trump for no-trump, a misère or a Serbian sans)."""
    return bid.strain if bid.level is not None else None


def solo_whist_trump(contract: str | None, turned: Suit | None, named: Suit | None) -> Suit | None:
    """The trump of a Solo Whist deal: the turned card's suit for a prop, a solo and a trump abundance, the
    suit the declarer names for an abundance, none for a misère, a full abundance or a general misère."""
    if contract in ("prop", "solo", "trump_abundance"):
        return turned
    return named if contract == "abundance" else None
