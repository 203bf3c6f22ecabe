"""The state machine: what may come next, and clean errors for every mutation of a valid log."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vistlog.events.codec import DecodeError, decode, decode_obj
from vistlog.events.checker import LogChecker
from tests.simulate import preferans_game, solo_whist_game
from vistlog.projections.fold import GameResult

from .helpers import Game, fold

P, W = "pass", "whist"


def problems(g: Game) -> list[str]:
    return [str(p) for p in g.fold()[1]]


def test_seq_must_run_on() -> None:
    g = Game("sochi")
    g.events.append({"v": 1, "seq": 5, "type": "deal_started", "game": "t", "deal": 1, "dealer": "C"})
    assert any("seq: expected 2, got 5" in p for p in problems(g))


def test_deals_in_order_and_dealer_rotation() -> None:
    g = Game("sochi")
    g.deal("C").contract("A", "6S").whists(("B", P), ("C", P))
    g.add("deal_started", deal=3, dealer="A")
    assert any("expected deal 2, got 3" in p for p in problems(g))
    g = Game("sochi")
    g.deal("C").contract("A", "6S").whists(("B", P), ("C", P)).deal("B")
    assert any("A deals deal 2, not B" in p for p in problems(g))


def test_players_known_and_the_four_player_dealer_holds_no_cards() -> None:
    g = Game("sochi", ("A", "B", "C", "D"))
    g.deal("D").contract("D", "6S")
    assert any("D deals and sits this deal out" in p for p in problems(g))
    g = Game("sochi")
    g.deal("C").contract("Z", "6S")
    assert any("'Z' is not a player" in p for p in problems(g))


def test_auction_rises_and_goes_in_turn() -> None:
    g = Game("sochi")
    g.deal("C").bids(("A", "7S"), ("B", "6NT"))
    assert any("6NT does not beat 7S" in p for p in problems(g))
    g = Game("sochi")
    g.deal("C").bids(("B", "6S"))
    assert any("it is A's turn" in p for p in problems(g))
    g = Game("sochi")
    g.deal("C").bids(("A", "6S"), ("B", "pass"), ("C", "pass")).contract("B", "6S")
    assert any("A won the auction, not B" in p for p in problems(g))
    g = Game("sochi")
    g.deal("C").bids(("A", "7S"), ("B", "pass"), ("C", "pass")).contract("A", "6H")
    assert any("lower than the winning bid" in p for p in problems(g))


def test_whist_calls_by_the_defenders_in_order() -> None:
    g = Game("sochi")
    g.deal("C").contract("A", "6S").whists(("C", W))
    assert any("it is B's call, not C's" in p for p in problems(g))
    g = Game("sochi")
    g.deal("C").contract("A", "6S").whists(("B", W), ("C", W), ("B", P))
    assert any("both defenders have spoken" in p for p in problems(g))


def test_tricks_add_up_and_only_where_played() -> None:
    g = Game("sochi")
    g.deal("C").contract("A", "6S").whists(("B", W), ("C", W)).tricks(A=6, B=3, C=2)
    assert any("taken adds up to 11, a Preferans deal has 10 tricks" in p for p in problems(g))
    g = Game("sochi")
    g.deal("C").contract("A", "6S").whists(("B", P), ("C", P)).tricks(A=6, B=2, C=2)
    assert any("decided without play" in p for p in problems(g))
    g = Game("sochi")
    g.deal("C").contract("A", "6S").whists(("B", W), ("C", P)).tricks(A=6, B=4)
    assert any("no tricks for C" in p for p in problems(g))


def test_nothing_after_game_ended_and_unfinished_deals() -> None:
    g = Game("sochi")
    g.deal("C").contract("A", "6S").whists(("B", P), ("C", P)).end().deal("A")
    assert any("nothing may follow game_ended" in p for p in problems(g))
    g = Game("sochi")
    g.deal("C").contract("A", "6S").whists(("B", W), ("C", P)).end()
    assert any("deal 1 has no tricks" in p for p in problems(g))


@settings(max_examples=25)
@given(st.integers(0, 10**6), st.sampled_from(["sochi", "classic"]))
def test_card_play_refuses_a_revoke_and_names_the_card_and_trick(seed: int, preset: str) -> None:
    evs = preferans_game(random.Random(seed), players=("A", "B", "C"), rules={"preset": preset}, card_play=1.0,
                         max_deals=2)
    results, probs = fold(evs)
    assert not probs and len(results) == 1
    contract_deals = {e["deal"] for e in evs if e["type"] == "contract"}
    plays = [i for i, e in enumerate(evs) if e["type"] == "card_played" and e["deal"] in contract_deals]
    position = {i: n for n, i in enumerate(plays)}  # the simulator plays one deal with cards at most
    first_of_deal = {}
    for i in plays:
        first_of_deal.setdefault(evs[i]["deal"], position[i])
    # find a follower who followed suit while holding a card of another suit he plays later
    for k in range(len(plays) - 1):
        lead, follow = evs[plays[k]], evs[plays[k + 1]]
        if lead["deal"] != follow["deal"] or (k - first_of_deal[lead["deal"]]) % 3 != 0:
            continue
        if lead["card"][-1] != follow["card"][-1]:
            continue
        later = [evs[j]["card"] for j in plays[k + 2:] if evs[j]["player"] == follow["player"]
                 and evs[j]["deal"] == follow["deal"] and evs[j]["card"][-1] != lead["card"][-1]]
        if later:
            bad = [dict(e) for e in evs]
            bad[plays[k + 1]]["card"] = later[0]
            _, probs = fold(bad)
            first = str(probs[0])
            assert "must follow" in first and later[0] in first and "trick" in first, first
            return


@settings(max_examples=30)
@given(st.randoms(use_true_random=False), st.sampled_from(["sochi", "leningrad", "rostov", "classic"]),
       st.sampled_from([3, 4]))
def test_random_legal_games_validate(rng: random.Random, preset: str, n: int) -> None:
    players = ("Аня", "Боря", "Вова", "Гена")[:n]
    evs = preferans_game(rng, players=players, rules={"preset": preset}, pool=10, max_deals=25)
    results, probs = fold(evs)
    assert probs == [] and len(results) == 1


@settings(max_examples=20)
@given(st.randoms(use_true_random=False), st.sampled_from(["redeal", "general_misere"]))
def test_random_solo_whist_games_validate(rng: random.Random, all_pass: str) -> None:
    evs = solo_whist_game(rng, rules={"preset": "encyclopedia", "all_pass": all_pass}, card_play=0.3, deals=12)
    results, probs = fold(evs)
    assert probs == [] and len(results) == 1


# ----------------------------------------------------------------------------- mutations

def _sample_game(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    if seed % 3 == 2:
        return solo_whist_game(rng, deals=6, card_play=0.5)
    return preferans_game(rng, players=("A", "B", "C", "D")[: 3 + seed % 2],
                          rules={"preset": ["sochi", "classic"][seed % 2]}, max_deals=6, card_play=0.5)


WRONG = [None, True, 0, -3, 99, 2.5, "x", "Z", [], {}, ["7S"], {"A": 11}, "7S", "misere"]


@settings(max_examples=60)
@given(st.integers(0, 30), st.data())
def test_a_mutated_field_gives_a_clean_error(seed: int, data: st.DataObject) -> None:
    evs = _sample_game(seed)
    i = data.draw(st.integers(0, len(evs) - 1))
    ev = dict(evs[i])
    field = data.draw(st.sampled_from(sorted(ev)))
    value = data.draw(st.sampled_from(WRONG))
    if ev[field] == value:
        return
    ev[field] = value
    mutated = evs[:i] + [ev] + evs[i + 1:]
    lines = b"\n".join(orjson.dumps(e) for e in mutated) + b"\n"
    results, probs = _fold_lines(lines)
    # a wrong value either makes a problem, or is a legal alternative (then the log still folds)
    if not probs:
        assert len(results) == 1


@settings(max_examples=60)
@given(st.integers(0, 30), st.data(), st.sampled_from(["drop", "swap", "duplicate"]))
def test_dropped_swapped_duplicated_lines_give_clean_errors(seed: int, data: st.DataObject, how: str) -> None:
    evs = _sample_game(seed)
    i = data.draw(st.integers(0, len(evs) - 2))
    mutated = list(evs)
    if how == "drop":
        del mutated[i]
    elif how == "swap":
        mutated[i], mutated[i + 1] = mutated[i + 1], mutated[i]
    else:
        mutated.insert(i, mutated[i])
    lines = b"\n".join(orjson.dumps(e) for e in mutated) + b"\n"
    _, probs = _fold_lines(lines)
    assert probs, f"{how} of line {i + 1} went unnoticed"
    assert all(p.line is None or 1 <= p.line <= len(mutated) for p in probs)


def _fold_lines(blob: bytes) -> tuple[list[GameResult], list[Any]]:
    import io

    from vistlog.events.log import Problem
    from vistlog.projections.fold import run

    items = list(run("m.jsonl", io.BytesIO(blob)))
    return ([i for i in items if isinstance(i, GameResult)], [i for i in items if isinstance(i, Problem)])


def test_one_bad_game_never_hides_the_others() -> None:
    good = _sample_game(1)
    other = [dict(e, game="second") for e in _sample_game(4)]
    bad = [dict(e) for e in _sample_game(0)]
    bad = [dict(e, game="bad") for e in bad]
    bad[3]["deal"] = 7
    evs = good + bad + other
    for k, e in enumerate(evs, start=1):
        e["seq"] = k
    results, probs = _fold_lines(b"\n".join(orjson.dumps(e) for e in evs) + b"\n")
    assert {r.game for r in results} == {"g", "bad", "second"}
    assert {p.game for p in probs} == {"bad"}
    assert [r for r in results if r.game != "bad" and not r.sound] == []


def test_strict_checker_refuses_and_changes_nothing() -> None:
    chk = LogChecker()
    start = decode(b'{"seq":1,"type":"game_started","game":"g","kind":"preferans","players":["A","B","C"],'
                   b'"pool":10,"rules":{"preset":"sochi"}}')
    assert chk.check(start) == []
    bad = decode_obj({"seq": 2, "type": "deal_started", "game": "g", "deal": 1, "dealer": "Q"})
    assert chk.check(bad) and chk.games["g"].deals_started == 0


def test_decode_error_for_wrong_game_kind_fields() -> None:
    with pytest.raises(DecodeError):
        decode(b'{"seq":1,"type":"whist","game":"g","deal":1,"player":"A","call":"maybe"}')


@settings(max_examples=30)
@given(st.integers(0, 30), st.data(), st.sampled_from([b"this is not json", b'{"seq": ', b"\xff\xfe", b"[1, 2]"]))
def test_one_unreadable_line_is_one_problem(seed: int, data: st.DataObject, garbage: bytes) -> None:
    evs = _sample_game(seed)
    i = data.draw(st.integers(1, len(evs) - 1))
    kind = evs[i]["type"]
    lines = [orjson.dumps(e) for e in evs]
    lines[i] = garbage
    _, probs = _fold_lines(b"\n".join(lines) + b"\n")
    assert probs and probs[0].line == i + 1
    if kind not in ("deal_started", "contract", "whist", "tricks", "card_played", "discard", "bid",
                    "game_ended", "allocation"):
        assert len(probs) == 1, [str(p) for p in probs]
