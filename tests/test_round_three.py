"""Reliability, round three (issue 44): the pad, the deal notation, names and imports against a hostile tester.

Each test names the item of the issue it keeps fixed. The server runs as a user starts it (its own process,
``vistlog serve --port 0``); the browser checks run in Debian's headless Chromium.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import vistlog
from vistlog.events.importers import SourceError
from vistlog.events.importers.pulya import read as read_pulya
from vistlog.pad import IDLE_SECONDS, MAX_UPLOAD, Pad

from .helpers import Game, codes
from .test_hostile import _peak_kb
from .test_pad import ARGS, CHROMIUM, G, Server, request
from .test_pulya import STEPS, session

PAD = {"X-Vistlog-Pad": "1"}
PLAYERS = ["Аня", "Боря", "Вова"]


def _start(players: list[str] = PLAYERS, game: str = G, pool: int = 20) -> dict[str, Any]:
    return {"type": "game_started", "game": game, "kind": "preferans", "players": players, "pool": pool,
            "rules": {"preset": "sochi"}}


def _raw(port: int, text: str, timeout: float = 10) -> bytes:
    """Send ``text`` as it is (any Host header) and read the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(text.encode())
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


@pytest.fixture
def pad(tmp_path: Path) -> Any:
    s = Server(tmp_path / "evening.jsonl")
    s.port = int(s.base.rsplit(":", 1)[1])  # type: ignore[attr-defined]
    yield s
    s.stop()


# ----------------------------------------------------------------------------- 1. DNS rebinding

@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1.nip.io:{port}", "localhost:1", "", "attacker"])
def test_1_a_loopback_pad_answers_no_other_host_name(pad: Any, host: str) -> None:
    line = f"Host: {host.format(port=pad.port)}\r\n" if host else ""
    for request_text in (f"GET /api/state HTTP/1.1\r\n{line}Connection: close\r\n\r\n",
                         f"POST /api/record HTTP/1.1\r\n{line}X-Vistlog-Pad: 1\r\nOrigin: http://{host}\r\n"
                         "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"):
        answer = _raw(pad.port, request_text)
        assert answer.split(b"\r\n", 1)[0] in (b"HTTP/1.1 421 Misdirected Request", b"HTTP/1.1 400 Bad Request"), answer
        assert b"log" not in answer.split(b"\r\n\r\n", 1)[1] or b"answers only" in answer


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:{port}", "LOCALHOST:{port}"])
def test_1_a_loopback_pad_answers_its_own_names(pad: Any, host: str) -> None:
    answer = _raw(pad.port, f"GET /api/version HTTP/1.1\r\nHost: {host.format(port=pad.port)}\r\n"
                            "Connection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200"), answer


# ----------------------------------------------------------------------------- 2. free text in linear time

_ADVERSARIAL = ["1" * 50_000, "x" * 50_000, "help from " * 5_000, "тотус: " * 7_000, "a falls: " * 5_000,
                " 1 trick(s)" * 4_000, "(V " * 15_000, "6S " * 15_000]


def test_2_every_reason_is_said_in_russian_in_linear_time() -> None:
    """A quadratic pattern takes minutes on one of these 50,000-character texts; linear ones take
    milliseconds for all of them. The child's time-out is a guard against a hang, not a measure of speed."""
    code = ("import sys, json\nfrom vistlog.projections.words import Words\n"
            "w = Words('ru')\n"
            "for text in json.load(sys.stdin):\n"
            "    for t in (text, 'adjustment: ' + text, text + ' failed: 2 undertrick(s) × 4'):\n"
            "        w.reason(t); Words('en').reason(t)\n"
            "print('said')\n")
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(_ADVERSARIAL), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "said\n", done.stderr[-2000:]


