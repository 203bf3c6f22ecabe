"""What a club player sees is the same however it is asked for (issue 30)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOGS = [ROOT / "samples" / "disputed-sheet.jsonl", ROOT / "samples" / "solo-whist-evening.jsonl"]


def _run(*args: str) -> tuple[int, str, set[str]]:
    done = subprocess.run([sys.executable, "-m", "vistlog", *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, set(done.stderr.splitlines())


@pytest.mark.parametrize("command", ["validate", "settle", "audit"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_worker_count_changes_nothing_a_single_log_prints(command: str, fmt: str, tmp_path: Path) -> None:
    """Item 3: ``--jobs`` changes the speed, not the form: one log prints the one-log form whatever it says."""
    import vistlog
    from vistlog.events.codec import unstructure

    two = tmp_path / "two-games.jsonl"  # what stands between two games is part of the form
    vistlog.append(two, [{k: v for k, v in unstructure(e).items() if k not in ("seq", "_chain")}
                         for log in LOGS for e in vistlog.game_events(log)])
    for log in [*LOGS, two]:
        alone = _run(command, str(log), "--format", fmt)
        for jobs in ("1", "2"):
            assert _run(command, str(log), "--format", fmt, "--jobs", jobs) == alone, (log.name, jobs)
    if fmt == "json" and command != "validate":
        assert alone[1].startswith('{\n  "games"')


def test_the_html_page_shows_the_record_that_stands_as_standing_with_its_own_entries() -> None:
    """Item 1: a deal voided and recorded again: the voided record struck with its entries, the one that
    stands not struck, with its own only."""
    import re

    import vistlog

    (game,) = vistlog.read_games(ROOT / "samples" / "corrected-deal.jsonl")
    page = vistlog.views.html(game)
    rows = [r for r in re.findall(r"<tr[^>]*>.*?</tr>", page, re.S) if '<td class="num">2</td>' in r]
    assert len(rows) == 2
    voided, standing = rows
    assert voided.startswith('<tr class="void">') and "7S failed" in voided and "without three" not in voided
    assert standing.startswith("<tr>") and "given up without three" in standing and "failed" not in standing


def test_a_pbn_comment_after_a_tag_on_its_line_is_a_comment(tmp_path: Path) -> None:
    """Item 9: ``[Event "x"] ; a comment``, as in the PBN standard's own examples."""
    import vistlog

    (game,) = vistlog.read_games(ROOT / "samples" / "solo-whist-evening.jsonl")
    text = vistlog.dump(vistlog.game_events(ROOT / "samples" / "solo-whist-evening.jsonl"), "pbn")
    commented = "\n".join(line + ' ; "a comment", as the standard writes them' if line.startswith("[") else line
                          for line in text.splitlines()) + "\n"
    assert commented.count("; \"a comment\"") > 10
    plain, with_comments = tmp_path / "plain.pbn", tmp_path / "commented.pbn"
    plain.write_text(text, encoding="utf-8")
    with_comments.write_text(commented, encoding="utf-8")
    def events(path: Path) -> list[list[dict[str, object]]]:
        return [[{k: v for k, v in ev.items() if k != "_source"} for ev in g.events] for g in vistlog.load(path, "pbn")]

    assert events(with_comments) == events(plain)
    assert game.started
