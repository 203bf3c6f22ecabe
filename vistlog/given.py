"""What a caller hands the API as events: event objects, JSON-like dicts, or the games an importer read.

Both the reading (:mod:`vistlog.games`) and the writing (:mod:`vistlog.recording`) take them, so this is apart
from either: writing a log never imports the read side.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, cast

import orjson

from vistlog.events.codec import DecodeError, check_depth
from vistlog.events.importers import ImportedGame
from vistlog.events.model import Event

__all__ = ["flat", "plain"]


def flat(events: Iterable[Event | Mapping[str, Any] | ImportedGame]) -> Iterator[Event | Mapping[str, Any]]:
    """Each event, an imported game's in its place."""
    for ev in events:
        if isinstance(ev, ImportedGame):
            yield from ev.events
        else:
            yield ev


def plain(ev: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-like mapping as the codec reads a line (a copy: the caller's dict is never changed). Its depth is
    checked first (a value nested past the serialiser's own limit is a field named, not a ``TypeError``)."""
    check_depth(ev, ev.get("seq") if isinstance(ev.get("seq"), int) else None)
    try:
        return cast(dict[str, Any], orjson.loads(orjson.dumps(dict(ev))))
    except orjson.JSONEncodeError as exc:
        raise DecodeError("", f"not a JSON object ({exc})") from None
