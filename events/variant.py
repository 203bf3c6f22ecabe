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

__all__ = ["Variant"]


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

    def start(self, started: GameStarted, tally: Tally | None = None) -> GameState:  # type: ignore[type-arg]
        """A new game's state, keeping its totals in ``tally`` (a plain :class:`~vistlog.events.tally.Tally` of its
        scoring by default)."""
        from .tally import Tally

        state = self.game(started, tally if tally is not None else Tally(started, self.scoring))
        state.title = self.title  # the game's name in messages, declared here once
        return state
