"""Issue 59: one check per write. The score pad's writer, its reads and its view share one checker: a write is
tried on the state (which it leaves as it was), then checked once for real, and that verdict is what the view
folds; a refused write costs no replay of the log."""

from __future__ import annotations

import gc
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vistlog
from vistlog.events.checker import UNREHEARSED, LogChecker
from vistlog.events.codec import decode_obj
from vistlog.events.model import DEAL_EVENTS
from vistlog.events.verdicts import Verdict
from vistlog.pad import HttpError, Pad

from .serbian_games import all_pass, deal, game
from .test_live import _plain, _same
from .test_one_stream import _game


def _corrupt(rng: random.Random, ev: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """``ev`` made wrong in one field a deal is often mistyped in (a player, a count of tricks, the dealer)."""
    ev = dict(ev)
    for field in ("player", "dealer", "declarer"):
        if isinstance(ev.get(field), str):
            ev[field] = rng.choice([p for p in players if p != ev[field]] or players)
            return ev
    if isinstance(ev.get("taken"), dict) and ev["taken"]:
        taken = dict(ev["taken"])
        first = next(iter(taken))
        taken[first] += rng.choice([1, -1, 3])
        ev["taken"] = taken
    elif isinstance(ev.get("deal"), int):
        ev["deal"] += rng.choice([1, -1])
    return ev


def _checker(events: list[dict[str, Any]]) -> tuple[LogChecker, list[Verdict]]:
    told: list[Verdict] = []
    chk = LogChecker(told.append, detail=True)
    for ev in events:
        chk.check(decode_obj(dict(ev)))
    return chk, told


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["preferans", "serbian", "solo_whist"]),
       st.integers(0, 2), st.booleans(), st.data())
def test_a_batch_tried_is_judged_as_it_is_checked_and_leaves_the_game_alone(
        rng: random.Random, kind: str, voids: int, wrong: bool, data: Any) -> None:
    """At any deal of a random game, the deal's events (made wrong in one field, or not) tried on the checker get
    the very issues a checker fed them for real gives, event by event, the deal handed over on the way weighed
    as it counts (a Serbian refa); and the checker that tried goes on to tell exactly what one that never tried
    tells, to the end of the game."""
    evs = [{**ev, "seq": i} for i, ev in enumerate(_game(rng, kind, voids), start=1)]
    starts = [i for i, ev in enumerate(evs) if ev["type"] == "deal_started"]
    assert starts
    at = data.draw(st.sampled_from(starts))
    end = next((i for i in range(at + 1, len(evs)) if type(decode_obj(dict(evs[i]))) not in DEAL_EVENTS), len(evs))
    batch = evs[at:end]
    if wrong:
        k = data.draw(st.integers(0, len(batch) - 1))
        batch = [*batch[:k], _corrupt(rng, batch[k], list(evs[0]["players"])), *batch[k + 1:]]
    tried, told_tried = _checker(evs[:at])
    real, _ = _checker(evs[:at])
    decoded = [decode_obj(dict(ev)) for ev in batch]
    told = len(told_tried)
    verdicts = tried.rehearse(decoded)
    assert tried.next_seq == at + 1 and len(told_tried) == told  # nothing told, nothing counted
    if any(type(ev) in UNREHEARSED for ev in decoded):
        assert verdicts is None  # card play is not tried: such a batch is checked for real
        return
    assert verdicts == [real.check(ev) for ev in decoded]
    real, told_real = _checker(evs[:at])  # the batch never written: both go on with the game as it really was
    for ev in evs[at:]:
        assert tried.check(decode_obj(dict(ev))) == real.check(decode_obj(dict(ev)))
    tried.end()
    real.end()
    assert told_tried == told_real


