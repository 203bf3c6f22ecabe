"""The commands that read logs: validate, sheet, settle, audit, replay and analyse.

Each imports the renderers, the audit, the solver or the archive only when it uses them: ``validate`` of one
log reads it with the checker and the fold alone.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from vistlog.errors import LogUnreadable, Problem, VistlogError
from vistlog.games import Game, LogProblems, check_log, game_events, nearest, open_log, read_games
from vistlog.output import Progress, Streamed, dumps, open_output, write_json

from .common import Problems as _Problems
from .common import UsageError as _UsageError
from .common import budget as _budget
from .common import err as _err
from .common import find_logs
from .common import out as _out

if TYPE_CHECKING:
    from vistlog import archive, views

__all__ = ["cmd_validate", "cmd_sheet", "cmd_settle", "cmd_audit", "cmd_analyse", "cmd_replay"]


def cmd_validate(args: argparse.Namespace) -> int:
    """vistlog validate: check every event of every log; list every problem."""
    if args.format == "json" and args.strict:
        raise _UsageError("--strict stops at the first problem as text; leave it out with --format json")
    if args.format == "json" or (_batch_mode(args) and not args.strict and "-" not in args.logs):
        return cmd_batch(args, "validate")
    code = 0
    for path in find_logs(args.logs):
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


def cmd_sheet(args: argparse.Namespace) -> int:
    """vistlog sheet: the пулька after the last or the given deal, as text, JSON, CSV, SVG or HTML.

    Every format is written game by game as the games come (memory holds one game; the HTML of
    many games spools their sections, see :class:`vistlog.views.HtmlBook`)."""
    from vistlog import views

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
    import shutil

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
    from vistlog import views

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


def cmd_analyse(args: argparse.Namespace) -> int:
    """vistlog analyse: every played deal with its hands recorded, solved with all hands open (one log, one game
    at a time; many logs on ``--jobs`` processes or ``--dask``)."""
    from vistlog import archive, views
    from vistlog.api import SingleDummy, analysis_json

    kind = "analyse-discards" if args.discards else "analyse"
    sd = None
    if args.single_dummy:
        sd = SingleDummy(args.samples or 200, args.seed or 0)
        kind += f":{sd.samples}:{sd.seed}"  # a kind with its options travels to the workers as it is
    elif args.samples is not None or args.seed is not None:
        raise _UsageError("--samples and --seed weigh the decisions of --single-dummy")
    budget = _budget(args)
    if budget is not None:
        kind += f"@{budget:g}"
    if _batch_mode(args):
        return cmd_batch(args, kind)  # type: ignore[arg-type]
    args.log = args.logs[0]
    games = _Games(args)

    def analysed() -> Iterator[dict[str, Any]]:
        for g in games:  # a deal of thirteen tricks takes the pure search minutes: a bar on a terminal
            yield analysis_json(g.analysis(discards=args.discards, deals=None if args.deal is None else {args.deal},
                                           progress=archive.progress_bar(unit="deals"), single_dummy=sd,
                                           budget=budget), len(g.problems))

    if args.format == "html":
        sys.stdout.write(views.analysis_html(analysed(), args.lang))
    else:
        _stream(analysed(), kind, args.format, args.lang)
    return 1 if games.count else 0


def cmd_replay(args: argparse.Namespace) -> int:
    """vistlog replay: the story of a game, deal by deal (one game at a time); or its deals as lines."""
    from vistlog.recording import deal_lines

    if args.format == "lines":
        try:
            events = game_events(args.log, args.game)
        except LogProblems as exc:
            for p in exc.problems:
                _err(str(p))
            return 1
        for line in deal_lines(events, skipped=lambda why: _err(f"{args.log}: {why}"), lang=args.lang or "en"):
            _out(line)
        return 0
    games = _Games(args)
    if args.format == "html":
        return _replay_page(args, games)
    if args.output or args.analyse:
        raise _UsageError("-o and --analyse go with --format html; text and lines go to standard output")
    for i, g in enumerate(games):
        if i:
            _out()
        for line in g.replay_lines(args.upto, args.lang, args.values):
            _out(line)
    return 1 if games.count else 0


def _replay_page(args: argparse.Namespace, games: _Games) -> int:
    """vistlog replay --format html: one game as one self-contained page (:mod:`vistlog.viewer`)."""
    from vistlog import verify
    from vistlog.api import analysis_json
    from vistlog.viewer import replay_page

    if args.upto is not None or args.values:
        raise _UsageError("--upto and --values are for the text: the page steps through every deal (--analyse: values)")
    found = list(games)
    if len(found) != 1:
        raise _UsageError(f"--format html shows one game: name it with --game ({', '.join(g.id for g in found)})"
                          if found else f"{args.log}: no game to show")
    game = found[0]
    head = verify(args.log).head if args.log != "-" else None
    analysis = analysis_json(game.analysis()) if args.analyse else None
    page = replay_page(game, head=head, log=os.path.basename(args.log), analysis=analysis,
                       lang="en" if args.lang == "en" else "ru")
    with open_output(args.output) as out:
        out.write(page)
    return 1 if games.count else 0





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
    paths = find_logs(args.logs)
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
    from vistlog import archive

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
    show = _text_of(kind)[0]
    for k, f in enumerate(files):
        status = "unreadable" if f.unreadable else f"{len(f.problems)} problem(s)" if f.problems else "ok"
        out.write(("\n\n" if k else "") + f"== {f.path} ({status})")
        for i, g in enumerate(f.games):
            out.write(("\n" if i == 0 else "\n\n") + show(g, lang))
    out.write("\n")


def _text_of(kind: str) -> tuple[Callable[[dict[str, Any], views.Lang | None], str], str]:
    """How each command writes a game's view as text, and what stands between two games."""
    from vistlog import views

    return {"settle": (views.settlement_text, "\n\n"), "audit": (views.audit_text, "\n"),
            "analyse": (views.analysis_text, "\n\n"), "analyse-discards": (views.analysis_text, "\n\n")
            }[kind.partition("@")[0].partition(":")[0]]


def _stream(game_views: Iterable[dict[str, Any]], kind: str, fmt: str, lang: views.Lang | None = None) -> bool:
    """Each game's view on standard output as it comes (memory does not grow with the games), as JSON
    (``{"games": [...]}``) or text; True when a view says it is not ``ok`` or not ``zero_sum``."""
    bad = False
    text, between = _text_of(kind)

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
