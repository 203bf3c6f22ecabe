"""Peak memory of the commands on logs that grow: many games, and one game that never ends.

    python bench/memory.py [--small-games 200000] [--big-events 2000000] [--keep]

Writes two logs (random but legal, by tests/simulate.py):

- *many games*: ``--small-games`` games of one deal each (a protocol: bids, calls, tricks), one after
  the other;
- *one game*: a single Sochi game (``game_end: agreement``, so it never ends by itself) of
  ``--big-events`` events, a block of generated deals repeated with new numbers, half of them
  played card by card;

then runs each of :data:`COMMANDS` (``validate``, ``settle``, ``sheet``; ``settle`` and ``audit`` on two
workers; ``stats``; ``replay``) on each in its own process and prints its peak resident memory (VmHWM) and
time. The README's figures come from this script.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.simulate import preferans_game  # noqa: E402


def many_games(path: Path, count: int) -> int:
    rng = random.Random(7)
    template = [e for e in preferans_game(rng, players=("Аня", "Боря", "Вова"), pool=20, game="t", max_deals=1,
                                          rules={"preset": "sochi", "game_end": "agreement"}, card_play=0.0)
                if e["type"] != "game_ended"]
    seq = 0
    with path.open("wb") as out:
        for k in range(count):
            gid = f"game-{k}"
            for e in template:
                seq += 1
                out.write(orjson.dumps({**e, "seq": seq, "game": gid}) + b"\n")
            seq += 1
            out.write(orjson.dumps({"v": 1, "seq": seq, "type": "game_ended", "game": gid}) + b"\n")
    return seq


def one_game(path: Path, events: int) -> int:
    rng = random.Random(11)
    block = preferans_game(rng, players=("Аня", "Боря", "Вова"), rules={"preset": "sochi", "game_end": "agreement"},
                           pool=20, game="long", max_deals=300, card_play=0.5)
    start, deals = block[0], [e for e in block[1:] if e["type"] != "game_ended"]
    per_block = max(e.get("deal", 0) for e in deals)
    assert per_block % 3 == 0, "whole turns of the dealer, so the rotation goes on across blocks"
    seq = 1
    with path.open("wb") as out:
        out.write(orjson.dumps({**start, "seq": 1}) + b"\n")
        shift = 0
        while seq < events:
            for e in deals:
                seq += 1
                out.write(orjson.dumps({**e, "seq": seq, "deal": e["deal"] + shift} if "deal" in e
                                       else {**e, "seq": seq}) + b"\n")
            shift += per_block
    return seq


def measure(args: list[str]) -> tuple[float, float]:
    """(peak MB, seconds) of ``vistlog ARGS`` in a process of its own."""
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the process that starts the command
    script = ("import sys, time; from vistlog.cli import main; t = time.perf_counter(); "
              "code = main(sys.argv[1:]); "
              "kb = next(int(x.split()[1]) for x in open('/proc/self/status') if x.startswith('VmHWM:')); "
              "print(kb / 1024, time.perf_counter() - t, "
              "file=sys.stderr); sys.exit(0 if code in (0, 1) else code)")
    proc = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=True)
    mb, secs = proc.stderr.strip().splitlines()[-1].split()
    return float(mb), float(secs)


COMMANDS = (["validate"], ["settle"], ["sheet"], ["settle", "--jobs", "2", "--format", "json"],
            ["audit", "--jobs", "2"], ["stats", "--jobs", "1"], ["replay"])
"""Each run on both logs: one process, then the many-logs path (a report) on two workers, and the statistics."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small-games", type=int, default=200_000)
    ap.add_argument("--big-events", type=int, default=2_000_000)
    ap.add_argument("--keep", action="store_true", help="keep the logs in bench/out/")
    ns = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="vistlog-mem-"))
    try:
        logs = {}
        t = time.perf_counter()
        n = many_games(folder / "many.jsonl", ns.small_games)
        logs["many games"] = (folder / "many.jsonl", f"{ns.small_games:,} games, {n:,} events")
        n = one_game(folder / "one.jsonl", ns.big_events)
        logs["one game"] = (folder / "one.jsonl", f"1 game, {n:,} events")
        print(f"logs written in {time.perf_counter() - t:.0f} s")
        print(f"{'log':<12} {'what':<32} {'command':<32} {'peak MB':>8} {'time s':>8}")
        for name, (path, what) in logs.items():
            size = path.stat().st_size / 1e6
            for command in COMMANDS:
                if command[0] == "sheet" and name == "many games":
                    command = [*command, "--game", "game-0"]
                mb, secs = measure([command[0], str(path), *command[1:]])
                print(f"{name:<12} {what + f' ({size:.0f} MB)':<32} {' '.join(command):<32} {mb:>8.0f} {secs:>8.1f}")
        if ns.keep:
            out = ROOT / "bench" / "out"
            out.mkdir(exist_ok=True)
            for path, _ in logs.values():
                shutil.copy(path, out / path.name)
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
