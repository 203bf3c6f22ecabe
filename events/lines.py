"""Reading a log: streaming, never the whole file. :func:`read_lines` yields ``(line number, bytes)`` one at
a time and notices a torn last line (a file cut mid-event); :func:`read_events` decodes each line and yields
an event or a :class:`Problem`; it never raises for bad input, only :class:`LogUnreadable` for a file that
cannot be read at all (missing, empty, not JSON Lines)."""

from __future__ import annotations

import functools
import io
import itertools
import os
import stat
import sys
import typing
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO, Final, NamedTuple

import orjson

from .chain import (
    _CHAIN_PREFIX, _CHAIN_TAIL, _MAC_PREFIX, _MAC_TAIL, CHAIN_MESSAGES, Chain, _content, _sha256, split_chain,
)
from .codec import DecodeError, decode_owned, loads_line
from .journal import BOM, MAX_LINE, read_journal
from .model import Event
from .problems import Issue, LogUnreadable, Problem

__all__ = ["LogUnreadable", "committed_size", "tail_mark", "open_source", "read_lines", "RawLine", "Refused",
           "read_events", "problem_of"]


class _Upto(io.RawIOBase):
    """A raw file read only up to ``limit`` bytes: the log as it stood when it was opened."""

    def __init__(self, raw: io.FileIO, limit: int) -> None:
        self.raw = raw
        self.limit = limit
        self.left = limit

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.raw.tell()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.raw.tell(), io.SEEK_END: self.limit}[whence]
        pos = self.raw.seek(min(max(base + offset, 0), self.limit))
        self.left = self.limit - pos
        return pos

    def readinto(self, buffer: Any) -> int:
        if self.left <= 0:
            return 0
        view = memoryview(buffer)[: self.left]
        n = self.raw.readinto(view) or 0
        self.left -= n
        return n

    def fileno(self) -> int:
        return self.raw.fileno()

    def close(self) -> None:
        self.raw.close()
        super().close()


def committed_size(path: str, fd: int) -> int:
    """How much of the log open on ``fd`` a reader takes as written, asking no lock (a read never waits on a
    writer): the file's size, cut back to where an append under way, or one that never finished, began.

    A writer writes its journal (the size before it) before its first byte and removes it after its last,
    so the size is read first and the journal after: a journal seen then covers every byte of that size an
    append had not finished; no journal means those bytes were whole by then. A journal being written is
    not read yet, and no byte of its append is written before it is.
    """
    size = os.fstat(fd).st_size
    before = read_journal(path, fd).size
    return before if before is not None and before < size else size


TAIL_MARK: Final = 4096
"""How many bytes before a read position :func:`tail_mark` looks at."""


def tail_mark(fd: int, end: int) -> bytes:
    """What the log open on ``fd`` holds just before ``end`` (its last :data:`TAIL_MARK` bytes, hashed): a file
    rewritten in place (a copy saved over it, an editor) no longer holds what a reader read up to there."""
    start = max(0, end - TAIL_MARK)
    return _sha256(os.pread(fd, end - start, start)).digest() if end else b""


def open_source(path: str) -> BinaryIO:
    """Open a log for reading; ``-`` is standard input. Raise :class:`LogUnreadable`.

    A file is read as it stood when opened (:func:`committed_size`, without waiting on any lock): an
    append under way then is not half seen, and the tail of an append that never finished (a writer
    killed mid-write, whose journal is still there) is not read at all.
    """
    if path == "-":
        return sys.stdin.buffer
    try:
        if os.path.isdir(path):
            raise LogUnreadable(f"{path}: is a folder, not a log file")
        raw = open(path, "rb", buffering=0)  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise LogUnreadable(f"{path}: cannot open ({exc.strerror or exc})") from None
    st = os.fstat(raw.fileno())
    if not stat.S_ISREG(st.st_mode):
        return io.BufferedReader(raw, 1 << 16)  # type: ignore[return-value]
    return io.BufferedReader(_Upto(raw, committed_size(path, raw.fileno())), 1 << 16)  # type: ignore[return-value]


def _lines(src: Iterable[bytes]) -> Iterator[bytes]:
    """The raw lines of a stream, each at most :data:`MAX_LINE` + 1 bytes (a longer line comes in pieces)."""
    readline = getattr(src, "readline", None)
    if readline is None:
        return iter(src)
    return iter(functools.partial(readline, MAX_LINE + 1), b"")


def _skip_long(first: bytes, lines: Iterator[bytes]) -> bool:
    """Read past the rest of an over-long line; ``True`` when the file ended inside it."""
    return not first.endswith(b"\n") and all(not piece.endswith(b"\n") for piece in lines)


