"""Across an archive: every player's record, contract statistics and Glicko-2 ratings.

Each sound game becomes a :func:`summary` (plain JSON data, so it travels through the many-logs
runner and Dask like the settlements do); :func:`tally` adds summaries into per-player totals
in any order and grouping (the sums are exact: whists and money as fractions); :func:`ratings`
is one ordered pass over the games, by date then game id, one rating period per day of play
(or week, or month), every game turned into pairwise results by the players' settlement order.
The same archive therefore gives the same figures whatever the order of the files or the
number of workers, and an old game added later changes the ratings from its date on.

>>> from vistlog.projections.fold import run
>>> (res,) = [r for r in run("samples/sochi-evening.jsonl") if hasattr(r, "entries")]
>>> s = summary(res)
>>> s["date"], s["players"], s["result"]["Вова"]
('2026-11-28', ['Аня', 'Боря', 'Вова'], '1388/3')
>>> t = tally([s])
>>> t["Вова"].games, t["Вова"].total
(1, Fraction(1388, 3))
"""

from __future__ import annotations

import csv
import datetime as dt
import heapq
import io
import pickle
import tempfile
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import groupby
from operator import itemgetter
from typing import IO, Any

import attrs

from vistlog.events.ids import IdTable
from vistlog.events.record import DealRecord

from vistlog.events.entries import fmt
from .fold import GameResult
from .ratings import START, Rating, rate_period
from .variants import SCORINGS, reading_of

__all__ = ["Counter", "count_made", "summary", "tally", "PlayerTotals", "ratings",
           "rated_game", "rate_games", "RatedGame", "RatingPoint",
           "period_of", "KindTotals", "unit_of", "summary_scoring", "read_aliases",
           "apply_aliases", "look_alike_names", "Archive", "ArchiveBuilder"]


def _date(res: GameResult) -> str | None:
    at = res.started.at
    if at and len(at) >= 10:
        try:
            return dt.date.fromisoformat(at[:10]).isoformat()
        except ValueError:
            return None
    return None


def summary(res: GameResult) -> dict[str, Any]:
    """What the statistics need of one game (a game folded with detail), as JSON data."""
    players = list(res.players)
    per: dict[str, dict[str, Any]] = {p: {"declared": {}, "whists": [0, 0], "raspasy": 0, "raspas_mountain": 0,
                                          "closed_first": 0} for p in players}
    raspas_deals: set[int] = set()
    reading = reading_of(res.variant)
    column, count = reading.moves, reading.counter()
    moves = _moves(res, column) if column != "" else {}
    for rec in res.records:
        if rec.seq not in res.voided:
            count(rec, moves, per, raspas_deals)
    if reading.closing is not None:
        reading.closing()(res, per, raspas_deals)
    for p in players:
        per[p]["raspas_mountain"] = fmt(per[p]["raspas_mountain"])
    return {"game": res.game, "kind": res.kind.value, "scoring": res.variant,
            "date": _date(res), "players": players, "deals": res.deals,
            "result": {p: fmt(res.result[p]) for p in players}, "money": res.money, "per": per}


def _moves(res: GameResult, column: str | None) -> dict[tuple[int, str], Any]:
    """What each deal wrote for each player (in one column, or in all), voided deals left out."""
    out: dict[tuple[int, str], Any] = {}
    for e in res.entries:
        if not e.void and (column is None or e.column == column):
            out[(e.deal, e.player)] = out.get((e.deal, e.player), 0) + e.amount
    return out


Counter = Callable[[DealRecord, dict[tuple[int, str], Any], dict[str, dict[str, Any]], set[int]], None]
"""What a game's statistics count of one deal (its :attr:`~vistlog.projections.variants.Reading.counter`): the
record, the moves of the column it reads by (deal, player), each player's counts, and the deals it marks as its
run without a contract (Russian preferans: raspasy)."""


def unit_of(scoring: str) -> str:
    """What a scoring's results are counted in (``whists``, ``points``): a sum is only taken within one."""
    return SCORINGS[scoring].unit if scoring in SCORINGS else "points"


