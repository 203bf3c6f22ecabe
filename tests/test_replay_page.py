"""A game you can send (issue 61): ``vistlog replay LOG --format html`` writes one self-contained page, opened from
a file in Debian's headless Chromium with the network off."""

from __future__ import annotations

import base64
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import vistlog
from vistlog import views
from vistlog.events.cards import parse_card
from vistlog.events.model import CardPlayed

from .conftest import SAMPLES


def _page(log: Path, out: Path, *extra: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "vistlog", "replay", str(log), "--format", "html", "-o", str(out),
                           *extra], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S)
                      .group(1).replace("<\\/", "</"))
    data["sheets"] = json.loads(gzip.decompress(base64.b64decode(data["sheets"])))
    return data


def test_the_page_holds_the_logs_cards_tricks_and_sheets(tmp_path: Path) -> None:
    log = SAMPLES / "open-hands.jsonl"
    data = _page(log, tmp_path / "g.html")
    (game,) = vistlog.read_games(log)
    events = vistlog.game_events(log)
    played: dict[int, list[tuple[str, str]]] = {}
    for e in events:
        if isinstance(e, CardPlayed):
            played.setdefault(e.deal, []).append((e.player, str(e.card)))
    shown = [x for x in data["deals"] if x["cards"]]
    assert shown
    for x in shown:
        cards = [tuple(c) for tr in x["cards"]["tricks"] for c in tr["cards"]]
        assert cards == played[x["deal"]]  # every card once, in the order played
        held = {c for cs in x["cards"]["hands"].values() for c in cs}
        assert {c for _, c in cards} <= held
    # each trick's winner as the play itself decides it (events/play.py)
    from vistlog.games import result_of

    records = {(rec.number, void): rec for rec, void, _ in result_of(game).told()}
    for x in shown:
        rec = records[(x["deal"], x["voided"])]
        hands = rec.hands_in_play()
        assert rec.setup is not None and hands is not None
        play = rec.setup.play({p: hands[p] for p in rec.setup.seating})
        for tr in x["cards"]["tricks"]:
            before = dict(play.taken)
            for p, c in tr["cards"]:
                play.play(p, parse_card(c))
            won = [p for p in play.taken if play.taken[p] != before.get(p, 0)]
            assert tr["winner"] in (won[0] if won else None, None), (x["deal"], tr)
            assert (won and tr["winner"] == won[0]) or tr is x["cards"]["tricks"][-1]
    # the sheet after each deal is vistlog sheet's
    for i, x in enumerate(data["deals"]):
        assert data["sheets"]["ru"][i] == views.svg(game, upto=x["deal"], lang="ru")
    done = subprocess.run([sys.executable, "-m", "vistlog", "sheet", str(log), "--format", "svg", "--upto", "5",
                           "--lang", "en"], capture_output=True, text=True)
    five = next(i for i, x in enumerate(data["deals"]) if x["deal"] == 5)
    assert data["sheets"]["en"][five] + "\n" == done.stdout
    assert data["settlement"]["en"] == views.settlement_text(game.to_json(), "en")


def test_the_page_names_the_chain_head_verify_prints(tmp_path: Path) -> None:
    log = tmp_path / "chained.jsonl"
    vistlog.append(log, vistlog.game_events(SAMPLES / "corrected-deal.jsonl"))
    data = _page(log, tmp_path / "g.html")
    head = vistlog.verify(log).head
    assert head and data["head"] == head
    done = subprocess.run([sys.executable, "-m", "vistlog", "verify", str(log), "--head", head], capture_output=True,
                          text=True)
    assert done.returncode == 0


def test_forty_card_deals_with_analysis_stay_small(tmp_path: Path) -> None:
    import random

    from .simulate import preferans_game

    events = preferans_game(random.Random(5), players=("Аня", "Боря", "Вова"), rules={"preset": "sochi"}, pool=60,
                            max_deals=40, card_play=1.0)
    log = tmp_path / "forty.jsonl"
    log.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), encoding="utf-8")
    out = tmp_path / "forty.html"
    data = _page(log, out, "--analyse")
    assert len(data["deals"]) >= 30
    assert out.stat().st_size <= 400_000, out.stat().st_size
    assert all(x["values"] and len(x["values"]["cards"]) == sum(len(t["cards"]) for t in x["cards"]["tricks"])
               for x in data["deals"] if x["cards"] and not x["voided"] and x["cards"]["declarer"])