def read_lines(stream: Iterable[bytes]) -> Iterator[tuple[int, bytes, bool]]:
    """Yield ``(line number, line content, is torn)`` for every non-blank line.

    The content has no line ending (nor a byte-order mark on the first line). A line is torn
    when it is the last one, the file does not end with a newline, and it is not whole JSON:
    a write that never finished. A line over :data:`MAX_LINE` bytes is yielded as ``b""``.
    """
    lines = _lines(stream)
    lineno = 0
    for raw in lines:
        lineno += 1
        if lineno == 1 and raw.startswith(BOM):
            raw = raw[3:]
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            yield lineno, b"", False  # before the rest is read: a reader that stops here never reads it
            _skip_long(raw, lines)
            continue
        line = _content(raw)
        if not line.strip():
            continue
        torn = not raw.endswith(b"\n") and _is_torn(line)
        yield lineno, line, torn


def _is_torn(line: bytes) -> bool:
    try:
        orjson.loads(line)
    except orjson.JSONDecodeError:
        return True
    return False


def _count_keys(value: Any) -> int:
    """The keys of every object in a parsed JSON value (``value``: a dict or a list)."""
    n = len(value) if type(value) is dict else 0
    for v in (value.values() if type(value) is dict else value):
        if type(v) is dict or type(v) is list:
            n += _count_keys(v)
    return n


def _keys_in(data: Any) -> int:
    """:func:`_count_keys`, or -1 for a value nested past the interpreter's recursion (the decoder then
    refuses it in words); recursion, not a loop, since this runs on every line with a nested object."""
    try:
        return _count_keys(data)
    except RecursionError:
        return -1


def _duplicate_key(raw: bytes) -> str | None:
    """The first key that stands twice in one object of the line, or ``None``."""
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for k, _ in items:
            if k in seen and not found:
                found.append(k)
            seen.add(k)
        return dict(items)

    try:
        import json

        json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return None
    return found[0] if found else None


class RawLine(NamedTuple):
    """A line that is JSON but not yet an event (``read_events(undecoded=True)``): the parsed value, the
    line as it is decoded (without the chain field) and the chain problem it carries, if any."""

    data: Any
    content: bytes
    broken: str | None


class Refused(NamedTuple):
    """An event that ``read_events(check=...)`` checked and the checker refused, with its issues."""

    event: Event
    issues: list[Issue]


@typing.overload
def read_events(path: str, stream: Iterable[bytes] | None = None, undecoded: typing.Literal[False] = False,
                check: None = None, quiet: frozenset[type] = frozenset()) -> Iterator[tuple[int, Event | Problem]]: ...


@typing.overload
def read_events(path: str, stream: Iterable[bytes] | None = None, *, undecoded: typing.Literal[True]
                ) -> Iterator[tuple[int, RawLine | Problem]]: ...


@typing.overload
def read_events(path: str, stream: Iterable[bytes] | None = None, undecoded: typing.Literal[False] = False, *,
                check: Callable[[Event], list[Issue]], quiet: frozenset[type]
                ) -> Iterator[tuple[int, Event | Problem | Refused]]: ...


