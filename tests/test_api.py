"""The Python API (``import vistlog``): the README's example and each entry point."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import vistlog
import vistlog.games
from vistlog.events.codec import decode

from .conftest import ROOT, SAMPLES

START = {"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"], "pool": 10,
         "rules": {"preset": "sochi"}}


def test_the_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The README's Python example runs as written and prints exactly what the README shows under it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    shown = text.split(code, 1)[1].split("It prints", 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    (tmp_path / "samples").symlink_to(SAMPLES)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})  # noqa: S102 - the README's own example
    assert capsys.readouterr().out == shown
    assert vistlog.verify(tmp_path / "club.jsonl").chained == 176


def test_the_api_is_curated() -> None:
    # data, documented in docs/api.md
    data = ("FORMATS_IN", "FORMATS_OUT", "CODES", "GameName", "PresetName", "Kind", "Source")
    assert [name for name in vistlog.__all__ if name not in data and not getattr(vistlog, name).__doc__] == []
    for name in ("read_games", "Game", "Checker", "append", "verify", "load", "dump", "VistlogError", "Problem"):
        assert name in vistlog.__all__


def test_the_api_is_declared_once() -> None:
    """Issue 59 point 7: one table of public names (``vistlog._PUBLIC``) gives ``__all__`` and where each name
    lives; the imports shown to type checkers are written from it; no other module of vistlog keeps a list of the
    API, and no public name means two things (a game's names are a function over the registry, not a list)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_api", ROOT / "tools" / "make-api.py")
    assert spec is not None and spec.loader is not None
    make_api = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_api)
    assert make_api.typing_block() in (ROOT / "vistlog" / "__init__.py").read_text(encoding="utf-8")
    assert vistlog.__all__ == [n for names in vistlog._PUBLIC.values() for n in names]
    assert len(set(vistlog.__all__)) == len(vistlog.__all__)
    assert not hasattr(vistlog.api, "__all__")
    for name in vistlog.__all__:
        module = vistlog._PUBLIC and next(m for m, names in vistlog._PUBLIC.items() if name in names)
        value = getattr(vistlog, name)
        assert value is (importlib.import_module(f"vistlog.{name}") if not module else
                         getattr(importlib.import_module(module), name)), name
    for gone in ("VARIANTS", "PRESETS", "Variant", "Preset", "input_lines", "MAX_LINE", "LiveFold", "kind_name"):
        assert gone not in vistlog.__all__
        with pytest.raises(AttributeError):
            getattr(vistlog, gone)


def test_read_games_takes_a_path_a_stream_or_events() -> None:
    path = SAMPLES / "classic-bombs.jsonl"
    by_path = [g.settlement() for g in vistlog.read_games(path)]
    by_stream = [g.settlement() for g in vistlog.read_games(io.BytesIO(path.read_bytes()))]
    events = [decode(line) for line in path.read_bytes().splitlines()]
    by_events = [g.settlement() for g in vistlog.read_games(events)]
    assert by_path == by_stream == by_events and len(by_path) == 1
    assert sum(by_path[0].exact.values(), Fraction(0)) == 0


def test_each_game_carries_its_own_problems_even_one_that_never_started() -> None:
    other = dict(START, game="h")
    events = [dict(START, seq=1), dict(other, seq=2),
              {"seq": 3, "type": "deal_started", "game": "h", "deal": 1, "dealer": "C", "bomb": 9},
              {"seq": 4, "type": "deal_started", "game": "nobody", "deal": 1, "dealer": "C"}]
    reader = vistlog.read_games(events)
    games = {g.id: g for g in reader}
    assert games["g"].sound and games["g"].problems == ()
    assert [p.code for p in games["h"].errors] == ["bomb-level"] and not games["h"].sound
    nobody = games["nobody"]  # events of a game never started: given at the end, with its problem
    assert list(games) == ["g", "h", "nobody"] and not nobody.started and not nobody.sound
    assert [p.code for p in nobody.problems] == ["game-not-started"] and nobody.deals == 0
    assert nobody.sheet().players == () and dict(nobody.settlement().exact) == {}
    with pytest.raises(vistlog.VistlogError, match="never started"):
        nobody.audit()
    assert reader.problems == []  # only lines that name no game at all stay here


