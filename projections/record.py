"""What a finished deal was: the facts scoring needs, taken from the checked events.

>>> r = DealRecord(number=1, dealer="C", holders=("A", "B", "C"), bomb=0)
>>> r.raspas
False
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from vistlog.events.cards import Kontra, WhistCall, final_calls, half_stands, is_raspas
from vistlog.events.game import DealState
from vistlog.events.model import Allocation, ContractMade, Event
from vistlog.events.serbian import SerbianDeal

__all__ = ["DealRecord", "record_of"]


@attrs.frozen(kw_only=True)
class DealRecord:
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
    raspas: bool = attrs.field(default=attrs.Factory(
        lambda r: is_raspas(r.contract, r.all_passed, r.taken is not None), takes_self=True))
    """A Russian Preferans deal everybody passed (:func:`vistlog.events.cards.is_raspas`): the game's
    verdict on a checked deal (a Serbian deal never is one); of the record's own facts by default."""

    @property
    def played(self) -> bool:
        """Cards were played (tricks are known)."""
        return self.taken is not None

    def final_calls(self) -> dict[str, WhistCall]:
        """Each defender's final decision (:func:`vistlog.events.cards.final_calls`)."""
        return final_calls(self.calls)

    @property
    def half_stands(self) -> bool:
        """Half-whist stands (:func:`vistlog.events.cards.half_stands`)."""
        return half_stands(self.calls)


def record_of(d: DealState | SerbianDeal, allocations: list[Allocation], events: list[Event],
              names: Mapping[str, str] | None = None) -> DealRecord:
    """Freeze the checker's state of a finished deal into a :class:`DealRecord`.

    ``names`` maps each player's name to the game's own copy of it: the record then refers to the game's
    players rather than keeping each event's copy of a name (the fold gives it for a game with a long
    name, which is then held once, not once a deal)."""
    taken, last = d.tricks_taken()
    serbian = isinstance(d, SerbianDeal)
    dealer, holders, defenders, contract = d.begun.dealer, tuple(d.holders), tuple(d.defenders), d.contract
    calls = tuple(d.calls)
    kontra = tuple(d.kontra) if isinstance(d, SerbianDeal) else ()
    allocs = () if serbian else tuple(allocations)
    if names:
        def name(p: str) -> str:
            return names.get(p, p)

        dealer, holders, defenders = name(dealer), tuple(map(name, holders)), tuple(map(name, defenders))
        calls = tuple((name(p), call) for p, call in calls)
        kontra = tuple((name(p), k) for p, k in kontra)
        taken = None if taken is None else {name(p): k for p, k in taken.items()}
        last = None if last is None else name(last)
        if contract is not None:
            contract = attrs.evolve(contract, declarer=name(contract.declarer), helps=tuple(map(name, contract.helps)),
                                    partner=None if contract.partner is None else name(contract.partner))
        allocs = tuple(attrs.evolve(a, player=name(a.player), help={name(p): x for p, x in a.help.items()})
                       for a in allocs)
    return DealRecord(
        number=d.number, dealer=dealer, holders=holders, bomb=0 if serbian else d.begun.bomb, contract=contract,
        defenders=defenders, calls=calls, taken=taken, last_trick=last, all_passed=d.all_passed,
        redeal=False if serbian else d.redeal, allocations=allocs, events=tuple(events), seq=d.begun.seq,
        replaces=d.begun.replaces_voided, kontra=kontra, raspas=d.raspas)
