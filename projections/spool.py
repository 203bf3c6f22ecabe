"""What a report holds of a log, kept on disk while many logs run: memory holds none of it.

A report of many logs holds, per log, each game's view (a JSON-ready dict: its settlement, its
audit, its statistics summary) and each problem. A :class:`SpoolWriter` takes them as they come
and writes them in the order of their keys (a game's view waits while a game that started before
it is still open); what it gives is a :class:`Spool`, a sequence read back one item at a time:
:class:`GameViews` or :class:`Problems`. On disk a spool is a file of ``key<TAB>json`` lines,
deleted when the last :class:`Spool` that owns it is gone; pickling one (to send it from a worker
process to the one that prints) hands that ownership over with it. In memory (for Dask, whose
workers may be other machines) it is a plain tuple.

>>> w = SpoolWriter(GameViews)
>>> w.put(1, {"game": "b", "ok": False})
>>> w.put(0, {"game": "a"})
>>> views = w.close()
>>> [v["game"] for v in views], len(views), views.ok, views[1]["game"]
(['a', 'b'], 2, False, 'b')
>>> views == GameViews([{"game": "a"}, {"game": "b", "ok": False}])
True
"""

from __future__ import annotations

import contextlib
import heapq
import json
import os
import tempfile
import weakref
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final, Generic, TypeVar, overload

import orjson

from vistlog.events.problems import Problem

__all__ = ["Spool", "GameViews", "Problems", "SpoolWriter", "merged", "Key", "END"]

T = TypeVar("T")
S = TypeVar("S", bound="Spool[Any]")

Key = tuple[int, ...]
"""Where an item stands: a game's place, or (line, the game's first line, its place on the line)."""

END = 2 ** 62
"""The line of a problem found at the end of the file (after every line)."""


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


_WIDE: Final = b"~"
"""The mark of a line holding a whole number past 64 bits, which orjson neither writes nor reads back exactly
(it reads one as a float): such a line is written and read by the standard library's ``json``."""


def _dumps(item: Any) -> bytes:
    try:
        return orjson.dumps(item)
    except TypeError as exc:
        if "64-bit" not in str(exc):
            raise
        return _WIDE + json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode()


def _loads(body: bytes) -> Any:
    return json.loads(body[1:]) if body[:1] == _WIDE else orjson.loads(body)


def _key_text(key: Key) -> bytes:
    return b",".join(b"%d" % k for k in key)


class Spool(Sequence[T], Generic[T]):
    """Items in order: a tuple, or a spool file read back lazily (see the module's docstring).

    A subclass says how an item is written (:meth:`encode`, as JSON) and read (:meth:`decode`);
    ``ok`` says whether every item passed :meth:`is_ok`, known without reading the file again.
    """

    __slots__ = ("__weakref__", "_count", "_items", "_keys", "_owner", "_path", "ok")

    @staticmethod
    def encode(item: Any) -> bytes:
        """An item as one line of JSON."""
        return _dumps(item)

    @staticmethod
    def decode(body: bytes) -> Any:
        """An item from its line."""
        return _loads(body)

    @staticmethod
    def is_ok(item: Any) -> bool:
        """Whether an item leaves the report sound."""
        return True

    @classmethod
    def is_ok_line(cls, body: bytes) -> bool:
        """:meth:`is_ok` of an item still as its line."""
        return True

    def __init__(self, items: Iterable[T] = (), keys: Sequence[Key] | None = None) -> None:
        self._items: tuple[T, ...] | None = tuple(items)
        self._keys: tuple[Key, ...] = tuple(keys) if keys is not None else tuple((k,) for k in
                                                                                range(len(self._items)))
        self._path: str | None = None
        self._count = len(self._items)
        self.ok = all(self.is_ok(v) for v in self._items)
        self._owner: weakref.finalize | None = None

    @classmethod
    def of(cls: type[S], items: S | Iterable[Any]) -> S:
        """``items`` as this kind of spool (itself when it already is one)."""
        return items if isinstance(items, cls) else cls(items)

    @classmethod
    def _on_disk(cls: type[S], path: str, count: int, ok: bool) -> S:
        self = cls.__new__(cls)
        self._items, self._keys, self._path, self._count, self.ok = None, (), path, count, ok
        self._owner = weakref.finalize(self, _remove, path)
        return self

    def keyed(self) -> Iterator[tuple[Key, bytes]]:
        """``(key, item as JSON bytes)`` in order."""
        if self._path is None:
            assert self._items is not None
            for k, v in zip(self._keys, self._items):
                yield k, self.encode(v)
            return
        with open(self._path, "rb") as f:
            for line in f:
                key, _, body = line.partition(b"\t")
                yield tuple(int(k) for k in key.split(b",")), body[:-1]  # JSON from orjson has no newline inside

    def __iter__(self) -> Iterator[T]:
        if self._items is not None:
            yield from self._items
            return
        decode = self.decode
        for _, body in self.keyed():
            yield decode(body)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[T]: ...

    def __getitem__(self, i: int | slice) -> T | Sequence[T]:
        if self._items is not None:
            return self._items[i]
        return list(self)[i]  # a rare question of a spooled log: read through

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Spool):
            return NotImplemented
        return type(self) is type(other) and len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._count} item(s){' on disk' if self._path else ''})"

    def __reduce__(self) -> tuple[Any, ...]:
        if self._path is None:
            return (type(self), (self._items, self._keys))
        if self._owner is not None:
            self._owner.detach()  # whoever loads this pickle deletes the file
            self._owner = None
        return (type(self)._on_disk, (self._path, self._count, self.ok))


