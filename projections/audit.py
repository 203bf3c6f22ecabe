"""Audit: what the scorekeeper wrote against what the rules give, with the trail of entries.

Each recorded value (a ``score_recorded`` checkpoint, or a claimed sheet given on the command
line) is compared with the computed sheet after the same deal. A mismatch carries the
entries that make up the computed value, each with its deal and reason, and the audit
names the earliest deal after which recorded and computed part.

>>> from vistlog.events.entries import Entry
>>> from fractions import Fraction as F
>>> trail = [Entry(3, "mountain", "Вова", F(6), "raspas: 6 trick(s) × 1"),
...          Entry(4, "mountain", "Вова", F(10), "misere failed: 1 trick(s) × 10")]
>>> print(explain(F(16), trail))
16 = 6 (deal 3, raspas: 6 trick(s) × 1) + 10 (deal 4, misere failed: 1 trick(s) × 10)
"""

from __future__ import annotations

import bisect
import csv
import io
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs
import orjson

from vistlog.events.model import SheetLine
from vistlog.events.problems import VistlogError
from vistlog.events.text import nearest, restored

from .analysis import ClaimVerdict, claim_json, claim_verdicts
from vistlog.events.entries import Entry, Num, fmt
from .fold import GameResult
from .words import RU

__all__ = ["Claim", "Mismatch", "AuditReport", "audit", "explain", "read_claimed", "ClaimError"]


class ClaimError(VistlogError):
    """A claimed sheet file that cannot be read."""

    code = "claim-unreadable"


@attrs.frozen
class Claim:
    """One recorded number: after a deal, a player's field (``whists`` names ``on``)."""

    after_deal: int
    player: str
    field: str
    value: Fraction
    on: str | None = None
    source: str = ""

    @property
    def label(self) -> str:
        """``mountain of Вова`` / ``whists of Аня on Боря``."""
        where = f" on {self.on}" if self.on is not None else ""
        return f"{self.field} of {self.player}{where}"


@attrs.frozen
class Earlier:
    """The entries a trail leaves out: how many, their sum, and the deal they reach."""

    entries: int
    amount: Num
    up_to_deal: int


TRAIL_MAX = 24
"""The most entries a trail lists; earlier ones are summed in :class:`Earlier`."""


@attrs.frozen
class Mismatch:
    """A recorded value that the rules do not give.

    ``carried`` marks a mismatch that only carries an earlier one forward (the same player,
    field and difference as at the previous recorded value).
    """

    claim: Claim
    computed: Num
    trail: tuple[Entry, ...]
    carried: bool = False
    rest: Earlier | None = None

    @property
    def difference(self) -> Num:
        """Recorded minus computed."""
        return self.claim.value - self.computed

    def describe(self) -> str:
        """One line: what, where, recorded, computed and why."""
        head = (f"{self.claim.source}after deal {self.claim.after_deal}: {self.claim.label}: "
                f"recorded {fmt(self.claim.value)}, computed ")
        if self.carried:
            return head + f"{fmt(self.computed)} (the same difference of {fmt(self.difference)}, carried on)"
        return head + explain(self.computed, self.trail, self.rest)


