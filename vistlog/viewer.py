"""One game as a page you can send: ``vistlog replay LOG --format html``.

The page is one self-contained HTML file: the game's data (each deal's story in Russian and English, the hands
and tricks where the cards were recorded, the sheet as it stood after each deal, the final settlement, the log's
chain head) and the viewer's script and style are inline; it asks no server for anything, so it opens from a file
on a phone or a laptop with the network off. The drawn sheets, one per deal in each language, travel gzipped
(the page unpacks them with the browser's own ``DecompressionStream``).

>>> import vistlog
>>> game = next(vistlog.read_games("samples/corrected-deal.jsonl"))
>>> page = replay_page(game, head="ab" * 32)
>>> page.startswith("<!doctype html>") and "http" not in page.split("<script")[0].lower().replace("http-equiv", "")
True
"""

from __future__ import annotations

import base64
import gzip
from html import escape
from pathlib import Path
from typing import Any

import orjson

from . import views
from .api import Game

__all__ = ["replay_page", "replay_data", "story"]

_STATIC = Path(__file__).with_name("static")
_LANGS: tuple[views.Lang, ...] = ("ru", "en")


def replay_page(game: Game, *, head: str | None = None, log: str | None = None, analysis: Any = None,
                lang: views.Lang = "ru") -> str:
    """``game`` as one self-contained HTML page (see the module's docstring). ``head``: the log's chain head as
    ``vistlog verify`` prints it (``vistlog verify LOG --head HEAD`` tells whether a log holds this game);
    ``log``: the log's name; ``analysis``: the game's open-hand analysis (:meth:`Game.analysis`), each card
    then shown with its value and cost; ``lang``: the language the page opens in (a switch gives the other)."""
    data = replay_data(game, head=head, log=log, analysis=analysis)
    script = (_STATIC / "viewer.js").read_text(encoding="utf-8")
    style = (_STATIC / "viewer.css").read_text(encoding="utf-8")
    blob = orjson.dumps(data).decode().replace("</", "<\\/")  # no "</script>" inside the data
    title = escape(f"{game.id} · vistlog")
    return (f'<!doctype html>\n<html lang="{lang}" data-lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title><style>{style}</style></head>\n<body>\n"
            f'<script type="application/json" id="data">{blob}</script>\n'
            f"<script>{script}</script>\n</body></html>\n")


def story(game: Game, lang: views.Lang, since: int = 0) -> tuple[list[str], list[list[str]]]:
    """The replay's words (:meth:`Game.replay_lines`) as its header's lines and each deal record's, from record
    ``since`` on (the sheet at its end left out)."""
    blocks: list[list[str]] = [[]]
    for line in game.replay_lines(lang=lang, since=since):
        if line == "":
            blocks.append([])
        else:
            blocks[-1].append(line)
    return blocks[0], blocks[1:-1]


def replay_data(game: Game, *, langs: tuple[views.Lang, ...] = _LANGS, since: int = 0, sheets: bool = True,
                head: str | None = None, log: str | None = None, analysis: Any = None) -> dict[str, Any]:
    """What the viewer shows of ``game`` (``vistlog/static/viewer.js`` reads it), as JSON-ready data: in each of
    ``langs``, the deal records from ``since`` on (the score pad's replay tab asks for its last ones), with the
    sheet drawn after each (gzipped) when ``sheets``."""
    cards = {(c["deal"], c["voided"]): c for c in views.card_deals(game, since)}
    values = {d["deal"]: d for d in analysis["deals"]} if analysis is not None else {}
    told: dict[str, list[list[str]]] = {}
    header: dict[str, list[str]] = {}
    listed: dict[str, list[dict[str, Any]]] = {}
    for lang in langs:
        header[lang], told[lang] = story(game, lang, since)
        listed[lang] = views.deal_list(game, lang, since)
    deals = []
    drawn: dict[str, list[str]] = {lang: [] for lang in langs}
    for i, item in enumerate(listed[langs[0]]):
        n, void = item["deal"], item["voided"]
        played = cards.get((n, void))
        deals.append({"deal": n, "voided": void, "dealer": item["dealer"],
                      "summary": {lang: listed[lang][i]["summary"] for lang in langs},
                      "lines": {lang: told[lang][i] if i < len(told[lang]) else [] for lang in langs},
                      "cards": played, "values": values.get(n) if played is not None and not void else None})
        for lang in langs if sheets else ():
            drawn[lang].append(views.svg(game, upto=n, lang=lang))
    settlement = game.to_json()
    packed = base64.b64encode(gzip.compress(orjson.dumps(drawn), mtime=0)).decode("ascii") if sheets else None
    return {"game": game.id, "players": list(game.players), "kind": game.kind, "head": head, "log": log,
            "header": header, "deals": deals, "sheets": packed, "analysed": analysis is not None,
            "unit": analysis["unit"] if analysis is not None else None,
            "settlement": {lang: views.settlement_text(settlement, lang) for lang in langs}}
