"""Peak memory of ``vistlog import`` against the size of its input: is it flat, and under 150 MB at the pad's
upload limit?

    python bench/import_memory.py [--sizes 0.25,1,4]

For each size (in MB) it writes one file of each format a club produces in bulk (a protocol CSV of
one-line deals; a Solo Whist PBN of boards, half of them played card by card), imports it into a new
log in a process of its own, and prints the child's peak resident memory (VmHWM) and time. The pad's
upload limit (``vistlog.pad.MAX_UPLOAD``) is set from these figures.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.simulate import solo_whist_game  # noqa: E402

PLAYERS = ("Аня", "Боря", "Вова")


def protocol_csv(path: Path, size: int) -> None:
    head = ["# game: big", "# kind: preferans", "# players: Аня, Боря, Вова", "# pool: 1000000",
            '# rules: {"preset":"sochi"}',
            "deal,dealer,declarer,contract,flags,whist:Аня,whist:Боря,whist:Вова,tricks:Аня,tricks:Боря,tricks:Вова"]
    with path.open("w", encoding="utf-8") as out:
        out.write("\n".join(head) + "\n")
        d = 0
        while out.tell() < size:
            d += 1
            out.write(f"{d},{PLAYERS[(d - 1) % 3]},,,,,,,3,3,4\n")


def solo_pbn(path: Path, size: int) -> None:
    deals = max(16, size // 470)
    events = [e for e in solo_whist_game(random.Random(3), deals=deals, card_play=0.5) if e["type"] != "game_ended"]
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "solo.jsonl"
        log.write_bytes(b"".join(orjson.dumps({**e, "seq": k}) + b"\n" for k, e in enumerate(events, start=1)))
        done = subprocess.run([sys.executable, "-m", "vistlog", "export", "--to", "pbn", str(log)],
                              check=True, capture_output=True)
    path.write_bytes(done.stdout)


def peak(source: Path, fmt: str) -> tuple[int, float]:
    with tempfile.TemporaryDirectory() as folder:
        code = ("import sys, vistlog.cli\n"
                "vistlog.cli.main(sys.argv[1:])\n"
                "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n")
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code, "import", "--from", fmt, str(source), "-o",
                               str(Path(folder) / "out.jsonl")], capture_output=True, text=True)
        return int(done.stdout.split()[-1]), time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--sizes", default="0.25,1,4", help="input sizes in MB, comma-separated")
    args = parser.parse_args()
    sizes = [int(float(x) * 1024 * 1024) for x in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        for size in sizes:
            csv = base / f"p{size}.csv"
            protocol_csv(csv, size)
            pbn = base / f"s{size}.pbn"
            solo_pbn(pbn, size)
            for fmt, src in (("csv", csv), ("pbn", pbn)):
                kb, secs = peak(src, fmt)
                print(f"{fmt:5} {src.stat().st_size / 1024 / 1024:6.2f} MB: peak {kb / 1024:6.1f} MB, {secs:5.1f} s",
                      flush=True)


if __name__ == "__main__":
    main()
