"""The archive's statistics as text, CSV and a self-contained HTML page with SVG charts (no script).

Nothing here computes a statistic: it lays out an :class:`~vistlog.projections.stats.Archive`.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from html import escape

from vistlog.events.text import neutral

from ..entries import fmt
from ..stats import Archive, PlayerTotals, RatingPoint
from . import table

__all__ = ["stats_text", "stats_csv", "stats_html"]

LEVELS = ("6", "7", "8", "9", "10", "misere")


def _names(a: Archive, only: str | None) -> list[str]:
    return [p for p in sorted(a.players, key=lambda p: (-a.players[p].total, p)) if only is None or p == only]


def _rating(a: Archive, p: str) -> str:
    h = a.ratings.get(p)
    return f"{h[-1].rating:.0f} ± {2 * h[-1].rd:.0f}" if h else "—"


def _signed(x: Fraction) -> str:
    return ("+" if x > 0 else "") + fmt(x)


def _by_level(t: PlayerTotals) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for key, (n, made) in t.declared.items():
        level = "misere" if key == "misere" else key[:2] if key.startswith("10") else key[:1] if key[:1].isdigit() \
            else key
        row = out.setdefault(level, [0, 0])
        row[0] += n
        row[1] += made
    return out


def stats_text(a: Archive, only: str | None = None) -> str:
    """The players' table (best total first), then each player's contracts and whists."""
    rows = [["player", "games", "deals", "total", "per game", "money", "rating (± 2 RD)"]]
    for p in _names(a, only):
        t = a.players[p]
        rows.append([p, str(t.games), str(t.deals), _signed(t.total), _signed(t.average.limit_denominator(100)),
                     ("%+.2f" % t.money) if t.staked else "—", _rating(a, p)])
    out = [f"{a.games} game(s) counted" + (f"; {len(a.left_out)} left out (with problems)" if a.left_out else ""),
           table(rows, align="lrrrrrr")]
    for p in _names(a, only):
        t = a.players[p]
        parts = [f"{k} {made}/{n}" for k, (n, made) in sorted(t.declared.items())]
        line = f"{p}: contracts made/declared: {', '.join(parts) or 'none'}"
        if "preferans" in t.kinds:
            line += (f"; whists {t.whists[0]} (share made {t.whists[1]}); raspasy {t.raspasy} "
                     f"(mountain {fmt(t.raspas_mountain)}); pools closed first {t.closed_first}")
        out.append(line)
    for path, game, n in a.left_out:
        out.append(f"left out: {path}: game {game}: {n} problem(s)")
    out += [f"warning: {w}" for w in a.warnings]
    return "\n".join(out)


def stats_csv(a: Archive, only: str | None = None) -> str:
    """One row per player: ``player,games,deals,total,average,money,rating,rd``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["player", "games", "deals", "total", "average", "money", "rating", "rd"])
    for p in _names(a, only):
        t = a.players[p]
        h = a.ratings.get(p)
        w.writerow([neutral(p), t.games, t.deals, fmt(t.total), fmt(t.average), ("%.2f" % t.money) if t.staked else "",
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


def stats_html(a: Archive, only: str | None = None) -> str:
    """One self-contained page: the players' table, then per player the rating with its band (± 2 RD),
    the result of each evening, and contract success by level (declared, made)."""
    head = ("<!doctype html><html lang=\"ru\"><head><meta charset=\"utf-8\"><title>vistlog statistics</title>"
            "<style>body{font-family:'DejaVu Sans',sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
            "td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}td:first-child,th:first-child"
            "{text-align:left}section{margin-top:2em}h2{font-size:1.2em}.legend{font-size:.8em;color:#555}"
            "</style></head><body>")
    rows = "".join(
        f"<tr><td>{escape(p)}</td><td>{t.games}</td><td>{t.deals}</td><td>{escape(_signed(t.total))}</td>"
        f"<td>{escape(_signed(t.average.limit_denominator(100)))}</td>"
        f"<td>{('%+.2f' % t.money) if t.staked else '—'}</td><td>{escape(_rating(a, p))}</td></tr>"
        for p in _names(a, only) for t in [a.players[p]])
    body = [f"<h1>Statistics of {a.games} game(s)</h1>",
            "<table><tr><th>player</th><th>games</th><th>deals</th><th>total</th><th>per game</th><th>money</th>"
            f"<th>rating (± 2 RD)</th></tr>{rows}</table>"]
    if a.left_out:
        body.append("<p>Left out (with problems): " + ", ".join(escape(f"{g} ({n})") for _, g, n in a.left_out)
                    + "</p>")
    body += [f"<p class=\"legend\">warning: {escape(w)}</p>" for w in a.warnings]
    for p in _names(a, only):
        t = a.players[p]
        levels = _by_level(t)
        evenings = a.evenings.get(p, [])
        contracts = [(k, float(levels[k][0]), float(levels[k][1])) for k in LEVELS if k in levels]
        body.append(
            f"<section><h2>{escape(p)}</h2>"
            f"<p class=\"legend\">rating over time (line), ± 2 RD (band)</p>{_rating_chart(a.ratings.get(p, []))}"
            f"<p class=\"legend\">result per evening (whists or points)</p>"
            f"{_bars([(d[5:] if len(d) == 10 else d, float(v), 0.0) for d, v in evenings], label='results')}"
            f"<p class=\"legend\">contracts by level: declared (dark), made (light)</p>"
            f"{_bars(contracts, label='contracts')}"
            "</section>")
    return head + "".join(body) + "</body></html>\n"
