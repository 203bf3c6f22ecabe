"""Two devices, one deal: the one that records second is told who wrote first — both tapping Record at once, and
one tapping it after its page has drawn the other's deal (a poll a second brings it, and the game's next step is
asked again for the log as it is now). Headless Chromium against ``vistlog serve``, as in :mod:`tests.test_pad`."""

from __future__ import annotations

from typing import Any

import vistlog

from .test_pad import G, Server, _page, request, server

__all__ = ["server"]  # the fixture, used here as in test_pad


def _tap(page: Any, declarer: str, defence: tuple[str, str]) -> None:
    page.click("#dealer-buttons button[data-value='Аня']")
    page.click(f"#declarer-buttons button[data-value='{declarer}']")
    page.click("#contract-grid button[data-value='6S']")
    for p in defence:  # both defenders pass: a whole deal, decided without play
        page.click(f"#calls-buttons button[data-player='{p}'][data-call='pass']")
    page.wait_for_selector("#tricks-row", state="hidden")


def _two_devices(server: Server, browser: Any) -> tuple[Any, Any]:
    """A game started, and two pages each with its own whole first deal tapped, not yet recorded."""
    status, _ = request(server.base + "/api/record", {"events": [
        {"type": "game_started", "game": G, "kind": "preferans", "players": ["Аня", "Боря", "Вова"], "pool": 20,
         "rules": {"preset": "sochi"}}]}, {"X-Vistlog-Pad": "1", "Content-Type": "application/json"})
    assert status == 200
    one, two = _page(browser, server.url), _page(browser, server.url)
    _tap(one, "Боря", ("Вова", "Аня"))
    _tap(two, "Вова", ("Аня", "Боря"))
    return one, two


def _written(server: Server) -> list[str]:
    log = server.printed[0].split(" over ")[1].split(" at ")[0]
    return [e.type for e in vistlog.game_events(log)]


def test_two_devices_recording_the_same_deal_at_once_give_one_write_and_one_refusal(server: Server,
                                                                                      browser: Any) -> None:
    one, two = _two_devices(server, browser)
    one.evaluate("() => { window.sent = recordDeal(); }")
    two.evaluate("() => { window.sent = recordDeal(); }")
    one.evaluate("() => window.sent")
    two.evaluate("() => window.sent")
    refused = [p for p in (one, two) if p.text_content("#err-general")]
    assert len(refused) == 1
    assert "Кто-то записал раньше" in refused[0].text_content("#err-general")
    assert _written(server) == ["game_started", "deal_started", "contract", "whist", "whist"]
    # the refused device now shows the deal that was written: the next one is deal 2
    refused[0].wait_for_function("() => document.querySelector('#deal-info').textContent.includes('Сдача 2')",
                                 timeout=10000)


def test_a_deal_tapped_before_another_device_wrote_is_refused_with_who_wrote_first(server: Server,
                                                                                    browser: Any) -> None:
    one, two = _two_devices(server, browser)
    one.evaluate("() => recordDeal()")
    assert one.text_content("#err-general") == ""
    # the second page's poll has brought the deal written and drawn its form for the log as it is now
    two.wait_for_function("() => document.body.dataset.drawn === '6'", timeout=5000)
    two.evaluate("() => recordDeal()")
    assert "Кто-то записал раньше" in two.text_content("#err-general")
    assert _written(server) == ["game_started", "deal_started", "contract", "whist", "whist"]
    assert one.errors == [] and two.errors == []
