"""Every log in tests/vectors (copied data, see its README) settles exactly to its .expected.json."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import orjson
import pytest

from vistlog.events.log import Problem
from vistlog.projections.fold import GameResult, run

from .conftest import VECTORS

LOGS = sorted(VECTORS.glob("*.jsonl"))


def test_the_vectors_are_there() -> None:
    assert len(LOGS) >= 6, f"expected the vectors in {VECTORS}"


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_vector(log: Path) -> None:
    expected = orjson.loads(Path(str(log)[: -len(".jsonl")] + ".expected.json").read_bytes())
    items = list(run(str(log)))
    problems = [str(i) for i in items if isinstance(i, Problem)]
    assert problems == []
    (res,) = [i for i in items if isinstance(i, GameResult)]
    assert {p: str(v) for p, v in res.result.items()} == expected["result"]
    assert sum(res.result.values(), Fraction(0)) == 0
    assert sum(res.rounded.values()) == 0
    for player, line in expected.get("sheet", {}).items():
        for field, value in line.items():
            if field == "whists":
                for target, x in value.items():
                    assert res.totals.value(player, "whists", target) == x, (player, target)
            else:
                assert res.totals.value(player, field) == value, (player, field)
