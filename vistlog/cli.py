"""The ``vistlog`` command: argument parsing and wiring, no game logic.

It is a client of the public API like any other: it imports :mod:`vistlog.api`,
:mod:`vistlog.views` and :mod:`vistlog.archive` (and its own output helpers), never the floors below.

Exit codes (docs/cli.md): 0 done / everything holds; 1 the input is readable but something is
wrong (an invalid event, an audit mismatch, a broken chain); 2 usage error or input that
cannot be read at all; 3 ``verify`` only: the log has no hash chain.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson

from . import archive, build, views
from .api import (
    MAX_LINE, SOLVER_COMPILED, AppendRejected, ClaimError, DecodeError, Game, LogProblems, LogUnreadable,
    NotationError, Problem, Next, Recorder, SourceError, UnknownName, VistlogError, analysis_json, append,
    cannot_carry, check_log, deal_lines, dump, game_events, input_lines, nearest, open_log, parse_line, read_games,
    verify,
)
from .output import OutputError, Progress, Streamed, dumps, open_output, write_file, write_json

__all__ = ["main"]

RAISE_INTERNAL_ERRORS = False
"""Tests set this so an internal error fails them instead of becoming a one-line message."""

EXAMPLES = """\
examples (from the folder that holds samples/; each works as written):
  vistlog validate samples/sochi-evening.jsonl
  vistlog sheet samples/sochi-evening.jsonl --upto 5
  vistlog settle samples/sochi-evening.jsonl --format json
  vistlog audit samples/disputed-sheet.jsonl
  vistlog replay samples/classic-bombs.jsonl --upto 3
  vistlog analyse samples/classic-bombs.jsonl            # which card cost a trick, and what in whists
  vistlog append my-game.jsonl < samples/classic-bombs.jsonl
  vistlog verify my-game.jsonl
  vistlog settle samples/ --jobs 2                       # every *.jsonl below samples/
  vistlog sheet samples/classic-bombs.jsonl --format html -o sheet.html
  vistlog import --from csv samples/sochi-protocol.csv -o club.jsonl
  vistlog export --to pbn samples/solo-whist-evening.jsonl
  vistlog stats samples/
  vistlog rules leningrad
"""


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")


_HEX_PREFIX = re.compile(r"[0-9a-fA-F]{8,64}")


def _version() -> str:
    try:
        return importlib.metadata.version("vistlog")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _err(text: str) -> None:
    sys.stderr.write(text + "\n")


def _results(path: str, on_problem: Callable[[Problem], None], strict: bool = False
             ) -> Iterator[object]:
    """Run a log through the pipeline; problems go to ``on_problem`` as they are found."""
    stream = Progress(open_log(path), path)
    try:
        for item in check_log(stream.source(), name=path):
            if isinstance(item, Problem):
                on_problem(item)
                if strict:
                    return
            else:
                yield item
    finally:
        stream.close()


class _Problems:
    """Collects problems and prints each one line to stderr (or stdout for ``validate``)."""

    def __init__(self, to_stdout: bool = False) -> None:
        self.count = 0
        self.to_stdout = to_stdout

    def __call__(self, p: Problem) -> None:
        self.count += 1
        (_out if self.to_stdout else _err)(str(p))


class _UsageError(Exception):
    """A usage error found after parsing (exit 2)."""


# --------------------------------------------------------------------------- commands

def cmd_validate(args: argparse.Namespace) -> int:
    """vistlog validate: check every event of every log; list every problem."""
    if args.format == "json" and args.strict:
        raise _UsageError("--strict stops at the first problem as text; leave it out with --format json")
    if args.format == "json" or (_batch_mode(args) and not args.strict and "-" not in args.logs):
        return cmd_batch(args, "validate")
    code = 0
    for path in archive.find_logs(args.logs):
        problems = _Problems(to_stdout=True)
        games = 0
        try:
            for _ in _results(path, problems, strict=args.strict):
                games += 1
        except LogUnreadable as exc:
            _err(str(exc))
            code = 2
            if args.strict:
                break
            continue
        if problems.count:
            code = max(code, 1)
        _verdict(path, problems.count, games, args.quiet, stopped=args.strict)
        if problems.count and args.strict:
            break
    return code


def _verdict(path: str, problems: int, games: int, quiet: bool, stopped: bool = False) -> None:
    """``validate``'s last word on a readable log, on standard error."""
    if problems:
        _err(f"{path}: {problems} problem(s)" + (" (stopped at the first)" if stopped else ""))
    elif not quiet:
        _err(f"{path}: ok, {games} game(s)")


