"""The open-hand analysis as a person reads it: text (one line a card, the mistakes marked) and a
self-contained HTML page, both drawn from the JSON-ready dict of
:func:`vistlog.projections.analysis.analysis_json`.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from html import escape
from typing import Any

from vistlog.events.cards import parse_card

from ..odds import MIN_KEPT
from ..words import Lang, Words, decimal, mixed, plural, signed
from . import claim_text

__all__ = ["analysis_text", "analysis_html", "between", "card_text", "decision_lines", "span"]


def card_text(code: str) -> str:
    """A card with its suit symbol: ``K♠``."""
    return parse_card(code).symbol


def _num(x: int | str) -> Fraction:
    return Fraction(x)


def _costs(cost: dict[str, int | str]) -> str:
    return ", ".join(f"{p} {mixed(_num(x))}" for p, x in cost.items())


def _ranges(numbers: list[int]) -> str:
    """``1–4, 8, 10–12``."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def span(low: int, high: int, most: int, w: Words) -> str:
    """A count the search proved only a range of, in words: ``at least 1 trick``, ``at most 2 tricks``,
    ``1 to 3 tricks`` (``most``: the deal's tricks); one number when exact.

    >>> span(1, 10, 10, Words("ru")), span(0, 2, 10, Words("en")), span(2, 5, 10, Words("ru"))
    ('не меньше 1 взятки', 'at most 2 tricks', 'от 2 до 5 взяток')
    """
    if low == high:
        return str(low)
    if low == 0 and high >= most:
        return w("not counted within the budget")
    if high >= most or low == 0:
        n = low if high >= most else high
        return w("at least {n} trick(s)" if high >= most else "at most {n} trick(s)", n=n,
                 genitive=plural(n, "взятки", "взяток", "взяток"))
    return w("{low} to {high} tricks", low=low, high=high, genitive=plural(high, "взятки", "взяток", "взяток"))


def between(low: int, high: int) -> str:
    """A value the search proved as a range, as a number: ``3``, or ``1–3``."""
    return str(low) if low == high else f"{low}–{high}"


def _card_values(c: dict[str, Any]) -> tuple[str, str]:
    """A card's values before and after it: numbers, or the ranges proved (``1–3``)."""
    if c.get("exact", True):
        return str(c["before"]), str(c["after"])
    return between(c["before_low"], c["before_high"]), between(c["after_low"], c["after_high"])


def _card_note(c: dict[str, Any], unit: str, w: Words) -> str:
    """What a person reads beside a card: its cost where it cost a trick, and a turned fate."""
    notes = []
    if c.get("mistake"):
        if c["better"]:
            n = abs(c["after"] - c["before"])
            notes.append(w("cost {n} trick(s); {cards} kept the value", n=n,
                           cards=" ".join(card_text(x) for x in c["better"])))
        else:
            notes.append(w("the cost not counted within the budget"))
        if c["cost"]:
            notes.append(w("cost in {unit}", unit=w(unit)) + ": " + _costs(c["cost"]))
    if c.get("fate"):
        notes.append(w("the contract now makeable" if c["fate"] == "made" else "the contract no longer makeable"))
    return "; ".join(notes)


def _deal_head(d: dict[str, Any], w: Words) -> str:
    """A deal's line: the contract, who plays it and its double-dummy value; a raspas: what each can hold
    himself to."""
    if "values" in d:  # a raspas: each for himself
        ranges = d.get("ranges", {})
        each = ", ".join([f"{p} {n}" for p, n in d["values"].items()]
                         + [f"{p} {between(lo, hi)}" for p, (lo, hi) in ranges.items()])
        took = d["taken"]
        taken = "" if took is None else " · " + w("took {n}", n=", ".join(f"{p} {n}" for p, n in took.items()))
        return (w("Deal {n}", n=d["deal"]) + ": " + w("raspas") + " · "
                + w("each can hold himself to: {each}", each=each) + taken)
    contract = w.contract(d["contract"])
    value = d["value"]
    if d["makeable"] is None:
        verdict = w("not decided within the budget")
    elif d.get("objective") == "fewest":
        verdict = w("clean") if d["makeable"] else w("caught")
    else:
        verdict = w("makeable") if d["makeable"] else w("not makeable")
    taken = "" if d["taken"] is None else " · " + w("took {n}", n=d["taken"])
    who = "+".join(d.get("side") or [d["declarer"]])
    if value is None and d["makeable"] is None and d["low"] == 0 and d["high"] >= d["tricks"]:
        said = w("double-dummy: not decided within the budget")
    elif value is None:
        said = w("double-dummy {v} ({verdict})", v=span(d["low"], d["high"], d["tricks"], w), verdict=verdict)
    else:
        said = w("double-dummy {v} trick(s), the defence {d} ({verdict})", v=value, d=d["defence"], verdict=verdict)
    if d.get("answer") == "range" and value is not None:
        said += "; " + w("the count past the budget")
    return w("Deal {n}", n=d["deal"]) + f": {who} {contract} · " + said + taken


