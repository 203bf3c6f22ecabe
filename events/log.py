"""The log file: streaming read, locked all-or-nothing append, and the hash chain.

Reading never loads the file: :func:`read_lines` yields ``(line number, bytes)`` one at a
time and notices a torn last line (a file cut mid-event). :func:`read_events` decodes each
line and yields either an event or a :class:`Problem`; it never raises for bad input, only
:class:`LogUnreadable` for a file that cannot be read at all (missing, empty, not JSON Lines).

The chain. Every line :func:`append` writes ends with ``,"_chain":"<64 hex>"}``; the value is
``sha256(previous + line without the chain field)``, starting from 32 zero bytes, where
lines without a chain (hand-written ones before the first append) are absorbed as they are.
So any change, insertion, removal or reordering of a line before the last chained one
breaks the chain at that line. Removing lines from the end cannot be seen from the file
alone: :func:`verify` prints the head hash to keep elsewhere.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, BinaryIO, Final

import attrs
import orjson

from .codec import DecodeError, decode_obj, encode_obj, loads_line, unstructure
from .model import Event
from .problems import Issue, Problem, VistlogError

__all__ = [
    "CHAIN_FIELD", "Problem", "LogUnreadable", "open_source", "read_lines", "read_events",
    "split_chain", "chain_step", "verify", "VerifyResult", "append", "AppendRejected", "GENESIS",
]

CHAIN_FIELD: Final = "_chain"
GENESIS: Final = bytes(32)
_CHAIN_PREFIX: Final = b',"_chain":"'
_CHAIN_TAIL: Final = len(_CHAIN_PREFIX) + 64 + 2


class LogUnreadable(VistlogError):
    """A log that cannot be read at all: missing, unreadable, empty, or not JSON Lines."""


def open_source(path: str) -> BinaryIO:
    """Open a log for reading; ``-`` is standard input. Raise :class:`LogUnreadable`."""
    if path == "-":
        return sys.stdin.buffer
    try:
        if os.path.isdir(path):
            raise LogUnreadable(f"{path}: is a folder, not a log file")
        return open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise LogUnreadable(f"{path}: cannot open ({exc.strerror or exc})") from None


def split_chain(line: bytes) -> tuple[bytes, str | None]:
    """Split a line into (content without the chain field, chain hex or None)."""
    if len(line) > _CHAIN_TAIL and line.endswith(b'"}') and line[-_CHAIN_TAIL:-66] == _CHAIN_PREFIX:
        return line[:-_CHAIN_TAIL] + b"}", line[-66:-2].decode("ascii", "replace")
    return line, None


def chain_step(previous: bytes, content: bytes) -> bytes:
    """The next chain value: ``sha256(previous + content)``."""
    return hashlib.sha256(previous + content).digest()


def read_lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes, bool]]:
    """Yield ``(line number, line without newline, is torn)`` for every non-blank line.

    A line is torn when it is the last one and the file does not end with a newline; the
    reader only says so, the decoder decides whether it is whole.
    """
    pending: tuple[int, bytes] | None = None
    for lineno, raw in enumerate(stream, start=1):
        if pending is not None:
            yield pending[0], pending[1], False
            pending = None
        if raw.endswith(b"\n"):
            line = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
            if line.strip():
                yield lineno, line, False
        elif raw.strip():
            pending = (lineno, raw)
    if pending is not None:
        yield pending[0], pending[1], True


def read_events(path: str, stream: IO[bytes] | None = None
                ) -> Iterator[tuple[int, Event | Problem]]:
    """Decode a log line by line: yield ``(line, event)`` or ``(line, Problem)``.

    Raises :class:`LogUnreadable` (before yielding anything) when the file is empty or its
    first line is not a JSON object: such input is not a log at all.

    This is the hot loop of every command, so it is written flat: ``orjson`` takes the
    line with its newline, a blank line is noticed only when parsing fails, and the chain
    field is split off only when the line ends with it.
    """
    own = stream is None
    src = open_source(path) if own else stream
    assert src is not None
    loads = orjson.loads
    JSONError = orjson.JSONDecodeError
    prefix = _CHAIN_PREFIX
    try:
        seen_any = False
        lineno = 0
        for raw in src:
            lineno += 1
            if raw[-3:] == b'"}\n' and raw[-_CHAIN_TAIL - 1:-67] == prefix:
                raw = raw[:-_CHAIN_TAIL - 1] + b"}"
            elif raw[-4:] == b'"}\r\n' and raw[-_CHAIN_TAIL - 2:-68] == prefix:
                raw = raw[:-_CHAIN_TAIL - 2] + b"}"
            try:
                data = loads(raw)
            except JSONError:
                if not raw.strip():
                    continue
                try:
                    loads_line(raw)
                except DecodeError as exc:
                    if not seen_any:
                        raise LogUnreadable(f"{path}:{lineno}: not a JSON Lines log ({exc.message})") from None
                    torn = not raw.endswith(b"\n")
                    msg = "torn last line: the file ends in the middle of an event" if torn else exc.message
                    yield lineno, Problem(path, lineno, None, "", msg, code="torn-line" if torn else exc.code)
                continue
            if not seen_any:
                if type(data) is not dict:
                    raise LogUnreadable(f"{path}:{lineno}: not a JSON Lines log (a line is not a JSON object)")
                seen_any = True
            try:
                yield lineno, decode_obj(data)
            except DecodeError as exc:
                game, kind, deal = (data.get("game"), exc.event_type, data.get("deal")) if type(data) is dict \
                    else (None, None, None)
                yield lineno, Problem(path, lineno, exc.seq, exc.field, exc.message,
                                      game if type(game) is str else None, kind if type(kind) is str else None,
                                      deal if type(deal) is int else None, code=exc.code)
        if not seen_any:
            raise LogUnreadable(f"{path}: empty, nothing to read")
    except OSError as exc:
        raise LogUnreadable(f"{path}: cannot read ({exc.strerror or exc})") from None
    finally:
        if own and src is not sys.stdin.buffer:
            src.close()


# --------------------------------------------------------------------------- verify

@attrs.frozen
class VerifyResult:
    """What :func:`verify` found: ``status`` is ``ok``, ``broken`` or ``unchained``.

    ``head_at``: the line whose chain value is the remembered head given to :func:`verify`;
    ``since_head``: how many chained lines follow it.
    """

    status: str
    lines: int
    chained: int
    head: str | None = None
    line: int | None = None
    message: str = ""
    head_at: int | None = None
    since_head: int = 0


def verify(path: str, head: str | None = None) -> VerifyResult:
    """Walk the chain of a log; the first line where it breaks is reported.

    The file alone cannot show that lines were cut from its end. ``head``, the chain value
    printed by an earlier ``verify`` (or the last line's ``_chain``), can: when no line of
    the intact chain carries it, the log is not the one that head was taken from, or lost
    lines at its end; the result is then ``broken``.
    """
    src = open_source(path)
    try:
        state = GENESIS
        chained = 0
        total = 0
        started = False
        head_at: int | None = None
        chained_at_head = 0
        torn_at: int | None = None
        for lineno, line, torn in read_lines(src):
            total += 1
            content, value = split_chain(line)
            if value is None:
                if started and torn:
                    torn_at = lineno
                    break
                if started:
                    return VerifyResult("broken", total, chained, None, lineno,
                                        "a line without a chain after the chain began: inserted or changed")
                state = chain_step(state, line)
                continue
            started = True
            state = chain_step(state, content)
            if state.hex() != value:
                return VerifyResult("broken", total, chained, None, lineno,
                                    "chain mismatch: this line or one before it was changed, "
                                    "inserted, removed or reordered")
            chained += 1
            if head_at is None and value == head:
                head_at, chained_at_head = lineno, chained
        if total == 0:
            raise LogUnreadable(f"{path}: empty, nothing to read")
        if not started:
            return VerifyResult("unchained", total, 0)
        if head is not None and head_at is None:
            return VerifyResult("broken", total, chained, None, None,
                                f"the remembered head {head[:16]}… is on no line of this chain: lines were "
                                "removed from its end, or it is another log")
        note = "torn last line ignored: a write that never finished" if torn_at else ""
        return VerifyResult("ok", total, chained, state.hex(), torn_at, note, head_at,
                            chained - chained_at_head if head_at is not None else 0)
    finally:
        if src is not sys.stdin.buffer:
            src.close()


# --------------------------------------------------------------------------- append

class AppendRejected(VistlogError):
    """The events to append were not all acceptable; nothing was written."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


Checker = Callable[[Event], list[Issue]]


def append(path: str, incoming: Iterable[tuple[int, Any]], make_checker: Callable[[], Checker],
           source_name: str = "<stdin>", warn: Callable[[str], None] | None = None) -> list[Event]:
    """Append events to a log, all or none, under an exclusive lock.

    ``incoming`` yields ``(input line number, parsed JSON value)``. The existing log is
    replayed through a fresh checker from ``make_checker`` (which also learns its last
    ``seq`` and chain value); each new event gets the next ``seq`` when it has none, is
    decoded and checked; then all of them are written in one ``write``, flushed and
    fsynced. A torn last line left by a killed writer is cut off first (with a warning):
    it was never a whole event. Raises :class:`AppendRejected` with every problem; a log
    that did not exist is then not created either.
    """
    incoming = list(incoming)
    if not os.path.exists(path):  # rehearse on copies: a refused first append leaves no empty file behind
        rehearsal = [(n, orjson.loads(orjson.dumps(data))) for n, data in incoming]
        _, _, problems = _check_incoming(rehearsal, make_checker(), GENESIS, 0, source_name)
        if problems:
            raise AppendRejected(problems)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        check = make_checker()
        state = GENESIS
        last_seq = 0
        good_end = 0
        with os.fdopen(os.dup(fd), "rb") as existing:
            existing.seek(0)
            offset = 0
            for raw in existing:
                end = offset + len(raw)
                line = raw.rstrip(b"\r\n")
                if not raw.endswith(b"\n"):
                    try:
                        loads_line(split_chain(line)[0])
                    except DecodeError:
                        if warn:
                            warn(f"{path}: cut off a torn last line of {len(raw)} bytes "
                                 "(a write that never finished)")
                        break
                offset = end
                good_end = end
                if not line.strip():
                    continue
                content, value = split_chain(line)
                state = chain_step(state, content if value is not None else line)
                try:
                    event = decode_obj(loads_line(content))
                except DecodeError:
                    continue
                last_seq = event.seq
                check(event)
        if good_end != os.fstat(fd).st_size:
            os.ftruncate(fd, good_end)
        needs_newline = good_end > 0 and _last_byte(fd, good_end) != b"\n"
        out, accepted, problems = _check_incoming(incoming, check, state, last_seq, source_name)
        if problems:
            raise AppendRejected(problems)
        if out:
            blob = (b"\n" if needs_newline else b"") + b"".join(out)
            written = 0
            while written < len(blob):
                written += os.write(fd, blob[written:])
            os.fsync(fd)
        return accepted
    finally:
        os.close(fd)


def _check_incoming(incoming: list[tuple[int, Any]], check: Checker, state: bytes, last_seq: int,
                    source_name: str) -> tuple[list[bytes], list[Event], list[Problem]]:
    """Decode and check the new events after the log's last ``seq`` and chain value ``state``:
    their chained lines, the events, and the problems (the dicts are consumed)."""
    out: list[bytes] = []
    accepted: list[Event] = []
    problems: list[Problem] = []
    for lineno, data in incoming:
        if type(data) is dict:
            data.pop(CHAIN_FIELD, None)
            if "seq" not in data:
                data["seq"] = last_seq + 1
        try:
            event = decode_obj(data)
        except DecodeError as exc:
            problems.append(Problem(source_name, lineno, exc.seq, exc.field, exc.message, code=exc.code))
            continue
        for issue in check(event):
            problems.append(Problem(source_name, lineno, event.seq, issue.field, issue.message, code=issue.code))
        last_seq = event.seq
        content = encode_obj(unstructure(event))
        state = chain_step(state, content)
        out.append(content[:-1] + _CHAIN_PREFIX + state.hex().encode() + b'"}\n')
        accepted.append(event)
    return out, accepted, problems


def _last_byte(fd: int, size: int) -> bytes:
    return os.pread(fd, 1, size - 1)
