"""The one-line deal notation: ``replay --format lines`` then ``vistlog deal`` gives the same game.

Every game is printed as lines (:func:`vistlog.deal_lines`) and recorded again into a new log,
line by line (:class:`vistlog.Recorder`, and ``vistlog deal`` for some): the deals' events must
be those of the original, save what the notation infers (``seq``, the game, the deal number, the
dealer, the envelope) or leaves out (the cards of a card-level deal, whose tricks it writes), and
the settlement the same.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

import vistlog
from vistlog.events.codec import decode_obj, unstructure
from vistlog.events.importers.jsonl import derive_tricks

from .serbian_games import random_game as serbian_game
from .simulate import preferans_game, solo_whist_game

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples").glob("*.jsonl"))
DEAL_TYPES = {"deal_started", "bid", "contract", "whist", "kontra", "tricks", "deal_voided"}
CARD_FIELDS = {"hands", "talon"}
INFERRED = {"seq", "v", "at", "by", "note", "_chain", "_mac", "_source"}


def _deal_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deal events as the notation keeps them."""
    out = []
    for ev in derive_tricks(vistlog.ImportedGame(events[0]["game"], events, "t")).events:
        if ev["type"] in DEAL_TYPES:
            plain = unstructure(decode_obj({**ev, "seq": 1}))  # as the codec writes it: no default values
            out.append({k: v for k, v in plain.items() if k not in INFERRED | CARD_FIELDS})
    return out


def _record_again(events: list[dict[str, Any]], log: Path, *, cli_every: int = 0, lang: str = "en") -> list[str]:
    """Record a game into ``log``: its deals through their lines (in ``lang``), every other event as it is."""
    lines = list(vistlog.deal_lines(events, lang=lang))
    recorder = vistlog.Recorder(log)
    pending = iter(lines)
    k = 0
    in_deal: Any = None
    for ev in events:
        plain = {key: v for key, v in ev.items() if key not in INFERRED}
        if ev["type"] in DEAL_TYPES and ev["type"] != "deal_started" and in_deal == ev.get("deal") \
                and ev["type"] != "deal_voided":
            continue
        if ev["type"] in ("deal_started", "deal_voided"):
            in_deal = ev["deal"] if ev["type"] == "deal_started" else None
            line = next(pending)
            k += 1
            if cli_every and k % cli_every == 0:
                _cli_deal(log, line)
            else:
                recorder.record_line(line)
            continue
        if ev["type"] in ("card_played", "discard", "claim"):
            continue
        in_deal = None
        recorder.record([plain])
    assert next(pending, None) is None
    return lines


def _cli_deal(log: Path, line: str) -> None:
    done = subprocess.run([sys.executable, "-m", "vistlog", "deal", str(log), line], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _events_of(log: Path) -> list[dict[str, Any]]:
    return [unstructure(e) for e in vistlog.game_events(log)]


def _same_game(original: list[dict[str, Any]], log: Path) -> None:
    again = _events_of(log)
    assert _deal_events(again) == _deal_events(original)
    (a,) = [g for g in vistlog.read_games(original) if g.started]
    (b,) = [g for g in vistlog.read_games(log) if g.started]
    assert not b.problems
    assert b.settlement() == a.settlement()
    assert b.sheet() == a.sheet()
    assert vistlog.views.sheet_json(b) == vistlog.views.sheet_json(a)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_sample_game_recorded_again_from_its_lines_is_the_same_game(sample: Path, lang: str,
                                                                          tmp_path: Path) -> None:
    """In either language: the lines a Russian page shows read back as the same game."""
    games: dict[str, list[dict[str, Any]]] = {}
    for raw in sample.read_bytes().splitlines():
        ev = orjson.loads(raw)
        games.setdefault(ev["game"], []).append(ev)
    for i, events in enumerate(games.values()):
        log = tmp_path / f"again-{i}.jsonl"
        _record_again(events, log, cli_every=15 if i == 0 and sample.name == "sochi-evening.jsonl" else 0, lang=lang)
        _same_game(events, log)


def test_the_serbian_sample_recorded_again_from_its_lines(tmp_path: Path) -> None:
    for i, game in enumerate(vistlog.load(ROOT / "samples" / "serbian.ppn", "ppn")):
        events = [{**ev, "seq": k} for k, ev in enumerate(game.events, start=1)]
        log = tmp_path / f"sr-{i}.jsonl"
        _record_again(events, log)
        _same_game(events, log)


_PRESETS = ("sochi", "leningrad", "rostov", "classic")


@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(_PRESETS), players=st.sampled_from((3, 4)),
       cards=st.sampled_from((0.0, 0.3)))
def test_generated_preferans_games_round_trip_through_lines(seed: int, preset: str, players: int,
                                                            cards: float, tmp_path_factory: Any) -> None:
    names = ("Аня", "Боря", "Вова", "Галя Петрова")[:players]
    events = preferans_game(random.Random(seed), players=names, rules={"preset": preset}, pool=10, max_deals=12,
                            card_play=cards)
    log = tmp_path_factory.mktemp("pref") / "again.jsonl"
    _record_again(events, log)
    _same_game(events, log)


@given(seed=st.integers(0, 2**32 - 1))
def test_generated_solo_whist_games_round_trip_through_lines(seed: int, tmp_path_factory: Any) -> None:
    events = solo_whist_game(random.Random(seed), deals=8, card_play=0.2)
    log = tmp_path_factory.mktemp("solo") / "again.jsonl"
    _record_again(events, log)
    _same_game(events, log)


