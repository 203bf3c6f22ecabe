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

if TYPE_CHECKING:  # written by tools/make-api.py --init from _PUBLIC below; a test keeps them equal
    from vistlog.games import (
        Game, GameName, GameReader, Kind, LogProblems, PresetName, Settlement, Sheet, Source, check_log, game_events,
        game_names, kind_names, preset_names, read_games,
    )
    from vistlog.api import SOLVER_COMPILED
    from vistlog.projections.audit import AuditReport, ClaimError, Mismatch
    from vistlog.projections.analysis import GameAnalysis
    from vistlog.recording import (
        Checker, DealDraft, DraftError, IllegalEventError, Recorder, append, deal_lines, read_draft, verify,
    )
    from vistlog.events.game import Table
    from vistlog.events.nextstep import Next
    from vistlog.events.notation import NotationError
    from vistlog.events.log import AppendConflict, AppendRejected, KeyRequired, LogBusy, LogUnreadable, VerifyResult
    from vistlog.formats import FORMATS_IN, FORMATS_OUT, cannot_carry, dump, load
    from vistlog.events.importers import ImportedGame, SourceError
    from . import archive, build, views
    from vistlog.events.problems import CODES, Problem, UnknownName, VistlogError
    from vistlog.events.codec import DecodeError
    from vistlog.events.rules import RulesError
    from vistlog.output import OutputError
    from vistlog.projections.split import WorkerFailed

_PUBLIC: dict[str, tuple[str, ...]] = {
    "vistlog.games": ("read_games", "check_log", "Game", "GameReader", "Sheet", "Settlement", "LogProblems", "Source",
                      "GameName", "game_names", "PresetName", "preset_names", "Kind", "kind_names", "game_events"),
    "vistlog.api": ("SOLVER_COMPILED",),
    "vistlog.projections.audit": ("AuditReport", "Mismatch", "ClaimError"),
    "vistlog.projections.analysis": ("GameAnalysis",),
    "vistlog.recording": ("Checker", "IllegalEventError", "Recorder", "deal_lines", "append", "verify", "DealDraft",
                          "DraftError", "read_draft"),
    "vistlog.events.game": ("Table",),
    "vistlog.events.nextstep": ("Next",),
    "vistlog.events.notation": ("NotationError",),
    "vistlog.events.log": ("AppendConflict", "VerifyResult", "LogUnreadable", "AppendRejected", "KeyRequired",
                           "LogBusy"),
    "vistlog.formats": ("load", "dump", "cannot_carry", "FORMATS_IN", "FORMATS_OUT"),
    "vistlog.events.importers": ("ImportedGame", "SourceError"),
    "": ("views", "archive", "build"),
    "vistlog.events.problems": ("VistlogError", "UnknownName", "Problem", "CODES"),
    "vistlog.events.codec": ("DecodeError",),
    "vistlog.events.rules": ("RulesError",),
    "vistlog.output": ("OutputError",),
    "vistlog.projections.split": ("WorkerFailed",),
}
"""The public API, declared once: each name and the module it lives in. ``__all__`` is these names; each is
imported when first used (PEP 562), so a command pays only for what it uses: ``import vistlog`` imports no game,
no codec and no renderer, and writing a log (:mod:`vistlog.recording`) imports nothing of the read side. The
imports under ``TYPE_CHECKING`` above say the same to type checkers and editors (``tools/make-api.py --init``
writes them from this table; a test keeps them equal)."""

__all__ = [name for names in _PUBLIC.values() for name in names]

_WHERE: dict[str, str] = {name: module for module, names in _PUBLIC.items() for name in names}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        from importlib.util import find_spec

        if name.startswith("_") or find_spec(f"vistlog.{name}") is None:
            raise AttributeError(f"module 'vistlog' has no attribute {name!r}")
        return importlib.import_module(f"vistlog.{name}")  # a submodule: vistlog.api, vistlog.games, …
    where = _WHERE[name]
    value = importlib.import_module(f"vistlog.{name}") if where == "" else getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

