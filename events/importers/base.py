"""What every format module shares: :class:`ImportedGame`, :class:`SourceError`, the typed reading of a
foreign file (:func:`structure`), the ``_source`` mark, and :func:`bounded`, which keeps any input from
ending in an internal error. The formats import this module; the package imports the formats."""

from __future__ import annotations

import array
import functools
import io
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, TypeVar, cast

import attrs
import cattrs
import orjson

from vistlog.events.problems import VistlogError
from vistlog.events.codec import LARGEST, too_big

__all__ = ["ImportedGame", "EventList", "SourceError", "Importer", "Exporter", "LARGEST", "source", "structure",
           "bounded"]


class SourceError(VistlogError):
    """A source that cannot be read as its format (the message names the place)."""

    code = "source-unreadable"


class EventList:
    """A game's events as an importer reads them (dicts, no ``seq``), held as their JSON text: in memory up to
    :data:`EVENTS_IN_MEMORY` bytes, past it in a temporary file, with 8 bytes an event to find each again.
    Each is read back as a new dict, so an import holds a game of any length in flat memory. An event changed
    after it was added is not changed here: add it when it is done.

    >>> events = EventList([{"type": "game_started"}])
    >>> events.append({"type": "deal_started", "deal": 1})
    >>> len(events), events[-1], [e["type"] for e in events]
    (2, {'type': 'deal_started', 'deal': 1}, ['game_started', 'deal_started'])
    """

    __slots__ = ("_ends", "_file")

    def __init__(self, events: Iterable[dict[str, Any]] = ()) -> None:
        import tempfile
        self._file = tempfile.SpooledTemporaryFile(max_size=EVENTS_IN_MEMORY)  # noqa: SIM115 - goes with the list
        self._ends = array.array("Q")
        self.extend(events)

    def append(self, event: dict[str, Any]) -> None:
        """Add ``event`` at the end."""
        f = self._file
        f.seek(0, io.SEEK_END)
        f.write(orjson.dumps(event))
        self._ends.append(f.tell())

    def extend(self, events: Iterable[dict[str, Any]]) -> None:
        """Add each of ``events`` at the end."""
        for ev in events:
            self.append(ev)

    def __iadd__(self, events: Iterable[dict[str, Any]]) -> EventList:
        self.extend(events)
        return self

    def lines(self) -> Iterator[bytes]:
        """Each event's JSON text, in order."""
        f, ends = self._file, self._ends
        start = 0
        for k in range(len(ends)):
            if f.tell() != start:  # another reader, or an append, moved the file since
                f.seek(start)
            end = ends[k]
            yield f.read(end - start)
            start = end

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (orjson.loads(line) for line in self.lines())

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, k: int) -> dict[str, Any]:
        end = self._ends[k]
        k = k % len(self._ends)
        start = self._ends[k - 1] if k else 0
        self._file.seek(start)
        return cast(dict[str, Any], orjson.loads(self._file.read(end - start)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventList, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EventList(<{len(self)} events>)"


EVENTS_IN_MEMORY: Final = 4 << 20
"""How many bytes of an :class:`EventList`'s JSON text stay in memory before the list moves to a temporary file."""


def _events(value: Iterable[dict[str, Any]]) -> EventList:
    return value if isinstance(value, EventList) else EventList(value)


@attrs.define
class ImportedGame:
    """One game read from a source: its id, its events (dicts, no ``seq``; held as an :class:`EventList`), and
    notes on what was left out or how it was read (``import`` prints them)."""

    game: str
    events: EventList = attrs.field(converter=_events)
    origin: str
    notes: list[str] = attrs.Factory(list)


@functools.cache
def _foreign() -> cattrs.Converter:
    """The one converter for other programs' files: their own fields are kept to what we read (made when a file is
    first structured: reading a log needs none)."""
    return cattrs.Converter(forbid_extra_keys=False)

T = TypeVar("T")


def structure(raw: Any, cls: type[T], path: str, what: str) -> T:
    """A foreign file's parsed JSON as the typed classes of its format (``cls``); a file of another
    shape is one :class:`SourceError` naming the first field that does not fit."""
    try:
        return _foreign().structure(raw, cls)
    except cattrs.BaseValidationError as exc:
        why = cattrs.transform_error(exc, path="")[0].replace(" @ .", " at ").replace(" @ ", " at ")
        raise SourceError(f"{path}: not {what}: {why}") from None
    except (ValueError, TypeError) as exc:
        raise SourceError(f"{path}: not {what}: {exc}") from None


def source(path: str, record: str | int) -> dict[str, Any]:
    """The ``_source`` extension of an imported event."""
    return {"file": path, "record": record}


Importer = Callable[[str, bytes], list[ImportedGame]]
Exporter = Callable[[list[dict[str, Any]]], str]


def _too_big(events: Iterable[dict[str, Any]]) -> str | None:
    """The first number of the events past :data:`LARGEST`, as ``field = value``."""
    for ev in events:
        big = too_big(ev, str(ev.get("type", "event")))
        if big is not None:
            return big
    return None


def bounded(read: Importer) -> Importer:
    """An importer whose input cannot end in an internal error: a file nested too deep, a cell or a number
    past what Python's readers take, or a number past :data:`LARGEST` is one :class:`SourceError`."""
    import csv

    def guarded(path: str, data: bytes) -> list[ImportedGame]:
        try:
            games = read(path, data)
        except RecursionError:
            raise SourceError(f"{path}: nested too deep to be read") from None
        except csv.Error as exc:
            raise SourceError(f"{path}: not CSV that can be read ({exc})") from None
        except ValueError as exc:
            if "digits" not in str(exc):
                raise
            raise SourceError(f"{path}: a number of over 4,300 digits (a log holds numbers up to {LARGEST})") from None
        except TypeError as exc:  # orjson, holding the events read (EventList): a whole number past 64 bits
            if "64-bit" not in str(exc):
                raise
            raise SourceError(f"{path}: a number past {LARGEST}, the largest a log holds") from None
        for game in games:
            big = _too_big(game.events)
            if big is not None:
                raise SourceError(f"{path}: game {game.game}: {big}: past the largest number a log holds ({LARGEST})")
        return games

    guarded.__doc__ = read.__doc__
    return guarded
