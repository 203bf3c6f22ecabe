"""Issue 62 in the pad: the replay's "open hands" asks the server for one deal's analysis within a budget
(``vistlog serve --analysis-budget``; by default ``analyse``'s), and the page says a count past the budget in
words, in Debian's headless Chromium."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

from vistlog.projections.analysis import BUDGETS
from vistlog.projections.solver import engine_name

from .conftest import ROOT
from .simulate import solo_whist_game
from .test_pad import Server, _page, request, show_deal


def test_a_deal_past_its_budget_says_what_is_proved_in_words(tmp_path: Path, browser: Any) -> None:
    log = tmp_path / "cards.jsonl"
    shutil.copy(ROOT / "samples" / "classic-bombs.jsonl", log)
    s = Server(log, "--analysis-budget", "1e-9")
    try:
        status, body = request(s.base + "/api/analysis?deal=7")
        assert status == 200 and body["exact"] is False and body["answer"] == "undecided", body
        page = _page(browser, s.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        page.tap("nav button[data-tab='replay']")
        viewer = show_deal(page, 7)
        viewer.locator("button.open-hands").tap()
        page.wait_for_selector("#replay-view .dd")
        assert viewer.locator(".dd").text_content() == "в открытую: Запад не решено за отведённое время"
        viewer.locator("button.next-trick").tap()
        trick = viewer.locator(".trick").text_content() or ""
        assert "после карты: Запад не посчитано за отведённое время" in trick, trick
        assert "null" not in trick and "undefined" not in trick and page.errors == []
    finally:
        s.stop()


def test_a_misere_caught_within_a_budget_says_at_least(tmp_path: Path, browser: Any) -> None:
    """The Solo Whist misère whose exact count takes over a minute: within the default budget (2 s compiled, 20 s
    pure) the pad says it is caught and gives the defenders' proven lower end («не меньше N взяток»)."""
    log = tmp_path / "solo.jsonl"
    events = solo_whist_game(random.Random(7), players=("Оля", "Петя", "Коля", "Маша"), deals=1, card_play=1.0)
    log.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), encoding="utf-8")
    s = Server(log, "--analysis-budget", str(BUDGETS[engine_name()]))  # the CLI's default (the tests' own is exact)
    try:
        page = _page(browser, s.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        page.tap("nav button[data-tab='replay']")
        viewer = show_deal(page, 1)
        viewer.locator("button.open-hands").tap()
        page.wait_for_selector("#replay-view .dd", timeout=90_000)
        said = viewer.locator(".dd").text_content() or ""
        assert said.startswith("в открытую: Коля не меньше ") and said.endswith(("взятки", "взяток")), said
        assert page.errors == []
    finally:
        s.stop()
