"""The keyed chain cannot be forged or broken by a forgotten option (issue 34, items 1 to 3)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import vistlog

from .conftest import SAMPLES

GAME_ENDED = {"type": "game_ended", "game": "sochi-2026-11-28"}


@pytest.fixture()
def keyed(tmp_path: Path) -> tuple[Path, Path]:
    key = tmp_path / "club.key"
    key.write_bytes(b"the club's secret, thirty-two b\n")
    log = tmp_path / "club.jsonl"
    vistlog.append(log, vistlog.load(SAMPLES / "sochi-protocol.csv", "csv"), key_file=key)
    return log, key


def _cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vistlog", *args], input=stdin.decode(), capture_output=True,
                          text=True, timeout=120)


def test_a_key_proves_nothing_of_a_log_without_keyed_lines(tmp_path: Path, keyed: tuple[Path, Path]) -> None:
    _, key = keyed
    plain = tmp_path / "plain.jsonl"  # the whole log rewritten by someone without the key, as a plain chain
    vistlog.append(plain, vistlog.load(SAMPLES / "sochi-protocol.csv", "csv"))
    res = vistlog.verify(plain, key_file=key)
    assert (res.status, res.code) == ("broken", "chain-not-keyed") and "proves nothing" in res.message
    done = _cli("verify", str(plain), "--key-file", str(key))
    assert done.returncode == 1 and "no line carries a keyed chain" in done.stdout
    assert vistlog.verify(plain).status == "ok"  # without a key nothing was claimed


def test_verify_says_which_lines_the_key_checked(keyed: tuple[Path, Path]) -> None:
    log, key = keyed
    res = vistlog.verify(log, key_file=key)
    assert (res.status, res.keyed_from, res.lines) == ("ok", 1, 176)
    done = _cli("verify", str(log), "--key-file", str(key))
    assert done.returncode == 0 and "lines 1..176 keyed (each _mac checked with the key)" in done.stdout


def test_append_without_the_key_or_with_another_is_refused_and_writes_nothing(
        tmp_path: Path, keyed: tuple[Path, Path]) -> None:
    log, key = keyed
    before = log.read_bytes()
    with pytest.raises(vistlog.KeyRequired, match="the log is keyed"):
        vistlog.append(log, [GAME_ENDED])
    other = tmp_path / "other.key"
    other.write_bytes(b"not the club's secret at all....")
    with pytest.raises(vistlog.KeyRequired, match="does not prove"):
        vistlog.append(log, [GAME_ENDED], key_file=other)
    assert log.read_bytes() == before
    done = _cli("append", str(log), stdin=b'{"type":"game_ended","game":"sochi-2026-11-28"}\n')
    assert done.returncode == 2 and "give its key (--key-file); nothing appended" in done.stderr
    done = _cli("import", "--from", "jsonl", str(SAMPLES / "classic-bombs.jsonl"), "-o", str(log))
    assert done.returncode == 2 and "the log is keyed" in done.stderr and "Traceback" not in done.stderr
    assert log.read_bytes() == before
    vistlog.append(log, [GAME_ENDED], key_file=key)
    assert vistlog.verify(log, key_file=key).status == "ok"


def test_the_whole_key_file_is_the_key(tmp_path: Path) -> None:
    a, b = tmp_path / "a.key", tmp_path / "b.key"
    secret = b"k" * 4000
    a.write_bytes(secret + b"A")
    b.write_bytes(secret + b"B")  # the same for the first 4,000 bytes
    log = tmp_path / "log.jsonl"
    vistlog.append(log, vistlog.load(SAMPLES / "sochi-protocol.csv", "csv"), key_file=a)
    assert vistlog.verify(log, key_file=a).status == "ok"
    assert vistlog.verify(log, key_file=b).status == "broken"
    long = tmp_path / "long.key"
    long.write_bytes(b"x" * 5000)
    with pytest.raises(vistlog.LogUnreadable, match="at most 4096 bytes"):
        vistlog.verify(log, key_file=long)


def test_a_game_of_100000_names_is_refused_at_once() -> None:
    """Issue 34, item 11: the count is checked before any per-name work, and "listed twice" is linear."""
    names = [f"p{i}" for i in range(100_000)]
    (game,) = vistlog.read_games([{"type": "game_started", "game": "g", "kind": "preferans", "players": names,
                                   "pool": 10, "rules": {"preset": "sochi"}}])
    assert [p.code for p in game.problems] == ["players-count"] and not game.started
    assert "at most 4 players, not 100000" in game.problems[0].message