class _Games:
    """The games of ``args.log`` (only ``args.game`` when given), streamed in the order they
    started, each as soon as it and every game started before it have ended; problems are
    printed on standard error as their game comes out. ``count`` is the number of problems."""

    def __init__(self, args: argparse.Namespace, detail: bool = True, events: bool = True) -> None:
        self.log = args.log
        self.keep = args.game
        self.detail = detail
        self.events = events
        self.problems = _Problems()
        self.seen: list[str] = []

    @property
    def count(self) -> int:
        return self.problems.count

    def __iter__(self) -> Iterator[Game]:
        stream = Progress(open_log(self.log), self.log)
        waiting: dict[int, Game] = {}
        due = 0
        found = False
        try:
            reader = read_games(stream.source(), name=self.log, detail=self.detail, events=self.events)
            for g in reader:
                if not g.started:  # at the end of the log: every game that started has come out
                    for p in g.problems:
                        self.problems(p)
                    continue
                waiting[g.place] = g
                while due in waiting:
                    ready = waiting.pop(due)
                    due += 1
                    for p in ready.problems:
                        self.problems(p)
                    self.seen.append(ready.id)
                    if self.keep is None or ready.id == self.keep:
                        found = True
                        yield ready
            for p in reader.problems:
                self.problems(p)
        finally:
            stream.close()
        if self.keep is not None and not found:
            raise _UsageError(f"{self.log}: no game {self.keep!r}{nearest(self.keep, self.seen)} "
                              f"(games: {', '.join(self.seen) or 'none'})")


def _games(args: argparse.Namespace, events: bool = True) -> tuple[list[Game], int]:
    """All the games :class:`_Games` gives, and how many problems the log has."""
    games = _Games(args, events=events)
    out = list(games)
    return out, games.count


def cmd_sheet(args: argparse.Namespace) -> int:
    """vistlog sheet: the пулька after the last or the given deal, as text, JSON, CSV, SVG or HTML.

    Every format is written game by game as the games come (memory holds one game; the HTML of
    many games spools their sections, see :class:`vistlog.views.HtmlBook`)."""
    if args.format in ("html", "svg"):
        drawn = _Games(args, events=True)  # the drawing reads deals' events
        last = 0
        if args.format == "svg":
            only: Game | None = None
            names = []
            for g in drawn:
                if only is None:
                    only = g
                names.append(g.id)
                last = max(last, g.deals)
            if len(names) != 1 or only is None:
                raise _UsageError(f"--format svg draws one game: name it with --game ({', '.join(names)})")
            text = views.svg(only, args.upto, args.lang) + "\n"
            _upto_past(args.upto, last)
            with open_output(args.output) as out:
                out.write(text)
            return 1 if drawn.count else 0
        pages = views.HtmlBook(args.upto, args.lang)
        for g in drawn:
            pages.add(g)
            last = max(last, g.deals)
        if not pages.count:
            pages.close()
            _err(f"{args.log}: no game to draw")
            return 1
        _upto_past(args.upto, last)
        with open_output(args.output) as out:
            pages.write(out)
            out.write("\n")
        return 1 if drawn.count else 0
    games = _Games(args, events=False)
    last = 0
    columns = shutil.get_terminal_size().columns if sys.stdout.isatty() and not args.output else None
    with open_output(args.output) as out:
        if args.format == "json":
            def sheets() -> Iterator[dict[str, Any]]:
                nonlocal last
                for g in games:
                    last = max(last, g.deals)
                    yield views.sheet_json(g, args.upto)

            write_json(out, {"games": Streamed(sheets())})
            out.write("\n")
        else:
            first = True
            for g in games:
                last = max(last, g.deals)
                if args.format == "csv":
                    out.write(views.sheet_csv([g], args.upto, header=first))
                else:
                    out.write(("" if first else "\n\n") + views.sheet_text(g, args.upto, columns, args.lang))
                first = False
            if args.format == "csv":
                if first:
                    out.write(views.sheet_csv([], args.upto))
            else:
                out.write("\n")
    _upto_past(args.upto, last)
    return 1 if games.count else 0


def _upto_past(upto: int | None, last: int) -> None:
    if upto is not None and upto > last:
        _err(f"vistlog sheet: --upto {upto} is past the last deal ({last}): the whole game is shown")


def _batch_mode(args: argparse.Namespace) -> bool:
    return len(args.logs) > 1 or args.jobs is not None or args.dask is not None or any(
        os.path.isdir(p) for p in args.logs)


def cmd_batch(args: argparse.Namespace, kind: archive.ManyKind) -> int:
    """validate / settle / audit over many logs and folders, on a process pool or a Dask cluster."""
    if getattr(args, "game", None) or getattr(args, "claimed", None) or getattr(args, "deal", None):
        raise _UsageError("--game, --deal and --claimed take one log")
    if getattr(args, "format", None) == "html":
        raise _UsageError("--format html takes one log")
    paths = archive.find_logs(args.logs)
    if not paths:
        raise _UsageError(f"no *.jsonl logs in {', '.join(args.logs)}")
    if "-" in paths and len(paths) > 1:
        raise _UsageError("standard input (-) is one log; give files or folders")
    report = _run_many(kind, paths, args)
    files = report.in_order()
    if kind != "validate" and len(args.logs) == 1 and not os.path.isdir(args.logs[0]) and args.dask is None:
        # the worker count changes the speed, not the form
        return _one_log_report(files[0], kind, args.format, getattr(args, "lang", None))
    if kind == "validate" and args.format == "text":
        _validate_report(files, args.quiet)
    else:
        _batch_report(files, kind, args.format, getattr(args, "lang", None))
    bad = sum(not f.ok for f in files)
    if len(files) > 1 or kind != "validate":
        _err(f"{len(files)} log(s), {sum(len(f.games) for f in files)} game(s); {bad} with problems"
             + (f": {', '.join(f.path for f in files if not f.ok)}" if bad and bad <= 10 else ""))
    return report.exit_code


