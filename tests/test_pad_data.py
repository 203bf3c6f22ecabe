"""Issue 59 point 6: the pad speaks data. A deal tapped on the page is sent as a :class:`~vistlog.api.DealDraft`
(the next-step query's words: dealer, bids, contract, calls, tricks), never as a line of text in the page's
language; the server says it back as a line of the notation. The draft makes the same events as the notation."""

from __future__ import annotations

import json
from urllib.parse import quote
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vistlog
from tests.serbian_games import random_game as serbian_game
from tests.simulate import preferans_game, solo_whist_game
from vistlog.events.checker import LogChecker
from vistlog.events.codec import decode_obj
from vistlog.events.draft import KONTRA_LEVELS, draft_of

from .test_pad import G, Server, _page, _start_game, request

DRAFTED = {"deal_started", "bid", "contract", "whist", "kontra", "tricks"}
"""What a deal drafted on a page holds (card play is recorded by other means)."""


@settings(max_examples=20)
@given(st.randoms(use_true_random=False), st.sampled_from(["preferans", "serbian", "solo_whist"]))
def test_a_deal_as_data_makes_the_events_it_was_drafted_from(rng: random.Random, kind: str) -> None:
    """Every deal of random legal games (no card play), drafted as a page drafts it (``draft_of``, sent as JSON):
    the draft's events are the deal's own, and the checker accepts them where the deal stood."""
    evs = serbian_game(rng, 8) if kind == "serbian" else solo_whist_game(rng, deals=8, card_play=0.0) \
        if kind == "solo_whist" else preferans_game(rng, rules={"preset": "sochi"}, max_deals=12, card_play=0.0)
    chk = LogChecker()
    deals = 0
    k = 0
    while k < len(evs):
        ev = evs[k]
        if ev["type"] != "deal_started":
            assert chk.check(decode_obj(dict(ev))) == []
            k += 1
            continue
        end = k + 1
        while end < len(evs) and evs[end]["type"] != "deal_started" and "deal" in evs[end]:
            end += 1
        deal = evs[k:end]
        table = chk.table(ev["game"])
        assert table is not None
        if {e["type"] for e in deal} <= DRAFTED:
            sent = {k: v for k, v in attrs.asdict(draft_of(deal)).items() if v not in (None, (), False)}
            made = vistlog.read_draft(json.loads(json.dumps(sent))).events(table)
            strip = [{key: v for key, v in e.items() if key not in ("v", "seq")} for e in deal]
            if not any(e.get("type") == "kontra" and e.get("level") not in KONTRA_LEVELS for e in deal):
                assert made == strip
                deals += 1
        for e in deal:
            assert chk.check(decode_obj(dict(e))) == []
        k = end
    assert deals > 0 or len(evs) < 4


@pytest.mark.parametrize(("sent", "field"), [
    ({"bomb": "two"}, "bomb"), ({"bids": "Аня 6S"}, "bids"), ({"tricks": {"Аня": -1}}, "tricks"),
    ({"played": True}, "played"), ({"calls": [["Аня"]]}, "calls"), ([1, 2], "deal"),
])
def test_a_draft_of_another_shape_is_refused_naming_its_field(sent: Any, field: str) -> None:
    with pytest.raises(vistlog.DraftError) as caught:
        vistlog.read_draft(sent)
    assert caught.value.field == field and str(caught.value).startswith(f"the deal sent: {field}: ")


@pytest.fixture
def pad(tmp_path: Path) -> Any:
    s = Server(tmp_path / "evening.jsonl")
    yield s
    s.stop()


def _phone(browser: Any, url: str) -> tuple[Any, list[dict[str, Any]]]:
    """A phone's page of the pad, and the bodies it posts to ``/api/record`` as they go."""
    page = _page(browser, url, width=390, has_touch=True, is_mobile=True)
    posted: list[dict[str, Any]] = []
    page.on("request", lambda r: posted.append(json.loads(r.post_data or "{}"))
            if r.url.endswith("/api/record") and r.method == "POST" else None)
    return page, posted


