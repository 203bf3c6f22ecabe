"""Everything vistlog raises on bad input, in one place (each under :class:`VistlogError`), and the
:class:`Problem` a check reports.

Each class lives with the code that raises it; this module names them for the clients (the command line, the
pad) and imports each only when it is first asked for, so that catching an error costs no start-up.

>>> from vistlog.errors import LogUnreadable, VistlogError
>>> issubclass(LogUnreadable, VistlogError)
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vistlog.events.codec import DecodeError
    from vistlog.events.importers import SourceError
    from vistlog.events.log import AppendConflict, AppendRejected, KeyRequired
    from vistlog.events.notation import NotationError
    from vistlog.events.problems import LogUnreadable, Problem, UnknownName, VistlogError
    from vistlog.events.rules import RulesError
    from vistlog.projections.audit import ClaimError

__all__ = ["VistlogError", "UnknownName", "LogUnreadable", "DecodeError", "AppendRejected", "AppendConflict",
           "KeyRequired", "NotationError", "SourceError", "RulesError", "ClaimError", "Problem"]

_WHERE: dict[str, str] = {
    "VistlogError": "vistlog.events.problems", "UnknownName": "vistlog.events.problems",
    "LogUnreadable": "vistlog.events.problems", "Problem": "vistlog.events.problems",
    "DecodeError": "vistlog.events.codec", "AppendRejected": "vistlog.events.log",
    "AppendConflict": "vistlog.events.log", "KeyRequired": "vistlog.events.log",
    "NotationError": "vistlog.events.notation", "SourceError": "vistlog.events.importers",
    "RulesError": "vistlog.events.rules", "ClaimError": "vistlog.projections.audit",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'vistlog.errors' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value
