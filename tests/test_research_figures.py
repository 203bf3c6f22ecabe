"""Published and peer-program figures from the research behind docs/rules.md, replayed through vistlog."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from .helpers import Game, sheet

W, P = "whist", "pass"


def test_ll1r1k_ts33_greedy_single_whister() -> None:
    # Sochi greedy: 6♣ down one; A whisted (3 tricks), B passed (2) → A 5×2 + 2 = 12, B 2, declarer gora 2
    g = Game("sochi", ("D", "A", "B"))
    g.deal("B").contract("D", "6C").whists(("A", W), ("B", P)).tricks(D=5, A=3, B=2).end()
    assert sheet(g.result()) == {"D": {"mountain": 2}, "A": {"whists": {"D": 12}}, "B": {"whists": {"D": 2}}}


def test_ll1r1k_both_whist_each_own_tricks_plus_consolation() -> None:
    # §9.5: 6-game, declarer one short, defenders 3 and 2 → A 3×2 + 2 = 8, B 2×2 + 2 = 6, gora 2
    g = Game("sochi", ("D", "A", "B"))
    g.deal("B").contract("D", "6S").whists(("A", W), ("B", W)).tricks(D=5, A=3, B=2).end()
    assert sheet(g.result()) == {"D": {"mountain": 2}, "A": {"whists": {"D": 8}}, "B": {"whists": {"D": 6}}}


def test_tv_a1_four_players_gentleman_split_and_the_dealers_consolation() -> None:
    # 7♠ down two, Б whists, В passes, split (gentleman); the dealer Г writes consolation:
    # A −104 = −60 (gora 8, shared by 4) − 36 (9 × 4 split 18/18) − 8 (Г); Б +38, В +38, Г +28
    g = Game("rostov", ("А", "Б", "В", "Г"))
    g.deal("Г").contract("А", "7S").whists(("Б", W), ("В", P)).tricks(А=5, Б=3, В=2).end()
    assert g.result().result == {"А": -104, "Б": 38, "В": 38, "Г": 28}


def test_tv4_kodeks_leftover_points_come_off_the_mountain() -> None:
    # Kodeks 4.1.1, 4 players: a 9-game (8 points) closes a pool 2 short; 6 points go off the
    # mountain, negative allowed: «6 points from the mountain cost each not 20 but 15 whists»
    g = Game({"preset": "sochi", "overflow": "mountain"}, ("A", "B", "C", "D"), pool=20)
    g.add("opening_balance", pool={"A": 18, "B": 20, "C": 20, "D": 20})
    g.deal("D").contract("A", "9S").whists(("B", P), ("C", P)).end()
    res = g.result()
    assert res.totals["mountain"]["A"] == -6
    assert res.result == {"A": 45, "B": -15, "C": -15, "D": -15}


def test_tv_s1_leningrad_pool_point_twenty() -> None:
    # a 6-game both defenders passed: 2 × 20 − (2 × 20) / 3 = 26⅔, the others −13⅓ each
    g = Game("leningrad")
    g.deal("C").contract("A", "6S").whists(("B", P), ("C", P)).end()
    assert g.result().result == {"A": F(80, 3), "B": F(-40, 3), "C": F(-40, 3)}


@pytest.mark.parametrize("divisor,expected", [("opponents", {"A": 45, "B": 0, "C": -45}),
                                              ("all", {"A": 30, "B": 0, "C": -30})])
def test_tv6_mountains_two_five_eight(divisor: str, expected: dict[str, int]) -> None:
    # «Esempio 2, 5, 8 → residui 0, 3, 6. B deve 15 ad A e C; C deve 30 ad A e B.»
    g = Game({"preset": "sochi", "settlement_divisor": divisor})
    g.add("opening_balance", mountain={"A": 2, "B": 5, "C": 8}).end()
    assert g.result().result == expected
