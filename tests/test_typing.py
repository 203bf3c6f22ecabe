"""The type hints hold (mypy over events/, projections/ and vistlog/) and the code is clean (ruff over
the whole repository); both are configured in pyproject.toml."""

from __future__ import annotations

import subprocess
from pathlib import Path
import sys

import pytest

from .conftest import ROOT


def test_mypy_finds_no_issues() -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-1000:]


def test_ruff_finds_no_issues() -> None:
    pytest.importorskip("ruff", reason="ruff is in the test extra: pip install -e '.[test]'")
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-1000:]


def test_mypy_catches_a_misspelt_option_value(tmp_path: Path) -> None:
    """Options are ``Literal`` types and mypy runs with ``strict_equality``: a typo in a rule is an error."""
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    code = tmp_path / "typo.py"
    code.write_text("from vistlog.events.rules import PreferansOptions, SerbianOptions\n\n\n"
                    "def f(o: PreferansOptions, s: SerbianOptions) -> bool:\n"
                    "    return o.consolation == 'ordinry' or s.kontra_max == 'mortcontra'\n")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict-equality", "--no-error-summary", str(code)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1
    assert "Literal['ordinry']" in proc.stdout and "Literal['mortcontra']" in proc.stdout
