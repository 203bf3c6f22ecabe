"""The Python API: read a log into games, ask each for its sheet, settlement, audit and story.

Everything here is a thin layer over :mod:`vistlog.events` (the write side) and
:mod:`vistlog.projections` (the read side); the command line is built on it.

>>> import vistlog
>>> games = vistlog.read_games("samples/sochi-evening.jsonl")
>>> game = next(games)
>>> game.id, game.players, game.sound
('sochi-2026-11-28', ('Аня', 'Боря', 'Вова'), True)
>>> game.sheet(after_deal=6).value("Вова", "mountain")
19
>>> game.settlement().rounded
{'Аня': -577, 'Боря': 115, 'Вова': 462}
"""

from __future__ import annotations

import copy
import io
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import attrs
import orjson

from vistlog.events.codec import DecodeError, decode_obj
from vistlog.events.importers import EXPORTERS, IMPORTERS, ImportedGame, SourceError
from vistlog.events.log import VerifyResult, open_source, problem_of, read_events
from vistlog.events.log import append as _append
from vistlog.events.log import verify as _verify
from vistlog.events.model import Event
from vistlog.events.problems import Issue, Problem, VistlogError
from vistlog.projections import render
from vistlog.projections.audit import AuditReport, audit, read_claimed
from vistlog.projections.entries import Num, Totals
from vistlog.projections.fold import GameResult, Pipeline, fold_events, run
from vistlog.projections.replay import replay_lines
from vistlog.projections.ppn import write as ppn_write

__all__ = [
    "Game", "GameReader", "Settlement", "Checker", "IllegalEventError",
    "read_games", "check_log", "append", "verify", "load", "dump", "game_events", "FORMATS_IN", "FORMATS_OUT",
]

Source = str | os.PathLike[str] | IO[bytes] | Iterable[Event | Mapping[str, Any]]
"""What :func:`read_games` reads: a path (``-`` is standard input), a binary stream, or events."""

FORMATS_IN = tuple(IMPORTERS)
"""The formats :func:`load` reads."""
_FOLDED_EXPORTERS = {"ppn": ppn_write}
FORMATS_OUT = (*EXPORTERS, *_FOLDED_EXPORTERS)
"""The formats :func:`dump` writes."""


class IllegalEventError(VistlogError):
    """:meth:`Checker.push` refused an event; ``problems`` says why (nothing was applied)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = tuple(problems)


@attrs.frozen
class Settlement:
    """A game's settlement: exact results in whists (or points), rounded ones, money and payments.

    ``exact`` values are :class:`int` or :class:`fractions.Fraction`; ``rounded`` are integers
    summing to 0; ``money`` and ``payments`` are there when the game has a stake.
    """

    exact: dict[str, Num]
    rounded: dict[str, int]
    money: dict[str, str] | None
    payments: list[dict[str, str]] | None
    zero_sum: bool

    def to_json(self) -> dict[str, Any]:
        """The CLI's ``settle --format json`` fields of this settlement."""
        out: dict[str, Any] = {"result": {p: str(v) for p, v in self.exact.items()},
                               "result_rounded": dict(self.rounded), "zero_sum": self.zero_sum}
        if self.money is not None:
            out["money"] = dict(self.money)
            out["payments"] = list(self.payments or [])
        return out


