"""The codec's fast path: a structure hook per event class with every check written inline, made from the
class's own fields (and written out, for the compiled build, as :mod:`vistlog.events.hooks`).

A hook raises :class:`_Slow` for anything it does not take as is; the detailed converter then decides and
explains (:mod:`vistlog.events.codec`).
"""

from __future__ import annotations

import inspect
import linecache
import sys
import types
import typing
import zlib
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
import cattrs

from .cards import _BIDS as _BID_TABLE
from .cards import _CARDS as _CARD_TABLE
from .cards import _SUIT_SPELLINGS as _SUIT_TABLE
from .cards import WHIST_SPELLINGS, Bid, Card, GameKind, Kontra, Suit, WhistCall
from .model import FrozenDict
from .native import mypyc_attr
from . import hooks

__all__ = ["fast_hook", "hook_source", "fingerprint"]


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class _Slow(Exception):
    """The fast path declines; the detailed converter decides and explains."""


def _slow() -> Any:
    raise _Slow



_LOOKUPS: Final[dict[Any, dict[Any, Any]]] = {
    Card: _CARD_TABLE, Bid: _BID_TABLE, Suit: _SUIT_TABLE,
    GameKind: GameKind.lookup(), WhistCall: dict(WHIST_SPELLINGS), Kontra: {m.value: m for m in Kontra},
}


def _check_expr(tp: Any, var: str, names: dict[str, Any], conv: cattrs.Converter) -> list[str]:
    """Lines that check (and convert) ``var`` in place for type ``tp``; raising means 'ask the
    detailed converter'. They are never more lenient than the detailed hooks."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in (int, str, bool):
        return [f"if type({var}) is not {tp.__name__}: raise _Slow"]
    if tp in _LOOKUPS:
        key = f"_t_{len(names)}"
        names[key] = _LOOKUPS[tp]
        return [f"{var} = {key}[{var}] if type({var}) is str else _slow()"]
    if origin is tuple and args[1:] == (Ellipsis,) and args[0] in _LOOKUPS:
        key = f"_t_{len(names)}"
        names[key] = _LOOKUPS[args[0]]
        return [f"if type({var}) is not list: raise _Slow",
                f"{var} = tuple([{key}[x] if type(x) is str else _slow() for x in {var}])"]
    if origin is dict and args[0] is str and typing.get_origin(args[1]) is tuple \
            and typing.get_args(args[1])[1:] == (Ellipsis,) and typing.get_args(args[1])[0] in _LOOKUPS:
        key = f"_t_{len(names)}"
        names[key] = _LOOKUPS[typing.get_args(args[1])[0]]
        names["_frozen"] = FrozenDict
        return [f"if type({var}) is not dict: raise _Slow",
                f"{var} = _frozen({{_k: tuple([{key}[x] if type(x) is str else _slow() for x in _v])"
                f" if type(_k) is str and type(_v) is list else _slow() for _k, _v in {var}.items()}})"]
    if origin is tuple and args == (str, Ellipsis):
        return [f"if type({var}) is not list or not all(type(x) is str for x in {var}): raise _Slow",
                f"{var} = tuple({var})"]
    if origin is dict and args == (str, int):
        return [f"if type({var}) is not dict: raise _Slow",
                f"for _k, _x in {var}.items():",
                "    if type(_k) is not str or type(_x) is not int: raise _Slow"]
    key = f"_h_{len(names)}"
    names[key] = conv.get_structure_hook(tp)
    names[f"{key}_t"] = tp
    return [f"{var} = {key}({var}, {key}_t)"]


_EVALUATED: Final[dict[tuple[str, str], Any]] = {}
"""Each annotation's text, per module, evaluated once (the event classes share most of them)."""


def _type_hints(cls: type) -> dict[str, Any]:
    """:func:`typing.get_type_hints` of an event class, each annotation evaluated once for every class that shares
    it (the classes are ours, their annotations plain types: a tenth of the time, at the first line of a log)."""
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        annotations = inspect.get_annotations(klass)
        if not annotations:
            continue
        scope = vars(sys.modules[klass.__module__])
        for name, value in annotations.items():
            if isinstance(value, str):
                key = (klass.__module__, value)
                if key not in _EVALUATED:
                    _EVALUATED[key] = eval(value, scope)  # noqa: S307 - our own classes' annotations
                value = _EVALUATED[key]
            hints[name] = value
    return hints


