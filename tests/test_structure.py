"""The shape of the code (issue 32): no import cycles among vistlog's modules (counting every import in a
module, at its top or inside a function, as pyright's ``reportImportCycles`` does: a cycle is a module
half-initialised), the read side apart from the checker's internals, no overlong function unexplained."""

from __future__ import annotations

import ast
from pathlib import Path

from .conftest import ROOT

FLOORS = {"events": "vistlog.events", "projections": "vistlog.projections", "vistlog": "vistlog"}


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for folder, package in FLOORS.items():
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT / folder)
            if folder == "vistlog" and rel.parts[0] in ("events", "projections"):
                continue  # the links to the two floors
            parts = [package, *rel.with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            target = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)  # from . import csv_protocol
    edges = set()
    for target in found:
        while target and target not in known:
            target = target.rsplit(".", 1)[0] if "." in target else ""
        if target and target != name:
            edges.add(target)
    return edges


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_itself_round_a_cycle() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    assert len(graph) > 50 and graph["vistlog.events.checker"] >= {"vistlog.events.variants"}
    assert _cycles(graph) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


STATE_CLASSES = {"PreferansGame", "SoloWhistGame", "SerbianGame", "Phase"}
GAME_MODULES = {"vistlog.events.game", "vistlog.events.games.preferans.game", "vistlog.events.games.solo_whist.game"}
"""The state machines: the base and the games' own."""


def test_the_read_side_never_imports_the_checkers_internals() -> None:
    """projections/ folds what the write side hands over (events, :class:`DealRecord`, the checker's public
    methods): never a game's state classes or a name the write side keeps to itself."""
    bad = []
    for path in (ROOT / "projections").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("vistlog.events"):
                continue
            names = [a.name for a in node.names]
            if node.module in GAME_MODULES:
                bad.append((path.name, node.module, names))
            bad += [(path.name, node.module, n) for n in names
                    if n.startswith("_") or n.endswith(("State", "Deal")) or n in STATE_CLASSES]
    assert bad == []


CHECKER_INPUTS = frozenset({"check", "admit", "end", "note_unreadable", "expect_seq", "go_live", "rehearse"})
"""What the read side may do with a checker: give it the file's lines (and say the file ended), or lines to try
that change nothing (a writer's batch); it is told the rest (:mod:`vistlog.events.verdicts`)."""
CHECKER_STATE = frozenset({"catch_up", "tally", "hand_over", "pools_closed", "deal_of", "open_at_end"})
"""What a game's state keeps or does to itself."""
PLAIN_RECORDS = frozenset({"Plain", "Sequence", "Protocol", "Exception", "VistlogError", "NamedTuple"})


def test_the_read_side_is_a_fold_over_what_the_checker_told() -> None:
    """Issue 59: projections/ reads and drives no checker state (no ``checker.games``, ``finish``, ``catch_up``, a
    state's ``tally``…), and no class of it extends a class of events/ other than plain records."""
    events_names: set[str] = set()
    for path in (ROOT / "events").rglob("*.py"):
        events_names |= {n.name for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                         if isinstance(n, ast.ClassDef)}
    reads, extends = [], []
    for path in (ROOT / "projections").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    and (node.module or "").startswith("vistlog.events") for a in node.names}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            owner = node.value.id if isinstance(node.value, ast.Name) else \
                node.value.attr if isinstance(node.value, ast.Attribute) else ""
            if node.attr in CHECKER_STATE or (owner == "checker" and node.attr not in CHECKER_INPUTS):
                reads.append(f"{path.name}:{node.lineno} {owner}.{node.attr}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                extends += [f"{path.name}:{node.name}({b.id})" for b in node.bases if isinstance(b, ast.Name)
                            and b.id in imported and b.id in events_names and b.id not in PLAIN_RECORDS]
    assert reads == [] and extends == []


def test_trying_a_step_reflects_over_no_fields() -> None:
    """Issue 59: events are tried on a game through its explicit ``snapshot``/``restore``, never by copying an
    object's ``__dict__`` or a compiled class's field list."""
    paths = [ROOT / "events" / f"{name}.py" for name in ("nextstep", "game", "gamehooks", "checker")]
    for path in [*paths, *(ROOT / "events" / "games").rglob("*.py")]:
        name, text = path.name, path.read_text(encoding="utf-8")
        assert "__mypyc_attrs__" not in text and "__dict__" not in text and "vars(" not in text, name


def test_the_floors_are_imported_under_vistlog_only() -> None:
    """``import events.game`` from the repository's root would be a second copy with other classes: refused."""
    import subprocess
    import sys

    for name in ("events.game", "projections.fold"):
        done = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 1 and f"import vistlog.{name.split('.')[0]}, not" in done.stderr


