"""Write docs/api.md from the docstrings of the public API: ``python tools/make-api.py > docs/api.md``.

Every name of ``vistlog.__all__`` (and of ``vistlog.views`` and ``vistlog.archive``) with its
signature and its docstring; a test checks that docs/api.md is what this prints. ``--init`` rewrites the
``TYPE_CHECKING`` imports of ``vistlog/__init__.py`` from its one table of public names (``_PUBLIC``).
"""

from __future__ import annotations

import ast
import inspect
import itertools
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

os.environ["VISTLOG_BUILD"] = "pure"  # the page documents the source: a compiled class shows mypyc's own docstring
import vistlog

HEADER = """# The Python API

Generated from the docstrings by `python tools/make-api.py > docs/api.md` (a test checks that it is
up to date). Everything here is importable from `vistlog` (and the two modules `vistlog.views`
and `vistlog.archive`); the floors below, `vistlog.events` and `vistlog.projections`, are not part
of the API and may change between versions.

Errors: every failure of bad input or of the file system raised by the API is a
`VistlogError` (a `ValueError`), with `code` (one word per class, below) and `problems` (a tuple of
`Problem`, when there are several). `WorkerFailed` (a bug in a worker process, not bad input) is a
`RuntimeError` with the same two attributes.

## Changes

- **No Preferans in the core** (issue 59). A game's sheet is the columns its scoring declares
  (`vistlog.events.entries.Column`: a name, `paired` for a column written on another player, `counted` for one
  drawn for everybody at once; `Scoring.sheet`): `Sheet` is keyed by them (`sheet["pool"]`, `sheet.value(player,
  column, on)`, `sheet.pairs_by("whists", writer)`, `sheet.times["refe"]`, `sheet.columns`), in place of its
  `pool`, `mountain`, `points`, `whists`, `bula`, `soups`, `refe` and `refe_drawn` attributes and `whists_by`; a
  column the game does not declare is an `UnknownName`. A deal's record says how it went by a mode its game
  declares (`DealRecord.mode`: `contract`, `raspas`, `redeal`, `general_misere`, `refa`, …; `Variant.modes`,
  `vistlog.events.variant.DealMode`) in place of `DealRecord.raspas`. Each game is a package of its own, write side
  and read side: `vistlog.events.games.<name>` (`game`, `score`; Serbian's `deal`) and
  `vistlog.projections.games.<name>` (Serbian's `ppn`), in place of `vistlog.events.preferans`,
  `preferans_score`, `solo_whist`, `solo_whist_score`, `serbian`, `serbian_deal`, `serbian_score` and
  `vistlog.projections.ppn`. Below the API, a `Reading` names its layout, teller and counter as
  `vistlog.projections.parts.Part("module", "NAME")` (they were functions returning them) and its counter's column
  as `Reading.moves`.
- **One stream, the API once** (issue 59). The public names are declared once, in `vistlog/__init__.py`
  (`_PUBLIC`: each name and its module; `__all__` is read from it); `vistlog.api` no longer has an `__all__` of its
  own, and what only the command line and the pad use (`input_lines`, `MAX_LINE`, `kind_name`, `open_log`,
  `parse_line`, `LiveFold`, `analysis_json`) is not public. No name means two things: `Variant`/`VARIANTS` and
  `Preset`/`PRESETS` (a `Literal` of names and its tuple, whose names the write side used for a class and a
  registry) are now `GameName`, `game_names()`, `PresetName` and `preset_names()` (functions over the registry, so
  a game registered later is listed); `Kind` is a `str`. New: `DealDraft`, `read_draft` and `DraftError` (a deal as
  data, what the pad sends) and `Recorder.record_deal`; `Recorder.next_step(draft=...)`. Below the API:
  `LogChecker(follower, detail, eager)` tells a follower its verdicts (`vistlog.events.verdicts`) and
  `LogChecker.end()` closes the games the file leaves open (`LogChecker(tallies)` and `LogChecker.finish` are gone;
  `check` skips the rest of a deal after a refusal, as `admit` did); `Tally` is no longer subclassed (the read
  side's `GameFold` is a fold over verdicts); `GameState.snapshot()`/`restore()` replace trying by reflection. One
  check per write: `Recorder(path, live=True)` folds the log by the recorder's own checker (`Recorder.live`, what
  the pad shows), and a record is tried first (`LogChecker.rehearse`), so a refused one changes nothing; `then`
  of `Recorder.record` (what else is wrong once the events have passed) now gives `Issue`s, not `Problem`s. Below the
  API, `LogWriter(path, make_sink=...)` feeds a `Sink` (`vistlog.events.incoming`: each line with its number,
  the unreadable ones, a batch tried first).
- **Single-dummy odds** (issue 47). `Game.analysis(single_dummy=SingleDummy(samples, seed))` weighs each whist
  call and opening lead with the cards its player could not see: `DealAnalysis.decisions`, each a `Decision`
  (player, kind, the choice made, its rank and cost, and per choice the mean tricks, chance and worth with 95%
  intervals). `PlaySetup` gains `shown` (cards every player saw go to a player before play: a talon taken, a
  turned card). `vistlog.archive.decision_statistics()` is `stats --decisions`. A run's kind may carry options
  (`analyse:200:7`: `vistlog.projections.reports.kind_view`).
- **Every played deal analysed** (issue 46). `Game.analysis()` solves Solo Whist deals and raspasy too.
  `DealAnalysis` gains `side`, `objective` (`most` or `fewest`), `values` and `taken_each` (a raspas: each
  player's guaranteed tricks and his tricks as recorded; its `value` and `declarer` are `None`, its `taken`
  too); `misere` means the side plays for the fewest (Solo Whist's open misère too). Below the API, the
  search `vistlog.projections.solver.Solver(hands, seating, leader, trump, side, fewest=False, *, talon,
  taker, must_trump)` takes a side of one or more players (it took `declarer, misere`), three or four hands
  and the 52-card deck (`card_index` counts 16 bits a suit from the two: `7S` is 5, was 0); `position()`
  also gives the talon tricks done. A deal's record keeps how its play was set up, `DealRecord.setup`
  (`vistlog.events.play.PlaySetup`).
- **One word for one thing** (issue 45). `Game.variant` is now the game (`preferans`, `solo_whist`,
  `serbian`); the preset it used to be is `Game.preset`. `Variant` and `VARIANTS` name the games; the presets
  are `Preset` and `PRESETS` (`VARIANTS` used to list them). `Game.kind` and `kind_name` spell the kind as the
  log does: `solo_whist` (was `solo-whist`); `vistlog stats --kind` takes `solo_whist` and still reads
  `solo-whist`; `archive.statistics(kind=...)` takes `solo_whist`. The pad's game JSON says `preset` (its
  `variant` was the preset and is now the game).
- **Modules** (issue 45). `vistlog.api` re-exports `vistlog.games` (reading), `vistlog.recording` (checking,
  recording, the chain) and `vistlog.formats` (other programs' files); every name stays importable from
  `vistlog` and `vistlog.api`. `import vistlog` imports each name when first used. The command line is the
  package `vistlog.cli`. Below the API: `vistlog.events.log` is split into `lines` (reading), `journal`,
  `chain` and `verify` (it re-exports them); the codec's `CONVERTER` is `converter()`.
- **The write side decides alone** (issue 45). A game's arithmetic of the sheet, its `Scoring` (what a deal writes,
  when the rules end the game), is declared with its write side's `Variant` (`Variant.scoring`;
  `vistlog.events.scoring`), and each game's state keeps its totals in a `Tally` (`vistlog.events.tally`) from the
  deals it hands over. `append`, `Checker`, `Recorder` and the importers check with the write side alone
  (`LogChecker().admit`). Moved: the scoring modules `vistlog.projections.preferans`, `solo_whist`, `serbian`
  and `entries` are `vistlog.events.preferans_score`, `solo_whist_score`, `serbian_score` and `entries`. Gone:
  `ClosureOracle` (the game asks its tally: `GameState.pools_closed()`), `LogChecker(oracle)` (now
  `LogChecker(tallies)`, which makes each game's tally) and `LogChecker.hand_over` (`LogChecker.finish`). A
  read side's `Reading` takes the results function (`Reading(name, results, ...)`) instead of a `Scoring`;
  `Reading.scoring` reads the write side's. `append` no longer refuses a `game_ended` whose game's scoring
  found a problem (an allocation that does not add up): `validate` reports it, as it always did.
"""