def read_events(path: str, stream: Iterable[bytes] | None = None, undecoded: bool = False,
                check: Callable[[Event], list[Issue]] | None = None, quiet: frozenset[type] = frozenset()
                ) -> Iterator[tuple[int, Event | Problem | RawLine | Refused]]:
    """Decode a log line by line: yield ``(line, event)`` or ``(line, Problem)``.

    Raises :class:`LogUnreadable` (before yielding anything) when the file is empty or its
    first line is not a JSON object: such input is not a log at all. Every line is also
    walked through the hash chain (:class:`Chain`): a line that breaks it is a problem
    (``chain-mismatch``, ``chain-missing``) reported before its event, which is still read.

    This is the hot loop of every command, so it is written flat, and is longer than 80 lines for that
    reason: a helper called per line costs more than the rest of the loop's work on a common line
    (measured by ``bench/throughput.py``). ``orjson`` takes the line with its newline, and the chain
    field is split off where the line ends with it.
    A key written twice in one object is refused (``field-duplicate``); it is looked for
    only when the line holds more ``":`` than its objects have keys.

    With ``undecoded`` the lines are not decoded: each line that is JSON comes as a :class:`RawLine`
    (what splits one file among processes, :mod:`vistlog.projections.split`, routes).

    With ``check`` (a :class:`vistlog.events.checker.LogChecker`'s ``check``), each event whose type is in
    ``quiet`` and whose line is sound is checked here, as it is decoded: one that passes is not yielded
    at all, one that is refused comes as ``(line, Refused(event, issues))``. This is how a reader that
    has nothing to do with a legal bid or card (``validate``, ``settle``) pays one dispatch for it.
    """
    own = stream is None
    src = open_source(path) if own else stream
    assert src is not None
    loads = orjson.loads
    JSONError = orjson.JSONDecodeError
    prefix = _CHAIN_PREFIX
    chain = Chain()
    step = chain.step
    start = _rereadable_at(src)
    lines = _lines(src)
    first = next(lines, b"")
    lines = itertools.chain([first[3:] if first.startswith(BOM) else first], lines)
    lazy = start is not None  # unchained lines are hashed only if a chain begins after them (read again)
    skipped = False
    try:
        seen_any = False
        lineno = 0
        for raw in lines:
            lineno += 1
            if raw[-2:] == b"}\n" and raw[-70:-67] != b'":"':
                content = raw  # the common line: no 64-character string at its end, so no chain (nor key)
                value: str | None = None
            elif raw[-3:] == b'"}\n' and raw[-_CHAIN_TAIL - 1:-67] == prefix:
                content = raw[:-_CHAIN_TAIL - 1] + b"}"
                value = raw[-67:-3].decode("ascii", "replace")
                if skipped:
                    chain.state, skipped = _prefix_state(src, start, lineno), False  # type: ignore[arg-type]
            elif raw[-2:] == b"}\n" and raw[-_MAC_TAIL - 1:-67] != _MAC_PREFIX:
                content = raw  # orjson takes the newline; the chain, when it needs the line, strips it
                value = None
            else:
                if len(raw) > MAX_LINE and raw[-1:] != b"\n":
                    if not seen_any:
                        raise LogUnreadable(f"{path}:{lineno}: not a JSON Lines log (a line over {MAX_LINE} bytes)")
                    _skip_long(raw, lines)
                    chain.began = False  # the chain cannot be followed past a line that was not read
                    yield lineno, Problem(path, lineno, None, "", f"a line of over {MAX_LINE} bytes: not an event",
                                          code="line-too-long")
                    continue
                content, value = split_chain(_content(raw))
                if not content.strip():
                    continue
            try:
                data = loads(content)
            except JSONError:
                try:
                    loads_line(content)
                except DecodeError as exc:
                    if not seen_any:
                        raise LogUnreadable(f"{path}:{lineno}: not a JSON Lines log ({exc.message})") from None
                    torn = not raw.endswith(b"\n")
                    if not torn and (value is not None or chain.began or not lazy):
                        step(content.rstrip(b"\r\n"), value)
                    elif not torn:
                        skipped = True
                    msg = "torn last line: the file ends in the middle of an event" if torn else exc.message
                    yield lineno, Problem(path, lineno, None, "", msg, code="torn-line" if torn else exc.code)
                continue
            if value is None and lazy and not chain.began:
                broken = None
                skipped = True
            else:
                broken = step(content[:-1] if content[-1:] == b"\n" else content, value)
            if not seen_any:
                if type(data) is not dict:
                    raise LogUnreadable(f"{path}:{lineno}: not a JSON Lines log (a line is not a JSON object)")
                seen_any = True
            keys = content.count(b'":')
            if type(data) is dict and keys != len(data) and keys != _keys_in(data):
                twice = _duplicate_key(content)
                if twice is not None:
                    yield lineno, problem_of(path, lineno, data, DecodeError(
                        twice, "written twice in one object", code="field-duplicate"))
                    continue
            if undecoded:
                yield lineno, RawLine(data, content, broken)
                continue
            try:
                event = decode_owned(data)
            except DecodeError as exc:
                yield lineno, problem_of(path, lineno, data, exc)
                continue
            if broken:
                yield lineno, Problem(path, lineno, event.seq, "_chain", CHAIN_MESSAGES[broken], event.game,
                                      code=broken)
            elif type(event) in quiet:
                issues = check(event)  # type: ignore[misc]  # quiet is empty without check
                if issues:
                    yield lineno, Refused(event, issues)
                continue
            yield lineno, event
        if not seen_any:
            raise LogUnreadable(f"{path}: empty, nothing to read")
    except OSError as exc:
        raise LogUnreadable(f"{path}: cannot read ({exc.strerror or exc})") from None
    finally:
        if own and src is not sys.stdin.buffer:
            typing.cast(BinaryIO, src).close()


def _rereadable_at(src: Any) -> int | None:
    """Where a stream that can be read again begins (a file, or standard input from one); ``None`` for
    one that cannot (a pipe, an iterable of lines)."""
    try:
        return int(src.tell()) if src.seekable() else None
    except (AttributeError, OSError, ValueError):
        return None


def _prefix_state(src: BinaryIO, start: int, upto: int) -> bytes:
    """The chain value after the lines before line ``upto`` of the stream ``src`` that began at
    ``start``, read again from there (and left where it was)."""
    chain = Chain()
    here = src.tell()
    src.seek(start)
    try:
        for lineno, line, _ in read_lines(src):
            if lineno >= upto:
                break
            if line:  # a line over the size limit is not followed (read_events does not either)
                chain.step(line, None)
    finally:
        src.seek(here)
    return chain.state


def problem_of(path: str, lineno: int | None, data: Any, exc: DecodeError) -> Problem:
    """The problem of a line (``data``, its parsed JSON) that did not decode, with its game and deal when known."""
    if type(data) is dict:
        game, deal, seq = data.get("game"), data.get("deal"), data.get("seq")
    else:
        game = deal = seq = None
    return Problem(path, lineno, exc.seq if exc.seq is not None else (seq if type(seq) is int else None),
                   exc.field, exc.message, game if type(game) is str else None,
                   exc.event_type, deal if type(deal) is int else None, code=exc.code)
