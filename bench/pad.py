"""The score pad's time per recorded deal, on a short log and on a log of 10,000 deals.

    python bench/pad.py [--deals 10000] [--record 300]

It writes one random legal Sochi game of ``--deals`` deals (protocol level: bids, contract,
whists, tricks) with ``vistlog.append``, then records ``--record`` more deals of the same game
the way the page does: a line of the deal notation posted to ``/api/record`` of the Starlette
application (in this process, through Starlette's test client), each checked by the state
machine and appended, locked, journaled, fsynced and chained. It prints the server time per
deal (median, p95, max; the handler's own time, and the whole request), the same on a log of
100 deals, their ratio, and the process's peak memory before and after (it must not grow
with the deals recorded). The target of issue 28: p95 at most 20 ms on 10,000 deals.

Issue 59's beside them: a deal the checker refuses and the page's look after it (tried on the live state,
which it leaves as it was: no replay of the log). Issue 48's: the page's view after a deal (``Pad.state``: the
live fold extended by the deal, its targets 200 ms on one game of 10,000 deals and 100 ms on a club log of
ended games and tonight's), the pad's own memory in a fresh process (VmHWM; target < 150 MB) and the next-step
query (target 1 ms).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vistlog  # noqa: E402
from tests.simulate import preferans_game  # noqa: E402
from vistlog.pad import Pad, make_app  # noqa: E402


def _split(events: list[dict[str, Any]], keep: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The events up to deal ``keep``, and the later deals as lines."""
    head: list[dict[str, Any]] = []
    tail: list[dict[str, Any]] = []
    for ev in events:
        if ev["type"] == "game_ended":
            continue
        (head if ev.get("deal", 0) <= keep else tail).append(ev)
    lines = list(vistlog.deal_lines(head[:1] + tail))
    return head, lines[0:1][0].split("; ", 1)[1:] + lines[1:] if lines else []


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(deals: int, record: int, folder: Path) -> dict[str, float]:
    from starlette.testclient import TestClient

    events = preferans_game(random.Random(deals), rules={"preset": "sochi"}, pool=10**6, max_deals=deals + record,
                            card_play=0.0)
    head, lines = _split(events, deals)
    log = folder / f"evening-{deals}.jsonl"
    vistlog.append(log, head)
    start = time.perf_counter()
    pad = Pad(log)
    client = TestClient(make_app(pad), base_url="http://localhost")
    headers = {"X-Vistlog-Pad": "1"}
    pad.state(None)  # the page's first look: the log folded once (the pad reads it as it starts)
    first_look = time.perf_counter() - start
    handler: list[float] = []
    whole: list[float] = []
    peak_before = _peak_mb()
    original = pad.record

    def timed(body: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original(body)
        finally:
            handler.append(time.perf_counter() - t0)

    pad.record = timed  # type: ignore[method-assign]
    for line in lines[:record - 1]:
        t0 = time.perf_counter()
        r = client.post("/api/record", json={"line": line, "expect_seq": pad.recorder.next_seq}, headers=headers)
        whole.append(time.perf_counter() - t0)
        assert r.status_code == 200, (r.status_code, r.text, line)
    pad.state(None)  # the page looks at the deals recorded so far
    r = client.post("/api/record", json={"line": lines[record - 1], "expect_seq": pad.recorder.next_seq},
                    headers=headers)
    assert r.status_code == 200, r.text
    assert vistlog.verify(log).status == "ok"
    start = time.perf_counter()
    pad.state(None)  # what the page asks after a deal: the view of the game, extended by that deal
    view = time.perf_counter() - start
    nexts = _next_steps(pad)
    refused: list[float] = []
    h0, h1 = pad.recorder.table().holders[:2]
    for _ in range(5):  # a deal the checker refuses (a whist out of turn), and the page's look after it
        t0 = time.perf_counter()
        bad = f"{h0} 6S; {h0} whist, {h1} pass; {h0} 6 {h1} 4"
        r = client.post("/api/record", json={"line": bad}, headers=headers)
        assert r.status_code == 422, r.text
        pad.state(None)
        refused.append(time.perf_counter() - t0)

    def ms(xs: list[float], q: float) -> float:
        return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] * 1000

    return {"deals": deals, "median": statistics.median(handler) * 1000, "p95": ms(handler, 0.95),
            "max": max(handler) * 1000, "request_p95": ms(whole, 0.95), "first_look": first_look, "view": view,
            "peak_before": peak_before, "peak_after": _peak_mb(), "next_p95": ms(nexts, 0.95),
            "next_median": statistics.median(nexts) * 1000, "pad_mb": _pad_memory(log),
            "refused": statistics.median(refused) * 1000}


