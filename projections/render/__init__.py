"""Rendering: text tables, JSON and CSV of sheets and settlements, every game through its layout
(:func:`~vistlog.projections.render.layouts.layout_of`). Nothing here computes a score.

>>> print(table([["Имя", "n"], ["Аня", "12"], ["Bob", "3"]], align="lr"))
Имя   n
Аня  12
Bob   3
"""

from __future__ import annotations

import csv
import re
import io
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from vistlog.events.model import CardPlayed, DealStarted, Discard
from vistlog.events.text import neutral
from vistlog.events.variants import find_variant

from vistlog.events.entries import fmt
from ..fold import GameResult
from ..variants import SCORINGS, reading_of
from ..words import Lang, Words, mixed, preset_words, signed
from .layouts import layout_of, voided_of
from .text import entries_upto, last_deal, running, running_parts, strike, table, trump_text, width

__all__ = ["width", "table", "running", "running_parts", "entries_upto", "last_deal",
           "sheet_json", "sheet_csv", "sheet_text", "settle_json",
           "settle_text", "audit_text", "claim_text", "strike", "deal_list", "adjustable_columns", "card_deals"]


def sheet_json(res: GameResult, upto: int | None = None) -> dict[str, Any]:
    """The sheet as JSON: totals (the ``score_recorded`` shape) and the running columns."""
    return {"game": res.game, "kind": res.kind.value, "rules": res.started.rules.preset,
            "players": list(res.players), "after_deal": last_deal(res, upto), **layout_of(res).sheet(res, upto),
            "voided": voided_of(entries_upto(res, upto))}


