"""Throughput and memory of validate and settle against bare ``orjson.loads``, in one run.

    python bench/throughput.py [--events 1000000] [--keep] [--rounds 3] [--builds-only]

First, the targets' table, both builds in one run: on a card-level and a protocol-level log
(each a quarter of ``--events``), ``validate`` and ``settle`` as ratios to bare ``orjson.loads``,
for the pure build (``VISTLOG_BUILD=pure``) and, where ``VISTLOG_COMPILE=1`` installed one, the
compiled build, each in its own process, the two in turn ``--rounds`` times.

Then, in this process (whichever build it runs, printed first):
It writes a realistic log (random legal games of every preset and of Solo Whist, about
10% with card-level play, as an online server would record them), then times, on the same
file: reading its lines with ``orjson.loads`` alone; ``validate`` (decode, check, fold) and
``settle`` (the same plus settlement) in this process, folded as those commands fold (without
detail: the totals, not every entry with its reason); the ``vistlog validate`` command in its
own process, start-up included. In-process runs are CPU time, each the best of 3, taken
round-robin so that a slow spell of the machine does not favour one of them; bare ``loads``, what
every ratio is divided by, also runs before each of the others (a slow spell over its few short runs
made the ratios look better than they are). The same ratios are
printed (best of 5) for a card-level log (every deal played card by card) and a protocol-level one (bids,
calls, tricks), a quarter of the size; and the speed-up of one file split by game
(:mod:`vistlog.projections.split`) from 1 worker to 2.

It also prints where the time goes, stage by stage (decoding only; decoding and the state
machine; everything), and the *floor*: what CPython costs per line before any rule is checked
(``loads`` and a dispatch on the event type; plus making the event object; plus the cheapest
checks a validator cannot skip: allowed keys, ``seq``, the type of ``game``). The floor is
what the targets (7x on a card-level log, 10x on a protocol-level one) must be compared with; the
card-level and protocol-level lines split their time the same way. The
peak memory of ``vistlog validate`` is measured in a child process (its own VmHWM), on the
file and on a file 3 times as large, to show it does not grow with the file. Last, 200 logs
of two games each are audited with 1 and with 2 processes (``vistlog.projections.batch.run_local``).
"""

from __future__ import annotations

import argparse
import os
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

from tests.simulate import preferans_game, solo_whist_game  # noqa: E402
from vistlog import build  # noqa: E402
from vistlog.projections.fold import GameResult, run  # noqa: E402


def make_games(count: int, seed: int = 1, card_play: float = 0.1) -> list[list[dict]]:
    rng = random.Random(seed)
    games = []
    for k in range(count):
        if k % 5 == 4:
            games.append(solo_whist_game(rng, game=f"s{k}", deals=20, card_play=card_play))
            continue
        preset = ["sochi", "leningrad", "rostov", "classic"][k % 4]
        players = ("Аня", "Боря", "Вова", "Гена")[: 3 + (k % 3 == 0)]
        gid = f"g{k}"
        games.append(preferans_game(rng, players=players, rules={"preset": preset}, pool=20, game=gid,
                                    max_deals=60, card_play=card_play))
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
    """Best wall time of ``fn`` over ``repeat`` runs."""
    return round_robin([fn], repeat)[0]


def round_robin(fns: list, repeat: int = 3, clock=time.perf_counter, base_each: bool = False) -> list[float]:
    """Best time of each function by ``clock`` (wall time by default), running them in turn ``repeat`` times.

    With ``base_each`` the first function (what the others are divided by) also runs right before each
    of the others: a slow spell that hits its few short runs would otherwise make every ratio look better.
    """
    times = [float("inf")] * len(fns)

    def timed(i: int) -> None:
        t = clock()
        fns[i]()
        times[i] = min(times[i], clock() - t)

    for _ in range(repeat):
        for i in range(len(fns)):
            if base_each and i:
                timed(0)
            timed(i)
    return times


def bare(path: Path) -> None:
    loads = orjson.loads
    with path.open("rb") as f:
        for line in f:
            loads(line)