def summary_scoring(s: Mapping[str, Any]) -> str:
    """The scoring of a summary: ``preferans`` (in whists), ``serbian`` or ``solo_whist`` (in their points)."""
    return str(s.get("scoring", s["kind"]))


def count_made(table: dict[str, list[int]], key: str, made: bool) -> None:
    """One more contract ``key`` declared in a player's ``table``, and one more made when ``made``."""
    row = table.setdefault(key, [0, 0])
    row[0] += 1
    row[1] += int(made)


@attrs.define
class KindTotals:
    """A player's results in one scoring (:data:`vistlog.projections.variants.SCORINGS`): games, deals, the
    exact total, money."""

    games: int = 0
    deals: int = 0
    total: Fraction = Fraction(0)
    money: Fraction = Fraction(0)
    staked: int = 0

    @property
    def average(self) -> Fraction:
        """The result per game."""
        return self.total / self.games if self.games else Fraction(0)

    def to_json(self, scoring: str) -> dict[str, Any]:
        """These totals as JSON, with their unit."""
        return {"unit": unit_of(scoring), "games": self.games, "deals": self.deals,
                "total": fmt(self.total), "average": fmt(self.average),
                **({"money": _money(self.money)} if self.staked else {})}


@attrs.define
class PlayerTotals:
    """One player's record over the games counted: exact sums per scoring (:attr:`by_kind`: whists and
    points never add up), contract and whist tallies."""

    games: int = 0
    deals: int = 0
    by_kind: dict[str, KindTotals] = attrs.Factory(dict)
    declared: dict[str, list[int]] = attrs.Factory(dict)
    whists: list[int] = attrs.Factory(lambda: [0, 0])
    raspasy: int = 0
    raspas_mountain: Fraction = Fraction(0)
    closed_first: int = 0
    kinds: set[str] = attrs.Factory(set)

    def add(self, s: Mapping[str, Any], p: str) -> None:
        """Count player ``p``'s part of the game summed up in ``s``."""
        st = s["per"][p]
        self.games += 1
        self.deals += s["deals"]
        k = self.by_kind.setdefault(summary_scoring(s), KindTotals())
        k.games += 1
        k.deals += s["deals"]
        k.total += Fraction(s["result"][p])
        if s.get("money"):
            k.money += Fraction(s["money"][p])
            k.staked += 1
        for key, (n, made) in st["declared"].items():
            row = self.declared.setdefault(key, [0, 0])
            row[0] += n
            row[1] += made
        self.whists[0] += st["whists"][0]
        self.whists[1] += st["whists"][1]
        self.raspasy += st["raspasy"]
        self.raspas_mountain += Fraction(st["raspas_mountain"])
        self.closed_first += st["closed_first"]
        self.kinds.add(s["kind"])

    @property
    def total(self) -> Fraction | None:
        """The total of a player who played one scoring; ``None`` for several (see :attr:`by_kind`)."""
        return next(iter(self.by_kind.values())).total if len(self.by_kind) == 1 else None

    def to_json(self) -> dict[str, Any]:
        """The totals as JSON (exact numbers as rational strings): ``by_kind`` always; ``total``,
        ``average`` and ``money`` at the top too when the player played one scoring only."""
        single = next(iter(self.by_kind.items())) if len(self.by_kind) == 1 else None
        top = {k: v for k, v in single[1].to_json(single[0]).items() if k != "unit" and k not in ("games", "deals")
               } if single else {}
        return {"games": self.games, "deals": self.deals, **top,
                "by_kind": {k: v.to_json(k) for k, v in sorted(self.by_kind.items())},
                "contracts": {k: {"declared": v[0], "made": v[1]} for k, v in sorted(self.declared.items())},
                "whists": {"called": self.whists[0], "share_made": self.whists[1]},
                "raspasy": self.raspasy, "raspas_mountain": fmt(self.raspas_mountain),
                "pools_closed_first": self.closed_first, "kinds": sorted(self.kinds)}


