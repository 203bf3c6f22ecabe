"""Serbian preferans (docs/serbian.md) and PPN (docs/ppn.md): the two games worked by hand, every
option of the table, the state machine, and random games for the invariants."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import vistlog
from vistlog.events.codec import decode_obj
from vistlog.events.checker import LogChecker
from vistlog.events.importers import SourceError

from .serbian_games import PLAYERS, all_pass, deal, fold, game, random_game

VECTORS = Path(__file__).parent / "vectors" / "serbian"
ROOT = Path(__file__).parent.parent


def _events(path: Path, **rules: Any) -> list[dict[str, Any]]:
    out = [json.loads(line) for line in path.read_text().splitlines()]
    out[0]["rules"].update(rules)
    return out


def _expected(name: str) -> dict[str, Any]:
    return json.loads((VECTORS / f"{name}.expected.json").read_text())


def _paper(g: vistlog.Game) -> dict[str, Any]:
    t = g.sheet()
    s = g.settlement()
    ps = g.players
    return {"bula_final_before_write_off": {p: t["bula"][p] for p in ps},
            "soups": {p: {q: t["soups"].get((p, q), 0) for q in ps if q != p} for p in ps},
            "refe_written": t.times["refe"], "open_refe": {p: t["refe"][p] for p in ps}, "result": s.exact}


# --------------------------------------------------------------------------- the two games worked by hand

@pytest.mark.parametrize("name", ["sr-1", "sr-2"])
def test_vector_log_settles_exactly(name: str) -> None:
    g = fold(_events(VECTORS / f"{name}.jsonl"))
    assert g.problems == ()
    want = _expected(name)
    got = _paper(g)
    for key in ("bula_final_before_write_off", "soups", "refe_written", "open_refe", "result"):
        assert got[key] == want[key], key
    after = g.to_json()["bula_after_write_off"]
    assert after == want["bula_after_write_off"]
    assert sum(got["result"].values()) == 0


@pytest.mark.parametrize("name", ["sr-1", "sr-2"])
def test_vector_ppn_imports_settles_audits_and_round_trips(name: str) -> None:
    source = VECTORS / f"{name}.ppn"
    (imported,) = vistlog.load(source, "ppn")
    events = [{**e, "seq": i} for i, e in enumerate(imported.events, start=1)]
    g = fold(events)
    assert g.problems == ()
    assert _paper(g)["result"] == _expected(name)["result"]
    report = g.audit()
    assert report.checked > 30 and report.mismatches == ()  # every PPN summary and Result agrees
    assert vistlog.dump(imported.events, "ppn") == source.read_text()  # byte for byte


def test_ppn_audit_names_the_deal_of_a_wrong_summary() -> None:
    text = (VECTORS / "sr-1.ppn").read_text().replace("F2:R56,M6:-28,F2:L56", "F2:R56,M6:-20,F2:L56")
    (imported,) = vistlog.load(text.encode(), "ppn", name="changed.ppn")
    g = fold([{**e, "seq": i} for i, e in enumerate(imported.events, start=1)])
    report = g.audit()
    assert report.part_by == 5 and report.suspects == (5,)
    assert report.mismatches[0].claim.label == "bula of Vesna"


def test_ppn_reader_errors_name_the_line() -> None:
    text = (VECTORS / "sr-1.ppn").read_text()
    bad = text.replace("WRP1,UVS2", "WRP2,UVS2")  # trick 1 is Ana's (seat 1), not seat 2's
    with pytest.raises(SourceError, match=r"x\.ppn:14: trick 1: Ana wins it, not seat 2"):
        vistlog.load(bad.encode(), "ppn", name="x.ppn")
    with pytest.raises(SourceError, match=r"x\.ppn:14: the cards are not the 32 PPN codes"):
        vistlog.load(text.replace("EUQ4WC", "EUQ4WW").encode(), "ppn", name="x.ppn")
    with pytest.raises(SourceError, match="cannot be rebuilt"):
        vistlog.load(text.replace(" M3,4,P ", " 5,4,P ").encode(), "ppn", name="x.ppn")


def test_ppn_reads_the_readme_thirteen_field_form_and_quoted_tags() -> None:
    text = (VECTORS / "sr-1.ppn").read_text().replace("[Bula 20]", '[Bula "20"]')
    text = text.replace(" 4 8 0 0 8 1 WRP1", " 4 8 0 8 1 WRP1")  # deal 1 without its refa field
    (imported,) = vistlog.load(text.encode(), "ppn")
    assert vistlog.dump(imported.events, "ppn") == (VECTORS / "sr-1.ppn").read_text()


# --------------------------------------------------------------------------- every option of the table

def _bula(events: list[dict[str, Any]]) -> dict[str, Any]:
    g = fold(events)
    assert g.problems == (), g.problems
    return dict(g.sheet()["bula"])


def _codes(events: list[dict[str, Any]]) -> list[str]:
    return [p.code for p in fold(events).problems]


PIK_NO_KONTRA = deal("A:2 B:pass C:pass", "A:6S", calls="B:whist C:pass")
SANS_NOBODY = deal("A:2 B:pass C:pass", "A:6NT", calls="B:pass C:pass")


@pytest.mark.parametrize(("limit", "written"), [(0, 0), (1, 1), (2, 2), ("unlimited", 3)])
def test_refe_limit(limit: Any, written: int) -> None:
    g = fold(game([all_pass, all_pass, all_pass], {"refe_limit": limit}))
    assert g.sheet().times["refe"] == written
    assert g.sheet()["refe"] == {p: written for p in PLAYERS}


@pytest.mark.parametrize(("blocked", "written"), [(True, 0), (False, 1)])
def test_refa_blocked_under_hat(blocked: bool, written: int) -> None:
    g = fold(game([SANS_NOBODY, all_pass], {"refa_blocked_under_hat": blocked}, pool=10))
    assert g.sheet()["bula"]["A"] == -4  # under the hat
    assert g.sheet().times["refe"] == written


def test_pik_needs_kontra() -> None:
    played = deal("A:2 B:pass C:pass", "A:6S", calls="B:whist C:pass", taken={"A": 6, "B": 4})
    assert _codes(game([played])) == ["tricks-without-play"]
    g = fold(game([played], {"pik_needs_kontra": False}))
    assert g.sheet()["bula"]["A"] == 16 and g.sheet()["soups"][("B", "A")] == 16
    g = fold(game([PIK_NO_KONTRA]))  # not played: a refa for everybody instead
    assert g.sheet()["bula"] == {"A": 20, "B": 20, "C": 20} and g.sheet().times["refe"] == 1


def test_pik_on_refa_needs_kontra() -> None:
    pik = deal("B:2 C:pass A:pass", "B:6S", calls="C:whist A:pass", taken={"B": 6, "C": 4})
    assert _codes(game([all_pass, pik])) == ["tricks-without-play"]
    g = fold(game([all_pass, pik], {"pik_on_refa_needs_kontra": False}))
    t = g.sheet()
    assert t["bula"]["B"] == 12 and t["soups"][("C", "B")] == 32 and t["refe"]["B"] == 0  # V = 4 × 2 (refa), played off


@pytest.mark.parametrize(("rule", "refe_limit", "a_bula", "refe"), [
    ("refa_else_pass", 0, 16, 0), ("refa_else_pass", 2, 20, 1),
    ("refa_else_nothing", 0, 20, 0), ("refa_else_pass_if_under_hat", 0, 20, 0),
    ("pass", 2, 16, 0),
])
def test_pik_no_kontra(rule: str, refe_limit: int, a_bula: int, refe: int) -> None:
    g = fold(game([PIK_NO_KONTRA], {"pik_no_kontra": rule, "refe_limit": refe_limit}))
    assert g.sheet()["bula"]["A"] == a_bula and g.sheet().times["refe"] == refe


def test_pik_no_kontra_passes_only_under_the_hat() -> None:
    pik = deal("B:2 C:pass A:pass", "B:6S", calls="C:whist A:pass")
    bula = _bula(game([SANS_NOBODY, pik], {"pik_no_kontra": "refa_else_pass_if_under_hat"}, pool=10))
    assert bula == {"A": -4, "B": 6, "C": 10}  # A is under the hat: B passes, −4


@pytest.mark.parametrize(("top", "codes"), [("mortkontra", []), ("rekontra", ["kontra-max"])])
def test_kontra_max(top: str, codes: list[str]) -> None:
    herc = deal("A:2 B:pass C:pass", "A:6H", calls="B:whist C:whist", kontra="B:kontra A:rekontra B:subkontra",
                taken={"A": 6, "B": 2, "C": 2})
    assert _codes(game([herc], {"kontra_max": top})) == codes
    if not codes:
        t = fold(game([herc])).sheet()
        assert t["bula"] == {"A": 20 - 64, "B": 20 + 64, "C": 20} and t["soups"] == {("B", "A"): 4 * 64}


def test_two_defenders_quota() -> None:
    assert _bula(_events(VECTORS / "sr-1.jsonl")) == {"Ana": 24, "Boris": -8, "Vesna": -16}
    # docs: under each_two Ana falls in deal 1 (1 trick of the defence's 4), and the last game is not cut
    assert _bula(_events(VECTORS / "sr-1.jsonl", two_defenders_quota="each_two")) == \
        {"Ana": 32, "Boris": -8, "Vesna": -18}


@pytest.mark.parametrize(("cap", "soups"), [(5, {("B", "A"): 32, ("C", "A"): 8}),
                                            ("none", {("B", "A"): 32, ("C", "A"): 24})])
def test_soup_trick_cap(cap: Any, soups: dict[tuple[str, str], int]) -> None:
    herc = deal("A:2 B:pass C:pass", "A:6H", calls="B:whist C:whist", taken={"A": 3, "B": 4, "C": 3})
    t = fold(game([herc], {"soup_trick_cap": cap})).sheet()
    assert t["soups"] == soups and t["bula"]["A"] == 28


@pytest.mark.parametrize(("rule", "soups"), [("fixed", {("B", "A"): 60, ("C", "A"): 60}),
                                             ("tricks", {("B", "A"): 60, ("C", "A"): 48})])
def test_betl_fail_soup(rule: str, soups: dict[tuple[str, str], int]) -> None:
    betl = deal("A:2 B:pass C:pass", "A:misere", taken={"A": 1, "B": 5, "C": 4})
    t = fold(game([betl], {"betl_fail_soup": rule})).sheet()
    assert t["soups"] == soups and t["bula"]["A"] == 32


def test_preferans_contract() -> None:
    pref = deal("A:2 B:pass C:pass", "A:10NT", calls="B:whist C:whist", taken={"A": 10, "B": 0, "C": 0})
    assert _codes(game([pref])) == ["contract-not-serbian"]
    assert _bula(game([pref], {"preferans_contract": True})) == {"A": 4, "B": 36, "C": 36}
    up_to_seven = "A:2 B:3 C:pass A:mine B:4 A:mine B:5 A:mine B:6 A:mine B:7 A:mine"
    assert _codes(game([deal(up_to_seven + " B:8")])) == ["auction-over"]  # «moje 7» ends it
    assert _codes(game([deal(up_to_seven + " B:8")], {"preferans_contract": True}))[0] == "game-end-unfinished"


HANDS = {"A": ["AS", "KS", "QS", "JS", "10S", "AC", "KC", "QC", "JC", "10C"],
         "B": ["9S", "8S", "7S", "9C", "8C", "7C", "AD", "KD", "QD", "JD"],
         "C": ["10D", "9D", "8D", "7D", "AH", "KH", "QH", "JH", "10H", "9H"]}


@pytest.mark.parametrize(("rule", "leader"), [("left_defender", "C"), ("not_declarer", "B")])
def test_sans_lead(rule: str, leader: str) -> None:
    events = game([deal("A:2 B:pass C:pass")], {"sans_lead": rule}, end=False)
    events[1].update(hands=HANDS, talon=["8H", "7H"])
    checker = vistlog.Checker()
    for ev in events:
        checker.push(ev)
    n = len(events)
    for ev in ({"type": "discard", "player": "A", "cards": ["8H", "7H"]},
               {"type": "contract", "declarer": "A", "contract": "6NT"},
               {"type": "whist", "player": "B", "call": "whist"}, {"type": "whist", "player": "C", "call": "whist"}):
        n += 1
        checker.push({"v": 1, "seq": n, "game": "g", "deal": 1, **ev})
    card = {"AS": "A", "9S": "B", "10D": "C"}
    for first, who in card.items():
        legal = checker.is_legal({"v": 1, "seq": n + 1, "game": "g", "type": "card_played", "deal": 1,
                                  "player": who, "card": first})
        assert legal is (who == leader), who


@pytest.mark.parametrize(("cap", "vesna", "ana_on_vesna"), [("bula", -16, 76), ("bula_and_soups", -16, 72),
                                                           ("none", -18, 76)])
def test_last_game_cap(cap: str, vesna: int, ana_on_vesna: int) -> None:
    g = fold(_events(VECTORS / "sr-1.jsonl", last_game_cap=cap))
    t = g.sheet()
    assert t["bula"]["Vesna"] == vesna and t["soups"][("Ana", "Vesna")] == ana_on_vesna
    assert sum(g.settlement().exact.values()) == 0


@pytest.mark.parametrize(("double", "a_bula"), [(False, 4 + 14), (True, 4 + 28)])
def test_last_game_double_fall(double: bool, a_bula: int) -> None:
    sans = deal("A:2 B:pass C:pass", "A:6NT", calls="B:whist C:pass", taken={"A": 4, "B": 6})
    t = fold(game([sans], {"last_game_double_fall": double}, pool=4)).sheet()  # V 14 > the 12 left
    assert t["bula"]["A"] == a_bula and t["soups"][("B", "A")] == 5 * 14  # the defence's first five tricks


@pytest.mark.parametrize(("rule", "result"), [
    ("integer", {"Ana": 210, "Boris": -532, "Vesna": 322}),
    ("exact", {"Ana": Fraction(640, 3), "Boris": Fraction(-1616, 3), "Vesna": Fraction(976, 3)}),
])
def test_write_off(rule: str, result: dict[str, Any]) -> None:
    assert fold(_events(VECTORS / "sr-2.jsonl", write_off=rule)).settlement().exact == result


def test_bula_point() -> None:
    got = fold(_events(VECTORS / "sr-1.jsonl", bula_point=5)).settlement().exact
    assert got == {"Ana": -5 * 24 + 84 - 92, "Boris": 5 * 8 + 136 - 32, "Vesna": 5 * 16 + 56 - 152}


# --------------------------------------------------------------------------- the state machine

def _first_problem(deals: list[Any], rules: dict[str, Any] | None = None) -> tuple[str, str] | None:
    g = fold(game(deals, rules))
    return (g.problems[0].code, g.problems[0].message) if g.problems else None


@pytest.mark.parametrize(("bids", "code", "words"), [
    ("A:3", "bid-not-next", "A may say pass, 2, igra, igra6, igra7, not 3"),
    ("A:2 B:mine", "bid-not-next", "B may say pass, 3, igra"),
    ("A:2 B:3 C:pass A:4", "bid-not-next", "A may say pass, mine, not 4"),  # the senior holds
    ("A:2 B:3 C:pass A:mine B:mine", "bid-not-next", "B may say pass, 4"),  # the junior raises
    ("A:2 B:igra C:3", "bid-not-next", "C may say pass, igra, igra6, igra7"),
    ("A:2 B:igra C:pass A:igra", "bid-not-next", "A may say pass, not igra"),  # A has bid a number
    ("A:igra B:igra C:pass A:igra3 B:igra3", "bid-not-next", "B may say pass, yours, igra4"),
    ("A:pass B:pass C:pass A:2", "auction-over", ""),
    ("A:pass A:2", "bid-out-of-turn", "it is B's turn"),
])
def test_auction_refusals(bids: str, code: str, words: str) -> None:
    problem = _first_problem([deal(bids)])
    assert problem is not None and problem[0] == code and words in problem[1]


def test_igra_naming_and_contract() -> None:
    # A and B say igra; A names herc, B names tref, A gives way: B declares igra tref at least
    named = "A:igra B:igra C:pass A:igra4 B:igra5 A:yours"
    ok = deal(named, "B:6C", calls="C:whist A:pass", taken={"B": 6, "C": 4}, igra=True)
    t = fold(game([ok])).sheet()
    assert t["bula"]["B"] == 20 - 12  # igra tref: v = 6, V = 12
    assert _first_problem([deal(named, "B:6H", igra=True)])[0] == "contract-below-auction"
    assert _first_problem([deal(named, "B:6C")])[0] == "contract-igra"
    assert _first_problem([deal("A:2 B:pass C:pass", "A:6H", igra=True)])[0] == "contract-igra"


@pytest.mark.parametrize(("calls", "kontra", "code"), [
    ("B:whist C:pass B:invite", "B:kontra", "kontra-after-invite"),
    ("B:whist C:whist B:invite", "", "invite-not-lone"),
    ("B:pass C:whist", "A:kontra", "kontra-wrong-player"),
    ("B:pass C:whist", "C:rekontra", "kontra-order"),
    ("B:pass C:whist", "C:kontra C:rekontra", "kontra-wrong-player"),
    ("C:whist B:whist", "", "whist-out-of-turn"),
])
def test_defence_and_kontra_refusals(calls: str, kontra: str, code: str) -> None:
    problem = _first_problem([deal("A:2 B:pass C:pass", "A:6H", calls=calls, kontra=kontra)])
    assert problem is not None and problem[0] == code


def test_invitation_scores_the_caller_only() -> None:
    herc = deal("A:2 B:pass C:pass", "A:6H", calls="B:whist C:pass B:invite", taken={"A": 7, "B": 1, "C": 2})
    t = fold(game([herc])).sheet()
    assert t["soups"] == {("B", "A"): 24} and t["bula"] == {"A": 12, "B": 28, "C": 20}  # B writes 3 × 8 and falls
    assert _first_problem([deal("A:2 B:pass C:pass", "A:6S", calls="B:whist C:pass B:invite")])[0] == \
        "invite-plain-pik"


def test_betl_kontra() -> None:
    made = deal("A:2 B:pass C:pass", "A:misere", kontra="C:kontra", taken={"A": 0, "B": 5, "C": 5})
    t = fold(game([made])).sheet()
    assert t["bula"] == {"A": 20 - 24, "B": 20, "C": 20 + 24} and t["soups"] == {}


def test_play_stops_when_the_outcome_is_decided() -> None:
    for seed in range(40):
        events = random_game(random.Random(seed), 8, cards=True)
        by_deal: dict[int, list[int]] = {}
        for i, e in enumerate(events):
            if e["type"] == "card_played":
                by_deal.setdefault(e["deal"], []).append(i)
        for where in by_deal.values():
            playing = {events[i]["player"] for i in where}
            if len(where) < 10 * len(playing):  # stopped early
                checker = LogChecker()
                for e in events[: where[-1] + 1]:
                    assert checker.check(decode_obj(dict(e))) == []
                extra = {**events[where[-1]], "seq": events[where[-1]]["seq"] + 1}
                issues = checker.check(decode_obj(extra))
                assert [i.code for i in issues] == ["play-decided"]
                return
    pytest.fail("no deal stopped early in 40 random games")


def _start_codes(events: list[dict[str, Any]]) -> list[str]:
    reader = vistlog.read_games(events)
    (refused,) = reader  # a game whose game_started is refused is still given, never started
    assert not refused.started and refused.players == () and reader.problems == []
    return [p.code for p in refused.problems][:1]


def test_serbian_game_fields() -> None:
    four = game([])
    four[0]["players"] = ["A", "B", "C", "D"]
    assert _start_codes(four) == ["players-count"]
    assert _start_codes(game([], pool=21)) == ["pool-size"]


def test_russian_games_refuse_serbian_words() -> None:
    events = game([deal("A:6S B:pass C:pass", "A:6S", calls="B:whist C:pass", kontra="B:kontra")])
    events[0]["rules"] = {"preset": "sochi"}
    events[0]["pool"] = 10
    assert [p.code for p in fold(events).problems][:1] == ["event-misplaced"]
    events = game([deal("A:2")])
    events[0]["rules"] = {"preset": "sochi"}
    assert [p.code for p in fold(events).problems][:1] == ["bid-unknown"]


# --------------------------------------------------------------------------- invariants on random games

@given(st.integers(0, 10**6), st.booleans(), st.sampled_from([{}, {"two_defenders_quota": "each_two"},
                                                              {"last_game_cap": "none", "write_off": "exact"},
                                                              {"kontra_max": "rekontra", "refe_limit": "unlimited"},
                                                              {"last_game_cap": "bula_and_soups",
                                                               "pik_needs_kontra": False}]))
def test_random_games_are_zero_sum_and_replay_alike(seed: int, cards: bool, rules: dict[str, Any]) -> None:
    events = random_game(random.Random(seed), 10, rules, cards=cards, pool=30)
    g = fold(events)
    assert g.problems == ()
    s = g.settlement()
    assert sum(s.exact.values()) == 0 and sum(s.rounded.values()) == 0
    again = fold(events)
    assert again.settlement() == s and again.replay() == g.replay()


@given(st.integers(0, 10**6))
def test_random_card_games_round_trip_through_ppn(seed: int) -> None:
    events = random_game(random.Random(seed), 10, cards=True, pool=30)
    text = vistlog.dump(events, "ppn")
    (back,) = vistlog.load(text.encode(), "ppn")
    assert vistlog.dump(back.events, "ppn") == text
    g = fold([{**e, "seq": i} for i, e in enumerate(back.events, start=1)])
    assert g.settlement().exact == fold(events).settlement().exact
    assert g.audit().mismatches == ()


# --------------------------------------------------------------------------- the command line

def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vistlog", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_cli_import_sheet_replay_export(tmp_path: Path) -> None:
    log = tmp_path / "serbian.jsonl"
    done = _cli("import", "--from", "ppn", str(VECTORS / "sr-1.ppn"), str(VECTORS / "sr-2.ppn"), "-o", str(log))
    assert done.returncode == 0, done.stderr
    assert "imported 2 game(s)" in done.stderr
    audit = _cli("audit", str(log))
    assert audit.returncode == 0 and "sr-1: 46 recorded values, all match" in audit.stdout
    sheet = _cli("sheet", str(log))
    assert "Vesna Boris: 24 20 △ ∩ -8 ▲ -16 Ana: 32" in " ".join(sheet.stdout.split())
    settle = json.loads(_cli("settle", str(log), "--format", "json").stdout)
    sr2 = next(x for x in settle["games"] if x["game"] == "sr-2")
    assert sr2["write_off"] == {"Ana": 29, "Boris": 30, "Vesna": 29} and sr2["result"]["Boris"] == "-532"
    replay = _cli("replay", str(log), "--game", "sr-2").stdout
    assert "Vesna: kontra" in replay and "Boris zovem" in replay
    out = tmp_path / "sr-2.ppn"
    assert _cli("export", "--to", "ppn", str(log), "--game", "sr-2", "-o", str(out)).returncode == 0
    assert out.read_text() == (VECTORS / "sr-2.ppn").read_text()
    html = _cli("sheet", str(log), "--game", "sr-1", "--format", "html").stdout
    assert "<polygon" in html and "šešir" in html
