"""New events on their way into a log: each decoded (given the next ``seq``), checked by the writer's
:class:`Sink` and chained after the line before it (:class:`~vistlog.events.log.LogWriter` writes them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Protocol

from .chain import _CHAIN_PREFIX, _MAC_PREFIX, CHAIN_FIELD, MAC_FIELD, _hmac_sha256, chain_step
from .codec import DecodeError, decode_obj, encode_obj, unstructure
from .model import Event
from .problems import Issue, Problem

__all__ = ["Checker", "Sink", "MAX_PROBLEMS"]


Checker = Callable[[Event], list[Issue]]


class Sink(Protocol):
    """What a :class:`LogWriter` feeds the log to, line by line: a plain :data:`Checker` by default; a live view
    of the log (:class:`vistlog.projections.live.LiveFold`) is one itself, so that what the writer checks is what
    the view shows, checked once."""

    def event(self, lineno: int, event: Event) -> list[Issue]:
        """Check ``event`` (on line ``lineno`` of the log) and apply it when legal; its problems."""

    def unreadable(self, lineno: int, problem: Problem) -> None:
        """Line ``lineno`` of the log could not be read as an event."""

    def rehearse(self, events: list[Event], then: Callable[[], list[Issue]] | None) -> list[list[Issue]] | None:
        """Each of ``events``' problems were they checked now, and ``then``'s after them, changing nothing
        (:meth:`~vistlog.events.checker.LogChecker.rehearse`); ``None``: this sink cannot try, and is fed for
        real (a refusal then costs a replay of the log)."""


class _Checked:
    """A plain checker as a :class:`Sink`: it cannot try, and hears nothing of unreadable lines."""

    def __init__(self, check: Checker) -> None:
        self.check = check

    def event(self, lineno: int, event: Event) -> list[Issue]:
        return self.check(event)

    def unreadable(self, lineno: int, problem: Problem) -> None:
        pass

    def rehearse(self, events: list[Event], then: Callable[[], list[Issue]] | None) -> list[list[Issue]] | None:
        return None



class _Chaining:
    """Decodes and checks new events after the log's last ``seq`` and chain value ``state``, one at a time:
    each event's chained line; the problems kept (at most :data:`MAX_PROBLEMS`), the chain value after them."""

    def __init__(self, check: Sink, state: bytes, last_seq: int, source_name: str, key: bytes | None,
                 at: int) -> None:
        self.check, self.state, self.last_seq, self.source_name, self.key = check, state, last_seq, source_name, key
        self.at = at
        """The log's line the next event takes."""
        self.seq = last_seq
        """The last ``seq`` given out by :meth:`decode`."""
        self.problems: list[Problem] = []
        self.refused = 0

    def decode(self, lineno: int | None, data: Any) -> Event | Problem:
        """One event, given the next ``seq`` when it has none, or the problem of one that cannot be decoded (kept
        by :meth:`refuse`); the dict is consumed."""
        if type(data) is dict:
            data.pop(CHAIN_FIELD, None)
            data.pop(MAC_FIELD, None)
            if "seq" not in data:
                data["seq"] = self.seq + 1
        try:
            event = decode_obj(data)
        except DecodeError as exc:
            return Problem(self.source_name, lineno, exc.seq, exc.field, exc.message, code=exc.code)
        self.seq = event.seq
        return event

    def refuse(self, problem: Problem) -> None:
        """Keep the problem of an event that could not be decoded."""
        self._problem(problem)

    def take(self, lineno: int | None, data: Any) -> tuple[bytes, Event] | None:
        """One item decoded, checked and chained: its line and event (``None``: it could not be decoded)."""
        event = self.decode(lineno, data)
        if isinstance(event, Problem):
            self.refuse(event)
            return None
        return self.line(lineno, event), event

    def line(self, lineno: int | None, event: Event) -> bytes:
        """The chained line of one decoded event, checked (its problems kept)."""
        for issue in self.check.event(self.at, event):
            self._problem(Problem(self.source_name, lineno, event.seq, issue.field, issue.message, code=issue.code))
        self.at += 1
        self.last_seq = event.seq
        content = encode_obj(unstructure(event))
        if self.key is None:
            self.state = chain_step(self.state, content)
            return content[:-1] + _CHAIN_PREFIX + self.state.hex().encode() + b'"}\n'
        self.state = _hmac_sha256(self.key, self.state + content)
        return content[:-1] + _MAC_PREFIX + self.state.hex().encode() + b'"}\n'

    def _problem(self, p: Problem) -> None:
        self.refused += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(p)


MAX_PROBLEMS: Final = 1000
"""The most problems an append keeps to say (a stream of a million bad lines is refused without holding them)."""


def _check_incoming(incoming: list[tuple[int | None, Any]], check: Sink, state: bytes, last_seq: int,
                    source_name: str, key: bytes | None, at: int
                    ) -> tuple[list[bytes], list[Event], list[Problem], bytes]:
    """Decode and check the new events after the log's last ``seq`` and chain value ``state`` (the first taking
    the log's line ``at``): their chained lines, the events, the problems and the chain value after them (the
    dicts are consumed)."""
    chaining = _Chaining(check, state, last_seq, source_name, key, at)
    out: list[bytes] = []
    accepted: list[Event] = []
    for lineno, data in incoming:
        done = chaining.take(lineno, data)
        if done is not None:
            out.append(done[0])
            accepted.append(done[1])
    return out, accepted, chaining.problems, chaining.state