def _notes(d: dict[str, Any], w: Words) -> list[str]:
    """A deal's whist decisions, claim and best discard, a line each."""
    out = [w("{player}: {call} instead of {other}: {gain}", player=call["player"], call=w(call["call"]),
             other=w(call["instead"]), gain=signed(_num(call["gain"]))) for call in d.get("calls", ())]
    if d.get("claim"):
        out.append(claim_text(d["claim"], w))
    x = d.get("discard")
    if x:
        out.append(w("discard {cards}: {v}; best {best}: {bv}", cards=" ".join(card_text(c) for c in x["discarded"]),
                     v=x["value"], best=" ".join(card_text(c) for c in x["best"]), bv=x["best_value"]))
    return out


def _estimate(e: dict[str, Any], w: Words, percent: bool = False, sign: bool = False, places: int | None = None
              ) -> str:
    """``4.26 [4.01–4.51]``; a chance in per cent; no interval where every layout was solved."""
    scale = 100 if percent else 1
    if places is None:
        places = 0 if percent else 2 if not sign else 1
    mean, low, high = (decimal(_num(e[k]) * scale, places, w.lang, sign) for k in ("mean", "low", "high"))
    pc = "%" if percent else ""
    return f"{mean}{pc}" if e["low"] == e["high"] else f"{mean}{pc} [{low}–{high}{pc}]"


SHOWN = 6
"""A decision's choices a person reads: the best few and the one made (JSON has them all)."""


def decision_lines(x: dict[str, Any], unit: str, w: Words) -> list[str]:
    """One single-dummy decision: a head line (what was decided, its rank and cost), then a line a choice, best
    first, the one made marked ``▸``."""
    layouts = (w("every layout ({n})", n=x["samples"]) if x["exact"]
               else w("{n} layout(s) fit of {drawn} drawn", n=x["samples"], drawn=x["drawn"]))
    if x.get("cut"):
        layouts += " " + w("(the budget stopped the drawing)")
    def named(choice: str) -> str:
        return w(choice) if x["kind"] == "call" else " ".join(card_text(c) for c in choice.split())

    what = w({"call": "whist call", "lead": "opening lead", "discard": "the discard"}[x["kind"]])
    made = named(x["made"])
    if not x["choices"]:
        return [w("single-dummy · {player}, {what} {made}: no layout of {n} drawn fits the contract",
                  player=x["player"], what=what, made=made,
                  n=x["drawn"])]
    if x.get("enough") is False:
        out = [w("single-dummy · {player}, {what} {made}: {layouts}: too few to rank the choices ({n} needed)",
                 player=x["player"], what=what, made=made, layouts=layouts, n=MIN_KEPT)]
    else:
        cost = _estimate({"mean": x["cost"], "low": x.get("cost_low", x["cost"]),
                          "high": x.get("cost_high", x["cost"])}, w, places=1)
        out = [w("single-dummy · {player}, {what} {made}: rank {rank} of {k}, cost {cost} ({unit}) · {layouts}",
                 player=x["player"], what=what, made=made,
                 rank=x["rank"], k=len(x["choices"]), cost=cost, unit=w(unit), layouts=layouts)]
        if (x.get("ties") or 1) > 1:
            out[0] += " · " + w("the best {n} cannot be told apart at {m} layouts", n=x["ties"], m=x["samples"])
    shown = [o for k, o in enumerate(x["choices"]) if k < SHOWN or o["choice"] == x["made"]]
    width = max(len(named(o["choice"])) for o in shown)
    if len(shown) < len(x["choices"]):
        out[0] += " · " + w("the best {n} shown", n=SHOWN)
    for o in shown:
        name = named(o["choice"])
        mark = "▸" if o["choice"] == x["made"] else " "
        out.append(f"  {mark} {name:<{width}}  " + w("tricks {t}", t=_estimate(o["tricks"], w)) + " · "
                   + w(x["goal"] + " {p}", p=_estimate(o["chance"], w, percent=True)) + " · "
                   + w("worth {w}", w=_estimate(o["worth"], w, sign=True)))
    return out


