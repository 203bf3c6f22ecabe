"""The пулька as players draw it, in SVG (the page around it: :mod:`vistlog.projections.render.page`).

Preferans: a rectangle cut into one sector per player by lines from the centre (3 players: to
the two lower corners and straight up; 4 players: to the four corners). Each sector holds,
from the centre out, as on the paper sheet, the player's mountain (гора), pool (пуля) and the
whists written on each other player, then the name. The pool size stands in the central circle. Every column shows
its running entries (``2.4.8.14``); a voided deal's entry is struck through; a closed pool is
marked. Solo Whist: the running points as a table and a line chart.

Nothing here computes a score: it reads :class:`~vistlog.projections.fold.GameResult` entries.

>>> from vistlog.projections.fold import run
>>> res = next(r for r in run("tests/vectors/preferans-sochi-four-deals.jsonl") if hasattr(r, "entries"))
>>> svg = preferans_svg(res, lang="ru")
>>> svg.startswith("<svg") and "6.16" in svg and "Вова" in svg and "после сдачи" in svg
True
"""

from __future__ import annotations

import itertools
import math
import textwrap
from html import escape
from typing import Final

import attrs

from vistlog.events.entries import Entry, Num
from ..fold import GameResult
from ..variants import SCORINGS
from ..words import Lang, Words, mixed, rules_words
from .text import entries_upto, last_deal, running_values

__all__ = ["preferans_svg", "solo_whist_svg", "running_points", "Fit", "PAPER", "PHONE"]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
BANDS = {"mountain": (0.17, 0.40), "pool": (0.40, 0.62), "whists": (0.62, 0.91), "name": (0.91, 1.0)}
"""Each band of a sector, from the centre out, as fractions of the way to the edge: гора nearest the centre."""
INNER = min(lo for lo, _ in BANDS.values())
COLOURS = ("#1f5fa8", "#b8432f", "#2f8a4a", "#8a5a1f")
Point = tuple[float, float]


@attrs.frozen
class Fit:
    """How a пулька is drawn: its square's side, its margins and its type sizes, in the drawing's units.

    ``PAPER`` is the sheet as printed or seen on a wide screen; ``PHONE`` is drawn to be scaled down to a
    phone's width (about 0.93 at 390 CSS px, 0.86 at 360) with every number still at least 11 px there: a long
    run of entries is wrapped onto the band's next line rather than squeezed."""

    size: int
    pad: int
    top: int
    foot: int
    number: int
    whist: int
    name: int
    title: int
    sub: int
    legend: int
    centre: int
    word: int
    wrap: bool

    @property
    def width(self) -> int:
        """The drawing's whole width."""
        return self.size + 2 * self.pad


PAPER: Final = Fit(720, 30, 62, 60, 14, 12, 16, 18, 13, 12, 28, 11, False)
PHONE: Final = Fit(384, 8, 52, 64, 14, 13, 14, 16, 13, 12, 22, 12, True)
SIZE, PAD, TOP = PAPER.size, PAPER.pad, PAPER.top


def _tspans(parts: list[tuple[str, bool]]) -> str:
    out = []
    for i, (text, void) in enumerate(parts):
        dot = "." if i else ""
        if void:
            out.append(f'{dot}<tspan text-decoration="line-through" fill="#5a4a4a">{escape(text)}</tspan>')
        else:
            out.append(f"{dot}{escape(text)}")
    return "".join(out)


def _plain(parts: list[tuple[str, bool]]) -> str:
    return ".".join(t for t, _ in parts)


def _short(name: str, limit: int = 14) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _sector_paths(n: int, fit: Fit) -> list[list[Point]]:
    w = h = float(fit.size)
    br, bl, tl, tr = (w, h), (0.0, h), (0.0, 0.0), (w, 0.0)
    if n == 3:
        tm = (w / 2, 0.0)
        return [[br, bl], [bl, tl, tm], [tm, tr, br]]
    return [[br, bl], [bl, tl], [tl, tr], [tr, br]]


def _scale(p: Point, f: float, fit: Fit) -> Point:
    c = fit.size / 2
    return (c + f * (p[0] - c), c + f * (p[1] - c))


def _poly(points: list[Point], fit: Fit) -> str:
    return " ".join(f"{x + fit.pad:.1f},{y + fit.top:.1f}" for x, y in points)


