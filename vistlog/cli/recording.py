"""The commands that write or prove a log: append, deal, serve, import, export and verify.

``deal`` at the table imports the checker and the notation, never the fold, the renderers or the pad.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING, Any

from .common import UsageError as _UsageError
from .common import err as _err
from .common import find_logs
from .common import out as _out

if TYPE_CHECKING:
    from vistlog.recording import Next

__all__ = ["cmd_append", "cmd_deal", "cmd_serve", "cmd_import", "cmd_export", "cmd_verify"]


_HEX_PREFIX = re.compile(r"[0-9a-fA-F]{8,64}")


def cmd_append(args: argparse.Namespace) -> int:
    """vistlog append: events from standard input, checked, appended all or none, chained."""
    from vistlog.errors import AppendRejected, DecodeError, LogUnreadable
    from vistlog.games import parse_line
    from vistlog.recording import MAX_LINE, append, input_lines

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
    from vistlog.errors import AppendRejected, NotationError
    from vistlog.recording import Recorder

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
    from vistlog import pad

    try:
        pad.serve(args.log, host=args.host, port=args.port, key_file=args.key_file, open_browser=args.open,
                  say=lambda m: print(m, flush=True), analysis_seconds=args.analysis_seconds,
                  analysis_memory=args.analysis_memory << 20, analysis_budget=args.analysis_budget,
                  analysis_exact=args.analysis_exact)
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
    from vistlog import archive
    from vistlog.errors import AppendRejected

    suffix = archive.SUFFIXES.get(args.source_format, ".json")
    sources = find_logs(args.sources, suffix)
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
    from vistlog.errors import LogUnreadable, SourceError, VistlogError
    from vistlog.formats import cannot_carry, dump
    from vistlog.games import LogProblems, game_events
    from vistlog.output import open_output

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
    from vistlog.recording import verify

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
