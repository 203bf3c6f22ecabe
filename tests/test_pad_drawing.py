"""The pad on a club player's phone (issue 60), item 1: the drawn пулька on one screen. On 390×844 and 360×640 touch
screens in Debian's headless Chromium, the server as a user starts it, over the longest sample evening (43 deals)
with four deals voided after the fact: the whole drawing is in view without sideways scrolling, every number is at
least 11 CSS px at 390 px, each voided entry is struck through by a line over it on whichever side it stands, and a
tap zooms in on a part of the drawing, a second tap shows it whole again."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import SAMPLES
from .test_pad import Server, _page

VOIDED = (5, 12, 20, 33)

SIZES = {390: {"width": 390, "height": 844}, 360: {"width": 360, "height": 640}}


@pytest.fixture(scope="module")
def pad(tmp_path_factory: pytest.TempPathFactory) -> Any:
    lines = (SAMPLES / "sochi-evening.jsonl").read_text(encoding="utf-8").splitlines()
    end = json.loads(lines[-1])
    seq = end["seq"]
    for n in VOIDED:
        lines.insert(-1, json.dumps({"v": 1, "seq": seq, "type": "deal_voided", "game": end["game"], "deal": n,
                                     "reason": "записана не та сдача"}, ensure_ascii=False))
        seq += 1
    end["seq"] = seq
    lines[-1] = json.dumps(end, ensure_ascii=False)
    log = tmp_path_factory.mktemp("drawing") / "evening.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    s = Server(log)
    yield s
    s.stop()


def _sheet(browser: Any, pad: Server, width: int) -> Any:
    page = _page(browser, pad.url, viewport=SIZES[width], has_touch=True, is_mobile=True)
    page.tap("nav button[data-tab='sheet']")
    page.wait_for_selector("#sheet svg line.struck", state="attached")
    return page


@pytest.mark.parametrize("width", [390, 360])
def test_the_whole_drawing_is_in_view_without_sideways_scrolling(pad: Server, browser: Any, width: int) -> None:
    page = _sheet(browser, pad, width)
    seen = page.evaluate("""() => {
        const svg = document.querySelector('#sheet svg').getBoundingClientRect();
        return {left: svg.left, right: svg.right, scroll: document.documentElement.scrollWidth,
                sheet: document.querySelector('#sheet').scrollWidth, box: document.querySelector('#sheet').clientWidth};
    }""")
    assert seen["left"] >= 0 and seen["right"] <= width, seen
    assert seen["scroll"] <= width and seen["sheet"] <= seen["box"], seen
    assert page.errors == []


def test_every_number_is_at_least_11_px_at_390(pad: Server, browser: Any) -> None:
    page = _sheet(browser, pad, 390)
    sizes = page.evaluate("""() => {
        const svg = document.querySelector('#sheet svg');
        const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return [...svg.querySelectorAll('text')].filter((t) => /[0-9]/.test(t.textContent))
          .map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * k]);
    }""")
    assert len(sizes) > 20
    small = [(text, px) for text, px in sizes if px < 11]
    assert small == [], small


def test_a_voided_entry_is_struck_through_on_every_side(pad: Server, browser: Any) -> None:
    page = _sheet(browser, pad, 390)
    found = page.evaluate("""() => {
        const lines = [...document.querySelectorAll('#sheet svg line.struck')].map((l) => l.getBoundingClientRect());
        return [...document.querySelectorAll('#sheet svg tspan[text-decoration="line-through"]')].map((t) => {
            const r = t.getBoundingClientRect();
            const turn = (t.closest('text').getAttribute('transform') || '').match(/rotate\\(([-0-9.]+)/);
            const angle = turn ? Math.round(parseFloat(turn[1])) % 180 : 0;
            const along = angle ? r.height : r.width;
            const over = lines.some((l) => {
                const x = (l.left + l.right) / 2, y = (l.top + l.bottom) / 2;
                return x > r.left && x < r.right && y > r.top && y < r.bottom
                  && Math.max(l.width, l.height) >= 0.8 * along;
            });
            return {text: t.textContent, angle, over};
        });
    }""")
    sides = {f["angle"] for f in found}
    assert 0 in sides and sides - {0}, found  # voided entries along the bottom and along a turned side
    assert all(f["over"] for f in found), [f for f in found if not f["over"]]


def test_a_tap_zooms_in_and_a_second_tap_shows_the_whole(pad: Server, browser: Any) -> None:
    page = _sheet(browser, pad, 390)
    whole = page.get_attribute("#sheet svg", "viewBox")
    box = page.locator("#sheet svg").bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.5)
    zoomed = page.get_attribute("#sheet svg", "viewBox")
    w, z = [float(v) for v in whole.split()], [float(v) for v in zoomed.split()]
    assert z[2] == w[2] / 2 and z[3] == w[3] / 2 and z[0] == w[0]  # the left half of the drawing, twice the size
    page.touchscreen.tap(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    assert page.get_attribute("#sheet svg", "viewBox") == whole
    assert page.errors == []