def hook_source(cls: type, conv: cattrs.Converter) -> tuple[list[str], dict[str, Any]]:
    """The lines of a structure hook for ``cls`` with the strict checks written inline (no call per
    field), and the names they use.

    The line's dict is checked and converted in place, then becomes the new instance's
    ``__dict__``; fields it lacks are read from the class defaults (see ``vistlog.events.model``).
    """
    hints = _type_hints(cls)
    fields = [f for f in attrs.fields(cls) if f.name != "extensions"]
    names: dict[str, Any] = {"_cls": cls, "_Slow": _Slow, "_slow": _slow, "_new": object.__new__,
                             "_set": object.__setattr__, "_allowed": frozenset(f.name for f in fields)}
    lines = ["def hook(o: dict[str, Any], _: Any) -> Any:"]
    # the optional fields, looked for only when the line has keys beyond the usual ones
    others: list[str] = ["      if not o.keys() <= _allowed: raise _Slow"]
    writes = []  # converted values go back into ``o`` only once every check has passed
    validators = []
    usual = sum(1 for f in fields if f.default is attrs.NOTHING)
    version = next(f for f in fields if f.name == "v")
    assert version.converter is None and version.validator is None
    # Every writer writes the format version, so it is looked for first. A line with no other key
    # than the required ones and the version (every required one is read below, so none is missing)
    # has no unknown key either; any other line is checked for unknown keys and optional fields.
    lines += ["    cv = o.get('v', _Slow)", f"    if cv is _Slow: _others = len(o) != {usual}",
              "    else:", "      if type(cv) is not int: raise _Slow", f"      _others = len(o) != {usual + 1}"]
    for i, f in enumerate(fields):
        if f is version:
            continue
        tp = hints[f.name]
        optional = typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in typing.get_args(tp)
        inner = next(a for a in typing.get_args(tp) if a is not type(None)) if optional else tp
        var = f"c{i}"
        check = _check_expr(inner, var, names, conv)
        if f.converter is not None:  # what attrs' __init__ would run, run here too
            names[f"_cv_{i}"] = f.converter
            check = [*check, f"{var} = _cv_{i}({var})"]
        if f.validator is not None:
            names[f"_va_{i}"], names[f"_fd_{i}"] = f.validator, f
            validators.append(f"    _va_{i}(inst, _fd_{i}, inst.{f.name})")
        converts = not (len(check) == 1 and check[0].startswith("if "))
        if f.default is attrs.NOTHING:
            lines.append(f"    {var} = o[{f.name!r}]")
            lines += ["    " + x for x in check]
            if converts:
                writes.append(f"    o[{f.name!r}] = {var}")
            continue
        if isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
            dkey = f"_d_{f.name}"
            names[dkey] = f.default.factory
            lines.append(f"    {var} = o.get({f.name!r}, _Slow)")
            lines.append(f"    if {var} is _Slow: {var} = {dkey}()")
            lines.append("    else:")
            lines += ["        " + x for x in check]
            writes.append(f"    o[{f.name!r}] = {var}")
            continue
        others.append(f"      if {f.name!r} in o:")
        others.append(f"        {var} = o[{f.name!r}]")
        cond = f"{f.name!r} in o" + (f" and {var} is not None" if optional else "")
        if optional:
            others.append(f"        if {var} is not None:")
            others += ["          " + x for x in check]
        else:
            others += ["        " + x for x in check]
        if converts:
            writes.append(f"    if {cond}: o[{f.name!r}] = {var}")
    lines += ["    if _others:", *others]
    lines += writes
    lines += ["    inst = _new(_cls)", "    _set(inst, '__dict__', o)", *validators, "    return inst"]
    return lines, names


def fingerprint(lines: list[str], names: Mapping[str, Any]) -> str:
    # a check against a stale generated file, not a secret: CRC-32 needs no OpenSSL at start-up
    crc = zlib.crc32("\n".join([*lines, *sorted(names)]).encode())
    return f"{crc:08x}"


def fast_hook(cls: type, conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """The structure hook of :func:`_hook_source` for ``cls``: from ``vistlog.events.hooks``, where
    the same source is written out (and compiled, in the compiled build), or else made here from it."""
    lines, names = hook_source(cls, conv)
    made = getattr(hooks, f"structure_{cls.__name__}", None)
    if made is not None and hooks.FINGERPRINTS.get(cls.__name__) == fingerprint(lines, names):
        return made(**names)  # type: ignore[no-any-return]
    source = "\n".join(lines) + "\n"
    filename = f"<vistlog generated structure {cls.__module__}.{cls.__qualname__}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    scope: dict[str, Any] = {"Any": Any, **names}
    exec(compile(source, filename, "exec"), scope)  # noqa: S102 - generated from our own class definitions
    return scope["hook"]  # type: ignore[no-any-return]