def _pad_memory(log: Path) -> float:
    """The peak memory of a pad alone over ``log`` (a fresh process: the page's first look, a deal recorded,
    the look after it), in MB."""
    # VmHWM, not ru_maxrss: a child's ru_maxrss starts from its parent's peak (Linux keeps it across exec)
    code = ("import sys; sys.path.insert(0, sys.argv[2]); from vistlog.pad import Pad; "
            "pad = Pad(sys.argv[1]); pad.state(None); t = pad.recorder.table(); "
            "pad.record({'line': f'{t.holders[0]} 6S; {t.holders[1]} pass, {t.holders[2]} pass'}); pad.state(None); "
            "print(next(int(x.split()[1]) for x in open('/proc/self/status') if x.startswith('VmHWM')) / 1024)")
    done = subprocess.run([sys.executable, "-c", code, str(log), str(ROOT)], capture_output=True, text=True, check=True)
    return float(done.stdout.strip())


def _next_steps(pad: Pad, rounds: int = 50) -> list[float]:
    """The next-step query's time (``Recorder.next_step``, what ``GET /api/next`` asks at every tap) on the drafts a
    form goes through: nothing yet, a contract, a defender's call, both calls."""
    table = pad.recorder.table()
    holders = table.holders
    declarer, first, second = holders[0], holders[1], holders[2]
    drafts = ["", f"{declarer} 6S", f"{declarer} 7H; {first} pass", f"{declarer} 6S; {first} whist, {second} pass"]
    times: list[float] = []
    for _ in range(rounds):
        for line in drafts:
            t0 = time.perf_counter()
            pad.recorder.next_step(line=line)
            times.append(time.perf_counter() - t0)
    return times


CLUB_DEALS = 40


def run_club(games: int, folder: Path) -> dict[str, float]:
    """A club's log of many ended evenings, then tonight's game recorded deal by deal through the pad."""
    rng = random.Random(games)
    log = folder / "club.jsonl"
    events: list[dict[str, Any]] = []
    for k in range(games):
        game = preferans_game(rng, rules={"preset": "sochi"}, pool=10**6, max_deals=CLUB_DEALS, card_play=0.0,
                              game=f"evening-{k}")
        events += [{k: v for k, v in ev.items() if k != "seq"} for ev in game]
    vistlog.append(log, events)
    tonight = preferans_game(rng, rules={"preset": "sochi"}, pool=10**6, max_deals=30, card_play=0.0, game="tonight")
    vistlog.append(log, [{k: v for k, v in tonight[0].items() if k != "seq"}])
    start = time.perf_counter()
    pad = Pad(log)
    pad.state(None)
    first_look = time.perf_counter() - start
    lines = list(vistlog.deal_lines(tonight))
    record: list[float] = []
    views: list[float] = []
    for line in lines:
        t0 = time.perf_counter()
        pad.record({"line": line, "game": "tonight"})
        record.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        pad.state("tonight")
        views.append(time.perf_counter() - t0)
    return {"first_look": first_look, "view": statistics.median(views),
            "p95": sorted(record)[int(0.95 * len(record))] * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--record", type=int, default=300)
    parser.add_argument("--club", type=int, default=200, help="ended games in the club log (default 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vistlog-bench-pad-") as tmp:
        small = run(100, args.record, Path(tmp))
        big = run(args.deals, args.record, Path(tmp))
    for r in (small, big):
        print(f"log of {r['deals']:>6} deals: per recorded deal median {r['median']:.2f} ms, p95 {r['p95']:.2f} ms, "
              f"max {r['max']:.2f} ms (whole request p95 {r['request_p95']:.2f} ms); the page's first look "
              f"{r['first_look']:.2f} s, after a deal {r['view'] * 1000:.0f} ms (target <= 200 ms); "
              f"peak memory {r['peak_before']:.0f} -> {r['peak_after']:.0f} MB (the pad alone, in a process of its "
              f"own: {r['pad_mb']:.0f} MB, target < 150 MB); the next-step query median "
              f"{r['next_median']:.2f} ms, p95 {r['next_p95']:.2f} ms (target <= 1 ms); a refused deal and the "
              f"view after it, median {r['refused']:.1f} ms")
    club = run_club(args.club, Path(tempfile.mkdtemp(prefix="vistlog-bench-club-")))
    print(f"a club log of {args.club} ended games of {CLUB_DEALS} deals and tonight's game: the page's first look "
          f"{club['first_look']:.2f} s, its view after each deal {club['view'] * 1000:.0f} ms (the ended games' "
          f"views are kept); per recorded deal p95 {club['p95']:.2f} ms")
    print(f"p95 ratio, {big['deals']} deals to {small['deals']}: {big['p95'] / small['p95']:.2f}x "
          f"(target: p95 <= 20 ms at 10,000 deals: {'met' if big['p95'] <= 20 else 'NOT met'})")


if __name__ == "__main__":
    main()
