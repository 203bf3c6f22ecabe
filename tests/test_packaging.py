"""The distribution: one import root, a repository that stands alone."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(out), str(ROOT)], check=True, capture_output=True)
    (whl,) = out.glob("vistlog-*.whl")
    return whl


def test_the_wheel_has_one_top_level_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        (top_level,) = [n for n in names if n.endswith(".dist-info/top_level.txt")]
        assert z.read(top_level).decode().split() == ["vistlog"]
    code = [n for n in names if ".dist-info/" not in n]
    assert code and all(n.startswith("vistlog/") for n in code), [n for n in code if not n.startswith("vistlog/")]
    assert {"vistlog/py.typed", "vistlog/events/codec.py", "vistlog/events/importers/pbn.py",
            "vistlog/projections/fold.py", "vistlog/projections/render/drawing.py", "vistlog/cli/__init__.py",
            "vistlog/pad.py", "vistlog/static/pad.html", "vistlog/static/pad.js", "vistlog/static/pad.css"} <= set(code)
    assert not any("simulate" in n for n in code), "the random-game simulator is a test tool"


def test_the_compiled_solver_is_in_the_wheel_where_a_compiler_is(wheel: Path) -> None:
    import shutil
    import sysconfig

    if not shutil.which(str(sysconfig.get_config_var("CC") or "cc").split()[0]):
        pytest.skip("no C compiler here")
    with zipfile.ZipFile(wheel) as z:
        assert any(n.startswith("vistlog/projections/_csolver") and not n.endswith(".c") for n in z.namelist())


def test_the_install_goes_on_without_a_c_compiler(tmp_path: Path) -> None:
    """The compiled solver is an optional extension: with no compiler the wheel is built, pure Python."""
    import os
    import shutil

    tree = tmp_path / "src"
    ignore = shutil.ignore_patterns(".git", ".venv*", "__pycache__", "*.egg-info", "*.so", "build")
    for name in ("events", "projections", "vistlog", "build_backend"):
        shutil.copytree(ROOT / name, tree / name, symlinks=True, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tree)
    out = tmp_path / "wheel"
    env = {**os.environ, "CC": "/bin/false", "CXX": "/bin/false", "LDSHARED": "/bin/false"}
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--wheel-dir", str(out), str(tree)], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (whl,) = out.glob("vistlog-*.whl")
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
    assert "vistlog/projections/solver.py" in names
    assert not any(n.endswith((".so", ".pyd")) for n in names)


def test_events_is_not_a_top_level_module_once_installed(tmp_path: Path) -> None:
    script = "import importlib.util as u, vistlog.events, vistlog.projections; " \
             "print(u.find_spec('events'), u.find_spec('projections'))"
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["None", "None"]


def test_no_tracked_file_refers_to_the_specification_folder_outside() -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    needle = b"../" + b"shared"
    offenders = [f.decode() for f in files if f and (ROOT / f.decode()).is_file()
                 and needle in (ROOT / f.decode()).read_bytes()]
    assert offenders == []


def test_the_source_checks_hold_in_a_checkout_named_vistlog(tmp_path: Path) -> None:
    """A clone lands in a folder named ``vistlog`` by default: the tests that list the source files
    run again from a copy of the tree placed there (the links inside it kept as links)."""
    import shutil

    clone = tmp_path / "vistlog"
    ignore = shutil.ignore_patterns(".git", ".venv*", "__pycache__", "*.egg-info")
    for name in ("events", "projections", "vistlog", "tests", "docs", "samples"):
        shutil.copytree(ROOT / name, clone / name, symlinks=True, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", clone)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "tests/test_problems.py", "tests/test_packaging.py::test_the_cli_uses_only_the_public_api"],
                          cwd=clone, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert re.search(r"^(\d+) passed in ", proc.stdout, re.M) and "failed" not in proc.stdout, proc.stdout


@pytest.mark.parametrize("client", ["cli/__init__.py", "cli/common.py", "cli/reading.py", "cli/recording.py",
                                    "cli/across.py", "pad.py", "guard.py"])
def test_the_cli_uses_only_the_public_api(client: str) -> None:
    """The command line and the score pad are clients like any other: they import vistlog's own modules (the API's,
    :mod:`vistlog.errors`, their own helpers), never the floors below."""
    import ast

    tree = ast.parse((ROOT / "vistlog" / client).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
    ours = {m for m in imported if m.startswith((".", "vistlog"))}
    public = {"vistlog", "vistlog.api", "vistlog.games", "vistlog.recording", "vistlog.formats", "vistlog.errors",
              "vistlog.output", "vistlog.views", "vistlog.archive", "vistlog.build", "vistlog.pad", "vistlog.viewer"}
    own = {".", ".api", ".output", ".games", ".guard", ".common", ".padview"}
    assert ours <= public | own, ours - public - own
    assert not any("events" in m or "projections" in m for m in imported)


def test_the_compiled_build_lists_modules_that_exist() -> None:
    """setup.py compiles what vistlog.build lists (read without importing the package), and each is a file."""
    import runpy

    from vistlog import build

    setup = runpy.run_path(str(ROOT / "setup.py"), run_name="vistlog_setup")
    assert setup["mypyc_modules"]() == list(build.MYPYC_MODULES)
    for name in build.MYPYC_MODULES:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


def test_the_backend_asks_for_mypy_only_for_the_compiled_build(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("vistlog_backend", ROOT / "build_backend" / "vistlog_backend.py")
    assert spec and spec.loader
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    monkeypatch.delenv("VISTLOG_COMPILE", raising=False)
    assert backend._compile() == []
    monkeypatch.setenv("VISTLOG_COMPILE", "1")
    asked = backend._compile()
    assert any(r.startswith("mypy==") for r in asked) and any(r.startswith("attrs") for r in asked)


@pytest.mark.parametrize("switch", [False, True])
def test_version_says_which_build_runs(switch: bool, tmp_path: Path) -> None:
    """``vistlog --version`` names the build; ``VISTLOG_BUILD=pure`` runs the source files even where
    compiled modules lie beside them."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "VISTLOG_BUILD"}
    if switch:
        env["VISTLOG_BUILD"] = "pure"
    script = "import vistlog; print(len(vistlog.build.compiled_modules()))"
    count = int(subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True,
                               text=True, check=True).stdout)
    out = subprocess.run([sys.executable, "-m", "vistlog", "--version"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True).stdout
    if switch:
        assert count == 0 and "pure Python (VISTLOG_BUILD=pure)" in out, out
    elif count:
        assert f"compiled (mypyc): {count} of " in out, out
    else:
        assert "· pure Python ·" in out, out


def test_the_build_ci_asked_for_runs() -> None:
    """CI names the build each run of the suite must exercise (``VISTLOG_EXPECT_BUILD``): every listed
    module compiled, or none; elsewhere this checks that the two answers agree with each other."""
    import os

    from vistlog import build

    compiled = build.compiled_modules()
    expected = os.environ.get("VISTLOG_EXPECT_BUILD")
    if expected == "compiled":
        assert compiled == build.MYPYC_MODULES, set(build.MYPYC_MODULES) - set(compiled)
    elif expected == "pure":
        assert compiled == () and build.describe().startswith("pure Python")
    else:
        assert build.describe().startswith("pure Python") == (compiled == ())
