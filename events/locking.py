"""The log's exclusive lock, taken by every writer: :func:`open_locked` (waiting as long as it takes, or a bounded
time before :class:`LogBusy`). Readers never take it (:func:`~vistlog.events.lines.committed_size`)."""

from __future__ import annotations

import fcntl
import os
import stat
import time

from .native import mypyc_attr
from .problems import LogUnreadable, VistlogError

__all__ = ["open_locked", "LogBusy"]


def open_locked(path: str, *, create: bool, wait: float | None = None) -> tuple[int, bool]:
    """Open the log for appending under its exclusive lock: ``(fd, created by this call)``. The file
    locked must still be the path's file: one unlinked meanwhile (a first append that failed and removed
    the file it created) is let go and the path opened again. ``wait``: the seconds to wait for another
    writer's lock at the most (:class:`LogBusy` then); None waits as long as it takes."""
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
            _lock(fd, path, wait)
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


def _lock(fd: int, path: str, wait: float | None) -> None:
    if wait is None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise LogBusy(f"{path}: another program has been writing to the log for over {wait:g} s "
                              "(an import?); nothing written, try again") from None
            time.sleep(0.02)


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class LogBusy(VistlogError):
    """Another writer held the log's lock longer than this append would wait: nothing was written."""

    code = "log-busy"


