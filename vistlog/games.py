"""Reading a log into games: each :class:`Game` gives its sheet after any deal, its settlement, audit,
analysis and story (the renderers, the audit and the solver are imported only when asked for).

>>> games = read_games("samples/sochi-evening.jsonl")
>>> game = next(games)
>>> game.id, game.players, game.variant, game.preset, game.sound
('sochi-2026-11-28', ('Аня', 'Боря', 'Вова'), 'preferans', 'sochi', True)
>>> game.sheet(after_deal=6).value("Вова", "mountain")
19
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import IO, TYPE_CHECKING, Any, cast

import attrs

from vistlog.events.plain import Plain

from vistlog.events.codec import DecodeError, check_depth, decode_obj, loads_line
from vistlog.events.cards import GameKind
from vistlog.events.importers import ImportedGame
from vistlog.events.log import (
    open_source, problem_of,
    read_events,
)
from vistlog.events.model import Event
from vistlog.events.problems import Problem, UnknownName, VistlogError
from vistlog.events.text import nearest
from vistlog.events.rules import Rules
from vistlog.events.entries import Num, Totals
from vistlog.projections.fold import GameResult, fold_events, run

from .given import flat, plain

__all__ = ["Game", "GameReader", "Sheet", "Settlement", "LogProblems", "GameName", "game_names", "PresetName",
           "preset_names", "kind_names",
           "Kind", "kind_name", "Source", "read_games", "check_log", "open_log", "parse_line",
           "game_events", "result_of", "nearest"]

if TYPE_CHECKING:  # imported by the methods that use them: reading a log needs no renderer, audit or solver
    from vistlog.projections.analysis import GameAnalysis
    from vistlog.projections.audit import AuditReport
    from vistlog.projections.odds import SingleDummy
    from vistlog.projections.words import Lang



GameName = str
"""A game's name as vistlog registers it (``preferans``, ``solo_whist``, ``serbian``, or one registered since):
:func:`game_names` lists them."""


PresetName = str
"""A preset's name: the named set of rules a ``game_started`` plays by (``sochi``, ``encyclopedia``…):
:func:`preset_names` lists them."""


Kind = str
"""The kind of log, as ``game_started.kind`` spells it (Serbian preferans is of the kind ``preferans``)."""


def game_names() -> tuple[GameName, ...]:
    """Every game registered now, by name (the built-in ones first; a game registered later joins them).

    >>> game_names()[:3]
    ('preferans', 'solo_whist', 'serbian')
    """
    from vistlog.events.variants import VARIANTS

    return tuple(VARIANTS)


def kind_names() -> tuple[Kind, ...]:
    """Every kind of log registered now, as ``game_started.kind`` spells it.

    >>> kind_names()[:2]
    ('preferans', 'solo_whist')
    """
    return GameKind.known()


def preset_names() -> tuple[PresetName, ...]:
    """Every preset registered now, in the order ``vistlog rules`` lists them.

    >>> preset_names()[:2]
    ('sochi', 'leningrad')
    """
    from vistlog.events.rules import PRESETS

    return tuple(PRESETS)


def kind_name(kind: GameKind) -> Kind:
    """A log's kind as the log, the command line and the JSON outputs spell it.

    >>> kind_name(GameKind.SOLO_WHIST)
    'solo_whist'
    """
    return kind.value


Source = str | os.PathLike[str] | IO[bytes] | Iterable[Event | Mapping[str, Any] | ImportedGame]
"""What :func:`read_games` reads: a path (``-`` is standard input), a binary stream, or events
(event objects, JSON-like dicts, or the games :func:`load` gives)."""


class LogProblems(VistlogError):
    """A log that has problems where a whole, sound log is needed; ``problems`` lists them."""

    code = "log-problems"

    def __init__(self, path: str, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(f"{path}: {len(self.problems)} problem(s); fix them before exporting")


def _frozen(d: Mapping[Any, Num]) -> Mapping[Any, Num]:
    return MappingProxyType(dict(d))


@attrs.frozen(repr=False, eq=False)
class Sheet(Plain):
    """The score sheet (пулька) after a deal: every column's total, read-only, keyed by the columns the game
    declares (:attr:`columns`, in the order its sheet shows them).

    ``sheet[column]`` maps each player to his number, or in a paired column (whists, soups) each ``(writer, on)``
    to what the writer wrote on the other; :meth:`value` reads one number and :meth:`pairs_by` one writer's row;
    :attr:`times` counts the columns written for every player at once (Serbian refe drawn).

    >>> s = next(read_games("samples/sochi-evening.jsonl")).sheet(after_deal=6)
    >>> s.after_deal, s.value("Вова", "mountain"), s.pairs_by("whists", "Аня"), s.columns
    (6, 19, {'Боря': 8, 'Вова': 4}, ('pool', 'mountain', 'whists'))
    >>> s["pool"]["Аня"]
    4
    """

    players: tuple[str, ...]
    after_deal: int
    totals: Mapping[str, Mapping[Any, Num]] = attrs.field(
        converter=lambda d: MappingProxyType({c: _frozen(v) for c, v in d.items()}))
    """Every column's numbers, by column name."""
    paired: frozenset[str] = frozenset()
    """The columns written by one player on another."""
    times: Mapping[str, int] = attrs.field(default={}, converter=_frozen)
    """How many times each counted column was written for every player at once (Serbian: ``refe``)."""

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns this game writes, in the order its sheet shows them (``pool``, ``mountain``, ``whists``;
        ``points``; ``bula``, ``soups``, ``refe``): the game's scoring declares them."""
        return tuple(self.totals)

    @classmethod
    def _of(cls, t: Totals, after_deal: int) -> Sheet:
        return cls(tuple(t.players), after_deal, {c: t[c] for c in t.columns}, t.paired, t.times)

    def __getitem__(self, column: str) -> Mapping[Any, Num]:
        """One column's numbers (an unknown column raises :class:`UnknownName`)."""
        try:
            return self.totals[column]
        except KeyError:
            raise UnknownName(f"no column {column!r} (columns: {', '.join(self.columns)})") from None

    def value(self, player: str, column: str, on: str | None = None) -> Num:
        """One number: ``player``'s in ``column``, or in a paired column (``whists``, ``soups``) what ``player``
        wrote on ``on``. An unknown name raises :class:`VistlogError`."""
        if player not in self.players or (on is not None and on not in self.players):
            raise UnknownName(f"no player {player if player not in self.players else on!r} "
                               f"(players: {', '.join(self.players)})")
        held = self[column]
        if column in self.paired:
            if on is None:
                raise VistlogError(f"{column} are written on a player: give on=")
            return held.get((player, on), 0)
        return held.get(player, 0)

    def pairs_by(self, column: str, writer: str) -> dict[str, Num]:
        """What ``writer`` wrote on each other player in a paired column, in seating order (zeros left out)."""
        held = self[column]
        if column not in self.paired:
            paired = ", ".join(c for c in self.columns if c in self.paired) or "none"
            raise VistlogError(f"{column} is not written on a player (paired columns: {paired})")
        return {p: held[(writer, p)] for p in self.players if held.get((writer, p))}


