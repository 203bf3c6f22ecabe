"""Issue 62: the open-hand analysis within a budget of seconds a deal. The contract's fate is asked first, then the
counts; a count the budget stops is the range the answered questions prove. Never a wrong number: every range
holds the exact value (each sample and generated evenings, the pure search and the compiled one, budgets from
nothing to a little), and a deal answered within its budget is answered exactly as without one."""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from typing import Any

import pytest

import vistlog
from vistlog.projections.analysis import DealAnalysis, GameAnalysis, analysis_json
from vistlog.projections.solver import COMPILED

from .conftest import SAMPLES
from .simulate import preferans_game

ENGINES = ["python", pytest.param("compiled", marks=pytest.mark.skipif(not COMPILED, reason="no compiled search"))]


@functools.cache
def _exact(engine: str, discards: bool = False) -> tuple[tuple[vistlog.Game, GameAnalysis], ...]:
    """Each game of :func:`_games` with its exact analysis (asked once for the tests of this module)."""
    return tuple((g, g.analysis(engine=engine, discards=discards)) for g in _games(engine))


def _games(engine: str) -> list[vistlog.Game]:
    """The samples with their hands and a generated evening played card by card (with raspasy and claims); the
    Solo Whist sample's thirteen-trick deals only with the compiled search (the pure one takes minutes a deal)."""
    names = ("classic-bombs", "open-hands") + (("solo-whist-evening",) if engine == "compiled" else ())
    out = [g for name in names for g in vistlog.read_games(SAMPLES / f"{name}.jsonl")]
    out += vistlog.read_games(preferans_game(random.Random(4), players=("A", "B", "C"), rules={"preset": "sochi"},
                                             pool=10, max_deals=5, card_play=1.0, claims=0.3))
    assert all(g.sound for g in out)
    return out


def _holds(exact: DealAnalysis, got: DealAnalysis) -> None:
    """``got`` (within a budget) says nothing ``exact`` contradicts."""
    assert (got.deal, got.contract, len(got.cards)) == (exact.deal, exact.contract, len(exact.cards))
    if exact.declarer is None:
        for p, v in exact.values.items():
            lo, hi = got.ranges.get(p, (got.values.get(p), got.values.get(p)))
            assert lo is not None and hi is not None and lo <= v <= hi
    else:
        assert exact.value is not None and got.low is not None and got.high is not None
        assert got.low <= exact.value <= got.high
        assert got.value in (None, exact.value)
        assert got.fate in (None, exact.fate)
    for e, g in zip(exact.cards, got.cards, strict=True):
        assert (g.seq, g.card) == (e.seq, e.card)
        assert g.low[0] <= e.low[0] <= g.high[0] and g.low[1] <= e.low[1] <= g.high[1], (exact.deal, g)
        assert g.makeable in (None, e.makeable)
        if g.mistake:  # a mistake said within a budget is proved: the exact analysis has it too
            assert e.mistake and (not g.better or g.better == e.better) and (not g.cost or g.cost == e.cost)
        if g.exact:
            assert g.mistake == e.mistake


@pytest.mark.parametrize("engine", ENGINES)
def test_every_range_within_a_budget_holds_the_exact_answer(engine: str) -> None:
    seen: dict[str, int] = {}
    for game, exact in _exact(engine):
        assert all(d.answer == "exact" for d in exact.deals)
        for budget in (0.0, 0.0005, 0.005):
            got = game.analysis(engine=engine, budget=budget)
            assert [d.deal for d in got.deals] == [d.deal for d in exact.deals]
            for e, g in zip(exact.deals, got.deals, strict=True):
                _holds(e, g)
                seen[g.answer] = seen.get(g.answer, 0) + 1
    # no time at all leaves the contracts undecided and the raspasy in a range: both kinds of answer were seen
    assert seen.get("undecided") and seen.get("range"), seen


def test_with_no_time_only_what_needs_no_search_is_said() -> None:
    """A budget of nothing proves only what the position itself says: a contract's side takes 0 to all tricks."""
    (game,) = vistlog.read_games(SAMPLES / "classic-bombs.jsonl")
    a = game.analysis(budget=0.0)
    for d in a.deals:
        assert d.fate is None and d.value is None and d.answer == "undecided"
        assert d.low is not None and d.high is not None and 0 <= d.low <= d.high <= d.tricks
        assert not any(c.mistake for c in d.cards)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_deal_within_its_budget_is_answered_exactly_as_without_one(engine: str) -> None:
    discards = engine == "compiled"  # every discard a search: a minute of the pure one
    for game, exact in _exact(engine, discards):
        roomy = game.analysis(engine=engine, discards=discards, budget=600.0)
        assert analysis_json(roomy) == analysis_json(exact)
        assert "exact" not in json.dumps(analysis_json(roomy))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vistlog", *args], capture_output=True, text=True,
                          cwd=SAMPLES.parent, timeout=300)


