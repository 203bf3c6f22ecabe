"""The games vistlog checks, each registered once: its name, its kind and its state machine.

As python-chess lists its board classes in ``VARIANTS`` and finds one with ``find_variant()``, a
preset names the game it is played as (:attr:`vistlog.events.rules.Preset.variant`) and
:func:`find_variant` gives that game's :class:`Variant`. The read side keeps its own table by the
same names (:data:`vistlog.projections.variants.READERS`): how each game is scored, laid out and drawn.

>>> find_variant("sochi").game.__name__, find_variant("encyclopedia").name, find_variant("serbian").title
('PreferansGame', 'solo_whist', 'Serbian preferans')
>>> sorted(VARIANTS)
['preferans', 'serbian', 'solo_whist']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

from .cards import GameKind
from .game import GameState
from .preferans import PreferansGame
from .problems import UnknownName
from .rules import PRESETS
from .serbian import SerbianGame
from .solo_whist import SoloWhistGame

__all__ = ["Variant", "VARIANTS", "find_variant"]


@attrs.frozen
class Variant:
    """One game: its name (``preferans``, ``solo_whist``, ``serbian``), the kind of log it is (the
    ``kind`` of ``game_started``), its name in messages and its state machine."""

    name: str
    kind: GameKind
    title: str
    game: type[GameState]


VARIANTS: Final[Mapping[str, Variant]] = {v.name: v for v in (
    Variant("preferans", GameKind.PREFERANS, "Preferans", PreferansGame),
    Variant("solo_whist", GameKind.SOLO_WHIST, "Solo Whist", SoloWhistGame),
    Variant("serbian", GameKind.PREFERANS, "Serbian preferans", SerbianGame),
)}
"""Every game vistlog checks, by name."""


def find_variant(preset: str) -> Variant:
    """The game a preset is played as (an unknown preset is an :class:`UnknownName`)."""
    try:
        return VARIANTS[PRESETS[preset].variant]
    except KeyError:
        raise UnknownName(f"no preset {preset!r} (presets: {', '.join(PRESETS)})") from None
