"""The ways a sheet is laid out and drawn: the columns of its JSON, CSV and text, its drawing, what its page
adds. A game's :class:`~vistlog.projections.variants.Reading` names its layout (a new game may reuse one of
these or bring its own); the views in :mod:`vistlog.projections.render` and
:mod:`~vistlog.projections.render.page` ask :func:`layout_of` and never which game it is.

>>> POOL.name, POINTS.name
('pool', 'points')
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any, Final

import attrs

from vistlog.events.entries import Entry, Num, Totals, exact
from ..fold import GameResult
from ..variants import reading_of
from ..words import Lang, Words, mixed
from .drawing import preferans_svg, running_points, solo_whist_svg
from .text import ARROW, entries_upto, fit, running, running_list, table, trump_text

__all__ = ["Layout", "POOL", "POINTS", "layout_of", "in_symbols"]


@attrs.frozen
class Layout:
    """One game's sheet, column by column (see the module docstring)."""

    name: str
    sheet: Callable[[GameResult, int | None], dict[str, Any]]
    """The sheet as JSON after a deal: ``{"sheet", "running", …}``."""
    settled: Callable[[GameResult], dict[str, Any]]
    """What ``settle --format json`` writes of the sheet: ``{"sheet": …}`` and what the game adds."""
    fields: Callable[[GameResult, Totals, str], list[tuple[str, Num]]]
    """One player's ``field,value`` rows of ``sheet --format csv`` (what ``audit --claimed`` reads)."""
    table: Callable[[GameResult, int | None, int | None, Words], list[str]]
    """The text sheet below its title: the table, and what the game adds under it."""
    svg: Callable[[GameResult, int | None, Lang | None, bool], str]
    bid: Callable[[str, Words], str]
    """A bid or contract as the sheet writes it (``6♠``; Serbian: the players' words)."""
    page: Callable[[GameResult, int | None, Words], str] = lambda res, upto, w: ""
    """What the game's HTML page adds after the settlement (Solo Whist: the running points)."""


# --------------------------------------------------------------------------- Preferans

def _pool_json(res: GameResult, upto: int | None) -> dict[str, Any]:
    t, entries = res.totals_after(upto), entries_upto(res, upto)
    return {"sheet": _pool_totals(res, t),
            "running": {p: {"pool": running(entries, "pool", p), "mountain": running(entries, "mountain", p),
                            "whists": {q: running(entries, "whists", p, q) for q in res.players if q != p}}
                        for p in res.players}}


def _pool_totals(res: GameResult, t: Totals) -> dict[str, Any]:
    return {p: {"pool": exact(t["pool"][p]), "mountain": exact(t["mountain"][p]),
                "whists": {q: exact(v) for q, v in t.pairs_by("whists", p).items()}} for p in res.players}


def _pool_fields(res: GameResult, t: Totals, p: str) -> list[tuple[str, Num]]:
    return [("pool", t["pool"][p]), ("mountain", t["mountain"][p]),
            *((f"whists:{q}", t.value(p, "whists", q)) for q in res.players if q != p)]


def _pool_table(res: GameResult, upto: int | None, columns: int | None, w: Words) -> list[str]:
    entries, t = entries_upto(res, upto), res.totals_after(upto)
    head = ["", w("pool"), w("mountain")] + [w("whists on {player}", player=q) for q in res.players]
    rows = [head] + [[p, running(entries, "pool", p, show=mixed), running(entries, "mountain", p, show=mixed)]
                     + ["—" if q == p else running(entries, "whists", p, q, mixed) for q in res.players]
                     for p in res.players]
    rows = fit(rows, columns)
    rows.append([w("= total")] + [""] * (len(head) - 1))
    rows += [[p, mixed(t["pool"][p]), mixed(t["mountain"][p])]
             + ["—" if q == p else mixed(t.value(p, "whists", q)) for q in res.players] for p in res.players]
    return [table(rows)]


# --------------------------------------------------------------------------- Solo Whist

def _one_column(res: GameResult) -> str:
    """The one column of a sheet of running points (Solo Whist's ``points``; another game's own)."""
    return res.totals.columns[0]


def _points_json(res: GameResult, upto: int | None) -> dict[str, Any]:
    t, entries, c = res.totals_after(upto), entries_upto(res, upto), _one_column(res)
    return {"sheet": {p: {c: exact(t[c][p])} for p in res.players},
            "running": {p: {c: running_list(entries, c, p)} for p in res.players}}


def _points_table(res: GameResult, upto: int | None, columns: int | None, w: Words) -> list[str]:
    entries, t, c = entries_upto(res, upto), res.totals_after(upto), _one_column(res)
    rows = [["", w(c), w("total")]] + [[p, running(entries, c, p, show=mixed, sep=ARROW),
                                        mixed(t[c][p])] for p in res.players]
    return [table(fit(rows, columns, sep=ARROW), align="llr")]


def _points_page(res: GameResult, upto: int | None, w: Words) -> str:
    points = running_points(res, upto)
    trumps = {rec.number: trump_text(rec) for rec, void, _ in res.told(upto) if not void} if res.records else {}
    body = [f'<tr><td class="num">{deal}</td><td>{escape(trumps.get(deal, ""))}</td>'
            + "".join(f'<td class="num">{mixed(points[p][deal])}</td>' for p in res.players) + "</tr>"
            for deal in range(1, len(next(iter(points.values()))))]
    return (f"<h2>{escape(w.cap('points after each deal'))}</h2><table><tr><th>{escape(w('deal'))}</th>"
            f"<th>{escape(w('trump'))}</th>"
            + "".join(f"<th>{escape(p)}</th>" for p in res.players) + "</tr>" + "".join(body) + "</table>")


def in_symbols(bid: str, w: Words) -> str:
    """A bid as the sheet writes it, in the card symbols (``6♠``)."""
    return w.contract(bid)


POOL: Final = Layout(
    "pool", sheet=_pool_json, settled=lambda res: {"sheet": _pool_totals(res, res.totals)}, fields=_pool_fields,
    table=_pool_table, svg=preferans_svg, bid=in_symbols)
"""A пулька: pool, mountain and whists written on each other player (Russian preferans)."""
POINTS: Final = Layout(
    "points", sheet=_points_json, settled=lambda res: {"sheet": _points_json(res, None)["sheet"]},
    fields=lambda res, t, p: [(_one_column(res), t[_one_column(res)][p])], table=_points_table, svg=solo_whist_svg,
    bid=in_symbols, page=_points_page)
"""Running points in the sheet's one column (Solo Whist's, each deal's line adding up to 0)."""
def layout_of(res: GameResult) -> Layout:
    """The layout of a folded game's sheet (its game's :class:`~vistlog.projections.variants.Reading`)."""
    found: Layout = reading_of(res.variant).layout()
    return found


def voided_of(entries: list[Entry]) -> list[int]:
    """The deals whose entries are struck through."""
    return sorted({e.deal for e in entries if e.void})
