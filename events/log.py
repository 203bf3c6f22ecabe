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

import contextlib
import errno
import fcntl
import functools
import io
import itertools
import os
import stat
import sys
import typing
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO, Final, NamedTuple

import attrs
import orjson

from .codec import DecodeError, decode_obj, decode_owned, encode_obj, loads_line, unstructure
from .model import Event
from .problems import Issue, Problem, VistlogError
from .native import mypyc_attr

__all__ = [
    "CHAIN_FIELD", "Problem", "LogUnreadable", "open_source", "read_lines", "read_events",
    "split_chain", "chain_step", "verify", "VerifyResult", "append", "AppendRejected", "GENESIS",
    "Chain", "MAX_LINE", "journal_size", "read_key", "MAC_FIELD", "problem_of", "Refused",
    "KeyRequired", "MAX_KEY", "LogWriter", "AppendConflict", "Journal", "read_journal", "Spool", "SPOOL_MEMORY",
    "MAX_PROBLEMS",
]

CHAIN_FIELD: Final = "_chain"
GENESIS: Final = bytes(32)
_CHAIN_PREFIX: Final = b',"_chain":"'
_CHAIN_TAIL: Final = len(_CHAIN_PREFIX) + 64 + 2
MAC_FIELD: Final = "_mac"
_MAC_PREFIX: Final = b',"_mac":"'
_MAC_TAIL: Final = len(_MAC_PREFIX) + 64 + 2
KEYED: Final = "mac:"
"""How :func:`split_chain` marks the value of a keyed line (``_mac``)."""


def _sha256(data: bytes = b"") -> Any:
    """A SHA-256 of ``data`` (``hashlib`` is imported on first use: reading a log without a chain needs none)."""
    import hashlib

    return hashlib.sha256(data)


def _hmac_sha256(key: bytes, data: bytes) -> bytes:
    import hashlib
    import hmac

    return hmac.new(key, data, hashlib.sha256).digest()


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class LogUnreadable(VistlogError):
    """A log (or a key file) that cannot be read at all: missing, a folder, unreadable, empty, or not JSON Lines."""

    code = "log-unreadable"


MAX_LINE: Final = 1 << 20
"""The longest line read (1 MiB, far more than any event): a longer one is a problem, not a meal."""
BOM: Final = b"\xef\xbb\xbf"
JOURNAL_SUFFIX: Final = ".append-journal"
"""``LOG.append-journal`` holds the log's size before an append that has not finished yet."""


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


class Journal(NamedTuple):
    """What a log's journal (``LOG.append-journal``) says: the size to cut back to, or why it is
    not this log's journal (``problem``); ``hostile`` when it is no plain file of the log's owner."""

    size: int | None
    problem: str | None = None
    hostile: bool = False


_JOURNAL_TAIL: Final = 4096
"""How many bytes before the journal's size its digest covers (so that a restored copy is told apart)."""


def _journal_text(fd: int, size: int, blob: bytes | Spool = b"") -> str:
    """The journal of an append of ``blob`` to ``fd`` at ``size``: the size, the file it is for (device
    and inode), a digest of the bytes before it, and the length and digest of what is being written."""
    length, digest = (len(blob), _sha256(blob).hexdigest()) if isinstance(blob, bytes) else \
        (blob.length, blob.hexdigest())
    return f"{size} {_identity(fd, size)} {length} {digest}\n"


class Spool:
    """Lines on their way into a log, kept in memory up to :data:`SPOOL_MEMORY` bytes and past it in a
    temporary file, with their length and digest (an import of any size holds its lines on disk, not in memory)."""

    def __init__(self) -> None:
        import tempfile
        self.file = tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY)  # noqa: SIM115 - closed by close()
        self.length = 0
        self._sha = _sha256()

    def write(self, data: bytes) -> None:
        """Add ``data`` at the end."""
        self.file.write(data)
        self._sha.update(data)
        self.length += len(data)

    def hexdigest(self) -> str:
        """The SHA-256 of everything written, in hex."""
        return self._sha.hexdigest()

    def chunks(self, size: int = 1 << 20) -> Iterator[bytes]:
        """Everything written, from the start, ``size`` bytes at a time."""
        self.file.seek(0)
        while chunk := self.file.read(size):
            yield chunk

    def lines(self) -> Iterator[bytes]:
        """Everything written, from the start, a line at a time."""
        self.file.seek(0)
        yield from self.file

    def close(self) -> None:
        """Drop what was written (the temporary file goes with it)."""
        self.file.close()


