"""What a run over many logs reports: per log a :class:`FileReport`, for all a :class:`Report`, and what
each kind of run keeps of a game (:data:`KIND_VIEWS`). Shared by the local and Dask runners
(:mod:`vistlog.projections.batch`) and by one log split among workers (:mod:`vistlog.projections.split`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from vistlog.events.problems import Problem
from vistlog.events.text import digits

from .audit import audit
from .fold import GameResult
from .render import settle_json
from .spool import GameViews, Problems

__all__ = ["FileReport", "Report", "EMPTY", "merge", "KIND_VIEWS", "kind_view"]


def _views(games: GameViews | Sequence[dict[str, Any]]) -> GameViews:
    return GameViews.of(games)


def _problems(problems: Problems | Sequence[Problem]) -> Problems:
    return Problems.of(problems)


@attrs.frozen
class FileReport:
    """What one log gave: per game a JSON-ready dict, its problems (both on disk in a local run: see
    :mod:`vistlog.projections.spool`), or why it is unreadable."""

    path: str
    games: GameViews = attrs.field(converter=_views)
    problems: Problems = attrs.field(converter=_problems)
    unreadable: str | None

    @property
    def ok(self) -> bool:
        """Readable, no problem, and (for audits) every recorded value matched."""
        return self.unreadable is None and not self.problems and self.games.ok


@attrs.frozen
class Report:
    """Reports of many logs, keyed by their position in the input."""

    files: tuple[tuple[int, FileReport], ...] = ()

    def in_order(self) -> list[FileReport]:
        """The file reports in input order."""
        return [f for _, f in sorted(self.files, key=lambda kv: kv[0])]

    @property
    def exit_code(self) -> int:
        """2 when some file is unreadable, 1 when some has a problem, else 0 (docs/cli.md)."""
        files = [f for _, f in self.files]
        if any(f.unreadable for f in files):
            return 2
        return 0 if all(f.ok for f in files) else 1


EMPTY = Report()
"""The unit of :func:`merge`."""


def merge(a: Report, b: Report) -> Report:
    """Join two reports (associative, commutative, unit :data:`EMPTY`)."""
    if not a.files:
        return b
    if not b.files:
        return a
    return Report(tuple(sorted(a.files + b.files, key=lambda kv: (kv[0], kv[1].path))))


def _deals(r: GameResult) -> dict[str, Any]:
    return {"game": r.game, "deals": r.deals}


def _audit(r: GameResult) -> dict[str, Any]:
    return audit(r).to_json()


def _stats(r: GameResult) -> dict[str, Any]:
    from .stats import summary

    return summary(r) if r.sound else {"game": r.game, "unsound": r.problems}


def _analysis(discards: bool, single_dummy: tuple[int, int] | None = None, budget: float | None = None
              ) -> Callable[[GameResult], dict[str, Any]]:
    def view(r: GameResult) -> dict[str, Any]:
        from .analysis import analyse, analysis_json
        from .odds import SingleDummy

        sd = None if single_dummy is None else SingleDummy(*single_dummy)
        return analysis_json(analyse(r, discards=discards, single_dummy=sd, budget=budget))
    return view


KIND_VIEWS: dict[str, tuple[Callable[[GameResult], dict[str, Any]], bool]] = {
    "validate": (_deals, False), "settle": (settle_json, False), "audit": (_audit, True), "stats": (_stats, True),
    "analyse": (_analysis(False), True), "analyse-discards": (_analysis(True), True),
}
"""What each kind keeps of a game (a JSON-ready dict), and whether it folds with detail."""


def kind_view(kind: str) -> tuple[Callable[[GameResult], dict[str, Any]], bool]:
    """What ``kind`` keeps of a game: a key of :data:`KIND_VIEWS`, or an analysis with the decisions weighed
    single-dummy, ``analyse:SAMPLES:SEED`` (``analyse-discards:…`` with the discards), and either within a
    budget of seconds a deal, ``…@SECONDS`` (without: every count exact). A kind is a string so that it
    travels to worker processes and Dask as it is.

    >>> kind_view("analyse:200:7")[1], kind_view("analyse@2.5")[1]
    (True, True)
    """
    from .budget import seconds  # the search's modules only when a kind is asked for

    kind, at, written = kind.partition("@")
    budget = seconds(written) if at else None
    if at and budget is None:
        raise KeyError(kind)
    if kind in KIND_VIEWS and budget is None:
        return KIND_VIEWS[kind]
    base, _, rest = kind.partition(":")
    if base not in ("analyse", "analyse-discards"):
        raise KeyError(kind)
    if not rest:
        return _analysis(base == "analyse-discards", None, budget), True
    samples, _, seed = rest.partition(":")
    if not digits(samples) or not digits(seed.lstrip("-")):
        raise KeyError(kind)
    return _analysis(base == "analyse-discards", (int(samples), int(seed)), budget), True
