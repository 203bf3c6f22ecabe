"""What the compiled build (mypyc) is told about a class; pure Python ignores it.

:func:`mypyc_attr` is mypy_extensions' decorator when mypy reads the source (as mypyc does when
it compiles a module) and a decorator that returns the class unchanged at run time, so that the
package needs nothing beyond its dependencies. This module itself is never compiled: a compiled
copy would run the branch mypy calls unreachable.

>>> @mypyc_attr(native_class=False)
... class Loose(ValueError):
...     code = "loose"
>>> Loose.code
'loose'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

__all__ = ["mypyc_attr"]

T = TypeVar("T")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
        """Return the class unchanged: the attributes only mean something to mypyc."""
        return lambda cls: cls
