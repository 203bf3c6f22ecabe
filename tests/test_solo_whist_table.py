"""Solo Whist at the table (issue 50): an all-pass is one word and a finished deal, the seed's Russian words,
and no line of the notation ever leaves a game that refuses its next deal."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vistlog

PLAYERS = ["Маша", "Петя", "Оля", "Коля"]


def _solo(log: Path, all_pass: str = "redeal") -> vistlog.Recorder:
    r = vistlog.Recorder(log)
    r.record([{"type": "game_started", "game": "g", "kind": "solo_whist", "players": PLAYERS,
               "rules": {"preset": "encyclopedia", "all_pass": all_pass}}])
    return r


def _deal(log: Path, line: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vistlog", "deal", str(log), line], capture_output=True, text=True)


@pytest.mark.parametrize("word", ["raspas", "все пас", "Все пас", "распасы", "all-pass"])
def test_an_all_pass_is_one_word_and_the_next_deal_is_the_next_dealers(tmp_path: Path, word: str) -> None:
    log = tmp_path / "g.jsonl"
    _solo(log)
    done = _deal(log, f"dealer Петя; turned 6S; {word}")
    assert done.returncode == 0, done.stderr
    assert "next: deal 2, Оля deals" in done.stdout + done.stderr
    events = vistlog.game_events(log)
    assert [(e.type, getattr(e, "player", None)) for e in events[1:]] == [
        ("deal_started", None), ("bid", "Оля"), ("bid", "Коля"), ("bid", "Маша"), ("bid", "Петя")]
    done = _deal(log, "turned 2H; Маша соло; Маша 6 Петя 2 Оля 3 Коля 2")
    assert done.returncode == 0, done.stderr
    assert subprocess.run([sys.executable, "-m", "vistlog", "validate", str(log)]).returncode == 0


def test_under_the_general_misere_an_all_pass_takes_its_tricks_and_who_took_the_last(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    _solo(log, "general_misere")
    before = log.read_bytes()
    done = _deal(log, "dealer Петя; turned 6S; все пас")
    assert done.returncode == 1 and "deal 1 has no tricks: a line is a whole deal" in done.stderr
    assert log.read_bytes() == before
    done = _deal(log, "dealer Петя; turned 6S; все пас; Маша 3 Петя 4 Оля 3 Коля 3 last Петя")
    assert done.returncode == 0, done.stderr
    (game,) = vistlog.read_games(log)
    assert game.problems == () and game.sheet()["points"]["Петя"] < 0


@pytest.mark.parametrize("line, contract, trump", [
    ("Маша соло; Маша 6 Петя 2 Оля 3 Коля 2", "solo", None),
    ("Маша мизер; Маша 0 Петя 5 Оля 4 Коля 4", "misere", None),
    ("Маша абонданс черви; Маша 9 Петя 2 Оля 1 Коля 1", "abundance", "H"),
    ("Маша абонданс ♥; Маша 9 Петя 2 Оля 1 Коля 1", "abundance", "H"),
    ("Маша абонданс козырь пики; Маша 9 Петя 2 Оля 1 Коля 1", "abundance", "S"),
    ("Маша козырный абонданс; Маша 9 Петя 2 Оля 1 Коля 1", "trump_abundance", None),
    ("Маша открытый мизер; Маша 0 Петя 5 Оля 4 Коля 4", "open_misere", None),
    ("Маша полный абонданс; Маша 13 Петя 0 Оля 0 Коля 0", "full_abundance", None),
    ("Маша предложение партнёр Оля; Маша 5 Петя 2 Оля 3 Коля 3", "prop", None),
])
def test_the_seeds_words_are_read(tmp_path: Path, line: str, contract: str, trump: str | None) -> None:
    log = tmp_path / "w.jsonl"
    _solo(log)
    done = _deal(log, "dealer Петя; turned 6S; " + line)
    assert done.returncode == 0, done.stderr
    (ev,) = [e for e in vistlog.game_events(log) if e.type == "contract"]
    assert (str(ev.contract), ev.trump.value if ev.trump else None) == (contract, trump)


# ----------------------------------------------------------------------------- no write leaves a game stuck

_WORDS = ["raspas", "все пас", "соло", "мизер", "абонданс черви", "козырный абонданс", "открытый мизер", "prop",
          "6S", "7NT", "misere", "whist", "pass", "half", "last", "dark", "without-three", "partner", "turned QH",
          "bomb 1", "bids", ";", ";", ";", ",", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "13"]


@st.composite
def _lines(draw: Any, players: list[str]) -> str:
    words = draw(st.lists(st.sampled_from(_WORDS + players + players), min_size=1, max_size=14))
    return " ".join(words)


@settings(max_examples=60)
@given(data=st.data(), game=st.sampled_from(["redeal", "general_misere", "sochi", "leningrad"]),
       seed=st.integers(0, 2**16))
def test_every_accepted_line_leaves_a_game_that_takes_its_next_deal(data: Any, game: str, seed: int,
                                                                     tmp_path_factory: Any) -> None:
    """Lines drawn from the notation's words, the right ones among them often enough: each one either is
    refused and writes nothing, or leaves the game able to take its next deal (or over)."""
    log = tmp_path_factory.mktemp("stuck") / "g.jsonl"
    if game in ("redeal", "general_misere"):
        players = PLAYERS
        r = _solo(log, game)
    else:
        players = PLAYERS[:3]
        r = vistlog.Recorder(log)
        r.record([{"type": "game_started", "game": "g", "kind": "preferans", "players": players, "pool": 10,
                   "rules": {"preset": game}}])
    rng = random.Random(seed)
    dealer = rng.choice(players)
    for k in range(6):
        line = data.draw(_lines(players))
        if k == 0:
            line = f"dealer {dealer}; " + line
        before = log.read_bytes()
        try:
            r.record_line(line)
        except vistlog.VistlogError:
            assert log.read_bytes() == before, line
            continue
        table = r.table()
        assert table.open_deal is None, (line, table)
        assert table.over or table.ended or table.next_deal >= 2


def test_the_table_says_what_the_page_offers(tmp_path: Path) -> None:
    """What the page renders comes from the game: no game's name is asked by the page."""
    for rule, played in (("redeal", False), ("general_misere", True)):
        t = _solo(tmp_path / f"{rule}.jsonl", rule).table()
        assert (t.all_pass_bids, t.all_pass_played, t.last_needed) == (True, played, True)
        assert dict(t.needs) == {"prop": "partner", "abundance": "trump"}
        assert dict(t.targets) == {"prop": 8, "solo": 5, "misere": 0, "abundance": 9, "trump_abundance": 9,
                                   "open_misere": 0, "full_abundance": 13}
    r = vistlog.Recorder(tmp_path / "p.jsonl")
    r.record([{"type": "game_started", "game": "p", "kind": "preferans", "players": PLAYERS[:3], "pool": 10,
               "rules": {"preset": "sochi"}}])
    t = r.table()
    assert (t.all_pass_bids, t.all_pass_played, t.last_needed, t.needs) == (False, True, False, ())
    assert dict(t.targets)["7NT"] == 7 and dict(t.targets)["misere"] == 0


def test_refusals_are_said_in_russian_without_the_grammar(tmp_path: Path) -> None:
    from vistlog import views
    from vistlog.events.notation import NotationError

    r = _solo(tmp_path / "r.jsonl")
    with pytest.raises(NotationError) as err:
        r.record_line("dealer Петя; Маша 9ч")
    said = views.notation_message(err.value, "ru")
    assert said.startswith("не понял «9ч»: ожидался контракт") and "a line reads" not in said
    with pytest.raises(vistlog.AppendRejected) as rejected:
        r.record_line("dealer Петя; Маша соло; Маша 6 Петя 2 Оля 3 Коля 3")
    (p,) = rejected.value.problems
    assert views.problem_message(p.code, p.message, "ru") == "взяток в сумме 14, а в сдаче их 13"
