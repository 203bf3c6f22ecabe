"""A digest of every command's output on the samples and the vectors, to show a change leaves them alone.

    python bench/outputs.py [--root CHECKOUT] [--extra LOG ...] > digests.txt

For each log (``samples/*.jsonl``, ``tests/vectors/*.jsonl`` and ``--extra`` ones) and each command
(validate, settle as text and JSON, sheet as text, JSON, CSV and HTML and up to a deal, audit as text
and JSON, replay, stats --format json, export --to csv, analyse as JSON and text, replay --values) it
runs ``vistlog`` from ``CHECKOUT`` (default:
this one) and prints one line: the SHA-256 of its standard output, standard error and exit code, then the
command. Run it on
two checkouts (``git worktree add /tmp/before <commit>``) and ``diff`` the two files: no line may differ
unless the change meant it to.

``--compare-builds`` runs every command twice, in the build installed (the compiled one, where
``VISTLOG_COMPILE=1`` built it) and in pure Python (``VISTLOG_BUILD=pure``), prints each line that
differs, and ends with how many of the commands gave byte-identical output; its exit code is 1 when
any differs. ``--bench-logs N`` adds two logs of about N events each made by ``bench/throughput.py``'s
generator (one mixed, one played card by card).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
COMMANDS = (["validate"], ["settle"], ["settle", "--format", "json"], ["sheet"], ["sheet", "--format", "json"],
            ["sheet", "--format", "csv"], ["sheet", "--format", "html"], ["audit"], ["audit", "--format", "json"],
            ["replay"], ["stats", "--format", "json"], ["sheet", "--upto", "3"],
            ["sheet", "--upto", "999", "--format", "csv"], ["replay", "--upto", "2"], ["export", "--to", "csv"],
            ["analyse", "--format", "json"], ["analyse"], ["replay", "--values"])


def _run(cmd: list[str], log: str, root: Path, pure: bool) -> str:
    env = {**os.environ, "PYTHONPATH": str(root.resolve())}
    env.pop("VISTLOG_BUILD", None)
    if pure:
        env["VISTLOG_BUILD"] = "pure"
    done = subprocess.run([sys.executable, "-m", "vistlog", *cmd, log], cwd=root, env=env, capture_output=True,
                          timeout=600)
    return hashlib.sha256(done.stdout + b"\0" + done.stderr + b"\0" + str(done.returncode).encode()).hexdigest()[:16]


def _bench_logs(events: int, folder: Path) -> list[str]:
    sys.path.insert(0, str(HERE / "bench"))
    from throughput import make_games, write_log

    made = []
    kinds = (("bench-mixed", make_games(30, seed=5)), ("bench-cards", make_games(12, seed=6, card_play=1.0)))
    for name, games in kinds:
        path = folder / f"{name}.jsonl"
        n = write_log(path, games, events)
        print(f"# {path.name}: {n:,} events", flush=True)
        made.append(str(path))
    return made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=HERE, help="the checkout whose vistlog runs")
    ap.add_argument("--extra", nargs="*", default=[], help="more logs")
    ap.add_argument("--compare-builds", action="store_true", help="the installed build against pure Python")
    ap.add_argument("--bench-logs", type=int, default=0, metavar="N", help="add two generated logs of about N events")
    args = ap.parse_args()
    logs = sorted(str(p) for p in (HERE / "samples").glob("*.jsonl")) + sorted(
        str(p) for p in (HERE / "tests" / "vectors").glob("*.jsonl")) + args.extra
    with tempfile.TemporaryDirectory() as tmp:
        if args.bench_logs:
            logs += _bench_logs(args.bench_logs, Path(tmp))
        same = differ = 0
        for log in logs:
            for cmd in COMMANDS:
                what = f"{Path(log).name}: vistlog {' '.join(cmd)}"
                if not args.compare_builds:
                    print(f"{_run(cmd, log, args.root, False)}  {what}", flush=True)
                    continue
                installed, pure = _run(cmd, log, args.root, False), _run(cmd, log, args.root, True)
                if installed == pure:
                    same += 1
                else:
                    differ += 1
                    print(f"DIFFERS  installed {installed}  pure {pure}  {what}", flush=True)
        if args.compare_builds:
            print(f"{same} of {same + differ} command outputs byte-identical between the installed build "
                  "and pure Python")
            sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