def _skipped(game: dict[str, Any], w: Words) -> list[str]:
    """The deals not analysed, a line for each reason."""
    by_reason: dict[str, list[int]] = {}
    for s in game.get("skipped", ()):
        by_reason.setdefault(s["why"], []).append(s["deal"])
    return [w("not analysed: deal(s) {deals}: {why}", deals=_ranges(deals), why=w(why))
            for why, deals in by_reason.items()]


def analysis_text(game: dict[str, Any], lang: Lang | None = None) -> str:
    """One game's analysis: per deal its double-dummy value, then one line a card (value before → after,
    ``✗`` on a card that cost a trick, the cards that kept it and the cost per player), the whist
    decisions, the claim and the best discard."""
    w = Words(lang, game.get("scoring"))
    out = [f"{game['game']} · " + w("open-hand analysis") + f" · {w(game['unit'])}"]
    if not game["deals"]:  # every deal with its hands is of a kind not analysed yet: the lines below say which
        out.append("  " + w("no deal analysed" if game.get("skipped") or game.get("problems")
                            else "no deal with its hands recorded"))
    if game.get("problems"):
        out.append("  " + w("a deal with a refused event is not analysed ({n} problem(s): vistlog validate lists "
                            "them)", n=game["problems"]))
    for d in game["deals"]:
        out.append("")
        out.append(_deal_head(d, w))
        width = max((len(c["player"]) for c in d["cards"]), default=0)
        for k, c in enumerate(d["cards"], 1):
            before, after = _card_values(c)
            line = f"  {k:>2}. {c['player']:<{width}}  {card_text(c['card']):>3}  {before:>2} → {after:<2}"
            note = _card_note(c, game["unit"], w)
            if note:
                line += ("  ✗ " if c.get("mistake") else "  ") + note
            out.append(line.rstrip())
        out += ["  " + line for line in _notes(d, w)]
        for x in d.get("decisions", ()):
            out += ["  " + line for line in decision_lines(x, game["unit"], w)]
    skipped = _skipped(game, w)
    if skipped:
        out += ["", *skipped]
    return "\n".join(out)


def analysis_html(games: Iterable[dict[str, Any]], lang: Lang | None = None) -> str:
    """A self-contained page (no network requests): a table a deal, the mistakes in red."""
    w = Words(lang)
    parts = []
    for game in games:
        w = Words(lang, game.get("scoring"))
        parts.append(f"<h1>{escape(game['game'])} · {escape(w('open-hand analysis'))}</h1>")
        for d in game["deals"]:
            parts.append(f"<h2>{escape(_deal_head(d, w))}</h2>")
            if d["cards"]:
                rows = []
                for k, c in enumerate(d["cards"], 1):
                    note = escape(_card_note(c, game["unit"], w))
                    before, after = _card_values(c)
                    cls = ' class="mistake"' if c.get("mistake") else ""
                    rows.append(f"<tr{cls}><td class=num>{k}</td><td>{escape(c['player'])}</td>"
                                f"<td>{escape(card_text(c['card']))}</td><td class=num>{before}</td>"
                                f"<td class=num>{after}</td><td>{note}</td></tr>")
                head = "".join(f"<th>{escape(w(h))}</th>" for h in ("#", "player", "card", "before", "after", ""))
                parts.append(f"<table><tr>{head}</tr>{''.join(rows)}</table>")
            parts += [f"<p>{escape(line)}</p>" for line in _notes(d, w)]
            for x in d.get("decisions", ()):
                head, *rows = decision_lines(x, game["unit"], w)
                parts.append(f"<p class=decision>{escape(head)}</p><pre>{escape(chr(10).join(rows))}</pre>")
        parts += [f"<p class=skipped>{escape(line)}</p>" for line in _skipped(game, w)]
    body = "\n".join(parts)
    return f"""<!doctype html>
<html lang="{w.lang}"><head><meta charset="utf-8"><title>{escape(w('open-hand analysis'))}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{padding:2px 8px;
border-bottom:1px solid #ddd}}.num{{text-align:right}}tr.mistake td{{color:#a00;font-weight:bold}}</style>
</head><body>
{body}
</body></html>
"""
