"""Invariants over random legal games (hypothesis): zero-sum, value neutrality, determinism."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.simulate import preferans_game, solo_whist_game
from vistlog.projections.fold import GameResult
from vistlog.projections.replay import replay_lines
from vistlog.projections.settlement import payments, preferans_result, round_to_zero_sum

from .helpers import fold, sheet

OPTIONS = {
    "consolation": ["ordinary", "none", "grabbing"], "single_whister": ["greedy", "gentleman"],
    "two_whisters": ["team_then_half", "team_capped", "team_then_each", "personal"],
    "ten_game": ["whisted", "checked", "checked_silent", "consolation_only"], "raspas_mode": ["mountain", "whists"],
    "raspas_zero": ["pool", "mountain_off", "none"], "raspas_amnesty": [True, False],
    "overflow": ["help", "mountain", "none"], "mountain_floor": [True, False],
    "made_points_first": ["pool", "mountain"], "settlement_divisor": ["all", "opponents"],
    "raspas_reset": ["any_contract", "played_contract"], "dealer_consolation": [True, False],
}

rules_st = st.builds(
    lambda preset, picks: {"preset": preset, **picks},
    st.sampled_from(["sochi", "leningrad", "rostov", "classic"]),
    st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in OPTIONS.items()}),
)


def random_game(rng: random.Random, rules: dict[str, Any], n: int, stake: str | None = None
                ) -> list[dict[str, Any]]:
    return preferans_game(rng, players=("Аня", "Боря", "Вова", "Гена")[:n], rules=rules, pool=10, max_deals=20,
                          stake=stake)


def one(evs: list[dict[str, Any]]) -> GameResult:
    results, probs = fold(evs)
    assert probs == [], [str(p) for p in probs]
    return results[0]


@settings(max_examples=40)
@given(st.randoms(use_true_random=False), rules_st, st.sampled_from([3, 4]))
def test_random_games_settle_to_exactly_zero(rng: random.Random, rules: dict[str, Any], n: int) -> None:
    res = one(random_game(rng, rules, n, stake="0.25"))
    assert sum(res.result.values(), Fraction(0)) == 0
    assert sum(res.rounded.values()) == 0
    assert all(abs(res.rounded[p] - res.result[p]) < 1 for p in res.players)
    assert res.zero_sum
    assert res.money is not None and sum(Fraction(m) for m in res.money.values()) == 0
    assert res.payments is not None and len(res.payments) <= n - 1


@settings(max_examples=30)
@given(st.randoms(use_true_random=False), st.sampled_from([3, 4]), st.integers(-50, 50))
def test_same_number_on_every_mountain_changes_no_result(rng: random.Random, n: int, k: int) -> None:
    res = one(random_game(rng, {"preset": "sochi"}, n))
    t = res.totals
    base = preferans_result(res.players, t["pool"], t["mountain"], t["whists"], pool_point=10, mountain_point=10,
                            divisor="all")
    shifted = preferans_result(res.players, t["pool"], {p: v + k for p, v in t["mountain"].items()}, t["whists"],
                               pool_point=10, mountain_point=10, divisor="all")
    assert base == shifted == res.result


@settings(max_examples=40)
@given(st.lists(st.integers(0, 30), min_size=3, max_size=4), st.lists(st.integers(0, 30), min_size=4, max_size=4),
       st.integers(0, 3), st.integers(1, 3), st.sampled_from([10, 20]))
def test_help_is_worth_what_an_own_pool_point_is(pools: list[int], mountains: list[int], helper: int,
                                                  points: int, pool_point: int) -> None:
    players = ["A", "B", "C", "D"][: len(pools)]
    helper %= len(players)
    helped = (helper + 1) % len(players)
    pool = dict(zip(players, pools))
    mountain = dict(zip(players, mountains))
    own = dict(pool)
    own[players[helper]] += points
    by_help = dict(pool)
    by_help[players[helped]] += points
    r_own = preferans_result(players, own, mountain, {}, pool_point=pool_point, mountain_point=10, divisor="all")
    r_help = preferans_result(players, by_help, mountain, {(players[helper], players[helped]): points * pool_point},
                              pool_point=pool_point, mountain_point=10, divisor="all")
    assert r_own == r_help


@settings(max_examples=20)
@given(st.randoms(use_true_random=False), rules_st)
def test_replaying_a_log_twice_gives_identical_sheets(rng: random.Random, rules: dict[str, Any]) -> None:
    evs = random_game(rng, rules, 3)
    a, b = one(evs), one(evs)
    assert a.entries == b.entries and a.result == b.result and a.rounded == b.rounded


@settings(max_examples=25)
@given(st.randoms(use_true_random=False), st.sampled_from(["sochi", "leningrad", "rostov"]), st.data())
def test_a_game_continued_from_opening_balance_settles_like_the_whole(rng: random.Random, preset: str,
                                                                      data: st.DataObject) -> None:
    rules = {"preset": preset, "raspas_reset": "any_contract"}
    evs = random_game(rng, rules, 3)
    whole = one(evs)
    starts = [i for i, e in enumerate(evs) if e["type"] == "deal_started"]
    if len(starts) < 2:
        return
    cut = data.draw(st.sampled_from(starts[1:]))
    # a run of raspasy must not straddle the cut: the progression is not part of the sheet
    before = [e for e in evs[:cut] if e["type"] in ("contract", "tricks", "card_played", "deal_started")]
    last_deal = [e for e in before if e.get("deal") == evs[cut]["deal"] - 1]
    if not any(e["type"] == "contract" for e in last_deal):
        return
    head = one(evs[:cut] + [{"v": 1, "seq": cut + 1, "type": "game_ended", "game": "g"}])
    t = head.totals
    balance = {"pool": {p: int(v) for p, v in t["pool"].items() if v},
               "mountain": {p: int(v) for p, v in t["mountain"].items() if v},
               "whists": {w: {q: int(x)} for (w, q), x in t["whists"].items() if x} if False else {}}
    whists: dict[str, dict[str, int]] = {}
    for (w, q), x in t["whists"].items():
        if x:
            whists.setdefault(w, {})[q] = int(x)
    balance["whists"] = whists
    start = dict(evs[0])
    tail = [start, {"v": 1, "seq": 2, "type": "opening_balance", "game": "g", **balance}]
    first_deal = evs[cut]["deal"]
    for e in evs[cut:]:
        e = dict(e)
        if "deal" in e:
            e["deal"] -= first_deal - 1
        tail.append(e)
    for k, e in enumerate(tail, start=1):
        e["seq"] = k
    cont = one(tail)
    assert cont.result == whole.result


@settings(max_examples=25)
@given(st.randoms(use_true_random=False), st.sampled_from(["redeal", "general_misere"]),
       st.sampled_from([0, 1, 2]))
def test_solo_whist_games_always_sum_to_zero(rng: random.Random, all_pass: str, per_trick: int) -> None:
    evs = solo_whist_game(rng, rules={"preset": "encyclopedia", "all_pass": all_pass,
                                      "misere_per_trick": per_trick}, deals=14, stake="1")
    res = one(evs)
    assert sum(res.result.values()) == 0
    by_deal: dict[int, Fraction] = {}
    for e in res.entries:
        by_deal[e.deal] = by_deal.get(e.deal, Fraction(0)) + e.amount
    assert all(v == 0 for v in by_deal.values())


@given(st.dictionaries(st.sampled_from("ABCDEF"), st.fractions(-1000, 1000, max_denominator=12), min_size=1))
def test_rounding_keeps_zero_and_stays_within_one(values: dict[str, Fraction]) -> None:
    order = sorted(values)
    total = sum(values.values(), Fraction(0))
    values[order[0]] -= total  # make them sum to zero
    r = round_to_zero_sum(values, order)
    assert sum(r.values()) == 0
    assert all(abs(r[p] - values[p]) < 1 for p in order)


@given(st.lists(st.integers(-500, 500), min_size=1, max_size=6))
def test_payments_settle_every_balance(cents: list[int]) -> None:
    cents[0] -= sum(cents)
    order = [f"p{i}" for i in range(len(cents))]
    amounts = {p: f"{c / 100:.2f}" for p, c in zip(order, cents)}
    pays = payments(amounts, order)
    bal = {p: 0 for p in order}
    for x in pays:
        bal[x["from"]] -= round(float(x["amount"]) * 100)
        bal[x["to"]] += round(float(x["amount"]) * 100)
    assert bal == dict(zip(order, cents))
    assert len(pays) <= max(0, sum(1 for c in cents if c) - 1)


def _with_voids(rng: random.Random, evs: list[dict[str, Any]], voids: int) -> list[dict[str, Any]]:
    """The game with ``deal_voided`` for random played deals, each right after a later deal starts."""
    out: list[dict[str, Any]] = []
    played: list[int] = []
    for ev in evs:
        if ev["type"] in ("deal_started", "game_ended") and played and len([e for e in out if
                                                                            e["type"] == "deal_voided"]) < voids:
            deal = rng.choice(played)
            if all(not (e["type"] == "deal_voided" and e["deal"] == deal) for e in out):
                out.append({"v": 1, "type": "deal_voided", "game": ev["game"], "deal": deal, "reason": "test"})
        if ev["type"] == "deal_started":
            played.append(ev["deal"])
        out.append(ev)
    return [{**e, "seq": k} for k, e in enumerate(out, start=1)]


@settings(max_examples=20)
@given(st.randoms(use_true_random=False), rules_st, st.integers(1, 8))
def test_voids_refold_from_a_snapshot_exactly_as_from_the_start(rng: random.Random, rules: dict[str, Any],
                                                                voids: int) -> None:
    """A void refolds from the last snapshot before the voided deal, items spill to disk and old snapshots
    are thinned: the sheet, entries and results are what folding from the start after every void gives,
    and the deal records (read back from the spill file) and the replay are those kept in memory."""
    from vistlog.events import tally as tally_module

    evs = _with_voids(rng, random_game(rng, rules, 3), voids)
    outcomes = []
    for every, keep, snapshots in ((10**9, 10**9, 64), (1, 1, 1), (1, 3, 2), (3, 2, 2), (32, 2048, 64)):
        old = tally_module.Tally.EVERY, tally_module.Items.KEEP, tally_module.Tally.SNAPSHOTS
        tally_module.Tally.EVERY, tally_module.Items.KEEP, tally_module.Tally.SNAPSHOTS = every, keep, snapshots
        try:
            res = one(evs)
            slim, probs = fold(evs, detail=False)
        finally:
            tally_module.Tally.EVERY, tally_module.Items.KEEP, tally_module.Tally.SNAPSHOTS = old
        assert probs == [] and slim[0].result == res.result and sheet(slim[0]) == sheet(res)
        numbers = [r.number for r in res.records]
        assert numbers == sorted(numbers) and len(numbers) == len(res.records)  # in deal order
        outcomes.append((res.result, res.entries, sheet(res), list(res.records), list(replay_lines(res))))
    assert all(o == outcomes[0] for o in outcomes)


@settings(max_examples=15)
@given(st.randoms(use_true_random=False), st.sampled_from(["preferans", "serbian", "solo_whist"]))
def test_a_fold_without_entries_counts_what_the_entries_add_up_to(rng: random.Random, kind: str) -> None:
    """Without detail the fold adds each deal's rows to its totals and makes no entry; with detail the
    entries, added up one by one, give the same totals and the same result, for every kind of game."""
    from tests.serbian_games import random_game as serbian_game
    from vistlog.events.entries import Totals

    if kind == "serbian":
        evs = serbian_game(rng, 8, cards=rng.random() < 0.5)
    elif kind == "solo_whist":
        evs = solo_whist_game(rng, deals=10, card_play=0.3)
    else:
        evs = random_game(rng, {"preset": rng.choice(["sochi", "leningrad", "rostov", "classic"])}, 3)
    (full,), problems = fold(evs)
    (slim,), _ = fold(evs, detail=False)
    assert problems == [] and not slim.entries  # (a Solo Whist game of redeals only writes nothing)
    added = Totals(full.players, full.totals.declared)
    for e in full.entries:
        added.apply(e)
    for t in (slim.totals, added):
        assert t.columns == full.totals.columns and t.times == full.totals.times
        for column in t.columns:
            assert {k: v for k, v in t[column].items() if v} == \
                   {k: v for k, v in full.totals[column].items() if v}, column
    assert slim.result == full.result
