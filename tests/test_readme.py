"""The examples of README.md and docs/cli.md on the samples are what the program prints (so they cannot drift)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import vistlog.cli
from vistlog.cli import main

from .conftest import ROOT

vistlog.cli.RAISE_INTERNAL_ERRORS = True


def examples() -> list[tuple[str, list[str]]]:
    """Every ``$ vistlog ...`` line of a README block that runs on ``samples/`` alone, with the
    lines shown under it (up to the next command or the end of the block)."""
    out: list[tuple[str, list[str]]] = []
    in_block = False
    shown: list[str] | None = None  # the lines under the current command
    text = "\n".join((ROOT / page).read_text(encoding="utf-8") for page in ("README.md", "docs/cli.md"))
    for line in text.splitlines():
        if line.startswith("```"):
            in_block, shown = not in_block, None
        elif in_block and line.startswith("$ "):
            shown = []
            out.append((line[2:], shown))
        elif shown is not None and line:
            shown.append(line)
    return [(cmd, shown) for cmd, shown in out
            if re.fullmatch(r"vistlog( [\w.\-/]+| --[\w-]+( \w+)?)+", cmd) and "samples/" in cmd]


@pytest.mark.parametrize("cmd, shown", examples(), ids=lambda x: x if isinstance(x, str) else "")
def test_readme_example(cmd: str, shown: list[str], capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")  # what an example writes stays out of the checkout
    monkeypatch.chdir(tmp_path)
    main(cmd.split()[1:])
    out, err = capsys.readouterr()
    printed = [line.rstrip() for line in (out + err).splitlines()]
    at = 0
    for line in shown:  # in order, skipping what the README leaves out with "..."
        if line.strip() == "...":
            continue
        assert line.rstrip() in printed[at:], f"the docs show {line!r}, the program does not print it here"
        at = printed.index(line.rstrip(), at) + 1


def test_the_readme_has_examples_to_check() -> None:
    assert len(examples()) >= 6