def test_lines_that_name_no_game_stay_on_the_reader() -> None:
    first = (SAMPLES / "classic-bombs.jsonl").read_bytes().splitlines(keepends=True)[0]
    reader = vistlog.read_games(io.BytesIO(first + b'not json\n{"v":1,"seq":3,"type":"game_ended"}\n'))
    (game,) = reader
    assert game.started and [p.code for p in game.problems] == []
    assert [p.code for p in reader.problems] == ["json-invalid", "field-missing"]


def test_checker_is_legal_does_not_change_anything_and_push_refuses_cleanly() -> None:
    c = vistlog.Checker()
    c.push(START)
    deal = {"type": "deal_started", "game": "g", "deal": 1, "dealer": "C"}
    assert c.is_legal(deal) and c.is_legal(deal)  # asking twice: nothing was applied
    with pytest.raises(vistlog.IllegalEventError) as exc:
        c.push(dict(deal, deal=3))
    assert [p.code for p in exc.value.problems] == ["deal-out-of-order"]
    assert isinstance(exc.value, vistlog.VistlogError)
    assert c.push(deal).seq == 2
    assert [p.code for p in c.problems({"type": "bid", "game": "g", "deal": 1, "player": "B", "bid": "6S"})] \
        == ["bid-out-of-turn"]
    assert [p.code for p in c.problems({"type": "bid", "game": "g", "deal": 1, "player": "A", "bid": "6X"})] \
        == ["field-invalid"]


