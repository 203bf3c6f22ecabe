"""Preferans scoring: every situation of RULES.md, and each option changing the score as it says.

Three players A, B, C; C deals the first deal, so A bids first and B, C defend against A.
The numbers in each test are worked by hand from RULES.md.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from .helpers import Game, codes, sheet


def played(rules: str | dict[str, Any], contract: str, calls: list[tuple[str, str]], players=("A", "B", "C"),
           dealer: str = "C", pool: int = 20, opening: dict[str, Any] | None = None, deal: dict | None = None,
           cfields: dict | None = None, **taken: int) -> Game:
    g = Game(rules, players, pool=pool)
    if opening:
        g.add("opening_balance", **opening)
    g.deal(dealer, **(deal or {}))
    g.contract("A", contract, **(cfields or {}))
    g.whists(*calls)
    if taken:
        g.tricks(**taken)
    return g.end()


W, P = "whist", "pass"


# ----------------------------------------------------------------------------- made, failed, whists

def test_made_with_two_whisters_each_writes_own_tricks() -> None:
    s = sheet(played("sochi", "6S", [("B", W), ("C", W)], A=6, B=1, C=3).result())
    assert s == {"A": {"pool": 2}, "B": {"whists": {"A": 2}}, "C": {"whists": {"A": 6}}}


def test_both_defenders_pass_made_without_play() -> None:
    s = sheet(played("sochi", "8H", [("B", P), ("C", P)]).result())
    assert s == {"A": {"pool": 6}}


def test_failed_contract_mountain_and_consolation_from_both() -> None:
    # 7H down one, both whist: price 4; mountain 4; each writes own tricks × 4 + 4 consolation
    s = sheet(played("sochi", "7H", [("B", W), ("C", W)], A=6, B=3, C=1).result())
    assert s == {"A": {"mountain": 4}, "B": {"whists": {"A": 16}}, "C": {"whists": {"A": 8}}}


def test_whist_rate_and_penalty_rates_leningrad_doubles() -> None:
    sochi = sheet(played("sochi", "6S", [("B", W), ("C", W)], A=5, B=3, C=2).result())
    lenin = sheet(played("leningrad", "6S", [("B", W), ("C", W)], A=5, B=3, C=2).result())
    assert sochi == {"A": {"mountain": 2}, "B": {"whists": {"A": 8}}, "C": {"whists": {"A": 6}}}
    assert lenin == {"A": {"mountain": 4}, "B": {"whists": {"A": 16}}, "C": {"whists": {"A": 12}}}


@pytest.mark.parametrize("mode,b,c", [("ordinary", 20, 4), ("none", 16, 0), ("grabbing", 20, 20)])
def test_consolation_modes(mode: str, b: int, c: int) -> None:
    # 7H down one; B whists (3 tricks, greedy: writes for C's 1 too = 4 × 4); C passes
    g = played({"preset": "sochi", "consolation": mode}, "7H", [("B", W), ("C", P)], A=6, B=3, C=1)
    s = sheet(g.result())
    assert s["B"]["whists"]["A"] == b
    assert s.get("C", {}).get("whists", {}).get("A", 0) == c
    assert s["A"]["mountain"] == 4


@pytest.mark.parametrize("flag,dealer_writes", [(True, 4), (False, 0)])
def test_dealer_consolation(flag: bool, dealer_writes: int) -> None:
    g = played({"preset": "sochi", "dealer_consolation": flag}, "7H", [("B", W), ("C", P)],
               players=("A", "B", "C", "D"), dealer="D", A=6, B=3, C=1)
    s = sheet(g.result())
    assert s.get("D", {}).get("whists", {}).get("A", 0) == dealer_writes
    assert s["C"]["whists"]["A"] == 4


def test_single_whister_gentleman_splits_everything_on_a_remise() -> None:
    # rostov: gentleman. 7H down one: tricks 4 × 4 = 16, two consolations of 4 → 24, half each
    g = played("rostov", "7H", [("B", W), ("C", P)], A=6, B=3, C=1)
    s = sheet(g.result())
    assert s["B"]["whists"]["A"] == 12 and s["C"]["whists"]["A"] == 12


def test_single_whister_gentleman_is_greedy_when_made() -> None:
    g = played("rostov", "6S", [("B", W), ("C", P)], A=6, B=3, C=1)
    s = sheet(g.result())
    assert s == {"A": {"pool": 2}, "B": {"whists": {"A": 8}}}


def test_greedy_whister_answers_for_the_team_obligation() -> None:
    # 6S made with 7: defence 3 < 4, the lone whister pays 1 × 2 (sochi), 1 × 1 (rostov rate 0.5)
    s = sheet(played("sochi", "6S", [("B", W), ("C", P)], A=7, B=2, C=1).result())
    assert s["B"] == {"mountain": 2, "whists": {"A": 6}}
    r = sheet(played("rostov", "6S", [("B", W), ("C", P)], A=7, B=2, C=1).result())
    assert r["B"]["mountain"] == 1


@pytest.mark.parametrize("contract, tricks, mode, b_mtn, c_mtn", [
    # 6S made with 7: team 3 of 4 (short 1); B took 0 of his share 2, C 3
    ("6S", (7, 0, 3), "team_then_half", 4, 0), ("6S", (7, 0, 3), "team_capped", 2, 0),
    ("6S", (7, 0, 3), "team_then_each", 4, 0), ("6S", (7, 0, 3), "personal", 4, 0),
    # 8S made with 10: both whisters short; who pays depends on the mode (the later one, or each)
    ("8S", (10, 0, 0), "team_then_half", 0, 6), ("8S", (10, 0, 0), "team_capped", 0, 6),
    ("8S", (10, 0, 0), "team_then_each", 6, 6), ("8S", (10, 0, 0), "personal", 6, 6),
])
def test_two_whisters_short(contract: str, tricks: tuple[int, int, int], mode: str, b_mtn: int, c_mtn: int) -> None:
    a, b, c = tricks
    g = played({"preset": "sochi", "two_whisters": mode}, contract, [("B", W), ("C", W)], A=a, B=b, C=c)
    s = sheet(g.result())
    assert s.get("B", {}).get("mountain", 0) == b_mtn
    assert s.get("C", {}).get("mountain", 0) == c_mtn


@pytest.mark.parametrize("mode,b_mtn", [("team_then_half", 0), ("team_capped", 0), ("team_then_each", 0),
                                        ("personal", 2)])
def test_two_whisters_team_took_enough(mode: str, b_mtn: int) -> None:
    # 6S made exactly: team 4 = Q; B took 1 of his share 2. Only `personal` ignores the team.
    g = played({"preset": "sochi", "two_whisters": mode}, "6S", [("B", W), ("C", W)], A=6, B=1, C=3)
    assert sheet(g.result()).get("B", {}).get("mountain", 0) == b_mtn



def test_half_whist_stands() -> None:
    # 6S: B passes, C half: made without play; C writes 2 tricks × 2
    s = sheet(played("sochi", "6S", [("B", P), ("C", "half")]).result())
    assert s == {"A": {"pool": 2}, "C": {"whists": {"A": 4}}}
    s7 = sheet(played("sochi", "7C", [("B", P), ("C", "half"), ("B", P)]).result())
    assert s7 == {"A": {"pool": 4}, "C": {"whists": {"A": 4}}}


def test_half_whist_taken_back_is_played_with_one_whister() -> None:
    g = played("sochi", "6S", [("B", P), ("C", "half"), ("B", W)], A=6, B=3, C=1)
    assert sheet(g.result()) == {"A": {"pool": 2}, "B": {"whists": {"A": 8}}}


def test_half_whist_refused_where_the_rules_have_none() -> None:
    _, problems = played("classic", "6S", [("B", P), ("C", "half")]).fold()
    assert "half-whist-off" in codes(problems)


@pytest.mark.parametrize("mode,entries", [
    ("whisted", None),
    ("checked", {"A": {"mountain": 10}, "B": {"whists": {"A": 10}}, "C": {"whists": {"A": 10}}}),
    ("checked_silent", {"A": {"mountain": 10}}),
    ("consolation_only", {"A": {"mountain": 10}, "B": {"whists": {"A": 10}}, "C": {"whists": {"A": 10}}}),
])
def test_ten_game_modes(mode: str, entries: dict | None) -> None:
    rules = {"preset": "sochi", "ten_game": mode}
    if entries is None:  # whisted: calls needed, Q = 1
        g = played(rules, "10NT", [("B", W), ("C", P)], A=9, B=1, C=0)
        assert sheet(g.result()) == {"A": {"mountain": 10}, "B": {"whists": {"A": 20}},
                                     "C": {"whists": {"A": 10}}}
        return
    g = Game(rules)
    g.deal("C").contract("A", "10NT").tricks(A=9, B=1, C=0).end()
    assert sheet(g.result()) == entries
    bad = Game(rules)
    bad.deal("C").contract("A", "10NT").whists(("B", W))
    assert "whist-not-called-for" in codes(bad.fold()[1])


def test_misere_made_failed_and_penalty_rate() -> None:
    g = Game("sochi")
    g.deal("C").contract("A", "misere").tricks(A=0, B=5, C=5)
    g.deal("A").contract("B", "misere").tricks(A=5, B=2, C=3).end()
    assert sheet(g.result()) == {"A": {"pool": 10}, "B": {"mountain": 20}}
    lg = Game("leningrad")
    lg.deal("C").contract("A", "misere").tricks(A=1, B=5, C=4).end()
    assert sheet(lg.result()) == {"A": {"mountain": 20}}


def test_misere_is_never_whisted() -> None:
    g = Game("sochi")
    g.deal("C").contract("A", "misere").whists(("B", W))
    assert "whist-not-called-for" in codes(g.fold()[1])


def test_without_three() -> None:
    g = played("sochi", "7S", [], cfields={"without_three": True})
    assert sheet(g.result()) == {"A": {"mountain": 12}}


# ----------------------------------------------------------------------------- raspas

def raspas(g: Game, dealer: str, **taken: int) -> Game:
    g.deal(dealer).bids(*[(p, "pass") for p in g.players if p != dealer or len(g.players) == 3][:3])
    return g.tricks(**taken)


def test_raspas_progression_and_zero_bonus() -> None:
    g = Game("sochi")
    g.deal("C").tricks(A=0, B=4, C=6)
    g.deal("A").tricks(A=2, B=3, C=5)
    g.deal("B").tricks(A=1, B=1, C=8).end()
    # r = 1, 2, 3; A's zero → pool += 1
    assert sheet(g.result()) == {"A": {"pool": 1, "mountain": 4 + 3}, "B": {"mountain": 4 + 6 + 3},
                                 "C": {"mountain": 6 + 10 + 24}}


def test_raspas_progression_is_reset_by_a_contract() -> None:
    g = Game("sochi")
    g.deal("C").tricks(A=0, B=4, C=6)
    g.deal("A").contract("B", "6S").whists(("C", P), ("A", P))
    g.deal("B").tricks(A=2, B=3, C=5).end()
    assert g.result().totals["mountain"]["C"] == 6 + 5  # second raspas is ×1 again


@pytest.mark.parametrize("reset,c_mountain", [("any_contract", 6 + 5), ("played_contract", 6 + 10)])
def test_raspas_reset_option(reset: str, c_mountain: int) -> None:
    g = Game({"preset": "sochi", "raspas_reset": reset})
    g.deal("C").tricks(A=0, B=4, C=6)
    g.deal("A").contract("B", "6S").whists(("C", P), ("A", P))  # decided without play
    g.deal("B").tricks(A=2, B=3, C=5).end()
    assert g.result().totals["mountain"]["C"] == c_mountain


def test_raspas_amnesty_subtracts_the_smallest_count() -> None:
    g = Game({"preset": "sochi", "raspas_amnesty": True})
    g.deal("C").tricks(A=1, B=3, C=6).end()
    assert sheet(g.result()) == {"B": {"mountain": 2}, "C": {"mountain": 5}}


def test_raspas_zero_amount_one() -> None:
    g = Game({"preset": "sochi", "raspas_zero_amount": "one"})
    g.deal("C").tricks(A=1, B=3, C=6)
    g.deal("A").tricks(A=0, B=4, C=6).end()
    assert g.result().totals["pool"]["A"] == 1  # not the current price 2


def test_raspas_zero_mountain_off_classic_is_lost_at_zero() -> None:
    g = Game("classic", ("A", "B", "C"))
    g.add("opening_balance", mountain={"A": 1})
    g.deal("C").tricks(A=4, B=6, C=0)  # C has no mountain: the point is lost
    g.deal("C").tricks(A=0, B=4, C=6).end()  # classic: same dealer after a raspas; r = 2 comes off A's 5
    s = sheet(g.result())
    assert s["A"] == {"mountain": 1 + 4 - 2}
    assert s["C"] == {"mountain": 12}
    assert "pool" not in s.get("C", {})


def test_classic_same_dealer_deals_again_after_raspas() -> None:
    g = Game("classic", ("A", "B", "C"))
    g.deal("C").tricks(A=4, B=6, C=0)
    g.deal("A")
    assert "dealer-wrong" in codes(g.fold()[1])


def test_raspas_talon_tricks_to_the_four_player_dealer() -> None:
    g = Game("classic", ("A", "B", "C", "D"))
    g.deal("D").tricks(A=3, B=3, C=3, D=1).end()
    assert g.result().totals["mountain"]["D"] == 1
    s = Game("sochi", ("A", "B", "C", "D"))
    s.deal("D").tricks(A=3, B=3, C=3, D=1)
    assert "player-sits-out" in codes(s.fold()[1])


def test_raspas_on_whists_rostov() -> None:
    g = Game("rostov")
    g.deal("C").tricks(A=1, B=4, C=5)
    g.deal("A").tricks(A=2, B=2, C=6)
    g.deal("B").tricks(A=0, B=4, C=6).end()
    s = sheet(g.result())
    # deal 1: A writes 5×4 on B and 5×5 on C; deal 2: A and B each write 5×6 on C;
    # deal 3: A writes 20 on B, 30 on C and gets pool + 1
    assert s["A"] == {"pool": 1, "whists": {"B": 20 + 20, "C": 25 + 30 + 30}}
    assert s["B"] == {"whists": {"C": 30}}


# ----------------------------------------------------------------------------- overflow and help

def test_overflow_help_closes_the_most_advanced_pool() -> None:
    g = played("sochi", "6S", [("B", P), ("C", P)], pool=10, opening={"pool": {"A": 9, "B": 5, "C": 7}})
    s = sheet(g.result())
    assert s["A"]["pool"] == 10
    assert s["C"]["pool"] == 8 and s["B"]["pool"] == 5
    assert s["A"]["whists"] == {"C": 10}


def test_overflow_help_then_own_mountain_may_go_negative() -> None:
    g = played("sochi", "8S", [("B", P), ("C", P)], pool=10, opening={"pool": {"A": 9, "B": 8, "C": 10}})
    s = sheet(g.result())
    assert s["A"]["pool"] == 10 and s["B"]["pool"] == 10
    assert s["A"]["whists"] == {"B": 20}
    assert s["A"]["mountain"] == -3


def test_mountain_floor_loses_the_rest() -> None:
    g = played({"preset": "sochi", "mountain_floor": True}, "8S", [("B", P), ("C", P)], pool=10,
               opening={"pool": {"A": 9, "B": 8, "C": 10}, "mountain": {"A": 1}})
    assert g.result().totals["mountain"]["A"] == 0


@pytest.mark.parametrize("overflow,pool,mountain", [("mountain", 10, -1), ("none", 11, 0)])
def test_overflow_mountain_and_none(overflow: str, pool: int, mountain: int) -> None:
    g = played({"preset": "sochi", "overflow": overflow}, "6S", [("B", P), ("C", P)], pool=10,
               opening={"pool": {"A": 9}})
    t = g.result().totals
    assert (t["pool"]["A"], t["mountain"]["A"]) == (pool, mountain)


def test_made_points_first_mountain() -> None:
    g = played({"preset": "sochi", "made_points_first": "mountain"}, "7S", [("B", P), ("C", P)],
               opening={"mountain": {"A": 3}})
    t = g.result().totals
    assert (t["pool"]["A"], t["mountain"]["A"]) == (1, 0)


def test_allocation_splits_pool_and_mountain_as_the_seed() -> None:
    g = Game("classic", ("Юг", "Запад", "Север", "Восток"))
    g.add("opening_balance", mountain={"Юг": 3})
    g.deal("Восток").contract("Юг", "6S").whists(("Запад", W), ("Север", P)).tricks(Юг=6, Запад=4, Север=0)
    g.add("allocation", deal=1, player="Юг", pool=1, mountain=-1).end()
    t = g.result().totals
    assert (t["pool"]["Юг"], t["mountain"]["Юг"]) == (1, 2)


def test_allocation_that_does_not_add_up_is_a_problem() -> None:
    g = Game("classic", ("A", "B", "C"))
    g.deal("C").contract("A", "6S").whists(("B", P), ("C", P))
    g.add("allocation", deal=1, player="A", pool=3).end()
    _, problems = g.fold()
    assert "allocation-sum" in codes(problems)


# ----------------------------------------------------------------------------- classic: bombs, dark, totus

def test_bomb_and_dark_multiply_the_price() -> None:
    g = Game("classic", ("A", "B", "C"), pool=100)
    g.deal("C", bomb=2).contract("A", "8S", dark=True).whists(("B", P), ("C", P)).end()
    assert g.result().totals["pool"]["A"] == 6 * 4 * 2


def test_bombs_are_refused_where_the_rules_have_none() -> None:
    g = Game("sochi")
    g.deal("C", bomb=1)
    assert "bombs-off" in codes(g.fold()[1])


def test_totus_made_closes_pool_and_writes_off_mountain() -> None:
    g = Game("classic", ("A", "B", "C"))
    g.add("opening_balance", pool={"A": 5, "B": 3}, mountain={"A": 4, "B": 6})
    g.deal("C", bomb=1).contract("A", "10NT", totus=True, helps=["B"]).tricks(A=10, B=0, C=0).end()
    s = sheet(g.result())
    assert s["A"]["pool"] == 20 and "mountain" not in s["A"]
    assert s["B"]["pool"] == 20 and "mountain" not in s["B"]
    assert s["A"]["whists"] == {"B": 17 * 10 + 6 * 10}


def test_totus_on_yolka_writes_off_every_mountain_converting_nothing() -> None:
    g = Game("classic", ("A", "B", "C"))
    g.add("opening_balance", mountain={"A": 4, "B": 6, "C": 2})
    g.deal("C", bomb=3).contract("A", "10S", totus=True).tricks(A=10, B=0, C=0).end()
    s = sheet(g.result())
    assert all("mountain" not in line for line in s.values())
    assert "whists" not in s["A"]


def test_totus_failed_doubles_mountain_adds_partners_and_consolation() -> None:
    g = Game("classic", ("A", "B", "C"))
    g.add("opening_balance", mountain={"A": 4, "B": 6})
    g.deal("C", bomb=1).contract("A", "10NT", totus=True, helps=["B"]).tricks(A=9, B=1, C=0).end()
    s = sheet(g.result())
    # doubled 4 → 8, plus B's 6; consolation: price 20 × 1 undertrick from B and C
    assert s["A"]["mountain"] == 4 + 4 + 6
    assert s["B"]["whists"] == {"A": 20} and s["C"]["whists"] == {"A": 20}


# ----------------------------------------------------------------------------- corrections, settlement

def test_deal_voided_removes_its_effects_from_everything_after() -> None:
    g = Game("sochi")
    g.deal("C").tricks(A=0, B=4, C=6)
    g.deal("A").tricks(A=2, B=3, C=5)
    g.add("deal_voided", deal=1, reason="misdeal").end()
    res = g.result()
    # deal 1 gone: deal 2 is now the first raspas in a row (×1) and A took 2
    assert sheet(res) == {"A": {"mountain": 2}, "B": {"mountain": 3}, "C": {"mountain": 5}}
    assert any(e.void for e in res.entries)


def test_adjustment_and_opening_balance_enter_the_sheet() -> None:
    g = Game("sochi")
    g.add("opening_balance", pool={"A": 8}, whists={"B": {"A": 40}})
    g.deal("C").contract("A", "6S").whists(("B", P), ("C", P))
    g.add("adjustment", mountain={"C": 10}, whists={"A": {"B": 5}}, reason="fine").end()
    assert sheet(g.result()) == {"A": {"pool": 10, "whists": {"B": 5}}, "B": {"whists": {"A": 40}},
                                 "C": {"mountain": 10}}


def test_rounding_per_conversion_rounds_each_conversion() -> None:
    exact = Game("sochi").add("opening_balance", mountain={"A": 1}).end().result()
    assert exact.result == {"A": F(-20, 3), "B": F(10, 3), "C": F(10, 3)}
    g = Game({"preset": "sochi", "rounding": "per_conversion"}).add("opening_balance", mountain={"A": 1}).end()
    assert g.result().result == {"A": -6, "B": 3, "C": 3}


def test_game_ends_when_every_pool_is_closed() -> None:
    g = Game("sochi", pool=2)
    g.add("opening_balance", pool={"B": 2, "C": 2})
    g.deal("C").contract("A", "6S").whists(("B", P), ("C", P))
    g.deal("A")
    _, problems = g.fold()
    assert "pools-closed" in codes(problems)


def test_stake_gives_money_and_fewest_payments() -> None:
    g = Game("sochi", stake="0.10")
    g.deal("C").contract("A", "7S").whists(("B", W), ("C", W)).tricks(A=7, B=2, C=1).end()
    res = g.result()
    assert sum(F(m) for m in res.money.values()) == 0
    assert len(res.payments) <= 2
    paid = {p: F(0) for p in res.players}
    for x in res.payments:
        paid[x["from"]] -= F(x["amount"])
        paid[x["to"]] += F(x["amount"])
    assert paid == {p: F(m) for p, m in res.money.items()}


def test_an_allocation_that_does_not_add_up_falls_back_to_the_policy_of_that_win() -> None:
    # a raspas bonus is not a made game: made_points_first must not touch the mountain for it
    g = Game({"preset": "sochi", "made_points_first": "mountain"})
    g.add("opening_balance", mountain={"A": 5})
    g.deal("C").tricks(A=0, B=4, C=6)
    g.add("allocation", deal=1, player="A", pool=7).end()
    _, problems = g.fold()
    assert "allocation-sum" in codes(problems)
    results, _ = g.fold()
    assert (results[0].totals["pool"]["A"], results[0].totals["mountain"]["A"]) == (1, 5)


def test_a_deal_mode_is_the_games_verdict_in_the_record() -> None:
    """The game decides a finished deal's mode (one it declares) once: a raspas by the one rule
    (:func:`is_raspas`), a contract; a record made by hand says only what its own facts give."""
    from vistlog.events.games.preferans.game import is_raspas
    from vistlog.events.record import DealRecord
    from vistlog.events.variants import VARIANTS

    g = Game("sochi")
    raspas(g, "C", A=2, B=3, C=5)
    g.deal("A").bids(("B", "6S"), ("C", "pass"), ("A", "pass")).contract("B", "6S").whists(("C", "pass"), ("A", "pass"))
    res = g.end().result()
    assert [r.mode for r in res.records] == ["raspas", "contract"]
    assert all((r.mode == "raspas") == is_raspas(r.contract, r.all_passed, r.played) for r in res.records)
    assert {r.mode for r in res.records} <= {m.name for m in VARIANTS["preferans"].modes}
    assert DealRecord(number=1, dealer="C", holders=("A", "B", "C"), bomb=0, all_passed=True).mode == "passed"


def test_serbian_and_solo_whist_deals_are_never_a_raspas() -> None:
    from vistlog.projections.fold import GameResult, run

    from .conftest import SAMPLES, VECTORS

    logs = [SAMPLES / "solo-whist-evening.jsonl", *sorted((VECTORS / "serbian").glob("*.jsonl"))]
    records = [r for log in logs for g in run(str(log)) if isinstance(g, GameResult) for r in g.records]
    assert len(records) > 20 and any(r.contract is None for r in records)
    assert not any(r.mode == "raspas" for r in records)
    modes = {r.mode for r in records}
    assert {"refa", "redeal", "contract"} <= modes <= {"refa", "redeal", "general_misere", "contract"}, modes
