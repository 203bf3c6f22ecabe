"""What a fold keeps of a long game without holding it all: its deal records as a sequence read back from its
items (:class:`DealRecords`), the oldest of which its tally spilled to disk (:class:`vistlog.events.tally.Tally`)."""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import Any

from vistlog.events.record import DealRecord

from vistlog.events.tally import Items

__all__ = ["DealRecords"]


class DealRecords(Sequence[DealRecord]):
    """A game's deal records in deal order, read from its items: the newest in memory, older ones from the
    spill file, one at a time (so a game that never ends is not held whole to be replayed or drawn)."""

    __slots__ = ("_items", "_order")

    def __init__(self, items: Items, order: array[int]) -> None:
        self._items = items
        self._order = order

    def __len__(self) -> int:
        return len(self._order)

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return self._items.get(self._order[i])[1]

    def __iter__(self) -> Iterator[DealRecord]:
        get = self._items.get
        for index in self._order:
            yield get(index)[1]  # type: ignore[misc]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"DealRecords({len(self)} deal(s))"

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (list(self),))  # sent elsewhere: the records themselves
