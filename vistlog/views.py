"""What a person reads: games as text, JSON, CSV, SVG and HTML, and the rules and the schema.

Each view takes the public values of :mod:`vistlog.api` (a :class:`~vistlog.api.Game`, or the
JSON-ready dict :meth:`~vistlog.api.Game.to_json` and :meth:`~vistlog.api.AuditReport.to_json`
give) and returns text; the command line prints exactly these.

>>> import vistlog
>>> from vistlog import views
>>> game = next(vistlog.read_games("samples/sochi-evening.jsonl"))
>>> print(views.settlement_text(game.to_json()).splitlines()[0])
sochi-2026-11-28 · Preferans · sochi · 43 deals
>>> views.svg(game).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

import attrs

from vistlog.events.rules import PRESETS
from vistlog.events.schema import build_schema
from vistlog.events.nextstep import Next
from vistlog.events.table import Table
from vistlog.events.codec import unstructure
from vistlog.events.draft import draft_of
from vistlog.events.model import Event
from vistlog.events.notation import NOT_A_WORD, WORDS_RU, NotationError, deal_line, word
from vistlog.events.problems import UnknownName, VistlogError
from vistlog.projections import render
from vistlog.projections.render import rules as rules_view
from vistlog.projections import words
from vistlog.projections.variants import TableView, reading_of

from .games import Game, result_of

if TYPE_CHECKING:  # the statistics are imported by the views that show them
    from vistlog.projections.stats import Archive

__all__ = ["sheet_text", "sheet_json", "sheet_csv", "svg", "html", "HtmlBook", "settlement_text", "audit_text",
    "presets_text", "rules_text", "rules_json", "rules_rows", "schema", "PRESET_NAMES", "preset_names", "table_view",
    "stats_text", "stats_csv", "stats_html", "LANGS", "Lang", "analysis_text", "analysis_html", "contract_label",
    "deal_list", "adjustable_columns", "notation_message", "problem_message", "preset_label", "next_step",
    "card_deals", "record_lines", "notation_words", "contract_word", "game_words",
    "deal_text", "points_table", "deal_drafts", "card_label"]

Lang = words.Lang
"""A language of the human outputs: ``"ru"`` or ``"en"`` (every text view takes ``lang``)."""
LANGS: tuple[Lang, ...] = words.LANGS
"""The languages of the human outputs, ``("ru", "en")``: ``--lang`` of the command line."""

PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
"""The built-in presets ``vistlog rules`` lists, in its order (:func:`preset_names` adds those registered since)."""


def table_view(table: Table) -> TableView:
    """How the pad draws the form of a deal of this game: its modes, its grid of contracts, the grid's columns
    (the game's :class:`~vistlog.projections.variants.Reading` says)."""
    return reading_of(table.variant or table.kind.value).table_view(table.contracts)


def preset_names() -> tuple[str, ...]:
    """Every preset registered now, the built-in ones first: a game registered after import brings its own
    (:func:`vistlog.events.variants.register`)."""
    return tuple(PRESETS)


def sheet_text(game: Game, upto: int | None = None, columns: int | None = None, lang: Lang | None = None) -> str:
    """The пулька as a table after deal ``upto`` (the whole game by default), fitted to ``columns``
    characters when given (long running columns are wrapped; Cyrillic names line up); in ``lang``
    (``ru`` or ``en``; by default ``VISTLOG_LANG``, else English), as every text view here."""
    return render.sheet_text(result_of(game), upto, columns, lang)


def sheet_json(game: Game, upto: int | None = None) -> dict[str, Any]:
    """The sheet as ``sheet --format json`` writes one game: totals and running columns."""
    return render.sheet_json(result_of(game), upto)


def sheet_csv(games: Iterable[Game], upto: int | None = None, header: bool = True) -> str:
    """``game,after_deal,player,field,value`` rows (what ``audit --claimed`` reads back);
    ``header=False`` leaves out the first line, for games written one after another."""
    text = render.sheet_csv([result_of(g) for g in games], upto)
    return text if header else text.split("\n", 1)[1]


def svg(game: Game, upto: int | None = None, lang: Lang | None = None, phone: bool = False) -> str:
    """The paper sheet drawn as SVG (Preferans, Solo Whist and Serbian sheets each as played); ``phone``: drawn
    to fit a phone's width, every number legible there."""
    from vistlog.projections.render import page

    return page.svg_of(result_of(game), upto, lang, phone)


def points_table(game: Game, since: int = 0) -> dict[str, Any] | None:
    """A game whose sheet is one column of each player's points (Solo Whist): the running points after each deal
    from deal ``since`` on, as the seed's own example reads (``24 → 38 → 34``): ``{"players", "rows": [[deal,
    total, …]]}``, voided deals left out; ``None`` for a game whose sheet has more columns.

    >>> (g,) = __import__("vistlog").read_games("samples/solo-whist-evening.jsonl")
    >>> t = points_table(g)
    >>> t["players"], [row[1] for row in t["rows"][:3]]
    (['Маша', 'Петя', 'Оля', 'Коля'], ['24', '38', '34'])
    """
    from vistlog.projections.render.drawing import running_points

    res = result_of(game)
    if len(res.totals.columns) != 1 or res.totals.paired:  # running points: a sheet of one column
        return None
    points = running_points(res)
    deals = len(next(iter(points.values()), [0]))
    return {"players": list(res.players),
            "rows": [[deal, *(words.mixed(points[p][deal]) for p in res.players)]
                     for deal in range(max(1, since), deals)]}


def html(game: Game, upto: int | None = None, lang: Lang | None = None) -> str:
    """One self-contained page of a game: the drawing, the settlement, every deal with its entries."""
    from vistlog.projections.render import page

    return page.html_page(result_of(game), upto, lang)


class HtmlBook:
    """One page for many games, drawn as they come (memory holds one game's section at a time).

    >>> import io, vistlog
    >>> book = HtmlBook()
    >>> for g in vistlog.read_games("samples/classic-bombs.jsonl"):
    ...     book.add(g)
    >>> out = io.StringIO(); book.write(out); out.getvalue().startswith("<!doctype html>")
    True
    """

    def __init__(self, upto: int | None = None, lang: Lang | None = None) -> None:
        from vistlog.projections.render import page

        self._pages = page.HtmlPages(upto, lang)

    @property
    def count(self) -> int:
        """How many games were added."""
        return self._pages.count

    def add(self, game: Game) -> None:
        """Draw one more game."""
        self._pages.add(result_of(game))

    def write(self, out: IO[str]) -> None:
        """Write the page (one game: its own page) and free what was kept; a book of no game is refused."""
        if not self._pages.count:
            self._pages.close()
            raise VistlogError("no game to draw")
        self._pages.write(out)

    def close(self) -> None:
        """Free what was kept without writing."""
        self._pages.close()


def settlement_text(view: dict[str, Any], lang: Lang | None = None) -> str:
    """A settlement (the dict of :meth:`Game.to_json <vistlog.api.Game.to_json>`) as a small table."""
    return render.settle_text(view, lang)


def audit_text(view: dict[str, Any], lang: Lang | None = None) -> str:
    """An audit (the dict of ``AuditReport.to_json()``) as text: every mismatch, with where it parts."""
    return render.audit_text(view, lang)


def presets_text(lang: Lang | None = None) -> str:
    """The presets, one line each (``vistlog rules``), in ``lang``."""
    return rules_view.presets_text(lang)


def rules_text(preset: str, lang: Lang | None = None) -> str:
    """Every option of ``preset``: its value, what it accepts, what it means (``vistlog rules PRESET``), in
    ``lang``."""
    _preset(preset)
    return rules_view.rules_text(preset, lang)


def rules_json(preset: str) -> dict[str, Any]:
    """Every option of ``preset`` as JSON: ``{"preset", "options": {name: value}}``."""
    _preset(preset)
    return rules_view.rules_json(preset)


def rules_rows(preset: str, lang: Lang | None = None) -> dict[str, Any]:
    """Every option of ``preset`` a row (name and its words, value, its text, what it accepts, what it means, the
    values to choose from), with the preset's kind and description, in ``lang``: ``vistlog rules PRESET`` for a
    form (the score pad's new game)."""
    _preset(preset)
    return rules_view.rules_rows(preset, lang)


def _preset(name: str) -> None:
    if name not in PRESETS:
        raise UnknownName(f"no preset {name!r} (presets: {', '.join(PRESETS)})")


def schema() -> dict[str, Any]:
    """The JSON Schema of the event format (``vistlog schema``)."""
    return build_schema()


def stats_text(archive: Archive, player: str | None = None, lang: Lang | None = None) -> str:
    """The statistics of an archive (``vistlog stats``) as text, a table per scoring (whists and
    points never add up); ``player`` shows only that one."""
    from vistlog.projections.render import stats as stats_view

    return stats_view.stats_text(archive, player, lang)


def stats_csv(archive: Archive, player: str | None = None) -> str:
    """The statistics as CSV, one row a player and scoring (cells that a spreadsheet would run are guarded)."""
    from vistlog.projections.render import stats as stats_view

    return stats_view.stats_csv(archive, player)


def stats_html(archive: Archive, player: str | None = None, lang: Lang | None = None) -> str:
    """The statistics as one self-contained page with the rating charts."""
    from vistlog.projections.render import stats as stats_view

    return stats_view.stats_html(archive, player, lang)


def analysis_text(game: dict[str, Any], lang: Lang | None = None) -> str:
    """One game's open-hand analysis (the dict of ``analyse --format json``) as text: a line a card,
    the cards that cost a trick marked ``✗`` with the cards that kept it and the cost per player."""
    from vistlog.projections.render import analysis as analysis_view

    return analysis_view.analysis_text(game, lang)


def analysis_html(games: Iterable[dict[str, Any]], lang: Lang | None = None) -> str:
    """The open-hand analysis of several games as one self-contained HTML page."""
    from vistlog.projections.render import analysis as analysis_view

    return analysis_view.analysis_html(games, lang)


def decision_lines(decision: dict[str, Any], unit: str, lang: Lang | None = None) -> list[str]:
    """One single-dummy decision (``analyse --single-dummy --format json``'s) as the lines ``analyse`` prints: a
    head line (what was decided, its rank and cost), then one a choice, the one made marked ``▸``."""
    from vistlog.projections.render import analysis as analysis_view

    return analysis_view.decision_lines(decision, unit, words.Words(lang))


def contract_label(code: str, lang: Lang | None = None) -> str:
    """A contract as players say it: ``6♠``, ``7БК``, ``мизер``, ``абонданс с козырем`` (``trump abundance``)."""
    return words.Words(lang).contract(code)


def deal_list(game: Game, lang: Lang | None = None, since: int = 0) -> list[dict[str, Any]]:
    """Every deal record of a game as data, in the replay's order: ``deal`` (its number), ``voided`` (struck
    out), ``dealer``, ``summary`` (the contract or the pass-out, in words: what an undo names) and ``trump``
    (the turned card and the trump it gives, or the suit named). ``since``: from that record on."""
    return render.deal_list(result_of(game), lang, since)


def record_lines(game: Game, lang: Lang | None = None, since: int = 0) -> list[str]:
    """The deal records of a game (from record ``since`` on) as lines of the deal notation, in the replay's
    order: a voided record is followed by ``void N`` (and its deal recorded again by ``again N``). A deal the
    notation does not write (an ``allocation``) is left out."""
    out = []
    said = words.Words(lang).lang
    passed = reading_of(game.variant).all_pass
    for k, (rec, void, _) in enumerate(result_of(game).told(since=since)):
        events = [{key: v for key, v in unstructure(e).items() if key not in ("seq", "v")} for e in rec.events]
        cards = any(e["type"] == "card_played" for e in events) and not any(e["type"] == "tricks" for e in events)
        try:
            out.append(deal_line(events, dealer=since + k == 0, taken=rec.taken if cards else None,
                                 lang=said, passed=passed))
        except NotationError:
            continue
        if void:
            out.append(f"{word('void', said)} {rec.number}")
    return out


def card_label(rank: str, lang: Lang | None = None) -> str:
    """A card's rank as a person reads it in ``lang``: ``Д`` (``Q`` in English).

    >>> card_label("Q", "ru"), card_label("10", "ru"), card_label("Q", "en")
    ('Д', '10', 'Q')
    """
    return words.Words(lang).card(rank + "S")[:-1]


def deal_drafts(game: Game, since: int = 0) -> list[dict[str, Any]]:
    """Each deal record's draft (:class:`~vistlog.api.DealDraft` as JSON), in :func:`deal_list`'s order: what a
    page fills its form with to correct a deal in place."""
    out = []
    for rec in result_of(game).records[since:]:  # told() order: each record in deal order, a voided one too
        draft = draft_of([unstructure(e) for e in rec.events])
        out.append({k: v for k, v in attrs.asdict(draft).items() if v not in (None, (), [], {}, False)})
    return out


def deal_text(events: Sequence[Event | Mapping[str, Any]], lang: Lang | None = None,
              variant: str | None = None, dealer: bool = False) -> str:
    """One deal's events (its ``deal_started`` first; events or their dicts) as the line of the deal notation a
    person reads, in ``lang`` (what a page shows of a deal it composes as data); ``dealer``: the dealer said
    (the first deal of a game)."""
    plain_events = [{key: v for key, v in (e if isinstance(e, Mapping) else unstructure(e)).items()
                     if key not in ("seq", "v", "at", "by")} for e in events]
    passed = reading_of(variant).all_pass if variant else "raspas"
    return deal_line(plain_events, dealer=dealer, lang=words.Words(lang).lang, passed=passed)


def adjustable_columns(game: Game) -> tuple[str, ...]:
    """The sheet's columns an agreed adjustment of this game may write (``whists``, ``soups``: on a player)."""
    return render.adjustable_columns(result_of(game))


def notation_message(exc: NotationError, lang: Lang | None = None) -> str:
    """A line of the deal notation that did not read, in one sentence of ``lang``: the word, and what was
    expected there (never the whole grammar)."""
    return words.notation_message(exc.expected, exc.word, exc.values, words.Words(lang).lang, NOT_A_WORD)


def problem_message(code: str, message: str, lang: Lang | None = None) -> str:
    """A refusal of the state machine in ``lang`` (by its code; English where the code has no words yet)."""
    return words.problem_message(code, message, words.Words(lang).lang)


def preset_label(preset: str, lang: Lang | None = None) -> str:
    """A preset as players name it: «Сочинка», «Вист-соло, по энциклопедии»; in English its key beside, as the log
    and the command line spell it: "Сочинка (sochi)" (a Russian line holds no Latin word)."""
    known = PRESETS.get(preset)
    w = words.Words(lang)
    said = w.cap(known.label if known is not None else preset)
    return f"{said} ({preset})" if said != preset and w.lang != "ru" else said


def next_step(nx: Next, lang: Lang | None = None) -> dict[str, Any]:
    """What may come next in a game (:class:`~vistlog.events.nextstep.Next`) as a page shows it: every field as
    data, ``why`` and a draft's ``problem`` in ``lang`` (``все пули закрыты``), each contract offered with its
    label (``contract_labels``).

    >>> from vistlog.events.nextstep import Next
    >>> next_step(Next("over", 13, why="every pool is closed"), "ru")["why"]
    'все пули закрыты'
    """
    w = words.Words(lang)
    out = attrs.asdict(nx, recurse=False)
    out["why"] = w(nx.why) if nx.why else ""
    out["guess"] = dict(nx.guess)
    out["contract_labels"] = {c: contract_label(c, lang) for c in nx.contracts}
    out["bid_labels"] = {b: contract_label(b, lang) for _, b in nx.bids}
    out["bid_words"] = {b: word(b, w.lang) for _, b in nx.bids}  # as the deal notation writes them
    p = nx.problem
    out["problem"] = None if p is None else {"code": p.code, "field": p.field,
                                             "message": problem_message(p.code, p.message, lang)}
    return out


def card_deals(game: Game, since: int = 0) -> list[dict[str, Any]]:
    """Each deal of ``game`` played card by card, as a replay viewer shows it: the hands when play began, the
    talon, the discard, and each trick's cards and winner (see :func:`vistlog.projections.render.card_deals`).
    ``since``: from that record on."""
    return render.card_deals(result_of(game), since)


def game_words(variant: str, lang: Lang | None = None, every: bool = False) -> dict[str, str]:
    """A game's own names in ``lang``: ``title`` and ``sheet`` (what its sheet is called: the pad's tab);
    ``every``: and every word of its own (:attr:`~vistlog.projections.variants.Reading.words`).

    >>> game_words("solo_whist", "ru"), game_words("preferans", "ru")["sheet"]
    ({'title': 'Вист-соло', 'sheet': 'Пункты'}, 'Пулька')
    """
    w = words.Words(lang, variant)
    own = words.game_words(variant, w.lang) if every else {}
    return {**own, "title": w.cap(w.game(variant)), "sheet": w("Sheet")}


def notation_words(lang: Lang | None = None) -> dict[str, str]:
    """The deal notation's words in ``lang`` (``{"raspas": "распасы", "whist": "вист", …}``): what a page writes
    its lines in (``vistlog deal`` reads either language)."""
    said = words.Words(lang).lang
    return {w: word(w, said) for w in WORDS_RU}


def contract_word(code: str, lang: Lang | None = None) -> str:
    """A contract as the deal notation writes it in ``lang``: ``7БК``, ``абонданс с козырем`` (``7NT``)."""
    return word(code, words.Words(lang).lang)
