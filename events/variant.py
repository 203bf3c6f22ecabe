"""How a game declares itself to the write side: one :class:`Variant` (its name, the kind of log it writes, its
title, its state machine and its options class), registered once (:func:`vistlog.events.variants.register`).

Its presets, the named rule sets it is played by, are :class:`~vistlog.events.rules.Preset` values whose
``variant`` is its name: the built-in games' are in :data:`vistlog.events.rules.PRESETS` (the rules in one place);
another game brings its own to :func:`~vistlog.events.variants.register`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from .cards import GameKind

if TYPE_CHECKING:
    from .game import GameState

__all__ = ["Variant"]


@attrs.frozen
class Variant:
    """One game: its name (``preferans``, ``solo_whist``, ``serbian``), the kind of log it is (the ``kind`` of
    ``game_started``), its name in messages, its state machine and the class of its rule options."""

    name: str
    kind: GameKind
    title: str
    game: type[GameState]  # type: ignore[type-arg]
    options: type
