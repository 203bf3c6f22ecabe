"""The ``vistlog`` command: argument parsing and wiring, no game logic.

It is a client of the public API like any other: it imports the modules behind :mod:`vistlog.api`
(:mod:`vistlog.games`, :mod:`vistlog.recording`, :mod:`vistlog.formats`), :mod:`vistlog.views`,
:mod:`vistlog.archive` and its own output helpers; of the floors below, only the error classes it names.
The parser knows every command; a command's module (:mod:`vistlog.cli.reading`,
:mod:`~vistlog.cli.recording`, :mod:`~vistlog.cli.across`) is imported only when that command runs, and
each imports what it needs when it needs it, so ``vistlog --version`` or ``vistlog deal`` never pays for the
renderers, the solver or the pad.

Exit codes (docs/cli.md): 0 done / everything holds; 1 the input is readable but something is
wrong (an invalid event, an audit mismatch, a broken chain); 2 usage error or input that
cannot be read at all; 3 ``verify`` only: the log has no hash chain.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Callable
from typing import Any, cast

from .common import UsageError, err

__all__ = ["main", "run", "build_parser", "commands"]


RAISE_INTERNAL_ERRORS = False
"""Tests set this so an internal error fails them instead of becoming a one-line message."""


LANGS: tuple[str, ...] = ("ru", "en")
"""The languages of ``--lang`` (:data:`vistlog.views.LANGS`, said here so that parsing imports no renderer)."""


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


class _Version(argparse.Action):
    """``--version``: the version and which build runs, worked out only when asked."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from vistlog import build

        solver = "compiled (C)" if build.solver_compiled() else "pure Python (no C compiler at install)"
        sys.stdout.write(f"vistlog {_version()} · {build.describe()} · open-hand solver: {solver}\n")
        parser.exit()


def _version() -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version("vistlog")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _date_arg(text: str) -> str:
    import datetime as dt

    try:
        return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date YYYY-MM-DD") from None


def _add_key(sp: argparse.ArgumentParser, help_: str) -> None:
    sp.add_argument("--key-file", metavar="FILE", help=help_)


def _add_many(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--jobs", type=_positive, metavar="N",
                    help="run on N processes (default: every core); one log is split by game among them")
    sp.add_argument("--dask", metavar="ADDRESS",
                    help="many logs: run on a Dask scheduler at ADDRESS, or 'local' for a "
                         "LocalCluster (needs pip install 'vistlog[dask]')")


def _seconds(text: str) -> float:
    """A positive number of seconds (argparse's type)."""
    from vistlog.api import budget_seconds

    value = budget_seconds(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r}: seconds, a number above 0 (e.g. 2 or 0.5)")
    return value


def _add_budget(sp: argparse.ArgumentParser) -> None:
    budget = sp.add_mutually_exclusive_group()
    budget.add_argument("--budget", type=_seconds, metavar="SECONDS",
                        help="seconds of open-hand search a deal may take (default: 2 with the compiled search, 20 "
                             "pure): the contract's fate is asked first, then the counts; a count past the budget "
                             "is given as the range the search proved (JSON: exact false, low, high)")
    budget.add_argument("--exact", action="store_true", help="wait for every count, however long it takes")


def _add_lang(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--lang", choices=LANGS, default=None,
                    help="the language of the words (text, HTML, SVG): ru or en (default: VISTLOG_LANG, else en); "
                         "JSON and CSV are the same in both")


class _NotAsked:
    """Stands for a command's parser when another command runs: its arguments are never made."""

    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        """Nothing: the command is not parsed."""

    def add_mutually_exclusive_group(self, *args: Any, **kwargs: Any) -> _NotAsked:
        """Itself: nothing of the command is made."""
        return self


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help laid out to the terminal's width, found without importing :mod:`shutil` (argparse makes a formatter
    for every option it adds, and ``shutil`` with its compression modules is a tenth of a command's start-up)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, width if width is not None else _width() - 2)


