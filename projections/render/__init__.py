"""Rendering: text tables, JSON and CSV of sheets and settlements. Nothing here computes a score.

>>> print(table([["Имя", "n"], ["Аня", "12"], ["Bob", "3"]], align="lr"))
Имя   n
Аня  12
Bob   3
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from vistlog.events.cards import GameKind
from vistlog.events.rules import show
from vistlog.events.text import neutral

from ..entries import Entry, Num, fmt
from ..fold import GameResult
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


def running_parts(entries: Sequence[Entry], column: str, player: str, on: str | None = None
                  ) -> list[tuple[str, bool]]:
    """The running entries of one column as ``(text, void)`` pairs: a voided deal's value is
    marked void and not carried on."""
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
            parts.append((fmt(struck), True))
        else:
            total += e.amount
            struck_deal = None
            parts.append((fmt(total), False))
    return parts or [("0", False)]


def running(entries: Sequence[Entry], column: str, player: str, on: str | None = None) -> str:
    """The running entries of one column as a paper sheet shows them: ``2.4.8.14``, a voided
    deal's value struck through."""
    return ".".join(strike(text) if void else text for text, void in running_parts(entries, column, player, on))


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
            sheet[p] = {"pool": _num(t.pool[p]), "mountain": _num(t.mountain[p]),
                        "whists": {q: _num(v) for q, v in t.whists_by(p).items()}}
            runs[p] = {"pool": running(entries, "pool", p), "mountain": running(entries, "mountain", p),
                       "whists": {q: running(entries, "whists", p, q) for q in res.players if q != p}}
        else:
            sheet[p] = {"points": _num(t.points[p])}
            runs[p] = {"points": running(entries, "points", p)}
    return {"game": res.game, "kind": res.kind.value, "rules": res.started.rules.preset,
            "players": list(res.players), "after_deal": last_deal(res, upto), "sheet": sheet, "running": runs,
            "voided": sorted({e.deal for e in entries if e.void})}


def _num(x: Num) -> int | str:
    return x.numerator if x.denominator == 1 else fmt(x)


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


def _title(res: GameResult, upto: int | None) -> str:
    rules = res.started.rules
    over = rules_words(rules)
    pool = f", {'bula' if serbian.is_serbian(res) else 'pool'} {res.started.pool}" if res.started.pool else ""
    return f"{res.game} · {res.kind.title} · {over}{pool} · after deal {last_deal(res, upto)}"


def rules_words(rules: Any) -> str:
    """``sochi`` or ``sochi + raspas_exit: strict; raspas_progression: 1, 2, 4`` (the words of ``vistlog rules``)."""
    if not rules.overrides:
        return str(rules.preset)
    options = rules.options
    return f"{rules.preset} + " + "; ".join(f"{k}: {show(getattr(options, k, v))}" for k, v in rules.overrides.items())


def sheet_text(res: GameResult, upto: int | None = None, columns: int | None = None) -> str:
    """The пулька as a text table: running entries per column, Cyrillic names lined up; with
    ``columns`` (a terminal's width) running entries wrap inside their column to fit it."""
    entries = entries_upto(res, upto)
    t = res.totals_after(upto)
    lines = [_title(res, upto)]
    if serbian.is_serbian(res):
        rows = fit(serbian.paper_rows(res, upto), columns)
        rows.append(["= total"] + [""] * 4)
        for p in res.players:
            left, right = serbian.neighbours(list(res.players), p)
            rows.append([p, fmt(t.value(p, "soups", left)), fmt(t.bula[p]), fmt(t.value(p, "soups", right)),
                         fmt(t.refe[p])])
        lines.append(table(rows))
        lines.append(f"refe written: {t.refe_written}; {serbian.LEGEND}")
    elif res.kind is GameKind.PREFERANS:
        head = ["", "пуля (pool)", "гора (mountain)"] + [f"висты на {q}" for q in res.players]
        rows = [head]
        for p in res.players:
            rows.append([p, running(entries, "pool", p), running(entries, "mountain", p)]
                        + ["—" if q == p else running(entries, "whists", p, q) for q in res.players])
        rows = fit(rows, columns)
        rows.append(["= total"] + [""] * (len(head) - 1))
        for p in res.players:
            rows.append([p, fmt(t.pool[p]), fmt(t.mountain[p])]
                        + ["—" if q == p else fmt(t.value(p, "whists", q)) for q in res.players])
        lines.append(table(rows))
    else:
        rows = [["", "очки (points)", "total"]]
        for p in res.players:
            rows.append([p, running(entries, "points", p), fmt(t.points[p])])
        lines.append(table(fit(rows, columns), align="llr"))
    voided = sorted({e.deal for e in entries if e.void})
    if voided:
        lines.append(f"voided deals (struck through): {', '.join(map(str, voided))}")
    return "\n".join(lines)