def test_2_an_adjustments_own_words_are_said_as_written() -> None:
    from vistlog.projections.words import Words

    w = Words("ru")
    assert w.reason("adjustment: 6S failed: 2 undertrick(s) × 4 by agreement") == \
        "поправка: 6S failed: 2 undertrick(s) × 4 by agreement"
    assert w.reason("6S failed: 2 undertrick(s) × 4") == "6♠: без двух × 4"


def test_2_a_reason_is_bounded_like_a_name() -> None:
    g = Game("sochi")
    g.add("adjustment", pool={"A": 2}, reason="1" * 20_000)
    assert codes(g.fold()[1]) == ["reason-invalid"]
    g = Game("sochi")
    g.add("adjustment", pool={"A": 2}, reason="ошибка записи " * 30)
    assert codes(g.fold()[1]) == []


def test_2_a_slow_fold_never_blocks_the_cheap_routes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "slow.jsonl"
    vistlog.append(log, [_start()])
    pad = Pad(log)
    started = threading.Event()

    def slow_view(game: str, lang: str, every: bool) -> dict[str, Any] | None:
        started.set()
        time.sleep(3)
        return None

    monkeypatch.setattr(pad, "_game_view", slow_view)
    worker = threading.Thread(target=pad.state, args=(None,))
    worker.start()
    assert started.wait(5)
    t0 = time.monotonic()
    assert pad.seq() == 2  # what /api/version answers
    pad.record({"line": "dealer Аня; raspas; Боря 3 Вова 3 Аня 4"})  # and a write goes through beside it
    assert time.monotonic() - t0 < 2.5, "the cheap route waited for the fold"
    worker.join()


# ----------------------------------------------------------------------------- 3. import memory

