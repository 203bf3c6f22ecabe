"""What every command shares: its output lines, its usage errors and its one-line problems (nothing heavy is
imported here)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vistlog.errors import Problem

__all__ = ["out", "err", "UsageError", "Problems", "find_logs"]


def out(text: str = "") -> None:
    """One line on standard output."""
    sys.stdout.write(text + "\n")


def err(text: str) -> None:
    """One line on standard error."""
    sys.stderr.write(text + "\n")


class UsageError(Exception):
    """A usage error found after parsing (exit 2)."""


class Problems:
    """Collects problems and prints each one line to stderr (or stdout for ``validate``)."""

    def __init__(self, to_stdout: bool = False) -> None:
        self.count = 0
        self.to_stdout = to_stdout

    def __call__(self, p: Problem) -> None:
        self.count += 1
        (out if self.to_stdout else err)(str(p))


def find_logs(inputs: Sequence[str], suffix: str = ".jsonl") -> list[str]:
    """Files as given, folders as every ``*SUFFIX`` file below them (:func:`vistlog.archive.find_logs`, which is
    imported only when a folder is given)."""
    if not any(item != "-" and os.path.isdir(item) for item in inputs):
        return list(inputs)
    from vistlog import archive

    return archive.find_logs(inputs, suffix)


def budget(args: Any) -> float | None:
    """The seconds of open-hand search a deal may take as the command line asks (``--budget``, ``--exact``;
    default: :func:`~vistlog.projections.analysis.default_budget`); ``None``: every count exact."""
    from vistlog.api import default_budget

    if getattr(args, "exact", False):
        return None
    given = getattr(args, "budget", None)
    return default_budget() if given is None else float(given)