@pytest.mark.parametrize("needs_kontra", [True, False])
def test_a_deal_tried_after_a_refa_weighs_the_refa(needs_kontra: bool) -> None:
    """The deal that hands a refa over is weighed while the next is tried: a plain pik on a refa is played or not
    by the rule (``pik_on_refa_needs_kontra``) in the trial as for real, though nothing is counted in the trial."""
    pik = deal("B:2 C:pass A:pass", "B:6S", calls="C:whist A:pass", taken={"B": 6, "C": 4})
    evs = [{**ev, "seq": i} for i, ev in enumerate(game([all_pass, pik], {"pik_on_refa_needs_kontra": needs_kontra}),
                                                  start=1)]
    at = next(i for i, ev in enumerate(evs) if ev["type"] == "deal_started" and ev["deal"] == 2)
    tried, told = _checker(evs[:at])
    real, _ = _checker(evs[:at])
    batch = [decode_obj(dict(ev)) for ev in evs[at:] if ev["type"] != "game_ended"]
    verdicts = tried.rehearse(batch)
    assert verdicts == [real.check(ev) for ev in batch]
    assert [i.code for issues in verdicts or [] for i in issues] == (["tricks-without-play"] if needs_kontra else [])
    assert tried.games["g"].tally.held("refe", "B") == 0 and told  # the refa handed over only in the trial


def test_a_line_that_leaves_its_deal_open_is_refused_by_trying(tmp_path: Path) -> None:
    """The whole-deal check of a line is asked on the tried state: refused, nothing written, no replay."""
    log = tmp_path / "g.jsonl"
    rec = vistlog.api.Recorder(log, live=True)
    rec.record([{"type": "game_started", "game": "g", "kind": "preferans", "players": ["Аня", "Боря", "Вова"],
                 "pool": 10, "rules": {"preset": "sochi"}}])
    assert rec.live is not None
    pipe, size = rec.live.pipe, log.stat().st_size
    with pytest.raises(vistlog.VistlogError, match="a line is a whole deal"):
        rec.record_line("dealer Аня; Боря 6S; Вова whist")
    assert rec.live.pipe is pipe and log.stat().st_size == size and rec.live.writer.check is rec.live
    assert [e.type for e in rec.record_line("dealer Аня; Боря 6S; Вова pass, Аня pass")] == \
        ["deal_started", "contract", "whist", "whist"]


def _long_game(tmp_path: Path, deals: int) -> tuple[Path, list[dict[str, Any]]]:
    from .simulate import preferans_game
    log = tmp_path / "long.jsonl"
    events = _plain(preferans_game(random.Random(11), max_deals=deals, card_play=0.0, pool=10**6))
    last = max(ev.get("deal", 0) for ev in events)
    vistlog.append(log, [ev for ev in events if ev.get("deal", 0) < last])
    return log, events


def test_the_pad_reads_and_writes_through_one_checker(tmp_path: Path) -> None:
    """However many views, next steps and writes, the pad makes one checker (the live fold's), and a deal
    written through it is folded by that one check: the view is the whole log folded again."""
    log, _ = _long_game(tmp_path, 30)
    before = [o for o in gc.get_objects() if isinstance(o, LogChecker)]  # held: no id is used again
    pad = Pad(log)
    view = pad.state(None)
    game, nx = view["game"]["id"], view["game"]["table"]["next"]
    pad.next_step(game, "", {})
    dealer = pad.recorder.table(game).dealer
    done = pad.record({"game": game, "line": f"dealer {dealer}; raspas; {_raspas(pad, game)}",
                       "expect_seq": view["seq"], "expect_at": view["at"]})
    after = pad.state(None)
    made = [o for o in gc.get_objects() if isinstance(o, LogChecker) and all(o is not b for b in before)]
    assert len(made) == 1 and made[0] is pad.live.pipe.checker
    assert nx and done["recorded"][0]["type"] == "deal_started" and after["seq"] == done["seq"]
    _same(pad.live, log)


def _raspas(pad: Pad, game: str) -> str:
    """An all-pass deal's tricks for the pad's next deal: one holder takes them all."""
    holders = pad.recorder.table(game).holders
    return ", ".join(f"{p} {10 if i == 0 else 0}" for i, p in enumerate(holders))


