"""How a game declares itself to the write side: one :class:`Variant` (its name, the kind of log it writes, its
title, its state machine and its options class), registered once (:func:`vistlog.events.variants.register`).

Its presets, the named rule sets it is played by, are :class:`~vistlog.events.rules.Preset` values whose
``variant`` is its name: the built-in games' are in :data:`vistlog.events.rules.PRESETS` (the rules in one place);
another game brings its own to :func:`~vistlog.events.variants.register`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from .plain import Plain

from .cards import GameKind
from .scoring import Scoring

if TYPE_CHECKING:
    from .game import GameState
    from .model import GameStarted
    from .tally import Tally

__all__ = ["Variant", "DealMode", "CONTRACT", "PASSED"]


@attrs.frozen(repr=False)
class DealMode(Plain):
    """One way a game's deal may go, as its game declares it and its records say (:attr:`DealRecord.mode
    <vistlog.events.record.DealRecord.mode>`): a contract played, everybody passing (a redeal, a raspas, a refa
    drawn), or a game's own.

    ``each_for_fewest``: the deal is played with no declarer, each player for himself for the fewest tricks (a
    raspas), and the open-hand analysis solves it so.

    >>> from vistlog.events.variants import VARIANTS
    >>> [m.name for m in VARIANTS["preferans"].modes], VARIANTS["preferans"].mode("raspas").each_for_fewest
    (['contract', 'raspas', 'passed'], True)
    """

    name: str
    each_for_fewest: bool = False

    def __repr__(self) -> str:
        return f"DealMode({self.name!r})"


CONTRACT = DealMode("contract")
"""A contract was made (played, or decided without play)."""
PASSED = DealMode("passed")
"""Nobody declared and nothing was played (a deal thrown in)."""


@attrs.frozen(repr=False, eq=False)
class Variant(Plain):
    """One game: its name (``preferans``, ``solo_whist``, ``serbian``), the kind of log it is (the ``kind`` of
    ``game_started``), its name in messages, its state machine and the class of its rule options."""

    name: str
    kind: GameKind
    title: str
    game: type[GameState]  # type: ignore[type-arg]
    options: type
    scoring: Scoring
    """What its deals write on the sheet and when its rules end it (the checker keeps the totals with it)."""
    modes: tuple[DealMode, ...] = (CONTRACT, PASSED)
    """How its deals may go (a record's :attr:`~vistlog.events.record.DealRecord.mode` is one of them)."""

    def mode(self, name: str) -> DealMode:
        """The deal mode called ``name`` (a :class:`KeyError` for one the game does not declare)."""
        for m in self.modes:
            if m.name == name:
                return m
        raise KeyError(f"{self.name} has no deal mode {name!r}")

    def start(self, started: GameStarted, tally: Tally | None = None) -> GameState:  # type: ignore[type-arg]
        """A new game's state, keeping its totals in ``tally`` (a plain :class:`~vistlog.events.tally.Tally` of its
        scoring by default)."""
        from .tally import Tally

        state = self.game(started, tally if tally is not None else Tally(started, self.scoring))
        state.title = self.title  # the game's name in messages, declared here once
        return state
