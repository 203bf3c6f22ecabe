"""Game views kept on disk while many logs run, and JSON written a piece at a time: the same as whole."""

from __future__ import annotations

import gc
import io
import pickle
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vistlog.cli import main
from vistlog.output import Streamed, write_json
from vistlog.projections.batch import run_local, run_sequential
from vistlog.events.problems import CODES, Problem
from vistlog.projections.spool import GameViews, Problems, SpoolWriter, merged

from .conftest import SAMPLES

views = st.dictionaries(st.sampled_from(["game", "ok", "deals", "x"]),
                        st.booleans() | st.integers(-5, 5) | st.text(max_size=4), max_size=4)


@given(st.lists(views, max_size=12), st.randoms(use_true_random=False), st.booleans())
def test_views_put_in_any_order_come_back_in_key_order(items: list[dict[str, Any]], rng: Any, spool: bool) -> None:
    order = list(range(len(items)))
    rng.shuffle(order)
    w = SpoolWriter(GameViews, spool)
    for k in order:
        w.put(k, items[k])
    got = w.close()
    assert list(got) == items and len(got) == len(items)
    assert got.ok == all(v.get("ok", True) for v in items)
    assert got == GameViews(items)


@given(st.lists(st.lists(st.integers(0, 10_000), unique=True, max_size=8).map(sorted), max_size=4), st.booleans())
def test_parts_merge_by_their_stored_keys(keys: list[list[int]], spool: bool) -> None:
    seen: set[int] = set()
    parts = []
    for part in keys:
        w = SpoolWriter(GameViews, spool)
        for i, key in enumerate(k for k in part if k not in seen):
            seen.add(key)
            w.put(i, {"game": str(key)}, stored=(key,))
        parts.append(w.close())
    assert [int(v["game"]) for v in merged(GameViews, parts, spool)] == sorted(seen)


def _spool_files() -> set[str]:
    import tempfile

    return {p.name for p in Path(tempfile.gettempdir()).glob("vistlog-spool-*")}


def test_a_spool_file_lives_as_long_as_its_views_and_a_pickle_hands_it_over() -> None:
    before = _spool_files()
    assert before == set()  # each test has a temporary folder of its own (conftest)
    w = SpoolWriter(GameViews)
    w.put(0, {"game": "a"})
    views = w.close()
    (name,) = _spool_files() - before
    data = pickle.dumps(views)  # as a worker sends it: the receiver owns the file now
    del views
    gc.collect()
    assert name in _spool_files()
    again = pickle.loads(data)
    assert [v["game"] for v in again] == ["a"]
    del again
    gc.collect()
    assert name not in _spool_files()


def test_many_logs_keep_their_games_on_disk_and_leave_nothing_behind(capsys: pytest.CaptureFixture[str]) -> None:
    before = _spool_files()
    report = run_local("settle", [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))], jobs=2)
    files = report.in_order()
    assert all("on disk" in repr(f.games) and "on disk" in repr(f.problems) for f in files)
    assert len(_spool_files() - before) == 2 * len(files)  # the games and the problems of each log
    assert report == run_sequential("settle", [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))])
    del report, files
    gc.collect()
    assert _spool_files() - before == set()
    assert main(["audit", str(SAMPLES), "--jobs", "2", "--format", "json"]) == 1  # the disputed sheet
    audited = {Path(f["path"]).name: f for f in orjson.loads(capsys.readouterr().out)["files"]}
    assert not audited["disputed-sheet.jsonl"]["games"][0]["ok"] and audited["sochi-evening.jsonl"]["games"][0]["ok"]
    assert _spool_files() - before == set()


problems = st.builds(Problem, st.text(max_size=5), st.none() | st.integers(0, 10**6),
                     st.none() | st.integers(-2**63, 2**63 - 1), st.text(max_size=5), st.text(max_size=20),
                     st.none() | st.text(max_size=5), st.none() | st.text(max_size=5), st.none() | st.integers(1, 50),
                     code=st.sampled_from(sorted(CODES)))


@given(st.lists(problems, max_size=5), st.booleans())
def test_problems_come_back_field_for_field(items: list[Problem], spool: bool) -> None:
    w = SpoolWriter(Problems, spool)
    for p in items:
        w.append(p)
    got = w.close()
    assert list(got) == items and got.ok and got == Problems(items)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12)


def _streamed(value: Any, flip: list[bool]) -> Any:
    """The value with some of its lists (chosen by ``flip``) made :class:`Streamed`."""
    if isinstance(value, dict):
        return {k: _streamed(v, flip) for k, v in value.items()}
    if isinstance(value, list):
        items = [_streamed(v, flip) for v in value]
        return Streamed(iter(items)) if flip and flip.pop() else items
    return value


@given(json_values, st.lists(st.booleans(), max_size=12))
def test_json_written_a_piece_at_a_time_is_json_written_whole(value: Any, flip: list[bool]) -> None:
    out = io.StringIO()
    write_json(out, _streamed(value, list(flip)))
    assert out.getvalue() == orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()


def test_no_spool_file_when_the_views_stay_in_memory() -> None:
    before = _spool_files()
    views = SpoolWriter(GameViews, spool=False)
    views.put(0, {"game": "a"})
    assert "on disk" not in repr(views.close()) and _spool_files() == before
