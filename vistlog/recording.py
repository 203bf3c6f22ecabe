"""Writing a log: :class:`Checker` checks events one at a time, :class:`Recorder` records a deal at the table
(in one line of the notation), :func:`append` and :func:`verify` keep the tamper-evident chain.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

import attrs

from vistlog.events.codec import DecodeError, decode_obj, loads_line, unstructure
from vistlog.events.importers import ImportedGame
from vistlog.events.importers.jsonl import derive_tricks
from vistlog.events.log import (
    MAX_LINE,
    LogUnreadable, LogWriter, VerifyResult, committed_size, problem_of,
    read_key, read_lines, split_chain,
)
from vistlog.events.log import append as _append
from vistlog.events.log import verify as _verify
from vistlog.events.model import Event
from vistlog.events.problems import Issue, Problem, UnknownName, VistlogError
from vistlog.events.checker import LogChecker
from vistlog.events.draft import DealDraft, DraftError, read_draft
from vistlog.events.game import Table
from vistlog.events.nextstep import Next
from vistlog.events.notation import NotationError, game_lines
from vistlog.events.notation import parse_line as parse_notation

from .output import OutputError
from .given import flat, plain

if TYPE_CHECKING:
    from vistlog.projections.live import LiveFold

__all__ = ["Checker", "IllegalEventError", "Recorder", "deal_lines", "input_lines", "append", "verify", "MAX_LINE",
           "Next", "DealDraft", "DraftError", "read_draft"]



class IllegalEventError(VistlogError):
    """:meth:`Checker.push` refused an event; ``problems`` says why (nothing was applied)."""

    code = "illegal-event"

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


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
    vistlog.recording.IllegalEventError: <events>: seq 3: player: it is A's turn to bid, not B's
    """

    def __init__(self, name: str = "<events>") -> None:
        self._checker = LogChecker()
        self._name = name
        self._seq = 0
        self._history: list[Event] = []

    def _event(self, ev: Event | Mapping[str, Any], seq: int | None = None) -> Event | Problem:
        if not isinstance(ev, Mapping):
            return ev
        data = plain(ev)
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
        return [self._problem(event, i) for i in trial.admit(event)]

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
            issues = [self._problem(event, i) for i in self._checker.admit(event)]
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
        return _table_of(self._checker, game, "")

    def _rebuild(self) -> None:
        self._checker = self._replayed()

    def _replayed(self) -> LogChecker:
        checker = LogChecker()
        for event in self._history:
            checker.admit(event)
        return checker

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
                 key_file: str | os.PathLike[str] | None = None, warn: Callable[[str], None] | None = None,
                 wait: float | None = None, live: bool = False) -> None:
        """``live``: fold the log as it is read and written (:attr:`live`, what the score pad shows), by the
        one checker every record goes through."""
        self.path = os.fspath(path)
        self._checker: LogChecker | None = None
        self.live: LiveFold | None = None
        """With ``live``: the log folded by this recorder's own checks (:meth:`LiveFold.update` reads what
        others appended)."""
        self._guard: Any = contextlib.nullcontext()
        if live:
            from vistlog.projections.live import LiveFold  # the read side, only for a live view

            self.live = LiveFold(self.path, key=_key(key, key_file), warn=warn, wait=wait)
            self._writer = self.live.writer
            self._guard = self.live.guard  # the fold's readers may try steps on the state: one at a time
        else:
            def make() -> LogChecker:
                self._checker = LogChecker()
                return self._checker

            self._writer = LogWriter(self.path, make_sink=make, key=_key(key, key_file), warn=warn, wait=wait)

    def refresh(self) -> bool:
        """Read what other writers appended since the last look; True when anything was new. A look takes no
        lock and never changes the file (an append under way is not seen until it has finished)."""
        try:
            return self._writer.refresh()
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot read ({exc.strerror or exc})") from None

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next event gets (as of the last look)."""
        return self._writer.next_seq

    @property
    def position(self) -> str:
        """Where the last look left the log, as a token a record can be made conditional on (``expect_at``):
        it changes with every append, and when the file is replaced or rewritten in place."""
        return self._writer.position

    def games(self) -> list[str]:
        """The games under way in the log, in the order they started."""
        self.refresh()
        with self._guard:
            live = self._live()
            return live.under_way() if live is not None else []

    def _live(self) -> LogChecker | None:
        """The checker of the log as last read (None before the log was read)."""
        return self.live.pipe.checker if self.live is not None else self._checker

    def tables(self) -> dict[str, Table]:
        """Every game under way and where it stands, after one look at the log."""
        self.refresh()
        with self._guard:
            live = self._live()
            return {g: _table_of(live, g, "") for g in live.under_way()} if live is not None else {}

    def table(self, game: str | None = None) -> Table:
        """Where ``game`` (by default the one game under way) stands; see :class:`Table`."""
        self.refresh()
        with self._guard:
            return _table_of(self._live(), game, f"{self.path}: ")

    def record(self, events: Iterable[Event | Mapping[str, Any]], *, expect_seq: int | None = None,
               source: str = "<pad>", then: Callable[[], list[Issue]] | None = None,
               expect_at: str | None = None) -> list[Event]:
        """Check and append events (dicts without ``seq`` get the next ones), all or none; ``then`` says what
        else is wrong once they have all passed (see :meth:`~vistlog.events.log.LogWriter.append`);
        ``expect_seq``/``expect_at``: only if the log's next ``seq`` is that, and it is at that
        :attr:`position` (:class:`~vistlog.events.log.AppendConflict` otherwise)."""
        items = [unstructure(ev) if not isinstance(ev, Mapping) else plain(ev) for ev in events]
        try:
            return self._writer.append([(None, item) for item in items], source, expect_seq=expect_seq, then=then,
                                       expect_at=expect_at)
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def next_step(self, game: str | None = None, line: str = "", *, declarer: str | None = None,
                  contract: str | None = None, all_pass: bool = False, auction: bool = False,
                  draft: DealDraft | None = None) -> Next:
        """What may come next in ``game`` (see :func:`~vistlog.events.nextstep.next_step`), with ``line`` (the
        deal being composed, in the notation, possibly unfinished) as its draft, and what the form chose that
        the draft cannot say yet (``declarer``, ``contract``, ``all_pass``; ``auction``: the bids too). A draft that
        does not read gives the choices without it and its problem (``code`` ``notation-invalid``). ``draft``: the
        deal being composed as data (:class:`~vistlog.events.draft.DealDraft`, what a page sends) in place of a line.

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
        with self._guard:
            return self._next_step(game, line, declarer, contract, all_pass, auction, draft)

    def _next_step(self, game: str | None, line: str, declarer: str | None, contract: str | None, all_pass: bool,
                   auction: bool, draft: DealDraft | None) -> Next:
        live = self._live()
        if live is not None and game is not None and game in live.ended:
            return Next("over", 0, why="game_ended was recorded", adjust=False)
        table = _table_of(live, game, f"{self.path}: ")
        assert live is not None
        try:
            events = draft.events(table) if draft is not None else parse_notation(line, table) if line.strip() else []
        except NotationError as exc:
            return attrs.evolve(live.next_step(table.game, declarer=declarer, contract=contract, all_pass=all_pass,
                                               auction=auction), problem=Issue(exc.code, "line", str(exc)))
        return live.next_step(table.game, events, declarer=declarer, contract=contract, all_pass=all_pass,
                              auction=auction)

    def parse(self, line: str, game: str | None = None) -> list[dict[str, Any]]:
        """The events a line of the deal notation stands for (``docs/notation.md``), unchecked."""
        return parse_notation(line, self.table(game))

    def record_line(self, line: str, *, game: str | None = None, expect_seq: int | None = None,
                    stamp: Mapping[str, str] | None = None, expect_at: str | None = None) -> list[Event]:
        """Record one deal written in one line (or ``void N``, ``end``); ``stamp`` adds envelope
        fields (``at``, ``by``) to every event."""
        if expect_seq is not None or expect_at is not None:
            self.refresh()  # a line is read for the log the page saw, or not at all
            self._writer.stale(expect_seq, expect_at)
        with self._guard:
            events = self.parse(line, game)
        return self._record_deal(events, expect_seq, stamp, expect_at, "<line>")

    def record_deal(self, draft: DealDraft, *, game: str | None = None, expect_seq: int | None = None,
                    stamp: Mapping[str, str] | None = None, expect_at: str | None = None) -> list[Event]:
        """Record one deal sent as data (:class:`~vistlog.events.draft.DealDraft`: what a page composes by taps),
        a whole deal or nothing; ``stamp`` as :meth:`record_line`."""
        if expect_seq is not None or expect_at is not None:
            self.refresh()
            self._writer.stale(expect_seq, expect_at)
        with self._guard:
            events = draft.events(self.table(game))
        return self._record_deal(events, expect_seq, stamp, expect_at, "<pad>")

    def _record_deal(self, events: list[dict[str, Any]], expect_seq: int | None, stamp: Mapping[str, str] | None,
                     expect_at: str | None, source: str) -> list[Event]:
        if stamp:
            events = [{**ev, **stamp} for ev in events]
        first = next((ev for ev in events if ev.get("type") == "deal_started"), {})
        deal = first.get("deal")

        def whole() -> list[Issue]:
            """A line is a whole deal: one that leaves its deal unfinished writes nothing (the game could not
            take its next deal)."""
            checker = self._live()
            why = checker.open_deal(first.get("game", ""), deal) if checker is not None else None
            return [Issue("line-unfinished", "line", f"{why}: a line is a whole deal; say how it ended")] if why else []

        return self.record(events, expect_seq=expect_seq, source=source, then=whole if deal is not None else None,
                           expect_at=expect_at)


