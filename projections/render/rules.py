"""The rules as ``vistlog rules`` shows them: the presets, and every option of one as text or JSON.

>>> rules_json("rostov")["options"]["single_whister"]
'gentleman'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from vistlog.events.rules import PRESETS, option_docs, show
from vistlog.events.variants import find_variant

from ..variants import SCORINGS

from . import table

__all__ = ["presets_text", "rules_text", "rules_json"]


def presets_text() -> str:
    """The presets, one line each."""
    rows = [["preset", "game", "what it is"]]
    rows += [[p.name, p.kind.value, p.description] for p in PRESETS.values()]
    return table(rows) + "\n\nvistlog rules PRESET shows every option of one preset."


def rules_text(preset: str) -> str:
    """Every option of ``preset``: its value there, what it accepts, what it means (* differs from the default)."""
    p = PRESETS[preset]
    rows = [["option", "value", "accepts", "meaning"]]
    for name, value, accepts, doc in option_docs(preset):
        mark = " *" if name in p.values else ""
        rows.append([name + mark, show(value), accepts, doc])
    return (f"{p.name} ({p.kind.value}): {p.description}\n\n" + table(rows)
            + "\n\n* differs from the default. Override any option in game_started.rules.")


def rules_json(preset: str) -> dict[str, Any]:
    """``{"preset", "options": {name: value}}``: fractions as strings, tables as objects."""
    return {"preset": preset, "options": {name: _jsonable(value) for name, value, _, _ in option_docs(preset)}}


def rules_rows(preset: str) -> dict[str, Any]:
    """``{"preset", "kind", "pool", "description", "options": [{"name", "value", "shown", "accepts", "meaning"}]}``:
    what ``rules_text`` shows, a row an option, for a form; ``pool`` is what the game's ``pool`` counts
    (``pool``, ``bula``) or ``None`` for a game without one."""
    p = PRESETS[preset]
    return {"preset": preset, "kind": p.kind.value, "pool": SCORINGS[find_variant(preset).name].size,
            "description": p.description,
            "options": [{"name": name, "value": _jsonable(value), "shown": show(value), "accepts": accepts,
                         "meaning": doc} for name, value, accepts, doc in option_docs(preset)]}


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict) or hasattr(value, "items"):
        return {k: attrs.asdict(v) if attrs.has(type(v)) else v for k, v in value.items()}
    return value