def _main_segment(path: list[Point]) -> tuple[Point, Point]:
    segs = list(itertools.pairwise(path))
    return max(segs, key=lambda s: math.dist(*s))


def _room(path: list[Point], band: str, segment: tuple[Point, Point] | None = None) -> float:
    """How long a line of text may be in one band of one sector (or a part of its side)."""
    a, b = segment or _main_segment(path)
    f_in, f_out = BANDS[band]
    return math.dist(a, b) * (f_in + f_out) / 2 * 0.86


def _text_lines(path: list[Point], band: str, lines: list[str], fit: Fit, size: int = 14, weight: str = "normal",
                titles: list[str] | None = None, segment: tuple[Point, Point] | None = None) -> str:
    """Lines of text centred in one band of one sector, along its main side (or a part of it)."""
    a, b = segment or _main_segment(path)
    f_in, f_out = BANDS[band]
    angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    if angle <= -90 or angle > 90:
        angle += 180
        a, b = b, a
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    out = []
    for i, line in enumerate(lines):
        f = f_in + (f_out - f_in) * (i + 0.5) / len(lines)
        x, y = _scale(mid, f, fit)
        length = _room(path, band, segment) if not fit.wrap else math.dist(a, b) * f * 0.86
        estimate = 0.6 * size * len(_strip(line))
        squeeze = f' textLength="{length:.0f}" lengthAdjust="spacingAndGlyphs"' if estimate > length else ""
        title = f"<title>{escape(titles[i])}</title>" if titles and i < len(titles) and titles[i] else ""
        out.append(
            f'<text x="{x + fit.pad:.1f}" y="{y + fit.top:.1f}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="middle" dominant-baseline="middle"{squeeze} '
            f'transform="rotate({angle:.1f} {x + fit.pad:.1f} {y + fit.top:.1f})">{title}{line}</text>')
    return "\n".join(out)


def _fs(band: str, n: int) -> list[float]:
    """Where ``n`` lines of a band sit, as fractions of the way from the centre to the edge."""
    f_in, f_out = BANDS[band]
    return [f_in + (f_out - f_in) * (i + 0.5) / n for i in range(n)]


def _wrapped(parts: list[tuple[str, bool]], side: float, band: str, size: int, fit: Fit, mark: str = "",
             before: int = 0) -> list[str]:
    """A run of entries as one line, or (``fit.wrap``) cut at its dots onto as few of the band's lines as hold
    it (after ``before`` lines of other text), each line's share as long as its room along a ``side`` that
    long; what still does not fit is squeezed by :func:`_text_lines`."""
    whole = _tspans(parts) + mark
    chars = len(_strip(whole))
    most = _lines_in(band, size, fit) - before
    if not fit.wrap or most < 2:
        return [whole]
    for k in range(1, most + 1):
        rooms = [side * f * 0.86 for f in _fs(band, k + before)[before:]]
        if 0.6 * size * chars <= sum(rooms) * 0.95:
            break
    if k == 1:
        return [whole]
    edges = list(itertools.accumulate(r / sum(rooms) * chars for r in rooms))
    cuts: list[list[tuple[str, bool]]] = [[] for _ in rooms]
    done, j = 0, 0
    for part in parts:
        while j < k - 1 and cuts[j] and done + (len(part[0]) + 1) / 2 > edges[j]:
            j += 1
        cuts[j].append(part)
        done += len(part[0]) + 1
    cuts = [c for c in cuts if c]
    return [_tspans(c) + ("." if i < len(cuts) - 1 else mark) for i, c in enumerate(cuts)]


class _Runs:
    """Every running column of a sheet from one pass over its entries (a column of one player, and of one player
    on another): what :func:`~vistlog.projections.render.text.running_parts` gives each, spelled as a person reads
    it; for a phone only the entries that fit, the earlier ones shown as «…» (a game of thousands of deals is
    drawn in the time of its last ones)."""

    def __init__(self, entries: list[Entry]) -> None:
        self.of: dict[tuple[str, str, str | None], list[Entry]] = {}
        for e in entries:
            self.of.setdefault((e.column, e.player, None), []).append(e)
            if e.on is not None:
                self.of.setdefault((e.column, e.player, e.on), []).append(e)

    def parts(self, column: str, player: str, on: str | None = None, room: int | None = None
              ) -> list[tuple[str, bool]]:
        """The running entries as ``(text, void)``; ``room``: at most about that many characters, the latest."""
        raw = running_values(self.of.get((column, player, on), []), column, player, on)
        if not raw:
            return [("0", False)]
        if room is None:
            return [(mixed(v), void) for v, void in raw]
        out: list[tuple[str, bool]] = []
        used = 0
        for v, void in reversed(raw):
            text = mixed(v)
            used += len(text) + 1
            if out and used > room:
                out.append(("…", False))
                break
            out.append((text, void))
        return out[::-1]