def _money(x: Fraction) -> str:
    cents = round(x * 100)
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def tally(summaries: Iterable[Mapping[str, Any]]) -> dict[str, PlayerTotals]:
    """Per-player totals of the games (a sum: any order and any grouping give the same)."""
    out: dict[str, PlayerTotals] = {}
    for s in summaries:
        for p in s["players"]:
            out.setdefault(p, PlayerTotals()).add(s, p)
    return out


def period_of(date: str | None, period: str = "day") -> str:
    """The rating period of a date: the day, the ISO week (``2026-W48``) or the month; undated games
    come first, in their own period."""
    if date is None:
        return "undated"
    if period == "day":
        return date
    d = dt.date.fromisoformat(date)
    if period == "week":
        year, week, _ = d.isocalendar()
        return f"{year}-W{week:02d}"
    return date[:7]


@attrs.frozen
class RatingPoint:
    """A player's rating after a period."""

    period: str
    rating: float
    rd: float
    volatility: float


RatedGame = tuple[bool, str, str, tuple[tuple[str, ...], tuple[int, ...]]]
"""What the ratings keep of a game: (dated, date, game id, (players, each one's rank in the game)).
A rank counts the players with a smaller result: only who finished above whom rates a player."""


def rated_game(s: Mapping[str, Any], shared: dict[Any, Any] | None = None) -> RatedGame:
    """What :func:`ratings` needs of a summary; ``shared`` makes equal dates and tables one object."""
    res = {p: Fraction(v) for p, v in s["result"].items()}
    players = tuple(s["players"])
    ranks = tuple(sum(res[q] < res[p] for q in res) for p in players)
    table, date = (players, ranks), s["date"] or ""
    if shared is not None:
        table = shared.setdefault(table, table)
        date = shared.setdefault(date, date)
    return (s["date"] is not None, date, s["game"], table)


def ratings(summaries: Iterable[Mapping[str, Any]], period: str = "day", tau: float = 0.5
            ) -> dict[str, list[RatingPoint]]:
    """Each player's Glicko-2 rating after every period he played in, from the games in date order."""
    shared: dict[Any, Any] = {}
    return rate_games([rated_game(s, shared) for s in summaries], period, tau)


def rate_games(games: Iterable[RatedGame], period: str = "day", tau: float = 0.5, ordered: bool = False
               ) -> dict[str, list[RatingPoint]]:
    """:func:`ratings` of the games as :func:`rated_game` keeps them (``ordered``: already in date order,
    as :func:`sorted` with the key ``(dated, date, game)`` leaves them: then they are only read, once)."""
    current: dict[str, Rating] = {}
    history: dict[str, list[RatingPoint]] = {}
    number: dict[str, int] = {}  # a player's number: a period's results are arrays of opponent*3 + score
    names: list[str] = []
    for name, group in groupby(games if ordered else sorted(games, key=_ORDER),
                               key=lambda g: period_of(g[1] if g[0] else None, period)):
        coded: dict[str, array[int]] = {}
        for _, _, _, (players, ranks) in group:
            for p, rp in zip(players, ranks):
                for q, rq in zip(players, ranks):
                    if p != q:
                        if q not in number:
                            number[q] = len(names)
                            names.append(q)
                        score = 2 if rp > rq else 1 if rp == rq else 0
                        coded.setdefault(p, array("q")).append(number[q] * 3 + score)
        results = {p: _decoded(row, names) for p, row in coded.items()}
        for p in results:
            current.setdefault(p, START)
        current = rate_period(current, results, tau)
        for p in results:
            r = current[p]
            history.setdefault(p, []).append(RatingPoint(name, r.rating, r.rd, r.volatility))
    return history


_SCORES = (0.0, 0.5, 1.0)


