"""The documentation: docs/api.md is what the docstrings say, and every relative link resolves."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import vistlog

from .conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def _make_api() -> str:
    """The page as tools/make-api.py writes it: in its own process, from the source files in either build."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make-api.py")], capture_output=True, check=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    return done.stdout.decode("utf-8")


def test_the_api_page_is_generated_from_the_docstrings() -> None:
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert page == _make_api(), "docs/api.md is out of date: python tools/make-api.py > docs/api.md"


def test_every_public_name_is_on_the_api_page_with_words() -> None:
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^### `(\w+)`\n\n(.*?)(?=^### |^## |\Z)", page, re.S | re.M))
    names = [*vistlog.__all__, *vistlog.views.__all__, *vistlog.archive.__all__]
    missing = [n for n in names if n not in sections]
    assert missing == []
    wordless = [n for n in names if len(sections[n].split("\n\n", 1)[-1].split()) < 4]
    assert wordless == []


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = "".join(ch for ch in text if ch in " -" or unicodedata.category(ch)[0] in "LN")
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def _links() -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for a, b in LINK.findall(text):
            target = a or b
            if not re.match(r"[a-z]+:", target):
                out.append((str(page.relative_to(ROOT)), target))
    return out


def test_the_docs_have_links_to_check() -> None:
    assert len(_links()) >= 15


@pytest.mark.parametrize("page, target", _links())
def test_every_relative_link_resolves(page: str, target: str) -> None:
    path, _, anchor = target.partition("#")
    resolved = (ROOT / page).parent / path if path else ROOT / page
    assert resolved.exists(), f"{page}: {target}: no such file"
    assert ROOT in resolved.resolve().parents or resolved.resolve() == ROOT, f"{page}: {target} leaves the repository"
    if anchor and resolved.suffix == ".md":
        assert anchor in _anchors(resolved), f"{page}: {target}: no heading with that anchor"
