"""analyse --single-dummy: the layouts a player could not tell apart, the odds of each choice, their checks."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from vistlog.events.cards import Card, WhistCall, parse_card
from vistlog.events.model import CardPlayed
from vistlog.projections.analysis import analyse
from vistlog.projections.worth import Worth as _Worth, camps as _camps, solver_for
from vistlog.projections.decisions import deal_decisions
from vistlog.projections.fold import GameResult, run
from vistlog.projections.layouts import Layouts
from vistlog.projections.odds import SingleDummy, view

from .conftest import SAMPLES
from .test_pad import phone_replay


def _game(name: str = "open-hands.jsonl") -> GameResult:
    return next(g for g in run(str(SAMPLES / name)) if isinstance(g, GameResult))


def _cli(*args: str, cwd: Path = SAMPLES.parent) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vistlog", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


# --------------------------------------------------------------------------- the layouts

Groups = list[tuple[list[Card], tuple[str, ...]]]


def _brute(places: dict[str, int], groups: Groups) -> list[dict[str, frozenset[Card]]]:
    """Every layout by trying every place for every card."""
    cards = [(c, allowed) for cs, allowed in groups for c in cs]
    out = []
    for choice in itertools.product(*[allowed for _, allowed in cards]):
        if all(choice.count(p) == n for p, n in places.items()):
            out.append({p: frozenset(c for (c, _), q in zip(cards, choice) if q == p) for p in places})
    return out


@st.composite
def _small_views(draw: st.DrawFn) -> tuple[dict[str, int], list[tuple[list[Card], tuple[str, ...]]]]:
    deck = [parse_card(f"{r}{s}") for s in "SCDH" for r in ("7", "8", "9", "T")]
    n = draw(st.integers(2, 7))
    cards = draw(st.permutations(deck))[:n]
    names = ["B", "C", "out"]
    cuts = sorted(draw(st.lists(st.integers(0, n), min_size=2, max_size=2)))
    places = {"B": cuts[0], "C": cuts[1] - cuts[0], "out": n - cuts[1]}
    groups: dict[tuple[str, ...], list[Card]] = {}
    for c in cards:
        allowed = tuple(p for p in names if draw(st.booleans()) or (p == "out" and places["out"] != 0))
        groups.setdefault(allowed, []).append(c)
    return places, [(cs, allowed) for allowed, cs in groups.items()]


@settings(max_examples=60, deadline=None)
@given(_small_views())
def test_layouts_are_counted_and_listed_exactly(v: tuple[dict[str, int], list[tuple[list[Card], tuple[str, ...]]]]
                                                ) -> None:
    """The count and the list of layouts are those a brute force over every card's place finds, each once."""
    places, groups = v
    lay = Layouts(places, groups)
    want = _brute(places, groups)
    got = [{p: frozenset(cs) for p, cs in one.items()} for one in lay]
    assert lay.count == len(want) == len(got)
    assert sorted(map(sorted_key, got)) == sorted(map(sorted_key, want))


