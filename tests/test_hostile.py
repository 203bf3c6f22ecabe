"""Names and aliases a hostile log or alias file brings (issue 34, items 12 and 13)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import vistlog


def _game(players: list[str], game: str = "g") -> list[dict[str, object]]:
    return [{"type": "game_started", "game": game, "kind": "preferans", "players": players, "pool": 10,
             "rules": {"preset": "sochi"}},
            {"type": "deal_started", "game": game, "deal": 1, "dealer": players[2]},
            {"type": "tricks", "game": game, "deal": 1, "taken": {players[0]: 5, players[1]: 3, players[2]: 2}},
            {"type": "game_ended", "game": game}]


@pytest.mark.parametrize("name", ["Аня\u034f", "Аня\ufe0f", "\u3164", "Bo\u180bb"])
def test_a_name_with_characters_that_print_as_nothing_is_refused(name: str) -> None:
    (game,) = vistlog.read_games(_game(["Аня", name, "Вова"]))
    assert [(p.code, p.field) for p in game.problems] == [("player-name-invalid", "players.1")]
    assert "print as nothing" in game.problems[0].message


def test_an_alias_that_makes_two_seats_of_one_game_one_person_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "a.jsonl"
    vistlog.append(log, _game(["Аня", "Anya", "Вова"]) + _game(["Аня", "Боря", "Вова"], "g2"))
    aliases = tmp_path / "aliases.csv"
    aliases.write_text("name,alias\nАня,Anya\n", encoding="utf-8")
    for jobs in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "vistlog", "stats", str(log), "--alias", str(aliases),
                               "--jobs", jobs], capture_output=True, text=True)
        assert done.returncode == 2, done.stdout + done.stderr
        assert "Anya and Аня" in done.stderr or "Аня and Anya" in done.stderr
        assert "game g" in done.stderr and "Traceback" not in done.stderr


def test_stats_csv_writes_no_formula(tmp_path: Path) -> None:
    log = tmp_path / "f.jsonl"
    vistlog.append(log, _game(["=HYPERLINK(1)", "@me", "Вова"]))
    done = subprocess.run([sys.executable, "-m", "vistlog", "stats", str(log), "--format", "csv"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()[1:]
    assert rows and all(not row.startswith(("=", "@", "+", "-")) for row in rows)
    assert any(row.startswith("'=HYPERLINK(1)") for row in rows)
