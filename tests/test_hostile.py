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


# ----------------------------------------------------------------------------- item 7: every reader is linear

_PREFIXES = ["", "[A ", "[Event \"", "[1 ", "{\"a\":", "\"", "#", ";", "1,", "% "]
_CHARS = [" ", "\t", "x", "1", "\"", "\\", "[", "]", ",", ":", "-", "{", "."]


def test_every_importer_reads_10000_character_lines_of_every_kind_in_one_pass(tmp_path: Path) -> None:
    """A quadratic or cubic reader takes hours on these lines; a linear one all of them in seconds. The child
    gets a generous bound (it is a guard against a hang, not a measure of speed)."""
    files = []
    for i, prefix in enumerate(_PREFIXES):
        for j, char in enumerate(_CHARS):
            path = tmp_path / f"l{i}-{j}.txt"
            path.write_text(prefix + char * 10_000 + "x\n" + char * 10_000 + "\n", encoding="utf-8")
            files.append(str(path))
    code = ("import sys, vistlog\n"
            "for fmt in vistlog.FORMATS_IN:\n"
            "    for f in sys.argv[1:]:\n"
            "        try:\n"
            "            list(vistlog.load(f, fmt))\n"
            "        except vistlog.VistlogError:\n"
            "            pass\n"
            "print('read', len(vistlog.FORMATS_IN) * (len(sys.argv) - 1))\n")
    done = subprocess.run([sys.executable, "-c", code, *files], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("read ")


# ------------------------------------------------------------------------- item 9: one line, never an internal error

ROOT = Path(__file__).resolve().parents[1]


def _vistlog(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vistlog", *args], capture_output=True, text=True, timeout=120)


def test_a_result_past_64_bits_is_written_exactly_in_json(tmp_path: Path) -> None:
    log = tmp_path / "big.jsonl"
    huge = 9_223_372_036_854_775_000
    vistlog.append(log, [_game(["A", "B", "C"])[0],
                         {"type": "adjustment", "game": "g", "mountain": {"A": huge}, "whists": {"B": {"C": huge}}},
                         {"type": "game_ended", "game": "g"}])
    done = _vistlog("settle", str(log), "--format", "json")
    assert done.returncode == 0, done.stderr
    import json

    game = json.loads(done.stdout)["games"][0]
    assert sum(game["result_rounded"].values()) == 0
    assert max(abs(v) for v in game["result_rounded"].values()) > 2**63  # exact, past what orjson writes


@pytest.mark.parametrize("command", [["validate"], ["settle"], ["sheet"], ["audit"], ["replay"],
                                     ["export", "--to", "csv"]])
def test_an_extension_nested_600_deep_is_one_problem_line(tmp_path: Path, command: list[str]) -> None:
    log = tmp_path / "deep.jsonl"
    start = ('{"v":1,"seq":1,"type":"game_started","game":"g","kind":"preferans","players":["A","B","C"],'
             '"pool":10,"rules":{"preset":"sochi"},"_x":' + "[" * 600 + "]" * 600 + "}\n")
    log.write_text(start, encoding="utf-8")
    done = _vistlog(*command, str(log))
    assert done.returncode == 1, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    if command != ["validate"]:
        assert "_x: nested deeper than 64 levels" in done.stderr
    appended = subprocess.run([sys.executable, "-m", "vistlog", "append", str(tmp_path / "new.jsonl")],
                              input=start, capture_output=True, text=True)
    assert appended.returncode == 2 and "nested deeper than 64 levels" in appended.stderr


@pytest.mark.parametrize(("fmt", "edit", "said"), [
    ("ppn", ("[Result1 210]", "[Result1 " + "9" * 5000 + "]"), "over 4,300 digits"),
    ("ppn", ("[Result1 210]", "[Result1 99999999999999999999999]"), "past the largest number a log holds"),
    ("ppn", ("M6:-8,0,F4:R32:8", "M6:-" + "8" * 5000 + ",0,F4:R32:8"), "over 4,300 digits"),
    ("csv", None, "not CSV that can be read"),
])
def test_an_importer_given_numbers_or_cells_past_its_bounds_says_so_in_one_line(
        tmp_path: Path, fmt: str, edit: tuple[str, str] | None, said: str) -> None:
    if fmt == "ppn":
        assert edit is not None
        text = (ROOT / "samples" / "serbian.ppn").read_text(encoding="utf-8")
        assert edit[0] in text
        source = tmp_path / "s.ppn"
        source.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    else:
        source = tmp_path / "s.csv"
        source.write_text((ROOT / "samples" / "sochi-protocol.csv").read_text(encoding="utf-8") + "x" * 140_000 + "\n",
                          encoding="utf-8")
    done = _vistlog("import", "--from", fmt, str(source), "-o", str(tmp_path / "out.jsonl"))
    assert done.returncode == 2
    assert said in done.stderr and "internal error" not in done.stderr


def test_export_to_csv_of_a_game_imported_from_ppn(tmp_path: Path) -> None:
    log = tmp_path / "sr.jsonl"
    assert _vistlog("import", "--from", "ppn", str(ROOT / "samples" / "serbian.ppn"), "-o", str(log)).returncode == 0
    done = _vistlog("export", "--to", "csv", str(log))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# game: serbian")


# ----------------------------------------------------------------------------- item 8: a worker that dies

def test_one_log_on_two_workers_ends_in_one_line_when_a_worker_is_killed(tmp_path: Path) -> None:
    import os
    import random
    import signal
    import time

    from .simulate import preferans_game

    one = preferans_game(random.Random(8), rules={"preset": "sochi"}, pool=10**6, max_deals=40, card_play=0.0)
    log = tmp_path / "many.jsonl"
    lines = []
    seq = 0
    import orjson

    for k in range(3000):  # 3,000 games of 40 deals: a run long enough to kill a worker in the middle of it
        for ev in one:
            seq += 1
            lines.append(orjson.dumps({**ev, "seq": seq, "game": f"g{k}"}))
    log.write_bytes(b"\n".join(lines) + b"\n")
    proc = subprocess.Popen([sys.executable, "-m", "vistlog", "validate", str(log), "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    children: list[int] = []
    for _ in range(200):
        try:
            children = [int(x) for x in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
        except OSError:
            children = []
        if len(children) >= 2:
            break
        time.sleep(0.05)
    assert len(children) >= 2, "the workers did not start"
    time.sleep(0.5)
    os.kill(children[-1], signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, (out[-500:], err[-500:])
    assert "died (killed by signal 9)" in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.strip()]) == 1, err
    assert not list(Path(os.environ["TMPDIR"]).glob("vistlog-spool-*")), "a spool file was left behind"


# ----------------------------------------------------------------------------- item 14: export streams

def _one_deal_games(path: Path, games: int) -> None:
    import orjson

    lines = []
    seq = 0
    for k in range(games):
        g = f"g{k}"
        for ev in _game(["A", "B", "C"], g):
            seq += 1
            lines.append(orjson.dumps({"v": 1, "seq": seq, **ev}))
    path.write_bytes(b"\n".join(lines) + b"\n")


def _peak_kb(*args: str) -> int:
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over an exec from the forking process (here, pytest)
    code = ("import os, sys; from vistlog.cli import main; sys.stdout = open(os.devnull, 'w'); "
            "code = main(sys.argv[1:]); "
            "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0]; "
            "print(code, hwm, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)
    code_, peak = done.stderr.split()[-2:]
    assert code_ == "0", done.stderr
    return int(peak)


def test_export_of_one_game_holds_that_game_not_the_log(tmp_path: Path) -> None:
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    _one_deal_games(small, 2_000)
    _one_deal_games(big, 40_000)  # 20 times the games, 25 MB
    at_small = _peak_kb("export", "--to", "csv", str(small), "--game", "g777")
    at_big = _peak_kb("export", "--to", "csv", str(big), "--game", "g777")
    assert at_big < at_small + 16 * 1024, (at_small, at_big)  # the same, give or take the collector's timing


# ----------------------------------------------------------------------------- item 15: long names, held once

def test_long_names_are_held_once_not_once_a_deal(tmp_path: Path) -> None:
    import random

    import orjson

    from .simulate import preferans_game

    names = ["a" * 20_000, "b" * 20_000, "c" * 20_000]
    peaks = []
    for deals in (30, 150):
        events = preferans_game(random.Random(15), players=names, rules={"preset": "sochi"}, pool=10**6,
                                max_deals=deals, card_play=0.0)
        log = tmp_path / f"long-{deals}.jsonl"
        log.write_bytes(b"\n".join(orjson.dumps(e) for e in events) + b"\n")
        peaks.append(_peak_kb("validate", str(log)))
    # before: each deal kept its events' copies of the names (about 180 KB a deal here: +21 MB)
    assert peaks[1] < peaks[0] + 8 * 1024, peaks


def test_an_alias_of_an_alias_is_refused_and_a_game_counted_twice_is_said(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    vistlog.append(one, _game(["Аня", "Боря", "Вова"]))
    vistlog.append(two, _game(["Аня", "Боря", "Вова"]))  # the same game id in another log
    cycle = tmp_path / "cycle.csv"
    cycle.write_text("Аня,Боря\nБоря,Аня\n", encoding="utf-8")  # would swap the two players' records
    done = _vistlog("stats", str(one), "--alias", str(cycle))
    assert done.returncode == 2 and "itself an alias" in done.stderr
    done = _vistlog("stats", str(one), str(two))
    assert done.returncode == 0
    assert "warning: game g is counted 2 times" in done.stderr
