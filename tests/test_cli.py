"""The command line: exit codes and JSON as CLI.md fixes them; never a traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import orjson
import pytest

import vistlog
from hypothesis import given, settings
from hypothesis import strategies as st

import vistlog.cli
import vistlog.output
from vistlog.cli import main

from .conftest import ROOT, SAMPLES, VECTORS

vistlog.cli.RAISE_INTERNAL_ERRORS = True


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_vectors_and_samples(capsys: pytest.CaptureFixture[str]) -> None:
    logs = [str(p) for p in sorted(VECTORS.glob("*.jsonl")) + sorted(SAMPLES.glob("*.jsonl"))]
    code, out, err = run(capsys, "validate", *logs)
    assert code == 0 and out == "" and err.count(": ok,") == len(logs)


def test_settle_json_is_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "settle", str(SAMPLES / "sochi-evening.jsonl"), "--format", "json")
    assert code == 0
    (game,) = orjson.loads(out)["games"]
    assert set(game) >= {"game", "kind", "rules", "players", "deals", "sheet", "result", "result_rounded",
                         "zero_sum", "money", "payments"}
    assert sum(Fraction(v) for v in game["result"].values()) == 0
    assert sum(game["result_rounded"].values()) == 0 and game["zero_sum"] is True
    assert sum(Fraction(v) for v in game["money"].values()) == 0
    for line in game["sheet"].values():
        assert set(line) == {"pool", "mountain", "whists"}


def test_exit_1_for_an_invalid_event_with_file_line_seq_field(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    lines = (VECTORS / "preferans-sochi-four-deals.jsonl").read_bytes().splitlines()
    lines[5] = lines[5].replace(b'"\xd0\x92\xd0\xbe\xd0\xb2\xd0\xb0": 2}', b'"\xd0\x92\xd0\xbe\xd0\xb2\xd0\xb0": 3}')
    log.write_bytes(b"\n".join(lines) + b"\n")
    code, out, _ = run(capsys, "validate", str(log))
    assert code == 1
    assert f"{log}:6: seq 6: taken: taken adds up to 11, a Preferans deal has 10 tricks" in out
    code, out, err = run(capsys, "settle", str(log), "--format", "json")
    assert code == 1 and "taken adds up to 11" in err


@pytest.mark.parametrize("content", [b"", b"\x89PNG\r\n\x1a\n\x00\x00", b"just text\n", b"[1]\n"])
def test_exit_2_for_input_that_is_not_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            content: bytes) -> None:
    log = tmp_path / "x.jsonl"
    log.write_bytes(content)
    for cmd in ("validate", "sheet", "settle", "audit", "replay"):
        code, out, err = run(capsys, cmd, str(log))
        assert code == 2 and out == "", cmd  # nothing half-written on standard output
        assert str(log) in err and "Traceback" not in err


def test_exit_2_for_usage_and_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["settle"])
    assert info.value.code == 2
    code, _, err = run(capsys, "settle", "/nonexistent/x.jsonl")
    assert code == 2 and "cannot open" in err
    for cmd in ("sheet", "settle", "audit", "replay"):
        code, _, err = run(capsys, cmd, str(SAMPLES / "sochi-evening.jsonl"), "--game", "nope")
        assert code == 2 and err.endswith("no game 'nope' (games: sochi-2026-11-28)\n")
    code, _, err = run(capsys, "import", "--from", "pbn", str(SAMPLES), "-o", "/nonexistent/x.jsonl")
    assert code == 2 and err == f"vistlog import: no *.pbn files in {SAMPLES}\n"


def test_append_verify_round(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    log = tmp_path / "new.jsonl"
    src = (VECTORS / "preferans-seed-example-1.jsonl").read_bytes()
    stripped = b"\n".join(orjson.dumps({k: v for k, v in orjson.loads(x).items() if k != "seq"})
                          for x in src.splitlines())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stripped)))
    code, _, err = run(capsys, "append", str(log))
    assert code == 0 and "appended 7 event(s), seq 1..7" in err
    code, out, _ = run(capsys, "verify", str(log))
    assert code == 0 and "chain intact" in out
    code, out, _ = run(capsys, "verify", str(VECTORS / "preferans-seed-example-1.jsonl"))
    assert code == 3
    log.write_bytes(log.read_bytes().replace(b'"6S"', b'"7S"'))
    code, out, _ = run(capsys, "verify", str(log))
    assert code == 1 and ":3:" in out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"type":"game_ended","game":"zzz"}\n')))
    code, _, err = run(capsys, "append", str(tmp_path / "other.jsonl"))
    assert code == 1 and "no game_started" in err and not (tmp_path / "other.jsonl").exists()  # not even created


def test_sheet_formats_and_upto(capsys: pytest.CaptureFixture[str]) -> None:
    log = str(VECTORS / "preferans-sochi-four-deals.jsonl")
    code, out, _ = run(capsys, "sheet", log)
    assert code == 0 and "4.8" in out and "6.16" in out
    code, out, _ = run(capsys, "sheet", log, "--upto", "2", "--format", "json")
    sheet = orjson.loads(out)["games"][0]
    assert sheet["after_deal"] == 2 and sheet["sheet"]["Вова"]["mountain"] == 0
    code, out, _ = run(capsys, "sheet", log, "--format", "csv")
    assert out.startswith("game,after_deal,player,field,value\n") and "Вова,mountain,16" in out


def test_cyrillic_names_line_up(capsys: pytest.CaptureFixture[str]) -> None:
    from vistlog.projections.render import width

    code, out, _ = run(capsys, "settle", str(SAMPLES / "solo-whist-evening.jsonl"))
    rows = [line for line in out.splitlines() if line[:4] in ("Маша", "Петя", "Оля ", "Коля")]
    assert code == 0 and len(rows) == 4 and len({width(r) for r in rows}) == 1


def test_verify_with_a_remembered_head(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    log = str(tmp_path / "g.jsonl")
    first = b"".join(orjson.dumps(e) + b"\n" for e in (
        {"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"], "pool": 10,
         "rules": {"preset": "sochi"}},
        {"type": "deal_started", "game": "g", "deal": 1, "dealer": "A"}))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(first)))
    assert run(capsys, "append", log)[0] == 0
    code, out, _ = run(capsys, "verify", log)
    head = out.split("head ")[1].strip()
    assert code == 0 and len(head) == 64
    code, out, _ = run(capsys, "verify", log, "--head", head)
    assert code == 0 and out.endswith(f"{log}: the remembered head is line 2, the last line\n")
    with open(log, "rb") as fh:
        one_line = fh.readline()
    with open(log, "wb") as fh:
        fh.write(one_line)
    code, out, _ = run(capsys, "verify", log, "--head", head)
    assert code == 1 and "removed from its end" in out
    code, _, err = run(capsys, "verify", log, "--head", "abc")
    assert code == 2 and "64 hexadecimal digits" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.metadata

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"vistlog {importlib.metadata.version('vistlog')} · {vistlog.build.describe()} · "
                          "open-hand solver: ")
    assert ("compiled (C)" in out) == vistlog.SOLVER_COMPILED


HEAVY = ("vistlog.projections.render", "vistlog.projections.solver", "vistlog.projections.analysis",
         "vistlog.projections.stats", "vistlog.projections.audit", "vistlog.events.importers.csv_protocol",
         "vistlog.pad", "vistlog.views", "vistlog.archive")
"""What only some commands need: the renderers, the solver and its analysis, the statistics, the audit, an importer,
the pad."""


@pytest.mark.parametrize(("argv", "allowed"), [
    (["--version"], ()),
    (["validate", "samples/sochi-evening.jsonl"], ()),
    (["deal", "{log}", "распасы; Аня 4 Боря 3 Вова 3"], ()),
    (["settle", "samples/sochi-evening.jsonl"], ("vistlog.projections.render", "vistlog.views")),
])
def test_a_command_imports_only_what_it_needs(argv: list[str], allowed: tuple[str, ...], tmp_path: Path) -> None:
    """Every command pays only for itself (issue 45): ``--version``, ``validate`` and ``deal`` import no renderer,
    solver, statistics, importer or pad; ``settle`` only the renderers. Each runs in a fresh interpreter."""
    lines = (ROOT / "samples" / "sochi-evening.jsonl").read_bytes().splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if b'"deal_started"' in line)
    (tmp_path / "evening.jsonl").write_bytes(b"".join(lines[:last]))  # 42 deals: the 43rd is still to come
    argv = [a.replace("{log}", str(tmp_path / "evening.jsonl")) for a in argv]
    probe = ("import contextlib, io, sys\nfrom vistlog.cli import main\n"
             f"with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
             f"    code = main({argv!r})\n"
             f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    imported = eval(done.stdout.strip().splitlines()[-1])  # noqa: S307 - a list of module names we printed
    assert [m for m in imported if m not in allowed] == []


def test_the_parser_knows_every_command_and_makes_only_the_one_asked_for() -> None:
    """``vistlog COMMAND`` builds that command's arguments alone (start-up, issue 45), and the names it knows are
    the full parser's."""
    full = vistlog.cli.build_parser()
    choices = next(a for a in full._actions if a.dest == "command").choices
    assert tuple(choices) == vistlog.cli.commands() and len(choices) == 15
    one = vistlog.cli.build_parser("deal")
    assert list(next(a for a in one._actions if a.dest == "command").choices) == ["deal"]
    assert one.parse_args(["deal", "log.jsonl", "raspas; A 5 B 3 C 2"]).line == "raspas; A 5 B 3 C 2"