def _payments(items: Sequence[Mapping[str, str]] | None) -> tuple[Mapping[str, str], ...] | None:
    return None if items is None else tuple(MappingProxyType(dict(x)) for x in items)


def _frozen_or_none(d: Mapping[str, str] | None) -> Mapping[str, str] | None:
    return None if d is None else MappingProxyType(dict(d))


@attrs.frozen(repr=False, eq=False)
class Settlement(Plain):
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
        """``preferans`` (Russian or Serbian) or ``solo_whist``, as the log spells it."""
        if self._result is None:
            raise VistlogError(f"game {self.id} never started: it has no kind")
        return kind_name(self._result.kind)

    @property
    def variant(self) -> GameName:
        """The game: ``preferans``, ``solo_whist`` or ``serbian``."""
        if self._result is None:
            raise VistlogError(f"game {self.id} never started: it has no variant")
        return self._result.variant

    @property
    def preset(self) -> PresetName:
        """The preset the game plays: ``sochi``, ``leningrad``, ``rostov``, ``classic``, ``encyclopedia`` (Solo
        Whist) or ``serbian``."""
        return self.rules.preset

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
        """The sheet (the columns the game declares: pool, mountain, whists; points; …) after ``after_deal``, or
        at the end.

        >>> g = next(read_games("samples/solo-whist-evening.jsonl"))
        >>> g.sheet(after_deal=1).value("Маша", "points")
        24
        """
        r = self._result
        if r is None:
            return Sheet._of(Totals((), ()), 0)
        return Sheet._of(r.totals_after(after_deal), r.deals if after_deal is None else min(after_deal, r.deals))

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
        from vistlog.projections.audit import ClaimError, audit, read_claimed

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
                 deals: Container[int] | None = None, progress: Callable[..., None] | None = None,
                 single_dummy: SingleDummy | None = None, budget: float | None = None) -> GameAnalysis:
        """The open-hand analysis: each played deal with its hands recorded solved double-dummy (a contract's
        side; a raspas, each player for himself), card by card where the cards are recorded
        (:mod:`vistlog.projections.analysis`); ``discards``: every discard tried too; ``engine``: ``python``
        or ``compiled`` (default: the compiled solver when built); ``deals``: only these deals (by number);
        ``progress``: called with the deals solved, to solve and how the solved were answered (``exact``,
        ``range``, ``undecided``: a count each); ``single_dummy``: also weigh each whist call and opening lead
        with the cards its player could not see (:class:`SingleDummy`: samples and seed; each deal's
        :attr:`~vistlog.projections.analysis.DealAnalysis.decisions`); ``budget``: seconds of search a deal may
        take (``None``: every count exact; :func:`~vistlog.projections.analysis.default_budget` is the CLI's),
        the contract's fate asked first and a proven range where a count runs past it.

        >>> game = next(read_games("samples/classic-bombs.jsonl"))
        >>> deal = game.analysis().deals[1]
        >>> deal.deal, deal.value, [(m.player, str(m.card)) for m in deal.mistakes]
        (7, 5, [('Восток', 'KS')])
        """
        from vistlog.projections.analysis import analyse

        return analyse(self._needs_detail("analysis"), discards=discards, engine=engine, deals=deals,
                       progress=progress, single_dummy=single_dummy, budget=budget)

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
        from vistlog.projections.replay import replay_lines

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
        from vistlog.projections import render

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
    vistlog.events.problems.LogUnreadable: samples/: is a folder, not a log file
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


def _decoded(label: str, events: Iterable[Event | Mapping[str, Any] | ImportedGame]
             ) -> Iterator[tuple[int, Event | Problem]]:
    seq = 0
    for n, ev in enumerate(flat(events), start=1):
        if isinstance(ev, Mapping):
            try:
                data = plain(ev)
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
