#!/usr/bin/env bash
# Redraw docs/sheet-sochi.png, the picture in README.md, from samples/sochi-evening.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
vistlog sheet samples/sochi-evening.jsonl --upto 24 --format svg > "$tmp/sheet.svg"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$tmp/profile" --hide-scrollbars \
    --window-size=780,830 --screenshot=docs/sheet-sochi.png "file://$tmp/sheet.svg" >/dev/null 2>&1
rm -rf "$tmp"
echo "docs/sheet-sochi.png"
