"""The Serbian paper: per player a left soup column, the bula and a right soup column.

The Serbian layout of the sheet (:data:`BULA`), its paper and its drawing. The bula column shows every value it
took, a refa drawn as ``△`` and one played as ``▲``, and the hat (*šešir*) as ``∩`` when the bula reaches 0
or less, ``∩̸`` when it climbs back. The soups on the left-hand neighbour (the previous player in turn order)
stand left of the bula, those on the right-hand neighbour right of it, as on Prefko's paper.

>>> from vistlog.projections.fold import run
>>> res = next(r for r in run("tests/vectors/serbian/sr-1.jsonl") if hasattr(r, "entries"))
>>> bula_marks(res, "Vesna")
'20 △ ∩ -8 ▲ -16'
"""

from __future__ import annotations

import textwrap
from html import escape
from typing import Any, Final

from vistlog.events.rules import SerbianOptions
from vistlog.events.games.serbian.game import neighbours

from vistlog.events.entries import Entry, Num, Totals, exact, fmt
from vistlog.events.games.serbian.score import write_off
from ...fold import GameResult
from ...render.layouts import Layout
from ...render.text import fit, table
from ...words import Lang, Words, mixed

__all__ = ["bula_marks", "paper_rows", "sheet_json", "settle_extra", "serbian_svg", "LEGEND", "BULA"]

LEGEND = "△ refa drawn, ▲ refa played, ∩ hat (the bula reached 0), ∩̸ hat crossed (it climbed back)"


def _entries(res: GameResult, upto: int | None) -> list[Entry]:
    return [e for e in res.entries if not e.void and (upto is None or e.deal <= upto)]  # counted ones only


def bula_marks(res: GameResult, player: str, upto: int | None = None) -> str:
    """The bula column as written: each value after a deal, refe and hats between."""
    out: list[str] = []
    value: Num = 0
    deal = -1
    for e in _entries(res, upto):
        if e.player != player or e.column not in ("bula", "refe"):
            continue
        if e.column == "refe":
            out.append("△" if e.amount > 0 else "▲")
            continue
        before = value
        value += e.amount
        if e.deal == deal and out and out[-1] not in ("△", "▲", "∩", "∩̸"):
            out[-1] = fmt(value)
        else:
            out.append(fmt(value))
        deal = e.deal
        if e.deal > 0 and before > 0 >= value:
            out.insert(len(out) - 1, "∩")
        elif e.deal > 0 and before <= 0 < value:
            out.insert(len(out) - 1, "∩̸")
    return " ".join(out)


def _soups(res: GameResult, writer: str, on: str, upto: int | None) -> str:
    total: Num = 0
    out = []
    for e in _entries(res, upto):
        if e.column == "soups" and e.player == writer and e.on == on:
            total += e.amount
            out.append(fmt(total))
    return " ".join(out) or "—"


def paper_rows(res: GameResult, upto: int | None = None, w: Words | None = None) -> list[list[str]]:
    """The text table: a header, then a row per player (left soups, bula, right soups, open refe)."""
    w = w or Words()
    t = res.totals_after(upto)
    rows = [["", "← " + w("soups"), w("bula"), w("soups") + " →", w("refe")]]
    players = list(res.players)
    for p in players:
        left, right = neighbours(players, p)
        rows.append([p, f"{left}: {_soups(res, p, left, upto)}", bula_marks(res, p, upto),
                     f"{right}: {_soups(res, p, right, upto)}", mixed(t["refe"][p])])
    return rows


def sheet_json(res: GameResult, upto: int | None = None) -> dict[str, Any]:
    """The Serbian sheet as JSON: per player bula, soups written (by target) and open refe."""
    t = res.totals_after(upto)
    sheet = {p: {"bula": exact(t["bula"][p]), "soups": {q: exact(v) for q, v in t.pairs_by("soups", p).items()},
                 "open_refe": exact(t["refe"][p])} for p in res.players}
    running = {p: {"bula": bula_marks(res, p, upto),
                   "soups": {q: _soups(res, p, q, upto) for q in res.players if q != p}} for p in res.players}
    return {"sheet": sheet, "running": running, "refe_written": t.times["refe"]}


def settle_extra(res: GameResult) -> dict[str, Any]:
    """What a Serbian settlement adds: the bula before and after the write-off, the soups."""
    o = res.started.rules.options
    assert isinstance(o, SerbianOptions)
    t = res.totals
    cut = write_off(o, res.players, t["bula"])
    return {"bula": {p: exact(t["bula"][p]) for p in res.players},
            "write_off": {p: exact(cut[p]) for p in res.players},
            "bula_after_write_off": {p: exact(t["bula"][p] - cut[p]) for p in res.players},
            "soups": {p: {q: exact(t["soups"].get((p, q), 0)) for q in res.players if q != p} for p in res.players},
            "refe_written": t.times["refe"], "open_refe": {p: exact(t["refe"][p]) for p in res.players}}


