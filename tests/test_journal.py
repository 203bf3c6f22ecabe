"""The append journal (``LOG.append-journal``) cannot be turned against the log (issue 34, items 4, 5, 6).

- A journal planted as a link (or a file that is no plain file of the log's owner) is refused: no file
  is created or truncated through it, nothing is appended.
- Two appends start a new log at once and the first one's write fails: the second one's events are
  in the log at its path, not in a file unlinked under it.
- A journal left by an append killed mid-write no longer cuts a log restored from a copy since.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import vistlog
from vistlog.events import log as logmod

from .conftest import patches_inside

START = {"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"], "pool": 50,
         "rules": {"preset": "sochi"}}


def _deal(n: int, dealer: str) -> list[dict[str, Any]]:
    return [{"type": "deal_started", "game": "g", "deal": n, "dealer": dealer},
            {"type": "tricks", "game": "g", "deal": n, "taken": {"A": 4, "B": 3, "C": 3}}]


DEALERS = ["C", "A", "B"]


def _events(deals: range) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in deals:
        out += _deal(n, DEALERS[(n - 1) % 3])
    return out


def test_a_journal_planted_as_a_link_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    log = tmp_path / "club.jsonl"
    vistlog.append(log, [START, *_events(range(1, 3))])
    before = log.read_bytes()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    journal = Path(str(log) + ".append-journal")
    journal.symlink_to(victim)
    with pytest.raises(vistlog.LogUnreadable, match="symbolic link"):
        vistlog.append(log, _events(range(3, 4)))
    assert victim.read_text() == "precious\n" and log.read_bytes() == before
    done = subprocess.run([sys.executable, "-m", "vistlog", "append", str(log)], input=b"", capture_output=True)
    assert done.returncode == 2
    # a link to a file that does not exist yet: it is not created through the link either
    journal.unlink()
    journal.symlink_to(tmp_path / "created-through-the-link")
    with pytest.raises(vistlog.LogUnreadable):
        vistlog.append(log, _events(range(3, 4)))
    assert not (tmp_path / "created-through-the-link").exists() and log.read_bytes() == before
    # readers ignore it: the log reads whole
    assert vistlog.verify(log).status == "ok"
    journal.unlink()
    assert [e.seq for e in vistlog.append(log, _events(range(3, 4)))] == [6, 7]


def test_a_journal_of_another_owner_or_not_a_file_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "club.jsonl"
    vistlog.append(log, [START])
    journal = Path(str(log) + ".append-journal")
    journal.mkdir()
    with pytest.raises(vistlog.LogUnreadable, match="not a regular file"):
        vistlog.append(log, _events(range(1, 2)))
    journal.rmdir()
    if os.geteuid() == 0:  # only root may give a file to another user
        journal.write_text("0\n")
        os.chown(journal, 54321, -1)
        with pytest.raises(vistlog.LogUnreadable, match="another user"):
            vistlog.append(log, _events(range(1, 2)))
        assert vistlog.verify(log).status == "ok"  # and readers do not honour it


@patches_inside(logmod)
def test_the_first_appends_failed_write_never_removes_a_file_another_writer_holds(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch
                                                                                   ) -> None:
    log = tmp_path / "new.jsonl"
    real = logmod._write_all_or_nothing
    calls = {"n": 0}
    second: dict[str, Any] = {}

    def other_writer() -> None:
        try:
            second["done"] = vistlog.append(log, [START, *_events(range(1, 2))])
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            second["error"] = exc

    def failing(path: str, fd: int, blob: bytes, size: int) -> None:
        calls["n"] += 1
        if calls["n"] > 1:
            return real(path, fd, blob, size)
        worker = threading.Thread(target=other_writer)
        worker.start()
        second["thread"] = worker
        time.sleep(0.5)  # the other writer has opened the file this append created and waits on its lock
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(logmod, "_write_all_or_nothing", failing)
    with pytest.raises(vistlog.OutputError, match="No space left"):
        vistlog.append(log, [START])
    second["thread"].join(10)
    assert "error" not in second, second.get("error")
    assert [e.seq for e in second["done"]] == [1, 2, 3]
    assert log.exists(), "the second writer's events went into an unlinked file"
    assert [e.type for e in vistlog.game_events(log)] == ["game_started", "deal_started", "tricks"]
    assert vistlog.verify(log).status == "ok"


def _killed_append(log: Path, events: list[dict[str, Any]], keep: int) -> None:
    """Leave the log as an append killed after writing ``keep`` bytes of its lines leaves it."""
    real = logmod._write_all_or_nothing

    def torn(path: str, fd: int, blob: bytes, size: int) -> None:
        journal = path + logmod.JOURNAL_SUFFIX
        jfd = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(jfd, logmod._journal_text(fd, size, blob).encode())
        os.close(jfd)
        os.write(fd, blob[:keep])
        raise SystemExit("killed")  # the journal stays: what a SIGKILL leaves

    logmod._write_all_or_nothing = torn  # type: ignore[assignment]
    try:
        with pytest.raises(SystemExit):
            vistlog.append(log, events)
    finally:
        logmod._write_all_or_nothing = real  # type: ignore[assignment]


@patches_inside(logmod)
def test_a_killed_append_is_still_undone(tmp_path: Path) -> None:
    log = tmp_path / "club.jsonl"
    vistlog.append(log, [START, *_events(range(1, 5))])
    before = log.read_bytes()
    _killed_append(log, _events(range(5, 15)), keep=100)
    assert log.read_bytes() != before
    assert vistlog.verify(log).status == "ok"  # readers stop where the append began
    warnings: list[str] = []
    vistlog.append(log, _events(range(5, 6)), warn=warnings.append)
    assert any("cut back 100 byte(s)" in w for w in warnings)
    assert [e.get("deal") for e in map(vistlog.events.codec.unstructure, vistlog.game_events(log))][-1] == 5


@patches_inside(logmod)
@pytest.mark.parametrize("restore", ["a new file", "in place"])
def test_a_stale_journal_does_not_cut_a_log_restored_from_a_copy(tmp_path: Path, restore: str) -> None:
    log = tmp_path / "club.jsonl"
    vistlog.append(log, [START, *_events(range(1, 5))])  # 9 lines
    full = tmp_path / "backup.jsonl"
    shutil.copy(log, full)
    vistlog.append(full, _events(range(5, 16)))  # the backup holds 31 lines
    _killed_append(log, _events(range(5, 8)), keep=50)  # killed: the journal stays
    if restore == "a new file":
        shutil.copy(full, tmp_path / "restored.tmp")
        os.replace(tmp_path / "restored.tmp", log)
    else:
        shutil.copyfile(full, log)  # written over, the same inode
    lines = len(full.read_bytes().splitlines())
    result = vistlog.verify(log)
    assert result.status == "ok" and result.lines == lines, result
    warnings: list[str] = []
    vistlog.append(log, _events(range(16, 17)), warn=warnings.append)
    assert any("ignored and removed" in w for w in warnings), warnings
    assert not os.path.exists(str(log) + ".append-journal")
    assert len(log.read_bytes().splitlines()) == lines + 2


# ----------------------------------------------------------------------------- bounded by the input (item 10)

def _limited(code: str, stdin: Any, limit_mb: int = 400) -> subprocess.CompletedProcess[bytes]:
    """Run ``code`` in a child whose address space is limited: a line held whole would not fit."""
    prelude = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (%d << 20, %d << 20)); "
               % (limit_mb, limit_mb))
    return subprocess.run([sys.executable, "-c", prelude + code], stdin=stdin, capture_output=True, timeout=120)


def test_append_refuses_an_over_long_line_while_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as fh:
        fh.write(b'{"type":"game_started","game":"' + b"x" * (600 << 20) + b'"}\n')
    with open(big, "rb") as stdin:
        done = _limited("from vistlog.cli import run; sys.argv = ['vistlog', 'append', %r]; run()"
                        % str(tmp_path / "log.jsonl"), stdin)
    assert done.returncode == 2, done.stderr[-500:]
    assert b"a line of over 1048576 bytes" in done.stderr and b"Traceback" not in done.stderr
    assert not (tmp_path / "log.jsonl").exists()


def test_verify_refuses_an_endless_first_line_at_once(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "vistlog", "verify", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None
    chunk = b"x" * (1 << 16)
    written = 0
    try:
        while proc.poll() is None and written < (64 << 20):  # an endless stream: it must stop reading by itself
            proc.stdin.write(chunk)
            written += len(chunk)
    except BrokenPipeError:
        pass
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and b"not a JSON Lines log" in err
    assert written < (64 << 20)
