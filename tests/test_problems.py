"""Problem codes: every code the program gives is listed once, with its meaning, here and in docs/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import vistlog
from vistlog.events.problems import CODES

from .conftest import ROOT
from .helpers import Game, codes

def _sources() -> list[Path]:
    """Every source file of the three packages, each once: paths are read relative to the checkout,
    never matched against where it sits (a clone in a folder named ``vistlog`` reads the same)."""
    found = []
    for top in ("events", "projections", "vistlog"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).parts
            if path.name == "problems.py" or (rel[0] == "vistlog" and rel[1] in ("events", "projections")):
                continue  # the links vistlog/events and vistlog/projections lead to the folders above
            found.append(path)
    return found


SOURCES = _sources()
GIVEN = re.compile(r'(?:Issue\(|code=|return \(?)"([a-z]+(?:-[a-z]+)*)"[,)]')


def _given() -> set[str]:
    found: set[str] = set()
    for path in SOURCES:
        found |= set(GIVEN.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_code_given_is_listed() -> None:
    given = _given()
    assert len(given) > 100
    assert sorted(given - set(CODES)) == []


def test_every_listed_code_is_given_somewhere() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES)
    assert sorted(c for c in CODES if f'"{c}"' not in text) == []


def test_docs_list_exactly_the_codes() -> None:
    rows = re.findall(r"^\| `([a-z-]+)` \| (.+) \|$", (ROOT / "docs" / "problems.md").read_text(encoding="utf-8"), re.M)
    assert dict(rows) == CODES


@pytest.mark.parametrize("mutate, code", [
    (lambda g: g.deal("C").bids(("B", "6S")), "bid-out-of-turn"),
    (lambda g: g.deal("C").bids(("A", "7S"), ("B", "6NT")), "bid-too-low"),
    (lambda g: g.deal("C").contract("A", "6S").whists(("B", "whist"), ("C", "pass")).tricks(A=6, B=3, C=2),
     "tricks-sum"),
    (lambda g: g.deal("B"), "dealer-wrong"),
])
def test_the_state_machine_gives_codes(mutate: object, code: str) -> None:
    g = Game("sochi")
    if code == "dealer-wrong":
        g.deal("C").contract("A", "6S").whists(("B", "whist"), ("C", "pass")).tricks(A=6, B=2, C=2)
    mutate(g)  # type: ignore[operator]
    assert code in codes(g.fold()[1])


def test_json_outputs_carry_codes(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import orjson

    from vistlog.cli import main

    log = ROOT / "tests" / "vectors" / "preferans-sochi-four-deals.jsonl"
    broken = tmp_path / "broken.jsonl"  # type: ignore[operator]
    lines = log.read_bytes().splitlines(keepends=True)
    broken.write_bytes(b"".join(lines[:3] + lines[4:]))
    assert main(["validate", "--format", "json", str(broken)]) == 1
    (f,) = orjson.loads(capsys.readouterr().out)["files"]
    assert f["problems"] and f["problems"][0]["code"] == "seq-order"
    assert set(f["problems"][0]) >= {"code", "path", "line", "seq", "field", "message", "text"}
    assert all(p["code"] in vistlog.CODES for p in f["problems"])


def test_every_code_is_said_in_russian() -> None:
    """One language at a time (issue 50): a refusal shown in the Russian page is Russian for every code."""
    from vistlog.projections.words import PROBLEMS_RU

    assert sorted(set(CODES) - set(PROBLEMS_RU)) == []
    assert all(any("а" <= ch <= "я" for ch in PROBLEMS_RU[c].lower()) for c in CODES)
