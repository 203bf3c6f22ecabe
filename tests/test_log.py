"""The log file: streaming read, torn lines, all-or-nothing locked append, the hash chain."""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vistlog.events.codec import decode
from vistlog.events.log import AppendRejected, LogUnreadable, Problem, append, read_events, verify
from vistlog.cli import main as cli_main
from vistlog.events.checker import LogChecker
from vistlog.projections.fold import Pipeline

from .conftest import ROOT, VECTORS


def classic_game(game: str, deals: int, players: tuple[str, ...] = ("A", "B", "C")) -> list[dict[str, Any]]:
    """A legal game of ``2 + 4 × deals`` events without seq (append assigns it)."""
    evs: list[dict[str, Any]] = [{"type": "game_started", "game": game, "kind": "preferans",
                                  "players": list(players), "pool": 10, "rules": {"preset": "classic"}}]
    for k in range(deals):
        dealer = players[k % 3]
        first = players[(k + 1) % 3]
        evs += [{"type": "deal_started", "game": game, "deal": k + 1, "dealer": dealer},
                {"type": "contract", "game": game, "deal": k + 1, "declarer": first, "contract": "6S"},
                {"type": "whist", "game": game, "deal": k + 1, "player": players[(k + 2) % 3], "call": "pass"},
                {"type": "whist", "game": game, "deal": k + 1, "player": dealer, "call": "pass"}]
    evs.append({"type": "game_ended", "game": game})
    return evs


def do_append(path: str, events: list[dict[str, Any]]) -> list[Any]:
    return append(path, list(enumerate((dict(e) for e in events), start=1)), lambda: LogChecker().admit)


def problems_of(path: str) -> list[str]:
    from vistlog.projections.fold import run

    return [str(x) for x in run(path) if isinstance(x, Problem)]


def test_append_then_read_and_verify(tmp_path: Path) -> None:
    log = str(tmp_path / "g.jsonl")
    do_append(log, classic_game("g", 3))
    assert problems_of(log) == []
    res = verify(log)
    assert res.status == "ok" and res.chained == 14
    seqs = [e.seq for _, e in read_events(log)]
    assert seqs == list(range(1, 15))


def test_append_is_all_or_nothing(tmp_path: Path) -> None:
    log = str(tmp_path / "g.jsonl")
    evs = classic_game("g", 2)
    do_append(log, evs[:3])
    before = Path(log).read_bytes()
    bad = evs[3:-1] + [{"type": "tricks", "game": "g", "deal": 2, "taken": {"A": 11}}]
    with pytest.raises(AppendRejected) as info:
        do_append(log, bad)
    assert Path(log).read_bytes() == before
    assert any("taken" in p.field for p in info.value.problems)


def _worker(args: tuple[str, str]) -> int:
    path, game = args
    for ev in classic_game(game, 37):
        do_append(path, [ev])
    return 0


def test_two_processes_appending_300_events_leave_300_whole_lines_and_an_intact_chain(tmp_path: Path) -> None:
    log = str(tmp_path / "g.jsonl")
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        assert pool.map(_worker, [(log, "a"), (log, "b")]) == [0, 0]
    lines = Path(log).read_bytes().splitlines()
    assert len(lines) == 300
    assert all(orjson.loads(line) for line in lines)
    assert verify(log).status == "ok"
    assert problems_of(log) == []


def _batch(tmp_path: Path) -> tuple[Path, bytes, list[dict[str, Any]], bytes]:
    """A log of one open game, the events of a second game, and the exact bytes they append."""
    log = tmp_path / "g.jsonl"
    do_append(str(log), classic_game("g", 2)[:-1])
    before = log.read_bytes()
    new = classic_game("h", 3)
    full = tmp_path / "full.jsonl"
    full.write_bytes(before)
    do_append(str(full), new)
    return log, before, new, full.read_bytes()[len(before):]


def _assert_as_before(log: Path, before: bytes) -> None:
    """Every reader sees the log exactly as it was before the failed append."""
    items = list(read_events(str(log)))
    assert [i for _, i in items if isinstance(i, Problem)] == []
    assert len(items) == len(before.splitlines())
    res = verify(str(log))
    assert res.status == "ok" and res.chained == len(before.splitlines())


