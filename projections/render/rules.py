"""The rules as ``vistlog rules`` shows them: the presets, and every option of one as text or JSON.

>>> rules_json("rostov")["options"]["single_whister"]
'gentleman'
"""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Mapping
from typing import Any

import attrs

from vistlog.events.rules import PRESETS, option_docs, show
from vistlog.events.variants import find_variant

from ..options_ru import ACCEPTS_RU, DESCRIPTIONS_RU, OPTIONS_RU, VALUES_RU
from ..variants import SCORINGS
from ..words import Lang, Words, plural

from . import table

__all__ = ["presets_text", "rules_text", "rules_json", "rules_rows"]


def presets_text(lang: Lang | None = None) -> str:
    """The presets, one line each (in Russian each by its name and the game's, the key the log writes beside)."""
    if Words(lang).lang == "ru":
        w = Words("ru")
        rows = [["набор правил", "ключ", "игра", "что это"]]
        rows += [[w.cap(p.label), p.name, w.game(find_variant(p.name).name),
                  DESCRIPTIONS_RU.get(p.description, p.description)] for p in PRESETS.values()]
        return table(rows) + "\n\nvistlog rules КЛЮЧ --lang ru показывает каждую опцию одного набора."
    rows = [["preset", "game", "what it is"]]
    rows += [[p.name, p.kind.value, p.description] for p in PRESETS.values()]
    return table(rows) + "\n\nvistlog rules PRESET shows every option of one preset."


def rules_text(preset: str, lang: Lang | None = None) -> str:
    """Every option of ``preset``: its value there, what it accepts, what it means (* differs from the default);
    in Russian the options by name, their choices in words, the key the log writes beside."""
    p = PRESETS[preset]
    if Words(lang).lang == "ru":
        view = rules_rows(preset, "ru")
        rows = [["опция", "ключ", "значение", "допустимо", "смысл"]]
        for o in view["options"]:
            said = dict(o["choices"] or []).get(o["shown"], o["shown"])
            rows.append([o["label"] + (" *" if o["name"] in p.values else ""), o["name"], said, o["accepts"],
                         o["meaning"]])
        return (f"{view['description']}\n\n" + table(rows)
                + "\n\n* не как по умолчанию. Любую опцию можно изменить в game_started.rules.")
    rows = [["option", "value", "accepts", "meaning"]]
    for name, value, accepts, doc in option_docs(preset):
        mark = " *" if name in p.values else ""
        rows.append([name + mark, show(value), accepts, doc])
    return (f"{p.name} ({p.kind.value}): {p.description}\n\n" + table(rows)
            + "\n\n* differs from the default. Override any option in game_started.rules.")


def rules_json(preset: str) -> dict[str, Any]:
    """``{"preset", "options": {name: value}}``: fractions as strings, tables as objects."""
    return {"preset": preset, "options": {name: _jsonable(value) for name, value, _, _ in option_docs(preset)}}


def rules_rows(preset: str, lang: Lang | None = None) -> dict[str, Any]:
    """``{"preset", "kind", "pool", "description", "options": [{"name", "label", "value", "shown", "accepts",
    "meaning", "choices"}]}``: what ``rules_text`` shows, a row an option, for a form, in ``lang``; ``pool`` is
    what the game's ``pool`` counts (``pool``, ``bula``) or ``None`` for a game without one; ``choices``: an
    option's values as ``[value, in words]`` where it takes one of a few, else ``None``.

    >>> row = next(o for o in rules_rows("sochi", "ru")["options"] if o["name"] == "single_whister")
    >>> row["label"], row["shown"], row["choices"]
    ('один вистует', 'greedy', [['greedy', 'жлобский'], ['gentleman', 'джентльменский']])
    """
    p = PRESETS[preset]
    ru = Words(lang).lang == "ru"
    rows = []
    for name, value, accepts, doc in option_docs(preset):
        label, meaning = OPTIONS_RU.get(name, (name, doc)) if ru else (name, doc)
        values = [v.strip() for v in accepts.split("|")]
        choice = "|" in accepts and all(" " not in v and not v[:1].isdigit() for v in values)

        def said(v: str) -> str:
            return VALUES_RU.get(v, v) if ru else v

        rows.append({"name": name, "label": label, "value": _jsonable(value), "shown": _shown(value, ru),
                     "accepts": " | ".join(said(v) for v in values) if choice else
                     (ACCEPTS_RU.get(accepts, accepts) if ru else accepts),
                     "meaning": meaning, "choices": [[v, said(v)] for v in values] if choice else None})
    return {"preset": preset, "kind": p.kind.value, "pool": SCORINGS[find_variant(preset).name].size,
            "description": DESCRIPTIONS_RU.get(p.description, p.description) if ru else p.description, "options": rows}


def _shown(value: Any, ru: bool) -> str:
    if ru and (isinstance(value, Mapping) or hasattr(value, "items")):
        return f"{len(value)} {plural(len(value), 'строка', 'строки', 'строк')} таблицы"
    return show(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict) or hasattr(value, "items"):
        return {k: attrs.asdict(v) if attrs.has(type(v)) else v for k, v in value.items()}
    return value
