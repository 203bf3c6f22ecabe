"""Shared fixtures: hypothesis profiles and where the test data lives."""

from __future__ import annotations

import importlib.machinery
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("stress", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""The properties that run few examples by default (a whole log split over workers) run 200 under this profile."""
STRESS = os.environ.get("HYPOTHESIS_PROFILE") == "stress"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent

os.environ["VISTLOG_BUDGET"] = "exact"
"""The analysis's default budget is a time, so what it gives depends on the machine's speed: the tests' commands
(and the servers they start) wait for every count, and a test of the budget names the one it means."""


def patches_inside(module: ModuleType) -> pytest.MarkDecorator:
    """Skip a test that replaces a function or method of ``module`` to inject a fault or count calls,
    where ``module`` runs compiled: mypyc's code calls its own functions directly, past the patch.
    CI runs the whole suite against the pure build too, where every such test runs."""
    origin = getattr(module, "__file__", None) or ""
    compiled = origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    return pytest.mark.skipif(compiled, reason=f"{module.__name__} is compiled: a patch inside it is not seen")
VECTORS = ROOT / "tests" / "vectors"
SAMPLES = ROOT / "samples"


@pytest.fixture(autouse=True)
def own_temp_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets a temporary folder of its own for everything vistlog spools or spills
    (``tempfile`` and the ``TMPDIR`` of any process it starts): another vistlog run on the same
    machine, or a second run of this suite beside it, never shares the files a test counts."""
    folder = tmp_path_factory.mktemp("tmp")
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, driven by Playwright (launched with ``executable_path``: Playwright's own
    browser download is never used); skipped where it is not installed."""
    from .test_pad import ARGS, CHROMIUM

    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
