"""Every docstring example of the installed package runs, as ``vistlog.*`` (one import root)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import vistlog

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> list[str]:
    names = ["vistlog"]
    for info in pkgutil.walk_packages(vistlog.__path__, "vistlog."):
        if not info.name.endswith("__main__"):  # importing it runs the program
            names.append(info.name)
    return sorted(names)


MODULES = _modules()


def test_the_package_has_its_subpackages() -> None:
    assert {"vistlog.events.codec", "vistlog.projections.fold", "vistlog.projections.render.drawing"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # examples name files of the repository (samples/, tests/vectors/)
    module: ModuleType = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(module, optionflags=flags, verbose=False, report=True)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed (see the output above)"
