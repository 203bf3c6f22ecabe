"""The score pad's slow work, run beside the server in a process of its own: one deal's open-hand analysis.

The server (:mod:`vistlog.pad`) starts ``python -m vistlog._beside``, writes the question to its standard input
as JSON (``log``, ``game``, ``deal``, ``single_dummy``, ``lang``, ``samples``, ``budget``: a deal's seconds of
open-hand search, ``null``: every count exact, ``seconds``, ``memory``) and reads the answer from its
standard output: ``{"status": 200, "body": DEAL}`` or ``{"status": N, "error": WHY}``. The process bounds
itself (its address space to ``memory`` bytes, its processor time to ``seconds`` and a little more, and it dies
with the server that started it), and the server kills it when the page leaves, its time is up or the server
stops: a search that holds the interpreter for minutes never holds the server.
"""

from __future__ import annotations

import contextlib
import resource
import signal
import sys
from typing import Any

import orjson

__all__: list[str] = []


def _bound(seconds: float, memory: int) -> None:
    """This process's own limits: memory past ``memory`` is refused (a ``MemoryError``), processor time past
    ``seconds`` (and a second more) ends it, and so does the death of the server that started it (Linux)."""
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = int(seconds) + 2
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    with contextlib.suppress(Exception):  # noqa: BLE001 - prctl is Linux's; elsewhere the server's kill does it
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def answer(spec: dict[str, Any]) -> dict[str, Any]:
    """The answer to one question (see the module's docstring), computed here."""
    from . import views
    from .api import SingleDummy, VistlogError, analysis_json, read_games

    deal = int(spec["deal"])
    try:
        game = next((g for g in read_games(spec["log"]) if g.id == spec["game"]), None)
        if game is None:
            return {"status": 404, "error": f"no game {spec['game']!r} in the log"}
        sd = SingleDummy(int(spec["samples"])) if spec.get("single_dummy") else None
        view = analysis_json(game.analysis(deals={deal}, single_dummy=sd, budget=spec.get("budget")))
    except VistlogError as exc:
        return {"status": 422, "error": str(exc)}
    lang = spec.get("lang")
    for d in view["deals"] if sd is not None else ():
        d["decision_lines"] = [views.decision_lines(x, view["unit"], lang) for x in d.get("decisions", ())]
    found = [d for d in view["deals"] if d["deal"] == deal]
    if not found:
        why = next((s["why"] for s in view["skipped"] if s["deal"] == deal), "no played deal with its hands recorded")
        return {"status": 404, "error": f"deal {deal}: {why}"}
    return {"status": 200, "body": found[-1]}


def main() -> int:
    """Read the question, answer it, write the answer (see the module's docstring)."""
    spec = orjson.loads(sys.stdin.buffer.read())
    _bound(float(spec["seconds"]), int(spec["memory"]))
    try:
        out = answer(spec)
    except MemoryError:
        out = {"status": 503, "error": f"the analysis needed more than {int(spec['memory']) >> 20} MB: stopped"}
    from .output import dumps

    sys.stdout.write(dumps(out, indent=False))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