def test_a_refused_write_leaves_the_view_as_it_was_and_costs_no_replay(tmp_path: Path) -> None:
    log, _ = _long_game(tmp_path, 60)
    pad = Pad(log)
    view = pad.state(None)
    game = view["game"]["id"]
    pipe, offset, folds = pad.live.pipe, pad.live.offset, pad.live.pipe.folds[game]
    dealer = pad.recorder.table(game).dealer
    for line in (f"dealer {dealer}; raspas; {_raspas(pad, game).replace(' 10', ' 9')}",  # 9 tricks of 10
                 f"dealer {dealer}; {dealer} 6S"):  # the dealer of three players bids
        with pytest.raises(HttpError) as refused:
            pad.record({"game": game, "line": line, "expect_seq": view["seq"], "expect_at": view["at"]})
        assert refused.value.status == 422
        assert pad.live.pipe is pipe and pad.live.pipe.folds[game] is folds and pad.live.offset == offset
        assert pad.live.writer.check is pad.live  # the fold stands: no replay of the log on the next look
    assert pad.state(None) == view
    pad.record({"game": game, "line": f"dealer {dealer}; raspas; {_raspas(pad, game)}"})
    assert pad.live.pipe is pipe
    _same(pad.live, log)


def test_a_frozen_copy_of_a_folds_items_reads_them_as_they_were_while_they_spill() -> None:
    """The pad makes a long game's view outside its lock from a result taken under it: the records it reads
    (spilled to disk past a few thousand) stay what they were while the fold goes on spilling."""
    from vistlog.events.tally import Items

    items = Items()
    for i in range(3 * Items.KEEP):
        items.append(("deal", i))
    frozen = items.frozen()
    for i in range(3 * Items.KEEP, 6 * Items.KEEP):
        items.append(("deal", i))
    items.replace_last(("deal", -1))
    assert [frozen.get(i)[1] for i in range(len(frozen))] == list(range(3 * Items.KEEP))
    assert [items.get(i)[1] for i in range(len(items))] == [*range(6 * Items.KEEP - 1), -1]


def test_reads_beside_writes_and_another_writer_end_in_the_log_folded_whole(tmp_path: Path) -> None:
    """Threads asking for the view (with every deal, and the last ones) and the next step while the pad records a
    game deal by deal and another writer appends a second game: nothing fails, and the view at the end is the log
    folded from its start."""
    import threading

    from .simulate import preferans_game

    log = tmp_path / "busy.jsonl"
    mine = _plain(preferans_game(random.Random(21), max_deals=30, card_play=0.0, pool=10**6, game="mine"))
    other = _plain(preferans_game(random.Random(22), max_deals=30, card_play=0.0, pool=10**6, game="other"))
    vistlog.append(log, mine[:1])
    pad = Pad(log)
    lines = list(vistlog.deal_lines(mine))
    failures: list[BaseException] = []
    done = threading.Event()

    def guarded(work: Any) -> Any:
        def run() -> None:
            try:
                work()
            except BaseException as exc:  # noqa: BLE001 - said by the test below
                failures.append(exc)
                done.set()
        return threading.Thread(target=run)

    def reader(every: bool) -> None:
        while not done.is_set():
            view = pad.state("mine", every=every)
            if view["game"] is not None and view["game"]["table"] is not None:
                pad.next_step("mine", "", {})

    def appender() -> None:
        for k in range(0, len(other), 7):
            vistlog.append(log, other[k:k + 7])

    def recorder() -> None:
        for line in lines:
            pad.record({"game": "mine", "line": line})
        done.set()

    threads = [guarded(lambda: reader(True)), guarded(lambda: reader(False)), guarded(appender), guarded(recorder)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert failures == [] and not any(t.is_alive() for t in threads)
    pad.state("mine")
    assert sorted(g.id for g in vistlog.read_games(log)) == ["mine", "other"]
    _same(pad.live, log)


def test_a_log_that_went_away_takes_its_view_with_it(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    vistlog.append(log, [{"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"],
                          "pool": 10, "rules": {"preset": "sochi"}}])
    live = vistlog.api.LiveFold(str(log))
    assert live.update() == {"g"} and live.order == ["g"]
    log.unlink()
    assert live.update() == {"g"} and live.order == [] and live.result("g") is None and live.offset == 0
    vistlog.append(log, [{"type": "game_started", "game": "h", "kind": "preferans", "players": ["A", "B", "C"],
                          "pool": 10, "rules": {"preset": "sochi"}}])
    assert live.update() == {"h"} and live.order == ["h"]
