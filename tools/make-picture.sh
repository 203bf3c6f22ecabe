#!/usr/bin/env bash
# Redraw the pictures in README.md: docs/sheet-sochi.png (samples/sochi-evening.jsonl) and docs/stats-samples.png.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
vistlog sheet samples/sochi-evening.jsonl --upto 24 --format svg > "$tmp/sheet.svg"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$tmp/profile" --hide-scrollbars \
    --window-size=780,830 --screenshot=docs/sheet-sochi.png "file://$tmp/sheet.svg" >/dev/null 2>&1
echo "docs/sheet-sochi.png"
# and docs/stats-samples.png, the statistics page of the samples
vistlog stats samples/ --format html -o "$tmp/stats.html" 2>/dev/null
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-sync --hide-scrollbars \
    --window-size=760,1100 --screenshot=docs/stats-samples.png "file://$tmp/stats.html" >/dev/null 2>&1
rm -rf "$tmp"
echo "docs/stats-samples.png"
