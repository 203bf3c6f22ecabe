"""The Python API: read a log into games, ask each for its sheet, settlement, audit and story.

Everything here is a thin layer over :mod:`vistlog.events` (the write side) and
:mod:`vistlog.projections` (the read side); the command line is built on it and on
:mod:`vistlog.views` and :mod:`vistlog.archive`, as any other client would be.

>>> import vistlog
>>> games = read_games("samples/sochi-evening.jsonl")
>>> game = next(games)
>>> game.id, game.players, game.variant, game.sound
('sochi-2026-11-28', ('Аня', 'Боря', 'Вова'), 'sochi', True)
>>> game.sheet(after_deal=6).value("Вова", "mountain")
19
>>> dict(game.settlement().rounded)
{'Аня': -577, 'Боря': 115, 'Вова': 462}
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any, Literal, cast, get_args

import attrs
import orjson

from vistlog.events.codec import DecodeError, check_depth, decode_obj, loads_line, unstructure
from vistlog.events.cards import GameKind
from vistlog.events.importers import EXPORTERS, IMPORTERS, ImportedGame, SourceError
from vistlog.events.importers import cannot_carry as _cannot_carry
from vistlog.events.importers.jsonl import derive_tricks
from vistlog.events.log import (
    MAX_LINE, AppendConflict, AppendRejected, LogUnreadable, LogWriter, VerifyResult, open_source, problem_of,
    read_events, read_key, read_lines,
)
from vistlog.events.log import append as _append
from vistlog.events.log import verify as _verify
from vistlog.events.model import Event
from vistlog.events.problems import Issue, Problem, UnknownName, VistlogError
from vistlog.events.text import nearest
from vistlog.events.checker import LogChecker
from vistlog.events.game import Table
from vistlog.events.nextstep import Next
from vistlog.events.nextstep import next_step as next_of
from vistlog.events.notation import NotationError, game_lines
from vistlog.events.notation import parse_line as parse_notation
from vistlog.events.rules import Rules
from vistlog.projections import render
from vistlog.projections.analysis import GameAnalysis, analyse, analysis_json
from vistlog.projections.solver import COMPILED as _SOLVER_COMPILED
from vistlog.projections.audit import AuditReport, ClaimError, audit, read_claimed
from vistlog.projections.entries import COLUMNS, PAIRED, Num, Totals
from vistlog.projections.fold import GameResult, Pipeline, fold_events, run
from vistlog.projections.live import LiveFold
from vistlog.projections.ppn import write as ppn_write
from vistlog.projections.replay import replay_lines
from vistlog.projections.words import Lang

from .output import OutputError

__all__ = [
    "Game", "GameReader", "Sheet", "Settlement", "Checker", "IllegalEventError", "LogProblems",
    "Variant", "Kind", "kind_name", "VARIANTS", "Source",
    "read_games", "check_log", "open_log", "parse_line", "append", "verify", "load", "dump", "game_events",
    "FORMATS_IN", "FORMATS_OUT", "Table", "Next", "Recorder", "LiveFold", "deal_lines", "NotationError",
    "AppendConflict",
    "input_lines", "MAX_LINE",
    "VistlogError", "UnknownName", "LogUnreadable", "AppendRejected", "DecodeError", "SourceError", "ClaimError",
    "OutputError",
    "Problem", "ImportedGame", "AuditReport", "VerifyResult", "GameAnalysis", "analysis_json",
    "SOLVER_COMPILED",
]

Variant = Literal["sochi", "leningrad", "rostov", "classic", "encyclopedia", "serbian"]
"""A game's variant: the preset its ``game_started`` names (``vistlog rules`` lists them)."""
VARIANTS: tuple[Variant, ...] = get_args(Variant)
"""Every :data:`Variant`, in the order ``vistlog rules`` lists the presets."""
Kind = Literal["preferans", "solo-whist"]
"""The kind of game, as the command line spells it (the log writes ``solo_whist``)."""


def kind_name(kind: GameKind) -> Kind:
    """A log's kind as the command line and the JSON outputs spell it.

    >>> kind_name(GameKind.SOLO_WHIST)
    'solo-whist'
    """
    return "solo-whist" if kind is GameKind.SOLO_WHIST else "preferans"

Source = str | os.PathLike[str] | IO[bytes] | Iterable[Event | Mapping[str, Any] | ImportedGame]
"""What :func:`read_games` reads: a path (``-`` is standard input), a binary stream, or events
(event objects, JSON-like dicts, or the games :func:`load` gives)."""

SOLVER_COMPILED = _SOLVER_COMPILED
"""The compiled open-hand solver was built with this install (else :meth:`Game.analysis` runs the pure
search; the answers are the same)."""

FORMATS_IN = tuple(IMPORTERS)
"""The formats :func:`load` reads."""
_FOLDED_EXPORTERS = {"ppn": ppn_write}
FORMATS_OUT = (*EXPORTERS, *_FOLDED_EXPORTERS)
"""The formats :func:`dump` writes."""


class IllegalEventError(VistlogError):
    """:meth:`Checker.push` refused an event; ``problems`` says why (nothing was applied)."""

    code = "illegal-event"

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


