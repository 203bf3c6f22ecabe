"""Issue 60 point 6: the pad in Russian holds no Latin word — on each tab of a Preferans, a Solo Whist and a Serbian
game, and in the new-game form for every preset (its rule options in words, a choice of values by name). What the
users themselves wrote (players' names, the game's id) is left out of the scan. On a 390×844 touch screen in
Debian's headless Chromium, the server as a user starts it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import vistlog

from .conftest import SAMPLES, VECTORS
from .test_pad import Server, _page

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LOGS = {"preferans": SAMPLES / "sochi-evening.jsonl", "solo_whist": SAMPLES / "solo-whist-evening.jsonl",
        "serbian": VECTORS / "serbian" / "sr-1.jsonl"}
TABS = ("deal", "sheet", "deals", "replay", "new")
WORD = re.compile(r"[A-Za-z][A-Za-z_]*")


def _latin(text: str, theirs: set[str]) -> list[str]:
    """The Latin words of a text that are not the users' own (names, ids) nor the language button."""
    return sorted({w for w in WORD.findall(text) if w not in theirs and w != "EN"})


@pytest.mark.parametrize("kind", list(LOGS))
def test_every_tab_in_russian_holds_no_latin_word(kind: str, tmp_path: Path, browser: Any) -> None:
    log = tmp_path / "evening.jsonl"
    shutil.copy(LOGS[kind], log)
    (game,) = vistlog.read_games(log)
    theirs = {w for name in (*game.players, game.id) for w in WORD.findall(name)}
    pad = Server(log)
    try:
        page = _page(browser, pad.url, **PHONE)
        found = {}
        for tab in TABS:
            page.tap(f"nav button[data-tab='{tab}']")
            page.wait_for_selector(f"#tab-{tab}:not([hidden])")
            if tab == "new":
                page.wait_for_selector("#options[data-preset] [data-option]", state="attached")
            text = page.evaluate(f"() => document.querySelector('#tab-{tab}').innerText + ' ' + "
                                 "document.querySelector('nav').innerText + ' ' + "
                                 "[...document.querySelectorAll('#sheet svg text')].map((t) => t.textContent)"
                                 ".join(' ')")
            found[tab] = _latin(text, theirs)
        assert found == {tab: [] for tab in TABS}
        assert page.errors == []
    finally:
        pad.stop()


def test_the_new_game_form_says_every_presets_options_in_russian(tmp_path: Path, browser: Any) -> None:
    pad = Server(tmp_path / "evening.jsonl")
    try:
        page = _page(browser, pad.url, **PHONE)
        page.tap("nav button[data-tab='new']")
        page.wait_for_selector("#preset option", state="attached")
        presets = page.evaluate("() => [...document.querySelectorAll('#preset option')].map((o) => o.value)")
        assert set(presets) == set(vistlog.preset_names())
        found = {}
        for preset in presets:
            page.select_option("#preset", preset)
            page.wait_for_selector(f"#options[data-preset='{preset}'] [data-option]", state="attached")
            found[preset] = _latin(page.evaluate("() => document.querySelector('#options').innerText + ' ' + "
                                                 "document.querySelector('#preset').selectedOptions[0].text"), set())
        assert found == {p: [] for p in presets}
        # a choice is made by its name and written as the log spells it
        page.select_option("#preset", "sochi")
        page.wait_for_selector("#options[data-preset='sochi'] select[data-option='single_whister']", state="attached")
        said = page.evaluate("() => [...document.querySelectorAll(\"select[data-option='single_whister'] option\")]"
                             ".map((o) => [o.value, o.text])")
        assert said == [["greedy", "жлобский"], ["gentleman", "джентльменский"]]
        assert page.errors == []
    finally:
        pad.stop()