def test_rules_and_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "leningrad" in out and "encyclopedia" in out
    code, out, _ = run(capsys, "rules", "classic")
    assert code == 0 and "raspas_progression" in out and "1, 2, 4" in out
    code, out, _ = run(capsys, "schema")
    schema = orjson.loads(out)
    assert set(schema["$defs"]) >= {"game_started", "tricks", "score_recorded"}


def test_audit_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "audit", str(SAMPLES / "disputed-sheet.jsonl"))
    assert code == 1 and "mountain of Вова" in out and "part by deal" in out
    code, out, _ = run(capsys, "audit", str(SAMPLES / "sochi-evening.jsonl"))
    assert code == 0


def test_console_script_and_module_run() -> None:
    out = subprocess.run([sys.executable, "-m", "vistlog", "settle", str(VECTORS / "preferans-seed-example-2.jsonl"),
                          "--format", "json"], capture_output=True, cwd=ROOT)
    assert out.returncode == 0 and orjson.loads(out.stdout)["games"][0]["result"]["Юг"] == "-116"


@settings(max_examples=30)
@given(st.lists(st.binary(max_size=80) | st.sampled_from([b'{"seq":1}', b'{"type":"tricks"}', b"{}", b"null"]),
                min_size=1, max_size=6))
def test_no_input_ends_in_a_traceback(tmp_path_factory: pytest.TempPathFactory, lines: list[bytes]) -> None:
    log = tmp_path_factory.mktemp("g") / "g.jsonl"
    head = (VECTORS / "preferans-sochi-four-deals.jsonl").read_bytes().splitlines(keepends=True)[:3]
    log.write_bytes(b"".join(head) + b"\n".join(lines))
    for cmd in ("validate", "settle", "audit", "replay", "sheet"):
        proc_code = main([cmd, str(log)])
        assert proc_code in (0, 1, 2)