def _capacity(side: float, band: str, size: int, fit: Fit, before: int = 0) -> int | None:
    """About how many characters the band's lines hold on a phone (``None`` on paper: every entry is drawn)."""
    if not fit.wrap:
        return None
    most = _lines_in(band, size, fit)
    return int(sum(side * f * 0.86 for f in _fs(band, most)[before:]) / (0.6 * size))


def _lines_in(band: str, size: int, fit: Fit) -> int:
    """How many lines of ``size`` fit one above another in a band."""
    f_in, f_out = BANDS[band]
    return max(1, int((f_out - f_in) * fit.size / 2 / (size * 1.05)))


def _strip(markup: str) -> str:
    out, inside = [], False
    for ch in markup:
        if ch == "<":
            inside = True
        elif ch == ">":
            inside = False
        elif not inside:
            out.append(ch)
    return "".join(out)


def _whist_parts(res: GameResult, runs: _Runs, player: str, path: list[Point],
                 paths: list[list[Point]], w: Words, fit: Fit) -> list[str]:
    """The whist band of one player split into one part per opponent, as players draw it: each
    opponent's whists at the end of the band nearest that opponent (a 4-player game's opposite
    player in the middle), with a stroke between the parts."""
    a, b = _main_segment(path)
    others = [q for q in res.players if q != player]

    def along(q: str) -> float:
        qpath = paths[res.players.index(q)]
        cx = sum(x for x, _ in qpath) / len(qpath)
        cy = sum(y for _, y in qpath) / len(qpath)
        return (cx - a[0]) * (b[0] - a[0]) + (cy - a[1]) * (b[1] - a[1])

    others.sort(key=along)
    m = len(others)
    f_in, f_out = BANDS["whists"]
    out = []
    for i, q in enumerate(others):
        lo = (a[0] + (b[0] - a[0]) * i / m, a[1] + (b[1] - a[1]) * i / m)
        hi = (a[0] + (b[0] - a[0]) * (i + 1) / m, a[1] + (b[1] - a[1]) * (i + 1) / m)
        run = runs.parts("whists", player, q, _capacity(math.dist(lo, hi), "whists", fit.whist, fit, 1))
        title = w("whists of {player} on {other}", player=player, other=q)
        values = _wrapped(run, math.dist(lo, hi), "whists", fit.whist, fit, before=1)
        out.append(_text_lines(path, "whists", [f'<tspan fill="#555">{escape(_short(q, 10))}</tspan>', *values],
                               fit, size=fit.whist, titles=[title, f"{title}: {_plain(run)}"], segment=(lo, hi)))
        if i:
            p, r = _scale(lo, f_in, fit), _scale(lo, f_out, fit)
            out.append(f'<line x1="{p[0] + fit.pad:.1f}" y1="{p[1] + fit.top:.1f}" x2="{r[0] + fit.pad:.1f}" '
                       f'y2="{r[1] + fit.top:.1f}" stroke="#444" stroke-width="0.8" data-split="{escape(player)}"/>')
    return out


def _header(res: GameResult, upto: int | None, w: Words, fit: Fit) -> list[str]:
    """The drawing's two header lines: the game (shortened to fit, whole in its tooltip), then the
    preset, the pool and the deal."""
    size = res.started.pool
    counted = SCORINGS[res.variant].size
    pool = f" · {w(counted)} {size}" if size and counted else ""
    return [f'<text x="{fit.pad}" y="{fit.top - 38}" font-size="{fit.title}" font-weight="bold">'
            f"<title>{escape(res.game)}</title>"
            f"{escape(_short(res.game, max(12, int(fit.size / (0.61 * fit.title)))))}</text>",
            f'<text x="{fit.pad}" y="{fit.top - 16}" font-size="{fit.sub}" fill="#333">'
            f"{escape(rules_words(res.started.rules, w.lang))}{pool} · "
            f"{escape(w('after deal {n}', n=last_deal(res, upto)))}</text>"]


