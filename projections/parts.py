"""A part of a game's read side named by where it lives, imported the first time a view asks for it.

A game's :class:`~vistlog.projections.variants.Reading` names its sheet's layout, its replay's teller and its
statistics' counter as :class:`Part` values: typed objects that say which module holds them, so that folding a log
imports no renderer, and a reader of the declaration sees where each part is.

>>> layout = Part("vistlog.projections.render.layouts", "POINTS")
>>> layout().name, layout
('points', Part('vistlog.projections.render.layouts', 'POINTS'))
"""

from __future__ import annotations

import importlib
from typing import Generic, TypeVar, cast

import attrs

__all__ = ["Part"]

T = TypeVar("T")


@attrs.frozen(repr=False)
class Part(Generic[T]):
    """``module``'s ``name``, imported when called (a name the module does not hold is an :class:`AttributeError`
    then, and :meth:`check` finds it at once)."""

    module: str
    name: str

    def __call__(self) -> T:
        return cast(T, getattr(importlib.import_module(self.module), self.name))

    def check(self) -> T:
        """The part itself, imported now (a test asks every game's parts)."""
        return self()

    def __repr__(self) -> str:
        return f"Part({self.module!r}, {self.name!r})"

