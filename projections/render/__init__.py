"""Rendering: text tables, JSON and CSV of sheets and settlements. Nothing here computes a score.

>>> print(table([["Имя", "n"], ["Аня", "12"], ["Bob", "3"]], align="lr"))
Имя   n
Аня  12
Bob   3
"""

from __future__ import annotations

import csv
import re
import io
import unicodedata
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from vistlog.events.cards import GameKind
from vistlog.events.text import neutral

from ..entries import Entry, Num, exact, fmt
from ..fold import GameResult
from ..words import Lang, Words, mixed, signed
from . import serbian

__all__ = ["width", "table", "running", "running_parts", "entries_upto", "last_deal",
           "sheet_json", "sheet_csv", "sheet_text", "settle_json",
           "settle_text", "audit_text", "strike"]


def width(text: str) -> int:
    """Columns a string takes in a terminal: combining marks take none, wide characters two."""
    w = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def strike(text: str) -> str:
    """Text struck through with combining long strokes (a voided entry)."""
    return "".join(ch + "\u0336" for ch in text)


def table(rows: Sequence[Sequence[str]], align: str = "", gap: int = 2) -> str:
    """Rows of cells lined up by display width; ``align`` has ``l`` or ``r`` per column. A cell
    may hold several lines (``\\n``): its row is then as tall as its tallest cell."""
    cols = max(len(r) for r in rows)
    split = [[(r[i] if i < len(r) else "").split("\n") for i in range(cols)] for r in rows]
    widths = [max(width(line) for r in split for line in r[i]) for i in range(cols)]
    out = []
    for r in split:
        for k in range(max(len(c) for c in r)):
            cells = []
            for i in range(cols):
                cell = r[i][k] if k < len(r[i]) else ""
                pad = " " * (widths[i] - width(cell))
                right = (align[i] if i < len(align) else "l") == "r"
                cells.append(pad + cell if right else cell + pad)
            out.append((" " * gap).join(cells).rstrip())
    return "\n".join(out)


def wrap_running(text: str, limit: int) -> str:
    """Running entries (``2.4.8.14…``) broken after a dot into lines of at most ``limit`` columns."""
    lines: list[str] = []
    line = ""
    for part in text.split("."):
        piece = part if not line else "." + part
        if line and width(line + piece) + 1 > limit:  # room for the dot that ends a wrapped line
            lines.append(line + ".")
            line = part
        else:
            line += piece
    lines.append(line)
    return "\n".join(lines)


