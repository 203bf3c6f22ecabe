"""The commands across archives and about the format itself: stats, schema and rules."""

from __future__ import annotations

import argparse
import sys

import orjson

from .common import UsageError as _UsageError
from .common import err as _err
from .common import find_logs
from .common import out as _out

__all__ = ["cmd_stats", "cmd_schema", "cmd_rules"]


def cmd_stats(args: argparse.Namespace) -> int:
    """vistlog stats: every player's record, contract statistics and ratings across an archive."""
    from vistlog import archive, views
    from vistlog.errors import LogUnreadable, VistlogError
    from vistlog.output import dumps, write_file

    paths = find_logs(args.logs)
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


def cmd_schema(args: argparse.Namespace) -> int:
    """vistlog schema: the JSON Schema of the event format."""
    from vistlog import views

    _out(orjson.dumps(views.schema(), option=orjson.OPT_INDENT_2).decode())
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """vistlog rules: the presets, or every option of one."""
    from vistlog import views

    if args.preset is None:
        _out(views.presets_text())
        return 0
    if args.preset not in views.preset_names():
        raise _UsageError(f"no preset {args.preset!r} (presets: {', '.join(views.preset_names())})")
    if args.format == "json":
        _out(orjson.dumps(views.rules_json(args.preset), option=orjson.OPT_INDENT_2).decode())
    else:
        _out(views.rules_text(args.preset))
    return 0
