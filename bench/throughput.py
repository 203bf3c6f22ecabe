"""Throughput and memory of validate and settle against bare ``orjson.loads``, in one run.

    python bench/throughput.py [--events 1000000] [--keep]

It writes a realistic log (random legal games of every preset and of Solo Whist, about
10% with card-level play, as an online server would record them), then times, on the same
file and in the same process: reading its lines with ``orjson.loads`` alone; ``validate``
(decode, check, fold); ``settle`` (the same plus settlement). Each is the best of 3. The
peak memory of ``vistlog validate`` is measured in a child process (ru_maxrss), on the
file and on a file 3 times as large, to show it does not grow with the file. Last, 200 logs
of two games each are audited with 1 and with 2 processes (``projections.batch.run_local``).
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from events.simulate import preferans_game, solo_whist_game  # noqa: E402
from projections.fold import GameResult, Pipeline, run  # noqa: E402


def make_games(count: int, seed: int = 1) -> list[list[dict]]:
    rng = random.Random(seed)
    games = []
    for k in range(count):
        if k % 5 == 4:
            games.append(solo_whist_game(rng, game=f"s{k}", deals=20, card_play=0.1))
            continue
        preset = ["sochi", "leningrad", "rostov", "classic"][k % 4]
        players = ("Аня", "Боря", "Вова", "Гена")[: 3 + (k % 3 == 0)]
        pipe = Pipeline("b")
        gid = f"g{k}"
        games.append(preferans_game(rng, players=players, rules={"preset": preset}, pool=20, game=gid,
                                    max_deals=60, card_play=0.1, check=pipe.check,
                                    closed=lambda p=pipe, g=gid: p.folds[g].all_pools_closed()
                                    if g in p.folds else False))
    return games


def write_log(path: Path, games: list[list[dict]], target: int) -> int:
    seq = 0
    copy = 0
    with path.open("wb") as out:
        while seq < target:
            for g in games:
                gid = f"{g[0]['game']}-{copy}"
                for e in g:
                    seq += 1
                    out.write(orjson.dumps({**e, "seq": seq, "game": gid}) + b"\n")
            copy += 1
    return seq


def best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bare(path: Path) -> None:
    loads = orjson.loads
    with path.open("rb") as f:
        for line in f:
            loads(line)


def validate(path: Path) -> None:
    problems = 0
    for item in run(str(path)):
        if not isinstance(item, GameResult):
            problems += 1
    assert problems == 0, problems


def settle(path: Path) -> None:
    from projections.render import settle_json

    for item in run(str(path)):
        if isinstance(item, GameResult):
            settle_json(item)


def peak_mb(path: Path) -> float:
    subprocess.run([sys.executable, "-m", "vistlog", "validate", "-q", str(path)], check=True, cwd=ROOT)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--keep", action="store_true", help="keep the generated logs in bench/out/")
    args = ap.parse_args()
    out_dir = ROOT / "bench" / "out" if args.keep else Path(tempfile.mkdtemp())
    out_dir.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    games = make_games(120)
    log = out_dir / "million.jsonl"
    n = write_log(log, games, args.events)
    size = log.stat().st_size
    print(f"log: {n:,} events, {size / 1e6:.0f} MB, {len(games)} distinct games replicated "
          f"(made in {time.perf_counter() - t:.0f} s)")
    a = best(lambda: bare(log))
    v = best(lambda: validate(log))
    s = best(lambda: settle(log))
    print(f"orjson.loads only : {a:6.2f} s  {n / a / 1e6:5.2f} M events/s")
    print(f"validate          : {v:6.2f} s  {n / v / 1e6:5.2f} M events/s  ratio {v / a:4.2f}")
    print(f"settle            : {s:6.2f} s  {n / s / 1e6:5.2f} M events/s  ratio {s / a:4.2f}")
    big = out_dir / "triple.jsonl"
    write_log(big, games, 3 * args.events)
    m1 = peak_mb(log)
    m3 = peak_mb(big)
    print(f"peak memory of vistlog validate: {m1:.0f} MB on {size / 1e6:.0f} MB, "
          f"{m3:.0f} MB on {big.stat().st_size / 1e6:.0f} MB")
    folder = out_dir / "many"
    folder.mkdir(exist_ok=True)
    files = []
    for k in range(200):
        path = folder / f"log{k:03d}.jsonl"
        write_log(path, [games[(k * 7) % len(games)], games[(k * 7 + 1) % len(games)]], 1)  # two whole games
        files.append(str(path))
    from projections.batch import run_local

    t1 = best(lambda: run_local("audit", files, jobs=1), 2)
    t2 = best(lambda: run_local("audit", files, jobs=2), 2)
    print(f"200 logs, audit: 1 job {t1:.2f} s, 2 jobs {t2:.2f} s, speed-up {t1 / t2:.2f}")
    if not args.keep:
        log.unlink()
        big.unlink()
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
