"""What a finished deal was: the facts scoring needs, taken from the checked events.

>>> r = DealRecord(number=1, dealer="C", holders=("A", "B", "C"), bomb=0)
>>> r.raspas
False
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
    if names:
        return _named(d, allocations, events, names, taken, last)
    if isinstance(d, SerbianDeal):
        return DealRecord(
            number=d.number, dealer=d.begun.dealer, holders=tuple(d.holders), bomb=0, contract=d.contract,
            defenders=tuple(d.defenders), calls=tuple(d.calls), taken=taken, last_trick=last,
            all_passed=d.all_passed, events=tuple(events), seq=d.begun.seq, replaces=d.begun.replaces_voided,
            kontra=tuple(d.kontra), raspas=d.raspas)
    return DealRecord(
        number=d.number, dealer=d.begun.dealer, holders=tuple(d.holders), bomb=d.begun.bomb,
        contract=d.contract, defenders=tuple(d.defenders), calls=tuple(d.calls), taken=taken,
        last_trick=last, all_passed=d.all_passed, redeal=d.redeal, allocations=tuple(allocations),
        events=tuple(events), seq=d.begun.seq, replaces=d.begun.replaces_voided, raspas=d.raspas,
    )


def _named(d: DealState | SerbianDeal, allocations: list[Allocation], events: list[Event], n: Mapping[str, str],
           taken: dict[str, int] | None, last: str | None) -> DealRecord:
    """:func:`record_of` with every name the game's own copy."""
    def name(p: str) -> str:
        return n.get(p, p)

    c = d.contract
    if c is not None:
        c = attrs.evolve(c, declarer=name(c.declarer), partner=None if c.partner is None else name(c.partner),
                         helps=tuple(map(name, c.helps)))
    common: dict[str, Any] = {
              "number": d.number, "dealer": name(d.begun.dealer), "holders": tuple(map(name, d.holders)),
              "contract": c, "defenders": tuple(map(name, d.defenders)),
              "calls": tuple((name(p), call) for p, call in d.calls),
              "taken": None if taken is None else {name(p): k for p, k in taken.items()},
              "last_trick": None if last is None else name(last), "all_passed": d.all_passed,
              "events": tuple(events), "seq": d.begun.seq, "replaces": d.begun.replaces_voided, "raspas": d.raspas}
    if isinstance(d, SerbianDeal):
        return DealRecord(bomb=0, kontra=tuple((name(p), k) for p, k in d.kontra), **common)
    allocs = tuple(attrs.evolve(a, player=name(a.player), help={name(p): x for p, x in a.help.items()})
                   for a in allocations)
    return DealRecord(bomb=d.begun.bomb, redeal=d.redeal, allocations=allocs, **common)
