"""Many logs: the merge is a commutative monoid; process pool and Dask give the sequential result."""

from __future__ import annotations

import os
import pty
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vistlog.projections.batch import EMPTY, FileReport, Report, audit_file, expand, merge, run_local, run_sequential

from .conftest import ROOT, SAMPLES, VECTORS

reports = st.lists(
    st.tuples(st.integers(0, 30), st.builds(FileReport, st.sampled_from(["a", "b", "c"]), st.just(()),
                                           st.lists(st.text(max_size=3), max_size=2).map(tuple),
                                           st.none() | st.just("x"))),
    max_size=3, unique_by=lambda kv: kv[0]).map(lambda fs: Report(tuple(sorted(fs, key=lambda kv: kv[0]))))


@given(reports, reports, reports)
def test_merge_is_associative_and_commutative_with_a_unit(a: Report, b: Report, c: Report) -> None:
    if {i for i, _ in a.files} & {i for i, _ in b.files} or {i for i, _ in b.files} & {i for i, _ in c.files} \
            or {i for i, _ in a.files} & {i for i, _ in c.files}:
        return  # positions are unique in a real run
    assert merge(merge(a, b), c) == merge(a, merge(b, c))
    assert merge(a, b) == merge(b, a)
    assert merge(a, EMPTY) == merge(EMPTY, a) == a


def logs(tmp_path: Path) -> list[str]:
    folder = tmp_path / "archive"
    (folder / "old").mkdir(parents=True)
    for p in sorted(SAMPLES.glob("*.jsonl")):
        shutil.copy(p, folder)
    for p in sorted(VECTORS.glob("*.jsonl")):
        shutil.copy(p, folder / "old")
    (folder / "old" / "broken.jsonl").write_bytes(b"\x00\x01 not a log\n")
    return expand([str(folder)])


@settings(max_examples=15)
@given(st.randoms(use_true_random=False))
def test_any_order_or_grouping_gives_the_same_report(tmp_path_factory: pytest.TempPathFactory,
                                                     rng: random.Random) -> None:
    paths = logs(tmp_path_factory.mktemp("b"))
    whole = run_sequential("audit", paths)
    parts = [audit_file(i, p) for i, p in enumerate(paths)]
    rng.shuffle(parts)
    while len(parts) > 1:
        k = rng.randrange(len(parts) - 1)
        parts[k:k + 2] = [merge(parts[k], parts[k + 1])]
    assert parts[0] == whole


def test_jobs_2_equals_jobs_1_and_one_bad_file_stops_nothing(tmp_path: Path) -> None:
    paths = logs(tmp_path)
    one = run_local("settle", paths, jobs=1)
    two = run_local("settle", paths, jobs=2, batch_size=2)
    assert one == two
    files = two.in_order()
    assert [f.path for f in files] == paths
    bad = [f for f in files if f.unreadable]
    assert [Path(f.path).name for f in bad] == ["broken.jsonl"]
    assert sum(len(f.games) for f in files) == len(paths) - 1
    assert two.exit_code == 2


def test_cli_jobs_2_equals_jobs_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vistlog.cli import main

    folder = str(Path(logs(tmp_path)[0]).parent)
    outs = []
    for jobs in ("1", "2"):
        code = main(["audit", folder, "--jobs", jobs, "--format", "json"])
        outs.append((code, capsys.readouterr().out))
    assert outs[0] == outs[1] and outs[0][0] == 2


