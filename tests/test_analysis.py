"""vistlog analyse and the claim event: the post-mortem of a game with its hands open."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson
import pytest

import vistlog
from vistlog.events.importers.jsonl import derive_tricks
from vistlog.events.importers.base import ImportedGame
from vistlog.projections import solver as solver_module
from vistlog.projections.analysis import analyse
from vistlog.projections.fold import GameResult, run

from .conftest import SAMPLES
from .helpers import CHROMIUM, Game, chromium_screenshot, codes
from .simulate import preferans_game

CARD_LEVEL = ["classic-bombs.jsonl", "open-hands.jsonl"]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vistlog", *args], capture_output=True, text=True,
                          cwd=SAMPLES.parent, timeout=300)


def _games(name: str) -> list[GameResult]:
    return [g for g in run(str(SAMPLES / name)) if isinstance(g, GameResult)]


# --------------------------------------------------------------------------- the JSON contract


@pytest.mark.parametrize("name", CARD_LEVEL)
def test_the_json_holds_for_every_card_level_deal_of_the_samples(name: str) -> None:
    proc = _cli("analyse", f"samples/{name}", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    events = [orjson.loads(x) for x in (SAMPLES / name).read_bytes().splitlines()]
    contracts = {(e["game"], e["deal"]) for e in events if e["type"] == "contract"}
    card_level = {(e["game"], e["deal"]) for e in events if e["type"] == "card_played"} & contracts
    seen = set()
    for game in out["games"]:
        for d in game["deals"]:
            if "values" in d:  # a raspas: each player's own number, his cards judged by it
                assert d["contract"] == "raspas" and d["objective"] == "fewest" and "value" not in d
                assert set(d["values"]) == set(d["taken"]) and d["cards"]
                firsts = {}
                for c in d["cards"]:
                    firsts.setdefault(c["player"], c["before"])
                assert firsts[d["cards"][0]["player"]] == d["values"][d["cards"][0]["player"]]
                continue
            assert {"deal", "declarer", "contract", "side", "objective", "value", "cards"} <= set(d)
            assert isinstance(d["value"], int) and isinstance(d["declarer"], str) and d["side"] == [d["declarer"]]
            if (game["game"], d["deal"]) in card_level:
                seen.add((game["game"], d["deal"]))
                assert d["cards"] and d["cards"][0]["before"] == d["value"]
            for a, b in zip(d["cards"], d["cards"][1:]):
                assert a["after"] == b["before"]  # the value after a card is the value before the next
            for c in d["cards"]:
                assert set(c) >= {"seq", "player", "card", "before", "after"}
                assert 0 <= c["before"] <= 10 and 0 <= c["after"] <= 10
    assert seen == card_level


def test_classic_bombs_names_the_cards_that_cost_tricks_and_what_in_whists() -> None:
    proc = _cli("analyse", "samples/classic-bombs.jsonl")
    assert proc.returncode == 0, proc.stderr
    marked = [line for line in proc.stdout.splitlines() if "✗" in line]
    assert any("Восток" in line and "K♠" in line and "cost in whists" in line for line in marked), proc.stdout
    assert len(marked) == 4
    game = _games("classic-bombs.jsonl")[0]
    for d in analyse(game).deals:
        for c in d.mistakes:
            assert c.better and c.card not in c.better
            assert sum(c.cost.values()) == 0  # whists go from one player to the others


def test_a_mistake_moves_the_value_against_its_side_and_nothing_else_does() -> None:
    for game in _games("open-hands.jsonl") + _games("classic-bombs.jsonl"):
        for d in analyse(game).deals:
            for c in d.cards:
                # a raspas: every value is the card's own player's, who plays for the fewest
                wants_more = (c.player in d.side) != d.misere if d.value is not None else False
                against = c.after < c.before if wants_more else c.after > c.before
                assert c.mistake == against
                if not c.mistake:  # a card cannot make its own side's value better with best play
                    assert (c.after <= c.before) if wants_more else (c.after >= c.before)


def _settled(events: list[dict[str, Any]]) -> dict[str, Fraction]:
    (game,) = vistlog.read_games(events)
    return {p: Fraction(x) for p, x in game.settlement().exact.items()}


def test_the_cost_of_a_card_is_what_settle_gives_for_the_two_lines() -> None:
    """The deal played along the better line and along the worse one, each recorded as a log that stops
    after the deal: settle's difference is the card's cost."""
    game = _games("classic-bombs.jsonl")[0]
    events = [orjson.loads(x) for x in (SAMPLES / "classic-bombs.jsonl").read_bytes().splitlines()]
    deal = next(d for d in analyse(game).deals if d.deal == 7)
    mistake = deal.mistakes[0]
    rec = next(r for r in game.records if r.number == 7)
    hands = rec.hands_in_play()
    assert hands is not None and rec.leader is not None
    s = solver_module.Solver(hands, rec.playing, rec.leader, rec.trump, deal.declarer)
    played = [e.card for e in rec.events if e.type == "card_played"]
    k = played.index(mistake.card)
    bad = [*played[:k + 1], *s.best_line(played[:k + 1])]
    good = [*played[:k], mistake.better[0], *s.best_line([*played[:k], mistake.better[0]])]

    def upto_deal_with(line: list[Any]) -> list[dict[str, Any]]:
        out = []
        for e in events:
            if e["type"] == "deal_started" and e["deal"] == 8:
                break
            if e.get("deal") == 7 and e["type"] == "card_played":
                continue
            out.append(e)
        seats = rec.playing
        play = vistlog.events.play.Play(hands, seats, rec.leader, rec.trump, must_trump=True)
        for card in line:
            play.play(play.to_play, card)
        out.append({"v": 1, "seq": len(out) + 1, "type": "tricks", "game": game.game, "deal": 7,
                    "taken": dict(play.taken)})
        return [{**e, "seq": i} for i, e in enumerate(out, start=1)]

    with_good, with_bad = _settled(upto_deal_with(good)), _settled(upto_deal_with(bad))
    assert {p: with_good[p] - with_bad[p] for p in with_good if with_good[p] != with_bad[p]} == dict(mistake.cost)


def test_deal_and_game_select_and_html_is_a_page() -> None:
    one = json.loads(_cli("analyse", "samples/classic-bombs.jsonl", "--deal", "14", "--format", "json").stdout)
    assert [d["deal"] for d in one["games"][0]["deals"]] == [14]
    page = _cli("analyse", "samples/open-hands.jsonl", "--format", "html").stdout
    assert page.startswith("<!doctype html>") and "class=\"mistake\"" in page and "http" not in page


def test_many_logs_on_two_processes_give_what_one_gives(tmp_path: Path) -> None:
    seq = json.loads(_cli("analyse", "samples/classic-bombs.jsonl", "samples/open-hands.jsonl",
                          "--jobs", "1", "--format", "json").stdout)
    par = json.loads(_cli("analyse", "samples/classic-bombs.jsonl", "samples/open-hands.jsonl",
                          "--jobs", "2", "--format", "json").stdout)
    assert seq == par and len(seq["files"]) == 2


def test_russian_text_has_no_english_word() -> None:
    text = _cli("analyse", "samples/open-hands.jsonl", "--lang", "ru").stdout
    for word in ("Deal", "double-dummy", "cost", "kept", "instead", "claim", "not analysed", "tricks", "holds"):
        assert word not in text, word
    assert "Сдача" in text


def test_solo_whist_and_raspasy_are_analysed() -> None:
    """Issue 46: every played deal with its hands: the Solo Whist sample's three, the raspasy of open-hands."""
    out = json.loads(_cli("analyse", "samples/solo-whist-evening.jsonl", "--format", "json").stdout)
    (game,) = out["games"]
    assert [d["deal"] for d in game["deals"]] == [4, 9, 11]
    assert all(s["why"] == "the hands are not recorded" for s in game["skipped"])
    prop = next(d for d in game["deals"] if d["contract"] == "prop")
    assert len(prop["side"]) == 2 and prop["declarer"] in prop["side"] and prop["objective"] == "most"
    assert prop["value"] + prop["defence"] == 13 and len(prop["cards"]) == 52
    text = _cli("analyse", "samples/solo-whist-evening.jsonl").stdout
    assert "+".join(prop["side"]) + " prop" in text and "not analysed" in text
    text = _cli("analyse", "samples/open-hands.jsonl").stdout
    assert "raspas · each can hold himself to:" in text and "is not analysed" not in text


