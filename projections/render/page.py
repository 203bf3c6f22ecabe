"""A game's self-contained HTML page (the drawing, the settlement, every deal with its entries), one page
for many games built as they come, and the drawing of any game by its layout.

>>> from vistlog.projections.fold import run
>>> res = next(r for r in run("samples/sochi-evening.jsonl") if hasattr(r, "entries"))
>>> page = html_page(res, lang="ru")
>>> page.startswith("<!doctype html>") and "Расчёт" in page and "<svg" in page
True
"""

from __future__ import annotations

import io
import shutil
import tempfile
from collections.abc import Iterable
from html import escape
from typing import IO

from vistlog.events.model import BidMade, ContractMade, WhistMade

from ..fold import GameResult
from ..replay import CALLS, describe
from ..settlement import money, payments, round_to_zero_sum
from ..variants import SCORINGS, reading_of
from ..words import Lang, Words, rules_words, signed
from .layouts import layout_of
from .text import last_deal

__all__ = ["svg_of", "html_page", "html_pages", "HtmlPages"]


def svg_of(res: GameResult, upto: int | None = None, lang: Lang | None = None, phone: bool = False) -> str:
    """The drawing of a game: the пулька for Preferans, the chart for Solo Whist, the three papers of a
    Serbian game (its layout's drawing); ``phone``: drawn to fit a phone's width with its numbers legible."""
    return layout_of(res).svg(res, upto, lang, phone)


# --------------------------------------------------------------------------- the page

_CSS = """
@page { size: A4; margin: 12mm; }
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; color: #222; max-width: 190mm; margin: 0 auto;
       padding: 8px; background: #fff; }
h1 { font-size: 20px; margin: 8px 0; } h2 { font-size: 16px; margin: 18px 0 6px; }
svg { width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 12px; width: 100%; page-break-inside: auto; }
th, td { border: 1px solid #bbb; padding: 3px 6px; vertical-align: top; }
th { background: #f1efe8; } td.num { text-align: right; white-space: nowrap; }
tr.void td { color: #999; text-decoration: line-through; }
.small { color: #666; font-size: 11px; }
"""


def _settle_rows(res: GameResult, upto: int | None) -> tuple[list[list[str]], list[str]]:
    result = reading_of(res.variant).results(res.started.rules.options, res.players, res.totals_after(upto))
    rounded = round_to_zero_sum(result, res.players)
    stake = res.started.stake
    cash = money(result, res.players, stake) if stake else None
    rows = [[p, signed(result[p]), signed(rounded[p])] + ([cash[p]] if cash else []) for p in res.players]
    pays = [f"{x['from']} → {x['to']}: {x['amount']}" for x in payments(cash, res.players)] if cash else []
    return rows, pays


def _deal_rows(res: GameResult, upto: int | None, w: Words) -> list[str]:
    bid, modes = layout_of(res).bid, reading_of(res.variant).mode_words
    out = []
    for rec, void, entries in res.told(upto):
        c = next((e for e in rec.events if isinstance(e, ContractMade)), None)
        bids = [e for e in rec.events if isinstance(e, BidMade)]
        calls = [e for e in rec.events if isinstance(e, WhistMade)]
        if c is not None:
            flags = [w("dark")] * c.dark + [w("totus")] * c.totus + [w("without three")] * c.without_three
            what = (f"{escape(c.declarer)}: " + ("igra " if c.igra else "") + escape(bid(c.contract.text, w))
                    + "".join(f" {escape(f)}" for f in flags) + (f" + {escape(c.partner)}" if c.partner else ""))
        else:
            what = escape(w(modes(rec.mode).cell))
        if bids:
            said = ", ".join(f"{b.player} {bid(b.bid.text, w)}" for b in bids)
            what += f'<div class="small">{escape(said)}</div>'
        if calls:
            said = ", ".join(f"{x.player} {w(CALLS.get(x.call.value, x.call.value))}" for x in calls)
            what += f'<div class="small">{escape(said)}</div>'
        tricks = ", ".join(f"{escape(p)} {n}" for p, n in (rec.taken or {}).items()) or "—"
        lines = "<br>".join(escape(describe(e, w)) for e in entries) or "—"
        bomb = f" ({escape(w('bomb'))} {rec.bomb})" if rec.bomb else ""
        state = f'<div class="small">{escape(w("voided"))}</div>' if void else (
            f'<div class="small">{escape(w("stands (recorded again)"))}</div>' if rec.replaces else "")
        cls = ' class="void"' if void else ""
        out.append(f'<tr{cls}><td class="num">{rec.number}{state}</td>'
                   f"<td>{escape(rec.dealer)}{bomb}</td><td>{what}</td><td>{tricks}</td><td>{lines}</td></tr>")
    return out


