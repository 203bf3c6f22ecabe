"""The codec: every event type round-trips; every wrong value is a clean, precise error."""

from __future__ import annotations

from typing import Any

import os
import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vistlog.events.cards import parse_bid, parse_card, parse_suit
from vistlog.events.codec import DecodeError, decode, decode_obj, encode, unstructure
from vistlog.events.model import TAGS

from .helpers import EVENTS, any_event, event_of, extensions


@pytest.mark.parametrize("cls", list(EVENTS), ids=lambda c: TAGS[c])
@given(data=st.data())
def test_round_trip_every_type(cls: type, data: st.DataObject) -> None:
    ev = data.draw(event_of(cls))
    line = encode(ev)
    back = decode(line)
    assert back == ev
    assert encode(back) == line


@given(any_event, extensions)
def test_extensions_are_kept(ev: Any, ext: dict[str, Any]) -> None:
    obj = {**unstructure(ev), **ext}
    back = decode(orjson.dumps(obj))
    assert back == ev and dict(back.extensions) == ext
    assert orjson.loads(encode(back)) == obj


def test_spellings_parse_to_the_canonical_one() -> None:
    assert str(parse_card("T♥")) == "10H" == str(parse_card("10h"))
    assert parse_bid("7♠").text == "7S" and parse_bid("6бк").text == "6NT" and parse_bid("misère").text == "misere"
    assert parse_suit("♦").value == "D"
    for bad in ("1S", "10X", "", "AS ", "11S"):
        with pytest.raises(ValueError, match="not a card"):
            parse_card(bad)


WRONG = [None, True, 1.5, "x", -1, [], {}, [1], {"a": 1}, 2**70]


@pytest.mark.parametrize("cls", list(EVENTS), ids=lambda c: TAGS[c])
@given(data=st.data())
def test_wrong_value_in_any_field_is_a_clean_error_naming_it(cls: type, data: st.DataObject) -> None:
    ev = data.draw(event_of(cls))
    obj = unstructure(ev)
    field = data.draw(st.sampled_from([k for k in obj if k != "type"]))
    wrong = data.draw(st.sampled_from(WRONG))
    mutated = {**obj, field: wrong}
    try:
        back = decode_obj(orjson.loads(_dumps(mutated)))
    except DecodeError as exc:
        assert exc.field.split(".")[0] == field, (exc.field, field, str(exc))
        assert exc.message
        return
    # accepted: only values of the right type for that field (e.g. None for an optional one)
    assert encode(back)


def _dumps(obj: dict[str, Any]) -> bytes:
    big = {k: v for k, v in obj.items() if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2**63}
    text = orjson.dumps({k: (0 if k in big else v) for k, v in obj.items()})
    for k, v in big.items():
        text = text.replace(f'"{k}":0'.encode(), f'"{k}":{v}'.encode(), 1)
    return text


@pytest.mark.parametrize("line,field,words", [
    (b'{"seq":1,"type":"tricks","game":"g","deal":1,"taken":{"A":"4"}}', "taken.A", "whole number"),
    (b'{"seq":1,"type":"tricks","game":"g","deal":1,"taken":{"A":4},"tricks":1}', "tricks", "unknown field"),
    (b'{"seq":1,"type":"trikcs","game":"g"}', "type", "not an event type"),
    (b'{"seq":1,"game":"g"}', "type", "missing"),
    (b'{"seq":1,"type":"bid","game":"g","deal":1,"player":"A","bid":"6X"}', "bid", "not a bid"),
    (b'{"seq":1,"type":"game_started","game":"g","kind":"preferans","players":["A"],"rules":{"preset":"sochi",'
     b'"consolation":"nice"}}', "rules.consolation", "not one of"),
    (b'{"seq":1,"type":"game_started","game":"g","kind":"chess","players":["A"],"rules":{"preset":"sochi"}}',
     "kind", "not one of"),
    (b'{"seq":true,"type":"game_ended","game":"g"}', "seq", "whole number"),
    (b'{"seq":1,"type":"deal_started","game":"g","deal":1,"dealer":"A","hands":{"A":"7S 8S"}}', "hands.A",
     "expected a list"),
    (b'[]', "", "expected a JSON object"),
    (b'{"seq":1,', "", "not valid JSON"),
    (b'\xff\xfe{}', "", "not UTF-8"),
])
def test_precise_messages(line: bytes, field: str, words: str) -> None:
    with pytest.raises(DecodeError) as info:
        decode(line)
    assert info.value.field == field
    assert words in info.value.message