def test_the_discard_search_finds_a_discard_no_worse() -> None:
    game = _games("classic-bombs.jsonl")[0]
    for d in analyse(game, discards=True).deals:
        assert d.discard is not None
        assert d.discard.value == d.value
        assert d.discard.best_value >= d.value  # none of these is a misère


@pytest.mark.skipif(not solver_module.COMPILED, reason="the compiled solver is not built in this install")
@pytest.mark.parametrize("name", CARD_LEVEL)
def test_both_engines_give_the_same_analysis(name: str) -> None:
    for game in _games(name):
        assert analyse(game, engine="python", discards=True) == analyse(game, engine="compiled", discards=True)


# --------------------------------------------------------------------------- claims


HANDS = {"B": ["AS", "KS", "QS", "JS", "10S", "AC", "KC", "QC", "JC", "10C"],
         "C": ["9S", "8S", "7S", "9C", "8C", "7C", "AD", "KD", "QD", "JD"],
         "A": ["10D", "9D", "8D", "7D", "AH", "KH", "QH", "JH", "10H", "9H"]}
TALON = ["8H", "7H"]


def _contract(whist: str = "whist", other: str = "pass") -> Game:
    g = Game("sochi")
    g.deal("A", hands=HANDS, talon=TALON).contract("B", "6S").whists(("C", whist), ("A", other))
    return g