def html_pages(results: Iterable[GameResult], upto: int | None = None, lang: Lang | None = None) -> str:
    """One self-contained page for several games: a section each, as :func:`html_page` draws one."""
    book = HtmlPages(upto, lang)
    for r in results:
        book.add(r)
    out = io.StringIO()
    book.write(out)
    return out.getvalue()


class HtmlPages:
    """:func:`html_pages` built as the games come: each game is drawn when it arrives and only its
    section is kept (spooled to a temporary file past a few megabytes), so memory holds one game
    however many the archive has. The page's title counts the games, so it is written at the end."""

    SPOOL = 8 << 20

    def __init__(self, upto: int | None = None, lang: Lang | None = None) -> None:
        self.upto = upto
        self.lang = lang
        self.count = 0
        self.first = ""
        self.title = ""
        self.sections = tempfile.SpooledTemporaryFile(  # noqa: SIM115 - closed by write()
            max_size=self.SPOOL, mode="w+", encoding="utf-8")

    def add(self, res: GameResult) -> None:
        """Draw one more game."""
        page = html_page(res, self.upto, self.lang)
        if self.count:
            self.sections.write("\n")
        else:
            self.first, self.title = page, res.game
        self.sections.write(f'<section class="game">{page[page.index("<body>") + len("<body>"): page.index("</body>")]}'
                            "</section>")
        self.count += 1

    def close(self) -> None:
        """Free the spool (:meth:`write` does it too)."""
        self.sections.close()

    def write(self, out: IO[str]) -> None:
        """The page (one game: its own page; several: a section each) to ``out``; the spool is freed."""
        try:
            if self.count == 0:
                raise ValueError("no game to draw")
            if self.count == 1:
                out.write(self.first)
                return
            head = self.first[: self.first.index("<body>")].replace(
                f"<title>{escape(self.title)}", f"<title>{self.count} games: {escape(self.title)}, …")
            out.write(head + "<body>\n")
            self.sections.seek(0)
            shutil.copyfileobj(self.sections, out)
            out.write("\n</body></html>\n")
        finally:
            self.close()


def html_page(res: GameResult, upto: int | None = None, lang: Lang | None = None) -> str:
    """A self-contained page (no network requests, printable on A4): the drawing, the
    settlement (with money and payments when there is a stake) and a deal-by-deal table."""
    w = Words(lang, res.variant)
    kind = escape(w.game(res.variant))
    rows, pays = _settle_rows(res, upto)
    unit = w(SCORINGS[res.variant].unit)
    money_head = f"<th>{escape(w('money'))}</th>" if res.started.stake else ""
    settle = "".join(f"<tr><td>{escape(r[0])}</td>" + "".join(f'<td class="num">{escape(x)}</td>' for x in r[1:])
                     + "</tr>" for r in rows)
    solo_table = layout_of(res).page(res, upto, w)
    head = "".join(f"<th>{escape(w(x))}</th>" for x in ("deal", "dealer", "contract", "tricks", "entries"))
    return f"""<!doctype html>
<html lang="{w.lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(res.game)} — {kind}</title>
<style>{_CSS}</style></head>
<body>
<h1>{escape(res.game)} <span class="small">{kind} · {escape(rules_words(res.started.rules, w.lang))} ·
 {escape(w("after deal {n}", n=last_deal(res, upto)))} · {escape(", ".join(res.players))}</span></h1>
{svg_of(res, upto, w.lang)}
<h2>{escape(w("Settlement"))}</h2>
<table><tr><th>{escape(w("player"))}</th><th>{escape(w("exact ({unit})", unit=unit))}</th>
<th>{escape(w("rounded"))}</th>{money_head}</tr>{settle}</table>
{"<p>" + escape(w("payments: ") + "; ".join(pays)) + "</p>" if pays else ""}
{solo_table}
<h2>{escape(w("Deals"))}</h2>
<table><tr>{head}</tr>
{"".join(_deal_rows(res, upto, w))}
</table>
<p class="small">{escape(w("Made by vistlog from the game log; every entry above carries its reason."))}</p>
</body></html>
"""
