"""What a command costs before it does anything: ``vistlog --version``, ``validate`` and ``deal`` against
``python -c "import orjson, attrs, cattrs"``, each in its own process, in one run.

    python bench/startup.py [--runs 15]

Every command runs ``--runs`` times, the commands taken in turn so that a slow spell of the machine
touches them all alike; each line gives the median wall time and its ratio to the bare import (issue 45's
targets: ``--version`` and ``validate`` of the 43-deal sample at most 2 times, ``deal`` on that log at most
3 times). It runs the pure build (``VISTLOG_BUILD=pure``) with byte-code caching on, as an installed
vistlog runs (this workplace sets ``PYTHONDONTWRITEBYTECODE``, which would make every run compile its
modules again). ``deal`` records the 43rd deal into a fresh copy of the sample's first 42, made before each run
and not timed.

It also lists the modules each command imports beyond the bare import that a lazy CLI should not need
(the renderers, the solver, the analysis, the statistics, the importers, the pad).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "sochi-evening.jsonl"
HEAVY = ("vistlog.projections.render", "vistlog.projections.solver", "vistlog.projections.analysis",
         "vistlog.projections.stats", "vistlog.events.importers.csv_protocol", "vistlog.pad", "vistlog.views",
         "vistlog.archive")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["VISTLOG_BUILD"] = "pure"
    return env


def _open_log(folder: Path) -> Path:
    """The sample up to its last deal (42 deals, every pool still open): a game the next deal is recorded in."""
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if b'"deal_started"' in line)
    log = folder / "evening.jsonl"
    log.write_bytes(b"".join(lines[:last]))
    return log


def _time(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def _imported(code: str, env: dict[str, str]) -> list[str]:
    probe = (f"import sys\n{code}\n"
             f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False)
    return out.stdout.split()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    env = _env()
    py = sys.executable
    deal = "распасы; Аня 4 Боря 3 Вова 3"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        commands = {
            "bare import (orjson, attrs, cattrs)": [py, "-c", "import orjson, attrs, cattrs"],
            "vistlog --version": [py, "-m", "vistlog", "--version"],
            "vistlog validate (43 deals)": [py, "-m", "vistlog", "validate", str(SAMPLE)],
            "vistlog deal (its 43rd deal)": [py, "-m", "vistlog", "deal", str(folder / "evening.jsonl"), deal],
        }
        for argv in commands.values():  # warm the byte-code cache
            _open_log(folder)
            _time(argv, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, argv in commands.items():
                _open_log(folder)
                times[name].append(_time(argv, env))
        log = _open_log(folder)
        before = log.read_bytes().count(b"\n")
        check = subprocess.run(commands["vistlog deal (its 43rd deal)"], env=env, capture_output=True,
                               text=True, check=False)
        assert check.returncode == 0, check.stderr
        recorded = log.read_bytes().count(b"\n") - before
    base = statistics.median(times["bare import (orjson, attrs, cattrs)"])
    targets = {"vistlog --version": 2, "vistlog validate (43 deals)": 2, "vistlog deal (its 43rd deal)": 3}
    print(f"pure build, median of {args.runs} runs each (python {sys.version.split()[0]})")
    for name, ts in times.items():
        med = statistics.median(ts)
        target = targets.get(name)
        verdict = "" if target is None else f"  target <= {target}x: {'met' if med / base <= target else 'NOT met'}"
        print(f"  {name:38} {med * 1000:7.1f} ms  {med / base:5.2f}x{verdict}")
    print(f"  (deal wrote {recorded} line(s) each run)")
    for name, argv in (("--version", ["--version"]), ("validate", ["validate", str(SAMPLE)])):
        code = ("import contextlib, io\nfrom vistlog.cli import main\n"
                f"with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit): main({argv!r})")
        heavy = _imported(code, env)
        print(f"  heavy modules {name} imports: {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()
