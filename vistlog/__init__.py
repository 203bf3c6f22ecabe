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
>>> game.variant, game.settlement().exact["Боря"]
('sochi', Fraction(344, 3))

The lower floors are ``vistlog.events`` (the write side: events, rules, codec, log, state
machine) and ``vistlog.projections`` (the read side: scoring, settlement, audit, rendering);
their names may change between versions, the names here do not.
"""

from vistlog import build

build._install_pure_finder()  # VISTLOG_BUILD=pure: the source files, before any module below is imported

from vistlog.events.codec import DecodeError
from vistlog.events.importers import ImportedGame, SourceError
from vistlog.events.game import Table
from vistlog.events.nextstep import Next
from vistlog.events.log import AppendConflict, AppendRejected, KeyRequired, LogUnreadable, VerifyResult
from vistlog.events.notation import NotationError
from vistlog.events.problems import CODES, Problem, UnknownName, VistlogError
from vistlog.events.rules import RulesError
from vistlog.projections.analysis import GameAnalysis
from vistlog.projections.audit import AuditReport, ClaimError, Mismatch
from vistlog.projections.split import WorkerFailed

from . import archive, views
from .api import (
    FORMATS_IN, FORMATS_OUT, SOLVER_COMPILED, VARIANTS, Checker, Game, GameReader, IllegalEventError, Kind,
    LogProblems, Settlement, Recorder, Sheet, Source, Variant, append, cannot_carry, check_log, deal_lines, dump,
    game_events, load, read_games, verify,
)
from .output import OutputError

__all__ = [
    "read_games", "check_log", "Game", "GameReader", "Sheet", "Settlement", "AuditReport", "Mismatch",
    "GameAnalysis", "SOLVER_COMPILED",
    "Variant", "VARIANTS", "Kind", "Source",
    "Checker", "IllegalEventError", "Table", "Next", "Recorder", "deal_lines", "NotationError", "AppendConflict",
    "append", "verify", "VerifyResult",
    "load", "dump", "cannot_carry", "game_events", "ImportedGame", "FORMATS_IN", "FORMATS_OUT",
    "views", "archive", "build",
    "VistlogError", "UnknownName", "LogUnreadable", "AppendRejected", "DecodeError", "RulesError", "SourceError",
    "ClaimError", "KeyRequired",
    "OutputError", "LogProblems", "WorkerFailed",
    "Problem", "CODES",
]