def settle_json(res: GameResult) -> dict[str, Any]:
    """One game of the ``settle --format json`` contract of CLI.md."""
    t = res.totals
    extra: dict[str, Any] = {}
    if serbian.is_serbian(res):
        extra = serbian.settle_extra(res)
        sheet = serbian.sheet_json(res)["sheet"]
    elif res.kind is GameKind.PREFERANS:
        sheet = {p: {"pool": _num(t.pool[p]), "mountain": _num(t.mountain[p]),
                     "whists": {q: _num(v) for q, v in t.whists_by(p).items()}} for p in res.players}
    else:
        sheet = {p: {"points": _num(t.points[p])} for p in res.players}
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


def settle_text(game: GameResult | dict[str, Any]) -> str:
    """The settlement as a small table, with money and payments when there is a stake.

    Takes a game result or its ``settle_json`` dict (what the batch runner carries)."""
    d = settle_json(game) if isinstance(game, GameResult) else game
    unit = "points" if d["kind"] != "preferans" or d["rules"] == "serbian" else "whists"
    kind = GameKind(d["kind"]).title
    lines = [f"{d['game']} · {kind} · {d['rules']} · {d['deals']} deal{'' if d['deals'] == 1 else 's'}"
             + (f" · {d['problems']} problem(s)" if d.get("problems") else "")]
    money = d.get("money")
    rows = [["", f"exact ({unit})", "rounded"] + (["money"] if money else [])]
    for p in d["players"]:
        x = Fraction(d["result"][p])
        r = d["result_rounded"][p]
        rows.append([p, ("+" if x > 0 else "") + _mixed(x), ("+" if r > 0 else "") + str(r)]
                    + ([money[p]] if money else []))
    lines.append(table(rows, align="lrrr"))
    if any(d.get("write_off", {}).values()):
        lines.append("write-off (otpis): " + "; ".join(
            f"{p} {d['bula'][p]} → {d['bula_after_write_off'][p]}" for p in d["players"]))
    if d.get("payments"):
        lines.append("payments: " + "; ".join(f"{x['from']} → {x['to']} {x['amount']}" for x in d["payments"]))
    lines.append("zero-sum: " + ("yes" if d["zero_sum"] else "NO"))
    return "\n".join(lines)


def audit_text(d: dict[str, Any]) -> str:
    """An audit report (its JSON dict) as text."""
    if d["ok"]:
        return f"{d['game']}: {d['checked']} recorded value(s), all match"
    lines = [f"{d['game']}: {len(d['mismatches'])} of {d['checked']} recorded value(s) differ"]
    lines += ["  " + m["text"] for m in d["mismatches"]]
    lines.append("  " + d["summary"])
    return "\n".join(lines)


def _mixed(x: Fraction) -> str:
    """``-75 1/3`` rather than ``-226/3``."""
    if x.denominator == 1:
        return str(x.numerator)
    whole = int(x)
    rest = abs(x - whole)
    return f"{'-' if x < 0 and whole == 0 else ''}{whole if whole else ''} {rest.numerator}/{rest.denominator}".strip()