def sorted_key(layout: dict[str, frozenset[Card]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((p, tuple(sorted(map(str, cs)))) for p, cs in sorted(layout.items()))


def test_layouts_are_drawn_uniformly() -> None:
    """Each of the 36 layouts of a small view comes up about equally often (a chi-square test at a fixed seed)."""
    cards = [parse_card(x) for x in ["7S", "8S", "9S", "TS", "7H", "8H"]]
    lay = Layouts({"A": 2, "B": 2, "out": 2}, [(cards[:4], ("A", "B", "out")), (cards[4:], ("B", "out"))])
    rng = random.Random(5)
    n = 36 * 400
    seen = Counter(sorted_key({p: frozenset(cs) for p, cs in lay.sample(rng).items()}) for _ in range(n))
    assert len(seen) == lay.count == 36
    chi2 = sum((k - n / 36) ** 2 / (n / 36) for k in seen.values())
    assert chi2 < 70  # 35 degrees of freedom: p < 0.001 above 66.6


def test_the_view_keeps_what_the_player_saw() -> None:
    """A defender's view of the first lead: his own hand, the talon shown to all (with the declarer or put
    away), the rest anywhere else; the true layout is one of those counted."""
    g = _game()
    rec = next(r for r, void, _ in g.told() if r.number == 14)
    hands = rec.hands_in_play()
    assert hands is not None and rec.setup is not None and rec.setup.shown
    seen = view(rec, hands, "Аня", [])
    assert sorted(seen.own) == sorted(hands["Аня"])
    assert seen.layouts.places == ["Боря", "Вова", "\x00out"]
    # the talon's two cards may be with the declarer or put away, nowhere else
    for one in itertools.islice(iter(seen.layouts), 200):
        for card, who in rec.setup.shown:
            assert card in one[who] or card in one["\x00out"]
    # after some tricks the voids shown are kept: no layout gives a player a suit he did not follow
    played = [e.card for e in rec.events if isinstance(e, CardPlayed)][:12]
    later = view(rec, hands, "Аня", played)
    for one in itertools.islice(iter(later.layouts), 300):
        hs = later.hands(one)
        assert sorted(map(str, hs["Аня"])) == sorted(map(str, hands["Аня"]))
        play = rec.setup.play(hs)
        for card in played:  # the cards played are legal in every layout (a void in the suit led, and in trumps)
            assert play.play(play.to_play, card) is None
    assert later.layouts.count < seen.layouts.count


# --------------------------------------------------------------------------- the checks of the issue

def test_one_sample_equal_to_the_true_layout_gives_the_double_dummy_numbers() -> None:
    """Weighed on the true layout alone, each decision's numbers are the open-hand analysis's: the side's tricks
    from the first lead, the made lead's value after it, and the whist call's gain against the other call."""
    g = _game()
    a = {d.deal: d for d in analyse(g).deals}
    worth = _Worth(g)
    checked = {"call": 0, "lead": 0}
    for rec, void, _ in g.told():
        if void or rec.number not in a or rec.contract is None:
            continue
        hands = rec.hands_in_play()
        assert hands is not None
        camps = _camps(rec, g.variant)
        assert not isinstance(camps, str)
        got = deal_decisions(rec, hands, camps[0], worth, g.game, g.started, SingleDummy(), True, only=[hands])
        dd = a[rec.number]
        for x in got:
            assert x.samples == 1 and not x.exact
            mine = next(o for o in x.choices if o.choice == x.made)
            if x.kind == "lead":
                assert mine.tricks.mean == dd.cards[0].after
                checked["lead"] += 1
            else:
                assert mine.tricks.mean == dd.value
                calls = [c for c in dd.calls if c.player == x.player]
                if len(rec.calls) == 2 and calls and set(o.choice for o in x.choices) == {"whist", "pass"}:
                    other = next(o for o in x.choices if o.choice == calls[0].instead)
                    assert Fraction(mine.worth.mean) - Fraction(other.worth.mean) == calls[0].gain
                    checked["call"] += 1
    assert checked["lead"] >= 8 and checked["call"] >= 8


def test_the_discard_weighed_on_the_true_layout_is_the_open_hand_search_over_every_discard() -> None:
    """With --discards, the declarer's discard on the true layout alone: the one made gives the deal's value, the
    best choice's tricks are the best discard's (analyse --discards), equal cards share their numbers."""
    g = _game()
    a = {d.deal: d for d in analyse(g, discards=True).deals}
    worth = _Worth(g)
    seen = 0
    for rec, void, _ in g.told():
        d = a.get(rec.number)
        if void or d is None or d.discard is None or d.objective != "most":
            continue
        hands = rec.hands_in_play()
        assert hands is not None
        camps = _camps(rec, g.variant)
        assert not isinstance(camps, str)
        got = deal_decisions(rec, hands, camps[0], worth, g.game, g.started, SingleDummy(), True, only=[hands],
                             discards=True)
        x = got[0]
        assert x.kind == "discard" and x.player == d.declarer and len(x.choices) == 66
        assert x.made == " ".join(str(c) for c in d.discard.discarded)
        by = {o.choice: o for o in x.choices}
        assert by[x.made].tricks.mean == d.value
        assert max(o.tricks.mean for o in x.choices) == d.discard.best_value
        seen += 1
    assert seen >= 5


def _ending(seed: int, left: int) -> tuple[GameResult, object, dict[str, list[Card]], list[Card]]:
    """A deal of the sample cut ``left`` tricks before its end (the player to move decides there)."""
    g = _game()
    recs = [r for r, void, _ in g.told() if not void and r.contract is not None and r.setup is not None
            and sum(isinstance(e, CardPlayed) for e in r.events) == 10 * len(r.setup.seating)]  # played out
    rec = recs[seed % len(recs)]
    hands = rec.hands_in_play()
    assert hands is not None
    cards = [e.card for e in rec.events if isinstance(e, CardPlayed)]
    n = len(rec.setup.seating)  # type: ignore[union-attr]
    cut = max(0, min(len(cards), (10 - left) * n + seed % n))
    return g, rec, hands, cards[:cut]


def _ending_odds(rec: object, hands: dict[str, list[Card]], played: list[Card], sd: SingleDummy,
                 seed_key: str) -> tuple[object, object, dict[str, list[int]]]:
    """The odds of every legal card of the player to move (worth: the side's tricks), and the exact means by
    solving every layout."""
    camps = _camps(rec, "preferans")  # type: ignore[arg-type]
    assert not isinstance(camps, str)
    side, fewest = camps[0]
    s0 = solver_for(rec, hands, side, fewest)  # type: ignore[arg-type]
    player = s0.to_play(played)
    legal = [str(c) for c in s0.legal(played)]
    seen = view(rec, hands, player, played)  # type: ignore[arg-type]

    def score(hs: dict[str, list[Card]]) -> dict[str, tuple[int, int]]:
        s = solver_for(rec, hs, side, fewest)  # type: ignore[arg-type]
        return {c: (v := s.value([*played, parse_card(c)]), v) for c in legal}

    exact: dict[str, list[int]] = {c: [] for c in legal}
    for one in seen.layouts:
        for c, (t, _w) in score(seen.hands(one)).items():
            exact[c].append(t)
    odds = sd.odds(seen, seed_key, legal, score, lambda t: t >= 1)
    return seen, odds, exact


def test_sampling_every_layout_gives_the_exact_enumeration() -> None:
    """On endings small enough to list, N ≥ the layouts weighs every one: the means are exact, no interval."""
    for seed in range(6):
        _g, rec, hands, played = _ending(seed, 3)
        seen, (odds, n, drawn, every, _cut), exact = _ending_odds(rec, hands, played, SingleDummy(10_000, seed), "k")
        assert every and n == drawn == seen.layouts.count  # type: ignore[attr-defined]
        for o in odds:
            assert Fraction(o.tricks.mean) == Fraction(sum(exact[o.choice]), len(exact[o.choice]))
            assert o.tricks.low == o.tricks.mean == o.tricks.high


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(4, 5))
def test_intervals_cover_the_exact_mean_at_the_stated_rate(seed: int, left: int) -> None:
    """Drawn N = 20 of more than 40 layouts, the 95% intervals of the tricks and of the chance cover the exact
    values at least 85% of the time over 60 draws, wherever the normal approximation is meant to hold (no value
    so rare that N draws would often miss it: N × its share × the rest's share ≥ 2)."""
    _g, rec, hands, played = _ending(seed, left)
    seen, _odds, exact = _ending_odds(rec, hands, played, SingleDummy(10_000), "exact")
    n = 20
    if seen.layouts.count <= 2 * n:  # type: ignore[attr-defined]
        return
    regular = set()
    for c, values in exact.items():
        shares = [Fraction(k, len(values)) for k in Counter(values).values()]
        if all(n * q * (1 - q) >= 2 for q in shares) or len(shares) == 1:
            regular.add(c)
    covered = total = 0
    for k in range(60):
        _seen, (odds, kept, _drawn, every, _cut), _ = _ending_odds(rec, hands, played, SingleDummy(n, k), f"{seed}")
        assert kept == n and not every
        for o in odds:
            values = exact[o.choice]
            p = Fraction(sum(t >= 1 for t in values), len(values))
            total += 1
            covered += Fraction(o.chance.low) <= p <= Fraction(o.chance.high)
            if o.choice in regular:
                total += 1
                covered += Fraction(o.tricks.low) <= Fraction(sum(values), len(values)) <= Fraction(o.tricks.high)
    assert total and covered / total >= Fraction(85, 100)


# --------------------------------------------------------------------------- the command

def test_the_command_weighs_every_whist_call_and_opening_lead() -> None:
    r = _cli("analyse", "samples/open-hands.jsonl", "--single-dummy", "--samples", "8", "--seed", "3",
             "--deal", "14", "--format", "json")
    assert r.returncode == 0, r.stderr
    deal = json.loads(r.stdout)["games"][0]["deals"][0]
    kinds = [(x["player"], x["kind"], x["made"]) for x in deal["decisions"]]
    assert kinds == [("Аня", "call", "whist"), ("Боря", "call", "pass"), ("Аня", "lead", "JH")]
    for x in deal["decisions"]:
        assert x["samples"] == 8 and x["drawn"] >= 8 and not x["exact"] and x["goal"] == "set"
        assert x["made"] in [c["choice"] for c in x["choices"]]
        assert x["rank"] is None and x["cost"] is None and x["enough"] is False  # 8 layouts: too few to rank
        means = [Fraction(c["worth"]["mean"]) for c in x["choices"]]
        assert means == sorted(means, reverse=True)
        assert Fraction(x["choices"][-1]["behind"]["mean"]) == means[0] - means[-1]
        for c in x["choices"]:
            for k in ("tricks", "chance", "worth"):
                assert Fraction(c[k]["low"]) <= Fraction(c[k]["mean"]) <= Fraction(c[k]["high"])
    text = _cli("analyse", "samples/open-hands.jsonl", "--single-dummy", "--samples", "8", "--seed", "3",
                "--deal", "14", "--lang", "ru").stdout
    assert "с закрытыми картами · Аня, первый ход J♥" in text and "▸ J♥" in text
    assert _cli("analyse", "samples/open-hands.jsonl", "--seed", "3").returncode == 2


def test_same_seed_same_output_whatever_jobs(tmp_path: Path) -> None:
    """Two logs weighed on one process and on two give the same bytes; another seed draws other layouts."""
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_bytes((SAMPLES / "open-hands.jsonl").read_bytes())
    base = ["analyse", str(tmp_path), "--single-dummy", "--samples", "4", "--format", "json"]
    one = _cli(*base, "--jobs", "1", "--seed", "7")
    two = _cli(*base, "--jobs", "2", "--seed", "7")
    other = _cli(*base, "--jobs", "2", "--seed", "8")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert other.stdout != one.stdout
    assert json.loads(one.stdout)["files"][0]["games"][0]["deals"][3]["decisions"]


def test_the_made_call_is_weighed_against_the_calls_the_game_allowed() -> None:
    """The choices of a whist call are those the state machine offered then: the second defender after a pass
    may half-whist on a seven (sochi), the first may not."""
    g = _game()
    a = analyse(g, deals={4}, single_dummy=SingleDummy(4, 1))
    calls = [(x.player, tuple(sorted(o.choice for o in x.choices))) for x in a.deals[0].decisions if x.kind == "call"]
    assert calls == [("Аня", ("pass", "whist")), ("Боря", ("half", "pass", "whist"))]
    assert WhistCall.HALF.value == "half"


def test_stats_decisions_count_each_players_choices_the_same_on_any_runner(tmp_path: Path) -> None:
    """stats --decisions: per player the whist calls and leads weighed, how many were a best choice and their mean
    cost, exactly what analyse --single-dummy gives, on one process, two, and a local Dask cluster."""
    for name in ("open-hands.jsonl", "classic-bombs.jsonl"):
        (tmp_path / name).write_bytes((SAMPLES / name).read_bytes())
    base = ["stats", str(tmp_path), "--decisions", "--samples", "30", "--seed", "2", "--format", "json"]
    one, two = _cli(*base, "--jobs", "1"), _cli(*base, "--jobs", "2")
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    got = json.loads(one.stdout)["decisions"]
    want: dict[str, dict[str, list[Fraction]]] = {}
    for name in ("classic-bombs.jsonl", "open-hands.jsonl"):
        r = _cli("analyse", str(tmp_path / name), "--single-dummy", "--samples", "30", "--seed", "2", "--format",
                 "json")
        for g in json.loads(r.stdout)["games"]:
            for d in g["deals"]:
                for x in d.get("decisions", ()):
                    if x["choices"] and x["enough"]:  # too few layouts fitted: ranked nowhere
                        row = want.setdefault(x["player"], {"call": [], "lead": []})[x["kind"]]
                        row.append(Fraction(x["cost"]) if x["rank"] > 1 else Fraction(-1))
    players = got["units"]["whists"]
    assert set(players) == set(want)
    for p, kinds in want.items():
        for k, costs in kinds.items():
            row = players[p][k]
            assert row["count"] == len(costs) and row["best"] == costs.count(Fraction(-1))
            if costs:
                assert Fraction(row["cost"]) == sum(c for c in costs if c > 0) / len(costs)
    pytest.importorskip("distributed")
    dask = _cli(*base, "--dask", "local")
    assert dask.returncode == 0, dask.stderr
    assert dask.stdout == one.stdout


def test_a_protocol_level_deal_with_its_hands_has_its_whist_calls_weighed(tmp_path: Path) -> None:
    """A deal written without its cards (its tricks only) but with the hands, the talon and the discard: its two
    whist calls are weighed; there is no lead to weigh."""
    lines = [json.loads(x) for x in (SAMPLES / "open-hands.jsonl").read_text(encoding="utf-8").splitlines()]
    keep = [{k: v for k, v in e.items() if not k.startswith("_")} for e in lines
            if e["type"] == "game_started" or (e.get("deal") == 14 and e["type"] not in ("card_played", "claim"))]
    seq = 0
    for e in keep:
        seq += 1
        e["seq"] = seq
        if "deal" in e:
            e["deal"] = 1
    keep.append({"v": 1, "seq": seq + 1, "type": "tricks", "game": keep[0]["game"], "deal": 1,
                 "taken": {"Вова": 7, "Аня": 2, "Боря": 1}})
    log = tmp_path / "protocol.jsonl"
    log.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in keep), encoding="utf-8")
    r = _cli("analyse", str(log), "--single-dummy", "--samples", "6", "--format", "json")
    assert r.returncode == 0, r.stderr
    deal = json.loads(r.stdout)["games"][0]["deals"][0]
    assert deal["level"] == "protocol" and deal["cards"] == []
    assert [(x["player"], x["kind"], x["made"], x["samples"]) for x in deal["decisions"]] == [
        ("Аня", "call", "whist", 6), ("Боря", "call", "pass", 6)]