def _protocol_csv(path: Path, deals: int) -> Path:
    rows = ["# game: big", "# kind: preferans", "# players: Аня, Боря, Вова", "# pool: 1000000",
            '# rules: {"preset":"sochi"}',
            "deal,dealer,declarer,contract,flags,whist:Аня,whist:Боря,whist:Вова,tricks:Аня,tricks:Боря,tricks:Вова"]
    rows += [f"{d},{PLAYERS[(d - 1) % 3]},,,,,,,3,3,4" for d in range(1, deals + 1)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_3_import_memory_is_flat_in_the_input(tmp_path: Path) -> None:
    """Before: a 1 MB protocol (50,000 deals) peaked at ~436 MB, each event held four times. Now the
    sound games' lines go through a spool on disk and an importer's events are held as their JSON text
    (past 4 MB in a temporary file): a four times larger file peaks a few MB higher, not four times."""
    small = _protocol_csv(tmp_path / "small.csv", 10_000)
    big = _protocol_csv(tmp_path / "big.csv", 40_000)
    peaks = []
    for src in (small, big):
        peaks.append(_peak_kb("import", "--from", "csv", str(src), "-o", str(tmp_path / f"{src.stem}.jsonl")))
        assert vistlog.verify(tmp_path / f"{src.stem}.jsonl").status == "ok"
    assert peaks[1] < peaks[0] + 24 * 1024, peaks
    assert peaks[1] < 150 * 1024, peaks


def test_3_the_pad_refuses_an_upload_past_its_limit(pad: Any) -> None:
    answer = _raw(pad.port, f"POST /api/upload?format=csv&name=big.csv HTTP/1.1\r\nHost: localhost:{pad.port}\r\n"
                            f"X-Vistlog-Pad: 1\r\nContent-Length: {MAX_UPLOAD + 1}\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 413") and b"over" in answer, answer
    assert pad.proc.poll() is None


# ----------------------------------------------------------------------------- 4. framing and the page's policy

def test_4_every_answer_forbids_framing_and_foreign_scripts(pad: Any) -> None:
    for path in ("/", "/static/pad.js", "/api/state", "/api/version", "/no-such-page"):
        with urllib.request.urlopen(urllib.request.Request(pad.base + path), timeout=10) if path != "/no-such-page" \
                else _Answer(pad.base + path) as r:
            headers = {k.lower(): v for k, v in r.headers.items()}
        assert headers["x-frame-options"] == "DENY", path
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert "script-src 'self'" in headers["content-security-policy"], path


class _Answer:
    """An error answer's headers (urllib raises on 404)."""

    def __init__(self, url: str) -> None:
        try:
            self.r: Any = urllib.request.urlopen(url, timeout=10)
        except urllib.error.HTTPError as exc:
            self.r = exc

    def __enter__(self) -> Any:
        return self.r

    def __exit__(self, *exc: object) -> None:
        self.r.close()


def test_4_another_site_cannot_frame_the_pad_and_the_page_runs_under_its_policy(pad: Any) -> None:
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    vistlog_events = [_start(), {"type": "deal_started", "game": G, "deal": 1, "dealer": "Аня"},
                      {"type": "tricks", "game": G, "deal": 1, "taken": {"Боря": 3, "Вова": 3, "Аня": 4}}]
    assert request(pad.base + "/api/record", {"events": vistlog_events}, PAD)[0] == 200
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            said: list[str] = []
            page.on("console", lambda m: said.append(m.text))
            page.goto(pad.url)
            page.wait_for_function("() => document.querySelector('#status').textContent.length > 0")
            page.click("nav button[data-tab='sheet']")
            page.wait_for_selector("#sheet svg")
            assert not [m for m in said if "Content Security Policy" in m], said
            # a page of another site (about:blank here) that frames the pad gets a blocked, empty frame
            framer = browser.new_page()
            framer.set_content(f'<iframe id="f" src="{pad.url}" width="400" height="400"></iframe>')
            framer.wait_for_timeout(1500)
            frames = [f for f in framer.frames if f is not framer.main_frame]
            assert frames and all("tab_deal" not in f.content() for f in frames)
        finally:
            browser.close()


# ----------------------------------------------------------------------------- 5. idle connections

def test_5_idle_connections_are_dropped_and_the_table_is_still_served(pad: Any) -> None:
    idle = [socket.create_connection(("127.0.0.1", pad.port), timeout=30) for _ in range(300)]
    try:
        t0 = time.monotonic()
        assert request(pad.base + "/api/version")[0] == 200  # served while 300 sockets say nothing
        assert time.monotonic() - t0 < 5
        for s in idle[:20]:
            assert s.recv(10) == b""  # closed by the server after IDLE_SECONDS
        assert time.monotonic() - t0 < IDLE_SECONDS + 10
    finally:
        for s in idle:
            s.close()
    assert pad.proc.poll() is None
    assert not any("Traceback" in line for line in pad.printed)


def test_5_the_event_loops_errors_are_one_line_a_minute_never_a_traceback() -> None:
    """At the open-file limit the accept loop fails on every try: said once a minute, in one line."""
    from vistlog.pad import _quiet_loop_errors

    said: list[str] = []
    handler = _quiet_loop_errors(said.append)
    for _ in range(1000):
        handler(None, {"message": "socket.accept() out of system resource", "exception": OSError(24, "Too many")})
    handler(None, {"message": "another error"})
    assert said == ["vistlog serve: socket.accept() out of system resource: OSError: [Errno 24] Too many",
                    "vistlog serve: another error"]


def test_5_a_request_sent_a_byte_at_a_time_is_dropped(pad: Any) -> None:
    import select

    closed = False
    with socket.create_connection(("127.0.0.1", pad.port), timeout=30) as s:
        t0 = time.monotonic()
        text = "GET /api/version HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + "a" * 1000
        for ch in text:
            if select.select([s], [], [], 0.2)[0]:
                closed = s.recv(1) == b""
                break
            try:
                s.sendall(ch.encode())
            except OSError:
                closed = True
                break
            if time.monotonic() - t0 > IDLE_SECONDS + 10:
                break
    assert closed, "a request that never ends was held"
    assert time.monotonic() - t0 < IDLE_SECONDS + 10


# ----------------------------------------------------------------------------- 6 and 11. names that look alike

@pytest.mark.parametrize("one, other", [
    ("Алёна", "Алена"), ("Аня", "аня"), ("Аня", "Aня"), ("Коля", "Kоля"), ("Петя", "Пeтя"),
])
def test_6_11_names_a_reader_cannot_tell_apart_are_refused(one: str, other: str, tmp_path: Path) -> None:
    (game,) = vistlog.read_games([_start([one, other, "Вова"])])
    assert codes(game.problems) == ["players-look-alike"]
    with pytest.raises(vistlog.AppendRejected, match="looks like"):
        vistlog.append(tmp_path / "a.jsonl", [_start([one, other, "Вова"])])
    with pytest.raises(vistlog.AppendRejected, match="looks like"):
        vistlog.Recorder(tmp_path / "b.jsonl").record([_start([one, other, "Вова"])])
    assert not (tmp_path / "a.jsonl").exists() and not (tmp_path / "b.jsonl").exists()


@pytest.mark.parametrize("name, code", [
    ("Аня ", "player-name-spaces"), ("Аня\u3000", "player-name-spaces"), ("Аня\u2800", "player-name-spaces"),
    (" Аня", "player-name-spaces"), ("\u2800", "player-name-empty"), ("\u2800\u2800", "player-name-empty"),
])
def test_11_blank_names_and_names_with_blank_ends_are_refused(name: str, code: str) -> None:
    (game,) = vistlog.read_games([_start([name, "Боря", "Вова"])])
    assert codes(game.problems) == [code]


def test_11_an_import_with_look_alike_names_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "p.csv"
    src.write_text("# game: g\n# players: Аня, Aня, Вова\n# pool: 10\n"
                   "deal,dealer,declarer,contract,flags,whist:Аня,whist:Aня,whist:Вова,tricks:Аня,tricks:Aня,"
                   "tricks:Вова\n1,Вова,,,,,,,4,3,3\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "vistlog", "import", "--from", "csv", str(src), "-o",
                           str(tmp_path / "o.jsonl")], capture_output=True, text=True)
    assert done.returncode == 1 and "looks like" in done.stdout + done.stderr
    assert not (tmp_path / "o.jsonl").exists()


