"""The log file: the locked, all-or-nothing, hash-chained append (and, re-exported, what reads and proves it:
:mod:`~vistlog.events.lines`, :mod:`~vistlog.events.journal`, :mod:`~vistlog.events.chain`,
:mod:`~vistlog.events.verify`).

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
import io
import os
import stat
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from .chain import (
    CHAIN_FIELD,
    GENESIS,
    KEYED,
    MAC_FIELD,
    MAX_KEY,
    Chain,
    _content,
    chain_step,
    read_key,
    split_chain,
)
from .codec import DecodeError, decode_owned, loads_line
from .incoming import MAX_PROBLEMS, Checker, Sink, _Chaining, _check_incoming, _Checked
from .journal import (
    BOM,
    JOURNAL_SUFFIX,
    MAX_LINE,
    SPOOL_MEMORY,
    Journal,
    Spool,
    _journal_text,
    journal_size,
    read_journal,
)
from .lines import (
    Refused,
    _is_torn,
    _lines,
    _Upto,
    committed_size,
    open_source,
    problem_of,
    read_events,
    read_lines,
    tail_mark,
)
from .locking import LogBusy, open_locked
from .model import Event
from .native import mypyc_attr
from .problems import Issue, LogUnreadable, Problem, VistlogError
from .verify import VerifyResult, verify

__all__ = [
    "CHAIN_FIELD", "Problem", "LogUnreadable", "open_source", "read_lines", "read_events",
    "split_chain", "chain_step", "verify", "VerifyResult", "append", "AppendRejected", "GENESIS",
    "Chain", "MAX_LINE", "journal_size", "read_key", "MAC_FIELD", "problem_of", "Refused",
    "KeyRequired", "MAX_KEY", "LogWriter", "AppendConflict", "LogBusy", "committed_size", "Journal", "read_journal",
    "Spool", "SPOOL_MEMORY",
    "MAX_PROBLEMS", "Sink", "Checker",
]

@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class AppendRejected(VistlogError):
    """The events to append were not all acceptable; nothing was written (``problems`` says why)."""

    code = "append-rejected"

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


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

    def __init__(self, path: str, expected: int, actual: int, rewritten: bool = False) -> None:
        self.expected, self.actual, self.rewritten = expected, actual, rewritten
        why = ("the log was rewritten since it was read (another program saved over it)" if rewritten else
               f"expected to write seq {expected}, but the log's next seq is {actual}: somebody recorded first")
        super().__init__([Problem(path, None, expected, "seq", f"{why}; nothing written", code="append-conflict")])


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
    >>> from vistlog.events.checker import LogChecker
    >>> log = os.path.join(tempfile.mkdtemp(), "pad.jsonl")
    >>> w = LogWriter(log, lambda: LogChecker().admit)
    >>> [e.seq for e in w.append([(1, {"type": "game_started", "game": "g", "kind": "preferans",
    ...     "players": ["A", "B", "C"], "pool": 10, "rules": {"preset": "sochi"}})])]
    [1]
    >>> w.next_seq
    2
    """

    def __init__(self, path: str, make_checker: Callable[[], Checker] | None = None, *, key: bytes | None = None,
                 warn: Callable[[str], None] | None = None, wait: float | None = None,
                 make_sink: Callable[[], Sink] | None = None, guard: Any = None) -> None:
        """``make_checker`` gives a fresh checker; or ``make_sink`` a fresh :class:`Sink` (what reads the log
        beside the checking: told each line's number and the lines that cannot be read, and able to try a batch
        first, so that a refused append leaves it as it was). ``guard`` (a ``threading.RLock``) is held
        whenever the sink is fed, never while the log's own lock is waited for: whoever reads the sink holds it
        too."""
        self.guard = guard
        self.path = path
        self.wait = wait
        """How long an append waits for another writer's lock before :class:`LogBusy` (None: as long as it
        takes)."""
        if make_sink is None:
            if make_checker is None:
                raise TypeError("LogWriter: give make_checker or make_sink")
            made = make_checker
            make_sink = lambda: _Checked(made())  # noqa: E731 - the one plain sink
        self.make_sink = make_sink
        self.key = key
        self.warn = warn
        self.check: Sink | None = None
        """What the log is fed to (None until read, or after a refusal it did not try first)."""
        self._lines = 0
        self._end = 0
        self._chain = Chain(key)
        self._last_seq = 0
        self._ident: tuple[int, int] | None = None
        self._mark = b""

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next event gets, as of the last read."""
        return self._last_seq + 1

    def forget(self) -> None:
        """Forget what was read (the log went away): the next read starts from nothing, with a fresh sink."""
        self.check = None
        self._chain, self._end, self._last_seq, self._mark, self._lines, self._ident = \
            Chain(self.key), 0, 0, b"", 0, None

    @property
    def read_to(self) -> int:
        """How far the log has been read (or written), in bytes."""
        return self._end

    def refresh(self) -> bool:
        """Read what other writers appended since; True when anything was new. A read takes no lock (it never
        waits on a writer) and never changes the file: it stops where an append under way began
        (:func:`~vistlog.events.lines.committed_size`) and before a last line still being written."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return False
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise LogUnreadable(f"{self.path}: not a regular file; a log is a file")
            before = (self._ident, self._end, self._mark)
            with self.guard or contextlib.nullcontext():
                self._catch_up(fd, committed_size(self.path, fd))
            return (self._ident, self._end, self._mark) != before
        finally:
            os.close(fd)

    def stale(self, expect_seq: int | None, expect_at: str | None) -> None:
        """Raise :class:`AppendConflict` when the log, as last read, is not at ``expect_seq``/``expect_at`` (see
        :meth:`append`), without waiting on any lock; ``rewritten`` says whether it was rewritten rather than
        appended to."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            if expect_seq not in (None, 1) or expect_at not in (None, "0"):
                raise AppendConflict(self.path, expect_seq or 1, 1, rewritten=expect_at is not None) from None
            return
        try:
            self._stale(fd, expect_seq, expect_at)
        finally:
            os.close(fd)

    def _stale(self, fd: int, expect_seq: int | None, expect_at: str | None) -> None:
        if expect_at is not None and expect_at != self.position and not (expect_at == "0" and self._end == 0):
            raise AppendConflict(self.path, expect_seq or self.next_seq, self.next_seq,
                                 rewritten=not self._extends(fd, expect_at))
        if expect_seq is not None and expect_seq != self.next_seq:
            raise AppendConflict(self.path, expect_seq, self.next_seq)

    def _extends(self, fd: int, at: str) -> bool:
        """Whether the log open on ``fd`` is the one read to position ``at``, appended to since."""
        if at == "0":  # read before the log existed: whatever it holds now was appended
            return True
        parts = at.split(".")
        if len(parts) != 4 or not all(p.isascii() and p.isdigit() for p in parts[:3]) or self._ident is None:
            return False
        dev, ino, end = (int(p) for p in parts[:3])
        return ((dev, ino) == self._ident and end <= self._end and
                (tail_mark(fd, end).hex()[:16] if end else "") == parts[3])

    @property
    def position(self) -> str:
        """Where this writer has read the log to, as a token (the file, the bytes read, what its last bytes
        hold): a write made for one position (``expect_at``) is refused once the log is at another, even
        when it was rewritten in place to the same number of events."""
        return f"{self._ident[0]}.{self._ident[1]}.{self._end}.{self._mark.hex()[:16]}" if self._ident else "0"

    def append(self, incoming: Iterable[tuple[int | None, Any]], source_name: str = "<stdin>",
               expect_seq: int | None = None, then: Callable[[], list[Issue]] | None = None,
               expect_at: str | None = None) -> list[Event]:
        """Check and append ``(line number, JSON value)`` items, all or none (see :func:`append`). ``then`` is
        asked, once every item has passed, what else is wrong now (with the checker's state after them): a
        problem it gives refuses the append as any other does. ``expect_at``: the :attr:`position` the
        events were made for (:class:`AppendConflict` when the log is now at another)."""
        incoming = list(incoming)
        if not os.path.exists(self.path):
            with self.guard or contextlib.nullcontext():
                self._first(incoming, source_name, expect_seq, then)
        fd, created = open_locked(self.path, create=True, wait=self.wait)
        try:
            with self.guard or contextlib.nullcontext():
                return self._append(fd, created, incoming, source_name, expect_seq, then, expect_at)
        finally:
            os.close(fd)

    def _first(self, incoming: list[tuple[int | None, Any]], source_name: str, expect_seq: int | None,
               then: Callable[[], list[Issue]] | None) -> None:
        """Before the log exists: check copies of the events on a fresh sink, so that a refused first append
        leaves no empty file behind."""
        path, key = self.path, self.key
        if expect_seq not in (None, 1):
            raise AppendConflict(path, expect_seq, 1)  # type: ignore[arg-type]
        rehearsal = [(n, orjson.loads(orjson.dumps(data))) for n, data in incoming]
        _, _, problems, _ = _check_incoming(rehearsal, self.make_sink(), GENESIS, 0, source_name, key, 1)
        if not problems and then is not None:
            problems = self._problems(then(), source_name)
        if problems:
            raise AppendRejected(problems)
        self.check = None

    def _append(self, fd: int, created: bool, incoming: list[tuple[int | None, Any]], source_name: str,
                expect_seq: int | None, then: Callable[[], list[Issue]] | None, expect_at: str | None) -> list[Event]:
        path, key = self.path, self.key
        _recover(path, fd, self.warn)
        self._catch_up(fd)
        check = self.check
        assert check is not None
        self._stale(fd, expect_seq, expect_at)
        good_end = self._end
        needs_newline = good_end > 0 and _last_byte(fd, good_end) != b"\n"
        chaining = _Chaining(check, self._chain.state, self._last_seq, source_name, key, self._lines + 1)
        decoded = [(lineno, chaining.decode(lineno, data)) for lineno, data in incoming]
        accepted = [ev for _, ev in decoded if not isinstance(ev, Problem)]
        tried = check.rehearse(accepted, then) if len(accepted) == len(decoded) else None
        if tried is not None:  # a refusal found by trying leaves the sink as it was
            problems = [Problem(source_name, lineno, ev.seq, i.field, i.message, code=i.code)
                        for (lineno, ev), issues in zip(decoded, tried) for i in issues]
            if then is not None:
                problems += self._problems(tried[-1], source_name)
            if problems:
                raise AppendRejected(problems)
        self.check = None  # until the events are written, the sink's state is not the log's
        out: list[bytes] = []
        for lineno, ev in decoded:
            if isinstance(ev, Problem):
                chaining.refuse(ev)
            else:
                out.append(chaining.line(lineno, ev))
        problems, state = chaining.problems, chaining.state
        if not problems and then is not None and tried is None:
            problems = self._problems(then(), source_name)
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
            self._advanced(fd, good_end + len(blob), state, accepted[-1].seq, len(out))
        self.check = check
        return accepted

    def append_stream(self, incoming: Iterable[tuple[int | None, Any]], source_name: str = "<stdin>") -> int:
        """Check and append ``(line number, JSON value)`` items, all or none, holding none of them: each is
        checked and its chained line spooled (:class:`Spool`, on disk past a few MB), then the spool is
        written through the journal as :meth:`append` writes. Returns how many events were appended. A log
        this call created is removed again when the events are refused."""
        path, key = self.path, self.key
        fd, created = open_locked(path, create=True, wait=self.wait)
        spool = Spool()
        guard = self.guard or contextlib.nullcontext()
        guard.__enter__()
        try:
            _recover(path, fd, self.warn)
            self._catch_up(fd)
            check = self.check
            assert check is not None
            good_end = self._end
            if good_end > 0 and _last_byte(fd, good_end) != b"\n":
                spool.write(b"\n")
            self.check = None
            chaining = _Chaining(check, self._chain.state, self._last_seq, source_name, key, self._lines + 1)
            count = 0
            for lineno, data in incoming:
                done = chaining.take(lineno, data)
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
                self._advanced(fd, good_end + spool.length, chaining.state, chaining.last_seq, count)
            self.check = check
            return count
        finally:
            guard.__exit__(None, None, None)
            spool.close()
            os.close(fd)

    @staticmethod
    def _problems(issues: list[Issue], source_name: str) -> list[Problem]:
        return [Problem(source_name, None, None, i.field, i.message, code=i.code) for i in issues]

    def _advanced(self, fd: int, end: int, state: bytes, last_seq: int, lines: int) -> None:
        """What this writer knows of the log once its lines are on disk: the end, the chain, the last ``seq``."""
        self._end = end
        self._lines += lines
        self._mark = tail_mark(fd, end)
        self._chain.state = state
        self._chain.began = True
        self._chain.keyed = self._chain.keyed or self.key is not None
        self._last_seq = last_seq

    def _catch_up(self, fd: int, limit: int | None = None) -> None:
        """Bring the checker up to the log's end: from the start when it is unknown, when the file is
        another, shorter than read, or no longer holds what was read (rewritten in place); else only the lines
        written since. Under the lock (``limit`` None) a torn last line is cut; a read (up to ``limit``,
        without the lock) stops before it and changes nothing."""
        st = os.fstat(fd)
        ident = (st.st_dev, st.st_ino)
        size = st.st_size if limit is None else limit
        check = self.check
        if (check is None or ident != self._ident or size < self._end
                or tail_mark(fd, self._end) != self._mark):
            check = self.make_sink()
            self._chain, self._end, self._last_seq, self._mark, self._lines = Chain(self.key), 0, 0, b"", 0
        self._ident = ident
        self.check = None  # a replay that raises leaves it unknown
        if size != self._end:
            self._end, self._last_seq, self._lines = _replay(
                self.path, fd, check, self.warn if limit is None else None, self.key, chain=self._chain,
                start=self._end, last_seq=self._last_seq, limit=limit, lines=self._lines)
            if limit is None and self._end != os.fstat(fd).st_size:
                _cut(fd, self._end)
            self._mark = tail_mark(fd, self._end)
        self.check = check


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class KeyRequired(LogUnreadable):
    """A keyed log (its lines carry ``_mac``) appended to without its key, or with another key:
    refused, nothing written, since the lines written would break its keyed chain for good."""

    code = "key-required"


def _replay(path: str, fd: int, check: Sink, warn: Callable[[str], None] | None,
            key: bytes | None = None, *, chain: Chain, start: int = 0, last_seq: int = 0,
            limit: int | None = None, lines: int = 0) -> tuple[int, int, int]:
    """Read the log from ``start`` (a line's beginning, after ``lines`` lines) to its end (or ``limit``), following
    ``chain`` and feeding ``check``: (the end of its last whole line, the last ``seq``, the lines read).

    Refuses a non-empty file whose first line is not an event: it is not a log; and a keyed log
    without its key, or with a key that does not prove its keyed lines (:class:`KeyRequired`).
    """
    good_end = start
    first = start == 0
    with (os.fdopen(os.dup(fd), "rb") if limit is None else
          io.BufferedReader(_Upto(io.FileIO(os.dup(fd), "rb"), limit), 1 << 16)) as existing:
        existing.seek(start)
        offset = start
        for raw in _lines(existing):
            end = offset + len(raw)
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                raise LogUnreadable(f"{path}: a line of over {MAX_LINE} bytes: not a log this program appends to")
            line = _content(raw[3:] if first and raw.startswith(BOM) else raw)
            if not raw.endswith(b"\n") and line.strip() and _is_torn(line):
                if limit is None and not line.lstrip().startswith(b'{"'):
                    raise LogUnreadable(f"{path}: its last line is neither an event nor the start of one; "
                                        "nothing appended")
                if warn:
                    warn(f"{path}: cut off a torn last line of {len(raw)} bytes (a write that never finished)")
                break
            offset = good_end = end
            lines += 1
            if not line.strip():
                continue
            content, value = split_chain(line)
            if chain.step(content, value) == "chain-mismatch" and value is not None and value.startswith(KEYED):
                raise KeyRequired(f"{path}: the key does not prove this log's keyed chain (_mac): "
                                  "is it the club's key? nothing appended")
            looks = False
            data: Any = None
            try:
                data = loads_line(content)
                looks = type(data) is dict and "type" in data  # an event, sound or not: a log's line
                event = decode_owned(data)
            except DecodeError as exc:
                if first and not looks:
                    raise LogUnreadable(f"{path}:1: not a log (the first line is not an event: {exc}); "
                                        "nothing appended") from None
                first = False
                check.unreadable(lines, problem_of(path, lines, data, exc))
                continue
            first = False
            last_seq = event.seq
            check.event(lines, event)
    if chain.keyed and key is None:
        raise KeyRequired(f"{path}: the log is keyed (its lines carry _mac): give its key (--key-file); "
                          "nothing appended")
    return good_end, last_seq, lines


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


def _last_byte(fd: int, size: int) -> bytes:
    return os.pread(fd, 1, size - 1)