_TYPES = ("game_started", "deal_started", "bid", "contract", "whist", "tricks", "discard", "card_played",
          "game_ended", "allocation", "deal_voided", "score_recorded", "adjustment", "opening_balance")


def floor_dispatch(path: Path) -> None:
    """``loads`` and a call chosen by the event type: the least any per-event program does."""
    loads = orjson.loads
    handlers = {t: _noop for t in _TYPES}
    with path.open("rb") as f:
        for line in f:
            d = loads(line)
            handlers[d["type"]](d)


def floor_objects(path: Path) -> None:
    """The same, the handler given an object whose ``__dict__`` is the line's dict."""
    loads = orjson.loads
    new = object.__new__
    handlers = {t: _noop for t in _TYPES}
    with path.open("rb") as f:
        for line in f:
            d = loads(line)
            o = new(_Bare)
            o.__dict__ = d
            handlers[d["type"]](o)


def floor_checks(path: Path) -> None:
    """The same plus the checks no validator can skip: allowed keys, ``seq``, ``game`` a string."""
    from vistlog.events.model import BY_TAG

    import attrs

    loads = orjson.loads
    new = object.__new__
    allowed = {t: frozenset(f.name for f in attrs.fields(c)) | {"type"} for t, c in BY_TAG.items()}
    expected = 1
    with path.open("rb") as f:
        for line in f:
            d = loads(line)
            keys = allowed[d["type"]]
            if not d.keys() <= keys or d["seq"] != expected or type(d["game"]) is not str:
                raise AssertionError(line)
            expected += 1
            o = new(_Bare)
            o.__dict__ = d


class _Bare:
    pass


def _noop(_: object) -> None:
    return None


def stage_decode(path: Path) -> None:
    """Reading and decoding into event objects (every field checked), nothing more."""
    from vistlog.events.log import read_events

    for _ in read_events(str(path)):
        pass


def stage_check(path: Path) -> None:
    """Decoding and the state machine, without the fold (no scoring, so no closed-pool check)."""
    from vistlog.events.checker import LogChecker
    from vistlog.events.log import read_events

    checker = LogChecker(None)
    for _, ev in read_events(str(path)):
        assert not checker.check(ev)  # type: ignore[arg-type]


def validate(path: Path) -> None:
    """What ``vistlog validate`` does: decode, check and fold without detail (totals only)."""
    problems = 0
    for item in run(str(path), detail=False):
        if not isinstance(item, GameResult):
            problems += 1
    assert problems == 0, problems


def settle(path: Path) -> None:
    """What ``vistlog settle --format json`` does: the same, and each game's settlement."""
    from vistlog.projections.render import settle_json

    for item in run(str(path), detail=False):
        if isinstance(item, GameResult):
            settle_json(item)


def command(path: Path) -> None:
    """``vistlog validate`` as a user runs it: its own process, start-up included."""
    subprocess.run([sys.executable, "-m", "vistlog", "validate", "-q", str(path)], check=True, cwd=ROOT)


def peak_mb(path: Path) -> float:
    """Peak memory of ``vistlog validate`` on ``path`` (see :func:`command_peak_mb`)."""
    return command_peak_mb(["validate", "-q"], path)


def cpu_round_robin(fns: list, repeat: int = 3) -> list[float]:
    """Best CPU time of each function (this process), running them in turn ``repeat`` times; the first
    (bare ``loads``, the denominator) also before each of the others."""
    return round_robin(fns, repeat, clock=time.process_time, base_each=True)


COMMANDS = (["validate"], ["settle"], ["sheet"], ["audit"], ["replay"], ["stats", "--jobs", "1"])


_PROBE = """import resource, sys
from vistlog.cli import main
try:
    main(sys.argv[1:])
finally:
    try:  # the peak of this process's own memory since it started (Linux)
        with open("/proc/self/status") as f:
            kb = next(int(x.split()[1]) for x in f if x.startswith("VmHWM:"))
    except (OSError, StopIteration):
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print("peak", kb, file=sys.stderr)
"""