def _one_log_report(f: archive.FileReport, kind: str, fmt: str, lang: views.Lang | None = None) -> int:
    """What ``settle`` or ``audit`` print of one log without ``--jobs``: each game as it would come."""
    if f.unreadable:
        raise LogUnreadable(f.unreadable)
    for p in f.problems:
        _err(str(p))
    bad = _stream(f.games, kind, fmt, lang)
    return 1 if f.problems or bad else 0


def _run_many(kind: archive.ManyKind, paths: list[str], args: argparse.Namespace) -> archive.Report:
    """Many logs on a Dask cluster (``--dask``) or the local process pool (``--jobs``)."""
    try:
        return archive.run_many(kind, paths, jobs=args.jobs, dask=args.dask, progress=archive.progress_bar())
    except VistlogError as exc:
        raise _UsageError(str(exc)) from None


def _validate_report(files: list[archive.FileReport], quiet: bool) -> None:
    """What ``validate`` says of one log, for each log in turn (problems on standard output)."""
    for f in files:
        for p in f.problems:
            _out(str(p))
        if f.unreadable:
            _err(f.unreadable)
        else:
            _verdict(f.path, len(f.problems), len(f.games), quiet)


def _batch_report(files: list[archive.FileReport], kind: str, fmt: str, lang: views.Lang | None = None) -> None:
    """The checks, settlements or audits of many logs, as text or JSON (problems also on standard error),
    written a game at a time as they are read back (see :mod:`vistlog.projections.spool`)."""
    for f in files:
        if f.unreadable:
            _err(f.unreadable)
        for p in f.problems:
            _err(str(p))
    out = sys.stdout
    if fmt == "json":
        write_json(out, {"files": [{"path": f.path, "games": Streamed(f.games),
                                    "problems": Streamed(p.to_json() for p in f.problems),
                                    **({"error": f.unreadable} if f.unreadable else {})} for f in files]})
        out.write("\n")
        return
    show = _TEXT[kind][0]
    for k, f in enumerate(files):
        status = "unreadable" if f.unreadable else f"{len(f.problems)} problem(s)" if f.problems else "ok"
        out.write(("\n\n" if k else "") + f"== {f.path} ({status})")
        for i, g in enumerate(f.games):
            out.write(("\n" if i == 0 else "\n\n") + show(g, lang))
    out.write("\n")


def cmd_settle(args: argparse.Namespace) -> int:
    """vistlog settle: the settlement of one log, or of many (see :func:`cmd_batch`)."""
    if _batch_mode(args):
        return cmd_batch(args, "settle")
    args.log = args.logs[0]
    games = _Games(args, detail=False)
    unbalanced = _stream((g.to_json() for g in games), "settle", args.format, args.lang)
    return 1 if games.count or unbalanced else 0


def cmd_audit(args: argparse.Namespace) -> int:
    """vistlog audit: recorded against computed, for one log or many (one game at a time)."""
    if _batch_mode(args):
        return cmd_batch(args, "audit")
    args.log = args.logs[0]
    if args.claimed:
        listed, problems = _games(args, events=False)
        if len(listed) != 1:
            raise _UsageError("--claimed compares one game: name it with --game")
        reports = [listed[0].audit(args.claimed).to_json()]
        _out(dumps({"games": reports}) if args.format == "json"
             else views.audit_text(reports[0], args.lang))
        return 1 if problems or not reports[0]["ok"] else 0
    games = _Games(args, events=False)
    bad = _stream((g.audit().to_json() for g in games), "audit", args.format, args.lang)
    return 1 if games.count or bad else 0


_TEXT: dict[str, tuple[Callable[[dict[str, Any], views.Lang | None], str], str]] = {
    "settle": (views.settlement_text, "\n\n"), "audit": (views.audit_text, "\n"),
    "analyse": (views.analysis_text, "\n\n"), "analyse-discards": (views.analysis_text, "\n\n")}
"""How each command writes a game's view as text, and what stands between two games."""


def _stream(game_views: Iterable[dict[str, Any]], kind: str, fmt: str, lang: views.Lang | None = None) -> bool:
    """Each game's view on standard output as it comes (memory does not grow with the games), as JSON
    (``{"games": [...]}``) or text; True when a view says it is not ``ok`` or not ``zero_sum``."""
    bad = False
    text, between = _TEXT[kind]

    def shown() -> Iterator[dict[str, Any]]:
        nonlocal bad
        for view_ in game_views:
            bad |= not view_.get("ok", True) or not view_.get("zero_sum", True)
            yield view_

    if fmt == "json":
        write_json(sys.stdout, {"games": Streamed(shown())})
        _out()
        return bad
    for i, view_ in enumerate(shown()):
        sys.stdout.write(("" if i == 0 else between) + text(view_, lang))
    _out()
    return bad