def fit(rows: list[list[str]], columns: int | None, gap: int = 2) -> list[list[str]]:
    """The rows with running cells wrapped so that the table fits ``columns`` (``None``: one line each)."""
    if columns is None:
        return rows
    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    if sum(widths) + gap * (len(widths) - 1) <= columns:
        return rows
    head = max([width(r[0]) for r in rows] + [width("= total")])  # the totals' label shares the column
    share = max(8, (columns - head - gap * (len(widths) - 1)) // max(1, len(widths) - 1))
    return [[r[0]] + [wrap_running(c, share) if width(c) > share else c for c in r[1:]] for r in rows]


def running_parts(entries: Sequence[Entry], column: str, player: str, on: str | None = None,
                  show: Callable[[Num], str] = fmt) -> list[tuple[str, bool]]:
    """The running entries of one column as ``(text, void)`` pairs: a voided deal's value is
    marked void and not carried on. ``show`` spells each value (:func:`fmt` for JSON, ``mixed``
    for a person)."""
    total: Num = 0
    struck: Num = 0  # a voided deal's running total: from the live total, over that deal's entries
    struck_deal = None
    parts: list[tuple[str, bool]] = []
    for e in entries:
        if e.column != column or e.player != player or (on is not None and e.on != on):
            continue
        if e.void:
            if struck_deal != e.deal:
                struck, struck_deal = total, e.deal
            struck += e.amount
            parts.append((show(struck), True))
        else:
            total += e.amount
            struck_deal = None
            parts.append((show(total), False))
    return parts or [("0", False)]


def running(entries: Sequence[Entry], column: str, player: str, on: str | None = None,
            show: Callable[[Num], str] = fmt) -> str:
    """The running entries of one column as a paper sheet shows them: ``2.4.8.14``, a voided
    deal's value struck through."""
    return ".".join(strike(text) if void else text
                    for text, void in running_parts(entries, column, player, on, show))


def entries_upto(res: GameResult, upto: int | None) -> list[Entry]:
    """The entries of a game up to deal ``upto`` (all of them when ``None``)."""
    return [e for e in res.entries if upto is None or e.deal <= upto]


def last_deal(res: GameResult, upto: int | None) -> int:
    """The last deal a view up to ``upto`` shows."""
    return res.deals if upto is None else min(upto, res.deals)


def sheet_json(res: GameResult, upto: int | None = None) -> dict[str, Any]:
    """The sheet as JSON: totals (the ``score_recorded`` shape) and the running columns."""
    if serbian.is_serbian(res):
        return {"game": res.game, "kind": res.kind.value, "rules": res.started.rules.preset,
                "players": list(res.players), "after_deal": last_deal(res, upto), **serbian.sheet_json(res, upto),
                "voided": sorted({e.deal for e in entries_upto(res, upto) if e.void})}
    t = res.totals_after(upto)
    entries = entries_upto(res, upto)
    sheet: dict[str, Any] = {}
    runs: dict[str, Any] = {}
    for p in res.players:
        if res.kind is GameKind.PREFERANS:
            sheet[p] = {"pool": exact(t.pool[p]), "mountain": exact(t.mountain[p]),
                        "whists": {q: exact(v) for q, v in t.whists_by(p).items()}}
            runs[p] = {"pool": running(entries, "pool", p), "mountain": running(entries, "mountain", p),
                       "whists": {q: running(entries, "whists", p, q) for q in res.players if q != p}}
        else:
            sheet[p] = {"points": exact(t.points[p])}
            runs[p] = {"points": running(entries, "points", p)}
    return {"game": res.game, "kind": res.kind.value, "rules": res.started.rules.preset,
            "players": list(res.players), "after_deal": last_deal(res, upto), "sheet": sheet, "running": runs,
            "voided": sorted({e.deal for e in entries if e.void})}



def sheet_csv(results: Sequence[GameResult], upto: int | None = None) -> str:
    """``game,after_deal,player,field,value`` rows; ``audit --claimed`` reads the same columns."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["game", "after_deal", "player", "field", "value"])
    for res in results:
        t = res.totals_after(upto)
        deal = last_deal(res, upto)
        game = neutral(res.game)
        for p in res.players:
            if serbian.is_serbian(res):
                w.writerow([game, deal, neutral(p), "bula", fmt(t.bula[p])])
                for q in res.players:
                    if q != p:
                        w.writerow([game, deal, neutral(p), f"soups:{q}", fmt(t.value(p, "soups", q))])
            elif res.kind is GameKind.PREFERANS:
                w.writerow([game, deal, neutral(p), "pool", fmt(t.pool[p])])
                w.writerow([game, deal, neutral(p), "mountain", fmt(t.mountain[p])])
                for q in res.players:
                    if q != p:
                        w.writerow([game, deal, neutral(p), f"whists:{q}", fmt(t.value(p, "whists", q))])
            else:
                w.writerow([game, deal, neutral(p), "points", fmt(t.points[p])])
    return buf.getvalue()


def _title(res: GameResult, upto: int | None, w: Words) -> str:
    """The sheet's header, one short line: game, kind, preset (and how many options the game changes:
    ``vistlog rules`` says them), pool, stake, deal."""
    rules = res.started.rules
    changed = len(rules.overrides)
    preset = str(rules.preset) + (f" ({w('{n} option(s) changed', n=changed)})" if changed else "")
    size, stake = res.started.pool, res.started.stake
    parts = [res.game, w.kind(res.kind.value, serbian.is_serbian(res)), preset]
    if size:
        parts.append(f"{w('bula' if serbian.is_serbian(res) else 'pool')} {size}")
    if stake:
        parts.append(f"{w('stake')} {stake}")
    return " · ".join([*parts, w("after deal {n}", n=last_deal(res, upto))])


def sheet_text(res: GameResult, upto: int | None = None, columns: int | None = None, lang: Lang | None = None) -> str:
    """The пулька as a text table: running entries per column, Cyrillic names lined up; with
    ``columns`` (a terminal's width) running entries wrap inside their column to fit it."""
    w = Words(lang)
    entries = entries_upto(res, upto)
    t = res.totals_after(upto)
    lines = [_title(res, upto, w)]
    if serbian.is_serbian(res):
        rows = fit(serbian.paper_rows(res, upto, w), columns)
        rows.append([w("= total")] + [""] * 4)
        for p in res.players:
            left, right = serbian.neighbours(list(res.players), p)
            rows.append([p, mixed(t.value(p, "soups", left)), mixed(t.bula[p]), mixed(t.value(p, "soups", right)),
                         mixed(t.refe[p])])
        lines.append(table(rows))
        lines.append(f"{w('refe written: {n}', n=t.refe_written)}; {w(serbian.LEGEND)}")
    elif res.kind is GameKind.PREFERANS:
        head = ["", w("pool"), w("mountain")] + [w("whists on {player}", player=q) for q in res.players]
        rows = [head]
        for p in res.players:
            rows.append([p, running(entries, "pool", p, show=mixed), running(entries, "mountain", p, show=mixed)]
                        + ["—" if q == p else running(entries, "whists", p, q, mixed) for q in res.players])
        rows = fit(rows, columns)
        rows.append([w("= total")] + [""] * (len(head) - 1))
        for p in res.players:
            rows.append([p, mixed(t.pool[p]), mixed(t.mountain[p])]
                        + ["—" if q == p else mixed(t.value(p, "whists", q)) for q in res.players])
        lines.append(table(rows))
    else:
        rows = [["", w("points"), w("total")]]
        for p in res.players:
            rows.append([p, running(entries, "points", p, show=mixed), mixed(t.points[p])])
        lines.append(table(fit(rows, columns), align="llr"))
    voided = sorted({e.deal for e in entries if e.void})
    if voided:
        lines.append(w("voided deals (struck through): {deals}", deals=", ".join(map(str, voided))))
    return "\n".join(lines)


def settle_json(res: GameResult) -> dict[str, Any]:
    """One game of the ``settle --format json`` contract of CLI.md."""
    t = res.totals
    extra: dict[str, Any] = {}
    if serbian.is_serbian(res):
        extra = serbian.settle_extra(res)
        sheet = serbian.sheet_json(res)["sheet"]
    elif res.kind is GameKind.PREFERANS:
        sheet = {p: {"pool": exact(t.pool[p]), "mountain": exact(t.mountain[p]),
                     "whists": {q: exact(v) for q, v in t.whists_by(p).items()}} for p in res.players}
    else:
        sheet = {p: {"points": exact(t.points[p])} for p in res.players}
    out: dict[str, Any] = {
        "game": res.game, "kind": res.kind.value, "rules": res.started.rules.preset,
        "players": list(res.players), "deals": res.deals, "sheet": sheet,
        "result": {p: fmt(res.result[p]) for p in res.players},
        "result_rounded": {p: res.rounded[p] for p in res.players},
        "zero_sum": res.zero_sum, **extra,
    }
    if res.money is not None:
        out["money"] = res.money
        out["payments"] = res.payments
    if not res.sound:
        out["problems"] = res.problems
    return out


def settle_text(game: GameResult | dict[str, Any], lang: Lang | None = None) -> str:
    """The settlement as a small table, with money and payments when there is a stake.

    Takes a game result or its ``settle_json`` dict (what the batch runner carries)."""
    w = Words(lang)
    d = settle_json(game) if isinstance(game, GameResult) else game
    unit = w("points" if d["kind"] != "preferans" or d["rules"] == "serbian" else "whists")
    head = [d["game"], w.kind(d["kind"], d["rules"] == "serbian"), d["rules"], w("{n} deal(s)", n=d["deals"])]
    if d.get("problems"):
        head.append(w("{n} problem(s)", n=d["problems"]))
    lines = [" · ".join(map(str, head))]
    money = d.get("money")
    rows = [["", w("exact ({unit})", unit=unit), w("rounded")] + ([w("money")] if money else [])]
    for p in d["players"]:
        r = d["result_rounded"][p]
        rows.append([p, signed(Fraction(d["result"][p])), signed(r)] + ([money[p]] if money else []))
    lines.append(table(rows, align="lrrr"))
    if any(d.get("write_off", {}).values()):
        lines.append(w("write-off (otpis): ") + "; ".join(
            f"{p} {mixed(Fraction(d['bula'][p]))} → {mixed(Fraction(d['bula_after_write_off'][p]))}"
            for p in d["players"]))
    if d.get("payments"):
        lines.append(w("payments: ") + "; ".join(f"{x['from']} → {x['to']} {x['amount']}" for x in d["payments"]))
    lines.append(w("zero-sum: ") + w.yes(d["zero_sum"]))
    return "\n".join(lines)


def audit_text(d: dict[str, Any], lang: Lang | None = None) -> str:
    """An audit report (its JSON dict) as text, in the language asked for."""
    w = Words(lang)
    if d["ok"]:
        return w("{game}: {n} recorded value(s), all match", game=d["game"], n=d["checked"])
    lines = [w("{game}: {k} of {n} recorded value(s) differ", game=d["game"], k=len(d["mismatches"]), n=d["checked"])]
    lines += ["  " + mismatch_text(m, w) for m in d["mismatches"]]
    lines.append("  " + summary_text(d, w))
    return "\n".join(lines)


def _label(m: dict[str, Any], w: Words) -> str:
    field = w(m["field"])
    return (w("{field} of {player} on {on}", field=field, player=m["player"], on=m["on"]) if m.get("on")
            else w("{field} of {player}", field=field, player=m["player"]))


def mismatch_text(m: dict[str, Any], w: Words) -> str:
    """One mismatch of an audit's JSON in words: where, recorded, computed and the entries that make it."""
    x = Fraction
    source = m.get("source", "")
    line = re.fullmatch(r"line (\d+): ", source)
    head = ((w("line {n}: ", n=line[1]) if line else source) + w("after deal {n}", n=m["after_deal"])
            + f": {_label(m, w)}: "
            + w("recorded {value}, computed ", value=mixed(x(m["recorded"]))))
    if m["carried"]:
        return head + w("{value} (the same difference of {diff}, carried on)", value=mixed(x(m["computed"])),
                        diff=mixed(x(m["recorded"]) - x(m["computed"])))
    trail, rest = m["trail"], m.get("trail_earlier")
    if not trail and rest is None:
        return head + w("{value} (no entries)", value=mixed(x(m["computed"])))
    parts = []
    if rest is not None:
        many = "{n} entry up to deal {deal}" if rest["entries"] == 1 else "{n} entries up to deal {deal}"
        parts.append(f"{mixed(x(rest['amount']))} (" + w(many, n=rest["entries"], deal=rest["up_to_deal"]) + ")")
    for i, e in enumerate(trail, start=len(parts)):
        a = x(e["amount"])
        sign = ("- " if a < 0 else "+ ") if i else ("-" if a < 0 else "")
        parts.append(f"{sign}{mixed(abs(a))} ({w('deal')} {e['deal']}, {w.reason(e['reason'])})")
    return head + f"{mixed(x(m['computed']))} = " + " ".join(parts)


def summary_text(d: dict[str, Any], w: Words) -> str:
    """Where recorded and computed part, in one sentence, from an audit's JSON."""
    if d["ok"]:
        return w("recorded and computed agree")
    label = _label(d["mismatches"][0], w)
    agree, part, suspects = d["agree_until_deal"], d["part_by_deal"], d["suspect_deals"]
    text = (w("recorded and computed agree after deal {a} and part by deal {b} ({label})", a=agree, b=part,
              label=label) if agree else
            w("recorded and computed part by deal {b} ({label})", b=part, label=label))
    if len(suspects) == 1:
        return text + w(": the entry of deal {n} is where they part", n=suspects[0])
    if suspects:
        return text + w("; deals between that touch it: {deals}", deals=", ".join(map(str, suspects)))
    return text
