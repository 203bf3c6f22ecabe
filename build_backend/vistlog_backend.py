"""setuptools' build backend, asking for mypy when ``VISTLOG_COMPILE=1`` builds the compiled modules.

mypy reads the attrs classes through the libraries themselves, so the project's own dependencies
(from ``pyproject.toml``) are asked for too. The mypy release is pinned: the compiled build is
tested with that one.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403

MYPY = "mypy==2.4.1"


def _compile() -> list[str]:
    if os.environ.get("VISTLOG_COMPILE") != "1":
        return []
    with (Path(__file__).resolve().parent.parent / "pyproject.toml").open("rb") as f:
        return [MYPY, *tomllib.load(f)["project"]["dependencies"]]


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    """What setuptools needs, and mypy when the compiled build is asked for."""
    return _setuptools.get_requires_for_build_wheel(config_settings) + _compile()


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    """What setuptools needs, and mypy when the compiled build is asked for."""
    return _setuptools.get_requires_for_build_editable(config_settings) + _compile()