SPOOL_MEMORY: Final = 8 << 20
"""How much of a :class:`Spool` stays in memory before it moves to a temporary file."""


def _identity(fd: int, size: int) -> str:
    st = os.fstat(fd)
    start = max(0, size - _JOURNAL_TAIL)
    tail = os.pread(fd, size - start, start) if size else b""
    return f"{st.st_dev} {st.st_ino} {_sha256(tail).hexdigest()}"


def read_journal(path: str, fd: int) -> Journal:
    """The journal of the log open on ``fd``, read without following a link. A journal written for
    another file (the log was replaced since, or restored from a copy) is not this log's."""
    journal = path + JOURNAL_SUFFIX
    try:
        jfd = os.open(journal, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return Journal(None)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Journal(None, f"{journal} is a symbolic link, not a journal", hostile=True)
        return Journal(None, f"{journal}: cannot read ({exc.strerror or exc})", hostile=True)
    try:
        jst, log = os.fstat(jfd), os.fstat(fd)
        if not stat.S_ISREG(jst.st_mode):
            return Journal(None, f"{journal} is not a regular file", hostile=True)
        if jst.st_uid != log.st_uid:
            return Journal(None, f"{journal} belongs to another user than the log", hostile=True)
        text = os.read(jfd, 256)
    finally:
        os.close(jfd)
    parts = text.decode("ascii", "replace").split()
    if not parts or not parts[0].isdigit():
        return Journal(None, f"{journal} is not a journal vistlog wrote")
    size = int(parts[0])
    if len(parts) >= 6 and parts[4].isdigit():  # written with the file's identity (older ones hold the size alone)
        if parts[1:3] != [str(log.st_dev), str(log.st_ino)]:
            return Journal(None, f"{journal} was written for another file (the log was replaced since)")
        if size > log.st_size or _identity(fd, size).split()[2] != parts[3]:
            return Journal(None, f"{journal} does not match the log's bytes before it (a copy restored since?)")
        length = int(parts[4])
        if log.st_size > size + length:
            return Journal(None, f"{journal}: the log holds more than the unfinished append could have written "
                                 "(a copy restored since?)")
        if log.st_size == size + length and length and \
                _sha256(os.pread(fd, length, size)).hexdigest() == parts[5]:
            return Journal(None, f"{journal}: the append it guarded had written everything")
    return Journal(size)


def journal_size(path: str) -> int | None:
    """The size a log had before an append that never finished (its journal), or ``None``
    (no journal, or one that is not this log's)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return read_journal(path, fd).size
    finally:
        os.close(fd)


def open_source(path: str) -> BinaryIO:
    """Open a log for reading; ``-`` is standard input. Raise :class:`LogUnreadable`.

    A file is read as it stood when opened, under a shared lock for that instant: an append
    under way then is not half seen, and the tail of an append that never finished (a writer
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
    try:
        fcntl.flock(raw.fileno(), fcntl.LOCK_SH)
        size = os.fstat(raw.fileno()).st_size
        before = read_journal(path, raw.fileno()).size
        fcntl.flock(raw.fileno(), fcntl.LOCK_UN)
    except OSError:
        size, before = st.st_size, read_journal(path, raw.fileno()).size
    if before is not None and before < size:
        size = before
    return io.BufferedReader(_Upto(raw, size), 1 << 16)  # type: ignore[return-value]


def split_chain(line: bytes) -> tuple[bytes, str | None]:
    """Split a line (no line ending) into (content without the chain field, chain hex or None).

    The value of a keyed line (``_mac``) comes back marked ``mac:HEX``.
    """
    if len(line) > _CHAIN_TAIL and line.endswith(b'"}'):
        if line[-_CHAIN_TAIL:-66] == _CHAIN_PREFIX:
            return line[:-_CHAIN_TAIL] + b"}", line[-66:-2].decode("ascii", "replace")
        if line[-_MAC_TAIL:-66] == _MAC_PREFIX:
            return line[:-_MAC_TAIL] + b"}", KEYED + line[-66:-2].decode("ascii", "replace")
    return line, None


MAX_KEY: Final = 4096
"""The largest key file read (bytes): a longer one is refused, never read in part."""


def read_key(path: str) -> bytes:
    """The secret of a keyed chain, from a key file: all its bytes, a trailing newline left off
    (16 to :data:`MAX_KEY` bytes; a longer file is refused, so two keys that differ anywhere are
    two keys)."""
    try:
        with open(path, "rb") as fh:
            key = fh.read(MAX_KEY + 1)
    except OSError as exc:
        raise LogUnreadable(f"{path}: cannot read the key file ({exc.strerror or exc})") from None
    if len(key) > MAX_KEY:
        raise LogUnreadable(f"{path}: a key file holds at most {MAX_KEY} bytes; this one is longer "
                            "(is it the right file?)")
    key = key.rstrip(b"\r\n")
    if len(key) < 16:
        raise LogUnreadable(f"{path}: a key file holds at least 16 bytes of secret")
    return key


def chain_step(previous: bytes, content: bytes) -> bytes:
    """The next chain value: ``sha256(previous + content)``."""
    return _sha256(previous + content).digest()


class Chain:
    """Follows a log's hash chain line by line (every reader does, on the way).

    Lines without a chain before the first chained one are absorbed as they are; after it,
    every line must carry the chain. :meth:`step` says what is wrong with one line, if
    anything, and resynchronises on the line's own value, so each changed, inserted or
    removed line is reported once.

    A keyed line (``_mac``: HMAC-SHA256 with a secret key instead of SHA-256) is checked when
    the chain has the ``key``; without it, the chain follows the line's own value unchecked
    (``unchecked`` counts them). Once keyed lines began, a line chained without the key is a
    problem for a chain that has the key: somebody without it wrote there.

    >>> c = Chain()
    >>> value = chain_step(GENESIS, b'{"a":1}').hex()
    >>> c.step(b'{"a":1}', value), c.step(b'{"a":2}', None)
    (None, 'chain-missing')
    """

    __slots__ = ("began", "chained", "key", "keyed", "state", "unchecked")

    def __init__(self, key: bytes | None = None) -> None:
        self.state = GENESIS
        self.began = False
        self.chained = 0
        self.key = key
        self.keyed = False
        self.unchecked = 0

    def step(self, content: bytes, value: str | None) -> str | None:
        """Take one line's content (no chain field, no line ending) and its chain value."""
        if value is None and self.began:
            return "chain-missing"
        if value is not None and value.startswith(KEYED):
            return self._keyed(content, value[len(KEYED):])
        if value is not None and self.keyed and self.key is not None:
            self._resync(value, self.state)
            self.chained += 1
            return "chain-unkeyed"
        state = _sha256(self.state + content).digest()
        if value is None:
            self.state = state
            return None
        self.began = True
        self.chained += 1
        if state.hex() == value:
            self.state = state
            return None
        self._resync(value, state)
        return "chain-mismatch"

    def _keyed(self, content: bytes, value: str) -> str | None:
        self.began = self.keyed = True
        self.chained += 1
        if self.key is None:
            self.unchecked += 1
            self._resync(value, self.state)
            return None
        state = _hmac_sha256(self.key, self.state + content)
        if state.hex() == value:
            self.state = state
            return None
        self._resync(value, state)
        return "chain-mismatch"

    def _resync(self, value: str, fallback: bytes) -> None:
        try:
            self.state = bytes.fromhex(value)
        except ValueError:
            self.state = fallback


CHAIN_MESSAGES: Final = {
    "chain-mismatch": "chain mismatch: this line or one before it was changed, inserted, removed or reordered",
    "chain-missing": "a line without a chain after the chain began: inserted or changed",
    "chain-unkeyed": "a line chained without the key after the keyed chain began: written by someone without it",
}


def _content(raw: bytes) -> bytes:
    """A line without its ending and trailing blanks (how the chain sees it)."""
    return raw.rstrip(b" \t\r\n")


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


# --------------------------------------------------------------------------- verify

@attrs.frozen
class VerifyResult:
    """What :func:`verify` found: ``status`` is ``ok``, ``broken``, ``unchained`` or ``keyed`` (a keyed
    chain and no key); ``code`` is the problem code when it is broken.

    ``head_at``: the line whose chain value is the remembered head given to :func:`verify`;
    ``since_head``: how many chained lines follow it. ``keyed_from``: with a key, the first line
    of the keyed chain (every line from there on had its ``_mac`` checked with the key; the lines
    before it carry only the plain chain, which anyone can recompute).
    """

    status: str
    lines: int
    chained: int
    head: str | None = None
    line: int | None = None
    message: str = ""
    head_at: int | None = None
    since_head: int = 0
    code: str | None = None
    keyed_from: int | None = None


def verify(path: str, head: str | None = None, key: bytes | None = None) -> VerifyResult:
    """Walk the chain of a log; the first line where it breaks is reported.

    Every line a reader uses is covered: a last line without a newline is skipped only when
    it is not whole JSON (a write that never finished). The file alone cannot show that
    lines were cut from its end. ``head``, the chain value printed by an earlier ``verify``
    (or the last line's ``_chain``), can: when no line of the intact chain carries it, the
    log is not the one that head was taken from, or lost lines at its end; the result is
    then ``broken``. ``head`` may be a unique prefix of the value (8 digits or more, as git
    takes commit ids); one that matches two lines is ``ambiguous``. A keyed chain (``_mac``
    lines, see :class:`Chain`) is proven only with its ``key``; without it the result is
    ``keyed``, and nothing is proven. With a ``key``, a log that has no keyed line at all is
    ``broken`` (``chain-not-keyed``): a plain chain can be rewritten by anyone, so the key proves
    nothing of it.
    """
    src = open_source(path)
    try:
        chain = Chain(key)
        total = 0
        head_at: int | None = None
        head_value = ""
        chained_at_head = 0
        torn_at: int | None = None
        keyed_from: int | None = None
        head = head.lower() if head is not None else None
        for lineno, line, torn in read_lines(src):
            total += 1
            if total == 1 and (torn or not line.lstrip().startswith(b"{") or _is_torn(line)):
                raise LogUnreadable(f"{path}:{lineno}: not a JSON Lines log (the first line is not a JSON object)")
            if torn:
                torn_at = lineno
                break
            if not line:
                return VerifyResult("broken", total, chain.chained, None, lineno,
                                    f"a line of over {MAX_LINE} bytes: the chain cannot be followed",
                                    code="line-too-long")
            content, value = split_chain(line)
            broken = chain.step(content, value)
            if keyed_from is None and chain.keyed:
                keyed_from = lineno
            if broken:
                return VerifyResult("broken", total, chain.chained - (value is not None), None, lineno,
                                    CHAIN_MESSAGES[broken], code=broken)
            if head is not None and value is not None and value.removeprefix(KEYED).startswith(head):
                if head_at is not None and value.removeprefix(KEYED) != head_value:
                    return VerifyResult("ambiguous", total, chain.chained, None, lineno,
                                        f"the head prefix {head} matches lines {head_at} and {lineno}: "
                                        "give more digits")
                if head_at is None:
                    head_at, chained_at_head, head_value = lineno, chain.chained, value.removeprefix(KEYED)
        if total == 0:
            raise LogUnreadable(f"{path}: empty, nothing to read")
        if not chain.began:
            return VerifyResult("unchained", total, 0)
        if chain.unchecked:
            return VerifyResult("keyed", total, chain.chained, None, None,
                                f"{chain.unchecked} line(s) carry a keyed chain (_mac): only its key can prove them")
        if key is not None and keyed_from is None:
            return VerifyResult("broken", total, chain.chained, None, None,
                                f"no line carries a keyed chain (_mac): the key proves nothing of this log "
                                f"({chain.chained} line(s) with a plain chain, which anyone can recompute)",
                                code="chain-not-keyed")
        if head is not None and head_at is None:
            return VerifyResult("broken", total, chain.chained, None, None,
                                f"the remembered head {head[:16]}… is on no line of this chain: lines were "
                                "removed from its end, or it is another log", code="chain-head-missing")
        note = "torn last line ignored: a write that never finished" if torn_at else ""
        return VerifyResult("ok", total, chain.chained, chain.state.hex(), torn_at, note, head_at,
                            chain.chained - chained_at_head if head_at is not None else 0,
                            keyed_from=keyed_from if key is not None else None)
    finally:
        if src is not sys.stdin.buffer:
            src.close()


# --------------------------------------------------------------------------- append

@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class AppendRejected(VistlogError):
    """The events to append were not all acceptable; nothing was written (``problems`` says why)."""

    code = "append-rejected"

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


Checker = Callable[[Event], list[Issue]]


def append(path: str, incoming: Iterable[tuple[int | None, Any]], make_checker: Callable[[], Checker],
           source_name: str = "<stdin>", warn: Callable[[str], None] | None = None,
           key: bytes | None = None) -> list[Event]:
    """Append events to a log, all or none, under an exclusive lock.

    ``incoming`` yields ``(input line number, parsed JSON value)``. The existing log is
    replayed through a fresh checker from ``make_checker`` (which also learns its last
    ``seq`` and chain value); each new event gets the next ``seq`` when it has none, is
    decoded and checked; then all of them are written in one ``write``, flushed and
    fsynced. Raises :class:`AppendRejected` with every problem; a log that did not exist is
    then not created either, and a file that is not a log (its first line is not an event)
    is never touched.

    Nothing is half written. Before writing, the log's size is kept in a journal
    (``LOG.append-journal``, fsynced); on any failure the log is cut back to that size, and
    the journal removed only once the write is on disk. A writer killed mid-write leaves the
    journal behind: readers then read the log as it was before, and the next append cuts it
    back first. A torn last line left by an older writer (the start of an event, never
    finished) is cut off too, with a warning; any other last line is left as it is.

    With ``key`` the new lines carry a keyed chain (``_mac``, HMAC-SHA256): only the key's holder
    can write or rewrite such lines so that ``verify`` with the key accepts them.
    """
    return LogWriter(path, make_checker, key=key, warn=warn).append(incoming, source_name)


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class AppendConflict(AppendRejected):
    """The log moved on before this append: it expected to write ``seq`` N and the log's next is
    another (somebody else recorded first); nothing was written."""

    code = "append-conflict"

    def __init__(self, path: str, expected: int, actual: int) -> None:
        self.expected, self.actual = expected, actual
        super().__init__([Problem(path, None, expected, "seq", f"expected to write seq {expected}, but the log's "
                                  f"next seq is {actual}: somebody recorded first; nothing written",
                                  code="append-conflict")])


class LogWriter:
    """Appends to one log again and again, keeping what it has read: the score pad's writer.

    The first :meth:`append` replays the log as :func:`append` does; each later one reads only
    the lines written since (by this writer or by any other process), so an append costs what
    its own events cost, however long the log. Every append takes the lock, recovers an
    unfinished one and writes through the journal exactly as :func:`append`. A refused or
    failed append leaves the checker's state unknown: the next one replays the log again.
    ``expect_seq`` makes an append conditional (:class:`AppendConflict` when the log's next
    ``seq`` is another): two writers recording the same deal at once, one wins.

    >>> import tempfile
    >>> from vistlog.projections.fold import Pipeline
    >>> log = os.path.join(tempfile.mkdtemp(), "pad.jsonl")
    >>> w = LogWriter(log, lambda: Pipeline(log, detail=False).check)
    >>> [e.seq for e in w.append([(1, {"type": "game_started", "game": "g", "kind": "preferans",
    ...     "players": ["A", "B", "C"], "pool": 10, "rules": {"preset": "sochi"}})])]
    [1]
    >>> w.next_seq
    2
    """

    def __init__(self, path: str, make_checker: Callable[[], Checker], *, key: bytes | None = None,
                 warn: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.make_checker = make_checker
        self.key = key
        self.warn = warn
        self.check: Checker | None = None
        """The live checker, fed every event of the log (None until read, or after a refusal)."""
        self._end = 0
        self._chain = Chain(key)
        self._last_seq = 0
        self._ident: tuple[int, int] | None = None

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next event gets, as of the last read."""
        return self._last_seq + 1

    def refresh(self) -> bool:
        """Read what other writers appended since (under the lock); True when anything was new."""
        if not os.path.exists(self.path):
            return False
        fd, _ = _open_locked(self.path, create=False)
        try:
            _recover(self.path, fd, self.warn)
            before = (self._ident, self._end)
            self._catch_up(fd)
            return (self._ident, self._end) != before
        finally:
            os.close(fd)

    def append(self, incoming: Iterable[tuple[int | None, Any]], source_name: str = "<stdin>",
               expect_seq: int | None = None, then: Callable[[], list[Problem]] | None = None) -> list[Event]:
        """Check and append ``(line number, JSON value)`` items, all or none (see :func:`append`). ``then`` is
        asked, once every item has passed, what else is wrong now (with the checker's state after them): a
        problem it gives refuses the append as any other does."""
        path, key = self.path, self.key
        incoming = list(incoming)
        if not os.path.exists(path):  # rehearse on copies: a refused first append leaves no empty file behind
            if expect_seq not in (None, 1):
                raise AppendConflict(path, expect_seq, 1)  # type: ignore[arg-type]
            rehearsal = [(n, orjson.loads(orjson.dumps(data))) for n, data in incoming]
            _, _, problems, _ = _check_incoming(rehearsal, self.make_checker(), GENESIS, 0, source_name, key)
            if problems:
                raise AppendRejected(problems)
            self.check = None
        fd, created = _open_locked(path, create=True)
        try:
            _recover(path, fd, self.warn)
            self._catch_up(fd)
            check = self.check
            assert check is not None
            if expect_seq is not None and expect_seq != self.next_seq:
                raise AppendConflict(path, expect_seq, self.next_seq)
            good_end = self._end
            needs_newline = good_end > 0 and _last_byte(fd, good_end) != b"\n"
            self.check = None  # until the events are written, the checker's state is not the log's
            out, accepted, problems, state = _check_incoming(incoming, check, self._chain.state, self._last_seq,
                                                             source_name, key)
            if not problems and then is not None:
                problems = then()
            if problems:
                raise AppendRejected(problems)
            if out:
                blob = (b"\n" if needs_newline else b"") + b"".join(out)
                try:
                    _write_all_or_nothing(path, fd, blob, good_end)
                except BaseException:
                    if created and good_end == 0:  # the file this append created goes again: a writer
                        with contextlib.suppress(OSError):  # waiting on it sees it unlinked and opens anew
                            os.unlink(path)
                    raise
                self._advanced(good_end + len(blob), state, accepted[-1].seq)
            self.check = check
            return accepted
        finally:
            os.close(fd)

    def append_stream(self, incoming: Iterable[tuple[int | None, Any]], source_name: str = "<stdin>") -> int:
        """Check and append ``(line number, JSON value)`` items, all or none, holding none of them: each is
        checked and its chained line spooled (:class:`Spool`, on disk past a few MB), then the spool is
        written through the journal as :meth:`append` writes. Returns how many events were appended. A log
        this call created is removed again when the events are refused."""
        path, key = self.path, self.key
        fd, created = _open_locked(path, create=True)
        spool = Spool()
        try:
            _recover(path, fd, self.warn)
            self._catch_up(fd)
            check = self.check
            assert check is not None
            good_end = self._end
            if good_end > 0 and _last_byte(fd, good_end) != b"\n":
                spool.write(b"\n")
            self.check = None
            chaining = _Chaining(check, self._chain.state, self._last_seq, source_name, key)
            count = 0
            for lineno, data in incoming:
                done = chaining.line(lineno, data)
                if done is not None:
                    spool.write(done[0])
                    count += 1
            try:
                if chaining.refused:
                    raise AppendRejected(chaining.problems)
                if count:
                    _write_all_or_nothing(path, fd, spool, good_end)
            except BaseException:
                if created and good_end == 0:
                    with contextlib.suppress(OSError):
                        os.unlink(path)
                raise
            if count:
                self._advanced(good_end + spool.length, chaining.state, chaining.last_seq)
            self.check = check
            return count
        finally:
            spool.close()
            os.close(fd)

    def _advanced(self, end: int, state: bytes, last_seq: int) -> None:
        """What this writer knows of the log once its lines are on disk: the end, the chain, the last ``seq``."""
        self._end = end
        self._chain.state = state
        self._chain.began = True
        self._chain.keyed = self._chain.keyed or self.key is not None
        self._last_seq = last_seq

    def _catch_up(self, fd: int) -> None:
        """Bring the checker up to the log's end: from the start when it is unknown, when the file is
        another or shorter than read; else only the lines written since."""
        st = os.fstat(fd)
        ident = (st.st_dev, st.st_ino)
        check = self.check
        if check is None or ident != self._ident or st.st_size < self._end:
            check = self.make_checker()
            self._chain, self._end, self._last_seq = Chain(self.key), 0, 0
        self._ident = ident
        self.check = None  # a replay that raises leaves it unknown
        if st.st_size != self._end:
            self._end, self._last_seq = _replay(self.path, fd, check, self.warn, self.key, chain=self._chain,
                                                start=self._end, last_seq=self._last_seq)
            if self._end != os.fstat(fd).st_size:
                _cut(fd, self._end)
        self.check = check


def _open_locked(path: str, *, create: bool) -> tuple[int, bool]:
    """Open the log for appending under its exclusive lock: ``(fd, created by this call)``. The file
    locked must still be the path's file: one unlinked meanwhile (a first append that failed and removed
    the file it created) is let go and the path opened again."""
    for _ in range(100):
        created = False
        try:
            if create:
                try:
                    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
                    created = True
                except FileExistsError:
                    fd = os.open(path, os.O_RDWR | os.O_APPEND)
            else:
                fd = os.open(path, os.O_RDWR | os.O_APPEND)
        except FileNotFoundError:
            if not create:
                raise
            continue  # removed between the two opens: try again
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise LogUnreadable(f"{path}: not a regular file; a log is appended to a file")
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                now = os.stat(path)
            except FileNotFoundError:
                now = None
            if now is not None and (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                return fd, created
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    raise LogUnreadable(f"{path}: the file kept being replaced while this append waited for it; nothing appended")


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class KeyRequired(LogUnreadable):
    """A keyed log (its lines carry ``_mac``) appended to without its key, or with another key:
    refused, nothing written, since the lines written would break its keyed chain for good."""

    code = "key-required"


def _replay(path: str, fd: int, check: Checker, warn: Callable[[str], None] | None,
            key: bytes | None = None, *, chain: Chain, start: int = 0, last_seq: int = 0) -> tuple[int, int]:
    """Read the log under the lock from ``start`` (a line's beginning), following ``chain`` and feeding
    ``check``: (the end of its last whole line, the last ``seq``).

    Refuses a non-empty file whose first line is not an event: it is not a log; and a keyed log
    without its key, or with a key that does not prove its keyed lines (:class:`KeyRequired`).
    """
    good_end = start
    first = start == 0
    with os.fdopen(os.dup(fd), "rb") as existing:
        existing.seek(start)
        offset = start
        lines = _lines(existing)
        for raw in lines:
            end = offset + len(raw)
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                raise LogUnreadable(f"{path}: a line of over {MAX_LINE} bytes: not a log this program appends to")
            line = _content(raw[3:] if first and raw.startswith(BOM) else raw)
            if not raw.endswith(b"\n") and line.strip() and _is_torn(line):
                if not line.lstrip().startswith(b'{"'):
                    raise LogUnreadable(f"{path}: its last line is neither an event nor the start of one; "
                                        "nothing appended")
                if warn:
                    warn(f"{path}: cut off a torn last line of {len(raw)} bytes (a write that never finished)")
                break
            offset = good_end = end
            if not line.strip():
                continue
            content, value = split_chain(line)
            if chain.step(content, value) == "chain-mismatch" and value is not None and value.startswith(KEYED):
                raise KeyRequired(f"{path}: the key does not prove this log's keyed chain (_mac): "
                                  "is it the club's key? nothing appended")
            try:
                event = decode_owned(loads_line(content))
            except DecodeError as exc:
                if first:
                    raise LogUnreadable(f"{path}:1: not a log (the first line is not an event: {exc}); "
                                        "nothing appended") from None
                continue
            first = False
            last_seq = event.seq
            check(event)
    if chain.keyed and key is None:
        raise KeyRequired(f"{path}: the log is keyed (its lines carry _mac): give its key (--key-file); "
                          "nothing appended")
    return good_end, last_seq


def _recover(path: str, fd: int, warn: Callable[[str], None] | None) -> None:
    """Undo an append that never finished (its journal is still there), under the lock. A journal that
    is a link, not a plain file or another user's is refused (nothing is appended until it is removed);
    one written for another file is removed with a warning."""
    journal = read_journal(path, fd)
    if journal.hostile:
        raise LogUnreadable(f"{journal.problem}: remove it; nothing appended")
    if journal.size is None:
        if journal.problem is not None:
            if warn:
                warn(f"{journal.problem}: ignored and removed")
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path + JOURNAL_SUFFIX)
            _sync_dir(path)
        return
    size = os.fstat(fd).st_size
    if journal.size < size:
        _cut(fd, journal.size)
        if warn:
            warn(f"{path}: cut back {size - journal.size} byte(s) of an append that never finished")
    os.unlink(path + JOURNAL_SUFFIX)
    _sync_dir(path)


def _write_all_or_nothing(path: str, fd: int, blob: bytes | Spool, size: int) -> None:
    journal = path + JOURNAL_SUFFIX
    jfd = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)  # a planted one: refused
    try:
        text = _journal_text(fd, size, blob).encode("ascii")
        while text:
            text = text[os.write(jfd, text):]
        os.fsync(jfd)
    except BaseException:
        os.close(jfd)
        with contextlib.suppress(OSError):
            os.unlink(journal)
        raise
    os.close(jfd)
    _sync_dir(path)
    try:
        for chunk in ((blob,) if isinstance(blob, bytes) else blob.chunks()):
            written = 0
            while written < len(chunk):
                written += os.write(fd, chunk[written:])
        os.fsync(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            _cut(fd, size)
            os.unlink(journal)
        raise
    os.unlink(journal)
    _sync_dir(path)


def _cut(fd: int, size: int) -> None:
    os.ftruncate(fd, size)
    os.fsync(fd)


def _sync_dir(path: str) -> None:
    with contextlib.suppress(OSError):
        dfd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


class _Chaining:
    """Decodes and checks new events after the log's last ``seq`` and chain value ``state``, one at a time:
    each event's chained line; the problems kept (at most :data:`MAX_PROBLEMS`), the chain value after them."""

    def __init__(self, check: Checker, state: bytes, last_seq: int, source_name: str, key: bytes | None) -> None:
        self.check, self.state, self.last_seq, self.source_name, self.key = check, state, last_seq, source_name, key
        self.problems: list[Problem] = []
        self.refused = 0

    def line(self, lineno: int | None, data: Any) -> tuple[bytes, Event] | None:
        """The chained line of one event and the event (``None`` when it cannot be decoded; the dict is consumed)."""
        if type(data) is dict:
            data.pop(CHAIN_FIELD, None)
            data.pop(MAC_FIELD, None)
            if "seq" not in data:
                data["seq"] = self.last_seq + 1
        try:
            event = decode_obj(data)
        except DecodeError as exc:
            self._problem(Problem(self.source_name, lineno, exc.seq, exc.field, exc.message, code=exc.code))
            return None
        for issue in self.check(event):
            self._problem(Problem(self.source_name, lineno, event.seq, issue.field, issue.message, code=issue.code))
        self.last_seq = event.seq
        content = encode_obj(unstructure(event))
        if self.key is None:
            self.state = chain_step(self.state, content)
            return content[:-1] + _CHAIN_PREFIX + self.state.hex().encode() + b'"}\n', event
        self.state = _hmac_sha256(self.key, self.state + content)
        return content[:-1] + _MAC_PREFIX + self.state.hex().encode() + b'"}\n', event

    def _problem(self, p: Problem) -> None:
        self.refused += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(p)


MAX_PROBLEMS: Final = 1000
"""The most problems an append keeps to say (a stream of a million bad lines is refused without holding them)."""


def _check_incoming(incoming: list[tuple[int | None, Any]], check: Checker, state: bytes, last_seq: int,
                    source_name: str, key: bytes | None = None
                    ) -> tuple[list[bytes], list[Event], list[Problem], bytes]:
    """Decode and check the new events after the log's last ``seq`` and chain value ``state``:
    their chained lines, the events, the problems and the chain value after them (the dicts are consumed)."""
    chaining = _Chaining(check, state, last_seq, source_name, key)
    out: list[bytes] = []
    accepted: list[Event] = []
    for lineno, data in incoming:
        done = chaining.line(lineno, data)
        if done is not None:
            out.append(done[0])
            accepted.append(done[1])
    return out, accepted, chaining.problems, chaining.state


def _last_byte(fd: int, size: int) -> bytes:
    return os.pread(fd, 1, size - 1)
