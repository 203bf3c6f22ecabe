"""What a finished deal was, handed by the game that checked it to its tally: one frozen value.

A game's state machine (:class:`vistlog.events.game.GameState`) builds a :class:`DealRecord` when a deal
is over and hands it to the game's :class:`~vistlog.events.tally.Tally` (the read side's fold is one): the facts
scoring needs, and what is
derived from them in one place (made or not and by how much, the share of a whister, the trump, the
hands in play). The read side folds these and never reads the checker's state.

>>> r = DealRecord(number=1, dealer="C", holders=("A", "B", "C"), bomb=0)
>>> r.mode, r.made, r.trump
('passed', False, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

from .plain import Plain

from .calls import WhistCall, final_calls, half_stands, obligation, undertricks
from .cards import Card, Kontra, Suit
from .model import Allocation, ContractMade, DealStarted, Discard, Event
from .play import PlaySetup, contract_trump, held_after_discard, solo_whist_trump

__all__ = ["DealRecord", "LONG_NAME"]

LONG_NAME: Final = 64
"""Characters past which a player's name is held once by a game's records (the game's own copy of it),
not once a deal."""


@attrs.frozen(kw_only=True, repr=False, eq=False)
class DealRecord(Plain):
    """One deal as scoring sees it."""

    number: int
    dealer: str
    holders: tuple[str, ...]
    bomb: int
    contract: ContractMade | None = None
    defenders: tuple[str, ...] = ()
    calls: tuple[tuple[str, WhistCall], ...] = ()
    taken: Mapping[str, int] | None = None
    last_trick: str | None = None
    all_passed: bool = False
    redeal: bool = False
    allocations: tuple[Allocation, ...] = ()
    events: tuple[Event, ...] = ()
    seq: int = 0
    """The ``seq`` of the deal's ``deal_started``: which record of the deal this is."""
    replaces: bool = False
    """This record is a voided deal recorded again (``replaces_voided``)."""
    kontra: tuple[tuple[str, Kontra], ...] = ()
    """Serbian preferans: the kontras said, in order."""
    turned: Card | None = None
    """Solo Whist: the dealer's turned card (it names the trump)."""
    leader: str | None = None
    """Who leads the first trick of a contract (the game's rule: the elder hand; Serbian sans its own)."""
    playing: tuple[str, ...] = ()
    """Who plays cards in a contract, in turn order (a Serbian defender who did not come does not)."""
    setup: PlaySetup | None = None
    """How the deal's card play began by its game's rules (who plays, the first lead, the trump, the talon's
    leads, must-trump): known when cards were played or the tricks recorded with the hands dealt."""
    mode: str = attrs.field(default=attrs.Factory(
        lambda r: "contract" if r.contract is not None else "passed", takes_self=True))
    """How the deal went, by a mode its game declares (:attr:`vistlog.events.variant.Variant.modes`: a contract,
    a raspas, a redeal, …): the game's verdict on a checked deal; ``contract`` or ``passed`` by default."""

    @property
    def played(self) -> bool:
        """Cards were played (tricks are known)."""
        return self.taken is not None

    @property
    def undertricks(self) -> int:
        """Tricks the declarer of a Preferans contract fell short by (a misère: the tricks he took; without
        three: 3); 0 when made, decided without play, or with no contract."""
        c = self.contract
        if c is None:
            return 0
        return undertricks(c.contract.level, c.contract.is_misere, c.without_three,
                           None if self.taken is None else self.taken.get(c.declarer, 0))

    @property
    def made(self) -> bool:
        """The declarer made his contract (decided without play: made; given up without three: not)."""
        return self.contract is not None and self.undertricks == 0 and not self.contract.without_three

    def share_made(self, whister: str, whisters: int) -> bool:
        """A whister made his side's share of the obligation: alone, the defence's tricks; one of two, his
        own tricks against half of it."""
        c = self.contract
        if c is None or self.taken is None or not c.contract.level:
            return False
        need = obligation(c.contract.level)
        got = (sum(self.taken.get(d, 0) for d in self.defenders) if whisters == 1
               else self.taken.get(whister, 0) * 2)
        return got >= need

    def final_calls(self) -> dict[str, WhistCall]:
        """Each defender's final decision (:func:`vistlog.events.cards.final_calls`)."""
        return final_calls(self.calls)

    @property
    def trump(self) -> Suit | None:
        """The trump of the deal: a Preferans contract's suit, a Solo Whist contract's (the turned card's
        suit, or the suit an abundance names); none for no-trump, a misère, a raspas."""
        c = self.contract
        if c is None:
            return None
        if c.contract.solo_whist:
            return solo_whist_trump(c.contract.text, self.turned.suit if self.turned else None, c.trump)
        return contract_trump(c.contract)

    def hands_in_play(self) -> dict[str, list[Card]] | None:
        """Who held what when play began: the hands dealt, the declarer's with the talon taken and the
        discard put away (from the deal's own events; ``None`` when they are not kept or hold no hands)."""
        start = next((e for e in self.events if isinstance(e, DealStarted)), None)
        if start is None or start.hands is None:
            return None
        if self.contract is None:
            return {p: list(cs) for p, cs in start.hands.items()}
        discard = next((e.cards for e in self.events if isinstance(e, Discard)), None)
        return held_after_discard(start.hands, self.contract.declarer, start.talon,
                                  None if self.contract.igra else discard)

    def renamed(self, names: Mapping[str, str]) -> DealRecord:
        """The record with each player's name as ``names`` gives it (a name not there is kept)."""
        def name(p: str) -> str:
            return names.get(p, p)

        c = self.contract
        if c is not None:
            c = attrs.evolve(c, declarer=name(c.declarer), helps=tuple(map(name, c.helps)),
                             partner=None if c.partner is None else name(c.partner))
        setup = self.setup
        if setup is not None:
            setup = attrs.evolve(setup, seating=tuple(map(name, setup.seating)), leader=name(setup.leader),
                                 talon_taker=None if setup.talon_taker is None else name(setup.talon_taker))
        return attrs.evolve(
            self, dealer=name(self.dealer), holders=tuple(map(name, self.holders)), contract=c,
            defenders=tuple(map(name, self.defenders)), calls=tuple((name(p), k) for p, k in self.calls),
            kontra=tuple((name(p), k) for p, k in self.kontra),
            taken=None if self.taken is None else {name(p): k for p, k in self.taken.items()},
            last_trick=None if self.last_trick is None else name(self.last_trick),
            leader=None if self.leader is None else name(self.leader), playing=tuple(map(name, self.playing)),
            setup=setup, allocations=tuple(attrs.evolve(a, player=name(a.player),
                                                        help={name(p): x for p, x in a.help.items()})
                                           for a in self.allocations))

    @property
    def half_stands(self) -> bool:
        """Half-whist stands (:func:`vistlog.events.cards.half_stands`)."""
        return half_stands(self.calls)
