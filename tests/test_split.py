"""One log split by game among worker processes gives exactly what one process gives."""

from __future__ import annotations

import gc
import random
import tempfile
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import vistlog
from vistlog.projections.batch import run_sequential
from vistlog.projections.split import run_split

from vistlog.events.ids import IdTable

from .conftest import STRESS
from .serbian_games import random_game
from .simulate import preferans_game, solo_whist_game

ROOT = Path(__file__).parent.parent


def _interleaved(seed: int, games: int = 6) -> list[dict[str, Any]]:
    """Several games of every kind, their events interleaved as a club server writes them."""
    rng = random.Random(seed)
    made = []
    for k in range(games):
        if k % 3 == 2:
            made.append(solo_whist_game(rng, game=f"s{k}", deals=6, card_play=0.3))
        elif k % 3 == 1:
            made.append([{**e, "game": f"r{k}"} for e in random_game(rng, 6, cards=k % 2 == 0)])
        else:
            made.append(preferans_game(rng, players=("Аня", "Боря", "Вова"), rules={"preset": "sochi"}, pool=6,
                                       game=f"p{k}", max_deals=8, card_play=0.3))
    out: list[dict[str, Any]] = []
    pos = [0] * len(made)
    while any(p < len(g) for p, g in zip(pos, made)):
        for i, g in enumerate(made):
            k = rng.randint(1, 6)
            out += g[pos[i]:pos[i] + k]
            pos[i] += k
    return [{**e, "seq": i} for i, e in enumerate(out, start=1)]


def _write(path: Path, events: list[dict[str, Any]]) -> None:
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))


def _corrupt(lines: list[bytes], rng: random.Random, n: int) -> list[bytes]:
    """``n`` random damages: a line dropped, doubled, swapped, cut, garbled, a field changed."""
    lines = list(lines)
    for _ in range(n):
        i = rng.randrange(1, len(lines))
        what = rng.choice(["drop", "double", "swap", "garble", "field", "seq", "cut", "game"])
        if what == "drop":
            del lines[i]
        elif what == "double":
            lines.insert(i, lines[i])
        elif what == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif what == "garble":
            lines[i] = lines[i][: len(lines[i]) // 2] + b"\n"
        elif what == "field":
            lines[i] = lines[i].replace(b'"player":"', b'"player":"X', 1)
        elif what == "seq":
            lines[i] = lines[i].replace(b'"seq":', b'"seq":-', 1)
        elif what == "game":
            lines[i] = lines[i].replace(b'"game":"', b'"game":"z', 1)
        else:
            lines[-1] = lines[-1][:-7]
    return lines


def _same(path: Path, kinds: tuple[str, ...] = ("validate", "settle", "audit")) -> None:
    for kind in kinds:
        one = run_sequential(kind, [str(path)]).in_order()[0]
        assert run_split(kind, str(path), 2) == one, kind


@pytest.mark.parametrize("path", sorted(str(p.relative_to(ROOT)) for p in (ROOT / "samples").glob("*.jsonl")))
def test_samples(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    _same(Path(path))


def test_interleaved_games_with_every_kind_of_damage(tmp_path: Path) -> None:
    events = _interleaved(3)
    log = tmp_path / "club.jsonl"
    _write(log, events)
    _same(log)
    lines = log.read_bytes().splitlines(keepends=True)
    for seed in range(4):
        log.write_bytes(b"".join(_corrupt(lines, random.Random(seed), 8)))
        _same(log)
        assert run_sequential("validate", [str(log)]).in_order()[0].problems  # the damage is seen


def test_ids_of_ended_games_kept_as_hashes_through_their_growth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    """With the tables of ended ids growing from one slot, a game started again and a game_ended
    after its game_ended give the same problems and games, on one worker and on two."""
    events = _interleaved(4, games=6)
    ended = [e for e in events if e["type"] == "game_ended"]
    again = [{**e, "seq": 0} for e in events if e["game"] == ended[0]["game"]][:3]  # the game started once more
    late = [{**ended[1], "seq": 0, "type": "game_ended"}]
    extra = [{**e, "seq": len(events) + i} for i, e in enumerate(again + late, start=1)]
    log = tmp_path / "again.jsonl"
    _write(log, events + extra)
    whole = {kind: run_sequential(kind, [str(log)]).in_order()[0] for kind in ("validate", "settle")}
    assert {p.code for p in whole["validate"].problems} >= {"game-twice", "after-game-ended"}
    monkeypatch.setattr(IdTable, "SIZE", 1)
    for kind, one in whole.items():
        assert run_sequential(kind, [str(log)]).in_order()[0] == one
        assert run_split(kind, str(log), 2) == one


def test_a_chained_log_with_a_broken_chain(tmp_path: Path) -> None:
    log = tmp_path / "chained.jsonl"
    events = _interleaved(5, games=3)
    vistlog.append(log, [{k: v for k, v in e.items() if k != "seq"} for e in events])
    lines = log.read_bytes().splitlines(keepends=True)
    lines[7] = lines[7].replace(b'"v":1', b'"v":1,"_edited":1', 1)
    log.write_bytes(b"".join(lines))
    _same(log, ("validate", "audit"))
    assert any(p.code.startswith("chain") for p in run_sequential("validate", [str(log)]).in_order()[0].problems)


@settings(max_examples=200 if STRESS else 8, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 12))
@example(8368, 1)  # a game whose pools close: the simulator stops where its own checker's tally says so
@example(53454, 3)
def test_random_damage(tmp_path_factory: pytest.TempPathFactory, seed: int, damage: int) -> None:
    log = tmp_path_factory.mktemp("split") / "log.jsonl"
    _write(log, _interleaved(seed % 50, games=4))
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(_corrupt(lines, random.Random(seed), damage)))
    _same(log, ("validate", "settle"))


