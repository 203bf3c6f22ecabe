"""Game ids remembered for the rest of a file in 13.5 to 27 bytes each: those of the games that have ended.

A log of a million games must still refuse an event after a game's ``game_ended`` (and one big
log split among workers must still send every line of a game to the same one), so the ids are
kept to the end; whole, a short id costs about 100 bytes in a set. :class:`IdTable` keeps each
one as its 64-bit hash (this process's own keyed SipHash of the string) in an open-addressed
table of two arrays (the hash, and a small value, 0–255, beside it), filled to at most two
thirds: 13.5 to 27 bytes an id. An id that
was never added is taken for one that was only if its hash equals one of theirs: about one
chance in 18 million million per question with a million ids kept. The hashes are this process's:
a table does not travel to another one (pickling it is refused).

>>> ended = IdTable()
>>> ended.add("sochi-2026-11-28")
>>> "sochi-2026-11-28" in ended, "sochi-2026-11-29" in ended
(True, False)
>>> t = IdTable(size=2)
>>> for k in range(5):
...     t[f"g{k}"] = k
>>> [t.get(f"g{k}") for k in range(6)], len(t)
([0, 1, 2, 3, 4, None], 5)
"""

from __future__ import annotations

from array import array
from typing import Any, NoReturn

__all__ = ["IdTable"]


def _digest(game: str) -> int:
    return hash(game) or 1  # 0 marks an empty slot


class IdTable:
    """Ids and a small value each (0–255), as digests in an open-addressed table (linear probing)."""

    SIZE = 1024
    """The slots of a new table (a power of two); it doubles when two thirds are taken."""

    __slots__ = ("count", "digests", "mask", "values")

    def __init__(self, size: int | None = None) -> None:
        size = size or self.SIZE
        self.digests = array("q", bytes(8 * size))
        self.values = bytearray(size)
        self.count = 0
        self.mask = size - 1

    def _slot(self, d: int) -> int:
        """Where digest ``d`` is, or the empty slot where it would go."""
        digests, mask = self.digests, self.mask
        i = d & mask
        while True:
            found = digests[i]
            if found == d or found == 0:
                return i
            i = (i + 1) & mask

    def __setitem__(self, game: str, value: int) -> None:
        d = _digest(game)
        i = self._slot(d)
        if self.digests[i] == 0:
            self.count += 1
        self.digests[i] = d
        self.values[i] = value
        if 3 * self.count > 2 * (self.mask + 1):
            self._grow()

    def add(self, game: str) -> None:
        """Remember ``game`` (its value 0)."""
        self[game] = 0

    def get(self, game: str, default: int | None = None) -> int | None:
        """The value of ``game``, or ``default`` when it was never added."""
        i = self._slot(_digest(game))
        return self.values[i] if self.digests[i] else default

    def __contains__(self, game: object) -> bool:
        return type(game) is str and self.digests[self._slot(_digest(game))] != 0

    def __len__(self) -> int:
        return self.count

    def __deepcopy__(self, memo: dict[int, Any]) -> IdTable:
        """A copy in this process (a checker copied to try an event out)."""
        other = IdTable.__new__(IdTable)
        other.digests, other.values, other.count, other.mask = array("q", self.digests), bytearray(self.values), \
            self.count, self.mask
        return other

    def __copy__(self) -> IdTable:
        return self.__deepcopy__({})

    def __reduce__(self) -> NoReturn:
        raise TypeError("an IdTable holds this process's string hashes: it cannot go to another process")

    def _grow(self) -> None:
        old, values = self.digests, self.values
        size = 2 * (self.mask + 1)
        self.digests, self.values, self.mask = array("q", bytes(8 * size)), bytearray(size), size - 1
        for d, v in zip(old, values):
            if d:
                i = self._slot(d)
                self.digests[i] = d
                self.values[i] = v