@attrs.frozen
class AuditReport:
    """The audit of one game.

    ``agree_until``: the last deal after which the first diverging value was still right
    (0 when it never was); ``part_by``: the deal after which it was first wrong;
    ``suspects``: the deals in between whose entries make up that value.
    """

    game: str
    checked: int
    mismatches: tuple[Mismatch, ...]
    agree_until: int | None
    part_by: int | None
    suspects: tuple[int, ...]
    claims: tuple[tuple[int, ClaimVerdict], ...] = ()
    """Each claim of the game (by deal) against the open hands: does it hold, what best play gives."""

    @property
    def ok(self) -> bool:
        """Every recorded value matches."""
        return not self.mismatches

    @property
    def parted_after(self) -> int | None:
        """The earliest deal after which recorded and computed can have parted."""
        return self.suspects[0] if self.suspects else self.part_by

    def summary(self) -> str:
        """Where recorded and computed part, in one sentence."""
        if self.ok:
            return "recorded and computed agree"
        first = self.mismatches[0].claim
        text = (f"recorded and computed agree after deal {self.agree_until} and part by deal {self.part_by} "
                f"({first.label})" if self.agree_until else
                f"recorded and computed part by deal {self.part_by} ({first.label})")
        if len(self.suspects) == 1:
            return text + f": the entry of deal {self.suspects[0]} is where they part"
        if self.suspects:
            return text + f"; deals between that touch it: {', '.join(map(str, self.suspects))}"
        return text

    def to_json(self) -> dict[str, Any]:
        """The report for ``--format json``."""
        return {
            "game": self.game, "checked": self.checked, "ok": self.ok,
            "agree_until_deal": self.agree_until, "part_by_deal": self.part_by,
            "parted_after_deal": self.parted_after, "suspect_deals": list(self.suspects),
            "summary": self.summary(),
            "mismatches": [{
                "after_deal": m.claim.after_deal, "player": m.claim.player, "field": m.claim.field,
                **({"on": m.claim.on} if m.claim.on else {}),
                "recorded": fmt(m.claim.value), "computed": fmt(m.computed), "carried": m.carried,
                "text": m.describe(), **({"source": m.claim.source} if m.claim.source else {}),
                "trail": [{"deal": e.deal, "amount": fmt(e.amount), "reason": e.reason} for e in m.trail],
                **({"trail_earlier": {"entries": m.rest.entries, "amount": fmt(m.rest.amount),
                                      "up_to_deal": m.rest.up_to_deal}} if m.rest else {}),
            } for m in self.mismatches],
            **({"claims": [{"deal": n, **claim_json(k)} for n, k in self.claims]} if self.claims else {}),
        }


def explain(value: Num, trail: Sequence[Entry], rest: Earlier | None = None) -> str:
    """``16 = 6 (deal 3, reason) + 10 (deal 4, reason)``; with ``rest``, the earlier entries first
    as one sum: ``22 = 15 (2 entries up to deal 4) + 4 (deal 6, reason) + 3 (deal 7, reason)``."""
    if not trail and rest is None:
        return f"{fmt(value)} (no entries)"
    parts = []
    if rest is not None:
        parts.append(f"{fmt(rest.amount)} ({rest.entries} entr{'y' if rest.entries == 1 else 'ies'} "
                     f"up to deal {rest.up_to_deal})")
    for i, e in enumerate(trail, start=len(parts)):
        sign = ("- " if e.amount < 0 else "+ ") if i else ("-" if e.amount < 0 else "")
        parts.append(f"{sign}{fmt(-e.amount if e.amount < 0 else e.amount)} (deal {e.deal}, {e.reason})")
    return f"{fmt(value)} = " + " ".join(parts)


def claims_of_sheet(sheet: Mapping[str, SheetLine], after_deal: int, source: str = "") -> list[Claim]:
    """The numbers of a recorded sheet as claims."""
    out = []
    for player, line in sheet.items():
        for field in ("pool", "mountain", "points", "bula", "result"):
            v = getattr(line, field)
            if v is not None:
                out.append(Claim(after_deal, player, field, Fraction(v), None, source))
        for on, v in (line.whists or {}).items():
            out.append(Claim(after_deal, player, "whists", Fraction(v), on, source))
        for on, v in (line.soups or {}).items():
            out.append(Claim(after_deal, player, "soups", Fraction(v), on, source))
    return out


Key = tuple[str, str, str | None]