def _attribute_docs(module: Any) -> dict[str, str]:
    """Module-level names documented by a string right after their assignment."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError):
        return {}
    docs: dict[str, str] = {}
    body = tree.body
    for node, after in itertools.pairwise(body):
        target = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            target = node.target.id
        if target and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) \
                and isinstance(after.value.value, str):
            docs[target] = inspect.cleandoc(after.value.value)
    return docs


def _doc(obj: Any) -> str:
    return inspect.cleandoc(obj.__doc__) if obj.__doc__ else ""


def _markdown(doc: str) -> str:
    """A docstring as Markdown: its examples fenced as Python sessions."""
    out: list[str] = []
    fenced = False
    for line in doc.split("\n"):
        if line.startswith(">>>") and not fenced:
            out.append("```pycon")
            fenced = True
        elif fenced and not line.strip():
            out.append("```")
            fenced = False
        out.append(line)
    if fenced:
        out.append("```")
    return "\n".join(out)


def _signature(obj: Any) -> str:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return ""


def _members(cls: type) -> list[str]:
    out = []
    for name, member in cls.__dict__.items():
        if name.startswith("_") or name in ("code", "problems"):
            continue
        if isinstance(member, property):
            out.append(f"- `{name}` (property): {_first(_doc(member))}")
        elif isinstance(member, (staticmethod, classmethod)) or inspect.isfunction(member):
            fn = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
            out.append(f"- `{name}{_signature(fn)}`: {_first(_doc(fn))}")
    fields = getattr(cls, "__attrs_attrs__", ())
    public = [f.name for f in fields if not f.name.startswith("_")]
    if public:
        out.insert(0, "- fields: " + ", ".join(f"`{n}`" for n in public))
    return out


def _first(doc: str) -> str:
    return " ".join(doc.split("\n\n", 1)[0].split())


def _section(name: str, obj: Any, data_docs: dict[str, str]) -> list[str]:
    lines = [f"### `{name}`", ""]
    if inspect.isclass(obj):
        kind = "exception" if issubclass(obj, BaseException) else "class"
        # Plain (a shared repr and eq) is no part of the API
        bases = ", ".join(b.__name__ for b in obj.__bases__ if b is not object and b.__name__ != "Plain")
        head = f"{kind} `{name}{_signature(obj) if kind == 'class' else ''}`" + (f" ({bases})" if bases else "")
        if issubclass(obj, BaseException):
            head += f", code `{obj.code}`" if isinstance(getattr(obj, "code", None), str) else ""
        lines += [head, "", _markdown(_doc(obj)), ""]
        members = _members(obj)
        if members:
            lines += [*members, ""]
    elif inspect.isfunction(obj):
        lines += [f"`{name}{_signature(obj)}`", "", _markdown(_doc(obj)), ""]
    else:
        lines += [f"`{name}` = `{obj!r}`" if isinstance(obj, tuple) and len(repr(obj)) < 100 else f"`{name}`", "",
                  data_docs.get(name, ""), ""]
    return lines


def render() -> str:
    """The whole page."""
    out = [HEADER]
    for title, module in (("vistlog", vistlog), ("vistlog.views", vistlog.views),
                          ("vistlog.archive", vistlog.archive)):
        out += [f"## `{title}`", "", _first(_doc(module)), ""]
        data_docs: dict[str, str] = {}
        for source in (vistlog.api, vistlog.games, vistlog.recording, vistlog.formats, module, vistlog.events.problems):
            data_docs.update(_attribute_docs(source))
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                out += [f"### `{name}`", "", f"module `vistlog.{name}`", "",
                        f"{_first(_doc(obj))} Its names are in the section `vistlog.{name}` below.", ""]
                continue
            out += _section(name, obj, data_docs)
    text = "\n".join(out)
    root = str(Path(__file__).resolve().parent.parent)
    return text.replace(root, ".").rstrip() + "\n"


def typing_block() -> str:
    """The imports ``vistlog/__init__.py`` shows type checkers, from ``vistlog._PUBLIC`` (one per module)."""
    out = ["if TYPE_CHECKING:  # written by tools/make-api.py --init from _PUBLIC below; a test keeps them equal"]
    for module, names in vistlog._PUBLIC.items():
        where = module or "."
        line = f"    from {where} import {', '.join(sorted(names))}"
        if len(line) > 120:
            wrapped = textwrap.wrap(", ".join(sorted(names)) + ",", 112)
            line = f"    from {where} import (\n" + "".join(f"        {w}\n" for w in wrapped) + "    )"
        out.append(line)
    return "\n".join(out) + "\n"


def write_init() -> None:
    """Put :func:`typing_block` in ``vistlog/__init__.py`` in place of the block there."""
    path = Path(__file__).resolve().parent.parent / "vistlog" / "__init__.py"
    text = path.read_text(encoding="utf-8")
    start = text.index("if TYPE_CHECKING:") if "if TYPE_CHECKING:" in text else text.index("@@TYPING@@")
    end = text.index("\n\n", start)
    path.write_text(text[:start] + typing_block().rstrip("\n") + text[end:], encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--init"]:
        write_init()
    else:
        sys.stdout.write(render())