def test_a_tapped_deal_is_posted_as_data_and_said_back_as_a_line(pad: Server, browser: Any) -> None:
    """The page's write of a tapped deal is a JSON object of the deal's parts (no ``line``); the line shown is the
    server's, in the page's language; the log holds the deal."""
    _start_game(pad)
    page, posted = _phone(browser, pad.url)
    page.wait_for_selector("#dealer-buttons button")
    page.click("#dealer-buttons button[data-value='Аня']")
    page.click("#declarer-buttons button[data-value='Боря']")
    page.click("#contract-grid button[data-value='6S']")
    page.click("#calls-buttons button[data-player='Вова'][data-call='whist']")
    page.click("#calls-buttons button[data-player='Аня'][data-call='pass']")
    page.wait_for_selector("body:not(.asking) #tricks-row:not([hidden])")
    line = page.input_value("#line")
    assert line.startswith("сдаёт Аня; Боря 6♠; Вова вист, Аня пас; "), line  # the server's line, in Russian
    page.click("#record")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Записано')", timeout=10000)
    (sent,) = posted
    assert "line" not in sent and sent["deal"]["dealer"] == "Аня" and sent["deal"]["contract"] == "6S"
    assert sent["deal"]["calls"] == [["Вова", "whist"], ["Аня", "pass"]] and sum(sent["deal"]["tricks"].values()) == 10
    log = Path(pad.printed[0].split(" over ")[1].split(" at ")[0])
    assert [e.type for e in vistlog.game_events(log)] == [
        "game_started", "deal_started", "contract", "whist", "whist", "tricks"]
    status, data = request(pad.base + "/api/next?lang=en&game=" + quote(G) + "&draft=" + quote(json.dumps(
        {"declarer": "Вова", "contract": "7NT"})), None, {})
    assert status == 200 and data["step"] == "calls" and data["line"] == "Вова 7NT", data
    assert page.errors == []


def test_the_readme_draft_records_what_the_line_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's deal-as-data example, run in a folder with a game started: the same events as the line."""
    import re

    from .conftest import ROOT

    (code,) = re.findall(r"```py\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    start = {"type": "game_started", "game": "g", "kind": "preferans", "players": ["Аня", "Боря", "Вова"],
             "pool": 10, "rules": {"preset": "sochi"}}
    monkeypatch.chdir(tmp_path)
    vistlog.append("evening.jsonl", [start])
    exec(compile(code, "README.md", "exec"), {"vistlog": vistlog})  # noqa: S102 - the README's own example
    vistlog.append("by-line.jsonl", [start])
    vistlog.Recorder("by-line.jsonl").record_line("сдаёт Аня; Боря 6♠; Вова вист, Аня пас; Боря 6 Вова 3")

    def events(name: str) -> list[dict[str, Any]]:
        return [{k: v for k, v in vistlog.events.codec.unstructure(e).items() if k not in ("at", "by")}
                for e in vistlog.game_events(name)]

    assert events("evening.jsonl") == events("by-line.jsonl") and len(events("evening.jsonl")) == 6


