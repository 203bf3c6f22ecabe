"""The extension modules; everything else is in pyproject.toml.

- ``vistlog.projections._csolver``, the compiled open-hand search: optional, built where a C
  compiler exists; without one the install goes on and the pure-Python search runs.
- With ``VISTLOG_COMPILE=1`` in the environment, the modules that ``vistlog/build.py`` lists are
  also compiled by mypyc (the build backend in ``build_backend/`` asks for mypy then). Where no C
  compiler works, the build says so and stays pure Python: an install never fails for want of one.
"""

from __future__ import annotations

import ast
import os
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent


def mypyc_modules() -> list[str]:
    """``MYPYC_MODULES`` of vistlog/build.py, read without importing the package."""
    tree = ast.parse((HERE / "vistlog" / "build.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "MYPYC_MODULES":
            return list(ast.literal_eval(node.value))
    raise SystemExit("vistlog/build.py: no MYPYC_MODULES")


def compiler_works() -> bool:
    """Whether a C compiler builds and links a trivial extension-sized object here."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CCompilerError, DistutilsError
    from setuptools._distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "probe.c"
        source.write_text("int vistlog_probe(void) { return 0; }\n")
        cc = new_compiler()
        customize_compiler(cc)
        try:
            objects = cc.compile([str(source)], output_dir=tmp)
            cc.link_shared_object(objects, str(Path(tmp) / "probe.so"))
        except (CCompilerError, DistutilsError, OSError):
            return False
    return True


def extensions() -> list[Extension]:
    found = [Extension("vistlog.projections._csolver", ["projections/_csolver.c"], optional=True)]
    if os.environ.get("VISTLOG_COMPILE") != "1":
        return found
    if not compiler_works():
        print("vistlog: VISTLOG_COMPILE=1 but no working C compiler: building pure Python", file=sys.stderr)
        return found
    try:
        from mypyc.build import mypycify
    except ImportError:  # the backend asks for mypy, so this is only pip's first question, what to install
        print("vistlog: VISTLOG_COMPILE=1 but mypy is not installed: building pure Python", file=sys.stderr)
        return found

    paths = [m.replace(".", "/") + ".py" for m in mypyc_modules()]
    return found + mypycify(paths, group_name="vistlog._compiled", opt_level="3", debug_level="0")


if __name__ == "__main__":  # setuptools runs this file as a script
    setup(ext_modules=extensions())
