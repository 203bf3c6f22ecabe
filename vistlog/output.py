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
import time
from collections.abc import Iterable, Iterator
from typing import IO, Any, cast

import orjson

from vistlog.events.problems import VistlogError

__all__ = ["OutputError", "write_file", "open_output", "Progress", "Streamed", "write_json", "dumps"]


class OutputError(VistlogError):
    """An output file that cannot be written (the message names it and says why)."""

    code = "output-unwritable"


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
        import tempfile
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


class Streamed:
    """A JSON array that :func:`write_json` writes one element at a time, as the elements come."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = items


def _streams(value: Any) -> bool:
    if isinstance(value, Streamed):
        return True
    if isinstance(value, dict):
        return any(_streams(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_streams(v) for v in value)
    return False


def dumps(value: Any, indent: bool = True) -> str:
    """``value`` as JSON text, as ``orjson`` writes it (indented by two spaces with ``indent``); an
    integer past 64 bits, which orjson does not write, is written exactly all the same.

    >>> dumps({"a": 2 ** 70}, indent=False)
    '{"a":1180591620717411303424}'
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else None).decode()
    except TypeError as exc:
        if "64-bit" not in str(exc):
            raise
        import json

        return json.dumps(value, ensure_ascii=False, indent=2 if indent else None,
                          separators=(",", ": ") if indent else (",", ":"))


def write_json(out: IO[str], value: Any, indent: int = 0) -> None:
    """``value`` as ``orjson.dumps(value, option=orjson.OPT_INDENT_2)`` writes it, character for character,
    where each :class:`Streamed` array is written an element at a time: memory holds one element."""
    pad = " " * indent
    if isinstance(value, dict) and _streams(value):
        out.write("{")
        for i, (key, item) in enumerate(value.items()):
            out.write(("\n" if i == 0 else ",\n") + pad + "  " + dumps(key, indent=False) + ": ")
            write_json(out, item, indent + 2)
        out.write("\n" + pad + "}")
    elif isinstance(value, Streamed) or (isinstance(value, (list, tuple)) and _streams(value)):
        first = True
        for item in (value.items if isinstance(value, Streamed) else value):
            out.write(("[\n" if first else ",\n") + pad + "  ")
            write_json(out, item, indent + 2)
            first = False
        out.write("[]" if first else "\n" + pad + "]")
    else:
        text = dumps(value)
        out.write(text.replace("\n", "\n" + pad) if indent else text)


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

    def source(self) -> IO[bytes]:
        """What to read: this wrapper when it shows progress, else the file itself (both read as a stream)."""
        return cast(IO[bytes], self) if self.show else self.stream

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