# --------------------------------------------------------------------------- the pad

def test_the_replay_tells_what_the_players_could_know_on_a_tap(tmp_path: Path, browser: Any) -> None:
    """Issue 47: on a phone, a tap asks for deal 14's decisions weighed single-dummy; each shows its head line (the
    whist call or the lead, its rank and cost), and a tap on it opens its choices with the one made marked."""
    with phone_replay(browser, tmp_path, 14) as (page, viewer):
        viewer.locator("button.closed-hands").tap()
        page.wait_for_function("() => [...document.querySelectorAll('details.decision')].length >= 3",
                               timeout=60_000)
        heads = viewer.locator("details.decision summary").all_text_contents()
        assert heads[0].startswith("с закрытыми картами · Аня, вист вист: место ")
        assert any(h.startswith("с закрытыми картами · Аня, первый ход J♥: место ") for h in heads)
        lead = viewer.locator("details.decision", has_text="первый ход J♥")
        assert not lead.locator("pre").is_visible()
        lead.locator("summary").tap()
        assert "▸ J♥" in (lead.locator("pre").text_content() or "") and lead.locator("pre").is_visible()
        assert "подсадить" in (lead.locator("pre").text_content() or "")
        assert viewer.locator("button.closed-hands").is_disabled()
        assert page.errors == []
