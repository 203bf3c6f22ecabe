"""The distribution: one import root, a repository that stands alone."""

from __future__ import annotations

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
            "vistlog/projections/fold.py", "vistlog/projections/render/drawing.py", "vistlog/cli.py"} <= set(code)
    assert not any("simulate" in n for n in code), "the random-game simulator is a test tool"


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