class GameViews(Spool[dict[str, Any]]):
    """The views of a log's games; ``ok`` is False when one says ``"ok": false`` (an audit's verdict)."""

    __slots__ = ()

    @staticmethod
    def is_ok(item: Any) -> bool:
        """A view is sound unless it says otherwise."""
        return bool(item.get("ok", True))

    @classmethod
    def is_ok_line(cls, body: bytes) -> bool:
        """Read only when the line may say ``"ok":false``."""
        return b'"ok":false' not in body or cls.is_ok(cls.decode(body))


class Problems(Spool[Problem]):
    """The problems of a log."""

    __slots__ = ()

    @staticmethod
    def encode(item: Any) -> bytes:
        """A problem's fields as a JSON array."""
        p: Problem = item
        return _dumps([p.path, p.line, p.seq, p.field, p.message, p.game, p.event_type, p.deal, p.code])

    @staticmethod
    def decode(body: bytes) -> Any:
        """The problem again, field for field."""
        *fields, code = _loads(body)
        return Problem(*fields, code=code)


class SpoolWriter(Generic[S]):
    """Items put as they come, written in the order of their keys; :meth:`close` gives the spool.

    An item waits only while one with a smaller key is still to come (keys are places: 0, 1, 2, …,
    as :func:`~vistlog.projections.fold.run` numbers games); any item still waiting
    at :meth:`close` is written then, in order. The ``stored`` key of an item (given to :meth:`put`)
    is what the spool records, for :func:`merged`: a game's first line, a problem's place.
    """

    def __init__(self, kind: type[S], spool: bool = True) -> None:
        self.kind = kind
        self.spool = spool
        self.next = 0
        self.waiting: dict[int, tuple[Key, Any]] = {}
        self.count = 0
        self.ok = True
        self.items: list[Any] = []
        self.keys: list[Key] = []
        self.file: Any = None
        self.path: str | None = None
        if spool:
            fd, self.path = tempfile.mkstemp(prefix="vistlog-spool-", suffix=".jsonl")
            self.file = os.fdopen(fd, "wb")
            self._owner: weakref.finalize | None = weakref.finalize(self, _remove, self.path)

    def put(self, key: int, item: Any, stored: Key | None = None) -> None:
        """An item; ``key`` its place."""
        self.waiting[key] = ((key,) if stored is None else stored, item)
        while self.next in self.waiting:
            self._write(*self.waiting.pop(self.next))
            self.next += 1

    def append(self, item: Any, stored: Key | None = None) -> None:
        """The next item, in order already."""
        self._write((self.count,) if stored is None else stored, item)

    def put_raw(self, stored: Key, body: bytes) -> None:
        """An item already in order, as its JSON line (see :func:`merged`)."""
        if not self.spool:
            self._write(stored, self.kind.decode(body))
            return
        self.count += 1
        self.file.write(b"%s\t%s\n" % (_key_text(stored), body))
        self.ok = self.ok and self.kind.is_ok_line(body)

    def _write(self, stored: Key, item: Any) -> None:
        self.count += 1
        self.ok = self.ok and self.kind.is_ok(item)
        if self.spool:
            self.file.write(b"%s\t%s\n" % (_key_text(stored), self.kind.encode(item)))
        else:
            self.items.append(item)
            self.keys.append(stored)

    def close(self) -> S:
        """Every item written (those still waiting in key order); the spool, in order."""
        for key in sorted(self.waiting):
            self._write(*self.waiting[key])
        self.waiting.clear()
        if not self.spool:
            out = self.kind(self.items, self.keys)
            self.items, self.keys = [], []
            return out
        self.file.close()
        self._owner.detach()  # type: ignore[union-attr]
        assert self.path is not None
        return self.kind._on_disk(self.path, self.count, self.ok)


def merged(kind: type[S], parts: Sequence[S], spool: bool = True) -> S:
    """Spools of one kind, each in the order of its stored keys, merged into one such order."""
    out = SpoolWriter(kind, spool)
    for stored, body in heapq.merge(*(p.keyed() for p in parts), key=lambda kb: kb[0]):
        out.put_raw(stored, body)
    return out.close()
