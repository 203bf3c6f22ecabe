"""The write side decides alone (issue 45, item 3): each game's state keeps its totals in a
:class:`~vistlog.events.tally.Tally` from the deals it hands over, so that what needs the score (no deal once
every pool is closed, a Serbian refa) is decided without the read side; the fold is that tally, so a deal is
scored once."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.serbian_games import all_pass, deal, game
from tests.serbian_games import random_game as serbian_game
from tests.simulate import solo_whist_game
from vistlog.events.checker import LogChecker
from vistlog.events.codec import decode_obj
from vistlog.events.entries import Totals
from vistlog.events.nextstep import next_step
from vistlog.events.verdicts import Standing, Verdict

from .conftest import ROOT
from .helpers import fold
from .test_properties import _with_voids, random_game, rules_st


def _sheet(t: Totals) -> dict[str, Any]:
    """Every column of the totals, the pairs without their zeros."""
    return {"columns": t.columns, "times": t.times,
            **{c: {k: v for k, v in t[c].items() if v} if c in t.paired else t[c] for c in t.columns}}


def _alone(evs: list[dict[str, Any]], trying: bool) -> Standing:
    """Where a checker alone says ``evs`` end (``trying``: the next step asked between every two events, as
    the pad does, which tries a deal's start and its words on the state)."""
    told: list[Verdict] = []
    chk = LogChecker(told.append)
    game = evs[0]["game"]
    for ev in evs:
        assert chk.admit(decode_obj(dict(ev))) == [], ev
        state = chk.games.get(game)
        if trying and state is not None and not state.ended and ev["type"] not in {"card_played", "allocation"}:
            next_step(state)
    chk.end()
    closed = [v for v in told if type(v) is Standing and v.final]
    assert len(closed) == 1
    return closed[0]


def _game(rng: random.Random, kind: str, rules: dict[str, Any], voids: int) -> list[dict[str, Any]]:
    if kind == "serbian":
        return serbian_game(rng, 12)
    if kind == "solo_whist":
        return solo_whist_game(rng, deals=8)
    return _with_voids(rng, random_game(rng, rules, 3), voids)


@settings(max_examples=25)
@given(st.randoms(use_true_random=False), st.sampled_from(["preferans", "serbian", "solo_whist"]), rules_st,
       st.integers(0, 4), st.booleans())
def test_the_checkers_own_tally_is_the_sheet_the_fold_gives(rng: random.Random, kind: str, rules: dict[str, Any],
                                                           voids: int, trying: bool) -> None:
    """Random legal games of every kind (Preferans with deals voided): the totals the checker keeps alone are
    the fold's, column by column, and asking the next step between events (trying events on the state) never
    counts a deal twice or an event tried."""
    evs = _game(rng, kind, rules, voids)
    results, problems = fold(evs, detail=False)
    assert problems == [] and len(results) == 1
    standing = _alone(evs, trying)
    assert _sheet(standing.totals) == _sheet(results[0].totals)
    assert standing.faults == () and standing.zero_sum_problem is None


def test_a_deal_after_every_pool_is_closed_is_refused_by_the_write_side_alone(tmp_path: Any) -> None:
    """``append`` and the ``Recorder`` refuse a deal once every pool is closed, in a fresh interpreter that never
    imports the read side."""
    log = tmp_path / "closed.jsonl"
    program = f"""
import sys
import vistlog
log = {str(log)!r}
vistlog.append(log, [{{"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"],
                       "pool": 2, "rules": {{"preset": "sochi"}}}}])
dealers, declarers = "CAB", "ABC"
for n in range(3):
    d, a = n + 1, declarers[n]
    others = ["ABC"[(n + 1) % 3], "ABC"[(n + 2) % 3]]
    vistlog.append(log, [{{"type": "deal_started", "game": "g", "deal": d, "dealer": dealers[n]}},
                         {{"type": "contract", "game": "g", "deal": d, "declarer": a, "contract": "6S"}},
                         {{"type": "whist", "game": "g", "deal": d, "player": others[0], "call": "whist"}},
                         {{"type": "whist", "game": "g", "deal": d, "player": others[1], "call": "pass"}},
                         {{"type": "tricks", "game": "g", "deal": d, "taken": {{a: 6, others[0]: 2, others[1]: 2}}}}])
try:
    vistlog.append(log, [{{"type": "deal_started", "game": "g", "deal": 4, "dealer": "C"}}])
except vistlog.AppendRejected as exc:
    print("append:", sorted({{p.code for p in exc.problems}}))
recorder = vistlog.Recorder(log)
print("over:", recorder.table("g").over)
try:
    recorder.record([{{"type": "deal_started", "game": "g", "deal": 4, "dealer": "C"}}])
except vistlog.AppendRejected as exc:
    print("recorder:", sorted({{p.code for p in exc.problems}}))
print("read side:", sorted(m for m in sys.modules if m.startswith("vistlog.projections")))
"""
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["append: ['pools-closed']", "over: True", "recorder: ['pools-closed']",
                                       "read side: []"], out.stderr


@pytest.mark.parametrize(("needs_kontra", "codes"), [(True, ["tricks-without-play"]), (False, [])])
def test_a_serbian_declarer_under_a_refa_is_known_to_the_write_side(needs_kontra: bool, codes: list[str]) -> None:
    """A deal all pass draws a refa for everybody; the checker's own tally holds it, so a plain pik without a
    kontra on it is played or not by the rule (``pik_on_refa_needs_kontra``) with no read side to ask."""
    pik = deal("B:2 C:pass A:pass", "B:6S", calls="C:whist A:pass", taken={"B": 6, "C": 4})
    chk, found, checked = LogChecker(), [], False
    for ev in game([all_pass, pik], {"pik_on_refa_needs_kontra": needs_kontra}):
        found += [i.code for i in chk.admit(decode_obj(dict(ev)))]
        state = chk.games.get("g")
        if ev["type"] == "deal_started" and ev["deal"] == 2 and state is not None:
            assert state.tally.held("refe", "B") == 1  # the refa the first deal drew, counted as deal 2 starts
            checked = True
    assert found == codes and checked


def test_asking_the_next_step_mid_deal_changes_no_serbian_deal() -> None:
    """A Serbian plain pik waits for a kontra: asking the next step before it (as the pad does after every tap)
    used to close the pik as unplayed, and the kontra that followed was refused (this game's deal 11)."""
    evs = serbian_game(random.Random(29), 12)
    assert any(e["type"] == "kontra" and e["deal"] == 11 for e in evs)
    results, problems = fold(evs, detail=False)
    assert problems == [] and _sheet(_alone(evs, trying=True).totals) == _sheet(results[0].totals)
