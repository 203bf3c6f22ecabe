"""The commands across archives and about the format itself: stats, schema and rules."""

from __future__ import annotations

import argparse
import sys

import orjson

from .common import UsageError as _UsageError
from .common import budget as _budget
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
    if args.decisions:
        return _decisions(args, paths)
    if args.samples is not None or args.seed is not None or args.budget is not None or args.exact:
        raise _UsageError("--samples, --seed, --budget and --exact weigh the decisions of --decisions")
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


def _decisions(args: argparse.Namespace, paths: list[str]) -> int:
    """stats --decisions: each player's whist calls and leads against the best single-dummy choice."""
    from vistlog import archive
    from vistlog.errors import VistlogError
    from vistlog.output import dumps

    if args.format not in ("text", "json"):
        raise _UsageError("--decisions writes text or json")
    samples, seed = args.samples or 200, args.seed or 0
    try:
        tally, report = archive.decision_statistics(paths, samples=samples, seed=seed, jobs=args.jobs, dask=args.dask,
                                                    progress=archive.progress_bar(), budget=_budget(args))
    except VistlogError as exc:
        raise _UsageError(str(exc)) from None
    for f in report.in_order():
        if f.unreadable:
            _err(f.unreadable)
        elif f.problems:
            _err(f"{f.path}: {len(f.problems)} problem(s): its games are left out")
    if args.format == "json":
        _out(dumps({"decisions": {"samples": samples, "seed": seed, **tally.to_json()}}))
    else:
        _out(tally.text(args.lang))
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
        _out(views.presets_text(args.lang))
        return 0
    if args.preset not in views.preset_names():
        raise _UsageError(f"no preset {args.preset!r} (presets: {', '.join(views.preset_names())})")
    if args.format == "json":
        _out(orjson.dumps(views.rules_json(args.preset), option=orjson.OPT_INDENT_2).decode())
    else:
        _out(views.rules_text(args.preset, args.lang))
    return 0