def test_no_function_is_over_80_lines_without_saying_why() -> None:
    """A function longer than 80 lines says why in its docstring ("longer than 80 lines …")."""
    long = []
    for path in _modules().values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > 80 and "longer than 80 lines" not in (ast.get_docstring(node) or "").lower():
                    long.append((path.name, node.name, length))
    assert long == []


GENERATED = frozenset({"events/hooks.py"})
"""Modules a script writes (``tools/make-hooks.py``): their length is the generator's business."""


def test_no_hand_written_module_is_over_600_lines() -> None:
    """Modules sized for one job (issue 45): none written by hand is over 600 lines, tests and tools included."""
    long = []
    for folder in ("events", "projections", "vistlog", "tests", "tools", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if rel.parts[:2] in (("vistlog", "events"), ("vistlog", "projections")) or rel.as_posix() in GENERATED:
                continue  # the links to the two floors; generated source
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > 600:
                long.append((rel.as_posix(), lines))
    assert long == []


GAME_NAMES = frozenset({"preferans", "solo_whist", "serbian"})
"""The games vistlog ships (:data:`vistlog.events.variants.VARIANTS`)."""

GAME_PACKAGES = ("vistlog.events.games.", "vistlog.projections.games.")
"""Where each game lives, a package per side (``vistlog.events.games.preferans``, ``…projections.games.preferans``)."""

OWN_MODULES = {
    "a game's own modules": {name for name in _modules() if name.startswith(GAME_PACKAGES)},
    "the rules as data: every preset and the game it is played as": {"vistlog.events.rules"},
    "the kinds of log, as the log spells them": {"vistlog.events.cards"},
}


def _names_a_game(tree: ast.AST) -> list[tuple[int, str]]:
    """Where a module asks which game it is: a game's name compared with, looked up by, or used as a key."""
    found = []
    for node in ast.walk(tree):
        consts: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            consts = [node.left, *node.comparators]
        elif isinstance(node, ast.Subscript):
            consts = [node.slice]
        elif isinstance(node, ast.Dict):
            consts = [k for k in node.keys if k is not None]
        found += [(c.lineno, c.value) for c in consts
                  if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value in GAME_NAMES]
    return found


def test_no_generic_module_asks_which_game_it_is() -> None:
    """A game is declared once per side (issue 45): outside its own modules no module compares a game's name, looks
    a table up by it or keys one with it. The importers read and write other programs' files, which name the kinds
    of log they hold (``kind`` as the log spells it), so they are the one other place a name may stand."""
    allowed = set().union(*OWN_MODULES.values())
    asking = []
    for name, path in _modules().items():
        if name in allowed or name.startswith("vistlog.events.importers"):
            continue
        asking += [(name, line, value) for line, value in _names_a_game(ast.parse(path.read_text(encoding="utf-8")))]
    assert asking == []



def test_the_generic_game_state_holds_no_preferans_state() -> None:
    """Issue 59: the state every game shares keeps no Preferans rule's state: the raspasy in a row are the Preferans
    game's own (:class:`~vistlog.events.games.preferans.game.PreferansGame`), the base counts only a dealer dealing
    again."""
    def attributes(path: Path) -> set[str]:
        return {node.attr for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
                and isinstance(getattr(node, "ctx", None), ast.Store)}

    assert not {a for a in attributes(ROOT / "events" / "game.py") if "raspas" in a}
    assert "raspas_run" in attributes(ROOT / "events" / "games" / "preferans" / "game.py")


def test_each_game_is_a_package_per_side() -> None:
    """Issue 59: every game vistlog ships is one package on each side, named for the game, and its write side's
    package declares it (``VARIANT``); no module of a game lies outside its two packages."""
    import importlib

    from vistlog.events.variants import VARIANTS

    for name in GAME_NAMES:
        write = importlib.import_module(f"vistlog.events.games.{name}")
        read = importlib.import_module(f"vistlog.projections.games.{name}")
        assert write.VARIANT is VARIANTS[name] and read.READING.name == name
    own = {m for m in _modules() if m.startswith(GAME_PACKAGES)}
    assert {m.split(".")[3] for m in own if m.count(".") >= 3} == set(GAME_NAMES)
    for name in GAME_NAMES:  # no module elsewhere named for a game
        assert not [m for m in _modules() if m.rsplit(".", 1)[-1].startswith(name) and not m.startswith(GAME_PACKAGES)
                    and ".importers." not in m]


def test_the_api_asks_the_checker_and_never_reaches_into_its_games() -> None:
    """Issue 59: the recorder asks the checker (``under_way``, ``table``, ``open_deal``, ``next_step``); neither it
    nor any module of ``vistlog/`` reads a checker's game states or drives them."""
    found = []
    for path in (ROOT / "vistlog").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in {"games", "catch_up"} and \
                    isinstance(node.value, ast.Name) and node.value.id in {"checker", "live", "chk"}:
                found.append(f"{path.name}:{node.lineno}")
    assert found == []
