"""The replay page (``vistlog replay LOG --format html``): its size for an evening of card-level deals with the
analysis, and how long Debian's headless Chromium takes to show its first deal on a phone-sized screen.

    python bench/replay_page.py [--deals 40] [--seed 5] [--picture docs/replay-page.png]

Prints the size against the 400 KB target and the first render against the 300 ms target, each as a ratio: the
page's first contentful paint (the browser's own measure from the start of navigation; the viewer draws the first
deal before it), the median of five loads from the file with the network off, and beside it the wall time the
driver saw (which adds the driver's own round trips). ``--picture`` saves the screenshot the README shows.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.simulate import preferans_game  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--picture", metavar="PNG", help="save a screenshot of deal 14, trick 3 here")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        events = preferans_game(random.Random(a.seed), players=("Аня", "Боря", "Вова"), rules={"preset": "sochi"},
                                pool=60, max_deals=a.deals, card_play=1.0)
        log = Path(tmp) / "evening.jsonl"
        log.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), encoding="utf-8")
        out = Path(tmp) / "evening.html"
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "vistlog", "replay", str(log), "--format", "html", "--analyse", "-o",
                        str(out)], check=True)
        made = time.perf_counter() - t
        size = out.stat().st_size
        print(f"{a.deals} card-level deals with the analysis: {size / 1000:.0f} KB ({size / 400_000:.2f}x the "
              f"400 KB target), written in {made:.1f} s")
        chromium = shutil.which("chromium")
        if chromium is None:
            print("no chromium: the render is not timed")
            return
        from playwright.sync_api import sync_playwright

        times, paints = [], []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            for _ in range(5):
                context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                              offline=True)
                page = context.new_page()
                t = time.perf_counter()
                page.goto(out.as_uri())
                page.wait_for_selector("#v-deal")
                times.append(time.perf_counter() - t)
                page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
                paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
                paints.append(paint / 1000)
                context.close()
            if a.picture:
                context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
                page = context.new_page()
                sample = Path(tmp) / "open-hands.html"
                subprocess.run([sys.executable, "-m", "vistlog", "replay", str(ROOT / "samples" / "open-hands.jsonl"),
                                "--format", "html", "--analyse", "-o", str(sample)], check=True)
                page.goto(sample.as_uri() + "#deal=14&trick=3")
                page.wait_for_function("() => document.querySelector('#v-sheet svg') !== null")
                page.screenshot(path=a.picture)
                print(f"picture: {a.picture}")
            browser.close()
        first = statistics.median(paints)
        print(f"first deal shown (first contentful paint): median {first * 1000:.0f} ms of 5 loads "
              f"({first / 0.3:.2f}x the 300 ms target); as the driver saw it {statistics.median(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