def test_import_and_export_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for p in sorted(SAMPLES.glob("*.jsonl"))[:3]:
        (folder / p.name).write_bytes(p.read_bytes())
    (folder / "zz-broken.jsonl").write_bytes(b"not json at all\n")
    log = tmp_path / "all.jsonl"
    code, _, err = run(capsys, "import", "--from", "jsonl", str(folder), "-o", str(log))
    assert code == 2 and "imported 3 game(s) from 4 source(s)" in err and "zz-broken.jsonl" in err
    code, out, _ = run(capsys, "verify", str(log))
    assert code == 0
    code, out, _ = run(capsys, "export", "--to", "csv", str(log), "--game", "classic-2026-11-29")
    assert code == 0 and out.startswith("# game: classic-2026-11-29\n")
    code, _, err = run(capsys, "export", "--to", "pbn", str(log), "--game", "classic-2026-11-29")
    assert code == 2 and "Solo Whist" in err
    code, _, err = run(capsys, "import", "--from", "jsonl", str(folder), "-o", str(log))
    assert code == 2 and "already in" in err and "imported 0 game(s)" in err


def test_strict_stops_at_the_first_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "two.jsonl"
    lines = (VECTORS / "preferans-sochi-four-deals.jsonl").read_bytes().splitlines()
    lines[3] = lines[3].replace(b'"whist"}', b'"maybe"}')
    lines[10] = lines[10].replace(b'"taken": {', b'"taken": {"X": 1, ')
    log.write_bytes(b"\n".join(lines) + b"\n")
    code, out, _ = run(capsys, "validate", str(log))
    assert code == 1 and len(out.splitlines()) >= 2
    code, out, err = run(capsys, "validate", "--strict", str(log))
    assert code == 1 and len(out.splitlines()) == 1 and "stopped at the first" in err