def cmd_analyse(args: argparse.Namespace) -> int:
    """vistlog analyse: every contract with its hands recorded, solved with all hands open (one log, one game
    at a time; many logs on ``--jobs`` processes or ``--dask``)."""
    kind: archive.ManyKind = "analyse-discards" if args.discards else "analyse"
    if _batch_mode(args):
        return cmd_batch(args, kind)
    args.log = args.logs[0]
    games = _Games(args)

    def analysed() -> Iterator[dict[str, Any]]:
        for g in games:
            yield analysis_json(g.analysis(discards=args.discards,
                                           deals=None if args.deal is None else {args.deal}))

    if args.format == "html":
        sys.stdout.write(views.analysis_html(analysed(), args.lang))
    else:
        _stream(analysed(), kind, args.format, args.lang)
    return 1 if games.count else 0


def cmd_replay(args: argparse.Namespace) -> int:
    """vistlog replay: the story of a game, deal by deal (one game at a time); or its deals as lines."""
    if args.format == "lines":
        try:
            events = game_events(args.log, args.game)
        except LogProblems as exc:
            for p in exc.problems:
                _err(str(p))
            return 1
        for line in deal_lines(events, skipped=lambda why: _err(f"{args.log}: {why}")):
            _out(line)
        return 0
    games = _Games(args)
    for i, g in enumerate(games):
        if i:
            _out()
        for line in g.replay_lines(args.upto, args.lang, args.values):
            _out(line)
    return 1 if games.count else 0


def cmd_append(args: argparse.Namespace) -> int:
    """vistlog append: events from standard input, checked, appended all or none, chained."""
    incoming: list[Any] = []
    lines: list[int] = []
    bad: list[str] = []
    for lineno, line in input_lines(sys.stdin.buffer):
        if line is None:
            if not incoming and not bad:
                raise LogUnreadable(f"<stdin>:{lineno}: standard input is not JSON Lines "
                                    f"(a line of over {MAX_LINE} bytes)")
            bad.append(f"<stdin>:{lineno}: a line of over {MAX_LINE} bytes: not an event")
            continue
        try:
            incoming.append(parse_line(line))
            lines.append(lineno)
        except DecodeError as exc:
            if not incoming and not bad:
                raise LogUnreadable(f"<stdin>:{lineno}: standard input is not JSON Lines ({exc.message})") from None
            bad.append(f"<stdin>:{lineno}: {exc.message}")
    if bad:
        for b in bad:
            _err(b)
        _err(f"{args.log}: nothing appended")
        return 1
    if not incoming:
        _err("vistlog append: no events on standard input")
        return 2
    try:
        done = append(args.log, incoming, key_file=args.key_file, lines=lines, source="<stdin>", warn=_err)
    except AppendRejected as exc:
        for p in exc.problems:
            _err(str(p))
        _err(f"{args.log}: nothing appended ({len(exc.problems)} problem(s))")
        return 1
    _err(f"{args.log}: appended {len(done)} event(s), seq {done[0].seq}..{done[-1].seq}")
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    """vistlog deal: one deal written in one line, checked and appended; then who deals next."""
    recorder = Recorder(args.log, key_file=args.key_file, warn=_err)
    stamp = {"by": args.by} if args.by else None
    try:
        done = recorder.record_line(args.line, game=args.game, stamp=stamp)
    except NotationError as exc:
        _err(f"{args.log}: {exc}; nothing written")
        return 1
    except AppendRejected as exc:
        for p in exc.problems:
            _err(str(p))
        _err(f"{args.log}: nothing written ({len(exc.problems)} problem(s))")
        return 1
    what = f"deal {getattr(done[0], 'deal', '')}" if done[0].type == "deal_started" else done[0].type.replace("_", " ")
    _err(f"{args.log}: recorded {what} (seq {done[0].seq}..{done[-1].seq})")
    if done[-1].type != "game_ended":
        _err(_next_deal(recorder.next_step(done[0].game)))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """vistlog serve: the score pad, a local web page over the log."""
    from . import pad

    try:
        pad.serve(args.log, host=args.host, port=args.port, key_file=args.key_file, open_browser=args.open,
                  say=lambda m: print(m, flush=True))
    except OSError as exc:
        raise _UsageError(f"cannot listen on {args.host}:{args.port} ({exc.strerror or exc})") from None
    return 0


def _next_deal(nx: Next) -> str:
    """What the table needs to know before the next deal (the game's next step)."""
    if nx.step == "over":
        return f"next: nothing, the game is over ({nx.why})"
    if nx.step == "open":
        return f"next: deal {nx.deal} must be finished or voided first ({nx.why})"
    if nx.step == "dealer":
        return f"next: deal {nx.deal}, anybody deals"
    return f"next: deal {nx.deal}, {nx.dealer} deals, {nx.speaks} speaks first"