def _decoded(row: array[int], names: list[str]) -> Iterator[tuple[str, float]]:
    for code in row:
        yield names[code // 3], _SCORES[code % 3]


def read_aliases(path: str, data: bytes) -> dict[str, str]:
    """An alias file: CSV ``name,alias`` (a header row of those words may come first); alias → name."""
    from vistlog.events.problems import VistlogError

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise VistlogError(f"{path}: not UTF-8 text") from None
    out: dict[str, str] = {}
    for n, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        if not row or (n == 1 and [c.strip().lower() for c in row[:2]] == ["name", "alias"]):
            continue
        if len(row) != 2 or not row[0].strip() or not row[1].strip():
            raise VistlogError(f"{path}:{n}: a row is name,alias")
        alias, name = row[1].strip(), row[0].strip()
        if out.get(alias, name) != name:
            raise VistlogError(f"{path}:{n}: {alias} is already an alias of {out[alias]}")
        out[alias] = name
    for alias, name in out.items():
        if name in out and out[name] != name:  # A→B and B→C (or B→A: two players' records swapped)
            raise VistlogError(f"{path}: {name} is the name of {alias} and itself an alias of {out[name]}: "
                               "give every alias its final name")
    return out


def apply_aliases(s: Mapping[str, Any], aliases: Mapping[str, str]) -> dict[str, Any]:
    """The summary with every alias replaced by its name."""
    if not aliases or not any(p in aliases for p in s["players"]):
        return dict(s)

    def name(p: str) -> str:
        return aliases.get(p, p)

    from vistlog.events.problems import VistlogError

    seats: dict[str, str] = {}
    for p in s["players"]:
        other = seats.setdefault(name(p), p)
        if other != p:
            raise VistlogError(f"--alias makes {other} and {p} one person, {name(p)}, but both play game {s['game']}: "
                               "one person holds one seat; correct the alias file")
    return {**s, "players": [name(p) for p in s["players"]],
            "result": {name(p): v for p, v in s["result"].items()},
            "money": {name(p): v for p, v in s["money"].items()} if s.get("money") else s.get("money"),
            "per": {name(p): v for p, v in s["per"].items()}}


def look_alike_names(names: Iterable[str]) -> list[list[str]]:
    """Groups of names that differ only by case or е/ё (likely one person under two spellings)."""
    groups: dict[str, set[str]] = {}
    for n in names:
        groups.setdefault(n.casefold().replace("ё", "е"), set()).add(n)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


@attrs.frozen
class Archive:
    """The statistics of an archive: per-player totals, rating histories, what was left out."""

    players: dict[str, PlayerTotals]
    ratings: dict[str, list[RatingPoint]]
    evenings: dict[str, list[tuple[str, str, Fraction]]]
    """Per player, the result of each rating period in each scoring: ``(period, scoring, result)``."""
    games: int
    left_out: tuple[tuple[str, str, int], ...]
    warnings: tuple[str, ...]

    @classmethod
    def build(cls, summaries: Iterable[Mapping[str, Any]], left_out: Sequence[tuple[str, str, int]] = (),
              period: str = "day", aliases: Mapping[str, str] | None = None) -> Archive:
        """From the sound games' summaries (aliases applied first) and the games left out."""
        builder = ArchiveBuilder(period, aliases)
        for s in summaries:
            builder.add(s)
        for item in left_out:
            builder.leave_out(*item)
        return builder.archive()

    def to_json(self, only: str | None = None) -> dict[str, Any]:
        """``stats --format json``."""
        names = [p for p in sorted(self.players) if only is None or p == only]
        return {"games": self.games,
                "players": {p: {**self.players[p].to_json(), "rating": _point(self.ratings.get(p))} for p in names},
                "ratings": {p: [attrs.asdict(x) for x in self.ratings.get(p, [])] for p in names},
                "left_out": [{"path": a, "game": b, "problems": c} for a, b, c in self.left_out],
                "warnings": list(self.warnings)}


class ArchiveBuilder:
    """An :class:`Archive` built one game at a time: memory holds the players' totals and, per game,
    only what the ratings need (:data:`RatedGame`, about 150 bytes; past :attr:`RUN` games, on disk),
    never the summaries.

    >>> from vistlog.projections.fold import run
    >>> b = ArchiveBuilder()
    >>> for r in run("samples/sochi-evening.jsonl"):
    ...     if hasattr(r, "entries"):
    ...         b.add(summary(r))
    >>> b.archive().players["Вова"].total
    Fraction(1388, 3)
    """

    RUN = 100_000
    """Games kept in memory for the ratings; past that many they go to disk as a sorted run (an external
    merge sort: memory stays bounded whatever the number of games)."""

    def __init__(self, period: str = "day", aliases: Mapping[str, str] | None = None) -> None:
        self.period = period
        self.aliases = aliases or {}
        self.players: dict[str, PlayerTotals] = {}
        self.evenings: dict[str, dict[tuple[str, str], Fraction]] = {}
        self.rated: list[RatedGame] = []
        self.runs: list[IO[bytes]] = []
        self.games = 0
        self.shared: dict[Any, Any] = {}
        self.left_out: list[tuple[str, str, int]] = []
        self.ids = IdTable()
        """Every game counted (compactly): one id counted twice is said."""
        self.twice: dict[str, int] = {}

    def add(self, summary: Mapping[str, Any]) -> None:
        """Count a sound game (its :func:`summary`)."""
        s = apply_aliases(summary, self.aliases)
        if s["game"] in self.ids:
            self.twice[s["game"]] = self.twice.get(s["game"], 1) + 1
        else:
            self.ids.add(s["game"])
        when = (period_of(s["date"], self.period), summary_scoring(s))
        for p in s["players"]:
            self.players.setdefault(p, PlayerTotals()).add(s, p)
            row = self.evenings.setdefault(p, {})
            row[when] = row.get(when, Fraction(0)) + Fraction(s["result"][p])
        self.rated.append(rated_game(s, self.shared))
        self.games += 1
        if len(self.rated) >= self.RUN:
            self._spill()

    def _spill(self) -> None:
        """The games kept so far, sorted (stably: files keep their order), to a run on disk."""
        run = tempfile.TemporaryFile()  # noqa: SIM115 - closed in archive()
        for g in sorted(self.rated, key=_ORDER):
            pickle.dump(g, run, protocol=pickle.HIGHEST_PROTOCOL)
        run.seek(0)
        self.runs.append(run)
        self.rated, self.shared = [], {}

    def leave_out(self, path: str, game: str, problems: int) -> None:
        """A game not counted for its problems (listed in the archive, in the order given)."""
        self.left_out.append((path, game, problems))

    def archive(self) -> Archive:
        """The statistics of the games added (the builder is spent)."""
        warnings = tuple(f"names that differ only by case or е/ё: {', '.join(g)} (merge them with --alias)"
                         for g in look_alike_names(self.players)) + tuple(
            f"game {g} is counted {n} times (the same game id in {n} logs, or twice in one archive)"
            for g, n in sorted(self.twice.items()))
        per = {p: [(when, scoring, x) for (when, scoring), x in
                   sorted(rows.items(), key=lambda kv: (kv[0][0] != "undated", kv[0]))]
               for p, rows in self.evenings.items()}
        runs = [*(_read_run(f) for f in self.runs), iter(sorted(self.rated, key=_ORDER))]
        history = rate_games(heapq.merge(*runs, key=_ORDER), self.period, ordered=True)  # earlier runs first on ties
        for f in self.runs:
            f.close()
        self.rated, self.runs = [], []
        return Archive(self.players, history, per, self.games, tuple(self.left_out), warnings)


_ORDER = itemgetter(0, 1, 2)


def _read_run(f: IO[bytes]) -> Iterator[RatedGame]:
    while True:
        try:
            yield pickle.load(f)
        except EOFError:
            return


def _point(history: list[RatingPoint] | None) -> dict[str, float] | None:
    if not history:
        return None
    last = history[-1]
    return {"rating": round(last.rating, 2), "rd": round(last.rd, 2), "volatility": round(last.volatility, 6)}
