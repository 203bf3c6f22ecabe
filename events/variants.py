"""The games vistlog checks, each registered once: its name, its kind and its state machine.

As python-chess lists its board classes in ``VARIANTS`` and finds one with ``find_variant()``, a
preset names the game it is played as (:attr:`vistlog.events.rules.Preset.variant`) and
:func:`find_variant` gives that game's :class:`Variant`. Each game declares its :class:`Variant` in its own
module; another game joins with :func:`register`. The read side registers the same names
(:func:`vistlog.projections.variants.reading_of`): how each game is scored, laid out, told and counted.

>>> find_variant("sochi").game.__name__, find_variant("encyclopedia").name, find_variant("serbian").title
('PreferansGame', 'solo_whist', 'Serbian preferans')
>>> {"preferans", "serbian", "solo_whist"} <= set(VARIANTS)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .games.preferans import VARIANT as PREFERANS
from .games.serbian import VARIANT as SERBIAN
from .games.solo_whist import VARIANT as SOLO_WHIST
from .problems import UnknownName
from .rules import PRESETS, Preset, register_preset
from .variant import Variant

__all__ = ["Variant", "VARIANTS", "find_variant", "register", "presets_of"]

VARIANTS: Final[dict[str, Variant]] = {v.name: v for v in (PREFERANS, SOLO_WHIST, SERBIAN)}
"""Every game vistlog checks, by name (each declared in its own package: ``VARIANT`` of
:mod:`~vistlog.events.games.preferans`, :mod:`~vistlog.events.games.solo_whist`,
:mod:`~vistlog.events.games.serbian`)."""


def register(variant: Variant, presets: Iterable[Preset] = ()) -> Variant:
    """Add a game and the presets it is played by (a game or preset registered again replaces the old one);
    returns it. The read side registers the same name (:func:`vistlog.projections.variants.register`)."""
    for preset in presets:
        if preset.variant != variant.name or preset.kind is not variant.kind:
            raise ValueError(f"preset {preset.name} is not one of {variant.name} "
                             f"({preset.variant}, {preset.kind.value})")
        register_preset(preset)
    VARIANTS[variant.name] = variant
    return variant


def presets_of(variant: str) -> tuple[str, ...]:
    """The presets a game is played by, in the order ``vistlog rules`` lists them.

    >>> presets_of("preferans"), presets_of("solo_whist")
    (('sochi', 'leningrad', 'rostov', 'classic'), ('encyclopedia',))
    """
    return tuple(p.name for p in PRESETS.values() if p.variant == variant)


def find_variant(preset: str) -> Variant:
    """The game a preset is played as (an unknown preset is an :class:`UnknownName`)."""
    try:
        return VARIANTS[PRESETS[preset].variant]
    except KeyError:
        raise UnknownName(f"no preset {preset!r} (presets: {', '.join(PRESETS)})") from None
