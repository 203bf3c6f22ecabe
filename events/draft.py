"""A deal as data: what a score pad composes, in the vocabulary of the next-step query (dealer, bids, contract,
calls, tricks), and the events it stands for.

The deal notation (:mod:`~vistlog.events.notation`) reads a line of words into the same parts and makes its events
here, so a deal tapped on a page and a deal typed as a line are one deal: :meth:`DealDraft.events`. A page posts a
draft as JSON (:func:`read_draft`), never a line of text in its own language.

>>> from vistlog.events.table import Table
>>> from vistlog.events.cards import GameKind
>>> t = Table("g", GameKind.PREFERANS, 10, ("Аня", "Боря", "Вова"), 4, "Аня", "Боря",
...           ("Боря", "Вова", "Аня"), None, (), False)
>>> d = read_draft({"declarer": "Боря", "contract": "6S", "calls": [["Вова", "whist"], ["Аня", "pass"]],
...                 "tricks": {"Боря": 6, "Вова": 3}})
>>> [e["type"] for e in d.events(t)], d.events(t)[-1]["taken"]
(['deal_started', 'contract', 'whist', 'whist', 'tricks'], {'Боря': 6, 'Вова': 3, 'Аня': 1})
>>> read_draft({"bomb": "two"})
Traceback (most recent call last):
...
vistlog.events.draft.DraftError: the deal sent: bomb: a whole number, not 'two'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from .table import Table
from .problems import VistlogError

__all__ = ["DealDraft", "DraftError", "read_draft", "draft_of", "assemble", "KONTRA_LEVELS"]

KONTRA_LEVELS: Final = frozenset({"kontra", "rekontra", "subkontra", "mortkontra"})
"""The calls of a deal that are doublings (Serbian preferans), not whist calls."""


class DraftError(VistlogError):
    """A deal sent as data that is not of the draft's shape: the message names the field."""

    code = "draft-invalid"

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"the deal sent: {field}: {message}")


@attrs.frozen(kw_only=True)
class DealDraft:
    """One deal as a pad composes it (every part optional: a draft may be unfinished).

    ``dealer`` (the first deal of a game needs one); ``again``: the number of a voided deal recorded again;
    ``bomb``, ``turned`` (a card as the log spells it, ``QH``); ``bids``: (player, bid) in order; ``all_pass``:
    everybody passed; ``declarer``, ``contract``, ``flags`` (``dark``, ``without_three``, ``totus``, ``igra``),
    ``helps``, ``partner``, ``trump`` (a suit letter); ``calls``: (player, whist call or kontra level);
    ``tricks``: each player's tricks (one holder left out takes the rest); ``last``: who took the last trick.
    ``correct``: the number of a deal this one corrects in place: its events void that deal and record it again
    (one append, both or neither), its ``dealer`` said."""

    correct: int | None = None
    dealer: str | None = None
    again: int | None = None
    bomb: int | None = None
    turned: str | None = None
    bids: tuple[tuple[str, str], ...] = ()
    all_pass: bool = False
    declarer: str | None = None
    contract: str | None = None
    flags: tuple[str, ...] = ()
    helps: tuple[str, ...] = ()
    partner: str | None = None
    trump: str | None = None
    calls: tuple[tuple[str, str], ...] = ()
    tricks: Mapping[str, int] | None = None
    last: str | None = None

    def events(self, table: Table) -> list[dict[str, Any]]:
        """The events this deal stands for in the game at ``table`` (dicts without ``seq``), unchecked."""
        if self.correct is not None:
            if self.dealer is None:
                raise DraftError("dealer", "a deal corrected in place says who dealt it")
            voided = {"type": "deal_voided", "game": table.game, "deal": self.correct, "reason": "corrected"}
            return [voided, *attrs.evolve(self, correct=None, again=self.correct).events(table)]
        start: dict[str, Any] = {"type": "deal_started", "game": table.game, "deal": table.next_deal,
                                 "dealer": self.dealer if self.dealer is not None else table.dealer}
        if self.again is not None:
            start.update(deal=self.again, replaces_voided=True)
            was = dict(table.voided)
            if self.again in was:
                start["dealer"] = was[self.again]
        if self.bomb is not None:
            start["bomb"] = self.bomb
        if self.turned is not None:
            start["turned"] = self.turned
        contract: dict[str, Any] | None = None
        if self.declarer is not None and self.contract is not None:
            contract = {"type": "contract", "declarer": self.declarer, "contract": self.contract,
                        **dict.fromkeys(self.flags, True)}
            for key, value in (("helps", list(self.helps)), ("partner", self.partner), ("trump", self.trump)):
                if value:
                    contract[key] = value
        calls = [{"type": "kontra", "player": p, "level": c} if c in KONTRA_LEVELS else
                 {"type": "whist", "player": p, "call": c} for p, c in self.calls]
        tricks: dict[str, Any] | None = None
        if self.tricks is not None:
            tricks = {"type": "tricks", "taken": dict(self.tricks), **({"last": self.last} if self.last else {})}
        bids = [{"type": "bid", "player": p, "bid": b} for p, b in self.bids]
        return assemble(table, start, bids, self.all_pass, contract, calls, tricks)


