"""Solo Whist: every contract made and failed, the options, the auction, zero-sum."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Game, codes

PLAYERS = ("N", "E", "S", "W")  # W deals first: N bids first


def solo(contract: str, taken: dict[str, int], declarer: str = "N", rules: Any = "encyclopedia",
         **fields: Any) -> dict[str, int]:
    g = Game(rules, PLAYERS)
    g.deal("W", turned="7H").contract(declarer, contract, **fields).tricks(**taken).end()
    res = g.result()
    assert sum(res.result.values()) == 0
    return {p: int(v) for p, v in res.result.items()}


@pytest.mark.parametrize("contract,taken,expected", [
    ("solo", {"N": 5, "E": 3, "S": 3, "W": 2}, {"N": 12, "E": -4, "S": -4, "W": -4}),
    ("solo", {"N": 7, "E": 2, "S": 2, "W": 2}, {"N": 18, "E": -6, "S": -6, "W": -6}),
    ("solo", {"N": 3, "E": 4, "S": 3, "W": 3}, {"N": -18, "E": 6, "S": 6, "W": 6}),
    ("misere", {"N": 0, "E": 5, "S": 4, "W": 4}, {"N": 24, "E": -8, "S": -8, "W": -8}),
    ("misere", {"N": 2, "E": 5, "S": 3, "W": 3}, {"N": -24, "E": 8, "S": 8, "W": 8}),
    ("abundance", {"N": 10, "E": 1, "S": 1, "W": 1}, {"N": 42, "E": -14, "S": -14, "W": -14}),
    ("abundance", {"N": 8, "E": 2, "S": 2, "W": 1}, {"N": -42, "E": 14, "S": 14, "W": 14}),
    ("trump_abundance", {"N": 7, "E": 2, "S": 2, "W": 2}, {"N": -48, "E": 16, "S": 16, "W": 16}),
    ("trump_abundance", {"N": 9, "E": 2, "S": 1, "W": 1}, {"N": 36, "E": -12, "S": -12, "W": -12}),
    ("open_misere", {"N": 0, "E": 5, "S": 4, "W": 4}, {"N": 48, "E": -16, "S": -16, "W": -16}),
    ("open_misere", {"N": 1, "E": 4, "S": 4, "W": 4}, {"N": -48, "E": 16, "S": 16, "W": 16}),
    ("full_abundance", {"N": 13, "E": 0, "S": 0, "W": 0}, {"N": 72, "E": -24, "S": -24, "W": -24}),
    ("full_abundance", {"N": 12, "E": 1, "S": 0, "W": 0}, {"N": -72, "E": 24, "S": 24, "W": 24}),
])
def test_contract_made_and_failed(contract: str, taken: dict[str, int], expected: dict[str, int]) -> None:
    fields = {"trump": "S"} if contract == "abundance" else {}
    assert solo(contract, taken, **fields) == expected


def test_prop_and_cop_made_and_failed() -> None:
    assert solo("prop", {"N": 5, "S": 3, "E": 3, "W": 2}, partner="S") == {"N": 4, "E": -4, "S": 4, "W": -4}
    assert solo("prop", {"N": 4, "S": 2, "E": 4, "W": 3}, partner="S") == {"N": -6, "E": 6, "S": -6, "W": 6}


def test_misere_per_trick_option() -> None:
    r = solo("misere", {"N": 2, "E": 5, "S": 3, "W": 3}, rules={"preset": "encyclopedia", "misere_per_trick": 1})
    assert r == {"N": -30, "E": 10, "S": 10, "W": 10}


def test_custom_table_is_checked_zero_sum_at_game_start() -> None:
    g = Game({"preset": "encyclopedia", "table": {"solo": {"declarer": 42}}}, PLAYERS)
    _, problems = g.fold()
    assert any("rules.table" in str(p) and "not zero-sum" in str(p) for p in problems)
    ok = solo("solo", {"N": 5, "E": 3, "S": 3, "W": 2},
              rules={"preset": "encyclopedia", "table": {"solo": {"declarer": 30, "opponent": 10}}})
    assert ok == {"N": 30, "E": -10, "S": -10, "W": -10}


def test_all_pass_redeal_and_general_misere() -> None:
    g = Game("encyclopedia", PLAYERS)
    g.deal("W", turned="7H").bids(("N", "pass"), ("E", "pass"), ("S", "pass"), ("W", "pass"))
    g.end()
    res, problems = g.fold()
    assert not problems and all(v == 0 for v in res[0].result.values())
    gm = Game({"preset": "encyclopedia", "all_pass": "general_misere"}, PLAYERS)
    gm.deal("W", turned="7H").bids(("N", "pass"), ("E", "pass"), ("S", "pass"), ("W", "pass"))
    gm.add("tricks", deal=1, taken={"N": 4, "E": 3, "S": 3, "W": 3}, last="E").end()
    assert {p: int(v) for p, v in gm.result().result.items()} == {"N": 4, "E": -12, "S": 4, "W": 4}


def test_auction_rises_in_turn() -> None:
    g = Game("encyclopedia", PLAYERS)
    g.deal("W", turned="7H").bids(("N", "solo"), ("E", "prop"))
    assert {"bid-too-low", "prop-not-first"} & set(codes(g.fold()[1]))
    g = Game("encyclopedia", PLAYERS)
    g.deal("W", turned="7H").bids(("E", "solo"))
    assert "bid-out-of-turn" in codes(g.fold()[1])


def test_passed_player_is_out_except_eldest_cop() -> None:
    g = Game("encyclopedia", PLAYERS)
    g.deal("W", turned="7H").bids(("N", "pass"), ("E", "prop"), ("S", "pass"), ("W", "pass"), ("N", "cop"))
    g.contract("E", "prop", partner="N").tricks(N=4, E=4, S=3, W=2).end()
    results, problems = g.fold()
    assert not problems and [r.deals for r in results] == [1]
    g = Game("encyclopedia", PLAYERS)
    g.deal("W", turned="7H").bids(("N", "prop"), ("E", "pass"), ("S", "solo"), ("W", "pass"), ("E", "misere"))
    assert "bid-after-pass" in codes(g.fold()[1])


def test_overcalled_player_may_bid_again() -> None:
    g = Game("encyclopedia", PLAYERS)
    g.deal("W", turned="7H").bids(("N", "solo"), ("E", "misere"), ("S", "pass"), ("W", "pass"),
                                  ("N", "abundance"), ("E", "pass"))
    g.contract("N", "abundance", trump="D").tricks(N=9, E=2, S=1, W=1).end()
    res, problems = g.fold()
    assert not problems and res[0].result["N"] == 36


def test_unaccepted_prop_options() -> None:
    raise_ = Game("encyclopedia", PLAYERS)
    raise_.deal("W", turned="7H").bids(("N", "prop"), ("E", "pass"), ("S", "pass"), ("W", "pass"), ("N", "solo"))
    raise_.contract("N", "solo").tricks(N=5, E=3, S=3, W=2).end()
    assert not raise_.fold()[1]
    redeal = Game({"preset": "encyclopedia", "unaccepted_prop": "redeal"}, PLAYERS)
    redeal.deal("W", turned="7H").bids(("N", "prop"), ("E", "pass"), ("S", "pass"), ("W", "pass"))
    redeal.contract("N", "prop", partner="S")
    assert "contract-prop-not-accepted" in codes(redeal.fold()[1])


def test_contract_must_match_the_auction_and_game() -> None:
    g = Game("encyclopedia", PLAYERS)
    g.deal("W", turned="7H").contract("N", "6S")
    assert "contract-unknown" in codes(g.fold()[1])
    g = Game("encyclopedia", PLAYERS)
    g.deal("W", turned="7H").contract("N", "prop")
    assert "partner-missing" in codes(g.fold()[1])
    g = Game("encyclopedia", PLAYERS)
    g.deal("W", turned="7H").contract("N", "solo").tricks(N=5, E=3, S=3, W=3)
    assert "tricks-sum" in codes(g.fold()[1])


def test_a_general_misere_is_left_unsolved_in_the_games_own_words() -> None:
    """Why the analysis leaves a general misère alone is Solo Whist's to say (its mode's words), in either
    language; the generic analysis names no game's mode."""
    import random

    from vistlog.projections.words import Words
    from vistlog.projections.worth import camps

    from .conftest import ROOT
    from .helpers import fold
    from .simulate import solo_whist_game

    evs = solo_whist_game(random.Random(0), deals=16, card_play=1.0,
                          rules={"preset": "encyclopedia", "all_pass": "general_misere"})
    (result,), _ = fold(evs)
    (rec, *_) = [r for r in result.records if r.mode == "general_misere"]
    why = camps(rec, "solo_whist")
    assert isinstance(why, str) and rec.played
    assert Words("en", "solo_whist")(why) == "a general misère (the last trick decides) is not analysed"
    assert Words("ru", "solo_whist")(why) == "общий мизер (решает последняя взятка) не разбирается"
    assert "misère" not in (ROOT / "projections" / "worth.py").read_text(encoding="utf-8")