def test_cli_jobs_on_one_log_prints_what_one_worker_prints(tmp_path: Path) -> None:
    log = tmp_path / "club.jsonl"
    _write(log, _interleaved(9))
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(_corrupt(lines, random.Random(1), 5)))
    for args in (["validate"], ["settle"], ["settle", "--format", "json"], ["audit", "--format", "json"]):
        runs = [subprocess.run([sys.executable, "-m", "vistlog", *args, "--jobs", jobs, str(log)], cwd=ROOT,
                               capture_output=True, timeout=120) for jobs in ("1", "2")]
        assert runs[0].returncode == runs[1].returncode
        assert runs[0].stdout == runs[1].stdout and runs[0].stderr == runs[1].stderr, args


def test_an_internal_error_in_a_worker_comes_back_as_one_error_without_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    """A worker that fails (here: its view of a game raises) still takes its lines to the end, so the reading
    process, which fills the queues, never waits forever; the error is raised there, once."""
    from vistlog.projections import batch
    from vistlog.projections.split import BATCH, QUEUED, WorkerFailed

    def boom(res: Any) -> dict[str, Any]:
        raise KeyError("boom")

    monkeypatch.setitem(batch.KIND_VIEWS, "settle", (boom, False))
    games = _interleaved(3, games=3)
    events: list[dict[str, Any]] = []
    copy = 0
    while len(events) < 3 * BATCH * QUEUED:  # more than both queues hold: a worker that stopped would block
        events += [{**e, "game": f"{e['game']}-{copy}"} for e in games]
        copy += 1
    log = tmp_path / "big.jsonl"
    _write(log, [{**e, "seq": i} for i, e in enumerate(events, start=1)])
    spools = set(Path(tempfile.gettempdir()).glob("vistlog-spool-*"))
    with pytest.raises(WorkerFailed, match="KeyError: 'boom'"):
        run_split("settle", str(log), 2)
    assert "Traceback" not in capfd.readouterr().err
    gc.collect()
    assert set(Path(tempfile.gettempdir()).glob("vistlog-spool-*")) == spools  # the workers' files are gone
