"""JSON Schema of format v1, generated from the event classes and the rule options.

>>> s = build_schema()
>>> sorted(s["$defs"]["tricks"]["required"])
['deal', 'game', 'seq', 'taken', 'type']
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any

import attrs

from .cards import Bid, Card, GameKind, Kontra, Suit, WhistCall, all_bids
from .model import TAGS, SheetLine
from .rules import PRESETS

__all__ = ["build_schema"]

_CARD = {"type": "string", "pattern": "^(10|[2-9TJQKA])[SCDH♠♣♦♥]$", "description": "a card: rank then suit"}


def _type(tp: Any) -> dict[str, Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        non_null = [a for a in args if a is not type(None)]
        inner = _type(non_null[0]) if len(non_null) == 1 else {"anyOf": [_type(a) for a in non_null]}
        return {"anyOf": [inner, {"type": "null"}]} if type(None) in args else inner
    if origin is tuple:
        return {"type": "array", "items": _type(args[0])}
    if origin in (dict, Mapping) or tp is dict:
        return {"type": "object", "additionalProperties": _type(args[1]) if args else {}}
    simple = {int: {"type": "integer"}, str: {"type": "string"}, bool: {"type": "boolean"}}
    if tp in simple:
        return simple[tp]
    if tp is Card:
        return dict(_CARD)
    if tp is Bid:
        return {"type": "string", "enum": sorted(b.text for b in all_bids()),
                "description": "canonical spelling; input may also use ♠♣♦♥ and misère"}
    if tp is Suit:
        return {"type": "string", "enum": [s.value for s in Suit]}
    if tp is GameKind:
        return {"type": "string", "enum": list(GameKind.known())}
    if tp in (WhistCall, Kontra):
        return {"type": "string", "enum": [m.value for m in tp]}
    if tp is SheetLine:
        return _object(SheetLine, envelope=False)
    if getattr(tp, "__name__", "") == "Rules":
        return _rules()
    return {}


def _rules() -> dict[str, Any]:
    props: dict[str, Any] = {"preset": {"type": "string", "enum": list(PRESETS)}}
    from .variants import VARIANTS  # every game registered now, each with its options

    kinds: set[GameKind] = set()
    for variant in VARIANTS.values():
        # a game played on another game's kind of log says whose its options are
        game = f" ({variant.name})" if variant.kind in kinds else ""
        kinds.add(variant.kind)
        for f in attrs.fields(variant.options):
            props[f.name] = {"description": f"{f.metadata['doc']}{game} ({f.metadata['parse'].accepts})"}
    return {"type": "object", "required": ["preset"], "properties": props, "additionalProperties": False}


def _object(cls: type, envelope: bool = True) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {}
    required = []
    for f in attrs.fields(cls):
        if f.name == "extensions":
            continue
        props[f.name] = _type(hints[f.name])
        if f.default is attrs.NOTHING:
            required.append(f.name)
    out: dict[str, Any] = {"type": "object", "properties": props, "required": required,
                           "additionalProperties": False}
    if envelope:
        props["type"] = {"const": TAGS[cls]}
        required.insert(0, "type")
        out["patternProperties"] = {"^_": {"description": "extension field, kept and otherwise ignored"}}
        if cls.__doc__:
            out["description"] = cls.__doc__.strip().splitlines()[0]
    return out


def build_schema() -> dict[str, Any]:
    """The whole schema: one definition per event type, ``oneOf`` on ``type``."""
    defs = {tag: _object(cls) for cls, tag in TAGS.items()}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "vistlog game log event, format v1",
        "description": "One line of a JSON Lines game log (see FORMAT.md). Generated from the event classes.",
        "oneOf": [{"$ref": f"#/$defs/{tag}"} for tag in defs],
        "$defs": defs,
    }
