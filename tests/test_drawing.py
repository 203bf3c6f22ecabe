"""The drawn пулька: SVG that parses, names every player and shows every column's last entry;
an HTML page that renders in headless Chromium without console errors."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from vistlog.events.log import Problem
from vistlog.events.entries import fmt
from vistlog.projections.words import mixed
from vistlog.projections.fold import GameResult, run
from vistlog.projections.render.drawing import PHONE, _Runs, preferans_svg, solo_whist_svg
from vistlog.projections.render.text import running_parts
from vistlog.projections.render.page import html_page

from .conftest import SAMPLES, VECTORS
from .helpers import CHROMIUM, chromium_screenshot

NS = {"svg": "http://www.w3.org/2000/svg"}


def game(path: Path) -> GameResult:
    items = list(run(str(path)))
    assert not [i for i in items if isinstance(i, Problem)]
    return next(i for i in items if isinstance(i, GameResult))


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.parametrize("log", ["sochi-evening.jsonl", "classic-bombs.jsonl"])
@pytest.mark.parametrize("upto", [None, 5])
def test_svg_names_every_player_and_every_last_entry(log: str, upto: int | None) -> None:
    res = game(SAMPLES / log)
    svg = preferans_svg(res, upto)
    shown = "\n".join(texts(svg))
    titles = "\n".join(t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}title"))
    t = res.totals_after(upto)
    for p in res.players:
        assert p in shown or p in titles
        assert shown.count(".") > 0
        for column in ("pool", "mountain"):
            parts = running_parts([e for e in res.entries if upto is None or e.deal <= upto], column, p)
            assert parts[-1][0] == fmt(t.value(p, column)) or parts[-1][1]
            assert ".".join(x for x, _ in parts) in shown
        for q in res.players:
            if q != p:
                w = running_parts([e for e in res.entries if upto is None or e.deal <= upto], "whists", p, q)
                assert ".".join(x for x, _ in w) in shown
    assert str(res.started.pool) in shown


def test_four_players_have_four_sectors_and_long_names_are_shortened() -> None:
    res = game(VECTORS / "preferans-seed-example-2.jsonl")
    svg = preferans_svg(res)
    root = ET.fromstring(svg)
    sectors = {p.get("data-player") for p in root.iter("{http://www.w3.org/2000/svg}polygon")}
    assert sectors == set(res.players)
    from vistlog.projections.render.drawing import _short

    assert _short("Александр Сергеевич") == "Александр Сер…"


def test_voided_deal_is_struck_through(tmp_path: Path) -> None:
    src = (VECTORS / "preferans-sochi-four-deals.jsonl").read_text().splitlines()
    src.insert(-1, '{"v": 1, "seq": 20, "type": "deal_voided", "game": "sochi-four-deals", "deal": 3}')
    src[-1] = src[-1].replace('"seq": 20', '"seq": 21')
    log = tmp_path / "v.jsonl"
    log.write_text("\n".join(src) + "\n")
    svg = preferans_svg(game(log))
    assert 'text-decoration="line-through"' in svg


def test_solo_whist_chart_has_a_line_per_player() -> None:
    res = game(SAMPLES / "solo-whist-evening.jsonl")
    root = ET.fromstring(solo_whist_svg(res))
    lines = list(root.iter("{http://www.w3.org/2000/svg}polyline"))
    assert [x.get("data-player") for x in lines] == list(res.players)
    assert all(len(x.get("points", "").split()) == res.deals + 1 for x in lines)


def test_html_is_self_contained() -> None:
    for log in ("sochi-evening.jsonl", "solo-whist-evening.jsonl"):
        page = html_page(game(SAMPLES / log))
        assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "https://" not in page and "<script" not in page and "@page" in page


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here (.ci/run installs Debian's chromium; "
                                             "it could not be installed on this machine)")
@pytest.mark.parametrize("log", ["sochi-evening.jsonl", "classic-bombs.jsonl", "solo-whist-evening.jsonl"])
def test_html_renders_in_headless_chromium(tmp_path: Path, log: str) -> None:
    page = tmp_path / "sheet.html"
    page.write_text(html_page(game(SAMPLES / log)), encoding="utf-8")
    assert chromium_screenshot(page, tmp_path, "900,1200").stat().st_size > 10_000


def test_the_page_of_many_games_is_built_as_they_come(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HtmlPages keeps only each game's section, spooled to disk past its limit: the page is the same."""
    from vistlog.projections.render.page import HtmlPages, html_pages

    results = [item for log in ("sochi-evening.jsonl", "classic-bombs.jsonl", "solo-whist-evening.jsonl")
               for item in run(str(SAMPLES / log)) if isinstance(item, GameResult)]
    whole = html_pages(results)
    monkeypatch.setattr(HtmlPages, "SPOOL", 1000)  # far less than one game's section
    book = HtmlPages()
    for r in results:
        book.add(r)
    assert book.sections._rolled  # on disk
    out = tmp_path / "page.html"
    with out.open("w", encoding="utf-8") as f:
        book.write(f)
    page = out.read_text(encoding="utf-8")
    assert page == whole and page.count('<section class="game">') == 3
    assert f"<title>3 games: {results[0].game}, …" in page
    assert html_pages(results[:1]) == html_page(results[0])


def test_a_page_of_no_game_is_refused_in_a_sentence(tmp_path: Path) -> None:
    log = tmp_path / "x.jsonl"
    log.write_text('{"v":1,"seq":1,"type":"deal_started","game":"x","deal":1,"dealer":"A"}\n')
    done = subprocess.run([sys.executable, "-m", "vistlog", "sheet", "--format", "html", str(log)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines()[-1] == f"{log}: no game to draw" and "Error" not in done.stderr


@pytest.mark.parametrize("log", ["sochi-evening.jsonl", "classic-bombs.jsonl", "corrected-deal.jsonl"])
def test_the_runs_of_one_pass_are_each_columns_running_entries(log: str) -> None:
    """The drawing reads every column's running entries from one pass over the entries: on paper each is
    :func:`running_parts` itself; for a phone its latest entries within the room given, «…» before them."""
    res = game(SAMPLES / log)
    runs = _Runs(list(res.entries))
    keys = {(e.column, e.player, None) for e in res.entries} | {(e.column, e.player, e.on) for e in res.entries}
    for column, player, on in keys:
        whole = running_parts(res.entries, column, player, on, mixed)
        assert runs.parts(column, player, on) == whole
        tail = runs.parts(column, player, on, room=12)
        cut = tail[0] == ("…", False)
        assert tail[cut:] == whole[len(whole) - len(tail) + cut:]
        assert cut == (len(tail) - cut < len(whole))
        assert not cut or len(".".join(t for t, _ in tail[1:])) <= 12 + len(tail[-1][0])
    svg = preferans_svg(res, lang="ru", phone=True)
    assert svg.count("<tspan") <= preferans_svg(res, lang="ru").count("<tspan")
    assert PHONE.wrap
