"""The score pad's server without a page: bad requests, an upload, a keyed log, a server killed mid-write
(``vistlog serve`` in its own process, as in :mod:`tests.test_pad`)."""

from __future__ import annotations

import contextlib
import http.client
import subprocess
import sys
import threading
import time
from pathlib import Path

import vistlog

from .test_pad import G, ROOT, Server, request, server

__all__ = ["server"]  # the fixture, used here as in test_pad


def test_bad_requests_get_a_reason_and_the_server_goes_on(server: Server) -> None:
    pad = {"X-Vistlog-Pad": "1"}
    assert request(server.base + "/api/record", raw=b"not json", headers=pad)[0] == 400
    assert request(server.base + "/api/record", raw=b"x" * (70 * 1024), headers=pad)[0] == 413
    status, body = request(server.base + "/api/record", {"line": "dealer Петя; Петя 6S"}, pad)
    assert status == 422 and "no game is under way" in body["error"]
    status, body = request(server.base + "/api/record", {"events": [{"type": "game_started"}]}, pad)
    assert status == 422 and "game" in body["error"]
    # a page of another site cannot write: no header, or a foreign Origin
    assert request(server.base + "/api/record", {"events": []})[0] == 403
    assert request(server.base + "/api/record", {"events": []}, {**pad, "Origin": "http://evil.example"})[0] == 403
    assert request(server.base + "/../../etc/passwd")[0] == 404
    assert request(server.base + "/static/..%2f..%2fpad.py")[0] == 404
    assert request(server.base + "/download/log")[0] == 404
    assert request(server.base + "/api/analysis?deal=x")[0] == 400
    assert request(server.base + "/api/analysis?deal=1")[0] == 404  # no game: nothing to analyse
    assert request(server.base + "/api/version")[0] == 200
    assert server.proc.poll() is None


def test_upload_imports_another_programs_file(server: Server) -> None:
    data = (ROOT / "samples" / "sochi-protocol.csv").read_bytes()
    status, body = request(server.base + "/api/upload?format=csv&name=../../evil.csv", raw=data,
                           headers={"X-Vistlog-Pad": "1"})
    assert status == 200, body
    assert body["imported"]
    log = Path(server.printed[0].split(" over ")[1].split(" at ")[0])
    assert vistlog.verify(log).status == "ok"
    assert not (log.parent / "evil.csv").exists()
    status, state = request(server.base + "/api/state")
    assert state["games"][0]["id"] == body["imported"][0]


def test_a_keyed_log_stays_keyed_and_the_pad_refuses_it_without_the_key(tmp_path: Path) -> None:
    key = tmp_path / "club.key"
    key.write_bytes(b"a secret of the club")
    log = tmp_path / "club.jsonl"
    vistlog.append(log, [{"type": "game_started", "game": G, "kind": "preferans", "players": ["Аня", "Боря", "Вова"],
                          "pool": 20, "rules": {"preset": "sochi"}}], key_file=key)
    refused = subprocess.run([sys.executable, "-m", "vistlog", "serve", str(log), "--port", "0"],
                             capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and "keyed" in refused.stderr and "Traceback" not in refused.stderr
    s = Server(log, "--key-file", str(key))
    try:
        status, _ = request(s.base + "/api/record", {"line": "dealer Аня; Боря 6S; Вова pass, Аня pass"},
                            {"X-Vistlog-Pad": "1"})
        assert status == 200
    finally:
        s.stop()
    assert b'"_mac"' in log.read_bytes().splitlines()[-1]
    assert vistlog.verify(log, key_file=key).status == "ok"
    assert vistlog.verify(log).status == "keyed"  # without the key: followed, not proven


def test_a_server_killed_in_the_middle_of_writes_leaves_a_log_verify_and_validate_accept(tmp_path: Path) -> None:
    log = tmp_path / "k.jsonl"
    s = Server(log)
    request(s.base + "/api/record", {"events": [
        {"type": "game_started", "game": G, "kind": "preferans", "players": ["Аня", "Боря", "Вова"], "pool": 1000,
         "rules": {"preset": "sochi"}}]}, {"X-Vistlog-Pad": "1"})
    stop = threading.Event()

    def hammer() -> None:
        first = True
        while not stop.is_set():
            line = ("dealer Аня; " if first else "") + "raspas; Боря 3 Вова 3"
            with contextlib.suppress(OSError, http.client.HTTPException):  # the server is killed mid-answer
                status, _ = request(s.base + "/api/record", {"line": line}, {"X-Vistlog-Pad": "1"})
                first = first and status != 200

    worker = threading.Thread(target=hammer, daemon=True)
    worker.start()
    time.sleep(1.0)
    s.proc.kill()
    s.proc.wait()
    stop.set()
    worker.join(5)
    assert vistlog.verify(log).status == "ok"
    done = subprocess.run([sys.executable, "-m", "vistlog", "validate", str(log)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(log.read_bytes().splitlines()) > 3