def draft_of(events: Sequence[Mapping[str, Any]]) -> DealDraft:
    """The draft of one recorded deal's events (its ``deal_started`` first): what a page fills its form with to
    correct the deal (card play, allocations and the like are not a draft's)."""
    d: dict[str, Any] = {}
    for ev in events:
        kind = ev.get("type")
        if kind == "deal_started":
            d["dealer"] = ev.get("dealer")
            d.update({key: ev[key] for key in ("bomb", "turned") if ev.get(key) is not None})
            if ev.get("replaces_voided"):
                d["again"] = ev["deal"]
        elif kind == "bid":
            d.setdefault("bids", []).append((ev["player"], str(ev["bid"])))
        elif kind == "contract":
            d.update(declarer=ev["declarer"], contract=str(ev["contract"]))
            flags = tuple(f for f in ("dark", "without_three", "totus", "igra") if ev.get(f))
            if flags:
                d["flags"] = flags
            d.update({key: ev[key] for key in ("partner", "trump") if ev.get(key)})
            if ev.get("helps"):
                d["helps"] = tuple(ev["helps"])
        elif kind in ("whist", "kontra"):
            d.setdefault("calls", []).append((ev["player"], str(ev.get("call") or ev.get("level"))))
        elif kind == "tricks":
            d["tricks"] = dict(ev["taken"])
            if ev.get("last"):
                d["last"] = ev["last"]
    d["bids"], d["calls"] = tuple(d.get("bids", ())), tuple(d.get("calls", ()))
    d["all_pass"] = "contract" not in d and "tricks" in d  # nobody declared, and the deal was played
    return DealDraft(**d)


def assemble(table: Table, start: dict[str, Any], bids: list[dict[str, Any]], all_pass: bool,
             contract: dict[str, Any] | None, calls: list[dict[str, Any]], tricks: dict[str, Any] | None
             ) -> list[dict[str, Any]]:
    """A deal's events from its parts (what the notation read, or a draft): in a game whose passes are the deal
    (a redeal, the general misère), everybody passing is each holder's pass; the one holder left out of the
    tricks takes the rest."""
    dealer = start["dealer"]
    if all_pass and not bids and table.all_pass_bids and dealer in table.players:
        bids = [{"type": "bid", "player": p, "bid": "pass"} for p in table.holders_for(dealer)]
    if tricks is not None and dealer in table.players:
        taken = tricks["taken"]
        missing = [p for p in table.holders_for(dealer) if p not in taken]
        if len(missing) == 1 and table.tricks_total is not None and sum(taken.values()) <= table.tricks_total:
            taken[missing[0]] = table.tricks_total - sum(taken.values())
    rest = bids + ([contract] if contract else []) + calls + ([tricks] if tricks else [])
    return [start] + [{"type": ev.pop("type"), "game": table.game, "deal": start["deal"], **ev} for ev in rest]


_TEXT: Final = ("dealer", "turned", "declarer", "contract", "partner", "trump", "last")
_NUMBERS: Final = ("again", "bomb", "correct")
_PAIRS: Final = ("bids", "calls")
_NAMES: Final = ("flags", "helps")


def read_draft(obj: object) -> DealDraft:
    """A deal sent as JSON (an object of :class:`DealDraft`'s fields), checked for its shape only: what the game
    allows is the checker's to say. A field of another type, or one the draft has not, is a :class:`DraftError`
    naming it."""
    if not isinstance(obj, Mapping):
        raise DraftError("deal", "an object of the deal's parts (dealer, bids, contract, calls, tricks …)")
    unknown = sorted(set(obj) - set(attrs.fields_dict(DealDraft)))
    if unknown:
        raise DraftError(str(unknown[0]), "not a part of a deal")
    fields: dict[str, Any] = {}
    for key, value in obj.items():
        if value is None:
            continue
        if key in _TEXT:
            fields[key] = _text(key, value)
        elif key in _NUMBERS:
            if type(value) is not int or not 0 <= value < 1 << 31:
                raise DraftError(key, f"a whole number, not {value!r}")
            fields[key] = value
        elif key in _PAIRS:
            if not isinstance(value, Sequence) or isinstance(value, str) or not all(
                    isinstance(v, Sequence) and not isinstance(v, str) and len(v) == 2 for v in value):
                raise DraftError(key, "a list of [player, word] pairs")
            fields[key] = tuple((_text(f"{key}.{k}", p), _text(f"{key}.{k}", w)) for k, (p, w) in enumerate(value))
        elif key in _NAMES:
            if not isinstance(value, Sequence) or isinstance(value, str):
                raise DraftError(key, "a list of words")
            fields[key] = tuple(_text(f"{key}.{k}", v) for k, v in enumerate(value))
        elif key == "all_pass":
            if type(value) is not bool:
                raise DraftError(key, f"true or false, not {value!r}")
            fields[key] = value
        elif key == "tricks":
            if not isinstance(value, Mapping) or not all(
                    isinstance(p, str) and type(n) is int and 0 <= n < 1 << 31 for p, n in value.items()):
                raise DraftError(key, "each player's tricks, a whole number each")
            fields[key] = dict(value)
    return DealDraft(**fields)


def _text(field: str, value: object) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise DraftError(field, f"a word, not {str(value)[:40]!r}")
    return value