def cmd_import(args: argparse.Namespace) -> int:
    """vistlog import: games from other programs, each checked, then one chained append."""
    suffix = archive.SUFFIXES.get(args.source_format, ".json")
    sources = archive.find_logs(args.sources, suffix)
    if not sources:
        raise _UsageError(f"no *{suffix} files in {', '.join(args.sources)}")
    try:
        outcome = archive.import_files(args.source_format, sources, args.output, key_file=args.key_file,
                                       progress=archive.progress_bar(), warn=_err, game_id=args.game_id,
                                       rename=args.rename)
    except AppendRejected as exc:  # only when the log changed under us
        for p in exc.problems:
            _err(str(p))
        return 1
    for line in outcome.unreadable:
        _err(line)
    for was, now in outcome.renamed.items():
        _err(f"game {was} imported as {now}: its id was taken")
    for game, problems in outcome.refused.items():
        _err(f"{game}: refused ({len(problems)} problem(s))")
        for line in problems[:20]:
            _err(f"  {line}")
    _err(f"{args.output}: imported {len(outcome.imported)} game(s) from {len(sources)} source(s); "
         f"{len(outcome.refused)} game(s) refused, {len(outcome.unreadable)} source(s) unreadable")
    return outcome.exit_code


def cmd_export(args: argparse.Namespace) -> int:
    """vistlog export: one game of a log in another format."""
    try:
        events = game_events(args.log, args.game)
        text = dump(events, args.target_format)
        lost = cannot_carry(events, args.target_format)
    except LogProblems as exc:
        for p in exc.problems:
            _err(str(p))
        _err(str(exc))
        return 1
    except SourceError as exc:
        raise _UsageError(str(exc)) from None
    except VistlogError as exc:
        if isinstance(exc, LogUnreadable):
            raise
        raise _UsageError(str(exc)) from None
    with open_output(args.output) as out:
        out.write(text)
    if lost:  # said once the file is written: a failed write says only why
        _err(f"{args.log}: {args.target_format} cannot carry {'; '.join(lost)} (docs/cli.md, export: what each "
             "format keeps)")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """vistlog verify: walk the hash chain (exit 3 when there is none), optionally up to a remembered head."""
    if args.head is not None:
        args.head = args.head.rstrip("…").rstrip(".")
        if not _HEX_PREFIX.fullmatch(args.head):
            raise _UsageError(f"--head {args.head!r} is not a chain value (8 to 64 hexadecimal digits)")
    res = verify(args.log, args.head, key_file=args.key_file)
    if res.status == "ok":
        _out(f"{args.log}: chain intact, {res.chained} chained line(s) of {res.lines}; head {res.head}")
        _err(f"keep the head elsewhere; next time: vistlog verify {args.log} --head {(res.head or '')[:12]}")
        if res.message:
            _err(f"{args.log}:{res.line}: {res.message}")
        if res.keyed_from is not None:
            _out(f"{args.log}: lines {res.keyed_from}..{res.lines} keyed (each _mac checked with the key)"
                 + (f"; lines 1..{res.keyed_from - 1} carry the plain chain only" if res.keyed_from > 1 else ""))
        if res.head_at is not None:
            _out(f"{args.log}: the remembered head is line {res.head_at}"
                 + (f"; {res.since_head} line(s) appended since" if res.since_head else ", the last line"))
        return 0
    if res.status == "unchained":
        _out(f"{args.log}: no hash chain ({res.lines} line(s)); nothing can be proven")
        return 3
    if res.status == "ambiguous":
        _err(f"vistlog verify: {args.log}:{res.line}: {res.message}")
        return 2
    if res.status == "keyed":
        _out(f"{args.log}: {res.message}; give --key-file")
        return 3
    _out(f"{args.log}:{res.line}: {res.message}" if res.line is not None else f"{args.log}: {res.message}")
    return 1


def cmd_stats(args: argparse.Namespace) -> int:
    """vistlog stats: every player's record, contract statistics and ratings across an archive."""
    paths = archive.find_logs(args.logs)
    if not paths:
        raise _UsageError(f"no *.jsonl logs in {', '.join(args.logs)}")
    try:
        stats, report = archive.statistics(paths, jobs=args.jobs, dask=args.dask, period=args.period,
                                           aliases=args.alias, kind=args.kind, since=args.since,
                                           until=args.until, progress=archive.progress_bar())
    except LogUnreadable:
        raise
    except VistlogError as exc:
        raise _UsageError(str(exc)) from None
    for f in report.in_order():
        if f.unreadable:
            _err(f.unreadable)
    if args.player and args.player not in stats.players:
        raise _UsageError(f"no games of {args.player!r} (players: {', '.join(sorted(stats.players)) or 'none'})")
    for w in stats.warnings:
        _err(f"warning: {w}")
    if args.format == "json":
        _out(dumps(stats.to_json(args.player)))
    elif args.format == "csv":
        sys.stdout.write(views.stats_csv(stats, args.player))
    elif args.format == "html":
        text = views.stats_html(stats, args.player, args.lang)
        if args.output:
            write_file(args.output, text)
        else:
            sys.stdout.write(text)
    else:
        _out(views.stats_text(stats, args.player, args.lang))
    return report.exit_code


def _date_arg(text: str) -> str:
    import datetime as dt

    try:
        return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date YYYY-MM-DD") from None


def cmd_schema(args: argparse.Namespace) -> int:
    """vistlog schema: the JSON Schema of the event format."""
    _out(orjson.dumps(views.schema(), option=orjson.OPT_INDENT_2).decode())
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """vistlog rules: the presets, or every option of one."""
    if args.preset is None:
        _out(views.presets_text())
        return 0
    if args.preset not in views.PRESET_NAMES:
        raise _UsageError(f"no preset {args.preset!r} (presets: {', '.join(views.PRESET_NAMES)})")
    if args.format == "json":
        _out(orjson.dumps(views.rules_json(args.preset), option=orjson.OPT_INDENT_2).decode())
    else:
        _out(views.rules_text(args.preset))
    return 0