def _legend(text: str, fit: Fit) -> list[str]:
    """The legend under the drawing, on as many lines as its width needs."""
    lines = textwrap.wrap(text, int(fit.size / (0.6 * fit.legend))) if fit.wrap else [text]
    return [f'<text x="{fit.pad}" y="{fit.size + fit.top + 30 + i * (fit.legend + 4)}" font-size="{fit.legend}" '
            f'fill="#444">{escape(line)}</text>' for i, line in enumerate(lines)]


def preferans_svg(res: GameResult, upto: int | None = None, lang: Lang | None = None, phone: bool = False) -> str:
    """The drawn пулька of a Preferans game (3 or 4 players) as an SVG document, for paper or (``phone``) for a
    phone's width (:data:`PHONE`)."""
    fit = PHONE if phone else PAPER
    w = Words(lang, res.variant)
    runs = _Runs(entries_upto(res, upto))
    totals = res.totals_after(upto)
    size = res.started.pool or 0
    paths = _sector_paths(len(res.players), fit)
    width, height = fit.width, fit.size + fit.top + fit.foot
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" font-family="{FONT}" role="img">',
             f"<title>{escape(w('{game}: the score sheet after deal {n}', game=res.game, n=last_deal(res, upto)))}"
             "</title>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fffdf7"/>',
             *_header(res, upto, w, fit)]
    fills = {"pool": "#eef4fb", "mountain": "#fbeeee", "whists": "#f3f8ef", "name": "#ffffff"}
    for k, (player, path) in enumerate(zip(res.players, paths)):
        colour = COLOURS[k % len(COLOURS)]
        for band, (f_in, f_out) in BANDS.items():
            poly = [_scale(p, f_out, fit) for p in path] + [_scale(p, f_in, fit) for p in reversed(path)]
            parts.append(f'<polygon points="{_poly(poly, fit)}" fill="{fills[band]}" stroke="#444" '
                         f'stroke-width="1.2" data-player="{escape(player)}" data-band="{band}"/>')
        side = math.dist(*_main_segment(path))
        mountain = runs.parts("mountain", player, room=_capacity(side, "mountain", fit.number, fit))
        parts.append(_text_lines(path, "mountain", _wrapped(mountain, math.dist(*_main_segment(path)), "mountain",
                                                            fit.number, fit), fit,
                                 size=fit.number,
                                 titles=[f"{w('mountain of {player}', player=player)}: {_plain(mountain)}"]))
        pool = runs.parts("pool", player, room=_capacity(side, "pool", fit.number, fit))
        closed = totals["pool"][player] >= size > 0
        mark = f' <tspan fill="#2f8a4a" font-weight="bold">✓ {escape(w("closed"))}</tspan>' if closed else ""
        parts.append(_text_lines(path, "pool", _wrapped(pool, math.dist(*_main_segment(path)), "pool", fit.number,
                                                        fit, mark), fit,
                                 size=fit.number, titles=[f"{w('pool of {player}', player=player)}: {_plain(pool)}"]))
        parts += _whist_parts(res, runs, player, path, paths, w, fit)
        parts.append(_text_lines(path, "name", [f'<tspan fill="{colour}">{escape(_short(player))}</tspan>'], fit,
                                 size=fit.name, weight="bold", titles=[player]))
    c = fit.size / 2
    r = INNER * c * 0.9
    parts.append(f'<circle cx="{c + fit.pad}" cy="{c + fit.top}" r="{r:.1f}" fill="#fff" stroke="#444" '
                 'stroke-width="1.5"/>')
    parts.append(f'<text x="{c + fit.pad}" y="{c + fit.top - fit.centre // 7}" font-size="{fit.centre}" '
                 f'font-weight="bold" text-anchor="middle">{size}</text>')
    parts.append(f'<text x="{c + fit.pad}" y="{c + fit.top + 18 * fit.centre // 28}" font-size="{fit.word}" '
                 f'text-anchor="middle">{escape(w("pool"))}</text>')
    parts += _legend(w("from the centre: mountain · pool · whists on each other player · name; "
                       "struck out: a voided deal"), fit)
    parts.append("</svg>")
    return "\n".join(parts)