def test_an_accepted_claim_gives_the_deal_its_tricks() -> None:
    g = _contract()
    g.add("card_played", deal=1, player="B", card="AS").add("card_played", deal=1, player="C", card="7S")
    g.add("card_played", deal=1, player="A", card="7D")
    g.add("claim", deal=1, player="B", tricks=8)
    res = g.result()
    assert res.records[0].taken == {"B": 9, "C": 1, "A": 0}  # the one whister takes the defence's rest


def test_a_claim_is_checked_where_it_stands() -> None:
    g = _contract()
    g.add("card_played", deal=1, player="B", card="AS")
    g.add("claim", deal=1, player="B", tricks=9)
    assert codes(g.fold()[1]) == ["claim-mid-trick"]
    g = _contract()
    g.add("claim", deal=1, player="B", tricks=11)
    assert codes(g.fold()[1]) == ["claim-range"]
    g = _contract()
    g.add("claim", deal=1, player="Z", tricks=1)
    assert codes(g.fold()[1]) == ["player-unknown"]
    g = _contract("whist", "whist")
    g.add("claim", deal=1, player="B", tricks=8)
    assert codes(g.fold()[1]) == ["claim-split"]
    g = _contract("whist", "whist")
    g.add("claim", deal=1, player="B", tricks=8, split={"C": 1, "A": 1})
    res, problems = g.fold()
    assert not problems and res[0].records[0].taken == {"B": 8, "C": 1, "A": 1}


