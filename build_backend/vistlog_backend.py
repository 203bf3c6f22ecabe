"""setuptools' build backend, asking for mypy when ``VISTLOG_COMPILE=1`` builds the compiled modules.

The mypy release is pinned: the compiled build is tested with that one.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403

# mypy reads the attrs classes through attrs' own plugin and types: the libraries the compiled modules use
MYPYC: list[str] = ["mypy==2.4.1", "attrs>=23.1", "cattrs>=24.1", "orjson>=3.9"]


def _compile() -> list[str]:
    return MYPYC if os.environ.get("VISTLOG_COMPILE") == "1" else []


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    """What setuptools needs, and mypy when the compiled build is asked for."""
    return _setuptools.get_requires_for_build_wheel(config_settings) + _compile()


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    """What setuptools needs, and mypy when the compiled build is asked for."""
    return _setuptools.get_requires_for_build_editable(config_settings) + _compile()