def test_a_deal_corrected_in_place_is_one_append(pad: Server, browser: Any) -> None:
    """Issue 60 point 3 on the one-stream writes: «Исправить» on a deal opens the form filled with it; saving
    writes its void and the corrected deal as one append (consecutive lines, one write: both or neither)."""
    _start_game(pad)
    write = {"X-Vistlog-Pad": "1"}
    for line in ("сдаёт Аня; Боря 6♠; Вова вист, Аня пас; Боря 6 Вова 3", "распасы; Аня 5 Боря 3 Вова 2"):
        status, _ = request(pad.base + "/api/record", {"game": G, "line": line}, write)
        assert status == 200
    page, posted = _phone(browser, pad.url)
    page.click("nav button[data-tab='deals']")
    page.click("#deal-list li[data-deal='1'] button.correct-deal")
    page.wait_for_selector("body:not(.asking) #tricks-row:not([hidden])")
    assert "исправление" in (page.text_content("#deal-info") or "")
    assert page.input_value("#line") == "заново 1; Боря 6♠; Вова вист, Аня пас; Боря 6, Вова 3, Аня 1", \
        page.input_value("#line")  # the form filled with the deal as recorded
    page.click("#tricks button[data-player='Боря'][data-step='+']")  # Боря took 7, not 6
    page.wait_for_selector("body:not(.asking)")
    page.click("#record")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Записано')", timeout=10000)
    (sent,) = posted
    assert sent["deal"]["correct"] == 1 and sent["deal"]["tricks"]["Боря"] == 7
    log = Path(pad.printed[0].split(" over ")[1].split(" at ")[0])
    events = list(vistlog.game_events(log))
    assert [e.type for e in events[-6:]] == ["deal_voided", "deal_started", "contract", "whist", "whist", "tricks"]
    assert events[-6].deal == 1 and events[-5].deal == 1 and events[-5].replaces_voided
    assert len({e.at for e in events[-6:]}) == 1  # one write
    (game,) = vistlog.read_games(log)
    assert game.sound and game.deals == 2
    assert page.errors == []


def test_undoing_the_last_deal_keeps_the_form_on_it_filled(pad: Server, browser: Any) -> None:
    """«Отменить последнюю сдачу» voids the deal, and the form stays on that deal, filled as it was, to be
    recorded again; recording it writes the deal again in the voided one's place."""
    _start_game(pad)
    status, _ = request(pad.base + "/api/record", {"game": G, "line": "сдаёт Аня; Боря 6♠; Вова вист, Аня пас; "
                                                                      "Боря 6 Вова 3"}, {"X-Vistlog-Pad": "1"})
    assert status == 200
    page = _page(browser, pad.url, width=390, has_touch=True, is_mobile=True)
    page.on("dialog", lambda d: d.accept())
    page.click("nav button[data-tab='deals']")
    # the deal is on the page before «Отменить» is pressed, as a person sees it (under load the page's first look
    # may come after the tab is shown, and an undo pressed before it has nothing to undo)
    page.wait_for_selector("#deal-list li[data-deal='1']", state="attached", timeout=15000)
    page.click("#undo")
    page.wait_for_function("() => !document.querySelector('#tab-deal').hidden", timeout=15000)
    page.wait_for_selector("body:not(.asking) #tricks-row:not([hidden])")
    assert page.input_value("#line") == "заново 1; Боря 6♠; Вова вист, Аня пас; Боря 6, Вова 3, Аня 1"
    page.click("#tricks button[data-player='Боря'][data-step='+']")
    page.wait_for_selector("body:not(.asking)")
    page.click("#record")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Записано')", timeout=10000)
    log = Path(pad.printed[0].split(" over ")[1].split(" at ")[0])
    (game,) = vistlog.read_games(log)
    assert game.sound and [e.type for e in vistlog.game_events(log)][-6:] == [
        "deal_voided", "deal_started", "contract", "whist", "whist", "tricks"]
    assert page.errors == []