def test_after_a_claim_play_ends_and_a_disputed_one_waits_for_the_tricks() -> None:
    g = _contract()
    g.add("claim", deal=1, player="B", tricks=10)
    g.add("card_played", deal=1, player="B", card="AS")
    assert codes(g.fold()[1]) == ["card-after-claim"]
    g = _contract()
    g.add("claim", deal=1, player="B", tricks=10, accepted=False)
    g.add("deal_started", deal=2, dealer="B")
    assert "disputed" in str(g.fold()[1][0])
    g = _contract()
    g.add("card_played", deal=1, player="B", card="AS").add("card_played", deal=1, player="C", card="7S")
    g.add("card_played", deal=1, player="A", card="7D")
    g.add("claim", deal=1, player="C", tricks=9, accepted=False)
    g.tricks(B=0, C=10, A=0)
    assert codes(g.fold()[1]) == ["tricks-below-played"]
    g = _contract()
    g.add("claim", deal=1, player="C", tricks=9, accepted=False)
    g.tricks(B=10, C=0, A=0)
    assert g.fold()[1] == []


def test_claims_in_a_raspas_in_solo_whist_and_in_serbian_are_refused() -> None:
    g = Game("sochi")
    g.deal("A", hands=HANDS, talon=TALON).bids(("B", "pass"), ("C", "pass"), ("A", "pass"))
    g.add("claim", deal=1, player="B", tricks=1)
    assert codes(g.fold()[1]) == ["claim-in-raspas"]
    g = Game("encyclopedia", players=("A", "B", "C", "D"))
    g.deal("D").contract("A", "solo")
    g.add("claim", deal=1, player="A", tricks=1)
    assert codes(g.fold()[1])[-1:] == ["claim-not-here"]
    g = Game("serbian", players=("A", "B", "C"), pool=20)
    g.deal("A")
    g.add("claim", deal=1, player="B", tricks=1)
    assert codes(g.fold()[1]) == ["claim-not-here"]


def test_audit_and_analyse_say_whether_a_claim_holds() -> None:
    g = _contract()
    g.add("claim", deal=1, player="B", tricks=10)  # B holds every spade and every club: all ten are his
    g.add("game_ended", reason="agreed")
    (game,) = vistlog.read_games(g.events)
    judged = game.audit().claims
    assert [(n, k.holds, k.best) for n, k in judged] == [(1, True, 10)]
    g = _contract()
    g.add("claim", deal=1, player="C", tricks=3, accepted=False)  # the defence cannot take three
    g.tricks(B=10, C=0, A=0)
    (game,) = vistlog.read_games(g.events)
    (deal,) = game.analysis().deals
    assert deal.claim is not None and not deal.claim.holds and deal.claim.best == 10
    assert "claim by C of 3 tricks (disputed): does not hold" in vistlog.views.audit_text(game.audit().to_json())


def test_claims_survive_the_notation_and_the_exports() -> None:
    """A card-level deal ended by an accepted claim has its tricks where the cards are not kept."""
    g = _contract()
    g.add("claim", deal=1, player="B", tricks=10)
    out = derive_tricks(ImportedGame("t", g.events, "t")).events
    tricks = [e for e in out if e["type"] == "tricks"]
    assert tricks and tricks[0]["taken"] == {"B": 10, "C": 0, "A": 0}
    (game,) = vistlog.read_games([{**e, "seq": i} for i, e in enumerate(out, start=1)])
    assert game.sound


def test_generated_card_level_evenings_with_claims_are_sound_and_analysed() -> None:
    for seed in range(3):
        events = preferans_game(random.Random(seed), players=("A", "B", "C"), rules={"preset": "sochi"}, pool=10,
                                max_deals=8, card_play=1.0, claims=0.5)
        (game,) = vistlog.read_games(events)
        assert game.sound, [str(p) for p in game.errors]
        analysis = game.analysis()
        assert all(0 <= d.value <= 10 if d.value is not None else all(0 <= v <= 10 for v in d.values.values())
                   for d in analysis.deals)


