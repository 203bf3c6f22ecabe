r"""The cattrs + orjson codec: JSON line ⇄ frozen event, with precise errors.

The converter is configured once by :func:`configure` and built twice: a *fast* one
(``detailed_validation=False``) that decodes every line, and a *detailed* one used only
to explain a line the fast one refused. Both are strict: ``"4"`` is not an int, ``true``
is not 1, an unknown field is an error unless its name starts with ``_`` (an extension,
kept in ``event.extensions``).

>>> ev = decode(b'{"seq":4,"type":"bid","game":"g","deal":1,"player":"Bo","bid":"6\\u2660"}')
>>> ev.bid.text, encode(ev)
('6S', b'{"v":1,"seq":4,"type":"bid","game":"g","deal":1,"player":"Bo","bid":"6S"}')
>>> decode(b'{"seq":4,"type":"tricks","game":"g","deal":1,"taken":{"A":"4"}}')
Traceback (most recent call last):
...
vistlog.events.codec.DecodeError: taken.A: expected a whole number, got '4'
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
import cattrs
import orjson
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.preconf.orjson import make_converter

from .cards import WHIST_SPELLINGS, Bid, Card, GameKind, Kontra, Suit, WhistCall, parse_bid, parse_card, parse_suit
from .problems import VistlogError
from .model import BY_TAG, TAGS, Event, EventBase, ScoreRecorded, SheetLine, freeze
from .text import nearest, printable
from .rules import Rules, RulesError, make_rules
from .native import mypyc_attr
from .fasthooks import fast_hook, fingerprint, hook_source

__all__ = ["DecodeError", "LARGEST", "too_big", "first_where", "decode", "decode_obj", "decode_owned", "encode",
           "encode_obj", "unstructure", "converter", "loads_line"]


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class DecodeError(VistlogError):
    """A line that is not a valid event; ``field`` is a dotted path or ``""``, ``code`` a problem code."""

    code = "field-invalid"

    def __init__(self, field: str, message: str, seq: int | None = None, event_type: str | None = None,
                 code: str = "field-invalid") -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.code = code
        self.field = field
        self.message = message
        self.seq = seq
        self.event_type = event_type


LARGEST: Final = 2**63 - 1
"""The largest whole number a log holds, either sign (what a JSON Lines reader takes as a 64-bit integer):
``append``, the pad and every importer refuse a number past it, through :func:`too_big`."""


def first_where(value: Any, test: Callable[[Any], bool], where: str = "") -> tuple[str, Any] | None:
    """The dotted place and the value of the first scalar of ``value`` (objects and arrays, nested) that passes
    ``test``, in document order (walked without recursion); ``None`` when none does.

    >>> first_where({"a": [1, {"b": 7}]}, lambda v: v == 7)
    ('a.1.b', 7)
    """
    stack: list[tuple[str, Any]] = [(where, value)]
    while stack:
        here, v = stack.pop()
        if isinstance(v, dict):
            stack.extend(reversed([(f"{here}.{k}" if here else str(k), x) for k, x in v.items()]))
        elif isinstance(v, (list, tuple)):
            stack.extend(reversed([(f"{here}.{i}" if here else str(i), x) for i, x in enumerate(v)]))
        elif test(v):
            return here, v
    return None


def too_big(value: Any, where: str = "") -> str | None:
    """The first whole number of ``value`` past :data:`LARGEST`, as ``field = value``.

    >>> too_big({"pool": {"Аня": 2**64 - 1}}), too_big({"pool": {"Аня": 20}})
    ('pool.Аня = 18446744073709551615…', None)
    """
    found = first_where(value, lambda v: type(v) is int and not -LARGEST <= v <= LARGEST, where)
    return None if found is None else f"{found[0]} = {str(found[1])[:20]}…"


MAX_DEPTH: Final = 64
"""The deepest nesting of arrays and objects a field may hold (an extension's value, say)."""


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests arrays and objects deeper than ``limit`` (walked without recursion).

    >>> too_deep([[1]]), too_deep([[[1]]], limit=2)
    (False, True)
    """
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            children: Any = v.values()
        elif isinstance(v, (list, tuple)):
            children = v
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children)
    return False


def check_depth(data: Mapping[str, Any], seq: int | None = None) -> None:
    """Raise :class:`DecodeError` for a field nested deeper than :data:`MAX_DEPTH`."""
    for key, value in data.items():
        if isinstance(value, (dict, list)) and too_deep(value, MAX_DEPTH - 1):
            raise DecodeError(key, f"nested deeper than {MAX_DEPTH} levels", seq)


# --------------------------------------------------------------------------- strict scalars

def _describe(v: Any) -> str:
    """A short, never-failing rendering of a JSON value for an error message."""
    try:
        text = repr(v) if isinstance(v, str) else orjson.dumps(v, option=orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _strict_int(v: Any, _: Any) -> int:
    if type(v) is int:
        return v
    if isinstance(v, float) and v.is_integer() and abs(v) > 2**63:
        raise ValueError(f"number too large: {v:.0f}")
    raise ValueError(f"expected a whole number, got {_describe(v)}")


def _strict_str(v: Any, _: Any) -> str:
    if type(v) is str:
        return v
    raise ValueError(f"expected a string, got {_describe(v)}")


def _strict_bool(v: Any, _: Any) -> bool:
    if type(v) is bool:
        return v
    raise ValueError(f"expected true or false, got {_describe(v)}")


def _value_hook(parse: Callable[[str], Any]) -> Callable[[Any, Any], Any]:
    def hook(v: Any, _: Any) -> Any:
        if type(v) is not str:
            raise ValueError(f"expected a string, got {_describe(v)}")
        return parse(v)

    return hook


def _enum_hook(cls: type[enum.Enum]) -> Callable[[Any, Any], Any]:
    values: dict[Any, Any] = dict(WHIST_SPELLINGS) if cls is WhistCall else {m.value: m for m in cls}
    choices = ", ".join(m.value for m in cls)

    def hook(v: Any, _: Any) -> Any:
        try:
            return values[v]
        except (KeyError, TypeError):
            raise ValueError(f"{_describe(v)} is not one of: {choices}") from None

    return hook


def _kind_hook(v: Any, _: Any) -> GameKind:
    """A kind of log, among those registered now (a game registered later brings its own)."""
    found = GameKind.lookup().get(v) if isinstance(v, str) else None
    if found is None:
        raise ValueError(f"{_describe(v)} is not one of: {', '.join(GameKind.known())}")
    return found


def _rules_hook(v: Any, _: Any) -> Rules:
    try:
        return make_rules(v)
    except RulesError as exc:
        # the field path is rebuilt from the note; keep only what follows "rules"
        raise _RulesFieldError(exc.field[len("rules"):].lstrip("."), exc.message) from None


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class _RulesFieldError(ValueError):
    def __init__(self, sub: str, message: str) -> None:
        super().__init__(message)
        self.sub = sub


def _tuple_of(item: Callable[[Any, Any], Any]) -> Callable[[Any, Any], tuple[Any, ...]]:
    def hook(v: Any, _: Any) -> tuple[Any, ...]:
        if type(v) is not list:
            raise ValueError(f"expected a list, got {_describe(v)}")
        return tuple(item(x, None) for x in v)

    return hook


# --------------------------------------------------------------------------- the converter

def configure(conv: cattrs.Converter) -> None:
    """Register every hook of the event format on ``conv`` (strict scalars first)."""
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(bool, _strict_bool)
    conv.register_structure_hook(Card, _value_hook(parse_card))
    conv.register_structure_hook(Bid, _value_hook(parse_bid))
    conv.register_structure_hook(Suit, _value_hook(parse_suit))
    for enum_cls in (WhistCall, Kontra):
        conv.register_structure_hook(enum_cls, _enum_hook(enum_cls))
        conv.register_unstructure_hook(enum_cls, lambda e: e.value)
    conv.register_structure_hook(GameKind, _kind_hook)
    conv.register_unstructure_hook(GameKind, lambda k: k.value)
    conv.register_structure_hook(Rules, _rules_hook)
    conv.register_unstructure_hook(Rules, Rules.to_json)
    conv.register_unstructure_hook(Card, str)
    conv.register_unstructure_hook(Bid, str)
    conv.register_unstructure_hook(Suit, lambda s: s.value)
    card_tuple, str_tuple = tuple[Card, ...], tuple[str, ...]
    conv.register_structure_hook_func(lambda t: t == card_tuple, _tuple_of(_value_hook(parse_card)))
    conv.register_structure_hook_func(lambda t: t == str_tuple, _tuple_of(_strict_str))
    _ready(conv).clear()


# Each event class's hooks are made when first met (cattrs generates and compiles code for each): a command
# pays only for the events it reads. They are registered by hand, not as cattrs hook factories: cattrs reads a
# factory's signature, which a function of the compiled build does not have.
_READY: Final[dict[int, set[type]]] = {}
"""The classes whose hooks each converter (by ``id``) has."""


def _ready(conv: cattrs.Converter) -> set[type]:
    return _READY.setdefault(id(conv), set())


def _register(conv: cattrs.Converter, cls: type, fast: bool) -> None:
    if fast:  # the fast converter only structures, and declines to the detailed one
        conv.register_structure_hook(cls, fast_hook(cls, conv))
    else:
        omit: dict[str, Any] = {"extensions": override(omit=True)} if issubclass(cls, EventBase) else {}
        conv.register_structure_hook(
            cls, make_dict_structure_fn(cls, conv, _cattrs_forbid_extra_keys=True, **omit))  # type: ignore[arg-type]
        conv.register_unstructure_hook(
            cls, make_dict_unstructure_fn(cls, conv, _cattrs_omit_if_default=True, **omit))  # type: ignore[arg-type]
    _ready(conv).add(cls)


_NESTED: Final[dict[type, tuple[type, ...]]] = {ScoreRecorded: (SheetLine,)}
"""The classes whose hooks an event class's hooks call (registered first)."""


def _with(conv: cattrs.Converter, cls: type, fast: bool = False) -> cattrs.Converter:
    """``conv``, with the hooks of event class ``cls`` registered (made the first time)."""
    if cls not in _ready(conv):
        for inner in _NESTED.get(cls, ()):
            _with(conv, inner)
        _register(conv, cls, fast)
    return conv


def _build(detailed: bool) -> cattrs.Converter:
    conv = make_converter(detailed_validation=detailed, forbid_extra_keys=True)
    configure(conv)
    return _with(conv, SheetLine) if detailed else conv  # a recorded sheet's line, as the audit reads it


def hooks_module() -> str:
    """The source of ``vistlog.events.hooks``: every event class's fast structure hook, written out
    so that the compiled build compiles it (``python tools/make-hooks.py > events/hooks.py``; a test
    checks the file is up to date, and a stale one is never used: each hook carries a fingerprint of
    the source it was written from)."""
    conv = converter(detailed=False)
    out = ['"""The fast structure hook of every event class, as ``vistlog.events.codec`` makes it.',
           "",
           "Generated by ``python tools/make-hooks.py > events/hooks.py``: do not edit. The codec uses a",
           "hook from here only when its fingerprint matches the source the codec would make now; the",
           'compiled build compiles this module, so the hottest loop of decoding runs compiled too.',
           '"""', "", "from __future__ import annotations", "", "from typing import Any", ""]
    prints: list[str] = []
    for cls in BY_TAG.values():
        lines, names = hook_source(cls, conv)
        params = ", ".join(f"{n}: Any" for n in sorted(names))
        out += ["", f"def structure_{cls.__name__}(*, {params}) -> Any:"]
        out += ["    " + x for x in lines]
        out += ["    return hook", ""]
        prints.append(f"    {cls.__name__!r}: {fingerprint(lines, names)!r},")
    out += ["", "FINGERPRINTS: dict[str, str] = {", *prints, "}"]
    return "\n".join(out) + "\n"


_CONVERTERS: Final[dict[bool, cattrs.Converter]] = {}


def converter(detailed: bool = True) -> cattrs.Converter:
    """The detailed converter (exact error paths; use it for anything but the hot path), or the fast one; each is
    made when first asked for (reading a sound log never needs the detailed one)."""
    conv = _CONVERTERS.get(detailed)
    if conv is None:
        conv = _CONVERTERS[detailed] = _build(detailed)
    return conv



_FAST_HOOKS: Final[dict[str, tuple[type, Callable[[Any, Any], Any]]]] = {}
"""Each event type's class and fast hook, filled in as types are met (:func:`_fast_entry`)."""
_UNSTRUCTURE: Final[dict[type, Callable[[Any], Any]]] = {}
_FIELD_ORDER: Final = {cls: tuple(f.name for f in attrs.fields(cls)) for cls in TAGS}
_TRAILER: Final = ("at", "by", "note")


def loads_line(line: bytes) -> Any:
    """``orjson.loads`` with the error turned into :class:`DecodeError`."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise DecodeError("", f"not valid JSON ({_json_reason(exc)})", code="json-invalid") from None


def _json_reason(exc: orjson.JSONDecodeError) -> str:
    msg = getattr(exc, "msg", None) or (str(exc.args[0]) if exc.args else str(exc))
    if "utf-8" in msg.lower() or "surrogate" in msg.lower():
        return "not UTF-8 text"
    col = getattr(exc, "colno", None)
    return f"{msg} at column {col}" if col else msg


def decode(line: bytes) -> Event:
    """Decode one JSON line into an event; raise :class:`DecodeError` naming the field."""
    return decode_owned(loads_line(line))


def decode_obj(data: Any) -> Event:
    """Structure an already parsed JSON value into an event; the event shares nothing with ``data``."""
    return decode_owned(dict(data) if type(data) is dict else data)


def decode_owned(data: Any) -> Event:
    """:func:`decode_obj` of a dict nobody else holds (just parsed): it becomes the event's own."""
    if type(data) is not dict:
        raise DecodeError("", f"expected a JSON object, got {_describe(data)}", code="not-an-object")
    tag = data.pop("type", None)
    entry = (_FAST_HOOKS.get(tag) or _fast_entry(tag)) if type(tag) is str else None
    if entry is None:
        seq = data.get("seq") if type(data.get("seq")) is int else None
        if tag is None:
            raise DecodeError("type", "missing", seq, code="type-missing")
        raise DecodeError("type", f"{_describe(tag)} is not an event type{nearest(tag, BY_TAG)} "
                          f"({', '.join(BY_TAG)})", seq, code="type-unknown")
    cls, hook = entry
    try:
        return hook(data, cls)
    except Exception:
        return _decode_slow(data, tag, cls)


def _fast_entry(tag: str) -> tuple[type, Callable[[Any, Any], Any]] | None:
    cls = BY_TAG.get(tag)
    if cls is None:
        return None
    entry = _FAST_HOOKS[tag] = (cls, _with(converter(detailed=False), cls, fast=True).get_structure_hook(cls))
    return entry


def detailed_hook(cls: type) -> Callable[[Any, Any], Any]:
    """The detailed converter's structure hook for an event class (exact error paths, slower)."""
    return _with(converter(), cls).get_structure_hook(cls)  # type: ignore[no-any-return]


def _decode_slow(data: dict[str, Any], tag: str, cls: type) -> Event:
    """The rare path: extensions to set aside, or an error to explain precisely."""
    ext = {k: data.pop(k) for k in [k for k in data if k.startswith("_")]}
    seq = data.get("seq") if type(data.get("seq")) is int else None
    check_depth(ext, seq)
    try:
        event = detailed_hook(cls)(data, cls)
    except (ClassValidationError, IterableValidationError) as exc:
        code, field, message = _first_problem(exc, [])
        unknown = sorted(k for k in data if k not in _FIELD_ORDER[cls] and k != "type")
        if unknown and code != "field-unknown":  # a misspelt field, not a missing one, is what to say first
            code, field = "field-unknown", printable(unknown[0])
            message = (f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(printable, unknown))}"
                       f"{nearest(unknown[0], [f for f in _FIELD_ORDER[cls] if f not in data and f != 'extensions'])} "
                       "(extension fields must start with _)")
        raise DecodeError(field, message, seq, tag, code) from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # pragma: no cover - defensive
        raise DecodeError("", f"cannot decode: {exc}", seq, tag) from None
    if ext:
        object.__setattr__(event, "extensions", freeze(ext))
    return event


