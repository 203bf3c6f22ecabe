"""Issue 60's targets measured end to end: both evenings of the issue recorded on a 390×844 touch screen in Debian's
headless Chromium, counting what a person does for each deal — every tap (a button already chosen is not tapped
again), every character typed. The Сочинка evening is the twelve deals of ``tests/test_pad.py`` (its correction
aside), the Solo Whist evening the nine of ``tests/test_pad_solo_whist.py``, the turned card tapped as a rank and a
suit. The counts are printed (``-s``) and kept in ``docs/pad.md``."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pytest

from . import test_pad, test_pad_solo_whist
from .test_pad import Server, _page, request

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


class Person:
    """The page as a person uses it: each tap counted, a button already chosen not tapped again, the turned card
    (which the Solo Whist helper types) tapped as its rank and its suit, every typed character counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.typed = 0
        self.turned = 0
        """The taps that named a turned card (a Solo Whist deal may name it or not)."""

    def tap(self, selector: str, **_: Any) -> None:
        if selector.startswith("#") and "button" in selector and self.page.locator(f"{selector}.sel").count():
            return
        self.taps += 1
        self.page.tap(selector)

    click = tap

    def check(self, selector: str, **_: Any) -> None:
        self.taps += 1
        self.page.tap(selector)

    def fill(self, selector: str, text: str, **_: Any) -> None:
        if selector == "#turned":
            self.page.wait_for_selector("body:not(.asking) #turned-ranks button")
            before = self.taps
            self.tap(f"#turned-ranks button[data-value='{text[:-1]}']")
            self.tap(f"#turned-suits button[data-value='{text[-1]}']")
            self.turned += self.taps - before
            self.page.wait_for_selector("body:not(.asking)")
            return
        self.typed += len(text)
        self.page.fill(selector, text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)


def _start(server: Server, kind: str, game: str, players: list[str], preset: str, **more: Any) -> None:
    status, _ = request(server.base + "/api/record", {"events": [
        {"type": "game_started", "game": game, "kind": kind, "players": players, "rules": {"preset": preset},
         **more}]}, {"X-Vistlog-Pad": "1"})
    assert status == 200


def _counted(person: Person, record: Any, deal: tuple[Any, ...], dealer: str | None) -> tuple[int, int, int]:
    """The taps, the typed characters and the taps naming the turned card of one deal recorded by
    ``record(person, deal, dealer=…)``."""
    before = (person.taps, person.typed, person.turned)
    record(person, deal, dealer=dealer)
    return person.taps - before[0], person.typed - before[1], person.turned - before[2]


@pytest.mark.parametrize("evening", ["sochi", "solo_whist"])
def test_each_deal_of_the_evening_is_taps_only(evening: str, tmp_path: Path, browser: Any) -> None:
    server = Server(tmp_path / "evening.jsonl")
    try:
        if evening == "sochi":
            _start(server, "preferans", test_pad.G, ["Аня", "Боря", "Вова"], "sochi", pool=30)
        else:
            _start(server, "solo_whist", "соло", test_pad_solo_whist.PLAYERS, "encyclopedia")
        person = Person(_page(browser, server.url, **PHONE))
        person.page.wait_for_selector("#dealer-buttons button")
        counts: list[tuple[str, int, int, int]] = []
        if evening == "sochi":
            for k, d in enumerate(test_pad.EVENING):
                counts.append((d[0], *_counted(person, test_pad._tap_deal, d, "Аня" if not k else None)))
        else:
            for k, d in enumerate(test_pad_solo_whist.EVENING):
                counts.append((d[1], *_counted(person, test_pad_solo_whist._tap, d, "Петя" if not k else None)))
        played = [taps for mode, taps, _, _ in counts if mode == "game"]
        unnamed = [taps - turned for mode, taps, _, turned in counts if mode == "game"]
        print(f"\n{evening}: taps per deal {[c[1] for c in counts]}, played deals' median {statistics.median(played)} "
              f"({statistics.median(unnamed)} without naming the turned card), typed {sum(c[2] for c in counts)}")
        assert [c[2] for c in counts] == [0] * len(counts)
        assert person.page.errors == []
        # the target, 5 taps for a played deal (median); a Solo Whist deal that names its turned card (which the
        # game does not require) takes two more: 6 measured, kept from growing (docs/pad.md)
        assert statistics.median(unnamed) <= 5, counts
        assert statistics.median(played) <= (5 if evening == "sochi" else 6), counts
    finally:
        server.stop()
