"""Audit and replay: a planted wrong entry is found with both values and its deal; stories read right."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.simulate import preferans_game, solo_whist_game
from vistlog.projections.audit import ClaimError, audit, read_claimed
from vistlog.projections.fold import GameResult
from vistlog.projections.replay import replay_lines

from .conftest import VECTORS
from .helpers import fold


def long_game(seed: int, solo: bool) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    if solo:
        return solo_whist_game(rng, deals=20)
    return preferans_game(rng, rules={"preset": "sochi"}, pool=20, max_deals=30)


def with_checkpoints(evs: list[dict[str, Any]], res: GameResult, wrong: tuple[int, str, str, str | None, int] | None
                     ) -> list[dict[str, Any]]:
    """Insert a correct score_recorded after every deal; ``wrong`` = (deal, player, field, on, delta)."""
    out: list[dict[str, Any]] = []
    last = 0

    def checkpoint(deal: int) -> dict[str, Any]:
        t = res.totals_after(deal)
        sheet: dict[str, Any] = {}
        for p in res.players:
            if res.kind.value == "preferans":
                line: dict[str, Any] = {"pool": int(t["pool"][p]), "mountain": int(t["mountain"][p]),
                                        "whists": {q: int(t.value(p, "whists", q)) for q in res.players if q != p}}
            else:
                line = {"points": int(t["points"][p])}
            if wrong and wrong[0] == deal and wrong[1] == p:
                if wrong[2] == "whists":
                    line["whists"][wrong[3]] += wrong[4]
                else:
                    line[wrong[2]] += wrong[4]
            sheet[p] = line
        return {"v": 1, "type": "score_recorded", "game": res.game, "after_deal": deal, "sheet": sheet}

    for e in evs:
        if e["type"] in ("deal_started", "game_ended") and last:
            out.append(checkpoint(last))
        if e["type"] == "deal_started":
            last = e["deal"]
        out.append(dict(e))
    for k, e in enumerate(out, start=1):
        e["seq"] = k
    return out


def one(evs: list[dict[str, Any]]) -> GameResult:
    results, problems = fold(evs)
    assert problems == [], [str(p) for p in problems]
    return results[0]


@pytest.mark.parametrize("solo", [False, True])
def test_a_correct_record_passes(solo: bool) -> None:
    evs = long_game(3, solo)
    res = one(evs)
    rep = audit(one(with_checkpoints(evs, res, None)))
    assert rep.ok and rep.checked > 0


@settings(max_examples=30)
@given(st.integers(0, 50), st.sampled_from(["pool", "mountain", "whists", "points"]), st.data())
def test_a_planted_wrong_entry_is_named_with_both_values_and_its_deal(seed: int, field: str,
                                                                       data: st.DataObject) -> None:
    solo = field == "points"
    evs = long_game(seed, solo)
    res = one(evs)
    deal = data.draw(st.integers(1, res.deals))
    player = data.draw(st.sampled_from(res.players))
    on = data.draw(st.sampled_from([q for q in res.players if q != player])) if field == "whists" else None
    delta = data.draw(st.sampled_from([-10, -1, 1, 2, 10]))
    planted = one(with_checkpoints(evs, res, (deal, player, field, on, delta)))
    rep = audit(planted)
    assert len(rep.mismatches) == 1
    m = rep.mismatches[0]
    truth = res.totals_after(deal).value(player, field, on)
    assert (m.claim.after_deal, m.claim.player, m.claim.field, m.claim.on) == (deal, player, field, on)
    assert (m.claim.value, m.computed) == (truth + delta, truth)
    earlier = m.rest.amount if m.rest is not None else 0
    assert sum((e.amount for e in m.trail), Fraction(0)) + earlier == truth  # the trail adds up
    assert all(e.deal == deal for e in m.trail)  # checkpoints every deal: only the deal where they part
    assert m.rest is None or m.rest.up_to_deal < deal
    assert rep.part_by == deal and rep.agree_until == (deal - 1 if deal > 1 else 0)
    assert set(rep.suspects) <= {deal}
    text = m.describe()
    assert f"recorded {truth + delta}" in text and f"computed {truth}" in text


def test_the_example_of_the_issue_reads_as_promised() -> None:
    g = [
        {"type": "game_started", "kind": "preferans", "players": ["Аня", "Боря", "Вова"], "pool": 20,
         "rules": {"preset": "sochi"}},
        {"type": "deal_started", "deal": 1, "dealer": "Вова"},
        {"type": "contract", "deal": 1, "declarer": "Аня", "contract": "6S"},
        {"type": "whist", "deal": 1, "player": "Боря", "call": "pass"},
        {"type": "whist", "deal": 1, "player": "Вова", "call": "pass"},
        {"type": "deal_started", "deal": 2, "dealer": "Аня"},
        {"type": "contract", "deal": 2, "declarer": "Боря", "contract": "6S"},
        {"type": "whist", "deal": 2, "player": "Вова", "call": "pass"},
        {"type": "whist", "deal": 2, "player": "Аня", "call": "pass"},
        {"type": "deal_started", "deal": 3, "dealer": "Боря"},
        {"type": "tricks", "deal": 3, "taken": {"Аня": 2, "Боря": 2, "Вова": 6}},
        {"type": "deal_started", "deal": 4, "dealer": "Вова"},
        {"type": "contract", "deal": 4, "declarer": "Вова", "contract": "misere"},
        {"type": "tricks", "deal": 4, "taken": {"Аня": 5, "Боря": 4, "Вова": 1}},
        {"type": "score_recorded", "after_deal": 4, "sheet": {"Вова": {"mountain": 26}}},
        {"type": "game_ended"},
    ]
    evs = [{"v": 1, "seq": k, "game": "g", **e} for k, e in enumerate(g, start=1)]
    rep = audit(one(evs))
    text = rep.mismatches[0].describe()
    assert "mountain of Вова: recorded 26, computed 16 = 6 (deal 3, raspas: 6 trick(s) × 1) + 10 (deal 4," in text


def test_claimed_sheet_json_and_csv() -> None:
    evs = long_game(5, False)
    res = one(evs)
    t = res.totals
    p = res.players[0]
    good_json = ('{"%s": {"pool": %d, "mountain": %d}}' % (p, t["pool"][p], t["mountain"][p])).encode()
    assert audit(res, read_claimed("c.json", good_json, res.deals)).ok
    bad_csv = f"player,field,value\n{p},pool,{t['pool'][p] + 1}\n{p},whists:{res.players[1]},0\n".encode()
    rep = audit(res, read_claimed("c.csv", bad_csv, res.deals))
    assert not rep.ok and rep.mismatches[0].claim.field == "pool"


@pytest.mark.parametrize("data, message", [
    (b"", "c: empty"),
    (b"player,field,value\n", "c: no claimed values"),
    (b"\xd0\x90\xd0\xbd\xd1\x8f,pool\n",
     "c:1: CSV needs the columns player, field, value (игрок, поле, значение) (found: Аня, pool)"),
    (b"player,field,value\nA,pool,x\n", "c:2: 'x' is not a number"),
    (b"player,field,value,after_deal\nA,pool,1,x\n", "c:2: after_deal 'x' is not a deal number"),
    (b"player,field,value,after_deal\nA,pool,1,99\n", "c:2: after deal 99: the game has deals 1..5"),
    (b"player,field,value\nA,gora,1\n",
     "c:2: field 'gora': the fields are pool, mountain, points, whists:NAME (пуля, гора, очки, висты:ИМЯ; "
     "Serbian: bula, soups:NAME, result)"),
    (b"player,field,value\nZ,pool,1\n", "c:2: 'Z' is not a player of this game (A, B, C)"),
    (b"player,field,value\nA,whists:Z,1\n", "c:2: 'Z' is not a player of this game (A, B, C)"),
    (b'{"Z": {"pool": 1}}', "c: 'Z' is not a player of this game (A, B, C)"),
    (b'{"sheet": [1], "after_deal": 2}', "c: sheet: expected an object of players"),
    (b'{"A": {"pool": 1', "c: not valid JSON"),
])
def test_a_claimed_sheet_that_cannot_be_taken_is_one_message(data: bytes, message: str) -> None:
    with pytest.raises(ClaimError) as err:
        read_claimed("c", data, 5, ["A", "B", "C"])
    assert str(err.value).startswith(message)


def test_replay_of_the_seed_examples_shows_the_seed_numbers() -> None:
    from vistlog.projections.fold import run

    ex2 = next(x for x in run(str(VECTORS / "preferans-seed-example-2.jsonl")) if isinstance(x, GameResult))
    text = "\n".join(replay_lines(ex2, lang="en"))
    assert "+8 mountain Юг" in text
    assert "Запад: pool 0, mountain 0, whists on Юг 40" in text
    ru = "\n".join(replay_lines(ex2, lang="ru"))
    assert "+8 гора Юг" in ru and "Запад: пуля 0, гора 0, висты на Юг 40" in ru
    ex1 = next(x for x in run(str(VECTORS / "preferans-seed-example-1.jsonl")) if isinstance(x, GameResult))
    text1 = "\n".join(replay_lines(ex1, lang="en"))
    assert "+8 whists Запад→Юг" in text1 and "+2 pool Юг: 6♠ made" in text1
    assert "+2 пуля Юг: 6♠ сыгран" in "\n".join(replay_lines(ex1, lang="ru"))


def test_replay_upto_stops_there() -> None:
    evs = long_game(2, False)
    res = one(evs)
    lines = list(replay_lines(res, upto=3, lang="ru"))
    assert lines[2].startswith("Сдача 1:") and any(line.startswith("Сдача 3:") for line in lines)
    assert not any(line.startswith("Сдача 4") for line in lines)
    assert any("Пулька после сдачи 3" in line for line in lines)
    lines = list(replay_lines(res, upto=3, lang="en"))
    assert any(line.startswith("Deal 3:") for line in lines) and not any(line.startswith("Deal 4") for line in lines)
    assert any("Sheet after deal 3" in line for line in lines)


def test_replay_of_a_solo_whist_game_tells_the_points() -> None:
    from vistlog.projections.fold import run

    res = next(x for x in run(str(VECTORS / "solo-whist-seed-examples.jsonl")) if isinstance(x, GameResult))
    text = "\n".join(replay_lines(res, lang="en"))
    assert "Solo Whist" in text
    assert "+6 points North: prop & cop made with 2 overtricks: 4 + 2 × 1" in text
    assert "-48 points East: trump abundance failed: 2 undertricks: 36 + 2 × 6" in text
    assert "South cop" in text and " solo" in text
    assert text.rstrip().endswith("West: points 28")
    ru = "\n".join(replay_lines(res, lang="ru"))
    assert "вист-соло" in ru and "South принятие" in ru and ru.rstrip().endswith("West: пункты 28")
    assert "-48 пункты East: абонданс с козырем не сыгран: без двух: 36 + 2 × 6" in ru