def _first_problem(exc: BaseException, path: list[str]) -> tuple[str, str, str]:
    """The first error inside a cattrs validation error: its code, dotted field path and message."""
    if isinstance(exc, (ClassValidationError, IterableValidationError)):
        with_notes, without = exc.group_exceptions()
        for sub, note in with_notes:
            name = getattr(note, "name", None)
            if name is None:
                name = str(getattr(note, "index", "?"))
            return _first_problem(sub, [*path, str(name)])
        for sub in without:
            return _first_problem(sub, path)
    field = ".".join(path)
    if isinstance(exc, ForbiddenExtraKeysError):
        names = ", ".join(sorted(exc.extra_fields))
        where = f"{field}." if field else ""
        return "field-unknown", f"{where}{sorted(exc.extra_fields)[0]}", (
            f"unknown field{'s' if len(exc.extra_fields) > 1 else ''} {names} "
            "(extension fields must start with _)")
    if isinstance(exc, _RulesFieldError):
        return "rules-invalid", ".".join(p for p in (field, exc.sub) if p), str(exc)
    if isinstance(exc, KeyError):
        return "field-missing", field, "required field missing"
    if isinstance(exc, ValueError):
        return "field-invalid", field, str(exc)
    if isinstance(exc, (TypeError, AttributeError)):
        why = "wrong type (expected an object)" if "items" in str(exc) else f"wrong type ({exc})"
        return "field-invalid", field, why
    return "field-invalid", field, str(exc)


# --------------------------------------------------------------------------- encoding

def unstructure(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict in canonical key order, defaults left out."""
    hook = _UNSTRUCTURE.get(type(event))
    if hook is None:
        hook = _UNSTRUCTURE[type(event)] = _with(converter(), type(event)).get_unstructure_hook(type(event))
    body = hook(event)
    out: dict[str, Any] = {"v": event.v, "seq": event.seq, "type": TAGS[type(event)], "game": event.game}
    for key in _FIELD_ORDER[type(event)]:
        if key in body and key not in out and key not in _TRAILER:
            out[key] = body[key]
    for key in _TRAILER:
        if key in body:
            out[key] = body[key]
    out.update(event.extensions)
    return out


def encode_obj(obj: Mapping[str, Any]) -> bytes:
    """One JSON line (no newline) for an already unstructured event."""
    return orjson.dumps(obj)


def encode(event: Event) -> bytes:
    """One JSON line (no newline), canonical: ASCII spellings, defaults omitted."""
    return orjson.dumps(unstructure(event))