def test_the_replay_shows_the_values_beside_the_cards() -> None:
    text = _cli("replay", "samples/classic-bombs.jsonl", "--values").stdout
    assert " 8. Запад Q♣ 5, Восток K♠ 6 ✗, Юг 7♣ 6" in text
    assert "double-dummy 5 tricks (not makeable)" in text
    plain = _cli("replay", "samples/classic-bombs.jsonl").stdout
    assert "✗" not in plain and plain.count("\n") < text.count("\n")


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here (.ci/run installs Debian's chromium)")
def test_the_html_page_renders_in_headless_chromium(tmp_path: Path) -> None:
    page = tmp_path / "analysis.html"
    page.write_text(_cli("analyse", "samples/open-hands.jsonl", "--format", "html", "--lang", "ru").stdout,
                    encoding="utf-8")
    assert chromium_screenshot(page, tmp_path).stat().st_size > 10_000


def test_a_game_whose_deals_are_all_of_a_kind_not_analysed_says_so() -> None:
    """The hands of the Solo Whist sample are recorded: its text says no deal was analysed and why (the kind of
    deal), not that no deal has its hands; a game without hands says that its hands are not recorded."""
    from vistlog import views
    from vistlog.projections.analysis import analysis_json

    (solo,) = vistlog.read_games(SAMPLES / "solo-whist-evening.jsonl")
    text = views.analysis_text(analysis_json(solo.analysis()))
    assert "no deal analysed" not in text and "Deal 11:" in text
    assert "not analysed: deal(s) 1–3, 5–8, 10, 12–14, 16: the hands are not recorded" in text
    (bare,) = vistlog.read_games(SAMPLES / "sochi-evening.jsonl")
    text = views.analysis_text(analysis_json(bare.analysis()))
    assert "no deal analysed" in text and "not analysed: deal(s) 1–43: the hands are not recorded" in text


def test_solo_whist_and_raspas_costs_are_in_the_games_own_terms() -> None:
    """A Solo Whist mistake costs points that add up to nothing (the game's own scoring, zero-sum); a raspas
    card costs its own player only, and what it says is the side's or the player's number, trick by trick."""
    (solo,) = vistlog.read_games(SAMPLES / "solo-whist-evening.jsonl")
    deals = solo.analysis().deals
    assert {d.deal for d in deals} == {4, 9, 11}
    for d in deals:
        assert d.value is not None and 0 <= d.value <= 13 and d.tricks == 13 and len(d.cards) == 52
        assert d.objective == ("fewest" if d.misere else "most") and d.declarer in d.side
        for c in d.mistakes:
            assert c.cost and sum(c.cost.values()) == 0
    game = _games("open-hands.jsonl")[0]
    raspasy = [d for d in analyse(game).deals if d.value is None]
    assert raspasy and all(d.contract == "raspas" and d.declarer is None and set(d.values) == set(d.taken_each or ())
                           for d in raspasy)
    marked = [c for d in raspasy for c in d.mistakes]
    assert marked and all(set(c.cost) <= {c.player} for c in marked)


def test_the_analysis_tells_its_progress() -> None:
    (game,) = vistlog.read_games(SAMPLES / "open-hands.jsonl")
    calls: list[tuple[int, int]] = []
    a = game.analysis(progress=lambda done, total, answers: calls.append((done, total)))
    n = len(a.deals)
    assert calls == [(k, n) for k in range(n + 1)]


def test_a_terminal_sees_the_deals_counted_and_a_pipe_does_not() -> None:
    """``analyse`` shows a bar of deals solved on a terminal's standard error (a Solo Whist deal takes the pure
    search about 40 s); written to a pipe, standard error stays empty."""
    import os
    import pty

    primary, secondary = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "vistlog", "analyse", "samples/open-hands.jsonl", "--format",
                               "json"], stdout=subprocess.DEVNULL, stderr=secondary, cwd=SAMPLES.parent, timeout=300)
        os.close(secondary)
        seen = b""
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(primary)
    assert proc.returncode == 0
    total = len(json.loads(_cli("analyse", "samples/open-hands.jsonl", "--format", "json").stdout)["games"][0]["deals"])
    assert f"{total}/{total} deals · {total} exact".encode() in seen and b"0/" in seen  # how each deal was answered
    assert _cli("analyse", "samples/open-hands.jsonl", "--format", "json").stderr == ""
