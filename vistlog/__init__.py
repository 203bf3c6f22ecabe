"""vistlog: score keeper and auditor for преферанс (Preferans) and вист-соло (Solo Whist).

A game is a JSON Lines log of immutable events; vistlog checks each event against the game so
far, folds the log into the score sheet (пулька) and settles it exactly. The API:

- :func:`read_games` reads a log (a path, a stream, events, or what :func:`load` gives) into
  :class:`Game` values, each with its own ``problems``; a game gives its :meth:`~Game.sheet`
  after any deal (a :class:`Sheet`), its :meth:`~Game.settlement` (a :class:`Settlement`),
  :meth:`~Game.audit` (an :class:`AuditReport`) and :meth:`~Game.replay`;
- :class:`Checker` checks events one at a time (``is_legal``, ``push``, ``table``);
- :class:`Recorder` records at the table (a deal in one line, :func:`deal_lines` prints them;
  the score pad, ``vistlog serve``, writes with it);
- :func:`append` and :func:`verify` keep the tamper-evident log (optionally keyed);
- :func:`load` and :func:`dump` read and write other programs' formats;
- :mod:`vistlog.views` renders games as text, JSON, CSV, SVG and HTML; :mod:`vistlog.archive`
  runs many logs, imports folders and builds statistics;
- everything raised on bad input or a file that cannot be read or written is a
  :class:`VistlogError`, with ``code`` and ``problems``; a :class:`Problem` carries a stable
  ``code`` (see :data:`CODES`).

>>> import vistlog
>>> game = next(vistlog.read_games("samples/sochi-evening.jsonl"))
>>> game.preset, game.settlement().exact["Боря"]
('sochi', Fraction(344, 3))

The lower floors are ``vistlog.events`` (the write side: events, rules, codec, log, state
machine) and ``vistlog.projections`` (the read side: scoring, settlement, audit, rendering);
their names may change between versions, the names here do not.
"""

from vistlog import build

build._install_pure_finder()  # VISTLOG_BUILD=pure: the source files, before any module below is imported

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are, for mypy and editors; at run time each is imported when first used
    from vistlog.events.codec import DecodeError
    from vistlog.events.draft import DealDraft, DraftError, read_draft
    from vistlog.events.game import Table
    from vistlog.events.importers import ImportedGame, SourceError
    from vistlog.events.log import AppendConflict, AppendRejected, KeyRequired, LogBusy, LogUnreadable, VerifyResult
    from vistlog.events.nextstep import Next
    from vistlog.events.notation import NotationError
    from vistlog.events.problems import CODES, Problem, UnknownName, VistlogError
    from vistlog.events.rules import RulesError
    from vistlog.projections.analysis import GameAnalysis
    from vistlog.projections.audit import AuditReport, ClaimError, Mismatch
    from vistlog.projections.split import WorkerFailed

    from . import archive, views
    from .api import (
        FORMATS_IN, FORMATS_OUT, PRESETS, SOLVER_COMPILED, VARIANTS, Checker, Game, GameReader, IllegalEventError, Kind,
        LogProblems, Preset, Recorder, Settlement, Sheet, Source, Variant, append, cannot_carry, check_log, deal_lines,
        dump, game_events, load, read_games, verify,
    )
    from .output import OutputError

__all__ = [
    "read_games", "check_log", "Game", "GameReader", "Sheet", "Settlement", "AuditReport", "Mismatch",
    "GameAnalysis", "SOLVER_COMPILED",
    "Variant", "VARIANTS", "Preset", "PRESETS", "Kind", "Source",
    "Checker", "IllegalEventError", "Table", "Next", "Recorder", "deal_lines", "NotationError", "AppendConflict",
    "DealDraft", "DraftError", "read_draft",
    "append", "verify", "VerifyResult",
    "load", "dump", "cannot_carry", "game_events", "ImportedGame", "FORMATS_IN", "FORMATS_OUT",
    "views", "archive", "build",
    "VistlogError", "UnknownName", "LogUnreadable", "AppendRejected", "DecodeError", "RulesError", "SourceError",
    "ClaimError", "KeyRequired", "LogBusy",
    "OutputError", "LogProblems", "WorkerFailed",
    "Problem", "CODES",
]

_WHERE: dict[str, str] = {
    **dict.fromkeys(("DecodeError",), "vistlog.events.codec"),
    **dict.fromkeys(("Table",), "vistlog.events.game"),
    **dict.fromkeys(("ImportedGame", "SourceError"), "vistlog.events.importers"),
    **dict.fromkeys(("AppendConflict", "AppendRejected", "KeyRequired", "LogBusy", "LogUnreadable", "VerifyResult"),
                    "vistlog.events.log"),
    **dict.fromkeys(("Next",), "vistlog.events.nextstep"),
    **dict.fromkeys(("NotationError",), "vistlog.events.notation"),
    **dict.fromkeys(("CODES", "Problem", "UnknownName", "VistlogError"), "vistlog.events.problems"),
    **dict.fromkeys(("RulesError",), "vistlog.events.rules"),
    **dict.fromkeys(("GameAnalysis",), "vistlog.projections.analysis"),
    **dict.fromkeys(("AuditReport", "ClaimError", "Mismatch"), "vistlog.projections.audit"),
    **dict.fromkeys(("WorkerFailed",), "vistlog.projections.split"),
    **dict.fromkeys(("OutputError",), "vistlog.output"),
    **dict.fromkeys(("Checker", "IllegalEventError", "Recorder", "deal_lines", "input_lines", "append", "verify",
                     "MAX_LINE", "DealDraft", "DraftError", "read_draft"), "vistlog.recording"),
    **dict.fromkeys(("FORMATS_IN", "FORMATS_OUT", "load", "dump", "cannot_carry"), "vistlog.formats"),
    **dict.fromkeys(("archive", "views"), ""),
}
"""Where each public name lives; the rest of ``__all__`` is :mod:`vistlog.api`'s. A command pays only for
what it uses (PEP 562): ``import vistlog`` imports no game, no codec and no renderer, and writing a log
(:mod:`vistlog.recording`) imports nothing of the read side."""


def __getattr__(name: str) -> Any:
    if name not in __all__:
        from importlib.util import find_spec

        if name.startswith("_") or find_spec(f"vistlog.{name}") is None:
            raise AttributeError(f"module 'vistlog' has no attribute {name!r}")
        return importlib.import_module(f"vistlog.{name}")  # a submodule: vistlog.api, vistlog.games, …
    where = _WHERE.get(name, "vistlog.api")
    value = importlib.import_module(f"vistlog.{name}") if where == "" else getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

