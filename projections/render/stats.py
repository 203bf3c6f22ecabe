"""The archive's statistics as text, CSV and a self-contained HTML page with SVG charts (no script).

Nothing here computes a statistic: it lays out an :class:`~vistlog.projections.stats.Archive`.
"""

from __future__ import annotations

import csv
import io
from html import escape

from vistlog.events.text import neutral

from vistlog.events.entries import fmt
from ..stats import Archive, KindTotals, PlayerTotals, RatingPoint, unit_of
from ..variants import SCORINGS, reading_of
from ..words import Lang, Words, mixed, signed
from . import table

__all__ = ["stats_text", "stats_csv", "stats_html"]

LEVELS = ("6", "7", "8", "9", "10", "misere")


def _scorings(a: Archive) -> list[str]:
    """The scorings the archive holds, in the order of :data:`SCORINGS`."""
    held = {k for t in a.players.values() for k in t.by_kind}
    return [k for k in SCORINGS if k in held] + sorted(held - set(SCORINGS))


def _names(a: Archive, only: str | None, scoring: str | None = None) -> list[str]:
    """The players (of one scoring: best total first; else by name)."""
    if scoring is None:
        return [p for p in sorted(a.players) if only is None or p == only]
    return [p for p in sorted((p for p, t in a.players.items() if scoring in t.by_kind),
                              key=lambda p: (-a.players[p].by_kind[scoring].total, p)) if only is None or p == only]


def _rating(a: Archive, p: str) -> str:
    h = a.ratings.get(p)
    return f"{h[-1].rating:.0f} ± {2 * h[-1].rd:.0f}" if h else "—"


def _heading(scoring: str, w: Words) -> str:
    """``Preferans (whists)``: a scoring and its unit."""
    return f"{w.cap(w.game(scoring))} " \
           f"({w(unit_of(scoring))})"


def _row(a: Archive, p: str, k: KindTotals) -> list[str]:
    return [p, str(k.games), str(k.deals), signed(k.total), signed(k.average.limit_denominator(100)),
            ("%+.2f" % k.money) if k.staked else "—", _rating(a, p)]


def _by_level(t: PlayerTotals) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for key, (n, made) in t.declared.items():
        level = "misere" if key == "misere" else key[:2] if key.startswith("10") else key[:1] if key[:1].isdigit() \
            else key
        row = out.setdefault(level, [0, 0])
        row[0] += n
        row[1] += made
    return out


def stats_text(a: Archive, only: str | None = None, lang: Lang | None = None) -> str:
    """A players' table per scoring (its unit said; best total first), then each player's contracts and whists."""
    w = Words(lang)
    head = [w(x) for x in ("player", "games", "deals", "total", "per game", "money", "rating (± 2 RD)")]
    out = [w("{n} game(s) counted", n=a.games)
           + (w("; {n} left out (with problems)", n=len(a.left_out)) if a.left_out else "")]
    for scoring in _scorings(a):
        names = _names(a, only, scoring)
        if names:
            rows = [head] + [_row(a, p, a.players[p].by_kind[scoring]) for p in names]
            out += [_heading(scoring, w), table(rows, align="lrrrrrr")]
    for p in _names(a, only):
        t = a.players[p]
        parts = [f"{w.contract(k)} {made}/{n}" for k, (n, made) in sorted(t.declared.items())]
        line = f"{p}: " + w("contracts made/declared: {parts}", parts=", ".join(parts) or w("none"))
        if any(reading_of(v).moves is not None for v in t.by_kind):  # its statistics count whists, raspasy
            line += w("; whists {n} (share made {share}); raspasy {r} (mountain {m}); pools closed first {c}",
                      n=t.whists[0], share=t.whists[1], r=t.raspasy, m=mixed(t.raspas_mountain), c=t.closed_first)
        out.append(line)
    for path, game, n in a.left_out:
        out.append(w("left out: {path}: game {game}: {n} problem(s)", path=path, game=game, n=n))
    out += [w("warning: {text}", text=x) for x in a.warnings]
    return "\n".join(out)