class _Ledger:
    """A game's live entries per (player, column, target), in deal order, with running sums:
    the value after any deal and the entries behind it, without scanning the game again."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.deals: dict[Key, list[int]] = {}
        self.sums: dict[Key, list[Num]] = {}
        self.entries: dict[Key, list[Entry]] = {}
        for e in sorted((e for e in entries if not e.void), key=lambda e: e.deal):
            key = (e.player, e.column, e.on)
            sums = self.sums.setdefault(key, [])
            sums.append((sums[-1] if sums else 0) + e.amount)
            self.deals.setdefault(key, []).append(e.deal)
            self.entries.setdefault(key, []).append(e)

    def upto(self, key: Key, deal: int) -> int:
        """How many entries of ``key`` stand by the end of ``deal``."""
        return bisect.bisect_right(self.deals.get(key, []), deal)

    def value(self, key: Key, count: int) -> Num:
        """The sum of the first ``count`` entries of ``key``."""
        return self.sums[key][count - 1] if count else 0

    def trail(self, key: Key, since: int, until: int) -> tuple[tuple[Entry, ...], Earlier | None]:
        """Entries ``since`` … ``until`` (counts), at most :data:`TRAIL_MAX`; the ones before are summed."""
        since = max(since, until - TRAIL_MAX)
        shown = tuple(self.entries.get(key, [])[since:until])
        if not since:
            return shown, None
        return shown, Earlier(since, self.value(key, since), self.entries[key][since - 1].deal)


def audit(res: GameResult, claimed: Sequence[Claim] | None = None) -> AuditReport:
    """Compare a game's recorded checkpoints (or ``claimed``) with its computed sheet.

    Each mismatch lists the entries since the last recorded value of the same column that
    agreed (at most :data:`TRAIL_MAX`); what comes before is one sum. The work is one pass over
    the game's entries and a binary search per recorded value.
    """
    if claimed is None:
        claims = []
        for cp in res.checkpoints:
            where = f"line {cp.line}: " if cp.line else ""
            claims += claims_of_sheet(cp.event.sheet, cp.event.after_deal, where)
    else:
        claims = list(claimed)
    claims.sort(key=lambda c: c.after_deal)
    ledger = _Ledger(res.entries)
    mismatches: list[Mismatch] = []
    last: dict[Key, tuple[int, Num]] = {}
    agreed: dict[Key, int] = {}  # the entry count at the key's last agreeing recorded value
    first_bad: Mismatch | None = None
    agree_until = None
    for c in claims:
        key = (c.player, c.field, c.on)
        if c.field == "result":  # the settlement's, not a column's: no entries behind it
            computed = res.result.get(c.player, 0)
            if c.value != computed:
                mismatches.append(Mismatch(c, computed, (), False, None))
            continue
        count = ledger.upto(key, c.after_deal)
        computed = ledger.value(key, count)
        diff = c.value - computed
        before = last.get(key)
        if diff:
            carried = before is not None and before[1] == diff
            trail, rest = ledger.trail(key, agreed.get(key, 0), count)
            m = Mismatch(c, computed, trail, carried, rest)
            mismatches.append(m)
            if first_bad is None:
                first_bad = m
                agree_until = before[0] if before is not None and before[1] == 0 else 0
        else:
            agreed[key] = count
        last[key] = (c.after_deal, diff)
    suspects: tuple[int, ...] = ()
    part_by = None
    if first_bad is not None:
        part_by = first_bad.claim.after_deal
        low = agree_until or 0
        suspects = tuple(sorted({e.deal for e in first_bad.trail if low < e.deal <= part_by}))
    return AuditReport(res.game, len(claims), tuple(mismatches), agree_until, part_by, suspects,
                       claim_verdicts(res))


def read_claimed(path: str, data: bytes, default_deal: int, players: Sequence[str] | None = None) -> list[Claim]:
    """A claimed sheet: JSON (``{"Аня": {"pool": 14, …}}``, optionally wrapped as
    ``{"after_deal": N, "sheet": {…}}``) or CSV with columns ``player,field,value`` (and
    optionally ``after_deal``; ``field`` is ``pool``, ``mountain``, ``points`` or ``whists:NAME``).

    ``default_deal`` is the game's last deal; with ``players``, every name is checked too.
    """
    claims = _read_claims(path, data, default_deal)
    if not claims:
        raise ClaimError(f"{path}: no claimed values")
    for c in claims:
        if not 0 <= c.after_deal <= default_deal:
            raise ClaimError(f"{c.source}after deal {c.after_deal}: the game has deals 1..{default_deal}")
        for name in (c.player, c.on):
            if players is not None and name is not None and name not in players:
                raise ClaimError(f"{c.source}{name!r} is not a player of this game ({', '.join(players)})")
        if c.on is not None and c.on == c.player:
            raise ClaimError(f"{c.source}whists of {c.player} on {c.player}: nobody writes whists on himself")
    return claims


_CSV_NAMES = ("player", "field", "value", "after_deal")
_FIELDS = ("pool", "mountain", "points", "whists", "bula", "soups", "result")
_PAIRED = frozenset({"whists", "soups"})
"""The fields of a claimed sheet written on another player (the log format's ``score_recorded`` sheet lines)."""
ALIASES: dict[str, str] = {
    **{RU[k]: k for k in ("player", "field", "value", *_FIELDS) if k in RU},
    RU["deal"]: "after_deal", "после_сдачи": "after_deal", "после сдачи": "after_deal",
}
"""The Russian names a scorekeeper writes in a claimed sheet (``игрок, поле, значение``; ``пуля, гора,
висты``), each to the name vistlog reads: the words of :data:`~vistlog.projections.words.RU`."""


def _name(text: str) -> str:
    """A column, field or key of a claimed sheet in vistlog's own name (Russian ones translated)."""
    key = text.strip()
    return ALIASES.get(key.lower(), ALIASES.get(key, key))


def _value(text: str) -> Fraction:
    """A claimed number: ``14``, ``-7/2``, ``45 1/3`` (as vistlog prints it), ``3,5``."""
    t = text.strip().replace(",", ".").replace("−", "-")
    whole, _, part = t.partition(" ")
    if part and "/" in part:
        w, frac = Fraction(whole), Fraction(part.strip())
        return w - frac if t.startswith("-") else w + frac
    return Fraction(t)


def _english_keys(line: object) -> object:
    """A JSON sheet line with Russian keys (``{"пуля": 14, "висты": {…}}``) in vistlog's names."""
    return {_name(k): v for k, v in line.items()} if isinstance(line, dict) else line


def _read_claims(path: str, data: bytes, default_deal: int) -> list[Claim]:
    text = data.decode("utf-8-sig", errors="replace").strip()
    if not text:
        raise ClaimError(f"{path}: empty")
    if text[0] == "{":
        try:
            obj = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise ClaimError(f"{path}: not valid JSON ({exc})") from None
        after = obj.get("after_deal", default_deal) if "sheet" in obj else default_deal
        sheet = obj.get("sheet", obj)
        from vistlog.events.codec import converter

        if type(after) is not int:
            raise ClaimError(f"{path}: after_deal: expected a whole number")
        if type(sheet) is not dict:
            raise ClaimError(f"{path}: sheet: expected an object of players")
        out = []
        for player, line in sheet.items():
            try:
                out += claims_of_sheet({player: converter().structure(_english_keys(line), SheetLine)}, after,
                                       f"{path}: ")
            except Exception as exc:  # noqa: BLE001 - any malformed line is one message
                raise ClaimError(f"{path}: {player}: not a sheet line ({exc})") from None
        return out
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames:
        reader.fieldnames = [_name(f) for f in reader.fieldnames]
    if not {"player", "field", "value"} <= set(reader.fieldnames or ()):
        raise ClaimError(f"{path}:1: CSV needs the columns player, field, value (игрок, поле, значение) "
                         f"(found: {', '.join(reader.fieldnames or ())})")
    out = []
    for i, row in enumerate(reader, start=2):
        try:
            player, field, value = restored(row["player"].strip()), row["field"].strip(), row["value"].strip()
        except (KeyError, AttributeError):
            raise ClaimError(f"{path}:{i}: a row needs player, field and value") from None
        on = None
        head, sep, rest = next(((field[:i], field[i], field[i + 1:]) for i, ch in enumerate(field) if ch in ":.→"),
                               (field, "", ""))
        head = _name(head)
        for word in (" на ", " on "):  # висты на Боря
            if sep == "" and word in field:
                head, _, rest = field.partition(word)
                head, sep = _name(head), ":"
        field = head if head in _FIELDS else _name(field)
        if sep and field in _PAIRED:
            on = restored(rest.strip())
        if field not in _FIELDS or (field in _PAIRED and not on):
            raise ClaimError(f"{path}:{i}: field {field!r}{nearest(field, _FIELDS)}: the fields are pool, mountain, "
                             "points, whists:NAME (пуля, гора, очки, висты:ИМЯ; Serbian: bula, soups:NAME, result)")
        try:
            v = _value(value)
        except (ValueError, ZeroDivisionError):
            raise ClaimError(f"{path}:{i}: {value!r} is not a number") from None
        try:
            after = int(row.get("after_deal") or default_deal)
        except ValueError:
            raise ClaimError(f"{path}:{i}: after_deal {row.get('after_deal')!r} is not a deal number") from None
        out.append(Claim(after, player, field, v, on, f"{path}:{i}: "))
    return out
