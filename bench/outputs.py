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
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
COMMANDS = (["validate"], ["settle"], ["settle", "--format", "json"], ["sheet"], ["sheet", "--format", "json"],
            ["sheet", "--format", "csv"], ["sheet", "--format", "html"], ["audit"], ["audit", "--format", "json"],
            ["replay"], ["stats", "--format", "json"], ["sheet", "--upto", "3"],
            ["sheet", "--upto", "999", "--format", "csv"], ["replay", "--upto", "2"], ["export", "--to", "csv"],
            ["analyse", "--format", "json"], ["analyse"], ["replay", "--values"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=HERE, help="the checkout whose vistlog runs")
    ap.add_argument("--extra", nargs="*", default=[], help="more logs")
    args = ap.parse_args()
    logs = sorted(str(p) for p in (HERE / "samples").glob("*.jsonl")) + sorted(
        str(p) for p in (HERE / "tests" / "vectors").glob("*.jsonl")) + args.extra
    env = {**os.environ, "PYTHONPATH": str(args.root.resolve())}
    for log in logs:
        for cmd in COMMANDS:
            done = subprocess.run([sys.executable, "-m", "vistlog", *cmd, log], cwd=args.root, env=env,
                                  capture_output=True, timeout=600)
            digest = hashlib.sha256(done.stdout + b"\0" + done.stderr + b"\0" + str(done.returncode).encode())
            print(f"{digest.hexdigest()[:16]}  {Path(log).name}: vistlog {' '.join(cmd)}", flush=True)


if __name__ == "__main__":
    main()
