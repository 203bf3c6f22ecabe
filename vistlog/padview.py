"""What the score pad's page is sent (:mod:`vistlog.pad`): a game's view, where the game stands with what the page
offers from it, and the words of the pad's own answers."""

from __future__ import annotations

from typing import Any, Final

import attrs

from . import views
from .api import Game, Table
from .viewer import story

__all__ = ["game_json", "table_json", "VIEW_DEALS", "NOTHING_WRITTEN", "BUSY", "CONFLICT"]


NOTHING_WRITTEN: Final = {"ru": "; ничего не записано", "en": "; nothing written"}
BUSY: Final = {"ru": "журнал занят — попробуйте ещё раз (другая программа пишет в него); ничего не записано",
               "en": "the log is busy — try again (another program is writing to it); nothing written"}
CONFLICT: Final = {
    "ru": {"first": "кто-то записал раньше: следующий номер в журнале {actual}, а не {expected}; ничего не "
                    "записано, страница показывает записанное",
           "rewritten": "журнал переписан другой программой после того, как страница его прочла; ничего не "
                        "записано, страница показывает журнал, каким он стал"},
    "en": {"first": "somebody recorded first: the log's next seq is {actual}, not {expected}; nothing written, "
                    "the page shows what was written",
           "rewritten": "the log was rewritten by another program since the page read it; nothing written, the "
                        "page shows the log as it is now"}}


def table_json(t: Table, lang: views.Lang) -> dict[str, Any]:
    """Where the game stands (:class:`~vistlog.api.Table`), with what the page offers from it: the modes of a
    deal and the contracts of the grid as the game's reading draws them (:func:`vistlog.views.table_view`), each
    with its label in the page's language."""
    form = views.table_view(t)
    own = views.game_words(t.variant or t.kind.value, lang, every=True)
    modes = {m: {"all_pass": m in form.passing, "contract": form.contracts.get(m), "label": own.get("mode_" + m)}
             for m in form.modes}
    return {**attrs.asdict(t, recurse=False), "kind": t.kind.value, "modes": list(form.modes), "mode_info": modes,
            "ranks": [[r, views.card_label(r, lang)] for r in t.kind.ranks],
            "grid": [[c, views.contract_label(c, lang), views.contract_word(c, lang), _red(c)] for c in form.grid],
            "grid_columns": form.grid_columns,
            "words": views.notation_words(lang),
            "all_pass_word": "mode_allpass" if t.all_pass_bids else "mode_raspas"}


def _red(contract: str) -> bool:
    """A contract in a red suit (its button is drawn red)."""
    return contract[:1].isdigit() and contract[-1:] in ("D", "H")


VIEW_DEALS: Final = 100
"""The deals a game's view holds unless all are asked for (the page offers the earlier ones on a tap)."""


def game_json(g: Game, lang: views.Lang, every: bool = False) -> dict[str, Any]:
    """A game's view for the page, with its last :data:`VIEW_DEALS` deals (or ``every`` deal): what costs the
    deals shown, never the game so far."""
    told = g.deals_told
    since = 0 if every else max(0, told - VIEW_DEALS)
    header, deals = story(g, lang, since)
    return {"id": g.id, "players": list(g.players), "kind": g.kind, "variant": g.variant, "preset": g.preset,
            "ended": g.ended, "words": views.game_words(g.variant, lang),
            "points": views.points_table(g, max(0, g.deals - VIEW_DEALS) if not every else 0),
            "deal_list": [{**d, "draft": draft} for d, draft in zip(views.deal_list(g, lang, since),
                                                                   views.deal_drafts(g, since))],
            "columns": list(views.adjustable_columns(g)),
            "svg": views.svg(g, lang=lang, phone=True), "settlement": g.to_json(),
            "settlement_text": views.settlement_text(g.to_json(), lang),
            "deals": deals, "header": header, "lines": views.record_lines(g, lang, since),
            "cards": views.card_deals(g, since), "problems": [str(p) for p in g.problems],
            "deals_told": told, "deals_since": since}