def command_peak_mb(cmd: list[str], path: Path) -> float:
    """Peak memory of one ``vistlog`` command on ``path``, which its own process reports: ``VmHWM``,
    not ``ru_maxrss``, because Linux carries ``ru_maxrss`` over from the process that started it
    (this bench, which holds far more than the command)."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *cmd, str(path)], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False)
    line = next(x for x in reversed(done.stderr.splitlines()) if x.startswith("peak "))
    return int(line.split()[1]) / 1024


def _child(path: Path, rounds: int) -> None:
    """``--child``: best CPU times of loads, validate and settle on ``path`` in this build, as JSON."""
    from vistlog import build

    cpu = cpu_round_robin([lambda: bare(path), lambda: validate(path), lambda: settle(path)], repeat=rounds)
    print(orjson.dumps({"build": build.describe(), "cpu": cpu}).decode())


def _in_build(pure: bool, path: Path, rounds: int) -> dict:
    env = dict(os.environ)
    env.pop(build.PURE_SWITCH[0], None)
    if pure:
        env[build.PURE_SWITCH[0]] = build.PURE_SWITCH[1]
    done = subprocess.run([sys.executable, __file__, "--child", str(path), "--rounds", str(rounds)], env=env,
                          cwd=ROOT, check=True, capture_output=True, text=True)
    return orjson.loads(done.stdout.splitlines()[-1])


def both_builds(kinds: dict[str, Path], rounds: int) -> None:
    """The targets' table: validate and settle over ``loads``, pure and compiled, card-level and
    protocol-level. Each build runs in its own process, the two in turn ``rounds`` times (each
    time best of 2 inside), so that a slow spell of the machine does not favour one of them."""
    compiled = bool(build.compiled_modules())
    builds = [True, False] if compiled else [True]
    print("both builds (CPU time, best of each build's runs; ratios to orjson.loads in the same process):")
    if not compiled:
        print("  no compiled build installed here (VISTLOG_COMPILE=1 pip install . makes one): pure only")
    for name, path in kinds.items():
        best_of: dict[bool, tuple[str, list[float]]] = {}
        for _ in range(rounds):
            for pure in builds:
                got = _in_build(pure, path, 2)
                ratios = [t / got["cpu"][0] for t in got["cpu"][1:]]
                old = best_of.get(pure)
                best_of[pure] = (got["build"], ratios if old is None else [min(a, b) for a, b in zip(old[1], ratios)])
        for pure in builds:
            label, (v, st) = best_of[pure][0], best_of[pure][1]
            print(f"  {name:15} {('pure' if pure else 'compiled'):8} validate {v:5.2f}x  settle {st:5.2f}x   ({label})")
        if compiled:
            (pv, ps), (cv, cs) = best_of[True][1], best_of[False][1]
            print(f"  {name:15} speed-up of the compiled build: validate {pv / cv:.2f}, settle {ps / cs:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--keep", action="store_true", help="keep the generated logs in bench/out/")
    ap.add_argument("--memory", action="store_true",
                    help="also the peak memory of every command at --events and 3 times as many (slow)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of the both-builds table (each build in its own process, in turn)")
    ap.add_argument("--builds-only", action="store_true", help="only the both-builds table")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.child, args.rounds)
        return
    print(f"vistlog {build.describe()}")
    out_dir = ROOT / "bench" / "out" if args.keep else Path(tempfile.mkdtemp())
    out_dir.mkdir(parents=True, exist_ok=True)
    kinds = {"card-level (every deal played card by card)": make_games(40, seed=2, card_play=1.0),
             "protocol-level (bids, calls, tricks)": make_games(40, seed=3, card_play=0.0)}
    paths = {}
    for made, short in zip(kinds.values(), ("card-level", "protocol-level")):
        paths[short] = out_dir / f"{short}.jsonl"
        print(f"{short} log: {write_log(paths[short], made, args.events // 4):,} events")
    both_builds(paths, args.rounds)
    for path in paths.values():
        path.unlink()
    if args.builds_only:
        return
    t = time.perf_counter()
    games = make_games(120)
    log = out_dir / "million.jsonl"
    n = write_log(log, games, args.events)
    size = log.stat().st_size
    print(f"log: {n:,} events, {size / 1e6:.0f} MB, {len(games)} distinct games replicated "
          f"(made in {time.perf_counter() - t:.0f} s)")
    for name, made in kinds.items():
        path = out_dir / "kind.jsonl"
        k = write_log(path, made, args.events // 4)
        cpu = cpu_round_robin([lambda p=path: bare(p), lambda p=path: validate(p), lambda p=path: settle(p),
                               lambda p=path: stage_decode(p), lambda p=path: stage_check(p)], repeat=5)
        print(f"{name}: {k:,} events; CPU time, best of 5: loads {cpu[0]:.2f} s, validate {cpu[1]:.2f} s "
              f"(ratio {cpu[1] / cpu[0]:.1f}), settle {cpu[2]:.2f} s (ratio {cpu[2] / cpu[0]:.1f}); "
              f"stages: decode {cpu[3] / cpu[0]:.1f}, + state machine {cpu[4] / cpu[0]:.1f}, "
              f"+ fold and scoring {cpu[1] / cpu[0]:.1f}")
        path.unlink()
    runs = [("orjson.loads only", bare), ("validate", validate), ("settle", settle),
            ("  stage: decode", stage_decode), ("  stage: decode + check", stage_check),
            ("  floor: loads + dispatch", floor_dispatch), ("  floor: + event object", floor_objects),
            ("  floor: + minimal checks", floor_checks)]
    times = cpu_round_robin([lambda f=f: f(log) for _, f in runs], repeat=3)
    a = times[0]
    print("mixed log, CPU time, best of 3:")
    for (name, _), t in zip(runs, times):
        print(f"{name:26} {t:6.2f} s  {n / t / 1e6:5.2f} M events/s  {t / n * 1e6:5.2f} us/event  "
              f"ratio {t / a:5.2f}")
    wall = round_robin([lambda: command(log)], repeat=2)[0]
    print(f"vistlog validate (command, wall time, start-up included) {wall:.2f} s, ratio {wall / a:.2f}")
    from vistlog.projections.split import run_split

    one, split1, two = round_robin([lambda: validate(log), lambda: run_split("validate", str(log), 1),
                                    lambda: run_split("validate", str(log), 2)], repeat=2)
    print(f"one file split by game, validate (wall time): in this process {one:.2f} s, 1 worker {split1:.2f} s, "
          f"2 workers {two:.2f} s: speed-up {one / two:.2f} over one process, {split1 / two:.2f} from 1 worker to 2")
    if args.memory:
        big = out_dir / "triple.jsonl"
        write_log(big, games, 3 * args.events)
        for path in (log, big):
            peaks = ", ".join(f"{' '.join(c[:1])} {command_peak_mb(c, path):.0f}" for c in COMMANDS)
            print(f"peak memory (MB) on {path.stat().st_size / 1e6:.0f} MB: {peaks}")
        big.unlink()
    else:
        print(f"peak memory of vistlog validate: {peak_mb(log):.0f} MB (all commands, 1 and 3 times: --memory)")
    folder = out_dir / "many"
    folder.mkdir(exist_ok=True)
    files = []
    for k in range(200):
        path = folder / f"log{k:03d}.jsonl"
        write_log(path, [games[(k * 7) % len(games)], games[(k * 7 + 1) % len(games)]], 1)  # two whole games
        files.append(str(path))
    from vistlog.projections.batch import run_local

    t1 = best(lambda: run_local("audit", files, jobs=1), 2)
    t2 = best(lambda: run_local("audit", files, jobs=2), 2)
    print(f"200 logs, audit: 1 job {t1:.2f} s, 2 jobs {t2:.2f} s, speed-up {t1 / t2:.2f}")
    if not args.keep:
        log.unlink()
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