def test_the_cli_gives_the_ranges_in_json_and_in_words() -> None:
    out = json.loads(_cli("analyse", "samples/classic-bombs.jsonl", "--budget", "1e-9", "--format", "json").stdout)
    deals = out["games"][0]["deals"]
    assert deals and all(d["exact"] is False and d["value"] is None and d["makeable"] is None
                         and d["answer"] == "undecided" and 0 <= d["low"] <= d["high"] <= d["tricks"] for d in deals)
    ranged = [c for d in deals for c in d["cards"] if c.get("exact") is False]
    assert ranged and all(c["before"] is None or c["before_low"] == c["before_high"] for c in ranged)
    assert all(c["before_low"] <= c["before_high"] and c["after_low"] <= c["after_high"] for c in ranged)
    ru = _cli("analyse", "samples/open-hands.jsonl", "--budget", "1e-9", "--lang", "ru").stdout
    assert "не решено за отведённое время" in ru and "–" in ru
    en = _cli("analyse", "samples/classic-bombs.jsonl", "--budget", "1e-9").stdout
    assert "not decided within the budget" in en
    exact = json.loads(_cli("analyse", "samples/classic-bombs.jsonl", "--exact", "--format", "json").stdout)
    roomy = json.loads(_cli("analyse", "samples/classic-bombs.jsonl", "--budget", "600", "--format", "json").stdout)
    assert exact == roomy and "exact" not in json.dumps(exact)


@pytest.mark.parametrize("args", [["--budget", "0"], ["--budget", "x"], ["--budget", "2", "--exact"]])
def test_a_wrong_budget_is_a_usage_error(args: list[str]) -> None:
    proc = _cli("analyse", "samples/classic-bombs.jsonl", *args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "error:" in proc.stderr, proc.stderr


def test_stats_takes_a_budget_only_with_its_decisions(tmp_path: Any) -> None:
    proc = _cli("stats", "samples/open-hands.jsonl", "--budget", "1")
    assert proc.returncode == 2 and "--decisions" in proc.stderr
    proc = _cli("stats", "samples/open-hands.jsonl", "--decisions", "--samples", "20", "--budget", "1",
                "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["decisions"]["samples"] == 20


def test_many_logs_on_processes_carry_the_budget() -> None:
    """The batch runner's kind carries the budget to its workers (``analyse@SECONDS``): a budget of nothing is
    seen in every worker's answer."""
    out = json.loads(_cli("analyse", "samples/classic-bombs.jsonl", "samples/open-hands.jsonl", "--jobs", "2",
                          "--budget", "1e-9", "--format", "json").stdout)
    games = [g for f in out["files"] for g in f["games"]]
    assert len(games) == 2 and all(d.get("answer") in ("range", "undecided") for g in games for d in g["deals"])


def test_vistlog_game_analysis_takes_the_budget() -> None:
    (game,) = vistlog.read_games(SAMPLES / "classic-bombs.jsonl")
    assert {d.answer for d in game.analysis(budget=0.0).deals} == {"undecided"}
    assert {d.answer for d in game.analysis().deals} == {"exact"}


def test_the_single_dummy_weighing_keeps_to_its_budget() -> None:
    """Each single-dummy decision is weighed within a budget of its own (as many seconds again): past it it
    draws no more layouts once one fits, and says so (``cut`` in JSON, in words in both languages) with fewer
    layouts, too few to rank; a roomy budget weighs exactly as none (the layouts drawn are the same, in order)."""
    from vistlog.api import SingleDummy
    from vistlog.projections.render.analysis import decision_lines
    from vistlog.projections.words import Words

    game = next(iter(vistlog.read_games(SAMPLES / "open-hands.jsonl")))
    sd = SingleDummy(30, 7)

    def decisions(budget: float | None) -> list[dict[str, Any]]:
        out = analysis_json(game.analysis(single_dummy=sd, budget=budget))
        return [d for deal in out["deals"] for d in deal.get("decisions", [])]

    free = decisions(None)
    assert free and not any("cut" in d for d in free) and all(d["samples"] <= 30 for d in free)
    assert decisions(1e6) == free
    cut = decisions(1e-9)
    assert [(d["seq"], d["kind"], d["made"]) for d in cut] == [(d["seq"], d["kind"], d["made"]) for d in free]
    assert sum(got["samples"] < whole["samples"] for got, whole in zip(cut, free, strict=True)) > len(free) // 2
    for got, whole in zip(cut, free, strict=True):
        if whole["exact"] or not whole["choices"]:  # every layout listed is weighed, and none fitting is no weighing
            assert got == whole
            continue
        assert got["cut"] is True and 1 <= got["samples"] <= whole["samples"] and got["drawn"] <= whole["drawn"]
        assert got["enough"] is False and got["rank"] is None
        assert {c["choice"] for c in got["choices"]} == {c["choice"] for c in whole["choices"]}
        assert "(the budget stopped the drawing)" in decision_lines(got, "whists", Words("en"))[0]
        assert "(время вышло: раскладов меньше)" in decision_lines(got, "whists", Words("ru"))[0]
