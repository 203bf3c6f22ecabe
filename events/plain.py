"""One ``__repr__``, ``__eq__`` and ``__hash__`` for many frozen attrs classes, the same as attrs writes for each.

attrs compiles a ``__repr__``, ``__eq__`` and ``__hash__`` for every class it makes; for the event and rule
classes that was half of what every command paid to start. A class made with ``@attrs.frozen(repr=False,
eq=False)`` on :class:`Plain` gets none of its own and inherits these, which read the class's attrs fields (those
with ``repr``, those with ``eq``).

>>> @attrs.frozen(repr=False, eq=False)
... class Point(Plain):
...     x: int
...     y: int = attrs.field(default=0, eq=False)
>>> Point(1, 2), Point(1, 2) == Point(1, 3), Point(1) == Point(2)
(Point(x=1, y=2), True, False)
"""

from __future__ import annotations

from typing import Final

import attrs

__all__ = ["Plain"]

_COMPARED: Final[dict[type, tuple[str, ...]]] = {}
_SHOWN: Final[dict[type, tuple[str, ...]]] = {}


def _compared(cls: type) -> tuple[str, ...]:
    names = _COMPARED.get(cls)
    if names is None:
        names = _COMPARED[cls] = tuple(f.name for f in attrs.fields(cls) if f.eq)
    return names


def _shown(cls: type) -> tuple[str, ...]:
    names = _SHOWN.get(cls)
    if names is None:
        names = _SHOWN[cls] = tuple(f.name for f in attrs.fields(cls) if f.repr)
    return names


class Plain:
    """The base of a frozen attrs class made without its own ``__repr__`` and ``__eq__``: its representation,
    equality and hash, as attrs writes them (pure Python in both builds: mypyc makes an attrs class a Python
    class, which may not inherit from a compiled one)."""

    __slots__ = ()

    def __repr__(self) -> str:
        cls = self.__class__
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _shown(cls))
        return f"{cls.__qualname__.rsplit('>.', 1)[-1]}({fields})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _compared(self.__class__))

    def __hash__(self) -> int:
        return hash((self.__class__, *(getattr(self, name) for name in _compared(self.__class__))))