def _width() -> int:
    """The terminal's columns as :func:`shutil.get_terminal_size` finds them: ``COLUMNS``, else the terminal of
    standard output, else 80 (a test compares the two)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser, with a subcommand per command of docs/cli.md (``only``: that command's alone, the
    others' arguments left unmade: a command starts without building the other fourteen)."""
    p = argparse.ArgumentParser(
        prog="vistlog", formatter_class=_Formatter,
        description="Score keeper and auditor for преферанс (Preferans) and вист-соло (Solo Whist): "
                    "reads JSON Lines game logs, folds them into the пулька, settles exactly, audits.",
        epilog=EXAMPLES)
    p.add_argument("--version", action=_Version, help="show the version and the build, then exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(name: str, func: str, help_: str, example: str) -> argparse.ArgumentParser:
        if only is not None and name != only:
            return cast(argparse.ArgumentParser, _NotAsked())
        sp = sub.add_parser(name, help=help_, description=help_, epilog=f"example:\n  {example}",
                            formatter_class=_Formatter)
        sp.set_defaults(func=func)
        return sp

    for group in _GROUPS:
        group(add)
    return p


def commands() -> tuple[str, ...]:
    """Every command's name, in the order ``--help`` lists them (read from the groups below without building a
    parser)."""
    names: list[str] = []

    def note(name: str, func: str, help_: str, example: str) -> argparse.ArgumentParser:
        names.append(name)
        return cast(argparse.ArgumentParser, _NotAsked())

    for group in _GROUPS:
        group(note)
    return tuple(names)


_Adder = Callable[[str, str, str, str], argparse.ArgumentParser]
"""Adds a command: its name, where its function is (``module.function`` under ``vistlog.cli``), its help and
its example."""


def _reading_commands(add: _Adder) -> None:
    """validate, sheet, settle, audit and replay: the commands that read logs."""
    sp = add("validate", "reading.cmd_validate",
             "check every event and the order of play; list every problem",
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
        ("sheet", "reading.cmd_sheet", "the score sheet (пулька) after the last or the given deal",
         ("text", "json", "csv", "html", "svg"), "vistlog sheet samples/sochi-evening.jsonl --upto 6"),
        ("settle", "reading.cmd_settle", "the final settlement, exact and rounded, with money and payments",
         ("text", "json"), "vistlog settle samples/sochi-evening.jsonl --format json\n"
                           "  vistlog settle archive/ --jobs 2 --format json     # every *.jsonl below archive/"),
        ("audit", "reading.cmd_audit", "compare recorded sheets (score_recorded or --claimed) with the rules",
         ("text", "json"), "vistlog audit samples/disputed-sheet.jsonl\n"
                           "  vistlog audit archive/ --dask local                # on a local Dask cluster"),
        ("replay", "reading.cmd_replay", "deal by deal, in words, what happened and what each entry is for",
         ("text", "lines", "html"), "vistlog replay samples/classic-bombs.jsonl --upto 3\n"
                                    "  vistlog replay samples/sochi-evening.jsonl --format lines   # one deal a line\n"
                                    "  vistlog replay samples/open-hands.jsonl --format html --analyse -o game.html   "
                                    "# one file to send"),
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
            sp.add_argument("--analyse", action="store_true",
                            help="with --format html: each card's double-dummy value and cost (vistlog analyse)")
        if name in ("sheet", "replay"):
            sp.add_argument("-o", "--output", metavar="FILE",
                            help="write here, whole or not at all (default: standard output)")
        if len(fmts) > 1:
            sp.add_argument("--format", choices=fmts, default="text",
                            help="lines: every deal in the one-line notation of vistlog deal (docs/notation.md); "
                                 "html: one self-contained page to send, trick by trick (one game: --game)"
                            if name == "replay" else "output format (default text)")
        _add_lang(sp)
        if name == "audit":
            sp.add_argument("--claimed", metavar="FILE",
                            help="a claimed sheet: JSON ({\"Аня\": {\"pool\": 14, …}}) or CSV (player,field,value)")


def _analysis_command(add: _Adder) -> None:
    """analyse: the play with all hands open."""
    sp = add("analyse", "reading.cmd_analyse",
             "solve each played deal with all hands open (a contract, Solo Whist's too; a raspas, each "
             "for himself): was it makeable, which card cost a trick and what in whists, does a claim hold",
             "vistlog analyse samples/classic-bombs.jsonl\n"
             "  vistlog analyse samples/solo-whist-evening.jsonl    # prop and cop: the side of two\n"
             "  vistlog analyse samples/classic-bombs.jsonl --deal 7 --format json\n"
             "  vistlog analyse samples/open-hands.jsonl --single-dummy --samples 200 --seed 1   # whist calls, leads\n"
             "  vistlog analyse samples/solo-whist-evening.jsonl --budget 0.5   # a count past it: a proven range\n"
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
    sp.add_argument("--single-dummy", action="store_true",
                    help="also weigh each whist call and opening lead with the cards its player could not see: "
                         "layouts of the unseen cards drawn, each solved, every choice scored (docs/cli.md)")
    sp.add_argument("--samples", type=_samples, metavar="N",
                    help="with --single-dummy: layouts per decision (default 200; all of them when no more fit)")
    sp.add_argument("--seed", type=int, metavar="S",
                    help="with --single-dummy: the draw's seed (default 0); the same seed gives the same output "
                         "whatever --jobs")
    _add_budget(sp)
    _add_lang(sp)
    _add_many(sp)


def _recording_commands(add: _Adder) -> None:
    """append, deal, serve, import, export and verify: the commands that write or prove a log."""
    sp = add("append", "recording.cmd_append",
             "append events from standard input, checked, all or nothing, hash-chained",
             "vistlog append game.jsonl < new-events.jsonl\n"
             "  vistlog append club.jsonl --key-file ~/.vistlog-club.key < tonight.jsonl   # a keyed chain")
    sp.add_argument("log", metavar="LOG", help="log file (created when missing)")
    _add_key(sp, "chain the new lines with HMAC-SHA256 and the secret in FILE (a keyed chain: _mac)")
    sp = add("deal", "recording.cmd_deal",
             "record one deal written in one line (docs/notation.md); then who deals next",
             'vistlog deal evening.jsonl "Боря 6♠; Вова вист, Аня пас; Боря 7 Вова 3"\n'
             '  vistlog deal evening.jsonl "распасы; Аня 5 Боря 3 Вова 2"\n'
             '  vistlog deal evening.jsonl "Вова мизер; Вова 0"\n'
             '  vistlog deal evening.jsonl "void 4 misdeal"     # then: "again 4; …" records it anew')
    sp.add_argument("log", metavar="LOG", help="the log (its game must have started: vistlog serve or append)")
    sp.add_argument("line", metavar="LINE", help="the deal: [bids …;] DECLARER CONTRACT | raspas; [calls;] TRICKS")
    sp.add_argument("--game", metavar="ID", help="the game (required when several are under way)")
    sp.add_argument("--by", metavar="NAME", help="who records it (the events' by)")
    _add_key(sp, "the secret of a keyed log (its lines carry _mac)")
    sp = add("serve", "recording.cmd_serve",
             "the score pad: record the evening in the browser, the пулька drawn as it goes",
             "vistlog serve evening.jsonl --open\n"
             "  vistlog serve club.jsonl --host 0.0.0.0 --port 8765     # phones at the table: prints the token "
             "and a QR code\n"
             "  vistlog serve club.jsonl --key-file ~/.vistlog-club.key   # a keyed log stays keyed")
    sp.add_argument("log", metavar="LOG", help="the log (created with the first game; an existing one is continued)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="where to listen (default 127.0.0.1: this machine only; any other needs the printed token)")
    sp.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0: any free one)")
    sp.add_argument("--open", action="store_true", help="open the page in the browser")
    sp.add_argument("--analysis-seconds", type=_positive_seconds, default=30, metavar="S",
                    help="how long one deal's analysis asked for by the page may run (default 30; it runs beside "
                         "the server, which answers everything else meanwhile)")
    sp.add_argument("--analysis-memory", type=_positive_mb, default=2048, metavar="MB",
                    help="how much memory one deal's analysis may take (default 2048)")
    budget = sp.add_mutually_exclusive_group()
    budget.add_argument("--analysis-budget", type=_seconds, metavar="SECONDS",
                        help="seconds of open-hand search a deal may take before a count is given as the range "
                             "proved (default: analyse's, 2 with the compiled search)")
    budget.add_argument("--analysis-exact", action="store_true",
                        help="every count exact, within --analysis-seconds")
    _add_key(sp, "the secret of a keyed log: every deal written is keyed (_mac)")
    sp = add("import", "recording.cmd_import",
             "bring games in from other programs: every game checked, appended, chained",
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
    sp = add("export", "recording.cmd_export",
             "write one game of a log in another format",
             "vistlog export --to csv club.jsonl --game club-2026-11-29 -o protocol.csv\n"
             "  vistlog export --to ppn serbian.jsonl --game sr-1 -o sr-1.ppn")
    sp.add_argument("--to", dest="target_format", required=True, choices=("csv", "pbn", "ppn"), metavar="FORMAT",
                    help="csv (a club protocol, Preferans or Solo Whist), pbn (Solo Whist) or ppn (Serbian "
                         "preferans with the cards)")
    sp.add_argument("log", metavar="LOG")
    sp.add_argument("--game", metavar="ID", help="the game (required when the log holds several)")
    sp.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    sp = add("verify", "recording.cmd_verify",
             "check the hash chain (exit 3 when the log has none)",
             "vistlog verify game.jsonl\n"
             "  vistlog verify game.jsonl --head 9f2c…e41a     # the head printed by an earlier verify")
    sp.add_argument("log", metavar="LOG", help="log file")
    sp.add_argument("--head", metavar="HASH",
                    help="a head printed by an earlier verify, kept elsewhere: proves no line was cut "
                         "from the end since (exit 1 when no line of the chain carries it)")
    _add_key(sp, "the secret of a keyed chain (_mac lines); without it they cannot be proven (exit 3)")


def _kind(text: str) -> str:
    """A kind of log among those registered (asked only when ``--kind`` is given: the parser imports no game)."""
    from vistlog.games import kind_names

    kind = text.replace("-", "_")
    if kind not in kind_names():
        raise argparse.ArgumentTypeError(f"{text!r} is not a kind of log (kinds: {', '.join(kind_names())})")
    return kind


def _archive_commands(add: _Adder) -> None:
    """stats, schema and rules: across archives, and the format and rules themselves."""
    sp = add("stats", "across.cmd_stats",
             "every player's record, contract statistics and Glicko-2 ratings across logs",
             "vistlog stats samples/\n"
             "  vistlog stats archive/ --since 2026-01-01 --alias names.csv --format html -o stats.html\n"
             "  vistlog stats samples/ --decisions --samples 100 --jobs 2   # whist calls and leads, single-dummy")
    sp.add_argument("logs", nargs="+", metavar="LOG", help="log files or folders (every *.jsonl below)")
    sp.add_argument("--player", metavar="NAME", help="show only this player (ratings still use every game)")
    sp.add_argument("--since", type=_date_arg, metavar="DATE", help="only games from this day on (YYYY-MM-DD)")
    sp.add_argument("--until", type=_date_arg, metavar="DATE", help="only games up to this day (YYYY-MM-DD)")
    sp.add_argument("--kind", type=_kind,
                    help="only games of this kind, as the log spells it: preferans, solo_whist, or a kind a game "
                         "registered (solo-whist is read as solo_whist)")
    sp.add_argument("--period", choices=("day", "week", "month"), default="day",
                    help="the rating period: a day of play (default), a week or a month")
    sp.add_argument("--alias", metavar="FILE", help="CSV name,alias: merge a person's spellings under one name")
    sp.add_argument("--format", choices=("text", "json", "csv", "html"), default="text", help="output format")
    sp.add_argument("-o", "--output", metavar="FILE", help="html: write here (default: standard output)")
    sp.add_argument("--decisions", action="store_true",
                    help="per player: how often the whist calls and opening leads were the best single-dummy "
                         "choice, and what they cost on average (analyse --single-dummy of every game)")
    sp.add_argument("--samples", type=_samples, metavar="N", help="with --decisions: layouts a decision (default 200)")
    sp.add_argument("--seed", type=int, metavar="S", help="with --decisions: the draw's seed (default 0)")
    _add_budget(sp)
    _add_lang(sp)
    _add_many(sp)
    add("schema", "across.cmd_schema",
        "print the JSON Schema of the event format", "vistlog schema > events.schema.json")
    sp = add("rules", "across.cmd_rules",
             "list the presets, or show every option of one", "vistlog rules classic\n  vistlog rules sochi --lang ru")
    sp.add_argument("preset", nargs="?", metavar="PRESET", help="a preset name")
    sp.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    _add_lang(sp)


_GROUPS: tuple[Callable[[_Adder], None], ...] = (_reading_commands, _analysis_command, _recording_commands,
                                                 _archive_commands)
"""The commands, group by group."""


def _whole(minimum: int, what: str, maximum: int | None = None, why: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number in ASCII digits of at least ``minimum`` (and at most ``maximum``, for
    the reason ``why``)."""

    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit() and len(text) <= 18):
            raise argparse.ArgumentTypeError(f"{text!r} is not {what} (whole, in digits 0-9)")
        n = int(text)
        if n < minimum:
            raise argparse.ArgumentTypeError(f"{what} is {minimum} or more")
        if maximum is not None and n > maximum:
            raise argparse.ArgumentTypeError(f"{what} is at most {maximum}{why}")
        return n

    return parse


_positive = _whole(1, "a number of processes", maximum=4 * (os.cpu_count() or 1),
                   why=" (4 × the cores of this machine)")
_samples = _whole(1, "a number of layouts", maximum=100_000, why=" (a decision weighed with more takes minutes)")
_positive_seconds = _whole(1, "a number of seconds", maximum=86_400, why=" (a day)")
_positive_mb = _whole(64, "a number of megabytes", maximum=1 << 20, why=" (a terabyte)")


_deal_number = _whole(0, "a deal number")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    first = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(first if first in commands() else None)
    args = parser.parse_args(argv)
    where, _, name = args.func.rpartition(".")
    try:
        code = getattr(importlib.import_module(f"vistlog.cli.{where}"), name)(args)
        sys.stdout.flush()
        return int(code)
    except UsageError as exc:
        err(f"vistlog {args.command}: {exc}")
        return 2
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the interpreter's flush at exit
        return 0
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except OSError as exc:  # standard output or error that cannot take the text (a full disk, /dev/full)
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the interpreter's flush at exit
        err(f"vistlog {args.command}: cannot write ({exc.strerror or exc})")
        return 2
    except Exception as exc:  # noqa: BLE001 - no traceback ever reaches a user
        if _raised(exc, ("vistlog.events.log", "LogUnreadable"), ("vistlog.projections.audit", "ClaimError"),
                   ("vistlog.output", "OutputError")):  # input or output that cannot be read or written
            err(str(exc))
            return 2
        if _raised(exc, ("vistlog.events.problems", "UnknownName")) or getattr(exc, "code", None) == "worker-failed":
            err(f"vistlog {args.command}: {exc}")  # a name not known; a worker process that died or failed
            return 2
        if RAISE_INTERNAL_ERRORS:
            raise
        err(f"vistlog {args.command}: internal error ({type(exc).__name__}: {exc}); please report it")
        return 2


def _raised(exc: BaseException, *classes: tuple[str, str]) -> bool:
    """``exc`` is one of these classes (each named by its module, looked for only where that module was
    imported: an exception of a module nobody imported was not raised)."""
    for module, name in classes:
        cls = getattr(sys.modules.get(module), name, None)
        if isinstance(cls, type) and isinstance(exc, cls):
            return True
    return False


def run() -> None:
    """Entry point of the console script."""
    sys.exit(main())