def test_dask_local_cluster_gives_exactly_the_sequential_result(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the optional extra vistlog[dask] is not installed")
    from vistlog.projections.batch import run_dask

    paths = logs(tmp_path)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # "Port 8787 is already in use": a fixed port would be shared
        assert run_dask("settle", paths, "local", partition_size=3) == run_sequential("settle", paths)


def _read_terminal(master: int) -> bytes:
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other end has closed
            return out
        if not chunk:
            return out
        out += chunk


def test_progress_bar_shows_on_a_terminal_and_stays_out_of_the_report(tmp_path: Path) -> None:
    folder = str(Path(logs(tmp_path)[0]).parent)
    count = len(expand([folder]))
    master, slave = pty.openpty()
    out = tmp_path / "report.txt"
    try:
        with out.open("wb") as stdout:  # a file, not a pipe: nothing blocks while the terminal is read
            proc = subprocess.Popen([sys.executable, "-m", "vistlog", "settle", folder, "--jobs", "1"],
                                    stdout=stdout, stderr=slave, cwd=ROOT)
            os.close(slave)
            shown = _read_terminal(master).decode()
            proc.wait(timeout=120)
    finally:
        os.close(master)
    report = out.read_text()
    assert f"[{'#' * 30}] {count}/{count} logs" in shown
    assert f"] 1/{count} logs" in shown and "\r" in shown
    assert "logs" not in report and "\r" not in report and "Аня" in report
    piped = subprocess.run([sys.executable, "-m", "vistlog", "settle", folder, "--jobs", "1"],
                           capture_output=True, cwd=ROOT)
    assert "logs" not in piped.stderr.decode()  # not a terminal: no bar
    assert piped.stdout.decode() == report.replace("\r\n", "\n")


def test_validate_a_folder_says_what_each_log_says_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vistlog.cli import main

    paths = logs(tmp_path)
    lines = Path(paths[0]).read_bytes().splitlines(keepends=True)
    Path(paths[0]).write_bytes(b"".join(lines[:5] + lines[6:]))  # a line lost: a problem in the first log
    folder = str(Path(paths[0]).parent)
    alone_out, alone_err = [], []
    for p in paths:
        main(["validate", p])
        out, err = capsys.readouterr()
        alone_out.append(out)
        alone_err.append(err)
    for jobs in ("1", "2"):
        code = main(["validate", folder, "--jobs", jobs])
        out, err = capsys.readouterr()
        assert code == 2  # broken.jsonl cannot be read; the others are still checked
        assert out == "".join(alone_out) and "seq: expected 6, got 7" in out
        assert err.splitlines()[:-1] == [line for e in alone_err for line in e.splitlines()]
        assert err.splitlines()[-1].startswith(f"{len(paths)} log(s), ")
    assert main(["validate", folder, "--jobs", "2", "-q"]) == 2
    quiet = capsys.readouterr().err.splitlines()
    assert not any(": ok, " in line for line in quiet) and len(quiet) == 3  # the bad, the unreadable, the sum
    code = main(["validate", folder, "--strict"])
    out, err = capsys.readouterr()
    assert code == 1 and out == alone_out[0].splitlines(keepends=True)[0]  # stops at the first problem


def test_validate_json_lists_every_log_with_its_games_and_problems(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import orjson

    from vistlog.cli import main

    paths = logs(tmp_path)
    lines = Path(paths[0]).read_bytes().splitlines(keepends=True)
    Path(paths[0]).write_bytes(b"".join(lines[:5] + lines[6:]))
    code = main(["validate", str(Path(paths[0]).parent), "--format", "json", "--jobs", "2"])
    files = orjson.loads(capsys.readouterr().out)["files"]
    assert code == 2 and [f["path"] for f in files] == paths
    assert files[0]["problems"] and all(p["text"].startswith(paths[0] + ":") and p["path"] == paths[0] and p["code"]
                                       for p in files[0]["problems"])
    broken = next(p for p in paths if p.endswith("broken.jsonl"))
    assert [(f["path"], f["error"]) for f in files if "error" in f] == [
        (broken, f"{broken}:1: not a JSON Lines log (not valid JSON (unexpected character, expected a JSON value "
                 "at column 1))")]
    sound = [f for f in files if not f["problems"] and "error" not in f]
    assert sound and all(g["deals"] > 0 for f in sound for g in f["games"])
    assert main(["validate", paths[0], "--format", "json", "--strict"]) == 2
    assert "--strict" in capsys.readouterr().err
