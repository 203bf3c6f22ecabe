"""A Serbian deal: the contracts' numbers and names, and :class:`SerbianDeal`, whose explicit :class:`Phase` runs
auction → exchange → defence → kontra → play → done (the game, :class:`~vistlog.events.games.serbian.game.SerbianGame`,
checks each event against it)."""

from __future__ import annotations

import enum
from typing import Any, Final


from ...cards import Kontra, WhistCall
from ..preferans.game import PreferansDeal
from ...model import (
    ContractMade, DealStarted,
)

__all__ = ["SerbianDeal", "Phase", "CONTRACT_NUMBER", "NUMBER_CONTRACT", "SERBIAN_NAMES", "contract_number",
           "tricks_needed", "is_plain_pik", "neighbours"]


CONTRACT_NUMBER: Final = {"6S": 2, "6D": 3, "6H": 4, "6C": 5, "misere": 6, "6NT": 7, "10NT": 8}
"""Each Serbian contract's number *v* (pik 2 … sans 7, preferans 8); its bula unit is 2*v*."""
NUMBER_CONTRACT: Final = {v: k for k, v in CONTRACT_NUMBER.items()}
SERBIAN_NAMES: Final = {2: "pik", 3: "karo", 4: "herc", 5: "tref", 6: "betl", 7: "sans", 8: "preferans"}
"""The contracts' Serbian names by number."""


def contract_number(contract: ContractMade) -> int:
    """*v* of a contract, one more for an igra (a game without the talon).

    >>> from vistlog.events.cards import parse_bid
    >>> contract_number(ContractMade(seq=1, game="g", deal=1, declarer="A", contract=parse_bid("6H"), igra=True))
    5
    """
    return CONTRACT_NUMBER[contract.contract.text] + (1 if contract.igra else 0)


def tricks_needed(contract: ContractMade) -> int:
    """Tricks the declarer needs: 6, none on a betl (he must take none), all ten on a preferans."""
    text = contract.contract.text
    return 0 if text == "misere" else 10 if text == "10NT" else 6


def is_plain_pik(contract: ContractMade) -> bool:
    """A pik won in the auction (not igra): the contract that needs a kontra to be played."""
    return contract.contract.text == "6S" and not contract.igra


def neighbours(players: list[str] | tuple[str, ...], player: str) -> tuple[str, str]:
    """(left, right) neighbours of ``player``: the previous and the next in turn order.

    >>> neighbours(["A", "B", "C"], "A")
    ('C', 'B')
    """
    i = players.index(player)
    return players[i - 1], players[(i + 1) % len(players)]


class Phase(enum.Enum):
    """Where a Serbian deal stands."""

    AUCTION = "auction"
    EXCHANGE = "exchange"  # the auction is won: discard and contract
    DEFENCE = "defence"  # dođem / ne dođem
    KONTRA = "kontra"  # the invitation and kontra; play may begin
    PLAY = "play"
    DONE = "done"


class SerbianDeal(PreferansDeal):
    """One Serbian deal: the auction, the contract, the defence, kontra and the play.

    It keeps the envelope of :class:`~vistlog.events.game.DealState` (number, dealer, who holds
    cards, the first event, broken or finished) and adds an explicit :class:`Phase`.
    """

    def __init__(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None) -> None:
        super().__init__(number, dealer, holders, started)
        self.phase = Phase.AUCTION
        self.spoken: set[str] = set()  # said a number or mine
        self.level = 0
        self.holder: str | None = None
        self.igra: list[str] = []  # who said igra, in order
        self.best: tuple[str, int] | None = None  # the best igra game named
        self.named: set[str] = set()  # igra players who have named their game («moja je N»)
        self.winner: str | None = None
        self.kontra: list[tuple[str, Kontra]] = []
        self.decided = False  # card play stopped because the outcome is known

    def snapshot(self) -> list[Any]:
        """The Preferans deal's values, then the Serbian auction's."""
        return [*super().snapshot(), self.phase, set(self.spoken), self.level, self.holder, list(self.igra),
                self.best, set(self.named), self.winner, list(self.kontra), self.decided]

    def restore(self, saved: list[Any]) -> list[Any]:
        """See :meth:`snapshot`."""
        rest = super().restore(saved)
        (self.phase, self.spoken, self.level, self.holder, self.igra, self.best, self.named, self.winner, self.kontra,
         self.decided) = rest[:10]
        return rest[10:]

    def _play_over(self) -> bool:
        """Every trick is played, or play stopped because the outcome is known."""
        assert self.play is not None
        return self.play.complete or self.decided

    @property
    def came(self) -> list[str]:
        """Defenders who said *dođem*."""
        return [p for p, c in self.calls if c is WhistCall.WHIST]

    @property
    def inviter(self) -> str | None:
        """The lone defender who called the other (*zovem*)."""
        return next((p for p, c in self.calls if c is WhistCall.INVITE), None)

    def in_play(self) -> list[str]:
        """Who plays cards, in turn order: everybody on a betl; the other defender joins on an
        invitation or a kontra."""
        c = self.contract
        assert c is not None
        if c.contract.is_misere or self.inviter or self.kontra:
            playing = set(self.holders)
        else:
            playing = {c.declarer, *self.came}
        return [p for p in self.holders if p in playing]
