"""Which build of vistlog runs: pure Python, or with modules compiled by mypyc.

The same source serves both. ``VISTLOG_COMPILE=1 pip install .`` compiles the modules named in
:data:`MYPYC_MODULES` with mypyc where a C compiler exists (see ``setup.py``); a plain install
leaves them pure Python. A compiled install runs pure Python again with ``VISTLOG_BUILD=pure``
in the environment (the benchmark compares the two builds that way, in one install).

>>> from vistlog import build
>>> "vistlog.events.codec" in build.MYPYC_MODULES
True
>>> build.describe().startswith(("pure Python", "compiled"))
True
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Final

__all__ = ["MYPYC_MODULES", "PURE_SWITCH", "compiled_modules", "describe", "solver_compiled"]

#: The modules ``VISTLOG_COMPILE=1`` compiles (``setup.py`` reads this list). The attrs event
#: classes, the importers, the renderers and the command line stay pure (docs/performance.md says why).
MYPYC_MODULES: Final[tuple[str, ...]] = (
    "vistlog.events.codec", "vistlog.events.fasthooks", "vistlog.events.hooks", "vistlog.events.log",
    "vistlog.events.chain", "vistlog.events.locking", "vistlog.events.incoming",
    "vistlog.events.journal", "vistlog.events.lines", "vistlog.events.verify", "vistlog.events.calls",
    "vistlog.events.game", "vistlog.events.gamehooks", "vistlog.events.table", "vistlog.events.checker",
    "vistlog.events.games.preferans.game", "vistlog.events.games.serbian.game", "vistlog.events.games.serbian.deal",
    "vistlog.events.games.solo_whist.game", "vistlog.events.play", "vistlog.events.rules", "vistlog.events.problems",
    "vistlog.events.seating", "vistlog.events.text", "vistlog.events.variants",
    "vistlog.events.entries", "vistlog.events.scoring", "vistlog.events.tally", "vistlog.events.games.preferans.score",
    "vistlog.events.games.solo_whist.score", "vistlog.projections.fold", "vistlog.projections.kept",
    "vistlog.projections.settlement", "vistlog.projections.variants",
    "vistlog.projections.reports",
)

#: The environment variable (and its value) that makes a compiled install run pure Python.
PURE_SWITCH: Final = ("VISTLOG_BUILD", "pure")

_GROUP: Final = "vistlog._compiled__mypyc"


class _SourceFirst:
    """Finds vistlog's modules as source files even where a compiled one lies beside them (a meta path
    finder: ``find_spec`` is all the import system asks of one)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MYPYC_MODULES or not path:
            return None
        from importlib.util import spec_from_file_location

        name = fullname.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, f"{name}.py")
            if os.path.isfile(source):
                return spec_from_file_location(fullname, source)
        return None


def _install_pure_finder() -> None:
    if os.environ.get(PURE_SWITCH[0]) == PURE_SWITCH[1] and not any(
            isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())


def _is_compiled(name: str) -> bool:
    module = sys.modules.get(name)
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    if module is not None:
        return (getattr(module, "__file__", None) or "").endswith(suffixes)
    if os.environ.get(PURE_SWITCH[0]) == PURE_SWITCH[1]:
        return False
    # where it would be imported from, without running it nor the packages between it and its floor (a game's
    # package imports its game): a compiled module lies beside its source, and the import system takes it first
    from importlib.util import find_spec

    parts = name.split(".")
    floor = find_spec(".".join(parts[:2]))
    folders = (floor.submodule_search_locations or []) if floor is not None else []
    return any(os.path.isfile(os.path.join(folder, *parts[2:]) + suffix) for folder in folders for suffix in suffixes)


def compiled_modules() -> tuple[str, ...]:
    """The modules of :data:`MYPYC_MODULES` that run compiled in this process (those not imported yet: that
    would, as the import system finds them now).

    >>> all(name.startswith("vistlog.") for name in compiled_modules())
    True
    """
    return tuple(name for name in MYPYC_MODULES if _is_compiled(name))


def describe() -> str:
    """One line saying which build runs, as ``vistlog --version`` prints it.

    For example ``pure Python`` or ``compiled (mypyc): 30 of 30 modules``.
    """
    compiled = compiled_modules()
    if not compiled:
        switched = os.environ.get(PURE_SWITCH[0]) == PURE_SWITCH[1]
        return "pure Python" + (f" ({PURE_SWITCH[0]}={PURE_SWITCH[1]})" if switched else "")
    return f"compiled (mypyc): {len(compiled)} of {len(MYPYC_MODULES)} modules"


def solver_compiled() -> bool:
    """The compiled open-hand solver (C) came with this install: :data:`vistlog.projections.solver.COMPILED`,
    asked without importing the solver (it is imported by the commands that solve).

    >>> isinstance(solver_compiled(), bool)
    True
    """
    module = sys.modules.get("vistlog.projections.solver")
    if module is not None:
        return bool(module.COMPILED)
    try:
        import importlib

        importlib.import_module("vistlog.projections._csolver")
    except ImportError:
        return False
    return True
