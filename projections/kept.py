"""What a fold keeps of a long game without holding it all: its items in order, the oldest spilled to disk
(:class:`_Items`), its deal records as a sequence read back from them (:class:`DealRecords`), and the snapshots
a refold after a void starts from (:class:`_Snapshot`)."""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterator, Sequence
from typing import IO, Any, ClassVar

import attrs

from vistlog.events.record import DealRecord

from .entries import Num, Totals

__all__ = ["DealRecords"]


class _Items:
    """A game's folded items (deal records, balances, adjustments) in order, for refolding after a void.

    The newest :attr:`KEEP` stay in memory; older ones are pickled to a temporary file, so a game
    that never ends holds a bounded number of them in memory whatever its length.
    """

    KEEP: ClassVar[int] = 2048

    def __init__(self) -> None:
        self.recent: list[tuple[str, object]] = []
        self.first = 0  # the index of recent[0]
        self.spill: IO[bytes] | None = None
        self.offsets = array("q")

    def __len__(self) -> int:
        return self.first + len(self.recent)

    def append(self, item: tuple[str, object]) -> None:
        self.recent.append(item)
        if len(self.recent) > 2 * self.KEEP:
            import pickle
            import tempfile

            if self.spill is None:
                self.spill = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the fold
            self.spill.seek(0, os.SEEK_END)
            for old in self.recent[: self.KEEP]:
                self.offsets.append(self.spill.tell())
                pickle.dump(old, self.spill, protocol=pickle.HIGHEST_PROTOCOL)
            del self.recent[: self.KEEP]
            self.first += self.KEEP

    def get(self, index: int) -> tuple[str, object]:
        """Item ``index``."""
        if index >= self.first:
            return self.recent[index - self.first]
        import pickle

        assert self.spill is not None
        self.spill.seek(self.offsets[index])
        return pickle.load(self.spill)  # type: ignore[no-any-return]

    def since(self, index: int) -> Iterator[tuple[str, object]]:
        """Every item from ``index`` on."""
        for i in range(index, self.first):  # a seek each time (in get): two of these may be read at once
            yield self.get(i)
        yield from self.recent[max(index, self.first) - self.first:]

    def close(self) -> None:
        if self.spill is not None:
            self.spill.close()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Items:
        """A copy that shares the spill file: both only ever append to it, each with its own offsets."""
        other = _Items()
        other.recent, other.first, other.spill, other.offsets = list(self.recent), self.first, self.spill, \
            array("q", self.offsets)
        return other


class DealRecords(Sequence[DealRecord]):
    """A game's deal records in deal order, read from its items: the newest in memory, older ones from the
    spill file, one at a time (so a game that never ends is not held whole to be replayed or drawn)."""

    __slots__ = ("_items", "_order")

    def __init__(self, items: _Items, order: array[int]) -> None:
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


@attrs.frozen
class _Snapshot:
    """The fold's state before item ``at``: where a refold after a void starts."""

    at: int
    totals: Totals
    streak: int
    current_deal: int
    entries: int
    problems: int
    bad_entry: str | None
    deal_sum: Num