_DASHES: Final = ("", "7 3", "2 3", "9 3 2 3")
"""Each player's line: solid, dashed, dotted, dash-dotted."""


def _marker(k: int, x: float, y: float, colour: str) -> str:
    """Player ``k``'s mark at a point of the chart: a circle, a square, a triangle or a diamond."""
    shape = k % 4
    if shape == 0:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.2" fill="{colour}"/>'
    if shape == 1:
        return f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="{colour}"/>'
    corners = ((0, -4), (3.6, 3), (-3.6, 3)) if shape == 2 else ((0, -4), (4, 0), (0, 4), (-4, 0))
    pts = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in corners)
    return f'<polygon points="{pts}" fill="{colour}"/>'


def solo_whist_svg(res: GameResult, upto: int | None = None, lang: Lang | None = None, phone: bool = False) -> str:
    """A line chart of the running Solo Whist totals, one line per player (drawn for a phone's width whatever
    ``phone`` says)."""
    words = Words(lang, res.variant)
    last = last_deal(res, upto)
    running = running_points(res, upto)
    values = [v for series in running.values() for v in series]
    lo, hi = min(values + [0]), max(values + [0])
    if lo == hi:
        hi = lo + 1
    # drawn for a phone's width (360 px: its text is 12 px and more where the page is 390 px wide); a wider
    # page scales it up
    w, h, left, top, bottom = 360, 300, 44, 58, 40
    plot_w, plot_h = w - left - 14, h - top - bottom

    def xy(i: int, v: Num) -> tuple[float, float]:
        x = left + plot_w * (i / max(last, 1))
        y = top + plot_h * (1 - (float(v) - float(lo)) / (float(hi) - float(lo)))
        return x, y

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
           f'font-family="{FONT}" role="img">',
           f"<title>{escape(res.game)}: {escape(words('points after each deal'))} · "
           f"{escape(words('after deal {n}', n=last))}</title>",
           f'<rect width="{w}" height="{h}" fill="#fffdf7"/>']
    _, y0 = xy(0, 0)
    out.append(f'<line x1="{left}" y1="{y0:.1f}" x2="{left + plot_w}" y2="{y0:.1f}" stroke="#888"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>')
    for v in (lo, hi):
        _, y = xy(0, v)
        out.append(f'<text x="{left - 6}" y="{y:.1f}" font-size="13" text-anchor="end" '
                   f'dominant-baseline="middle">{mixed(v)}</text>')
    for i in range(0, last + 1, max(1, last // 6)):
        x, _ = xy(i, lo)
        out.append(f'<text x="{x:.1f}" y="{top + plot_h + 17}" font-size="13" text-anchor="middle">{i}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{h - 5}" font-size="13" text-anchor="middle">'
               f"{escape(words('deal'))}</text>")
    for k, p in enumerate(res.players):
        colour = COLOURS[k % len(COLOURS)]
        points = [xy(i, v) for i, v in enumerate(running[p])]
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        # a dash and a marker of its own for each player: lines that run together stay told apart
        dash = _DASHES[k % len(_DASHES)]
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2.2"'
                   + (f' stroke-dasharray="{dash}"' if dash else "")
                   + f' data-player="{escape(p)}"><title>{escape(p)}: {mixed(running[p][-1])}</title></polyline>')
        marked = points if len(points) <= 41 else points[-1:]
        out += [_marker(k, x, y, colour) for x, y in marked[1:]]
        out.append(f'<text x="{8 + (k % 2) * 176}" y="{20 + (k // 2) * 20}" font-size="14" fill="{colour}" '
                   f'font-weight="bold">{escape(_short(p))} {mixed(running[p][-1])}</text>')
    out.append("</svg>")
    return "\n".join(out)


def running_points(res: GameResult, upto: int | None = None) -> dict[str, list[Num]]:
    """Each player's total in a sheet of one column (Solo Whist's points) after deal 0, 1, … (index = deal), voided
    deals left out."""
    last, column = last_deal(res, upto), res.totals.columns[0]
    per_deal: dict[str, list[Num]] = {p: [0] * (last + 1) for p in res.players}
    for e in res.entries:
        if not e.void and 0 < e.deal <= last and e.column == column:
            per_deal[e.player][e.deal] += e.amount
    out: dict[str, list[Num]] = {}
    for p, deltas in per_deal.items():
        total: Num = 0
        out[p] = [total := total + d for d in deltas]
    return out