def stats_csv(a: Archive, only: str | None = None) -> str:
    """One row per player and scoring: ``player,scoring,unit,games,deals,total,average,money,rating,rd``."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(["player", "scoring", "unit", "games", "deals", "total", "average", "money", "rating", "rd"])
    for scoring in _scorings(a):
        for p in _names(a, only, scoring):
            k = a.players[p].by_kind[scoring]
            h = a.ratings.get(p)
            out.writerow([neutral(p), scoring, unit_of(scoring), k.games, k.deals, fmt(k.total),
                          fmt(k.average), ("%.2f" % k.money) if k.staked else "",
                          f"{h[-1].rating:.2f}" if h else "", f"{h[-1].rd:.2f}" if h else ""])
    return buf.getvalue()


def _rating_chart(history: list[RatingPoint], width: int = 520, height: int = 180) -> str:
    if not history:
        return ""
    lo = min(h.rating - 2 * h.rd for h in history)
    hi = max(h.rating + 2 * h.rd for h in history)
    span = max(hi - lo, 1.0)
    n = len(history)

    def x(i: int) -> float:
        return 40 + (width - 60) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return 10 + (height - 40) * (1 - (v - lo) / span)

    band = [f"{x(i):.1f},{y(h.rating + 2 * h.rd):.1f}" for i, h in enumerate(history)]
    band += [f"{x(i):.1f},{y(h.rating - 2 * h.rd):.1f}" for i, h in reversed(list(enumerate(history)))]
    line = " ".join(f"{x(i):.1f},{y(h.rating):.1f}" for i, h in enumerate(history))
    marks = "".join(f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{y(h.rating + 2 * h.rd):.1f}" '
                    f'y2="{y(h.rating - 2 * h.rd):.1f}" stroke="#8fb3e0" stroke-width="3"/>'
                    f'<circle cx="{x(i):.1f}" cy="{y(h.rating):.1f}" r="3.5" fill="#1f4e8c"/>'
                    for i, h in enumerate(history))
    axis = (f'<text x="4" y="{y(hi):.1f}" font-size="9" dominant-baseline="hanging">{hi:.0f}</text>'
            f'<text x="4" y="{y(lo):.1f}" font-size="9">{lo:.0f}</text>')
    labels = "".join(f'<text x="{x(i):.1f}" y="{height - 8}" font-size="9" text-anchor="middle">'
                     f"{escape(h.period[5:] if len(h.period) == 10 else h.period)}</text>"
                     for i, h in enumerate(history) if n <= 12 or i % max(1, n // 12) == 0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
            f'aria-label="rating over time">'
            f'<polygon points="{" ".join(band)}" fill="#cfe0f5" stroke="none"/>'
            f'<polyline points="{line}" fill="none" stroke="#1f4e8c" stroke-width="2"/>{marks}{axis}'
            f"{labels}</svg>")


def _bars(values: list[tuple[str, float, float]], width: int = 520, height: int = 140, label: str = "") -> str:
    """Pairs of bars (value, second value) per label; negative values hang below the axis."""
    if not values:
        return ""
    top = max([abs(v) for _, a, b in values for v in (a, b)] + [1.0])
    n = len(values)
    slot = min((width - 40) / n, 90.0)
    mid = height / 2 if any(a < 0 or b < 0 for _, a, b in values) else height - 20
    scale = (mid - 10) / top
    parts = []
    for i, (name, a, b) in enumerate(values):
        x0 = 30 + i * slot
        for k, (v, colour) in enumerate(((a, "#1f4e8c"), (b, "#8fb3e0"))):
            h = abs(v) * scale
            ytop = mid - h if v >= 0 else mid
            parts.append(f'<rect x="{x0 + 4 + k * slot * 0.4:.1f}" y="{ytop:.1f}" width="{slot * 0.38:.1f}" '
                         f'height="{h:.1f}" fill="{colour}"/>')
        parts.append(f'<text x="{x0 + slot / 2:.1f}" y="{height - 4}" font-size="9" text-anchor="middle">'
                     f"{escape(name)}</text>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
            f'aria-label="{escape(label)}"><line x1="26" x2="{width - 6}" y1="{mid:.1f}" y2="{mid:.1f}" '
            f'stroke="#999"/>{"".join(parts)}</svg>')


def stats_html(a: Archive, only: str | None = None, lang: Lang | None = None) -> str:
    """One self-contained page: a players' table per scoring, then per player the rating with its band
    (± 2 RD), the result of each evening (a chart per scoring) and contract success by level."""
    w = Words(lang)
    head = (f"<!doctype html><html lang=\"{w.lang}\"><head><meta charset=\"utf-8\"><title>vistlog: "
            f"{escape(w('Statistics of {n} game(s)', n=a.games))}</title>"
            "<style>body{font-family:'DejaVu Sans',sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
            "td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}td:first-child,th:first-child"
            "{text-align:left}section{margin-top:2em}h2{font-size:1.2em}.legend{font-size:.8em;color:#555}"
            "</style></head><body>")
    cells = "".join(f"<th>{escape(w(x))}</th>"
                    for x in ("player", "games", "deals", "total", "per game", "money", "rating (± 2 RD)"))
    body = [f"<h1>{escape(w('Statistics of {n} game(s)', n=a.games))}</h1>"]
    for scoring in _scorings(a):
        rows = "".join("<tr>" + "".join(f"<td>{escape(x)}</td>" for x in _row(a, p, a.players[p].by_kind[scoring]))
                       + "</tr>" for p in _names(a, only, scoring))
        if rows:
            body.append(f"<h2>{escape(_heading(scoring, w))}</h2><table><tr>{cells}</tr>{rows}</table>")
    if a.left_out:
        body.append("<p>" + escape(w("Left out (with problems): "))
                    + ", ".join(escape(f"{g} ({n})") for _, g, n in a.left_out) + "</p>")
    body += [f"<p class=\"legend\">{escape(w('warning: {text}', text=x))}</p>" for x in a.warnings]
    for p in _names(a, only):
        t = a.players[p]
        levels = _by_level(t)
        evenings = a.evenings.get(p, [])
        contracts = [(w.contract(k), float(levels[k][0]), float(levels[k][1])) for k in LEVELS if k in levels]
        charts = "".join(
            f"<p class=\"legend\">{escape(w('result per evening ({unit})', unit=_heading(scoring, w)))}</p>"
            + _bars([(d[5:] if len(d) == 10 else d, float(v), 0.0) for d, k, v in evenings if k == scoring],
                    label="results")
            for scoring in _scorings(a) if scoring in t.by_kind)
        body.append(
            f"<section><h2>{escape(p)}</h2>"
            f"<p class=\"legend\">{escape(w('rating over time (line), ± 2 RD (band)'))}</p>"
            f"{_rating_chart(a.ratings.get(p, []))}{charts}"
            f"<p class=\"legend\">{escape(w('contracts by level: declared (dark), made (light)'))}</p>"
            f"{_bars(contracts, label='contracts')}"
            "</section>")
    return head + "".join(body) + "</body></html>\n"