def test_a_solo_whist_sheet_is_its_running_points(tmp_path: Path, browser: Any) -> None:
    """Issue 60 point 5: the Solo Whist sample on the pad: the sheet's tab is «Пункты», under the chart a table of
    each player's running points deal by deal (24 → 38 → 34 …, as the seed's example reads), and the chart's lines
    each carry a dash or a marker of their own."""
    import shutil

    from .conftest import ROOT

    log = tmp_path / "solo.jsonl"
    shutil.copy(ROOT / "samples" / "solo-whist-evening.jsonl", log)
    s = Server(log)
    try:
        page = _page(browser, s.url, width=390, has_touch=True, is_mobile=True)
        page.wait_for_function("() => document.querySelector(\"nav button[data-tab='sheet']\").textContent "
                               "=== 'Пункты'", timeout=5000)
        page.click("nav button[data-tab='sheet']")
        page.wait_for_selector("#points table.points")
        head = page.locator("#points tr").first.locator("th").all_text_contents()
        assert head == ["Сдача", "Маша", "Петя", "Оля", "Коля"]
        first = [row.locator("td").nth(1).text_content() for row in page.locator("#points tr").all()[1:4]]
        assert first == ["24", "38", "34"]
        assert page.locator("#sheet svg polyline[stroke-dasharray]").count() == 3  # four players: 1 solid
        assert page.locator("#sheet svg circle, #sheet svg polygon, #sheet svg rect[width='6']").count() > 16
        assert page.errors == []
    finally:
        s.stop()


def test_a_void_needs_no_typing(pad: Server, browser: Any) -> None:
    """Issue 60 point 4: voiding a deal asks no browser prompt; its reason is picked from a short list (or typed,
    or left unsaid)."""
    _start_game(pad)
    status, _ = request(pad.base + "/api/record", {"game": G, "line": "сдаёт Аня; распасы; Аня 5 Боря 3 Вова 2"},
                        {"X-Vistlog-Pad": "1"})
    assert status == 200
    page = _page(browser, pad.url, width=390, has_touch=True, is_mobile=True)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.click("nav button[data-tab='deals']")
    page.click("#deal-list li[data-deal='1'] button.void-deal")
    page.select_option("#deal-list li[data-deal='1'] .void-form select.void-pick", "reason_redeal")
    page.click("#deal-list li[data-deal='1'] .void-form button.confirm-void")
    page.wait_for_selector("#deal-list li.void[data-deal='1']")
    log = Path(pad.printed[0].split(" over ")[1].split(" at ")[0])
    voided = [e for e in vistlog.game_events(log) if e.type == "deal_voided"]
    assert dialogs == [] and [(e.deal, e.reason) for e in voided] == [(1, "пересдача")]


def test_the_turned_card_is_chosen_by_taps(tmp_path: Path, browser: Any) -> None:
    """Issue 60 point 4: a Solo Whist deal's turned card is two taps (a rank in Russian, a suit), no typing; the
    line says it in Russian and the log spells it as the format does."""
    s = Server(tmp_path / "solo.jsonl")
    try:
        status, _ = request(s.base + "/api/record", {"events": [
            {"type": "game_started", "game": "s", "kind": "solo_whist", "players": ["Маша", "Петя", "Оля", "Коля"],
             "rules": {"preset": "encyclopedia"}}]}, {"X-Vistlog-Pad": "1"})
        assert status == 200
        page = _page(browser, s.url, width=390, has_touch=True, is_mobile=True)
        page.wait_for_selector("#dealer-buttons button")
        page.tap("#dealer-buttons button[data-value='Петя']")
        page.wait_for_selector("body:not(.asking) #turned-ranks button[data-value='Q']")
        assert page.text_content("#turned-ranks button[data-value='Q']") == "Д"
        page.tap("#turned-ranks button[data-value='Q']")
        page.tap("#turned-suits button[data-value='H']")
        page.wait_for_selector("body:not(.asking)")
        page.tap("#declarer-buttons button[data-value='Маша']")
        page.tap("#contract-grid button[data-value='misere']")
        page.wait_for_selector("body:not(.asking) #tricks-row:not([hidden])")
        assert page.input_value("#line").startswith("сдаёт Петя, открыта Д♥; Маша мизер"), page.input_value("#line")
        page.tap("#record")
        page.wait_for_function("() => document.querySelector('#status').textContent.includes('Записано')",
                               timeout=10000)
        log = tmp_path / "solo.jsonl"
        (started,) = [e for e in vistlog.game_events(log) if e.type == "deal_started"]
        assert str(started.turned) == "QH" and page.errors == []
    finally:
        s.stop()