@attrs.frozen
class Game:
    """One game of a log, folded: its sheet at any deal, settlement, audit and replay.

    ``problems`` (also ``errors``, as python-chess names them) lists what is wrong with this
    game; when there are any, every number is what the sound part of the log gives.
    """

    fold: GameResult = attrs.field(repr=False)
    problems: tuple[Problem, ...] = ()

    @property
    def id(self) -> str:
        """The game id of ``game_started``."""
        return self.fold.game

    @property
    def kind(self) -> str:
        """``preferans`` or ``solo-whist``."""
        return self.fold.kind.value

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seating order."""
        return self.fold.players

    @property
    def deals(self) -> int:
        """How many deals were started."""
        return self.fold.deals

    @property
    def errors(self) -> tuple[Problem, ...]:
        """The same as :attr:`problems`."""
        return self.problems

    @property
    def sound(self) -> bool:
        """No problem was found in this game."""
        return not self.problems and self.fold.sound

    def sheet(self, after_deal: int | None = None) -> Totals:
        """The sheet (pool, mountain, whists or points) after ``after_deal``, or at the end.

        >>> g = next(read_games("samples/solo-whist-evening.jsonl"))
        >>> g.sheet(after_deal=1).value("Маша", "points")
        24
        """
        return self.fold.totals_after(after_deal)

    def settlement(self) -> Settlement:
        """The final settlement, exact and rounded, with money and payments when staked."""
        f = self.fold
        return Settlement(dict(f.result), dict(f.rounded), dict(f.money) if f.money else None,
                          list(f.payments) if f.payments else None, f.zero_sum)

    def audit(self, claimed: str | os.PathLike[str] | None = None) -> AuditReport:
        """Recorded (``score_recorded``, or a claimed sheet file in JSON or CSV) against computed.

        >>> report = next(read_games("samples/disputed-sheet.jsonl")).audit()
        >>> report.ok, len(report.mismatches)
        (False, 9)
        """
        self._needs_detail("audit")
        claims = None
        if claimed is not None:
            path = os.fspath(claimed)
            try:
                data = Path(path).read_bytes()
            except OSError as exc:
                raise VistlogError(f"{path}: cannot open ({exc.strerror or exc})") from None
            claims = read_claimed(path, data, self.fold.deals, self.fold.players)
        return audit(self.fold, claims)

    def replay(self, upto: int | None = None) -> list[str]:
        """The story of the game, deal by deal, as lines of text (up to deal ``upto``)."""
        return list(self.replay_lines(upto))

    def replay_lines(self, upto: int | None = None) -> Iterator[str]:
        """:meth:`replay` a line at a time (a long game's story is never held whole)."""
        self._needs_detail("replay")
        if not self.fold.deals_kept:
            raise VistlogError(f"game {self.id} was read with events=False: no replay")
        return replay_lines(self.fold, upto)

    def _needs_detail(self, what: str) -> None:
        if not self.fold.detail:
            raise VistlogError(f"game {self.id} was read with detail=False: no {what}")

    def to_json(self) -> dict[str, Any]:
        """The CLI's ``settle --format json`` object of this game."""
        return render.settle_json(self.fold)


class GameReader(Iterator[Game]):
    """The games of a log, each as soon as it ends (streaming); see :func:`read_games`.

    Problems that belong to no game that was started (a line that names no game, or a game
    whose ``game_started`` was refused) are in :attr:`problems` once the reader is exhausted.
    """

    def __init__(self, items: Iterator[Problem | GameResult]) -> None:
        self._items = items
        self._pending: dict[str | None, list[Problem]] = {}
        self.problems: list[Problem] = []
        """Problems of no started game (complete after iteration)."""

    def __iter__(self) -> GameReader:
        return self

    def __next__(self) -> Game:
        for item in self._items:
            if isinstance(item, Problem):
                self._pending.setdefault(item.game, []).append(item)
            else:
                return Game(item, tuple(self._pending.pop(item.game, ())))
        for problems in self._pending.values():
            self.problems.extend(problems)
        self._pending.clear()
        raise StopIteration


def read_games(source: Source, *, name: str | None = None, detail: bool = True, events: bool = True
               ) -> GameReader:
    """Read a log into games, streaming; each :class:`Game` carries its own problems.

    ``source`` is a path (``-`` for standard input), a binary stream, or an iterable of
    events (event objects or JSON-like dicts). ``name`` is what problems call the source
    (default: the path, or ``<events>``). ``detail=False`` keeps only what the settlement
    needs (memory then does not grow with a game), so :meth:`Game.sheet` knows only the final
    sheet and audit and replay are not available; ``events=False`` keeps the entries (the sheet after
    any deal, the audit) but not each deal's record and own events (the replay and the drawing read them),
    so that the memory of a very long game is about its entries alone.
    Raises :class:`~vistlog.events.problems.VistlogError` (``LogUnreadable``) for a file that
    cannot be read as a log at all.

    >>> [g.id for g in read_games("samples/")]
    Traceback (most recent call last):
    ...
    vistlog.events.log.LogUnreadable: samples/: is a folder, not a log file
    >>> events = [{"seq": 1, "type": "game_started", "game": "g", "kind": "preferans",
    ...            "players": ["A", "B", "C"], "pool": 10, "rules": {"preset": "sochi"}},
    ...           {"seq": 2, "type": "deal_started", "game": "g", "deal": 2, "dealer": "A"}]
    >>> (g,) = read_games(events)
    >>> [(p.code, p.field) for p in g.problems]
    [('deal-out-of-order', 'deal')]
    """
    return GameReader(check_log(source, name=name, detail=detail, events=events))


def check_log(source: Source, *, name: str | None = None, detail: bool = False, events: bool = True
              ) -> Iterator[Problem | GameResult]:
    """Check and fold a log in one streaming pass: every problem in the order it is found (line
    order), and each game's result as the game ends (games still open come at the end of the
    source). This is the stream behind ``vistlog validate`` and :func:`read_games`, which groups it
    by game; ``source``, ``name``, ``detail`` and ``events`` are as there (``detail`` is off here:
    checking needs only the totals).

    >>> events = [{"seq": 1, "type": "game_started", "game": "g", "kind": "preferans",
    ...            "players": ["A", "B", "C"], "pool": 10, "rules": {"preset": "sochi"}},
    ...           {"seq": 3, "type": "game_ended", "game": "g"}]
    >>> [getattr(x, "code", type(x).__name__) for x in check_log(events)]
    ['seq-order', 'GameResult']
    """
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        stream = open_source(path)
        return _closing(run(name or path, stream, detail, events), stream)
    if isinstance(source, (io.IOBase, io.BufferedIOBase)) or hasattr(source, "read"):
        label = str(name or getattr(source, "name", None) or "<stream>")
        return run(label, source, detail, events)  # type: ignore[arg-type]
    label = name or "<events>"
    return fold_events(label, _decoded(label, source), detail, events)  # type: ignore[arg-type]


def _closing(items: Iterator[Problem | GameResult], stream: IO[bytes]) -> Iterator[Problem | GameResult]:
    try:
        yield from items
    finally:
        if stream.fileno() != 0:
            stream.close()


def _decoded(label: str, events: Iterable[Event | Mapping[str, Any]]) -> Iterator[tuple[int, Event | Problem]]:
    for n, ev in enumerate(events, start=1):
        if isinstance(ev, Mapping):
            data = orjson.loads(orjson.dumps(dict(ev)))
            try:
                yield n, decode_obj(dict(data))
            except DecodeError as exc:
                yield n, problem_of(label, n, data, exc)
        else:
            yield n, ev


class Checker:
    """Checks events one at a time against the game so far, as python-chess's ``Board`` does moves.

    :meth:`is_legal` asks without changing anything, :meth:`push` applies a legal event and
    raises :class:`IllegalEventError` for an illegal one (applying nothing), :meth:`problems`
    says why an event is illegal. Events are event objects or JSON-like dicts; a dict
    without ``seq`` gets the next one.

    >>> c = Checker()
    >>> c.push({"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"],
    ...         "pool": 10, "rules": {"preset": "sochi"}}).seq
    1
    >>> c.is_legal({"type": "deal_started", "game": "g", "deal": 1, "dealer": "C"})
    True
    >>> [p.code for p in c.problems({"type": "deal_started", "game": "g", "deal": 2, "dealer": "C"})]
    ['deal-out-of-order']
    >>> c.push({"type": "deal_started", "game": "g", "deal": 1, "dealer": "C"}).seq
    2
    >>> c.push({"type": "bid", "game": "g", "deal": 1, "player": "B", "bid": "6S"})
    Traceback (most recent call last):
    ...
    vistlog.api.IllegalEventError: <events>: seq 3: player: it is A's turn to bid, not B's
    """

    def __init__(self, name: str = "<events>") -> None:
        self._pipe = Pipeline(name, detail=False)
        self._name = name
        self._seq = 0

    def _event(self, ev: Event | Mapping[str, Any]) -> Event | Problem:
        if not isinstance(ev, Mapping):
            return ev
        data = orjson.loads(orjson.dumps(dict(ev)))
        data.setdefault("seq", self._seq + 1)
        try:
            return decode_obj(dict(data))
        except DecodeError as exc:
            return problem_of(self._name, None, data, exc)

    def problems(self, ev: Event | Mapping[str, Any]) -> list[Problem]:
        """Why ``ev`` is illegal now (an empty list when it is legal); nothing changes."""
        event = self._event(ev)
        if isinstance(event, Problem):
            return [event]
        trial = copy.deepcopy(self._pipe)
        return [self._problem(event, i) for i in trial.check(event)]

    def is_legal(self, ev: Event | Mapping[str, Any]) -> bool:
        """Whether ``ev`` may come next."""
        return not self.problems(ev)

    def push(self, ev: Event | Mapping[str, Any]) -> Event:
        """Apply ``ev`` when legal and return it (decoded); raise :class:`IllegalEventError` otherwise."""
        event = self._event(ev)
        if isinstance(event, Problem):
            raise IllegalEventError([event])
        problems = self.problems(event)
        if problems:
            raise IllegalEventError(problems)
        self._pipe.check(event)
        self._seq = event.seq
        return event

    def _problem(self, event: Event, issue: Issue) -> Problem:
        return Problem(self._name, None, event.seq, issue.field, issue.message, event.game, code=issue.code)


def append(path: str | os.PathLike[str], events: Iterable[Event | Mapping[str, Any]]) -> list[Event]:
    """Append events to a log, each checked against the game so far, all or none, hash-chained.

    Events without ``seq`` get the next ones. Returns the events written; raises
    :class:`~vistlog.events.log.AppendRejected` (a :class:`VistlogError` with ``problems``)
    when any is refused, and then the log is exactly as it was.
    """
    from vistlog.events.codec import unstructure

    target = os.fspath(path)
    incoming = [(n, unstructure(ev) if not isinstance(ev, Mapping) else orjson.loads(orjson.dumps(dict(ev))))
                for n, ev in enumerate(events, start=1)]
    return _append(target, incoming, lambda: Pipeline(target, detail=False).check, source_name="<events>")


def verify(path: str | os.PathLike[str], head: str | None = None) -> VerifyResult:
    """Walk a log's hash chain (``status``: ``ok``, ``broken`` or ``unchained``); ``head``, kept
    from an earlier verify, proves that no line was cut from the end since."""
    return _verify(os.fspath(path), head)


def load(source: str | os.PathLike[str] | bytes, format: str, *, name: str | None = None) -> list[ImportedGame]:
    """Read a file of another program (``format`` one of :data:`FORMATS_IN`) into games of events.

    The events are dicts without ``seq``, ready for :func:`append` or :func:`read_games`;
    each game is checked only when it is appended or read. Raises
    :class:`~vistlog.events.importers.SourceError` for a source that is not of that format.
    """
    if format not in IMPORTERS:
        raise VistlogError(f"no importer for {format!r} (formats: {', '.join(IMPORTERS)})")
    if isinstance(source, bytes):
        return IMPORTERS[format](name or "<bytes>", source)
    path = os.fspath(source)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot open ({exc.strerror or exc})") from None
    return IMPORTERS[format](name or path, data)


def dump(events: Iterable[Event | Mapping[str, Any]], format: str) -> str:
    """Write one game's events in another program's format (one of :data:`FORMATS_OUT`)."""
    from vistlog.events.codec import unstructure
    from vistlog.events.importers.jsonl import derive_tricks

    if format not in FORMATS_OUT:
        raise VistlogError(f"no exporter for {format!r} (formats: {', '.join(FORMATS_OUT)})")
    dicts = [dict(ev) if isinstance(ev, Mapping) else unstructure(ev) for ev in events]
    if format in _FOLDED_EXPORTERS:  # formats that carry the scores: the game is folded first
        numbered = [{**d, "seq": i} for i, d in enumerate(dicts, start=1)]
        games = list(read_games(numbered))
        if len(games) != 1 or games[0].problems:
            why = "; ".join(str(p) for p in (games[0].problems if games else ())[:3]) or "not one game"
            raise SourceError(f"cannot write {format}: {why}")
        return _FOLDED_EXPORTERS[format](games[0].fold)
    for d in dicts:
        d.pop("_chain", None)
    game = str(dicts[0].get("game", "")) if dicts else ""
    return EXPORTERS[format](derive_tricks(ImportedGame(game, dicts, "<events>")).events)


class LogProblems(VistlogError):
    """A log that has problems where a whole, sound log is needed; ``problems`` lists them."""

    def __init__(self, path: str, problems: Sequence[Problem]) -> None:
        super().__init__(f"{path}: fix the problems before exporting")
        self.problems = tuple(problems)


def game_events(source: str | os.PathLike[str], game: str | None = None) -> list[Event]:
    """The events of one game of a log (``game``, or the only one), for :func:`dump`.

    Raises :class:`LogProblems` when the log has a problem, and :class:`VistlogError` when ``game``
    is not in it or it holds several games and none is named.
    """
    path = os.fspath(source)
    games: dict[str, list[Event]] = {}
    problems: list[Problem] = []
    for _, item in read_events(path):
        if isinstance(item, Problem):
            problems.append(item)
        else:
            games.setdefault(item.game, []).append(item)
    if problems:
        raise LogProblems(path, problems)
    if game is not None and game not in games:
        raise VistlogError(f"{path}: no game {game!r} (games: {', '.join(games)})")
    if game is None and len(games) != 1:
        raise VistlogError(f"export writes one game: name it with --game ({', '.join(games)})")
    return games[game if game is not None else next(iter(games))]