@given(seed=st.integers(0, 2**32 - 1))
def test_generated_serbian_games_round_trip_through_lines(seed: int, tmp_path_factory: Any) -> None:
    events = serbian_game(random.Random(seed), 8)
    log = tmp_path_factory.mktemp("sr") / "again.jsonl"
    _record_again(events, log)
    _same_game(events, log)


# ----------------------------------------------------------------------------- reading a line

def _table(players: tuple[str, ...] = ("Аня", "Боря", "Вова")) -> vistlog.Table:
    from vistlog.events.cards import GameKind

    return vistlog.Table("g", GameKind.PREFERANS, 10, players, 5, "Аня", "Боря", ("Боря", "Вова", "Аня"), None,
                         (), False)


@pytest.mark.parametrize(("line", "expected"), [
    ("Боря 6♠; Вова вист, Аня пас; Боря 7 Вова 3 Аня 0",
     [("contract", {"declarer": "Боря", "contract": "6S"}), ("whist", {"player": "Вова", "call": "whist"}),
      ("whist", {"player": "Аня", "call": "pass"}), ("tricks", {"taken": {"Боря": 7, "Вова": 3, "Аня": 0}})]),
    ("распасы; Аня 5 Боря 3", [("tricks", {"taken": {"Аня": 5, "Боря": 3, "Вова": 2}})]),
    ("вова мизер; вова 1", [("contract", {"declarer": "Вова", "contract": "misere"}),
                            ("tricks", {"taken": {"Вова": 1, "Боря": 9 // 2 + 0, "Аня": 5}})]),
    ("Боря 7 червей без трёх", [("contract", {"declarer": "Боря", "contract": "7H", "without_three": True})]),
    ("Б 6 бк; В полвиста, А пас", [("contract", {"declarer": "Боря", "contract": "6NT"}),
                                   ("whist", {"player": "Вова", "call": "half"}),
                                   ("whist", {"player": "Аня", "call": "pass"})]),
    ("bids Боря 6S, Вова pass, Аня 6C; Аня 6C; Боря whist, Вова whist; Аня 6, Боря 2",
     [("bid", {"player": "Боря", "bid": "6S"}), ("bid", {"player": "Вова", "bid": "pass"}),
      ("bid", {"player": "Аня", "bid": "6C"}), ("contract", {"declarer": "Аня", "contract": "6C"}),
      ("whist", {"player": "Боря", "call": "whist"}), ("whist", {"player": "Вова", "call": "whist"}),
      ("tricks", {"taken": {"Аня": 6, "Боря": 2, "Вова": 2}})]),
])
def test_a_line_stands_for_these_events(line: str, expected: list[tuple[str, dict[str, Any]]]) -> None:
    from vistlog.events.notation import parse_deal

    events = parse_deal(line, _table())
    assert events[0] == {"type": "deal_started", "game": "g", "deal": 5, "dealer": "Аня"}
    got = [(e["type"], {k: v for k, v in e.items() if k not in ("type", "game", "deal")}) for e in events[1:]]
    if line.startswith("вова мизер"):  # one holder left out takes the rest: here two are, so nothing is filled
        expected = [expected[0], ("tricks", {"taken": {"Вова": 1}})]
    assert got == expected


@pytest.mark.parametrize(("line", "word"), [
    ("Боря 6X; Вова вист", "'6X'"),
    ("Петя 6S", "'Петя'"),
    ("Боря 6S; Вова вистую", "'вистую'"),
    ("Боря 6S; Вова 7 Аня три", "'три'"),
    ("bomb; Боря 6S", "the end of the clause"),
])
def test_a_line_that_does_not_parse_names_the_word_and_the_expected_form(line: str, word: str) -> None:
    from vistlog.events.notation import FORM, parse_deal

    with pytest.raises(vistlog.NotationError) as caught:
        parse_deal(line, _table())
    message = str(caught.value)
    assert f"cannot read {word}" in message
    assert FORM in message


def test_vistlog_deal_records_and_says_who_deals_next(tmp_path: Path) -> None:
    log = tmp_path / "evening.jsonl"
    vistlog.append(log, [{"type": "game_started", "game": "e", "kind": "preferans", "players": ["Аня", "Боря", "Вова"],
                          "pool": 10, "rules": {"preset": "sochi"}}])

    def deal(line: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "vistlog", "deal", str(log), line], capture_output=True,
                              text=True)

    first = deal("Боря 6S; Вова whist, Аня pass; Боря 6 Вова 4")
    assert first.returncode == 1 and "the first deal of a game needs its dealer" in first.stderr
    done = deal("dealer Аня; Боря 6S; Вова whist, Аня pass; Боря 6 Вова 4")
    assert done.returncode == 0, done.stderr
    assert "recorded deal 1 (seq 2..6)" in done.stderr
    assert "next: deal 2, Боря deals, Вова speaks first" in done.stderr
    refused = deal("Вова 6S; Аня whist, Боря pass; Вова 6 Аня 5 Боря 0")
    assert refused.returncode == 1
    assert "taken adds up to 11" in refused.stderr and "nothing written" in refused.stderr
    bad = deal("Вова 6Z")
    assert bad.returncode == 1 and "cannot read '6Z'" in bad.stderr and "Traceback" not in bad.stderr
    assert len(log.read_bytes().splitlines()) == 6
    lines = subprocess.run([sys.executable, "-m", "vistlog", "replay", str(log), "--format", "lines"],
                           capture_output=True, text=True)
    assert lines.stdout == "dealer Аня; Боря 6S; Вова whist, Аня pass; Боря 6, Вова 4, Аня 0\n"
    assert vistlog.verify(log).status == "ok"