class LogProblems(VistlogError):
    """A log that has problems where a whole, sound log is needed; ``problems`` lists them."""

    code = "log-problems"

    def __init__(self, path: str, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(f"{path}: {len(self.problems)} problem(s); fix them before exporting")


def _frozen(d: Mapping[Any, Num]) -> Mapping[Any, Num]:
    return MappingProxyType(dict(d))


@attrs.frozen
class Sheet:
    """The score sheet (пулька) after a deal: every column's total, read-only.

    ``pool``, ``mountain``, ``points``, ``bula`` and ``refe`` map each player to a number;
    ``whists`` and ``soups`` map ``(writer, on)`` to a number. Only the columns of the game's
    kind are ever non-zero (Preferans: pool, mountain, whists; Solo Whist: points; Serbian:
    bula, soups, refe).

    >>> s = next(read_games("samples/sochi-evening.jsonl")).sheet(after_deal=6)
    >>> s.after_deal, s.value("Вова", "mountain"), s.whists_by("Аня")
    (6, 19, {'Боря': 8, 'Вова': 4})
    """

    players: tuple[str, ...]
    after_deal: int
    pool: Mapping[str, Num] = attrs.field(converter=_frozen)
    mountain: Mapping[str, Num] = attrs.field(converter=_frozen)
    points: Mapping[str, Num] = attrs.field(converter=_frozen)
    whists: Mapping[tuple[str, str], Num] = attrs.field(converter=_frozen)
    bula: Mapping[str, Num] = attrs.field(converter=_frozen)
    soups: Mapping[tuple[str, str], Num] = attrs.field(converter=_frozen)
    refe: Mapping[str, Num] = attrs.field(converter=_frozen)
    refe_drawn: int = 0
    """Serbian: how many times refe were drawn (each time one for every player)."""

    @classmethod
    def _of(cls, t: Totals, after_deal: int) -> Sheet:
        return cls(tuple(t.players), after_deal, t.pool, t.mountain, t.points, t.whists, t.bula, t.soups, t.refe,
                   t.refe_written)

    def value(self, player: str, column: str, on: str | None = None) -> Num:
        """One number: ``pool``, ``mountain``, ``points``, ``bula``, ``refe`` of ``player``, or
        ``whists``/``soups`` that ``player`` wrote on ``on``. An unknown name raises :class:`VistlogError`."""
        if player not in self.players or (on is not None and on not in self.players):
            raise UnknownName(f"no player {player if player not in self.players else on!r} "
                               f"(players: {', '.join(self.players)})")
        if column not in COLUMNS:
            raise UnknownName(f"no column {column!r} (columns: {', '.join(COLUMNS)})")
        if column in PAIRED:
            if on is None:
                raise VistlogError(f"{column} are written on a player: give on=")
            return cast(Mapping[tuple[str, str], Num], getattr(self, column)).get((player, on), 0)
        return cast(Mapping[str, Num], getattr(self, column))[player]

    def whists_by(self, writer: str) -> dict[str, Num]:
        """The whists ``writer`` wrote on each other player, in seating order (zeros left out)."""
        return {p: self.whists[(writer, p)] for p in self.players if self.whists.get((writer, p))}


def _payments(items: Sequence[Mapping[str, str]] | None) -> tuple[Mapping[str, str], ...] | None:
    return None if items is None else tuple(MappingProxyType(dict(x)) for x in items)


def _frozen_or_none(d: Mapping[str, str] | None) -> Mapping[str, str] | None:
    return None if d is None else MappingProxyType(dict(d))


@attrs.frozen
class Settlement:
    """A game's settlement: exact results in whists (or points), rounded ones, money and payments.

    ``exact`` values are :class:`int` or :class:`fractions.Fraction`; ``rounded`` are integers
    summing to 0; ``money`` and ``payments`` (each ``{"from", "to", "amount"}``) are there when
    the game has a stake, else ``None``. Read-only.
    """

    exact: Mapping[str, Num] = attrs.field(converter=_frozen)
    rounded: Mapping[str, int] = attrs.field(converter=_frozen)
    money: Mapping[str, str] | None = attrs.field(converter=_frozen_or_none)
    payments: tuple[Mapping[str, str], ...] | None = attrs.field(converter=_payments)
    zero_sum: bool

    def to_json(self) -> dict[str, Any]:
        """The ``settle --format json`` fields of this settlement."""
        out: dict[str, Any] = {"result": {p: str(v) for p, v in self.exact.items()},
                               "result_rounded": dict(self.rounded), "zero_sum": self.zero_sum}
        if self.money is not None:
            out["money"] = dict(self.money)
            out["payments"] = [dict(x) for x in self.payments or ()]
        return out


@attrs.frozen
class Game:
    """One game of a log, folded: its sheet at any deal, settlement, audit and replay.

    ``problems`` (also ``errors``, as python-chess names them) lists what is wrong with this
    game; when there are any, every number is what the sound part of the log gives. A game whose
    ``game_started`` was refused (or whose events came without one) is still given, with
    ``started`` false, its problems, no players and an empty sheet, so that a caller iterating
    the games sees it.
    """

    _result: GameResult | None = attrs.field(repr=False)
    problems: tuple[Problem, ...] = ()
    _name: str = ""

    @property
    def id(self) -> str:
        """The game id of ``game_started``."""
        return self._result.game if self._result is not None else self._name

    @property
    def started(self) -> bool:
        """``game_started`` was accepted: the game has players, rules and a sheet."""
        return self._result is not None

    @property
    def kind(self) -> Kind:
        """``preferans`` (Russian or Serbian) or ``solo-whist``."""
        if self._result is None:
            raise VistlogError(f"game {self.id} never started: it has no kind")
        return kind_name(self._result.kind)

    @property
    def variant(self) -> Variant:
        """The preset the game plays: ``sochi``, ``leningrad``, ``rostov``, ``classic``,
        ``encyclopedia`` (Solo Whist) or ``serbian``."""
        return cast(Variant, self.rules.preset)

    @property
    def rules(self) -> Rules:
        """Every rule option the game plays by (its preset and the options it changed)."""
        if self._result is None:
            raise VistlogError(f"game {self.id} never started: it has no rules")
        return self._result.started.rules

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seating order."""
        return self._result.players if self._result is not None else ()

    @property
    def deals(self) -> int:
        """How many deals were started."""
        return self._result.deals if self._result is not None else 0

    @property
    def ended(self) -> bool:
        """``game_ended`` closed the game."""
        return self._result is not None and self._result.ended

    @property
    def place(self) -> int:
        """The game's place among the games of its log, in the order they started (0 first);
        games are given as each ends, so this says where a game stood. -1 for a game never started."""
        return self._result.index if self._result is not None else -1

    @property
    def errors(self) -> tuple[Problem, ...]:
        """The same as :attr:`problems`."""
        return self.problems

    @property
    def sound(self) -> bool:
        """No problem was found in this game."""
        return not self.problems and self._result is not None and self._result.sound

    def sheet(self, after_deal: int | None = None) -> Sheet:
        """The sheet (pool, mountain, whists or points) after ``after_deal``, or at the end.

        >>> g = next(read_games("samples/solo-whist-evening.jsonl"))
        >>> g.sheet(after_deal=1).value("Маша", "points")
        24
        """
        r = self._result
        if r is None:
            return Sheet._of(Totals(()), 0)
        return Sheet._of(r.totals_after(after_deal), render.last_deal(r, after_deal))

    def settlement(self) -> Settlement:
        """The final settlement, exact and rounded, with money and payments when staked."""
        r = self._result
        if r is None:
            return Settlement({}, {}, None, None, True)
        return Settlement(r.result, r.rounded, r.money, r.payments, r.zero_sum)

    def audit(self, claimed: str | os.PathLike[str] | None = None) -> AuditReport:
        """Recorded (``score_recorded``, or a claimed sheet file in JSON or CSV) against computed.

        >>> report = next(read_games("samples/disputed-sheet.jsonl")).audit()
        >>> report.ok, len(report.mismatches)
        (False, 9)
        """
        r = self._needs_detail("audit")
        claims = None
        if claimed is not None:
            path = os.fspath(claimed)
            try:
                data = Path(path).read_bytes()
            except OSError as exc:
                raise ClaimError(f"{path}: cannot open ({exc.strerror or exc})") from None
            claims = read_claimed(path, data, r.deals, r.players)
        return audit(r, claims)

    def analysis(self, *, discards: bool = False, engine: str | None = None,
                 deals: Container[int] | None = None) -> GameAnalysis:
        """The open-hand analysis: each contract with its hands recorded solved double-dummy, card by card
        where the cards are recorded (:mod:`vistlog.projections.analysis`); ``discards``: every discard
        tried too; ``engine``: ``python`` or ``compiled`` (default: the compiled solver when built);
        ``deals``: only these deals (by number).

        >>> game = next(read_games("samples/classic-bombs.jsonl"))
        >>> deal = game.analysis().deals[1]
        >>> deal.deal, deal.value, [(m.player, str(m.card)) for m in deal.mistakes]
        (7, 5, [('Восток', 'KS')])
        """
        return analyse(self._needs_detail("analysis"), discards=discards, engine=engine, deals=deals)

    def replay(self, upto: int | None = None, lang: Lang | None = None, values: bool = False) -> list[str]:
        """The story of the game, deal by deal, as lines of text (up to deal ``upto``), in ``lang``
        (``ru`` or ``en``; by default ``VISTLOG_LANG``, else English); ``values``: the double-dummy value
        after each card played (:meth:`analysis`)."""
        return list(self.replay_lines(upto, lang, values))

    def replay_lines(self, upto: int | None = None, lang: Lang | None = None, values: bool = False,
                     since: int = 0) -> Iterator[str]:
        """:meth:`replay` a line at a time (a long game's story is never held whole); ``since``: after the header,
        the deal records from that one on (the first ``since`` are passed over unread)."""
        r = self._needs_detail("replay")
        if not r.deals_kept:
            raise VistlogError(f"game {self.id} was read with events=False: no replay")
        return replay_lines(r, upto, lang, values, since)

    @property
    def deals_told(self) -> int:
        """How many deal records the replay tells (a deal voided and recorded again counts twice)."""
        return len(self._result.records) if self._result is not None else 0

    def _needs_detail(self, what: str) -> GameResult:
        if self._result is None:
            raise VistlogError(f"game {self.id} never started: no {what}")
        if not self._result.detail:
            raise VistlogError(f"game {self.id} was read with detail=False: no {what}")
        return self._result

    def to_json(self) -> dict[str, Any]:
        """The ``settle --format json`` object of this game (docs/cli.md's contract)."""
        if self._result is None:
            return {"game": self.id, "started": False, "problems": len(self.problems)}
        return render.settle_json(self._result)


def result_of(game: Game) -> GameResult:
    """The read side's result behind a game, for the renderers of :mod:`vistlog.views`
    (not part of the API: its shape may change)."""
    if game._result is None:
        raise VistlogError(f"game {game.id} never started: nothing to show")
    return game._result


class GameReader(Iterator[Game]):
    """The games of a log, each as soon as it ends (streaming); see :func:`read_games`.

    Every game named in the log is given, once: a game that started as soon as it ends (or at
    the end of the log when it never ends), with its problems; a game whose ``game_started`` was
    refused, or whose events came without one, at the end of the log, with ``started`` false.
    Problems of lines that name no game at all (a line that is not JSON, an event without
    ``game``) are in :attr:`problems`, complete once the reader is exhausted.
    """

    def __init__(self, items: Iterator[Problem | GameResult]) -> None:
        self._items = items
        self._pending: dict[str | None, list[Problem]] = {}
        self._unstarted: Iterator[Game] | None = None
        self.problems: list[Problem] = []
        """Problems of lines that name no game (complete after iteration)."""

    def __iter__(self) -> GameReader:
        return self

    def __next__(self) -> Game:
        if self._unstarted is None:
            for item in self._items:
                if isinstance(item, Problem):
                    self._pending.setdefault(item.game, []).append(item)
                else:
                    return Game(item, tuple(self._pending.pop(item.game, ())))
            self.problems.extend(self._pending.pop(None, ()))
            self._unstarted = iter([Game(None, tuple(ps), name) for name, ps in self._pending.items()
                                    if name is not None])
            self._pending.clear()
        return next(self._unstarted)


def read_games(source: Source, *, name: str | None = None, detail: bool = True, events: bool = True
               ) -> GameReader:
    """Read a log into games, streaming; each :class:`Game` carries its own problems.

    ``source`` is a path (``-`` for standard input), a binary stream, or an iterable of
    events: event objects, JSON-like dicts (a dict without ``seq`` gets the next one), or the
    :class:`~vistlog.events.importers.ImportedGame` values :func:`load` gives. ``name`` is what
    problems call the source (default: the path, or ``<events>``). ``detail=False`` keeps only
    what the settlement needs (memory then does not grow with a game), so :meth:`Game.sheet`
    knows only the final sheet and audit and replay are not available; ``events=False`` keeps
    the entries (the sheet after any deal, the audit) but not each deal's record and own events
    (the replay and the drawing read them; a deal that ended with a claim is kept whole, for the
    audit to judge it), so that the memory of a very long game is about its entries alone. Raises
    :class:`~vistlog.events.log.LogUnreadable` for a file that cannot be read as a log at all.

    >>> [g.id for g in read_games("samples/")]
    Traceback (most recent call last):
    ...
    vistlog.events.log.LogUnreadable: samples/: is a folder, not a log file
    >>> events = [{"type": "game_started", "game": "g", "kind": "preferans",
    ...            "players": ["A", "B", "C"], "pool": 10, "rules": {"preset": "sochi"}},
    ...           {"type": "deal_started", "game": "g", "deal": 2, "dealer": "A"}]
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
        return run(label, cast(IO[bytes], source), detail, events)
    label = name or "<events>"
    return fold_events(label, _decoded(label, cast(Iterable[Any], source)), detail, events)


def open_log(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open a log for reading as every reader does (``-`` is standard input): as it stood when
    opened, without the tail of an append that never finished. Raises
    :class:`~vistlog.events.log.LogUnreadable` (missing, a folder, unreadable)."""
    return open_source(os.fspath(path))


def parse_line(line: bytes) -> Any:
    """One line of a log as JSON (whether it is an event is for :func:`append` to say).
    Raises :class:`~vistlog.events.codec.DecodeError` with ``message``.

    >>> parse_line(b'{"type": "game_ended", "game": "g"}')
    {'type': 'game_ended', 'game': 'g'}
    """
    value = loads_line(line)
    if isinstance(value, dict):
        check_depth(value, value.get("seq") if type(value.get("seq")) is int else None)
    return value


def _closing(items: Iterator[Problem | GameResult], stream: IO[bytes]) -> Iterator[Problem | GameResult]:
    try:
        yield from items
    finally:
        if stream.fileno() != 0:
            stream.close()


def _flat(events: Iterable[Event | Mapping[str, Any] | ImportedGame]) -> Iterator[Event | Mapping[str, Any]]:
    for ev in events:
        if isinstance(ev, ImportedGame):
            yield from ev.events
        else:
            yield ev


def _plain(ev: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-like mapping as the codec reads a line (a copy: the caller's dict is never changed). Its depth is
    checked first (a value nested past the serialiser's own limit is a field named, not a ``TypeError``)."""
    check_depth(ev, ev.get("seq") if isinstance(ev.get("seq"), int) else None)
    try:
        return cast(dict[str, Any], orjson.loads(orjson.dumps(dict(ev))))
    except orjson.JSONEncodeError as exc:
        raise DecodeError("", f"not a JSON object ({exc})") from None


def _decoded(label: str, events: Iterable[Event | Mapping[str, Any] | ImportedGame]
             ) -> Iterator[tuple[int, Event | Problem]]:
    seq = 0
    for n, ev in enumerate(_flat(events), start=1):
        if isinstance(ev, Mapping):
            try:
                data = _plain(ev)
            except DecodeError as exc:
                seq += 1
                yield n, problem_of(label, n, {"seq": seq, **{k: ev[k] for k in ("game", "type") if k in ev}}, exc)
                continue
            data.setdefault("seq", seq + 1)
            if isinstance(data["seq"], int):
                seq = data["seq"]
            try:
                yield n, decode_obj(data)
            except DecodeError as exc:
                yield n, problem_of(label, n, data, exc)
        else:
            seq = ev.seq
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
        self._history: list[Event] = []

    def _event(self, ev: Event | Mapping[str, Any], seq: int | None = None) -> Event | Problem:
        if not isinstance(ev, Mapping):
            return ev
        data = _plain(ev)
        data.setdefault("seq", (self._seq if seq is None else seq) + 1)
        try:
            return decode_obj(data)
        except DecodeError as exc:
            return problem_of(self._name, None, data, exc)

    def problems(self, ev: Event | Mapping[str, Any]) -> list[Problem]:
        """Why ``ev`` is illegal now (an empty list when it is legal); nothing changes.

        It checks ``ev`` on a state built again from the events pushed so far (a cost that grows
        with the game, as a copy's would, and the same in both builds); :meth:`push` does not."""
        event = self._event(ev)
        if isinstance(event, Problem):
            return [event]
        trial = self._replayed()
        return [self._problem(event, i) for i in trial.check(event)]

    def is_legal(self, ev: Event | Mapping[str, Any]) -> bool:
        """Whether ``ev`` may come next."""
        return not self.problems(ev)

    def push(self, ev: Event | Mapping[str, Any]) -> Event:
        """Apply ``ev`` when legal and return it (decoded); raise :class:`IllegalEventError` otherwise.

        A legal event costs what its own check costs, however long the game: it is checked on the
        state itself. A refused one leaves the state as it was: it is built again from the events
        pushed so far (which the checker keeps, one reference each)."""
        return self.push_all([ev])[0]

    def push_all(self, events: Iterable[Event | Mapping[str, Any]]) -> list[Event]:
        """Apply several events, all or none (a deal at once); raise :class:`IllegalEventError`
        with the first refused event's problems, and then nothing is applied."""
        done: list[Event] = []
        seq = self._seq
        for ev in events:
            event = self._event(ev, seq)
            if isinstance(event, Problem):
                if done:
                    self._rebuild()
                raise IllegalEventError([event])
            issues = [self._problem(event, i) for i in self._pipe.check(event)]
            if issues:
                self._rebuild()
                raise IllegalEventError(issues)
            done.append(event)
            seq = event.seq
        self._history.extend(done)
        self._seq = seq
        return done

    def table(self, game: str | None = None) -> Table:
        """Where ``game`` (by default the one game under way) stands: the next deal's number,
        dealer, first to speak, a deal left open, voided deals not yet recorded again.

        >>> c = Checker()
        >>> _ = c.push({"type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"],
        ...             "pool": 10, "rules": {"preset": "sochi"}})
        >>> _ = c.push_all([{"type": "deal_started", "game": "g", "deal": 1, "dealer": "C"},
        ...                 {"type": "tricks", "game": "g", "deal": 1, "taken": {"A": 4, "B": 3, "C": 3}}])
        >>> t = c.table(); (t.next_deal, t.dealer, t.first_to_speak)
        (2, 'A', 'B')
        """
        return _table_of(self._pipe.checker, game, "")

    def _rebuild(self) -> None:
        self._pipe = self._replayed()

    def _replayed(self) -> Pipeline:
        pipe = Pipeline(self._name, detail=False)
        for event in self._history:
            pipe.check(event)
        return pipe

    def _problem(self, event: Event, issue: Issue) -> Problem:
        return Problem(self._name, None, event.seq, issue.field, issue.message, event.game, code=issue.code)


class Recorder:
    """Records into one log at the table: reads it once, then each record costs only its own events.

    What the score pad (``vistlog serve``) and ``vistlog deal`` write with. Every record is checked
    against the game so far and appended all or none, locked, journaled and chained, as
    :func:`append` does; lines other writers appended meanwhile are read first. ``expect_seq``
    makes a record conditional: :class:`~vistlog.events.log.AppendConflict` when somebody recorded
    first. :meth:`table` says who deals next and who speaks first.

    >>> import tempfile
    >>> r = Recorder(os.path.join(tempfile.mkdtemp(), "evening.jsonl"))
    >>> _ = r.record([{"type": "game_started", "game": "g", "kind": "preferans", "players": ["Аня", "Боря", "Вова"],
    ...                "pool": 10, "rules": {"preset": "sochi"}}])
    >>> [e.type for e in r.record_line("dealer Аня; Боря 6S; Вова whist, Аня pass; Боря 6 Вова 4")]
    ['deal_started', 'contract', 'whist', 'whist', 'tricks']
    >>> t = r.table(); (t.next_deal, t.dealer, t.first_to_speak)
    (2, 'Боря', 'Вова')
    """

    def __init__(self, path: str | os.PathLike[str], *, key: bytes | None = None,
                 key_file: str | os.PathLike[str] | None = None, warn: Callable[[str], None] | None = None) -> None:
        self.path = os.fspath(path)
        self._pipe: Pipeline | None = None

        def make() -> Callable[[Event], list[Issue]]:
            self._pipe = Pipeline(self.path, detail=False)
            return self._pipe.check

        self._writer = LogWriter(self.path, make, key=_key(key, key_file), warn=warn)

    def refresh(self) -> bool:
        """Read what other writers appended since the last look; True when anything was new."""
        try:
            return self._writer.refresh()
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot read ({exc.strerror or exc})") from None

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next event gets (as of the last look)."""
        return self._writer.next_seq

    def games(self) -> list[str]:
        """The games under way in the log, in the order they started."""
        self.refresh()
        live = self._live()
        return list(live.games) if live is not None else []

    def _live(self) -> LogChecker | None:
        """The checker of the log as last read (None before the log exists)."""
        return self._pipe.checker if self._pipe is not None and self._writer.check is not None else None

    def tables(self) -> dict[str, Table]:
        """Every game under way and where it stands, after one look at the log."""
        self.refresh()
        live = self._live()
        return {g: _table_of(live, g, "") for g in live.games} if live is not None else {}

    def table(self, game: str | None = None) -> Table:
        """Where ``game`` (by default the one game under way) stands; see :class:`Table`."""
        self.refresh()
        return _table_of(self._live(), game, f"{self.path}: ")

    def record(self, events: Iterable[Event | Mapping[str, Any]], *, expect_seq: int | None = None,
               source: str = "<pad>", then: Callable[[], list[Problem]] | None = None) -> list[Event]:
        """Check and append events (dicts without ``seq`` get the next ones), all or none; ``then`` says what
        else is wrong once they have all passed (see :meth:`~vistlog.events.log.LogWriter.append`)."""
        items = [unstructure(ev) if not isinstance(ev, Mapping) else _plain(ev) for ev in events]
        try:
            return self._writer.append([(None, item) for item in items], source, expect_seq=expect_seq, then=then)
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def next_step(self, game: str | None = None, line: str = "", *, declarer: str | None = None,
                  contract: str | None = None, all_pass: bool = False, auction: bool = False) -> Next:
        """What may come next in ``game`` (see :func:`~vistlog.events.nextstep.next_step`), with ``line`` (the
        deal being composed, in the notation, possibly unfinished) as its draft, and what the form chose that
        the draft cannot say yet (``declarer``, ``contract``, ``all_pass``; ``auction``: the bids too). A draft that
        does not read gives the choices without it and its problem (``code`` ``notation-invalid``).

        >>> import tempfile
        >>> r = Recorder(os.path.join(tempfile.mkdtemp(), "evening.jsonl"))
        >>> _ = r.record([{"type": "game_started", "game": "g", "kind": "preferans",
        ...                "players": ["Аня", "Боря", "Вова"], "pool": 10, "rules": {"preset": "sochi"}}])
        >>> r.next_step(line="dealer Аня; Боря 7S; Вова pass").calls
        (('Аня', 'pass'), ('Аня', 'whist'), ('Аня', 'half'))
        >>> r.next_step(line="dealer Аня; Боря 8S; Вова pass").calls
        (('Аня', 'pass'), ('Аня', 'whist'))
        """
        self.refresh()
        live = self._live()
        if live is not None and game is not None and game in live.ended:
            return Next("over", 0, why="game_ended was recorded", adjust=False)
        table = _table_of(live, game, f"{self.path}: ")
        assert live is not None
        state = live.games[table.game]
        try:
            draft = parse_notation(line, table) if line.strip() else []
        except NotationError as exc:
            return attrs.evolve(next_of(state, declarer=declarer, contract=contract, all_pass=all_pass,
                                        auction=auction), problem=Issue(exc.code, "line", str(exc)))
        return next_of(state, draft, declarer=declarer, contract=contract, all_pass=all_pass, auction=auction)

    def parse(self, line: str, game: str | None = None) -> list[dict[str, Any]]:
        """The events a line of the deal notation stands for (``docs/notation.md``), unchecked."""
        return parse_notation(line, self.table(game))

    def record_line(self, line: str, *, game: str | None = None, expect_seq: int | None = None,
                    stamp: Mapping[str, str] | None = None) -> list[Event]:
        """Record one deal written in one line (or ``void N``, ``end``); ``stamp`` adds envelope
        fields (``at``, ``by``) to every event."""
        events = self.parse(line, game)
        if stamp:
            events = [{**ev, **stamp} for ev in events]
        first = events[0] if events else {}
        deal = first.get("deal") if first.get("type") == "deal_started" else None

        def whole() -> list[Problem]:
            """A line is a whole deal: one that leaves its deal unfinished writes nothing (the game could not
            take its next deal)."""
            state = self._pipe.checker.games.get(first.get("game", "")) if self._pipe is not None else None
            why = state.unfinished() if state is not None and state.deal is not None and \
                state.deal.number == deal else None
            return [Problem("<line>", None, None, "line", f"{why}: a line is a whole deal; say how it ended",
                            code="line-unfinished")] if why else []

        return self.record(events, expect_seq=expect_seq, source="<line>", then=whole if deal is not None else None)


def _table_of(checker: LogChecker | None, game: str | None, where: str) -> Table:
    """``game``'s :class:`Table` (by default the one game under way), or :class:`UnknownName` saying why not."""
    games = list(checker.games) if checker is not None else []
    if game is None:
        if not games:
            raise UnknownName(f"{where}no game is under way (every game of the log has ended, or it has none): "
                              "start one first (vistlog serve, or a game_started through vistlog append)")
        if len(games) > 1:
            raise UnknownName(f"{where}{len(games)} games are under way; name one ({', '.join(games)})")
        game = games[0]
    table = checker.table(game) if checker is not None else None
    if table is None:
        raise UnknownName(f"{where}game {game!r} is not under way" + (f" (under way: {', '.join(games)})" if games
                                                                      else ""))
    return table


def deal_lines(events: Iterable[Event | Mapping[str, Any]], skipped: Callable[[str], None] | None = None,
               lang: str = "en") -> Iterator[str]:
    """One game's events (in log order) as lines of the deal notation: one deal a line (a deal
    played card by card with the tricks its cards give), and ``void N`` where a deal was voided.
    A deal the notation does not write (one with an ``allocation``) raises
    :class:`~vistlog.events.notation.NotationError`, or is told to ``skipped`` and left out.
    ``lang="ru"`` writes the notation's Russian words (``vistlog deal`` reads both).

    >>> next(deal_lines(game_events("samples/sochi-evening.jsonl")))
    'dealer Аня; raspas; Боря 0, Вова 3, Аня 7'
    >>> next(deal_lines(game_events("samples/sochi-evening.jsonl"), lang="ru"))
    'сдаёт Аня; распасы; Боря 0, Вова 3, Аня 7'
    """
    items = [unstructure(ev) if not isinstance(ev, Mapping) else _plain(ev) for ev in events]
    if not items:
        return iter(())
    with_tricks = derive_tricks(ImportedGame(str(items[0].get("game", "")), items, "<events>"))
    return game_lines(with_tricks.events, skipped, lang)


def input_lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """The non-blank lines of an input of events (``vistlog append``'s standard input), read at most
    ``MAX_LINE`` bytes at a time: ``(line number, line)``, the line ``None`` when it is longer (its rest
    is read past in pieces, never held).

    >>> list(input_lines(io.BytesIO(b'{"a":1}\\n\\n{"b":2}')))
    [(1, b'{"a":1}'), (3, b'{"b":2}')]
    """
    for lineno, line, _ in read_lines(stream):
        yield lineno, line or None


def _key(key: bytes | None, key_file: str | os.PathLike[str] | None) -> bytes | None:
    if key is not None and key_file is not None:
        raise VistlogError("give key or key_file, not both")
    return read_key(os.fspath(key_file)) if key_file is not None else key


def append(path: str | os.PathLike[str], events: Iterable[Event | Mapping[str, Any] | ImportedGame], *,
           key: bytes | None = None, key_file: str | os.PathLike[str] | None = None,
           lines: Sequence[int] | None = None, source: str = "<events>",
           warn: Callable[[str], None] | None = None) -> list[Event]:
    """Append events to a log, each checked against the game so far, all or none, hash-chained.

    ``events`` are event objects, JSON-like dicts or the games :func:`load` gives; those
    without ``seq`` get the next ones. With ``key`` (or ``key_file``, a file holding the secret)
    the new lines carry a keyed chain (``_mac``). ``lines`` gives each event's line number in
    ``source`` (what problems cite; default 1, 2, …); ``warn`` hears what append repaired on the
    way (a torn last line). Returns the events written; raises
    :class:`~vistlog.events.log.AppendRejected` (with ``problems``) when any is refused, and then
    the log is exactly as it was; :class:`~vistlog.output.OutputError` when the file cannot be written.

    >>> import tempfile
    >>> log = os.path.join(tempfile.mkdtemp(), "club.jsonl")
    >>> (game,) = load("samples/sochi-protocol.csv", "csv")
    >>> written = append(log, [game])
    >>> written[0].seq, written[-1].seq, verify(log).status
    (1, 176, 'ok')
    """
    target = os.fspath(path)
    secret = _key(key, key_file)
    items = [unstructure(ev) if not isinstance(ev, Mapping) else _plain(ev) for ev in _flat(events)]
    if lines is not None and len(lines) != len(items):
        raise VistlogError(f"lines: {len(lines)} line numbers for {len(items)} events")
    numbered = list(zip(lines if lines is not None else range(1, len(items) + 1), items))
    try:
        return _append(target, numbered, lambda: Pipeline(target, detail=False).check, source_name=source,
                       warn=warn, key=secret)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write ({exc.strerror or exc})") from None


def verify(path: str | os.PathLike[str], head: str | None = None, *, key: bytes | None = None,
           key_file: str | os.PathLike[str] | None = None) -> VerifyResult:
    """Walk a log's hash chain (``status``: ``ok``, ``broken``, ``unchained``, ``keyed`` or
    ``ambiguous``); ``head``, kept from an earlier verify, proves that no line was cut from the
    end since; ``key`` (or ``key_file``) proves a keyed chain's ``_mac`` lines.

    >>> verify("samples/sochi-evening.jsonl").status  # written by hand: no chain to prove
    'unchained'
    """
    target = os.fspath(path)
    secret = _key(key, key_file)
    try:
        return _verify(target, head, secret)
    except OSError as exc:
        raise LogUnreadable(f"{target}: cannot read ({exc.strerror or exc})") from None


def load(source: str | os.PathLike[str] | bytes, format: str, *, name: str | None = None) -> list[ImportedGame]:
    """Read a file of another program (``format`` one of :data:`FORMATS_IN`) into games of events.

    Each game's ``events`` are dicts without ``seq``: :func:`read_games` reads the games as they
    are, and :func:`append` writes them (each checked only then). Raises
    :class:`~vistlog.events.importers.SourceError` for a source that is not of that format.

    >>> (game,) = load("samples/sochi-protocol.csv", "csv")
    >>> dict(next(read_games([game])).settlement().rounded)
    {'Аня': -577, 'Боря': 115, 'Вова': 462}
    """
    if format not in IMPORTERS:
        raise UnknownName(f"no importer for {format!r} (formats: {', '.join(IMPORTERS)})")
    if isinstance(source, bytes):
        return IMPORTERS[format](name or "<bytes>", source)
    path = os.fspath(source)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot open ({exc.strerror or exc})") from None
    return IMPORTERS[format](name or path, data)


def dump(events: Iterable[Event | Mapping[str, Any] | ImportedGame], format: str) -> str:
    """Write one game's events in another program's format (one of :data:`FORMATS_OUT`).

    >>> print(dump(load("samples/sochi-protocol.csv", "csv"), "csv").splitlines()[0])
    # game: sochi-2026-11-28
    """
    if format not in FORMATS_OUT:
        raise UnknownName(f"no exporter for {format!r} (formats: {', '.join(FORMATS_OUT)})")
    dicts = [dict(ev) if isinstance(ev, Mapping) else unstructure(ev) for ev in _flat(events)]
    if format in _FOLDED_EXPORTERS:  # formats that carry the scores: the game is folded first
        games = list(read_games([{**d, "seq": i} for i, d in enumerate(dicts, start=1)]))
        if len(games) != 1 or games[0].problems:
            why = "; ".join(str(p) for p in (games[0].problems if games else ())[:3]) or "not one game"
            raise SourceError(f"cannot write {format}: {why}")
        return _FOLDED_EXPORTERS[format](result_of(games[0]))
    for d in dicts:
        d.pop("_chain", None)
        d.pop("_mac", None)
    game = str(dicts[0].get("game", "")) if dicts else ""
    return EXPORTERS[format](list(derive_tricks(ImportedGame(game, dicts, "<events>")).events))


def cannot_carry(events: Iterable[Event | Mapping[str, Any] | ImportedGame], format: str) -> list[str]:
    """What of a game :func:`dump` cannot write in ``format``, counted (empty: the format keeps it all).

    >>> cannot_carry(game_events("samples/corrected-deal.jsonl"), "csv")
    ['14 bid(s) (the auction)', '1 voided record(s) (only the record that stands is written)']
    """
    if format not in FORMATS_OUT:
        raise UnknownName(f"no exporter for {format!r} (formats: {', '.join(FORMATS_OUT)})")
    return _cannot_carry([dict(ev) if isinstance(ev, Mapping) else unstructure(ev) for ev in _flat(events)], format)


def game_events(source: str | os.PathLike[str], game: str | None = None) -> list[Event]:
    """The events of one game of a log (``game``, or the only one), for :func:`dump`.

    Streams the log and keeps only that game's events. Raises :class:`LogProblems` when the log
    has a problem, and :class:`VistlogError` when ``game`` is not in it, or when it holds several
    games and none is named.

    >>> len(game_events("samples/sochi-evening.jsonl"))
    284
    """
    path = os.fspath(source)
    names: dict[str, None] = {}
    kept: list[Event] = []
    problems: list[Problem] = []
    wanted = game
    for _, item in read_events(path):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        names.setdefault(item.game, None)
        if wanted is None:
            wanted = item.game  # no game named: the first one (several are refused below)
        if item.game == wanted:
            kept.append(item)
    if problems:
        raise LogProblems(path, problems)
    if game is not None and game not in names:
        raise UnknownName(f"{path}: no game {game!r}{nearest(game, names)} (games: {', '.join(names) or 'none'})")
    if game is None and len(names) != 1:
        raise VistlogError(f"{path} holds {len(names)} games: name one with --game (game= here): "
                           f"{', '.join(names) or 'none'}")
    return kept
