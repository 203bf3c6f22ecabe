"""Every game the read side knows, each declared once by a :class:`Reading` and looked up by name.

A :class:`Reading` carries everything a view needs of one game: its :class:`Scoring` (what a deal writes, when
the rules end the game, what the totals give each player and in what unit, what its first line writes), its
sheet's layout, how the replay tells it, what the statistics count of a deal, whether its deals are solved with
all hands open. The fold, the settlement, the renderers, the replay and the statistics ask :func:`reading_of`
and never which game it is. The write side registers the same names
(:data:`vistlog.events.variants.VARIANTS`).

A game registers its reading in its own module with :func:`register` (the three built-in games in
:mod:`vistlog.projections.games`, one module each, imported by name when a game is first looked up); the
parts only a view needs (the layout, the teller, the counter) are functions that import them when asked, so that
folding a log imports no renderer.

>>> SCORINGS["preferans"].unit, SCORINGS["serbian"].size, SCORINGS["solo_whist"].size
('whists', 'bula', None)
>>> reading_of("solo_whist").unsolved
'Solo Whist is not analysed (four hands, partnerships)'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from vistlog.events.record import DealRecord
from vistlog.events.rules import Rules

from .entries import DealScore, Num, Row, Totals
from vistlog.events.native import mypyc_attr

__all__ = ["Scoring", "Reading", "TableView", "levelled_table", "SCORINGS", "READINGS", "register", "reading_of",
           "scoring_of"]

Score = Callable[[Any, int, Sequence[str], DealRecord, Totals, int], DealScore]
"""What one deal writes: (options, pool size, players, the deal's record, the totals before it, the
raspasy in a row before it)."""


@attrs.frozen
class Scoring:
    """One game's arithmetic (see the module docstring)."""

    name: str
    unit: str
    """What a result is counted in: ``whists`` or ``points``."""
    size: str | None
    """What ``game_started.pool`` counts: ``pool``, ``bula``, or nothing."""
    score: Score
    over: Callable[[Totals, int], bool]
    """The rules end the game on these totals (every pool closed; the bulas at 0)."""
    results: Callable[[Any, Sequence[str], Totals], dict[str, Num]]
    """The exact result of each player for the totals, in :attr:`unit`."""
    streak: Callable[[Any, DealRecord, int], int] = lambda _o, _rec, run: 0
    """The raspasy in a row after a deal (a game without raspasy never has one)."""
    opening: Callable[[Sequence[str], int | None], list[Row]] = lambda _players, _size: []
    """What the game writes before its first deal (Serbian: every player's starting bula)."""
    deals_sum_to_zero: bool = False
    """Every deal's entries add up to 0 (Solo Whist's points), checked deal by deal."""
    columns: tuple[str, ...] = ()
    """The sheet's columns an agreed adjustment may write (``whists`` and ``soups`` are written on another
    player)."""
    writes: tuple[str, ...] = ()
    """Every column its deals write, in the order its sheet shows them (:attr:`vistlog.api.Sheet.columns`; by
    default :attr:`columns`)."""

    def __attrs_post_init__(self) -> None:
        if not self.writes:
            object.__setattr__(self, "writes", self.columns)


@attrs.frozen
class TableView:
    """How the pad draws the form of a deal: the modes it offers (a contract, ``misere`` on its own, everybody
    passing), the contracts of its grid (lowest first) and how many columns the grid has."""

    modes: tuple[str, ...]
    grid: tuple[str, ...]
    grid_columns: int


def levelled_table(contracts: tuple[str, ...]) -> TableView:
    """The form of a game whose contracts have levels (``6S`` … ``10NT``: a grid of five columns, misère a mode
    of its own) or of one whose contracts are words (a grid of two columns); everybody passing is a mode.

    >>> levelled_table(("6S", "6C", "6D", "6H", "6NT", "misere")).modes
    ('game', 'misere', 'raspas')
    """
    levels = any(c[:1].isdigit() for c in contracts)
    modes = ("game", *(("misere",) if levels and "misere" in contracts else ()), "raspas")
    grid = tuple(c for c in contracts if not (levels and c == "misere"))
    return TableView(modes, grid, 5 if levels and len(grid) % 5 == 0 else 2)