def sheet_csv(results: Sequence[GameResult], upto: int | None = None) -> str:
    """``game,after_deal,player,field,value`` rows; ``audit --claimed`` reads the same columns."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["game", "after_deal", "player", "field", "value"])
    for res in results:
        t = res.totals_after(upto)
        deal = last_deal(res, upto)
        game = neutral(res.game)
        fields = layout_of(res).fields
        for p in res.players:
            w.writerows([game, deal, neutral(p), field, fmt(value)] for field, value in fields(res, t, p))
    return buf.getvalue()


def _title(res: GameResult, upto: int | None, w: Words) -> str:
    """The sheet's header, one short line: game, kind, preset (and how many options the game changes:
    ``vistlog rules`` says them), pool, stake, deal."""
    rules = res.started.rules
    changed = len(rules.overrides)
    preset = str(rules.preset) + (f" ({w('{n} option(s) changed', n=changed)})" if changed else "")
    size, stake, counted = res.started.pool, res.started.stake, SCORINGS[res.variant].size
    parts = [res.game, w.game(res.variant), preset]
    if size and counted:
        parts.append(f"{w(counted)} {size}")
    if stake:
        parts.append(f"{w('stake')} {stake}")
    return " · ".join([*parts, w("after deal {n}", n=last_deal(res, upto))])


def sheet_text(res: GameResult, upto: int | None = None, columns: int | None = None, lang: Lang | None = None) -> str:
    """The пулька as a text table: running entries per column, Cyrillic names lined up; with
    ``columns`` (a terminal's width) running entries wrap inside their column to fit it."""
    w = Words(lang, res.variant)
    lines = [_title(res, upto, w), *layout_of(res).table(res, upto, columns, w)]
    voided = voided_of(entries_upto(res, upto))
    if voided:
        lines.append(w("voided deals (struck through): {deals}", deals=", ".join(map(str, voided))))
    return "\n".join(lines)


def settle_json(res: GameResult) -> dict[str, Any]:
    """One game of the ``settle --format json`` contract of CLI.md."""
    settled = layout_of(res).settled(res)
    out: dict[str, Any] = {
        "game": res.game, "kind": res.kind.value, "rules": res.started.rules.preset,
        "players": list(res.players), "deals": res.deals, "sheet": settled["sheet"],
        "result": {p: fmt(res.result[p]) for p in res.players},
        "result_rounded": {p: res.rounded[p] for p in res.players},
        "zero_sum": res.zero_sum, **settled.get("extra", {}),
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
    d = settle_json(game) if isinstance(game, GameResult) else game
    variant = find_variant(d["rules"]).name
    w = Words(lang, variant)
    unit = w(SCORINGS[variant].unit)
    head = [d["game"], w.game(variant), preset_words(d["rules"], w.lang), w("{n} deal(s)", n=d["deals"])]
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
        lines = [w("{game}: {n} recorded value(s), all match", game=d["game"], n=d["checked"])]
    else:
        lines = [w("{game}: {k} of {n} recorded value(s) differ", game=d["game"], k=len(d["mismatches"]),
                   n=d["checked"])]
        lines += ["  " + mismatch_text(m, w) for m in d["mismatches"]]
        lines.append("  " + summary_text(d, w))
    lines += ["  " + claim_text(k, w) for k in d.get("claims", ())]
    return "\n".join(lines)


def claim_text(k: dict[str, Any], w: Words) -> str:
    """A claim's verdict (its JSON dict) in words: who claimed what, accepted or not, whether it holds."""
    said = w("accepted") if k["accepted"] else w("disputed")
    holds = w("holds") if k["holds"] else w("does not hold")
    where = w("deal {n}", n=k["deal"]) + ": " if "deal" in k else ""
    return where + w("claim by {player} of {n} trick(s) ({said}): {holds}; best play gives the declarer {best}",
                     player=k["player"], n=k["tricks"], said=said, holds=holds, best=k["best"])


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


def deal_list(res: GameResult, lang: Lang | None = None, since: int = 0) -> list[dict[str, Any]]:
    """Every deal record of a game as data, in the order :meth:`GameResult.told` gives them (the replay's):
    ``deal``, ``voided``, ``dealer``, ``summary`` (what was played, in words) and ``trump`` (as the table saw
    it). ``since``: from that record on (see :meth:`GameResult.told`)."""
    w, modes = Words(lang, res.variant), reading_of(res.variant).mode_words
    out = []
    for rec, void, _ in res.told(since=since):
        c = rec.contract
        if c is None:
            said = w(modes(rec.mode).summary)
        else:
            said = f"{c.declarer}: {w.contract(c.contract.text)}" + (f", {w('with {partner}', partner=c.partner)}"
                                                                    if c.partner else "")
        out.append({"deal": rec.number, "voided": void, "dealer": rec.dealer, "summary": said,
                    "trump": trump_text(rec)})
    return out


def adjustable_columns(res: GameResult) -> tuple[str, ...]:
    """The columns an agreed adjustment of this game may write (its scoring's)."""
    return SCORINGS[res.variant].columns


def card_deals(res: GameResult, since: int = 0) -> list[dict[str, Any]]:
    """Each deal played card by card, as a replay viewer shows it: ``deal``, ``voided``, ``declarer``, the
    ``hands`` when play began (the declarer's with the talon taken and the discard put away), the ``talon``
    and whether the declarer ``took`` it (else, in a raspas, its cards lead the first tricks), the ``discard``,
    and ``tricks``: each trick's cards (``[player, card]``) and its winner (who leads the next; the last one's,
    from the tricks taken). ``since``: from that record on (see :meth:`GameResult.told`)."""
    out = []
    for rec, void, _ in res.told(since=since):
        cards = [e for e in rec.events if isinstance(e, CardPlayed)]
        start = next((e for e in rec.events if isinstance(e, DealStarted)), None)
        hands = rec.hands_in_play()
        if not cards or start is None or hands is None:
            continue
        per = len(rec.playing or rec.holders)  # a trick has a card of each who plays
        tricks: list[dict[str, Any]] = [{"cards": [[c.player, str(c.card)] for c in cards[k:k + per]], "winner": None}
                                        for k in range(0, len(cards), per)]
        won: dict[str, int] = {}
        for k in range(len(tricks) - 1):
            winner = tricks[k + 1]["cards"][0][0]
            tricks[k]["winner"] = winner
            won[winner] = won.get(winner, 0) + 1
        if tricks and rec.taken is not None and len(tricks[-1]["cards"]) == per:
            more = [p for p, n in rec.taken.items() if n > won.get(p, 0)]
            tricks[-1]["winner"] = rec.last_trick or (more[0] if len(more) == 1 else None)
        discard = next((list(map(str, e.cards)) for e in rec.events if isinstance(e, Discard)), [])
        out.append({"deal": rec.number, "voided": void, "declarer": rec.contract.declarer if rec.contract else None,
                    "hands": {p: [str(c) for c in cs] for p, cs in hands.items()},
                    "talon": [str(c) for c in start.talon or ()], "took": rec.contract is not None,
                    "discard": discard, "tricks": tricks})
    return out