@given(st.binary(max_size=200))
def test_garbage_never_raises_anything_but_decode_error(blob: bytes) -> None:
    try:
        ev = decode(blob)
    except DecodeError as exc:
        assert exc.message and "\n" not in exc.message  # one line, never empty
    else:
        assert type(ev) in TAGS  # the rare blob that is a whole event


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=4),
                    max_leaves=12))
def test_any_json_value_never_raises_anything_but_decode_error(value: Any) -> None:
    for tag in TAGS.values():
        obj = {"type": tag, **value} if isinstance(value, dict) else value
        given_tag = obj.get("type") if isinstance(obj, dict) else None  # decode_obj consumes the dict
        try:
            ev = decode_obj(obj)
        except DecodeError as exc:
            assert exc.message and "\n" not in exc.message
            assert exc.event_type is None or exc.event_type == given_tag
        else:
            assert TAGS[type(ev)] == given_tag


@pytest.mark.parametrize("cls", list(EVENTS), ids=lambda c: TAGS[c])
@given(data=st.data())
def test_the_fast_path_is_never_more_lenient_than_the_detailed_one(cls: type, data: st.DataObject) -> None:
    from vistlog.events.codec import _fast_entry, detailed_hook

    obj = unstructure(data.draw(event_of(cls)))
    tag = obj.pop("type")
    if data.draw(st.booleans()):
        field = data.draw(st.sampled_from(sorted(obj)))
        obj[field] = data.draw(st.sampled_from(WRONG[:-1] + ["AS", "6S", "whist", "preferans", ["AS", "KS"]]))
    _, fast = _fast_entry(tag) or (None, None)
    assert fast is not None
    try:
        got = fast(orjson.loads(orjson.dumps(obj)), cls)
    except Exception:  # noqa: BLE001 - declining is always allowed: the detailed path decides
        return
    assert got == detailed_hook(cls)(orjson.loads(orjson.dumps(obj)), cls)


def test_the_written_out_hooks_are_the_ones_the_codec_makes() -> None:
    """events/hooks.py is what tools/make-hooks.py prints, and every event class's fast hook comes from it
    (a stale file would be ignored, silently costing the compiled build its compiled decoding)."""
    import subprocess
    import sys

    from vistlog.events import codec, fasthooks, hooks
    from vistlog.events.model import BY_TAG

    from .conftest import ROOT

    made = subprocess.run([sys.executable, str(ROOT / "tools" / "make-hooks.py")], capture_output=True, check=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"}).stdout.decode("utf-8")
    assert (ROOT / "events" / "hooks.py").read_text(encoding="utf-8") == made, \
        "events/hooks.py is out of date: python tools/make-hooks.py > events/hooks.py"
    for cls in BY_TAG.values():
        made = fasthooks.hook_source(cls, codec.converter(detailed=False))
        assert hooks.FINGERPRINTS[cls.__name__] == fasthooks.fingerprint(*made), cls


def test_the_codecs_own_type_hints_are_typings() -> None:
    """The codec evaluates each annotation once for all the event classes that share it: what it finds is what
    :func:`typing.get_type_hints` finds, for every event class and the sheet line."""
    import typing

    from vistlog.events.fasthooks import _type_hints
    from vistlog.events.model import BY_TAG, SheetLine

    for cls in [*BY_TAG.values(), SheetLine]:
        assert _type_hints(cls) == typing.get_type_hints(cls), cls
