"""The text helpers every view shares: display widths, tables that line up Cyrillic names, running
columns (``2.4.8.14``, a voided deal's value struck through), a view's entries up to a deal.

>>> print(table([["Имя", "n"], ["Аня", "12"], ["Bob", "3"]], align="lr"))
Имя   n
Аня  12
Bob   3
"""

from __future__ import annotations

from typing import Final

import unicodedata
from collections.abc import Callable, Sequence

from vistlog.events.record import DealRecord

from vistlog.events.entries import Entry, Num, fmt
from ..fold import GameResult

__all__ = ["width", "strike", "table", "wrap_running", "fit", "running_parts", "running_values", "running",
           "running_list", "ARROW", "entries_upto", "last_deal", "trump_text"]


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


def wrap_running(text: str, limit: int, sep: str = ".") -> str:
    """Running entries (``2.4.8.14…``) broken after a separator into lines of at most ``limit`` columns."""
    lines: list[str] = []
    line = ""
    for part in text.split(sep):
        piece = part if not line else sep + part
        if line and width(line + piece) + width(sep.rstrip()) > limit:  # room for the separator that ends a line
            lines.append(line + sep.rstrip())
            line = part
        else:
            line += piece
    lines.append(line)
    return "\n".join(lines)


def fit(rows: list[list[str]], columns: int | None, gap: int = 2, sep: str = ".") -> list[list[str]]:
    """The rows with running cells (their entries joined by ``sep``) wrapped so that the table fits ``columns``
    (``None``: one line each)."""
    if columns is None:
        return rows
    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    if sum(widths) + gap * (len(widths) - 1) <= columns:
        return rows
    head = max([width(r[0]) for r in rows] + [width("= total")])  # the totals' label shares the column
    share = max(8, (columns - head - gap * (len(widths) - 1)) // max(1, len(widths) - 1))
    return [[r[0]] + [wrap_running(c, share, sep) if width(c) > share else c for c in r[1:]] for r in rows]


def running_values(entries: Sequence[Entry], column: str, player: str, on: str | None = None
                   ) -> list[tuple[Num, bool]]:
    """The running totals of one column as ``(value, void)`` pairs: a voided deal's value is marked void and not
    carried on (an empty column: none)."""
    total: Num = 0
    struck: Num = 0  # a voided deal's running total: from the live total, over that deal's entries
    struck_deal = None
    values: list[tuple[Num, bool]] = []
    for e in entries:
        if e.column != column or e.player != player or (on is not None and e.on != on):
            continue
        if e.void:
            if struck_deal != e.deal:
                struck, struck_deal = total, e.deal
            struck += e.amount
            values.append((struck, True))
        else:
            total += e.amount
            struck_deal = None
            values.append((total, False))
    return values


def running_parts(entries: Sequence[Entry], column: str, player: str, on: str | None = None,
                  show: Callable[[Num], str] = fmt) -> list[tuple[str, bool]]:
    """The running entries of one column as ``(text, void)`` pairs (:func:`running_values`, each spelled by
    ``show``: :func:`fmt` for JSON, ``mixed`` for a person); an empty column is ``0``."""
    return [(show(v), void) for v, void in running_values(entries, column, player, on)] or [("0", False)]


def running(entries: Sequence[Entry], column: str, player: str, on: str | None = None,
            show: Callable[[Num], str] = fmt, sep: str = ".") -> str:
    """The running entries of one column as a paper sheet shows them: ``2.4.8.14``, a voided
    deal's value struck through. Points that go below zero and back are no pool: ``sep`` is then
    :data:`ARROW` (``4 → 40 → -12``), never a dot that reads as a decimal point."""
    return sep.join(running_list(entries, column, player, on, show))


def running_list(entries: Sequence[Entry], column: str, player: str, on: str | None = None,
                 show: Callable[[Num], str] = fmt) -> list[str]:
    """The running entries of one column, each on its own (a voided deal's struck through)."""
    return [strike(text) if void else text for text, void in running_parts(entries, column, player, on, show)]


ARROW: Final = " → "
"""What separates running points (Solo Whist): each number stands on its own."""


def entries_upto(res: GameResult, upto: int | None) -> list[Entry]:
    """The entries of a game up to deal ``upto`` (all of them when ``None``)."""
    return [e for e in res.entries if upto is None or e.deal <= upto]


def last_deal(res: GameResult, upto: int | None) -> int:
    """The last deal a view up to ``upto`` shows."""
    return res.deals if upto is None else min(upto, res.deals)


def trump_text(rec: DealRecord) -> str:
    """A deal's trump as the table sees it: the turned card (its suit is trump: ``6♠``), the suit an
    abundance names after a turned card (``6♠ → ♥``), or the contract's own suit; empty when none."""
    turned = rec.turned.symbol if rec.turned is not None else ""
    trump = rec.trump
    if trump is None or (rec.turned is not None and rec.turned.suit is trump):
        return turned
    return f"{turned} → {trump.symbol}" if turned else trump.symbol