# --------------------------------------------------------------------------- parser

def _add_key(sp: argparse.ArgumentParser, help_: str) -> None:
    sp.add_argument("--key-file", metavar="FILE", help=help_)


def _add_many(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--jobs", type=_positive, metavar="N",
                    help="run on N processes (default: every core); one log is split by game among them")
    sp.add_argument("--dask", metavar="ADDRESS",
                    help="many logs: run on a Dask scheduler at ADDRESS, or 'local' for a "
                         "LocalCluster (needs pip install 'vistlog[dask]')")


def _add_lang(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--lang", choices=views.LANGS, default=None,
                    help="the language of the words (text, HTML, SVG): ru or en (default: VISTLOG_LANG, else en); "
                         "JSON and CSV are the same in both")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, with a subcommand per command of docs/cli.md."""
    p = argparse.ArgumentParser(
        prog="vistlog", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Score keeper and auditor for преферанс (Preferans) and вист-соло (Solo Whist): "
                    "reads JSON Lines game logs, folds them into the пулька, settles exactly, audits.",
        epilog=EXAMPLES)
    solver = "compiled (C)" if SOLVER_COMPILED else "pure Python (no C compiler at install)"
    p.add_argument("--version", action="version",
                   version=f"vistlog {_version()} · {build.describe()} · open-hand solver: {solver}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(name: str, func: Callable[[argparse.Namespace], int], help_: str, example: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, description=help_, epilog=f"example:\n  {example}",
                            formatter_class=argparse.RawDescriptionHelpFormatter)
        sp.set_defaults(func=func)
        return sp

    for commands in (_reading_commands, _analysis_command, _recording_commands, _archive_commands):
        commands(add)
    return p


_Adder = Callable[[str, Callable[[argparse.Namespace], int], str, str], argparse.ArgumentParser]


def _reading_commands(add: _Adder) -> None:
    """validate, sheet, settle, audit and replay: the commands that read logs."""
    sp = add("validate", cmd_validate, "check every event and the order of play; list every problem",
             "vistlog validate samples/*.jsonl\n"
             "  vistlog validate archive/ --jobs 2 -q              # every *.jsonl below archive/")
    sp.add_argument("logs", nargs="+", metavar="LOG",
                    help="log files or folders (every *.jsonl below); - for standard input")
    sp.add_argument("--strict", action="store_true",
                    help="stop at the first problem (logs are then checked one by one, in order)")
    sp.add_argument("-q", "--quiet", action="store_true", help="say nothing when a log is sound")
    sp.add_argument("--format", choices=("text", "json"), default="text",
                    help="json: {\"files\": [{\"path\", \"games\", \"problems\", \"error\"}]} on standard output")
    _add_many(sp)

    for name, func, help_, fmts, example in (
        ("sheet", cmd_sheet, "the score sheet (пулька) after the last or the given deal",
         ("text", "json", "csv", "html", "svg"), "vistlog sheet samples/sochi-evening.jsonl --upto 6"),
        ("settle", cmd_settle, "the final settlement, exact and rounded, with money and payments",
         ("text", "json"), "vistlog settle samples/sochi-evening.jsonl --format json\n"
                           "  vistlog settle archive/ --jobs 2 --format json     # every *.jsonl below archive/"),
        ("audit", cmd_audit, "compare recorded sheets (score_recorded or --claimed) with the rules",
         ("text", "json"), "vistlog audit samples/disputed-sheet.jsonl\n"
                           "  vistlog audit archive/ --dask local                # on a local Dask cluster"),
        ("replay", cmd_replay, "deal by deal, in words, what happened and what each entry is for",
         ("text", "lines"), "vistlog replay samples/classic-bombs.jsonl --upto 3\n"
                            "  vistlog replay samples/sochi-evening.jsonl --format lines   # one deal a line"),
    ):
        sp = add(name, func, help_, example)
        if name in ("settle", "audit"):
            sp.add_argument("logs", nargs="+", metavar="LOG",
                            help="log files or folders (every *.jsonl below); - for standard input")
            _add_many(sp)
        else:
            sp.add_argument("log", metavar="LOG", help="log file (- for standard input)")
        sp.add_argument("--game", metavar="ID", help="only this game (default: every game in the log)")
        if name in ("sheet", "replay"):
            sp.add_argument("--upto", type=_deal_number, metavar="DEAL", help="stop after this deal")
        if name == "replay":
            sp.add_argument("--values", action="store_true",
                            help="beside each card played, its double-dummy value (the declarer's tricks with "
                                 "best play from there; ✗ on a card that cost a trick: vistlog analyse)")
        if name == "sheet":
            sp.add_argument("-o", "--output", metavar="FILE",
                            help="write here, whole or not at all (default: standard output)")
        if len(fmts) > 1:
            sp.add_argument("--format", choices=fmts, default="text",
                            help="lines: every deal in the one-line notation of vistlog deal (docs/notation.md)"
                            if name == "replay" else "output format (default text)")
        _add_lang(sp)
        if name == "audit":
            sp.add_argument("--claimed", metavar="FILE",
                            help="a claimed sheet: JSON ({\"Аня\": {\"pool\": 14, …}}) or CSV (player,field,value)")


def _analysis_command(add: _Adder) -> None:
    """analyse: the play with all hands open."""
    sp = add("analyse", cmd_analyse, "solve each contract with all hands open: was it makeable, which card "
             "cost a trick and what in whists, does a claim hold",
             "vistlog analyse samples/classic-bombs.jsonl\n"
             "  vistlog analyse samples/classic-bombs.jsonl --deal 7 --format json\n"
             "  vistlog analyse archive/ --jobs 2 --format json     # every *.jsonl below archive/")
    sp.add_argument("logs", nargs="+", metavar="LOG",
                    help="log files or folders (every *.jsonl below); - for standard input")
    sp.add_argument("--game", metavar="ID", help="only this game (default: every game in the log)")
    sp.add_argument("--deal", type=_deal_number, metavar="N", help="only this deal")
    sp.add_argument("--format", choices=("text", "json", "html"), default="text",
                    help="json: {\"games\": [{\"game\", \"deals\": [{\"deal\", \"declarer\", \"contract\", "
                         "\"value\", \"cards\": [{\"seq\", \"player\", \"card\", \"before\", \"after\"}]}]}]} "
                         "(values: the declarer's total tricks)")
    sp.add_argument("--discards", action="store_true",
                    help="also try every discard of the declarer's twelve cards (a search each)")
    _add_lang(sp)
    _add_many(sp)


def _recording_commands(add: _Adder) -> None:
    """append, deal, serve, import, export and verify: the commands that write or prove a log."""
    sp = add("append", cmd_append, "append events from standard input, checked, all or nothing, hash-chained",
             "vistlog append game.jsonl < new-events.jsonl\n"
             "  vistlog append club.jsonl --key-file ~/.vistlog-club.key < tonight.jsonl   # a keyed chain")
    sp.add_argument("log", metavar="LOG", help="log file (created when missing)")
    _add_key(sp, "chain the new lines with HMAC-SHA256 and the secret in FILE (a keyed chain: _mac)")
    sp = add("deal", cmd_deal, "record one deal written in one line (docs/notation.md); then who deals next",
             'vistlog deal evening.jsonl "Боря 6♠; Вова вист, Аня пас; Боря 7 Вова 3"\n'
             '  vistlog deal evening.jsonl "распасы; Аня 5 Боря 3 Вова 2"\n'
             '  vistlog deal evening.jsonl "Вова мизер; Вова 0"\n'
             '  vistlog deal evening.jsonl "void 4 misdeal"     # then: "again 4; …" records it anew')
    sp.add_argument("log", metavar="LOG", help="the log (its game must have started: vistlog serve or append)")
    sp.add_argument("line", metavar="LINE", help="the deal: [bids …;] DECLARER CONTRACT | raspas; [calls;] TRICKS")
    sp.add_argument("--game", metavar="ID", help="the game (required when several are under way)")
    sp.add_argument("--by", metavar="NAME", help="who records it (the events' by)")
    _add_key(sp, "the secret of a keyed log (its lines carry _mac)")
    sp = add("serve", cmd_serve, "the score pad: record the evening in the browser, the пулька drawn as it goes",
             "vistlog serve evening.jsonl --open\n"
             "  vistlog serve club.jsonl --host 0.0.0.0 --port 8765     # phones at the table: prints the token "
             "and a QR code\n"
             "  vistlog serve club.jsonl --key-file ~/.vistlog-club.key   # a keyed log stays keyed")
    sp.add_argument("log", metavar="LOG", help="the log (created with the first game; an existing one is continued)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="where to listen (default 127.0.0.1: this machine only; any other needs the printed token)")
    sp.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0: any free one)")
    sp.add_argument("--open", action="store_true", help="open the page in the browser")
    _add_key(sp, "the secret of a keyed log: every deal written is keyed (_mac)")
    sp = add("import", cmd_import, "bring games in from other programs: every game checked, appended, chained",
             "vistlog import --from preferans-score backup.json -o club.jsonl\n"
             "  vistlog import --from jsonl server-logs/ -o online.jsonl\n"
             "  vistlog import --from ppn prefko-games/ -o serbian.jsonl   # Serbian preferans\n"
             "  vistlog import --from preferans-score old-backup.json -o club.jsonl --rename   # the same id again")
    sp.add_argument("--from", dest="source_format", required=True, metavar="FORMAT",
                    choices=("jsonl", "csv", "pbn", "ppn", "preferans-score", "gchet", "pulya"),
                    help="jsonl (card-level online play), csv (a club protocol), pbn (Solo Whist), "
                         "ppn (Serbian preferans, Prefko's notation), "
                         "preferans-score (the score pad's backup), gchet (gchet/Preferans saves), "
                         "pulya («Пуля преферанса» saves)")
    sp.add_argument("sources", nargs="+", metavar="SRC",
                    help="files, or folders (every *.jsonl, *.csv, *.pbn, *.ppn or *.json below, by the format)")
    sp.add_argument("-o", "--output", required=True, metavar="LOG", help="the log to append to (created)")
    sp.add_argument("--game-id", metavar="ID", help="the id of the one game imported (its own is taken, say)")
    sp.add_argument("--rename", action="store_true",
                    help="a game whose id the log already has comes in as ID-2, ID-3, … (said), not refused")
    _add_key(sp, "chain the imported lines with HMAC-SHA256 and the secret in FILE")
    sp = add("export", cmd_export, "write one game of a log in another format",
             "vistlog export --to csv club.jsonl --game club-2026-11-29 -o protocol.csv\n"
             "  vistlog export --to ppn serbian.jsonl --game sr-1 -o sr-1.ppn")
    sp.add_argument("--to", dest="target_format", required=True, choices=("csv", "pbn", "ppn"), metavar="FORMAT",
                    help="csv (a club protocol, Preferans or Solo Whist), pbn (Solo Whist) or ppn (Serbian "
                         "preferans with the cards)")
    sp.add_argument("log", metavar="LOG")
    sp.add_argument("--game", metavar="ID", help="the game (required when the log holds several)")
    sp.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    sp = add("verify", cmd_verify, "check the hash chain (exit 3 when the log has none)",
             "vistlog verify game.jsonl\n"
             "  vistlog verify game.jsonl --head 9f2c…e41a     # the head printed by an earlier verify")
    sp.add_argument("log", metavar="LOG", help="log file")
    sp.add_argument("--head", metavar="HASH",
                    help="a head printed by an earlier verify, kept elsewhere: proves no line was cut "
                         "from the end since (exit 1 when no line of the chain carries it)")
    _add_key(sp, "the secret of a keyed chain (_mac lines); without it they cannot be proven (exit 3)")


def _archive_commands(add: _Adder) -> None:
    """stats, schema and rules: across archives, and the format and rules themselves."""
    sp = add("stats", cmd_stats, "every player's record, contract statistics and Glicko-2 ratings across logs",
             "vistlog stats samples/\n"
             "  vistlog stats archive/ --since 2026-01-01 --alias names.csv --format html -o stats.html")
    sp.add_argument("logs", nargs="+", metavar="LOG", help="log files or folders (every *.jsonl below)")
    sp.add_argument("--player", metavar="NAME", help="show only this player (ratings still use every game)")
    sp.add_argument("--since", type=_date_arg, metavar="DATE", help="only games from this day on (YYYY-MM-DD)")
    sp.add_argument("--until", type=_date_arg, metavar="DATE", help="only games up to this day (YYYY-MM-DD)")
    sp.add_argument("--kind", choices=("preferans", "solo-whist"), help="only games of this kind")
    sp.add_argument("--period", choices=("day", "week", "month"), default="day",
                    help="the rating period: a day of play (default), a week or a month")
    sp.add_argument("--alias", metavar="FILE", help="CSV name,alias: merge a person's spellings under one name")
    sp.add_argument("--format", choices=("text", "json", "csv", "html"), default="text", help="output format")
    sp.add_argument("-o", "--output", metavar="FILE", help="html: write here (default: standard output)")
    _add_lang(sp)
    _add_many(sp)
    add("schema", cmd_schema, "print the JSON Schema of the event format", "vistlog schema > events.schema.json")
    sp = add("rules", cmd_rules, "list the presets, or show every option of one", "vistlog rules classic")
    sp.add_argument("preset", nargs="?", metavar="PRESET", help="a preset name")
    sp.add_argument("--format", choices=("text", "json"), default="text", help="output format")


def _whole(minimum: int, what: str, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (and at most ``maximum``)."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if n < minimum:
            raise argparse.ArgumentTypeError(f"{what} is {minimum} or more")
        if maximum is not None and n > maximum:
            raise argparse.ArgumentTypeError(f"{what} is at most {maximum} (4 × the cores of this machine)")
        return n

    return parse


_positive = _whole(1, "a number of processes", maximum=4 * (os.cpu_count() or 1))
_deal_number = _whole(0, "a deal number")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
        sys.stdout.flush()
        return code
    except (LogUnreadable, ClaimError, OutputError) as exc:  # input or output that cannot be read or written
        _err(str(exc))
        return 2
    except _UsageError as exc:
        _err(f"vistlog {args.command}: {exc}")
        return 2
    except UnknownName as exc:
        _err(f"vistlog {args.command}: {exc}")
        return 2
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the interpreter's flush at exit
        return 0
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except OSError as exc:  # standard output or error that cannot take the text (a full disk, /dev/full)
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the interpreter's flush at exit
        _err(f"vistlog {args.command}: cannot write ({exc.strerror or exc})")
        return 2
    except Exception as exc:  # noqa: BLE001 - no traceback ever reaches a user
        if getattr(exc, "code", None) == "worker-failed":  # a worker process died or failed: said in one line
            _err(f"vistlog {args.command}: {exc}")
            return 2
        if RAISE_INTERNAL_ERRORS:
            raise
        _err(f"vistlog {args.command}: internal error ({type(exc).__name__}: {exc}); please report it")
        return 2


def run() -> None:
    """Entry point of the console script."""
    sys.exit(main())