@attrs.frozen
class Reading:
    """One game as the read side knows it (see the module docstring)."""

    name: str
    """The game's name, as its write side registers it (``preferans``, ``solo_whist``, ``serbian``)."""
    scoring: Scoring
    layout: Callable[[], Any]
    """Its sheet's :class:`~vistlog.projections.render.layouts.Layout` (imported when asked)."""
    teller: Callable[[], Callable[..., Iterator[str]]]
    """How the replay tells its deals: ``(result, upto, words, solved, since) -> lines``."""
    counter: Callable[[], tuple[str | None, Callable[..., None]]]
    """What the statistics count of one deal, and the column whose moves they read (``""``: none, ``None``:
    every deal's points)."""
    unsolved: str = ""
    """Why its deals are not solved with all hands open (``vistlog analyse`` says it of each), in the words of the
    phrase catalogue; empty when its contracts are solved."""
    calls_weighed: bool = False
    """The defenders' whist calls are weighed too (Russian preferans)."""
    table_view: Callable[[tuple[str, ...]], TableView] = levelled_table
    """How the pad draws a deal's form from the game's contracts."""


READINGS: Final[dict[str, Reading]] = {}
"""Every game registered so far, by name (:func:`reading_of` loads the built-in ones)."""

_BUILT_IN: Final = ("vistlog.projections.games.preferans", "vistlog.projections.games.solo_whist",
                     "vistlog.projections.games.serbian")
"""The modules that register the built-in games (imported by name: each imports the views it names only when
asked, and nothing here imports them, so the fold never waits on a renderer)."""


def register(reading: Reading) -> Reading:
    """Add a game's reading (a game registered again replaces the old one); returns it."""
    READINGS[reading.name] = reading
    return reading


def _built_in() -> None:
    for module in _BUILT_IN:
        importlib.import_module(module)


def reading_of(name: str) -> Reading:
    """The reading of the game called ``name`` (a :class:`KeyError` for a game nobody registered)."""
    found = READINGS.get(name)
    if found is None:
        _built_in()
        found = READINGS[name]
    return found


@mypyc_attr(native_class=False)
class _Scorings:
    """Every registered game's :class:`Scoring`, by name: a read-only mapping over :data:`READINGS` (registered as
    a :class:`~collections.abc.Mapping`; a compiled module's class cannot inherit the ABC's metaclass)."""

    def __getitem__(self, name: str) -> Scoring:
        return reading_of(name).scoring

    def __iter__(self) -> Iterator[str]:
        _built_in()
        return iter(list(READINGS))

    def __len__(self) -> int:
        _built_in()
        return len(READINGS)

    def __contains__(self, name: object) -> bool:
        _built_in()
        return name in READINGS

    def keys(self) -> list[str]:
        """The names of the registered games."""
        return list(self)

    def values(self) -> list[Scoring]:
        """Their scorings."""
        return [self[k] for k in self]

    def items(self) -> list[tuple[str, Scoring]]:
        """Each name with its scoring."""
        return [(k, self[k]) for k in self]

    def get(self, name: str, default: Scoring | None = None) -> Scoring | None:
        """The scoring of ``name``, or ``default``."""
        found = READINGS.get(name) if name in self else None
        return found.scoring if found is not None else default


Mapping.register(_Scorings)

SCORINGS: Final[_Scorings] = _Scorings()
"""Every game's scoring, by the name of its variant."""


def scoring_of(rules: Rules) -> Scoring:
    """The scoring of a game's rules (by the variant its preset names)."""
    return reading_of(rules.variant).scoring
