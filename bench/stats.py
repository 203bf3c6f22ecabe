"""``vistlog stats`` over a generated archive: time per game, and the speed-up from 1 to 2 workers.

    python bench/stats.py [--games 10000] [--per-file 50]

Writes ``--games`` random legal games (tests/simulate.py: Preferans of 3 and 4 players under the
four presets, and Solo Whist; a template set replicated with new ids and evenings), ``--per-file``
to a log, then times ``vistlog stats`` on the folder with ``--jobs 1`` and ``--jobs 2`` (each in its own
process, best of 2) and prints the time per game and the speed-up. The README's figures come from it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.throughput import make_games  # noqa: E402


def write_archive(folder: Path, games: int, per_file: int) -> None:
    templates = make_games(40, seed=5)
    k = 0
    while k < games:
        lines = []
        seq = 0
        for _ in range(per_file):
            if k >= games:
                break
            t = templates[k % len(templates)]
            day = f"2026-{1 + (k // 300) % 12:02d}-{1 + (k // 10) % 28:02d}T19:00:00+03:00"
            for i, e in enumerate(t):
                seq += 1
                ev = {**e, "seq": seq, "game": f"{e['game']}-{k}"}
                if i == 0:
                    ev["at"] = day
                lines.append(orjson.dumps(ev))
            k += 1
        (folder / f"log-{k:06d}.jsonl").write_bytes(b"\n".join(lines) + b"\n")


def timed(folder: Path, jobs: int) -> float:
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "vistlog", "stats", str(folder), "--jobs", str(jobs), "--format", "json"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--per-file", type=int, default=50)
    ns = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="vistlog-stats-"))
    try:
        write_archive(folder, ns.games, ns.per_file)
        one, two = timed(folder, 1), timed(folder, 2)
        print(f"{ns.games:,} games in {len(list(folder.glob('*.jsonl')))} logs")
        print(f"stats --jobs 1: {one:.1f} s ({1000 * one / ns.games:.2f} ms per game)")
        print(f"stats --jobs 2: {two:.1f} s ({1000 * two / ns.games:.2f} ms per game); speed-up {one / two:.2f}")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
