"""vistlog: score keeper and auditor for преферанс (Preferans) and вист-соло (Solo Whist).

A game is a JSON Lines log of immutable events; vistlog checks each event against the game so
far, folds the log into the score sheet (пулька) and settles it exactly. The API:

- :func:`read_games` reads a log (a path, a stream or events) into :class:`Game` values, each
  with its own ``problems``; a game gives its :meth:`~Game.sheet` after any deal, its
  :meth:`~Game.settlement`, :meth:`~Game.audit` and :meth:`~Game.replay`;
- :class:`Checker` checks events one at a time (``is_legal``, ``push``);
- :func:`append` and :func:`verify` keep the tamper-evident log;
- :func:`load` and :func:`dump` read and write other programs' formats;
- everything raised on bad input is a :class:`VistlogError`; a :class:`Problem` carries a
  stable ``code`` (see :data:`CODES`).

>>> import vistlog
>>> game = next(vistlog.read_games("samples/sochi-evening.jsonl"))
>>> game.settlement().exact["Боря"]
Fraction(344, 3)

The lower floors are ``vistlog.events`` (the write side: events, rules, codec, log, state
machine) and ``vistlog.projections`` (the read side: scoring, settlement, audit, rendering).
"""

from vistlog.events.log import AppendRejected, LogUnreadable, VerifyResult
from vistlog.events.problems import CODES, Problem, VistlogError

from .api import (
    FORMATS_IN, FORMATS_OUT, Checker, Game, GameReader, IllegalEventError, Settlement, append, dump, load,
    check_log, read_games, verify,
)

__all__ = [
    "read_games", "check_log", "Game", "GameReader", "Settlement",
    "Checker", "IllegalEventError",
    "append", "verify", "VerifyResult", "AppendRejected",
    "load", "dump", "FORMATS_IN", "FORMATS_OUT",
    "VistlogError", "LogUnreadable", "Problem", "CODES",
]
