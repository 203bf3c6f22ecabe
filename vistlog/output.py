"""Where the command line writes: standard output, or a file written whole or not at all.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> write_file(os.path.join(folder, "sheet.csv"), "a,b\\n")
>>> open(os.path.join(folder, "sheet.csv")).read()
'a,b\\n'
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

from vistlog.events.problems import VistlogError

__all__ = ["OutputError", "write_file"]


class OutputError(VistlogError):
    """An output file that cannot be written (the message names it and says why)."""


def write_file(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``.

    A regular file, or a new path, is written whole or not at all: the text goes to a
    temporary file beside it, is flushed to disk, and replaces the target in one rename,
    keeping its permissions. A link is followed and its target written so. Anything else
    (a device such as ``/dev/stdout``, a pipe) is written in place: it is never replaced.
    """
    target = os.path.realpath(path)
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    data = text.encode("utf-8")
    try:
        if st is not None and not stat.S_ISREG(st.st_mode):
            if stat.S_ISDIR(st.st_mode):
                raise OutputError(f"{path}: is a folder; name a file to write")
            with open(target, "wb") as fh:
                fh.write(data)
            return
        _replace(target, data, stat.S_IMODE(st.st_mode) if st is not None else None)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror or exc})") from None


def _replace(target: str, data: bytes, mode: int | None) -> None:
    folder, name = os.path.split(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode if mode is not None else 0o644 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
