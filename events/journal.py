"""The append journal: what an append is about to write, kept beside the log until it is whole, so that a
crash mid-write is undone or finished by the next writer, and a reader stops where the last whole append
ended (:class:`Spool` holds the lines on their way in)."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from typing import Final, NamedTuple

from .chain import _sha256
from .text import digits

__all__ = ["MAX_LINE", "BOM", "JOURNAL_SUFFIX", "Journal", "Spool", "SPOOL_MEMORY", "read_journal", "journal_size"]


MAX_LINE: Final = 1 << 20
"""The longest line read (1 MiB, far more than any event): a longer one is a problem, not a meal."""
BOM: Final = b"\xef\xbb\xbf"
JOURNAL_SUFFIX: Final = ".append-journal"
"""``LOG.append-journal`` holds the log's size before an append that has not finished yet."""


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
    if not parts or not digits(parts[0]):
        return Journal(None, f"{journal} is not a journal vistlog wrote")
    size = int(parts[0])
    if len(parts) >= 6 and digits(parts[4]):  # written with the file's identity (older ones hold the size alone)
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
