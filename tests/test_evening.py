"""A scorekeeper's evening: what a person types and reads (names, Russian spellings, corrections, output)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from vistlog.cli import EXAMPLES, main

from .conftest import ROOT, SAMPLES
from .helpers import Game, codes, fold


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("typed, players", [("аня", ["Аня", "Боря", "Вова"]), ("Алёна", ["Алена", "Боря", "Вова"]),
                                            ("Бора", ["Аня", "Боря", "Вова"])])
def test_an_unknown_name_gets_did_you_mean(typed: str, players: list[str]) -> None:
    g = Game("sochi", players)
    g.deal(players[2]).contract(typed, "6S")
    (_, problems) = fold(g.events)
    assert codes(problems)[0] == "player-unknown"
    expected = {"аня": "Аня", "Алёна": "Алена", "Бора": "Боря"}[typed]
    assert f"(did you mean {expected}?)" in problems[0].message


def test_russian_spellings_are_read_and_printed_canonically() -> None:
    g = Game("sochi", ["Аня", "Боря", "Вова"])
    g.deal("Вова").bids(("Аня", "6 пик"), ("Боря", "7 бк"), ("Вова", "пас"), ("Аня", "пас"))
    g.contract("Боря", "7 бк").whists(("Вова", "вист"), ("Аня", "пас")).tricks(Аня=1, Боря=7, Вова=2)
    g.deal("Аня").bids(("Боря", "мизер"), ("Вова", "пас"), ("Аня", "пас")).contract("Боря", "мизер")
    g.tricks(Аня=5, Боря=0, Вова=5)
    g.deal("Боря").contract("Вова", "6 червей").whists(("Аня", "пас"), ("Боря", "полвиста"))
    (res,), problems = fold(g.events)
    assert problems == []
    assert [str(r.contract.contract) for r in res.records if r.contract] == ["7NT", "misere", "6H"]
    assert [c.value for _, c in res.records[2].calls] == ["pass", "half"]


def test_an_abundance_names_its_trump() -> None:
    g = Game("encyclopedia", ["N", "E", "S", "W"], kind="solo_whist")
    g.deal("W", turned="QH").bids(("N", "abundance"), ("E", "pass"), ("S", "pass"), ("W", "pass"))
    g.contract("N", "abundance")
    (_, problems) = fold(g.events)
    assert codes(problems) == ["trump-missing"]


def test_verify_takes_a_unique_prefix_of_the_head(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    assert main(["import", "--from", "jsonl", str(SAMPLES / "classic-bombs.jsonl"), "-o", str(log)]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, "verify", str(log))
    head = out.split("head ")[1].strip()
    code, out, _ = run(capsys, "verify", str(log), "--head", head[:8])
    assert code == 0 and "the remembered head is line" in out
    code, out, _ = run(capsys, "verify", str(log), "--head", head[:12] + "…")  # as printed, pasted
    assert code == 0
    code, _, err = run(capsys, "verify", str(log), "--head", "abc")
    assert code == 2 and "8 to 64" in err


def test_every_example_of_the_help_works_as_written(tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(SAMPLES)
    lines = [ln.strip() for ln in EXAMPLES.splitlines()[1:] if ln.strip()]
    assert len(lines) >= 10
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    for line in lines:
        command = line.split("  #")[0]
        proc = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, env=env,
                              timeout=120)
        # audit exits 1 on the disputed sheet: that is its answer, not a failure
        assert proc.returncode in ((0, 1) if "disputed" in command else (0,)), (command, proc.stderr[-500:])
        assert "Traceback" not in proc.stderr and "usage:" not in proc.stderr, command
    assert (tmp_path / "sheet.html").exists() and (tmp_path / "club.jsonl").exists()
    assert shlex.split(lines[0])[0] == "vistlog"


def test_sheet_writes_a_file_and_one_page_for_several_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    both = tmp_path / "both.jsonl"
    both.write_bytes((SAMPLES / "classic-bombs.jsonl").read_bytes())
    assert main(["import", "--from", "jsonl", str(SAMPLES / "solo-whist-evening.jsonl"), "-o", str(both)]) in (0, 1)
    capsys.readouterr()
    page = tmp_path / "p.html"
    code, out, _ = run(capsys, "sheet", str(both), "--format", "html", "-o", str(page))
    html = page.read_text(encoding="utf-8")
    assert code == 0 and out == "" and html.count('<section class="game">') == 2
    code, _, err = run(capsys, "sheet", str(both), "--format", "svg")
    assert code == 2 and "--game" in err and "classic-2026-11-29" in err
    code, _, err = run(capsys, "sheet", str(SAMPLES / "sochi-evening.jsonl"), "--upto", "999")
    assert code == 0 and "past the last deal (43)" in err
    orjson.loads(subprocess.run([sys.executable, "-m", "vistlog", "sheet", str(SAMPLES / "sochi-evening.jsonl"),
                                 "--format", "json"], capture_output=True, cwd=ROOT, check=True).stdout)
