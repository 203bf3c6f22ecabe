"""The modules behind the Python API, in one place for vistlog's own clients (the command line, the pad): the public
names are declared once, in :mod:`vistlog` (``vistlog._PUBLIC``); the rest here (``LiveFold``, ``kind_name``…) is
what only those clients need, and may change.

Everything here is a thin layer over :mod:`vistlog.events` (the write side) and
:mod:`vistlog.projections` (the read side); the command line is built on it and on
:mod:`vistlog.views` and :mod:`vistlog.archive`, as any other client would be.

>>> import vistlog
>>> games = read_games("samples/sochi-evening.jsonl")
>>> game = next(games)
>>> game.id, game.players, game.variant, game.preset, game.sound
('sochi-2026-11-28', ('Аня', 'Боря', 'Вова'), 'preferans', 'sochi', True)
>>> game.sheet(after_deal=6).value("Вова", "mountain")
19
>>> dict(game.settlement().rounded)
{'Аня': -577, 'Боря': 115, 'Вова': 462}
"""

from __future__ import annotations

from vistlog.events.codec import DecodeError
from vistlog.events.game import Table
from vistlog.events.importers import ImportedGame, SourceError
from vistlog.events.log import MAX_LINE, AppendConflict, AppendRejected, LogBusy, LogUnreadable, VerifyResult
from vistlog.events.nextstep import Next
from vistlog.events.notation import NotationError
from vistlog.events.problems import Problem, UnknownName, VistlogError
from vistlog.projections.analysis import GameAnalysis, analysis_json, default_budget
from vistlog.projections.budget import seconds as budget_seconds
from vistlog.projections.audit import AuditReport, ClaimError
from vistlog.projections.odds import Decision, SingleDummy
from vistlog.projections.live import LiveFold
from vistlog.projections.solver import COMPILED as _SOLVER_COMPILED

from .formats import FORMATS_IN, FORMATS_OUT, cannot_carry, dump, load
from .games import (
    Game, GameName, GameReader, Kind, LogProblems, PresetName, Settlement, Sheet, Source, check_log, game_events,
    game_names, kind_name, open_log, parse_line, preset_names, read_games,
)
from .output import OutputError
from .recording import Checker, IllegalEventError, Recorder, append, deal_lines, input_lines, verify


SOLVER_COMPILED: bool = _SOLVER_COMPILED
"""The compiled open-hand solver was built with this install (else :meth:`Game.analysis` runs the pure
search; the answers are the same)."""
