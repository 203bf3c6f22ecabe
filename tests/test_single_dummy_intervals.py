"""Single-dummy numbers that say how sure they are (issue 63): an interval on every cost, none of zero width, a
word when few layouts fit. Fixed seeds throughout."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vistlog.projections.decisions import deal_decisions
from vistlog.projections.fold import GameResult, run
from vistlog.projections.odds import MIN_KEPT, Decision, SingleDummy, chance, decision_json, estimate
from vistlog.projections.render.analysis import decision_lines
from vistlog.projections.solver import COMPILED as SOLVER_COMPILED
from vistlog.projections.words import Words
from vistlog.projections.worth import Worth, camps

from .conftest import SAMPLES

OPEN = SAMPLES / "open-hands.jsonl"


def _game() -> GameResult:
    return next(x for x in run(str(OPEN)) if isinstance(x, GameResult))


def _decisions(deal: int, sd: SingleDummy, only: Any = None, calls: bool = True) -> list[Decision]:
    g = _game()
    worth = Worth(g)
    for rec, void, _ in g.told():
        if rec.number == deal and not void:
            hands = rec.hands_in_play()
            assert hands is not None
            side = camps(rec, g.variant)
            assert not isinstance(side, str)
            return list(deal_decisions(rec, hands, side[0], worth, g.game, g.started, sd, calls, only=only))
    raise AssertionError(deal)


# --------------------------------------------------------------------------- 2. no interval of drawn layouts is a point

@given(value=st.integers(-50, 50), n=st.integers(1, 500), lo=st.integers(-100, 0), hi=st.integers(0, 100))
def test_layouts_that_all_agree_still_give_an_interval(value: int, n: int, lo: int, hi: int) -> None:
    e = estimate([value] * n, False, (lo, hi))
    assert Fraction(e.low) < Fraction(e.high) and Fraction(e.low) <= e.mean == value <= Fraction(e.high)
    assert Fraction(e.low) >= min(lo, value) - 1 and Fraction(e.high) <= max(hi, value) + 1
    share = chance(n, n, False)  # a share every layout agreed on: Wilson's interval is not empty either
    assert share.low < share.high == 1


def test_every_layout_solved_is_exact_and_a_point() -> None:
    e = estimate([3, 4, 5], True, (0, 10))
    assert e.low == e.mean == e.high == 4


def test_a_decision_whose_layouts_all_agree_prints_a_non_zero_interval() -> None:
    (lead,) = [x for x in _decisions(10, SingleDummy(40, 1)) if x.kind == "lead"]
    assert not lead.exact and lead.enough
    for o in lead.choices:
        for e in (o.tricks, o.chance, o.worth):
            assert Fraction(e.low) < Fraction(e.high), (o.choice, e)
    line = decision_lines(decision_json(lead), "whists", Words("en"))
    assert all("[" in row for row in line[1:]), line


# --------------------------------------------------------------------------- 1. the cost's own interval

def test_the_cost_has_an_interval_from_the_paired_differences() -> None:
    for x in _decisions(14, SingleDummy(60, 2)):
        if not x.choices:
            continue
        assert Fraction(x.cost_low) <= Fraction(x.cost) <= Fraction(x.cost_high)
        best = x.choices[0]
        assert best.behind.mean == best.behind.low == 0
        # the best may be behind another as far as that one may be ahead: a point only when none may be
        assert (Fraction(best.behind.high) > 0) == (x.ties > 1)
        assert Fraction(x.cost_low) < Fraction(x.cost_high) or x.exact or (x.rank == 1 and x.ties == 1)
        made = next(o for o in x.choices if o.choice == x.made)
        assert made.behind.mean == x.cost == Fraction(best.worth.mean) - Fraction(made.worth.mean)
        assert 1 <= x.ties <= len(x.choices)
        assert x.ties == sum(Fraction(o.behind.low) <= 0 for o in x.choices)
        head = decision_lines(decision_json(x), "whists", Words("en"))[0]
        said = head.split(", cost ", 1)[1].split(" (", 1)[0]
        assert said.startswith(f"{float(x.cost):.1f}") and ("[" in said) == (x.cost_low != x.cost_high), head
        if x.ties > 1:
            assert f"the best {x.ties} cannot be told apart at {x.samples} layouts" in head


@pytest.mark.skipif(not SOLVER_COMPILED, reason="2,000 layouts a decision: the compiled search's work (CI runs it)")
@pytest.mark.parametrize("seed", [0, 1])
def test_a_cost_interval_covers_the_cost_with_ten_times_the_layouts(seed: int) -> None:
    """Open-hands deal 14, Аня's lead (the issue's case: cost 1.62 said, 0.51 ± 0.18 true): at 200 layouts the
    cost's interval covers the cost measured on 2,000 others (20,000, in ``bench/analysis.py --coverage``)."""
    (small,) = _decisions(14, SingleDummy(200, seed), calls=False)
    (large,) = _decisions(14, SingleDummy(2_000, 7), calls=False)
    assert small.made == large.made == "JH" and large.samples == 2_000
    assert Fraction(small.cost_low) <= Fraction(large.cost) <= Fraction(small.cost_high), (small, large.cost)


# --------------------------------------------------------------------------- 3. too few layouts rank nothing

def test_too_few_layouts_rank_nothing_and_say_so() -> None:
    few = [x for x in _decisions(14, SingleDummy(MIN_KEPT - 10, 3)) if x.choices]
    assert few
    for x in few:
        assert not x.enough and x.rank == 0 and x.samples < MIN_KEPT
        data = decision_json(x)
        assert data["rank"] is None and data["cost"] is None and data["enough"] is False
        assert all(c["tricks"]["low"] != c["tricks"]["high"] for c in data["choices"])
        head = decision_lines(data, "whists", Words("en"))[0]
        assert "too few to rank the choices (30 needed)" in head and "rank 0" not in head and "cost" not in head
        assert "слишком мало" in decision_lines(data, "whists", Words("ru"))[0]


def test_the_true_layout_given_is_still_ranked() -> None:
    """Layouts given, not drawn (the checks give the true one), have no interval and are ranked however few."""
    g = _game()
    for rec, void, _ in g.told():
        if rec.number == 14 and not void:
            hands = rec.hands_in_play()
    for x in _decisions(14, SingleDummy(), only=[hands]):
        assert x.enough and x.rank >= 1 and x.samples == 1


def test_the_command_says_too_few_in_text_and_json() -> None:
    done = subprocess.run([sys.executable, "-m", "vistlog", "analyse", str(OPEN), "--single-dummy", "--deal", "14",
                           "--samples", "12", "--format", "json"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    decisions = [x for g in json.loads(done.stdout)["games"] for d in g["deals"] for x in d.get("decisions", ())]
    assert decisions and all(x["rank"] is None and x["enough"] is False for x in decisions if x["choices"])
