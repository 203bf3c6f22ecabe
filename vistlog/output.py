"""Where the command line writes: standard output, or a file written whole or not at all; and how far
reading a long log has got.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> write_file(os.path.join(folder, "sheet.csv"), "a,b\\n")
>>> open(os.path.join(folder, "sheet.csv")).read()
'a,b\\n'
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from typing import IO

from vistlog.events.problems import VistlogError

__all__ = ["OutputError", "write_file", "open_output", "Progress"]


class OutputError(VistlogError):
    """An output file that cannot be written (the message names it and says why)."""


def write_file(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, whole or not at all (see :func:`open_output`)."""
    with open_output(path) as out:
        out.write(text)


@contextlib.contextmanager
def open_output(path: str | None) -> Iterator[IO[str]]:
    """Where to write a command's output as it is made: standard output for ``None`` or ``-``.

    A regular file, or a new path, is written whole or not at all: the text goes to a
    temporary file beside it, is flushed to disk, and replaces the target in one rename when
    the block ends without an error, keeping its permissions (on an error the temporary file
    is removed and the target left as it was). A link is followed and its target written so.
    Anything else (a device such as ``/dev/stdout``, a pipe) is written in place.
    """
    if path is None or path == "-":
        yield sys.stdout
        return
    target = os.path.realpath(path)
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{path}: is a folder; name a file to write")
    try:
        if st is not None and not stat.S_ISREG(st.st_mode):
            with open(target, "w", encoding="utf-8", newline="") as fh:
                yield fh
            return
        folder, name = os.path.split(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as fh:
            yield fh
            fh.flush()
            os.fsync(raw.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o644 & ~_umask())
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Progress:
    """Wraps a file: reports how far reading has got, on a terminal only, twice a second.

    Files under ``MIN_SIZE`` bytes, and any file when standard error is not a terminal, are
    read unwrapped (see :meth:`source`), so the hot loop pays nothing for the progress line.
    """

    MIN_SIZE = 4_000_000
    EVERY = 0.5

    def __init__(self, stream: IO[bytes], path: str) -> None:
        self.stream = stream
        self.path = path
        try:
            self.size = os.fstat(stream.fileno()).st_size
        except (OSError, ValueError, AttributeError):
            self.size = 0
        self.show = sys.stderr.isatty() and self.size > self.MIN_SIZE
        self.done = 0
        self.last = time.monotonic()

    def source(self) -> Iterable[bytes]:
        """What to read: this wrapper when it shows progress, else the file itself."""
        return self if self.show else self.stream

    def readline(self, size: int = -1) -> bytes:
        """One line of the file (at most ``size`` bytes), noting how far reading has got."""
        line = self.stream.readline(size)
        self.done += len(line)
        if self.done & 0xFFF < len(line):
            now = time.monotonic()
            if now - self.last >= self.EVERY:
                self.last = now
                sys.stderr.write(f"\r{self.path}: {100 * self.done // max(self.size, 1)}% ")
                sys.stderr.flush()
        if not line:
            sys.stderr.write("\r" + " " * (len(self.path) + 8) + "\r")
        return line

    def read(self, size: int = -1) -> bytes:
        """Read as the file does (what marks this wrapper as a stream of bytes, not of events)."""
        data = self.stream.read(size)
        self.done += len(data)
        return data

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.readline, b"")

    def close(self) -> None:
        if self.stream is not sys.stdin.buffer:
            self.stream.close()
