"""The pad on a club player's phone (issue 60), items 2 and 7: every refusal in sight, and nothing hidden under the
sticky «Записать» bar. On a 390×844 touch screen in Debian's headless Chromium, the server as a user starts it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import vistlog

import pytest

from .test_pad import Server, _page, _start_game

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def pad(tmp_path: Path) -> Any:
    s = Server(tmp_path / "evening.jsonl")
    yield s
    s.stop()


def _in_view(page: Any, selector: str) -> bool:
    """The element is on the screen and above the sticky bar."""
    box = page.locator(selector).bounding_box()
    bar = page.locator(".record-bar").bounding_box()
    return box is not None and bar is not None and box["height"] > 0 and box["y"] >= 0 and \
        box["y"] + box["height"] <= bar["y"] + 1


def _deals(server: Server) -> int:
    log = Path(server.printed[0].split(" over ")[1].split(" at ")[0])
    return sum(e.type == "deal_started" for e in vistlog.game_events(log))


def test_a_typed_line_refused_for_its_tricks_says_why_under_the_line(pad: Server, browser: Any) -> None:
    _start_game(pad)
    page = _page(browser, pad.url, **PHONE)
    page.fill("#line", "сдаёт Аня; Боря 6♠; Вова вист, Аня пас; Боря 6 Вова 3 Аня 5")
    page.press("#line", "Enter")
    page.wait_for_function("() => document.querySelector('#err-line').textContent.length > 0")
    said = page.text_content("#err-line") or ""
    assert "14" in said and "10" in said, said  # the tricks said and the tricks a deal has
    assert _in_view(page, "#err-line")
    assert page.locator("#tricks-row").is_hidden()  # where the field's own message would have gone
    assert _deals(pad) == 0
    assert page.errors == []


def test_record_on_an_empty_form_names_what_is_missing(pad: Server, browser: Any) -> None:
    _start_game(pad)
    page = _page(browser, pad.url, **PHONE)
    page.wait_for_selector("#dealer-buttons button")
    page.tap("#record")
    said = page.text_content("#err-general") or ""
    assert said == "Нечего записывать: выберите, кто сдаёт.", said
    page.tap("#dealer-buttons button[data-value='Аня']")
    page.wait_for_selector("body:not(.asking)")
    page.tap("#record")
    assert page.text_content("#err-general") == "Нечего записывать: выберите контракт, мизер или распасы."
    assert page.locator("#err-general").is_visible()
    assert _deals(pad) == 0


def test_a_stepper_at_its_bound_says_why(pad: Server, browser: Any) -> None:
    _start_game(pad)
    page = _page(browser, pad.url, **PHONE)
    page.wait_for_selector("#dealer-buttons button")
    page.tap("#dealer-buttons button[data-value='Аня']")
    page.wait_for_selector("body:not(.asking)")
    page.tap("#mode-buttons button[data-value='raspas']")
    page.wait_for_selector("#tricks .stepper")
    first = page.locator("#tricks .stepper").first
    name = first.locator(".name").text_content() or ""
    while (first.locator("output").text_content() or "0") != "0":
        first.locator("button[data-step='-']").tap()
    first.locator("button[data-step='-']").tap()
    assert page.text_content("#err-tricks") == f"{name}: меньше нуля взяток не бывает."
    assert page.locator("#err-tricks").is_visible()
    # the last stepper scrolled to stops above the sticky bar
    page.locator("#tricks .stepper").last.scroll_into_view_if_needed()
    assert _in_view(page, "#tricks .stepper >> nth=-1")
    assert page.errors == []


def test_nothing_is_hidden_under_the_sticky_bar_at_360(tmp_path: Path, browser: Any) -> None:
    s = Server(tmp_path / "evening.jsonl")
    try:
        _start_game(s)
        page = _page(browser, s.url, viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True)
        page.wait_for_selector("#dealer-buttons button")
        page.tap("#dealer-buttons button[data-value='Аня']")
        page.wait_for_selector("body:not(.asking)")
        page.tap("#mode-buttons button[data-value='raspas']")
        page.wait_for_selector("#tricks .stepper")
        for k in range(page.locator("#tricks .stepper").count()):
            page.locator("#tricks .stepper").nth(k).scroll_into_view_if_needed()
            assert _in_view(page, f"#tricks .stepper >> nth={k}")
        page.locator("#line").scroll_into_view_if_needed()
        assert _in_view(page, "#line")
    finally:
        s.stop()
