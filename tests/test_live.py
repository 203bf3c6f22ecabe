"""The log folded as it grows (issue 48's speed): the score pad's view after a deal is the view extended by
that deal, never the game folded again, and it is the same as a fold of the whole log from its start."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import vistlog
from vistlog import views
from vistlog.pad import VIEW_DEALS, Pad
from vistlog.projections.live import LiveFold

from .simulate import preferans_game


def _plain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in ev.items() if k != "seq"} for ev in events if ev["type"] != "game_ended"]


def _same(live: LiveFold, log: Path) -> None:
    """Every game of the live fold is what a fold of the whole log gives (but for the problem a fold of the
    whole file finds in a deal it ends in the middle of: a log being written is not at its end)."""
    for g in vistlog.read_games(log):
        if not g.started:
            continue
        mine = vistlog.api.Game(live.result(g.id), ())
        unfinished = any(p.code == "game-unfinished" for p in g.problems)
        assert {**mine.to_json(), "problems": 0} == {**g.to_json(), "problems": 0}
        assert mine.to_json().get("problems", 0) == g.to_json().get("problems", 0) - unfinished
        assert views.deal_list(mine, "ru") == views.deal_list(g, "ru")
        assert views.record_lines(mine, "ru") == views.record_lines(g, "ru")
        assert list(mine.replay_lines(lang="ru")) == list(g.replay_lines(lang="ru"))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cuts=st.lists(st.integers(1, 40), min_size=1, max_size=6),
       voids=st.lists(st.integers(1, 12), max_size=3))
def test_a_log_folded_as_it_grows_is_the_log_folded_whole(seed: int, cuts: list[int], voids: list[int],
                                                          tmp_path_factory: Any) -> None:
    """Appended in pieces (with voids between them), the live fold after each piece equals a fold from scratch."""
    log = tmp_path_factory.mktemp("live") / "g.jsonl"
    events = _plain(preferans_game(random.Random(seed), max_deals=40, card_play=0.3, pool=10**6))
    live = LiveFold(str(log))
    at = 0
    for cut in cuts:
        piece, at = events[at:at + cut], at + cut
        if piece:
            vistlog.append(log, piece)
        # a void of a deal already played, between pieces, where the game allows it
        if voids and piece:
            deal = voids.pop()
            with contextlib.suppress(vistlog.VistlogError):  # a deal not yet played: refused, nothing written
                vistlog.append(log, [{"type": "deal_voided", "game": "g", "deal": deal}])
        live.update()
        _same(live, log)
    # what is appended in the middle of a line waits for the rest of it
    with open(log, "ab") as fh:
        fh.write(b'{"v":1,"seq"')
    assert live.update() == set()


def test_the_pads_view_after_a_deal_is_extended_not_folded_again(tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"
    events = _plain(preferans_game(random.Random(7), max_deals=140, card_play=0.0, pool=10**6))
    last = max(ev.get("deal", 0) for ev in events)
    vistlog.append(log, [ev for ev in events if ev.get("deal", 0) < last])
    pad = Pad(log)
    state = pad.state(None)
    view = state["game"]
    assert state["games"][0]["preset"] == view["preset"] == "sochi"  # the preset, in the list as in the view
    assert state["games"][0]["variant"] == view["variant"] == "preferans"  # the game
    told = view["deals_told"]
    assert told > VIEW_DEALS and view["deals_since"] == told - VIEW_DEALS
    assert len(view["deal_list"]) == len(view["deals"]) == VIEW_DEALS
    every = pad.state(None, every=True)["game"]
    assert every["deals_since"] == 0 and len(every["deal_list"]) == told
    assert every["deal_list"][-VIEW_DEALS:] == view["deal_list"] and every["deals"][-VIEW_DEALS:] == view["deals"]
    pipe, offset = pad.live.pipe, pad.live.offset
    vistlog.append(log, [ev for ev in events if ev.get("deal", 0) == last])
    after = pad.state(None)["game"]
    assert pad.live.pipe is pipe and pad.live.offset > offset  # the same fold, extended by the new lines
    assert after["deals_told"] == told + 1 and after["deal_list"][-1]["deal"] == last
    assert after["settlement"] == next(iter(vistlog.read_games(log))).to_json()


def test_a_log_replaced_under_the_pad_is_folded_again(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    events = _plain(preferans_game(random.Random(3), max_deals=6, card_play=0.0))
    vistlog.append(log, events)
    live = LiveFold(str(log))
    assert live.update() == {"g"}
    other = tmp_path / "other.jsonl"
    vistlog.append(other, [{**ev, "game": "h"} for ev in events[:1]])
    other.replace(log)
    assert live.update() == {"g", "h"} and live.order == ["h"] and live.result("g") is None