def test_append_is_all_or_nothing_and_raises_a_vistlog_error(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    assert [e.seq for e in vistlog.append(log, [START])] == [1]
    before = log.read_bytes()
    with pytest.raises(vistlog.AppendRejected) as exc:
        vistlog.append(log, [{"type": "deal_started", "game": "g", "deal": 1, "dealer": "C"},
                             {"type": "deal_started", "game": "g", "deal": 5, "dealer": "A"}])
    assert isinstance(exc.value, vistlog.VistlogError)
    assert [p.code for p in exc.value.problems] == ["deal-out-of-order"]
    assert log.read_bytes() == before


def test_load_and_dump_round_trip_a_protocol() -> None:
    (imported,) = vistlog.load(SAMPLES / "sochi-protocol.csv", "csv")
    assert vistlog.dump(imported.events, "csv") == (SAMPLES / "sochi-protocol.csv").read_text(encoding="utf-8")
    with pytest.raises(vistlog.VistlogError):
        vistlog.load(b"not a protocol", "csv")
    with pytest.raises(vistlog.VistlogError):
        vistlog.dump([], "docx")


def test_unreadable_input_raises_the_root_error(tmp_path: Path) -> None:
    with pytest.raises(vistlog.LogUnreadable) as exc:
        vistlog.read_games(tmp_path / "missing.jsonl")
    assert isinstance(exc.value, vistlog.VistlogError) and "missing.jsonl" in str(exc.value)


def test_the_checker_works_past_the_fold_spilling_to_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    from vistlog.events import tally as tally_module

    monkeypatch.setattr(tally_module.Items, "KEEP", 2)
    c = vistlog.Checker()
    c.push({**START, "rules": {"preset": "sochi", "game_end": "agreement"}})
    for n in range(12):
        dealer, declarer = "CAB"[n % 3], "ABC"[n % 3]
        d = n + 1
        for ev in ({"type": "deal_started", "game": "g", "deal": d, "dealer": dealer},
                   {"type": "contract", "game": "g", "deal": d, "declarer": declarer, "contract": "6S"},
                   {"type": "whist", "game": "g", "deal": d, "player": "ABC"[(n + 1) % 3], "call": "pass"},
                   {"type": "whist", "game": "g", "deal": d, "player": "ABC"[(n + 2) % 3], "call": "pass"}):
            assert c.is_legal(ev)
            c.push(ev)
    assert not c.is_legal({"type": "deal_started", "game": "g", "deal": 14, "dealer": "C"})


def test_game_events_gives_one_game_for_dump(tmp_path: Path) -> None:
    events = vistlog.api.game_events(ROOT / "samples" / "sochi-evening.jsonl")
    assert events[0].type == "game_started" and events[-1].type == "game_ended"
    assert vistlog.dump(events, "csv").startswith("# game:")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes((ROOT / "samples" / "sochi-evening.jsonl").read_bytes().replace(b'"seq":3,', b'"seq":"3",', 1))
    with pytest.raises(vistlog.api.LogProblems) as caught:  # a line that does not decode
        vistlog.api.game_events(bad)
    assert [(p.line, p.field) for p in caught.value.problems] == [(3, "seq")]
    with pytest.raises(vistlog.VistlogError, match="no game 'nope'"):
        vistlog.api.game_events(ROOT / "samples" / "sochi-evening.jsonl", "nope")


def test_check_log_gives_problems_in_line_order_and_each_result_as_its_game_ends() -> None:
    other = dict(START, game="h")
    events = [dict(START, seq=1), dict(other, seq=2),
              {"seq": 3, "type": "deal_started", "game": "h", "deal": 2, "dealer": "A"},
              {"seq": 4, "type": "game_ended", "game": "g"},
              {"seq": 9, "type": "game_ended", "game": "h"}]
    items = list(vistlog.check_log(events))
    assert [(getattr(x, "code", None), x.game) for x in items] == [
        ("deal-out-of-order", "h"), (None, "g"), ("seq-order", "h"), (None, "h")]


def test_a_log_read_with_a_progress_line_is_still_read_as_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal a large log is wrapped to show progress; the wrapper must read as bytes, not as events."""
    from vistlog.output import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr(Progress, "MIN_SIZE", 10)
    monkeypatch.setattr(Progress, "EVERY", 0.0)
    path = SAMPLES / "classic-bombs.jsonl"
    wrapped = Progress(path.open("rb"), str(path))
    assert wrapped.show
    (game,) = vistlog.read_games(wrapped.source(), name=str(path))
    assert game.sound and game.settlement() == next(vistlog.read_games(path)).settlement()
    assert f"{path}: " in err.getvalue() and "%" in err.getvalue()


def test_events_false_keeps_the_sheet_and_the_audit_but_no_deal_records() -> None:
    """What a sheet or an audit of a very long game keeps is its entries: no deal record, no deal's events;
    a replay of such a game says why it cannot be made instead of telling an empty story."""
    (full,) = vistlog.read_games(str(SAMPLES / "sochi-evening.jsonl"))
    (lean,) = vistlog.read_games(str(SAMPLES / "sochi-evening.jsonl"), events=False)
    result_of = vistlog.games.result_of  # the read side's result, behind the public values
    assert result_of(full).records and not result_of(lean).records
    assert result_of(lean).entries == result_of(full).entries
    assert lean.sheet(3)["pool"] == full.sheet(3)["pool"] and lean.audit().to_json() == full.audit().to_json()
    with pytest.raises(vistlog.VistlogError, match="events=False: no replay"):
        lean.replay()
    with pytest.raises(vistlog.VistlogError, match="events=False: no replay"):
        lean.replay_lines()  # said when asked, not when the first line is read
    lines = full.replay_lines(3)
    assert not isinstance(lines, list) and list(lines) == full.replay(3) and full.replay(3)[0].startswith("Game ")
    reasons = {}
    for e in result_of(full).entries:  # equal reasons are one string
        assert reasons.setdefault(e.reason, e.reason) is e.reason


START_EVENT = {"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"], "pool": 10,
               "rules": {"preset": "sochi"}}


def _failures(d: Path) -> dict[str, Any]:
    log = SAMPLES / "sochi-evening.jsonl"
    return {
        "read a missing log": lambda: list(vistlog.read_games(d / "nope" / "x.jsonl")),
        "read a folder": lambda: list(vistlog.read_games(d)),
        "append into a missing folder": lambda: vistlog.append(d / "nope" / "x.jsonl", [START_EVENT]),
        "append to a folder": lambda: vistlog.append(d, [START_EVENT]),
        "verify a missing log": lambda: vistlog.verify(d / "nope.jsonl"),
        "verify a folder": lambda: vistlog.verify(d),
        "load a missing file": lambda: vistlog.load(d / "x.csv", "csv"),
        "load a folder": lambda: vistlog.load(d, "csv"),
        "load an unknown format": lambda: vistlog.load(log, "xls"),
        "dump an unknown format": lambda: vistlog.dump([], "xls"),
        "the events of a missing log": lambda: vistlog.game_events(d / "x.jsonl"),
        "the events of a game not in the log": lambda: vistlog.game_events(log, "nobody"),
        "a missing key file": lambda: vistlog.verify(log, key_file=d / "k"),
        "a key and a key file": lambda: vistlog.verify(log, key=b"k" * 16, key_file=d / "k"),
        "import into a missing folder": lambda: vistlog.archive.import_files(
            "csv", [str(SAMPLES / "sochi-protocol.csv")], d / "no" / "x.jsonl"),
        "a missing alias file": lambda: vistlog.archive.statistics([str(SAMPLES)], aliases=d / "a.csv", jobs=1),
        "a missing claimed sheet": lambda: next(vistlog.read_games(log)).audit(d / "claimed.json"),
        "a player not in the game": lambda: next(vistlog.read_games(log)).sheet().value("Дима", "pool"),
        "an unknown preset": lambda: vistlog.views.rules_text("moscow"),
    }


@pytest.mark.parametrize("what", list(_failures(Path("."))))
def test_every_failure_of_input_or_file_system_is_a_vistlog_error_with_a_code(what: str, tmp_path: Path) -> None:
    with pytest.raises(Exception) as exc:
        _failures(tmp_path)[what]()
    err = exc.value
    assert isinstance(err, vistlog.VistlogError), (what, type(err), err)
    assert type(err).__name__ in vistlog.__all__ and isinstance(err.code, str) and err.code
    assert isinstance(err.problems, tuple) and str(err) and "\n" not in str(err)


def test_every_error_class_is_exported_with_the_same_attributes() -> None:
    classes = {getattr(vistlog, n) for n in vistlog.__all__ if isinstance(getattr(vistlog, n), type)
               and issubclass(getattr(vistlog, n), BaseException)}
    assert {vistlog.VistlogError, vistlog.AppendRejected, vistlog.IllegalEventError, vistlog.LogProblems,
            vistlog.UnknownName, vistlog.WorkerFailed, vistlog.OutputError, vistlog.ClaimError} <= classes
    codes = {c: c.code for c in classes}
    assert len(set(codes.values())) == len(codes), codes  # one code a class
    rejected = vistlog.AppendRejected([vistlog.Problem("x", 1, 1, "seq", "m", code="seq-order")])
    assert rejected.code == "append-rejected" and [p.code for p in rejected.problems] == ["seq-order"]


def test_what_load_gives_is_read_settled_and_appended_as_it_is(tmp_path: Path) -> None:
    games = vistlog.load(SAMPLES / "sochi-protocol.csv", "csv")
    (read,) = vistlog.read_games(games)
    assert read.sound and read.deals == 43
    (game,) = games
    assert next(vistlog.read_games(game.events)).settlement() == read.settlement()
    vistlog.append(tmp_path / "club.jsonl", games)
    (again,) = vistlog.read_games(tmp_path / "club.jsonl")
    assert again.settlement() == read.settlement() and again.sheet() == read.sheet()


def test_a_game_knows_its_kind_variant_and_preset() -> None:
    """One word for one thing (issue 45): ``kind`` as the log spells it, ``variant`` the game, ``preset`` the
    preset."""
    assert vistlog.preset_names() == vistlog.views.PRESET_NAMES
    assert set(vistlog.game_names()) == {"preferans", "solo_whist", "serbian"}
    seen = {(g.kind, g.variant, g.preset) for path in sorted(SAMPLES.glob("*.jsonl"))
            for g in vistlog.read_games(path)}
    assert seen == {("preferans", "preferans", "sochi"), ("preferans", "preferans", "classic"),
                    ("preferans", "preferans", "leningrad"), ("solo_whist", "solo_whist", "encyclopedia")}
    (serbian,) = vistlog.read_games(vistlog.load(SAMPLES / "serbian.ppn", "ppn")[:1])
    assert (serbian.kind, serbian.variant, serbian.preset) == ("preferans", "serbian", "serbian")
    solo = next(vistlog.read_games(SAMPLES / "solo-whist-evening.jsonl"))
    assert serbian.sheet().columns == ("bula", "soups", "refe") and solo.sheet().columns == ("points",)


def test_public_results_are_frozen() -> None:
    game = next(vistlog.read_games(SAMPLES / "sochi-evening.jsonl"))
    sheet, settlement = game.sheet(), game.settlement()
    with pytest.raises(TypeError):
        sheet["pool"]["Аня"] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        settlement.exact["Аня"] = 0  # type: ignore[index]
    with pytest.raises(AttributeError):
        game.problems = ()  # type: ignore[misc]
    assert not hasattr(game, "fold") and hash(game.audit())


def test_append_takes_a_key_and_verify_proves_it(tmp_path: Path) -> None:
    key = tmp_path / "club.key"
    key.write_bytes(b"a secret of the club, 32 bytes.\n")
    log = tmp_path / "club.jsonl"
    vistlog.append(log, vistlog.load(SAMPLES / "sochi-protocol.csv", "csv"), key_file=key)
    assert b'"_mac"' in log.read_bytes() and vistlog.verify(log).status == "keyed"
    assert vistlog.verify(log, key_file=key).status == "ok"
    assert vistlog.verify(log, key=b"another secret, 16 bytes or more").status == "broken"


def test_checker_push_all_is_all_or_none_and_a_refusal_leaves_the_state_as_it_was() -> None:
    c = vistlog.Checker()
    c.push({"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"], "pool": 10,
            "rules": {"preset": "sochi"}})
    deal = [{"type": "deal_started", "game": "g", "deal": 1, "dealer": "C"},
            {"type": "contract", "game": "g", "deal": 1, "declarer": "A", "contract": "6S"},
            {"type": "whist", "game": "g", "deal": 1, "player": "B", "call": "whist"},
            {"type": "whist", "game": "g", "deal": 1, "player": "C", "call": "pass"}]
    bad = [*deal, {"type": "tricks", "game": "g", "deal": 1, "taken": {"A": 6, "B": 4, "C": 1}}]
    with pytest.raises(vistlog.IllegalEventError) as caught:
        c.push_all(bad)
    assert [p.code for p in caught.value.problems] == ["tricks-sum"]
    assert c.table().next_deal == 1 and c.table().open_deal is None  # nothing of the refused deal applied
    done = c.push_all([*deal, {"type": "tricks", "game": "g", "deal": 1, "taken": {"A": 6, "B": 3, "C": 1}}])
    assert [e.seq for e in done] == [2, 3, 4, 5, 6]
    with pytest.raises(vistlog.IllegalEventError):
        c.push({"type": "deal_started", "game": "g", "deal": 2, "dealer": "C"})  # A deals deal 2
    t = c.table()
    assert (t.next_deal, t.dealer, t.first_to_speak, t.holders) == (2, "A", "B", ("B", "C", "A"))
    assert c.push({"type": "deal_started", "game": "g", "deal": 2, "dealer": "A"}).seq == 7


def test_checker_push_does_not_copy_the_state() -> None:
    import copy

    c = vistlog.Checker()
    c.push({"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"], "pool": 10,
            "rules": {"preset": "sochi"}})
    copied = []
    original = copy.deepcopy
    try:
        copy.deepcopy = lambda *a, **k: copied.append(1) or original(*a, **k)  # type: ignore[assignment]
        c.push({"type": "deal_started", "game": "g", "deal": 1, "dealer": "C"})
        c.push({"type": "tricks", "game": "g", "deal": 1, "taken": {"A": 4, "B": 3, "C": 3}})
    finally:
        copy.deepcopy = original
    assert copied == []


def test_import_vistlog_imports_each_name_when_first_used() -> None:
    """``import vistlog`` runs no game, codec or renderer (PEP 562, issue 45); a name is imported when asked for,
    and is then the same object as the module's own."""
    probe = ("import sys, vistlog\n"
             "print(sorted(m for m in sys.modules if m.startswith('vistlog.')))\n"
             "from vistlog.events.codec import DecodeError\n"
             "print(vistlog.DecodeError is DecodeError, 'vistlog.projections.render' in sys.modules)\n"
             "print(vistlog.read_games.__module__)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["['vistlog.build']", "True False", "vistlog.games"]