def test_rules_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "rostov", "--format", "json")
    opts = orjson.loads(out)["options"]
    assert code == 0 and opts["whister_penalty_rate"] == "1/2" and opts["raspas_mode"] == "whists"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_reading_progress_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    log = str(SAMPLES / "sochi-evening.jsonl")
    monkeypatch.setattr(vistlog.output.Progress, "MIN_SIZE", 0)
    monkeypatch.setattr(vistlog.output.Progress, "EVERY", 0.0)
    code, quiet_out, quiet_err = run(capsys, "validate", log)
    assert code == 0 and "%" not in quiet_err  # standard error is not a terminal here
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    code = main(["validate", log])
    shown = term.getvalue()
    assert code == 0 and capsys.readouterr().out == quiet_out
    steps = [int(part.split(": ")[1].rstrip("% ")) for part in shown.split("\r") if part.endswith("% ")]
    assert steps and steps == sorted(steps) and steps[0] > 0 and steps[-1] <= 100
    assert shown.endswith("\r" + " " * (len(log) + 8) + f"\r{log}: ok, 1 game(s)\n")  # wiped, then the verdict


def test_settle_text_writes_zero_without_a_sign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "z.jsonl"
    log.write_bytes(
        b'{"v":1,"seq":1,"type":"game_started","game":"g","kind":"preferans","players":["A","B","C"],"pool":10,'
        b'"rules":{"preset":"sochi"}}\n{"v":1,"seq":2,"type":"game_ended","game":"g","reason":"agreed"}\n')
    code, out, _ = run(capsys, "settle", str(log))
    assert code == 0 and out.splitlines()[0] == "g · Preferans · sochi · 0 deals"
    assert [line.split() for line in out.splitlines()[2:5]] == [["A", "0", "0"], ["B", "0", "0"], ["C", "0", "0"]]


@pytest.mark.parametrize("columns", ["100", "0", "x", None])
def test_the_help_is_as_wide_as_shutil_says(monkeypatch: pytest.MonkeyPatch, columns: str | None) -> None:
    """The parser finds the terminal's width without importing :mod:`shutil`, as :func:`shutil.get_terminal_size`
    finds it."""
    import shutil

    from vistlog.cli import _width

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _width() == shutil.get_terminal_size().columns
