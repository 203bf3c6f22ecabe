"""Every game the read side knows, each declared once by a :class:`Reading` and looked up by name.

A :class:`Reading` carries everything a view needs of one game: what its totals give each player (the results;
what a deal writes and when the rules end the game are its :class:`~vistlog.events.scoring.Scoring`, declared
with the write side's :class:`~vistlog.events.variant.Variant`, which the fold shares with the checker), its
sheet's layout, how the replay tells it, what the statistics count of a deal, whether its deals are solved with
all hands open. The fold, the settlement, the renderers, the replay and the statistics ask :func:`reading_of`
and never which game it is. The write side registers the same names
(:data:`vistlog.events.variants.VARIANTS`).

A game registers its reading in its own module with :func:`register` (the three built-in games in
:mod:`vistlog.projections.games`, one module each, imported by name when a game is first looked up); the
parts only a view needs (the layout, the teller, the counter) are :class:`~vistlog.projections.parts.Part` values,
imported when asked, so that folding a log imports no renderer.

>>> SCORINGS["preferans"].unit, SCORINGS["serbian"].size, SCORINGS["solo_whist"].size
('whists', 'bula', None)
>>> reading_of("solo_whist").calls_weighed
False
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from vistlog.events.plain import Plain

from vistlog.events.rules import Rules

from vistlog.events.entries import Num, Totals
from vistlog.events.scoring import Scoring
from vistlog.events.variants import VARIANTS
from vistlog.events.native import mypyc_attr

from .parts import Part

__all__ = ["Scoring", "Reading", "TableView", "ModeWords", "levelled_table", "SCORINGS", "READINGS", "register",
           "reading_of", "scoring_of"]


@attrs.frozen(repr=False)
class ModeWords(Plain):
    """How the views say a deal of one of a game's modes that has no contract
    (:class:`~vistlog.events.variant.DealMode`), each a phrase of the common catalogue by its English text (or of
    the game's own words): the replay's line (empty: none), the deal's summary (the pad's list), the HTML page's
    cell; and why the analysis leaves a played deal of it unsolved (empty: it solves one played each for the
    fewest, else says it has no contract)."""

    told: str = ""
    summary: str = "everybody passed"
    cell: str = "pass"
    unsolved: str = ""

@attrs.frozen(repr=False, eq=False)
class TableView(Plain):
    """How the pad draws the form of a deal: the modes it offers (a contract, ``misere`` on its own, everybody
    passing), the contracts of its grid (lowest first) and how many columns the grid has. What a mode means is
    declared: one of ``passing`` is a deal nobody declares (everybody passed, or a game played without an
    auction); one of ``contracts`` is that contract; any other is a contract of the grid. A mode's label is the
    game's word ``mode_NAME`` (:attr:`Reading.words`), else the pad's own."""

    modes: tuple[str, ...]
    grid: tuple[str, ...]
    grid_columns: int
    passing: tuple[str, ...] = ("raspas",)
    contracts: Mapping[str, str] = attrs.field(factory=lambda: {"misere": "misere"})


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


@attrs.frozen(repr=False, eq=False)
class Reading(Plain):
    """One game as the read side knows it (see the module docstring)."""

    name: str
    """The game's name, as its write side registers it (``preferans``, ``solo_whist``, ``serbian``)."""
    results: Callable[[Any, Sequence[str], Totals], dict[str, Num]]
    """The exact result of each player for the totals, in the unit of its scoring (:attr:`Scoring.unit`)."""
    layout: Part[Any]
    """Its sheet's :class:`~vistlog.projections.render.layouts.Layout` (imported when asked; typed ``Any`` here, as
    this module is below the renderers)."""
    teller: Part[Callable[..., Iterator[str]]]
    """How the replay tells its deals: ``(result, upto, words, solved, since) -> lines``."""
    counter: Part[Callable[..., None]]
    """What the statistics count of one deal: ``(record, moves, per player, raspas deals)``."""
    moves: str | None = ""
    """The column whose moves the counter reads (``""``: none, ``None``: every deal's points)."""
    closing: Part[Callable[..., None]] | None = None
    """What the statistics read of a game's entries after its deals, ``(result, per player, the deals the counter
    marked)`` (Russian preferans: the mountain raspasy wrote, who closed his pool first); none by default."""
    unsolved: str = ""
    """Why its deals are not solved with all hands open (``vistlog analyse`` says it of each), in the words of the
    phrase catalogue; empty when its contracts are solved."""
    calls_weighed: bool = False
    """The defenders' whist calls are weighed too (Russian preferans)."""
    table_view: Callable[[tuple[str, ...]], TableView] = levelled_table
    """How the pad draws a deal's form from the game's contracts."""
    all_pass: str = "raspas"
    """The deal notation's word for a deal everybody passed, as this game's lines write it (``raspas``, or
    ``all-pass`` in a game without raspasy; both read the same)."""
    words: Mapping[str, Mapping[str, str]] = attrs.field(factory=dict)
    """The game's own words, by language: phrases of the common catalogue (:mod:`~vistlog.projections.words`,
    looked up by their English text) said otherwise in this game (Solo Whist keeps «пункты», not «пулька»), and
    the names its pages use (``title``; ``sheet``: the sheet's name, the pad's tab)."""
    modes: Mapping[str, ModeWords] = attrs.field(factory=dict)
    """How its deal modes without a contract are said (a mode not here: :class:`ModeWords`' defaults)."""
    said: Mapping[str, Mapping[str, str]] = attrs.field(factory=dict)
    """What its players say (its bids and calls) as each language writes it, word by word, where that is not as
    the log spells it: a Serbian game's ``dalje``, ``3 karo``, ``dođem`` are ``даље``, ``3 каро``, ``дођем`` in a
    Russian line (:meth:`~vistlog.projections.words.Words.said`)."""

    def mode_words(self, mode: str) -> ModeWords:
        """How a deal of ``mode`` without a contract is said."""
        return self.modes.get(mode, _SILENT)

    @property
    def scoring(self) -> Scoring:
        """What its deals write and when its rules end it: the write side's declaration
        (:attr:`vistlog.events.variant.Variant.scoring`)."""
        return VARIANTS[self.name].scoring


_SILENT: Final = ModeWords()

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