def serbian_svg(res: GameResult, upto: int | None = None, lang: Lang | None = None, phone: bool = False) -> str:
    """The three papers side by side (``phone``: one under another): left soups | bula | right soups, refe as
    triangles, hats drawn."""
    words = Words(lang, res.variant)
    players = list(res.players)
    w_col, w_gap, top, line = 78, 18, 56, 18
    cols: list[list[list[str]]] = []
    for p in players:
        left, right = neighbours(players, p)
        cols.append([_soups(res, p, left, upto).split(), bula_marks(res, p, upto).split(),
                     _soups(res, p, right, upto).split()])
    rows = max(len(c) for col in cols for c in col)
    block = top + line * (rows + 1)
    width = len(players) * (3 * w_col + w_gap) + w_gap if not phone else 3 * w_col + 2 * w_gap
    legend = [words(LEGEND)] if not phone else textwrap.wrap(words(LEGEND), int((width - w_gap) / (0.6 * 11)))
    height = (block if not phone else len(players) * block) + 16 * len(legend) + 14
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="13">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fffdf6" stroke="#999"/>']
    for i, p in enumerate(players):
        x0, y0 = (w_gap + i * (3 * w_col + w_gap), 0) if not phone else (w_gap, i * block)
        left, right = neighbours(players, p)
        out.append(f'<text x="{x0 + 1.5 * w_col}" y="{y0 + 22}" text-anchor="middle" font-weight="bold">'
                   f"{escape(p)}</text>")
        for k, label in enumerate((f"← {left}", words("bula"), f"{right} →")):
            out.append(f'<text x="{x0 + (k + 0.5) * w_col}" y="{y0 + 42}" text-anchor="middle" fill="#666" '
                       f'font-size="11">{escape(label)}</text>')
        out.append(f'<rect x="{x0}" y="{y0 + top - 10}" width="{3 * w_col}" height="{line * (rows + 1)}" '
                   'fill="none" stroke="#1f5fa8"/>')
        for k in (1, 2):
            out.append(f'<line x1="{x0 + k * w_col}" y1="{y0 + top - 10}" x2="{x0 + k * w_col}" '
                       f'y2="{y0 + top - 10 + line * (rows + 1)}" stroke="#1f5fa8"/>')
        for k, column in enumerate(cols[i]):
            cx = x0 + (k + 0.5) * w_col
            for j, value in enumerate(column):
                y = y0 + top + 6 + j * line
                out.append(_mark(value, cx, y))
    for i, text in enumerate(legend):
        out.append(f'<text x="{w_gap}" y="{height - 10 - 16 * (len(legend) - 1 - i)}" fill="#666" font-size="11">'
                   f"{escape(text)}</text>")
    out.append("</svg>")
    return "\n".join(out)


def _mark(value: str, cx: float, y: float) -> str:
    if value in ("△", "▲"):
        fill = "none" if value == "△" else "#b8432f"
        return (f'<polygon points="{cx - 7},{y + 2} {cx + 7},{y + 2} {cx},{y - 11}" fill="{fill}" '
                'stroke="#b8432f"><title>refa</title></polygon>')
    if value in ("∩", "∩̸"):
        cross = (f'<line x1="{cx - 10}" y1="{y + 3}" x2="{cx + 10}" y2="{y - 12}" stroke="#b8432f"/>'
                 if value != "∩" else "")
        return (f'<path d="M{cx - 10},{y + 2} h20 M{cx - 6},{y + 2} v-10 h12 v10" fill="none" stroke="#222">'
                f'<title>šešir (hat)</title></path>{cross}')
    if value == "—":
        return ""
    return f'<text x="{cx}" y="{y}" text-anchor="middle">{escape(value)}</text>'


def _bula_fields(res: GameResult, t: Totals, p: str) -> list[tuple[str, Num]]:
    return [("bula", t["bula"][p]), *((f"soups:{q}", t.value(p, "soups", q)) for q in res.players if q != p)]


def _bula_table(res: GameResult, upto: int | None, columns: int | None, w: Words) -> list[str]:
    t = res.totals_after(upto)
    rows = fit(paper_rows(res, upto, w), columns)
    rows.append([w("= total")] + [""] * 4)
    for p in res.players:
        left, right = neighbours(list(res.players), p)
        rows.append([p, mixed(t.value(p, "soups", left)), mixed(t["bula"][p]), mixed(t.value(p, "soups", right)),
                     mixed(t["refe"][p])])
    return [table(rows), f"{w('refe written: {n}', n=t.times['refe'])}; {w(LEGEND)}"]


def _as_said(bid: str, w: Words) -> str:
    return bid


BULA: Final = Layout(
    "bula", sheet=sheet_json, settled=lambda res: {"sheet": sheet_json(res)["sheet"], "extra": settle_extra(res)},
    fields=_bula_fields, table=_bula_table, svg=serbian_svg, bid=_as_said)
"""A bula counted down, soups written on the neighbours and refe (Serbian preferans)."""