def test_appender_killed_at_a_random_moment_leaves_the_log_as_it_was(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    do_append(str(log), classic_game("g", 2)[:-1])
    before = log.read_bytes()
    script = (
        "import sys; sys.path.insert(0, %r)\n"
        "from tests.test_log import classic_game, do_append\n"
        "evs = classic_game('h', 20000)\n"
        "print('go', flush=True)\n"
        "do_append(%r, evs)\n" % (str(ROOT), str(log))
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"go"
    time.sleep(0.3)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    if log.read_bytes() != before:  # killed after the checks: the journal keeps what the log was
        _assert_as_before(log, before)
    do_append(str(log), [{"type": "game_ended", "game": "g"}])
    assert log.read_bytes().startswith(before) and len(log.read_bytes().splitlines()) == len(before.splitlines()) + 1
    assert verify(str(log)).status == "ok" and not os.path.exists(str(log) + ".append-journal")


CUTS = ["inside the first line", "inside a line", "inside the chain value", "after a whole line", "one byte short"]


def _cut_at(before: bytes, blob: bytes, cut: str) -> int:
    lines = blob.splitlines(keepends=True)
    third = len(before) + sum(len(x) for x in lines[:2])
    return {"inside the first line": len(before) + 5, "inside a line": third + 20,
            "inside the chain value": third + len(lines[2]) - 30, "after a whole line": third,
            "one byte short": len(before) + len(blob) - 1}[cut]


@pytest.mark.parametrize("cut", CUTS)
def test_appender_killed_inside_its_write_syscall(tmp_path: Path, cut: str) -> None:
    """The process dies inside its one ``write``, at a byte we choose: the child's file-size
    limit (RLIMIT_FSIZE) ends the write there and, with SIGXFSZ's default action restored,
    the kernel kills the process on the spot, as SIGKILL would: no cleanup code runs."""
    log, before, new, blob = _batch(tmp_path)
    limit = _cut_at(before, blob, cut)
    script = (
        "import os, resource, signal, sys; sys.path.insert(0, %r)\n"
        "from tests.test_log import classic_game, do_append\n"
        "evs = classic_game('h', 3)\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (%d, %d))\n"
        "do_append(%r, evs)\n" % (str(ROOT), limit, limit, str(log))
    )
    proc = subprocess.run([sys.executable, "-c", script], timeout=60, capture_output=True)
    assert proc.returncode == -signal.SIGXFSZ, proc.stderr.decode()
    assert log.read_bytes() == before + blob[:limit - len(before)]  # the write really ended there
    assert os.path.exists(str(log) + ".append-journal")
    _assert_as_before(log, before)
    assert cli_main(["validate", str(log)]) == 0  # the half batch is not seen: no torn line, no open deal
    do_append(str(log), new)  # the next append undoes the unfinished one, then appends
    assert log.read_bytes() == before + blob
    assert not os.path.exists(str(log) + ".append-journal")


@pytest.mark.parametrize("cut", CUTS)
def test_a_failed_write_is_undone_at_once(tmp_path: Path, cut: str) -> None:
    """A file-size limit makes the write fail (EFBIG): the log is cut back before append returns."""
    log, before, _, blob = _batch(tmp_path)
    limit = _cut_at(before, blob, cut)
    script = (
        "import resource, sys; sys.path.insert(0, %r)\n"
        "from tests.test_log import classic_game, do_append\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (%d, %d))\n"
        "try:\n"
        "    do_append(%r, classic_game('h', 3))\n"
        "except OSError as exc:\n"
        "    print(exc.errno)\n" % (str(ROOT), limit, limit, str(log))
    )
    proc = subprocess.run([sys.executable, "-c", script], timeout=60, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == str(errno.EFBIG), proc.stderr
    assert log.read_bytes() == before and not os.path.exists(str(log) + ".append-journal")


def test_the_cli_append_on_a_full_disk_leaves_the_log_as_it_was(tmp_path: Path) -> None:
    """A small tmpfs filled to the brim (where this test may mount one; as root it can)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here; the file-size limit tests cover a short write")
    try:
        log = disk / "g.jsonl"
        do_append(str(log), classic_game("g", 2)[:-1])
        before = log.read_bytes()
        filler = disk / "filler"
        with contextlib.suppress(OSError), open(filler, "wb") as fh:
            while True:
                fh.write(b"x" * 512)
                fh.flush()
        evs = b"".join(orjson.dumps(e) + b"\n" for e in classic_game("h", 30))
        proc = subprocess.run([sys.executable, "-m", "vistlog", "append", str(log)], input=evs,
                              capture_output=True, timeout=60)
        assert proc.returncode == 2 and b"cannot write" in proc.stderr and b"Traceback" not in proc.stderr
        assert log.read_bytes() == before and not os.path.exists(str(log) + ".append-journal")
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_remembered_head_catches_lines_cut_from_the_end(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    do_append(str(log), classic_game("g", 2)[:-1])
    head = verify(str(log)).head
    assert head is not None
    res = verify(str(log), head)
    assert (res.status, res.head_at, res.since_head) == ("ok", 9, 0)
    do_append(str(log), [{"type": "game_ended", "game": "g"}])
    res = verify(str(log), head)
    assert (res.status, res.head_at, res.since_head) == ("ok", 9, 1)
    lines = log.read_bytes().splitlines(keepends=True)
    for keep in range(1, 9):  # every cut that reaches back past the head is caught
        log.write_bytes(b"".join(lines[:keep]))
        assert verify(str(log)).status == "ok"  # the file alone cannot tell
        cut = verify(str(log), head)
        assert cut.status == "broken" and "removed from its end" in cut.message
    other = tmp_path / "other.jsonl"
    do_append(str(other), classic_game("x", 2))
    assert verify(str(other), head).status == "broken"  # another log


def test_a_torn_last_line_is_reported_and_cut_by_the_next_append(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    do_append(str(log), classic_game("g", 1)[:-1])
    data = log.read_bytes()
    log.write_bytes(data + b'{"v":1,"seq":6,"type":"game_en')
    items = list(read_events(str(log)))
    assert isinstance(items[-1][1], Problem) and "torn last line" in items[-1][1].message
    assert sum(not isinstance(i, Problem) for _, i in items) == 5
    warned: list[str] = []
    append(str(log), [(1, {"type": "game_ended", "game": "g"})], lambda: LogChecker().admit,
           warn=warned.append)
    assert warned and "torn" in warned[0]
    assert verify(str(log)).status == "ok" and problems_of(str(log)) == []


@pytest.mark.parametrize("how", ["change", "insert", "remove", "swap", "duplicate"])
def test_verify_catches_tampering(tmp_path: Path, how: str) -> None:
    log = tmp_path / "g.jsonl"
    do_append(str(log), classic_game("g", 3))
    original = log.read_bytes()
    lines = original.splitlines(keepends=True)
    if how == "change":
        lines[2] = lines[2].replace(b'"6S"', b'"7S"')
    elif how == "insert":
        lines.insert(3, lines[3])
    elif how == "remove":
        del lines[5]
    elif how == "swap":
        lines[6], lines[7] = lines[7], lines[6]
    else:
        lines.append(lines[-1])
    log.write_bytes(b"".join(lines))
    assert log.read_bytes() != original
    res = verify(str(log))
    assert res.status == "broken" and res.line is not None


def test_unchained_log_and_chain_over_a_hand_written_head(tmp_path: Path) -> None:
    vec = VECTORS / "preferans-seed-example-1.jsonl"
    assert verify(str(vec)).status == "unchained"
    log = tmp_path / "g.jsonl"
    head = vec.read_bytes().splitlines(keepends=True)[:-1]
    log.write_bytes(b"".join(head))
    do_append(str(log), [{"type": "game_ended", "game": "seed-001-example-1"}])
    assert verify(str(log)).status == "ok"
    changed = log.read_bytes().replace('"Север", "call": "pass"'.encode(), '"Север", "call": "whist"'.encode())
    assert changed != log.read_bytes()
    log.write_bytes(changed)
    assert verify(str(log)).status == "broken"


@pytest.mark.parametrize("content,words", [(b"", "empty"), (b"\n\n", "empty"),
                                           (b"\x00\x01\x02binary", "not a JSON Lines log"),
                                           (b"hello world\n", "not a JSON Lines log"),
                                           (b"[1,2]\n", "not a JSON Lines log")])
def test_unreadable_input(tmp_path: Path, content: bytes, words: str) -> None:
    log = tmp_path / "x.jsonl"
    log.write_bytes(content)
    with pytest.raises(LogUnreadable, match=words):
        list(read_events(str(log)))


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(LogUnreadable, match="cannot open"):
        list(read_events(str(tmp_path / "nope.jsonl")))
    with pytest.raises(LogUnreadable, match="folder"):
        list(read_events(str(tmp_path)))


def test_reading_streams_line_by_line() -> None:
    consumed: list[int] = []

    def lines():
        for i, line in enumerate((VECTORS / "preferans-sochi-four-deals.jsonl").read_bytes().splitlines(True)):
            consumed.append(i)
            yield line

    it = read_events("x", lines())  # type: ignore[arg-type]
    next(it)
    assert len(consumed) <= 2


@settings(max_examples=25)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=5))
def test_append_then_read_gives_back_the_events(tmp_path_factory: Any, chunks: list[int]) -> None:
    log = str(tmp_path_factory.mktemp("a") / "g.jsonl")
    evs = classic_game("g", sum(chunks))
    sent: list[dict[str, Any]] = []
    pos = 0
    for n in chunks + [10**6]:
        part = evs[pos:pos + n]
        if not part:
            break
        do_append(log, part)
        sent += part
        pos += n
    read = [e for _, e in read_events(log)]
    assert len(read) == len(sent)
    for ev, raw in zip(read, sent):
        assert ev == decode(orjson.dumps({**raw, "seq": ev.seq}))
    assert verify(log).status == "ok"
    assert os.path.getsize(log) > 0


def test_checked_reading_yields_only_what_the_checker_refuses(tmp_path: Path) -> None:
    from vistlog.events.log import Refused

    log = tmp_path / "g.jsonl"
    evs = classic_game("g", 2)
    evs[4]["player"] = evs[3]["player"]  # the second pass of deal 1 comes from the same player
    log.write_bytes(b"".join(orjson.dumps({**e, "seq": i}) + b"\n" for i, e in enumerate(evs, 1)))
    pipe = Pipeline(str(log), detail=False)  # with detail the fold sees a deal's events (claims are judged)
    quiet = pipe.unkept
    assert {"BidMade", "WhistMade", "CardPlayed"} <= {t.__name__ for t in quiet}
    out = []
    for n, x in read_events(str(log), check=pipe.checker.check, quiet=quiet):
        out.append((n, x))
        if not isinstance(x, (Refused, Problem)):
            pipe.checker.check(x)  # the events the reader yields are the caller's to check
    refused = [(n, x) for n, x in out if isinstance(x, Refused)]
    assert refused[0][0] == 5  # then deal 1 never ends: what follows in its game is refused too
    assert [n for n, x in out if not isinstance(x, Refused)] == [1, 2, 6, 10]
    assert refused[0][1].issues and refused[0][1].event.seq == 5
    assert not any(type(x) in quiet for _, x in out)  # the legal ones were checked and dropped
    assert [type(x).__name__ for _, x in out][:2] == ["GameStarted", "DealStarted"]


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_checked_reading_folds_exactly_as_reading_then_checking(tmp_path_factory: Any, data: Any) -> None:
    from vistlog.projections.fold import fold_events, run

    name = data.draw(st.sampled_from(sorted(p.name for p in VECTORS.glob("*.jsonl"))))
    lines = (VECTORS / name).read_bytes().splitlines(True)
    how = data.draw(st.sampled_from(["as-is", "drop", "swap", "repeat"]))
    i = data.draw(st.integers(0, len(lines) - 2))
    if how == "drop":
        del lines[i]
    elif how == "swap":
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif how == "repeat":
        lines.insert(i, lines[i])
    log = tmp_path_factory.mktemp("c") / name
    log.write_bytes(b"".join(lines))
    def canon(x: Any) -> str:  # a result's running totals are a plain object: compared by their fields
        totals = getattr(x, "totals", None)
        return re.sub(r" at 0x[0-9a-f]+", "", repr(x)) + (repr(totals) if totals is not None else "")

    for detail in (True, False):
        checked = [canon(x) for x in run(str(log), detail=detail, events=False)]
        plain = [canon(x) for x in fold_events(str(log), read_events(str(log)), detail=detail, events=False)]
        assert checked == plain


@pytest.mark.parametrize("tamper", [False, True])
def test_a_chain_after_unchained_lines_reads_alike_from_a_path_a_file_stdin_and_a_pipe(tmp_path: Path,
                                                                                       tamper: bool) -> None:
    """The reader hashes unchained lines only when a chain begins after them, by reading them again; a
    stream that cannot be read again (a pipe, an iterable) is hashed as it goes: the verdicts agree."""
    import io

    vec = VECTORS / "preferans-seed-example-1.jsonl"
    log = tmp_path / "g.jsonl"
    head = vec.read_bytes().splitlines(keepends=True)[:-1]
    log.write_bytes(b"".join(head))
    do_append(str(log), [{"type": "game_ended", "game": "seed-001-example-1"}])
    if tamper:  # an unchained line changed after the chain was made over it
        log.write_bytes(log.read_bytes().replace('"Север", "call": "pass"'.encode(),
                                                 '"Север", "call": "whist"'.encode()))

    def codes(items: Any) -> list[str]:
        return [x.code for _, x in items if isinstance(x, Problem)]

    data = log.read_bytes()
    by_path = codes(read_events(str(log)))
    with log.open("rb") as fh:
        fh.read(0)
        assert codes(read_events("g", fh)) == by_path
    lead = io.BytesIO(b"\n\n" + data)
    lead.seek(2)  # a stream that begins part-way: read again from where it began
    assert codes(read_events("g", lead)) == by_path
    assert codes(read_events("g", iter(data.splitlines(keepends=True)))) == by_path  # type: ignore[arg-type]
    with log.open("rb") as fh:
        piped = subprocess.run([sys.executable, "-m", "vistlog", "validate", "-q", "-"], stdin=fh, capture_output=True)
    cat = subprocess.Popen(["cat", str(log)], stdout=subprocess.PIPE)
    from_pipe = subprocess.run([sys.executable, "-m", "vistlog", "validate", "-q", "-"], stdin=cat.stdout,
                               capture_output=True)
    cat.wait()
    assert piped.returncode == from_pipe.returncode == (1 if tamper else 0), (piped.stderr, from_pipe.stderr)
    assert ("chain" in by_path[0]) if tamper else not by_path, by_path