def test_6_names_that_are_alike_except_for_case_are_told_apart_by_the_notation_of_a_sound_game(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    vistlog.append(log, [_start(["Алёна", "Боря", "Вова"])])
    done = subprocess.run([sys.executable, "-m", "vistlog", "deal", str(log), "dealer Вова; raspas; алена 4 боря 3"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    tricks = [e for e in vistlog.game_events(log) if e.type == "tricks"]
    assert dict(tricks[-1].taken) == {"Алёна": 4, "Боря": 3, "Вова": 3}


# ----------------------------------------------------------------------------- 7. control characters in reasons

@pytest.mark.parametrize("reason", ["a\nvoid 1", "a\x1b[2J", "a\u202ed", "a\rb", "a\u2028b"])
def test_7_a_reason_with_control_or_bidi_characters_is_refused(reason: str, tmp_path: Path) -> None:
    log = tmp_path / "r.jsonl"
    base = [_start(), {"type": "deal_started", "game": G, "deal": 1, "dealer": "Аня"},
            {"type": "tricks", "game": G, "deal": 1, "taken": {"Боря": 3, "Вова": 3, "Аня": 4}}]
    vistlog.append(log, base)
    for ev in ({"type": "deal_voided", "game": G, "deal": 1, "reason": reason},
               {"type": "adjustment", "game": G, "pool": {"Аня": 2}, "reason": reason},
               {"type": "game_ended", "game": G, "reason": reason}):
        with pytest.raises(vistlog.AppendRejected) as err:
            vistlog.append(log, [ev])
        assert err.value.problems[0].code == "reason-invalid" and err.value.problems[0].field == "reason"
    done = subprocess.run([sys.executable, "-m", "vistlog", "deal", str(log), "void 1 " + reason],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "\x1b" not in done.stderr and "Traceback" not in done.stderr
    assert len(log.read_bytes().splitlines()) == 3


# ----------------------------------------------------------------------------- 8. a thing said twice

@pytest.mark.parametrize("line, said", [
    ("Боря 6S; Вова whist, Аня pass; Боря 7 Вова 3; Боря 6 Вова 4", "said twice (Боря 7, Вова 3 and Боря 6, Вова 4)"),
    ("bomb 1 bomb 3; raspas; Аня 5 Боря 3", "'bomb' is said twice (bomb 1 and bomb 3)"),
    ("Боря 6S dark dark; Вова whist, Аня pass; Боря 7 Вова 3", "'dark' is said twice"),
    ("bids Боря 6S, Вова pass, Аня pass; bids Боря 6S; Боря 6S; Вова pass, Аня pass", "the auction is said twice"),
])
def test_8_a_thing_said_twice_is_refused_naming_both(line: str, said: str, tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    vistlog.append(log, [_start(), {"type": "deal_started", "game": G, "deal": 1, "dealer": "Аня"},
                         {"type": "tricks", "game": G, "deal": 1, "taken": {"Боря": 3, "Вова": 3, "Аня": 4}}])
    before = log.read_bytes()
    done = subprocess.run([sys.executable, "-m", "vistlog", "deal", str(log), line], capture_output=True, text=True)
    assert done.returncode == 1 and said in done.stderr and "nothing written" in done.stderr, done.stderr
    assert log.read_bytes() == before


def test_8_two_partners_are_refused() -> None:
    from vistlog.events.cards import GameKind
    from vistlog.events.game import Table
    from vistlog.events.notation import NotationError, parse_deal

    t = Table("g", GameKind.SOLO_WHIST, None, ("Аня", "Боря", "Вова", "Гена"), 4, "Аня", "Боря",
              ("Боря", "Вова", "Гена", "Аня"), None, (), False)
    with pytest.raises(NotationError, match="'partner' is said twice"):
        parse_deal("Боря prop partner Вова partner Гена; Боря 4 Вова 4 Гена 3 Аня 2", t)


# ----------------------------------------------------------------------------- 9, 10. downloads and bad requests

def test_9_downloads_of_non_ascii_names_are_served(tmp_path: Path) -> None:
    log = tmp_path / "пулька.jsonl"
    vistlog.append(log, [_start(game="вечер"), {"type": "deal_started", "game": "вечер", "deal": 1, "dealer": "Аня"},
                         {"type": "tricks", "game": "вечер", "deal": 1, "taken": {"Боря": 3, "Вова": 3, "Аня": 4}}])
    s = Server(log)
    try:
        for what, name in (("log", "пулька.jsonl"), ("html", "вечер.html"), ("csv", "вечер.csv")):
            with urllib.request.urlopen(s.base + f"/download/{what}?game=%D0%B2%D0%B5%D1%87%D0%B5%D1%80",
                                        timeout=10) as r:
                disposition = r.headers["content-disposition"]
                assert r.status == 200 and r.read()
            assert "filename*=UTF-8''" + urllib.parse.quote(name, safe="") in disposition
            assert disposition.split(";")[1].strip().startswith('filename="')
            disposition.encode("latin-1")  # what an HTTP header must be
    finally:
        s.stop()


def test_10_bad_requests_are_400_with_a_reason(pad: Any) -> None:
    assert request(pad.base + "/api/record", {"events": [_start()]}, PAD)[0] == 200
    for query in ("deal=%C2%B2", "deal=" + "9" * 5000, "deal=-1", "deal="):
        status, body = request(pad.base + "/api/analysis?" + query)
        assert status == 400 and "deal" in body["error"], (query, status, body)
    for name in ("..", ".", "../..", "...", "%2e%2e"):
        status, body = request(pad.base + f"/api/upload?format=csv&name={name}", raw=b"not,a,protocol\n",
                               headers=PAD)
        assert status in (200, 422), (name, status, body)
    assert pad.proc.poll() is None


# ----------------------------------------------------------------------------- 12. deep nesting, every entry point

def test_12_an_event_nested_past_the_limit_is_one_error_naming_the_field(tmp_path: Path, pad: Any) -> None:
    deep: Any = 1
    for _ in range(300):
        deep = {"x": deep}
    ev = {**_start(), "_ext": deep}
    for call in (lambda: vistlog.append(tmp_path / "d.jsonl", [ev]),
                 lambda: vistlog.Checker().push(ev),
                 lambda: vistlog.Recorder(tmp_path / "e.jsonl").record([ev])):
        with pytest.raises(vistlog.VistlogError, match="_ext: nested deeper than 64 levels"):
            call()
    (game,) = vistlog.read_games([ev])
    assert [(p.field, p.code) for p in game.problems] == [("_ext", "field-invalid")]
    status, body = request(pad.base + "/api/record", {"events": [ev]}, PAD)
    assert status == 422 and "_ext" in body["error"]


# ----------------------------------------------------------------------------- 13. NaN in a «Пуля» save

def test_13_a_nan_in_a_pulya_save_is_one_line_naming_the_field(tmp_path: Path) -> None:
    save = session(["Аня", "Боря", "Вова"], STEPS)
    text = json.dumps(save, ensure_ascii=False).replace('"pool": [2, 0, 0]', '"pool": [NaN, 0, 0]', 1)
    assert "NaN" in text
    with pytest.raises(SourceError, match=r"state\.pool\.0: nan is not a number JSON allows"):
        read_pulya("s.json", text.encode())
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "vistlog", "import", "--from", "pulya", str(path), "-o",
                           str(tmp_path / "o.jsonl")], capture_output=True, text=True)
    assert done.returncode == 2 and "state.pool.0" in done.stdout + done.stderr
    assert "internal error" not in done.stdout + done.stderr and "Traceback" not in done.stderr


# ----------------------------------------------------------------------------- 14. claims, and one bound on numbers

def test_14_a_disputed_claim_with_both_defenders_whisting_needs_no_split() -> None:
    from .test_analysis import _contract

    g = _contract("whist", "whist")
    g.add("claim", deal=1, player="B", tricks=8, accepted=False)
    g.add("tricks", deal=1, taken={"B": 8, "C": 1, "A": 1})
    res, problems = g.fold()
    assert codes(problems) == []
    assert res[0].records[0].taken == {"B": 8, "C": 1, "A": 1}


def test_14_one_bound_on_numbers_in_every_entry_point(tmp_path: Path) -> None:
    for pool in (2**64 - 1, 2**63):
        with pytest.raises(vistlog.AppendRejected) as err:
            vistlog.append(tmp_path / "n.jsonl", [_start(pool=pool)])
        assert err.value.problems[0].code == "number-too-large"
    vistlog.append(tmp_path / "n.jsonl", [_start(pool=2**63 - 1)])
    with pytest.raises(vistlog.AppendRejected) as err:
        vistlog.append(tmp_path / "n.jsonl", [{"type": "adjustment", "game": G, "mountain": {"Аня": -(2**63)}}])
    assert err.value.problems[0].code == "number-too-large" and err.value.problems[0].field == "mountain.Аня"
    src = _protocol_csv(tmp_path / "p.csv", 1)
    src.write_text(src.read_text(encoding="utf-8").replace("# pool: 1000000", f"# pool: {2**63}"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "vistlog", "import", "--from", "csv", str(src), "-o",
                           str(tmp_path / "o.jsonl")], capture_output=True, text=True)
    assert done.returncode == 2 and "past the largest number a log holds" in done.stdout + done.stderr