def _open(browser: Any, path: Path, hash_: str = "", **options: Any) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  offline=True, **options)
    page = context.new_page()
    page.requests = []
    page.errors = []
    page.on("request", lambda r: page.requests.append(r.url))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(path.as_uri() + hash_)
    page.wait_for_selector("#v-deal")
    page.wait_for_function("() => document.querySelector('#v-sheet svg') !== null")
    return page


@pytest.mark.parametrize("sample", ["open-hands.jsonl", "solo-whist-evening.jsonl"])
def test_the_page_steps_offline_from_a_file(tmp_path: Path, browser: Any, sample: str) -> None:
    out = tmp_path / "game.html"
    data = _page(SAMPLES / sample, out)
    page = _open(browser, out)
    first = data["deals"][0]
    assert page.locator("#v-deal-list").input_value() == "0"
    if first["cards"]:
        for player in first["cards"]["hands"]:
            assert player in page.locator(".hands").inner_text()
    page.keyboard.press("ArrowRight")
    shown = page.evaluate("location.hash")
    if first["cards"]:
        assert "card=1" in shown and page.locator(".played").count() == 1
        page.evaluate("""() => {
            const app = document.querySelector('#app');
            const t0 = new Touch({identifier: 1, target: app, clientX: 300, clientY: 400});
            const t1 = new Touch({identifier: 1, target: app, clientX: 100, clientY: 405});
            app.dispatchEvent(new TouchEvent('touchstart', {touches: [t0], changedTouches: [t0], bubbles: true}));
            app.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [t1], bubbles: true}));
        }""")
        assert "card=2" in page.evaluate("location.hash")
    page.locator("#v-lang").click()
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "Settlement" in page.locator("body").inner_text()
    card_deal = next((x for x in data["deals"] if x["cards"] and len(x["cards"]["tricks"]) >= 3), None)
    if card_deal is not None:
        deep = _open(browser, out, f"#deal={card_deal['deal']}&trick=3")
        assert f"{card_deal['deal']}." in deep.locator("#v-deal-list option:checked").inner_text()
        assert "3" in deep.locator(".trick strong").inner_text()
        assert deep.errors == []
        assert all(u.startswith("file:") for u in deep.requests)
    assert page.errors == []
    assert all(u.startswith("file:") for u in page.requests), page.requests  # nothing asked of any server


def test_analysed_each_card_shows_its_value_and_a_mistake_its_cost(tmp_path: Path, browser: Any) -> None:
    """samples/classic-bombs.jsonl deal 7: Восток's K♠ in trick 8 cost the defence a trick (as analyse says)."""
    out = tmp_path / "analysed.html"
    _page(SAMPLES / "classic-bombs.jsonl", out, "--analyse")
    page = _open(browser, out, "#deal=7&trick=8")
    said = page.locator(".trick").inner_text()
    assert "Восток K♠ — после карты: Запад 6 взяток ✗" in said, said
    assert page.errors == []


def test_a_voided_deal_is_shown_struck_through(tmp_path: Path, browser: Any) -> None:
    out = tmp_path / "corrected.html"
    data = _page(SAMPLES / "corrected-deal.jsonl", out)
    i = next(i for i, x in enumerate(data["deals"]) if x["voided"])
    page = _open(browser, out, f"#deal={data['deals'][i]['deal']}")
    page.select_option("#v-deal-list", str(i))
    assert page.locator("#v-deal.voided").count() == 1
    assert "line-through" in page.evaluate("getComputedStyle(document.querySelector('#v-deal .lines')).textDecoration")


def test_the_page_is_one_game() -> None:
    done = subprocess.run([sys.executable, "-m", "vistlog", "replay", str(SAMPLES / "sochi-evening.jsonl"),
                           "--analyse"], capture_output=True, text=True)
    assert done.returncode == 2 and "--format html" in done.stderr