def _table_of(checker: LogChecker | None, game: str | None, where: str) -> Table:
    """``game``'s :class:`Table` (by default the one game under way), or :class:`UnknownName` saying why not."""
    games = checker.under_way() if checker is not None else []
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

    >>> from vistlog.games import game_events
    >>> next(deal_lines(game_events("samples/sochi-evening.jsonl")))
    'dealer Аня; raspas; Боря 0, Вова 3, Аня 7'
    >>> next(deal_lines(game_events("samples/sochi-evening.jsonl"), lang="ru"))
    'сдаёт Аня; распасы; Боря 0, Вова 3, Аня 7'
    """
    items = [unstructure(ev) if not isinstance(ev, Mapping) else plain(ev) for ev in events]
    if not items:
        return iter(())
    with_tricks = derive_tricks(ImportedGame(str(items[0].get("game", "")), items, "<events>"))
    return game_lines(with_tricks.events, skipped, lang)


def input_lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """The non-blank lines of an input of events (``vistlog append``'s standard input), read at most
    ``MAX_LINE`` bytes at a time: ``(line number, line)``, the line ``None`` when it is longer (its rest
    is read past in pieces, never held).

    >>> import io
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
    >>> from vistlog.formats import load
    >>> (game,) = load("samples/sochi-protocol.csv", "csv")
    >>> written = append(log, [game])
    >>> written[0].seq, written[-1].seq, verify(log).status
    (1, 176, 'ok')
    """
    target = os.fspath(path)
    secret = _key(key, key_file)
    items = [unstructure(ev) if not isinstance(ev, Mapping) else plain(ev) for ev in flat(events)]
    if lines is not None and len(lines) != len(items):
        raise VistlogError(f"lines: {len(lines)} line numbers for {len(items)} events")
    numbered = list(zip(lines if lines is not None else range(1, len(items) + 1), items))
    try:
        return _append(target, numbered, lambda: LogChecker().admit, source_name=source,
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


_TAIL_STEP = 1 << 16


def next_seq_of(path: str | os.PathLike[str]) -> int:
    """The ``seq`` the log's next event gets, read from its last event alone (1 for no log), without any lock:
    what the score pad answers ``/api/version`` with, however long the log and whatever is writing to it. An
    append under way is not seen until it has finished; a last line still being written is passed over."""
    try:
        fd = os.open(os.fspath(path), os.O_RDONLY)
    except FileNotFoundError:
        return 1
    try:
        end = committed_size(os.fspath(path), fd)
        rest = b""
        pos = end
        looked = 0
        while pos > 0 and looked <= MAX_LINE + _TAIL_STEP:
            start = max(0, pos - _TAIL_STEP)
            rest = os.pread(fd, pos - start, start) + rest
            looked += pos - start
            pos = start
            lines = rest.split(b"\n")
            for line in reversed(lines[1:] if pos > 0 else lines):
                seq = _seq_of(line)
                if seq is not None:
                    return seq + 1
            rest = lines[0] if pos > 0 else b""
        return 1
    finally:
        os.close(fd)


def _seq_of(line: bytes) -> int | None:
    """The ``seq`` of one line when it is a whole event (else None), as a writer's replay reads it."""
    if not line.strip():
        return None
    try:
        event = decode_obj(loads_line(split_chain(line.removeprefix(b"\xef\xbb\xbf").rstrip(b" \t\r"))[0]))
    except (DecodeError, ValueError):
        return None
    return event.seq


def log_chunks(path: str | os.PathLike[str], size: int = 1 << 16) -> tuple[int, Iterator[bytes]]:
    """The log as it stands now (its length, and its bytes ``size`` at a time), read without a lock and never
    held whole: what the score pad's download streams. Raises ``FileNotFoundError`` when there is no log."""
    fh = open(os.fspath(path), "rb")  # noqa: SIM115 - closed by the generator below
    length = committed_size(os.fspath(path), fh.fileno())

    def chunks() -> Iterator[bytes]:
        with fh:
            left = length
            while left > 0:
                data = fh.read(min(size, left))
                if not data:
                    return
                left -= len(data)
                yield data

    return length, chunks()
