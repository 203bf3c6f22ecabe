"""The next-step query (issue 48): what the game says may come next, as data, from the write side's state
machine. A game recorded by following only what the query offers is accepted deal after deal; what it does
not offer is refused; asking changes nothing."""

from __future__ import annotations

import doctest
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import vistlog

THREE = ["Аня", "Боря", "Вова"]
FOUR = ["Маша", "Петя", "Оля", "Коля"]


def _game(log: Path, preset: str, **rules: Any) -> vistlog.Recorder:
    r = vistlog.Recorder(log)
    solo = preset == "encyclopedia"
    start: dict[str, Any] = {"type": "game_started", "game": "g", "kind": "solo_whist" if solo else "preferans",
                             "players": FOUR if solo else THREE, "rules": {"preset": preset, **rules}}
    if not solo:
        start["pool"] = 10
    r.record([start])
    return r


def test_preferans_calls_follow_what_was_said(tmp_path: Path) -> None:
    r = _game(tmp_path / "g.jsonl", "sochi")
    assert r.next_step().step == "dealer"
    nx = r.next_step(line="dealer Аня; Боря 6S")
    assert (nx.step, nx.calls, nx.tricks) == ("calls", (("Вова", "pass"), ("Вова", "whist")), False)
    # half-whist: only the second defender's, after a pass, on a 6 or a 7
    assert ("Аня", "half") in r.next_step(line="dealer Аня; Боря 7S; Вова pass").calls
    assert ("Аня", "half") not in r.next_step(line="dealer Аня; Боря 8S; Вова pass").calls
    assert ("Аня", "half") not in r.next_step(line="dealer Аня; Боря 6S; Вова whist").calls
    # after pass and half the first defender speaks again: whist or pass, never a second half
    nx = r.next_step(line="dealer Аня; Боря 6S; Вова pass, Аня half")
    assert nx.calls == (("Вова", "pass"), ("Вова", "whist")) and nx.done
    # both pass: decided without play, no tricks asked
    nx = r.next_step(line="dealer Аня; Боря 6S; Вова pass, Аня pass")
    assert (nx.step, nx.tricks, nx.done, nx.calls) == ("done", False, True, ())
    # a misère has no calls; its tricks are asked at once, the declarer's guessed at none
    nx = r.next_step(line="dealer Аня; Боря misere")
    assert (nx.step, nx.calls, nx.guess["Боря"], sum(nx.guess.values())) == ("tricks", (), 0, 10)
    # given up without three: decided
    assert r.next_step(line="dealer Аня; Боря 7S without-three").step == "done"
    # a whist: the tricks, the declarer's guessed at what his contract needs
    nx = r.next_step(line="dealer Аня; Боря 7H; Вова whist, Аня pass")
    assert (nx.step, nx.guess["Боря"], nx.tricks_total, nx.takers) == ("tricks", 7, 10, ("Боря", "Вова", "Аня"))
    # a raspas: every holder's tricks
    nx = r.next_step(line="dealer Аня", all_pass=True)
    assert (nx.step, nx.all_pass, sum(nx.guess.values())) == ("tricks", True, 10)


def test_half_whist_is_not_offered_where_the_rules_have_none(tmp_path: Path) -> None:
    r = _game(tmp_path / "g.jsonl", "sochi", half_whist=False)
    assert r.next_step(line="dealer Аня; Боря 6S; Вова pass").calls == (("Аня", "pass"), ("Аня", "whist"))


def test_what_is_played_stays_a_choice_while_the_deal_is_composed(tmp_path: Path) -> None:
    r = _game(tmp_path / "g.jsonl", "sochi")
    before = r.next_step(line="dealer Аня")
    after = r.next_step(line="dealer Аня; Боря 6S; Вова pass")
    assert before.contracts == after.contracts and "6S" in after.contracts and "misere" in after.contracts
    assert before.declarers == ("Аня", "Боря", "Вова")  # in seat order
    assert (before.dealer, before.speaks, before.holders) == ("Аня", "Боря", ("Боря", "Вова", "Аня"))
    assert after.flags == ("without_three",)


def test_solo_whist_all_pass_and_needs(tmp_path: Path) -> None:
    redeal = _game(tmp_path / "r.jsonl", "encyclopedia", all_pass="redeal")
    nx = redeal.next_step(line="dealer Петя; raspas")
    assert (nx.step, nx.tricks) == ("done", False)
    nx = redeal.next_step(line="dealer Петя", declarer="Оля", contract="prop")
    assert nx.needs == ("partner",) and nx.partners == ("Маша", "Петя", "Коля")
    nx = redeal.next_step(line="dealer Петя; Оля prop partner Коля")
    assert (nx.step, nx.guess["Оля"] + nx.guess["Коля"]) == ("tricks", 8)
    misere = _game(tmp_path / "m.jsonl", "encyclopedia", all_pass="general_misere")
    nx = misere.next_step(line="dealer Петя; raspas")
    assert (nx.step, nx.tricks_total, nx.last) == ("tricks", 13, ("Оля", "Коля", "Маша", "Петя"))


def test_asking_changes_nothing_and_the_game_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    r = _game(log, "sochi")
    before = log.read_bytes()
    for line in ("dealer Аня; Боря 6S; Вова pass, Аня pass", "dealer Аня; Боря 7S; Вова whist", "dealer Аня"):
        r.next_step(line=line)
    assert log.read_bytes() == before and r.table().next_deal == 1
    r.record_line("dealer Аня; Боря 6S; Вова pass, Аня pass")
    nx = r.next_step()
    assert (nx.step, nx.deal, nx.dealer, nx.speaks, nx.voidable) == ("deal", 2, "Боря", "Вова", 1)


def test_a_deal_left_open_by_another_writer_must_be_finished_first(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    r = _game(log, "sochi")
    vistlog.append(log, [{"type": "deal_started", "game": "g", "deal": 1, "dealer": "Аня"}])
    nx = r.next_step()
    assert nx.step == "open" and nx.deal == 1 and "no result" in nx.why and nx.voidable == 1


def test_the_game_over_is_the_last_step(tmp_path: Path) -> None:
    r = _game(tmp_path / "g.jsonl", "sochi")
    r.record_line("dealer Аня; Боря 6S; Вова pass, Аня pass")
    r.record_line("end agreed")
    nx = r.next_step("g")
    assert (nx.step, nx.why, nx.adjust) == ("over", "game_ended was recorded", False)


def test_vistlog_deal_prints_the_next_step(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    _game(log, "sochi")
    done = subprocess.run([sys.executable, "-m", "vistlog", "deal", str(log), "dealer Аня; raspas; Боря 4 Вова 3"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "next: deal 2, Боря deals, Вова speaks first" in done.stderr


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(["sochi", "leningrad", "rostov", "classic", "redeal", "general_misere", "serbian"]),
       seed=st.integers(0, 2**32 - 1))
def test_a_game_recorded_by_following_the_offered_choices_is_accepted(preset: str, seed: int,
                                                                      tmp_path_factory: Any) -> None:
    """Every deal composed only from what the query offers (a random choice at every step) is accepted as a
    whole deal; a call the query does not offer is refused."""
    rng = random.Random(seed)
    log = tmp_path_factory.mktemp("follow") / "g.jsonl"
    if preset in ("redeal", "general_misere"):
        r = _game(log, "encyclopedia", all_pass=preset)
    elif preset == "serbian":
        r = vistlog.Recorder(log)
        r.record([{"type": "game_started", "game": "g", "kind": "preferans", "players": THREE, "pool": 20,
                   "rules": {"preset": "serbian"}}])
    else:
        r = _game(log, preset)
    for _ in range(8):
        nx = r.next_step()
        if nx.step == "over":
            break
        head = f"dealer {rng.choice(nx.dealers)}" if nx.step == "dealer" else ""
        nx = r.next_step(line=head) if head else nx
        won = not nx.contracts  # a game whose contract is won in the auction (Serbian)
        assert nx.contracts or r.next_step(line=head, auction=True).bids, nx
        clauses = [head] if head else []
        all_pass = nx.all_pass and rng.random() < 0.25 and not won
        auction: list[str] = []
        if won or (not all_pass and rng.random() < 0.3):  # an auction, bid by bid, each among those offered
            nx = r.next_step(line="; ".join(clauses), auction=True)
            while nx.bids and len(auction) < 12:
                passes = [b for b in nx.bids if b[1] == "pass"]
                p, b = rng.choice(passes) if passes and rng.random() < 0.6 else rng.choice(nx.bids)
                auction.append(f"{p} {b}")
                nx = r.next_step(line="; ".join(clauses + ["bids " + ", ".join(auction)]))
                assert nx.problem is None, (clauses, auction, nx.problem)
            if nx.bids and won:  # a long auction where one is needed: everybody passes from here
                while nx.bids:
                    p = next(q for q, b in nx.bids if b == "pass")
                    auction.append(f"{p} pass")
                    nx = r.next_step(line="; ".join(clauses + ["bids " + ", ".join(auction)]))
                clauses.append("bids " + ", ".join(auction))
            elif nx.bids:  # a long auction: start the deal again without one
                auction = []
                nx = r.next_step(line="; ".join(clauses))
            else:
                clauses.append("bids " + ", ".join(auction))
        if auction and (nx.done or not nx.contracts):
            pass  # the auction decided the deal (thrown in, or everybody passed: a raspas)
        elif all_pass:
            clauses.append("raspas")
        else:
            declarer, contract = rng.choice(nx.declarers), rng.choice(nx.contracts)
            said = [declarer, contract]
            ask = r.next_step(line="; ".join(clauses), declarer=declarer, contract=contract)
            if "partner" in ask.needs:
                said += ["partner", rng.choice(ask.partners)]
            if "trump" in ask.needs:
                said += ["trump", rng.choice("SCDH")]
            said += list(ask.must_say)  # a flag the auction made it need (a Serbian igra)
            clauses.append(" ".join(said))
        nx = r.next_step(line="; ".join(clauses), all_pass=all_pass)
        assert nx.problem is None, (clauses, nx.problem)
        if nx.step == "deal" and not nx.contracts:  # everybody passed in the auction: a raspas, played
            nx = r.next_step(line="; ".join(clauses), all_pass=True)
        calls: list[str] = []
        while nx.calls and not (nx.done and rng.random() < 0.5):
            p, c = rng.choice(nx.calls)
            offered = set(nx.calls)
            refused = [(q, k) for q in nx.holders for k in ("pass", "whist", "half") if (q, k) not in offered]
            if refused:  # what is not offered does not read as a legal draft
                q, k = rng.choice(refused)
                wrong = r.next_step(line="; ".join(clauses + [", ".join(calls + [f"{q} {k}"])]))
                assert wrong.problem is not None, (clauses, calls, q, k)
            calls.append(f"{p} {c}")
            nx = r.next_step(line="; ".join(clauses + [", ".join(calls)]))
            assert nx.problem is None, (clauses, calls, nx.problem)
        if calls:
            clauses.append(", ".join(calls))
        if nx.tricks and nx.step == "tricks":
            tricks = dict(nx.guess)
            if nx.tricks_total is not None and len(nx.takers) > 1:
                a, b = rng.sample(list(nx.takers), 2)
                moved = rng.randint(0, tricks[a])
                tricks[a] -= moved
                tricks[b] += moved
            part = ", ".join(f"{p} {n}" for p, n in tricks.items())
            if nx.last:  # who took the last trick took a trick
                part += f", last {rng.choice([p for p in nx.last if tricks.get(p, 0) > 0])}"
            clauses.append(part)
        else:
            assert nx.step == "done", (clauses, nx)
        line = "; ".join(clauses)
        r.record_line(line)  # accepted as a whole deal (raises otherwise)
        assert r.table().open_deal is None, line



def test_the_pad_pages_example_of_the_query_runs(tmp_path: Path, monkeypatch: Any) -> None:
    from .conftest import ROOT

    (block,) = re.findall(r"```pycon\n(.*?)```", (ROOT / "docs" / "pad.md").read_text(encoding="utf-8"), re.S)
    monkeypatch.chdir(tmp_path)
    r = vistlog.Recorder("evening.jsonl")
    r.record([{"type": "game_started", "game": "g", "kind": "preferans", "players": THREE, "pool": 10,
               "rules": {"preset": "sochi"}}])
    test = doctest.DocTestParser().get_doctest(block, {"vistlog": vistlog}, "pad.md", "docs/pad.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0 and len(test.examples) == 3


def test_the_page_holds_no_rule_of_any_game() -> None:
    """pad.js names no game, kind or variant, matches no regular expression over text, and derives nothing of
    the deal (who holds cards, who defends, a contract's level, the tricks' first guess): it draws /api/next."""
    from .conftest import ROOT

    js = (ROOT / "vistlog" / "static" / "pad.js").read_text(encoding="utf-8")
    assert not re.search(r'"(preferans|solo_whist|serbian)"|\.(kind|variant)\b', js)
    assert not re.search(r"/[^/\n*]+/\.test\(|\.exec\(|\.match\(", js)
    for derived in ("function holders", "function defenders", "function level", "function defaultTricks",
                    "KONTRAS", "=== \"without_three\"", "tricks_total || 10"):
        assert derived not in js, derived
    assert "/api/next" in js


def test_the_auction_is_offered_bid_by_bid(tmp_path: Path) -> None:
    """Issue 50: the bids each holder may say now, and what follows them (an unaccepted prop under both rules;
    a Serbian auction, then its winner's contract)."""
    solo = _game(tmp_path / "s.jsonl", "encyclopedia")
    assert solo.next_step(line="dealer Петя").bids == ()  # asked for only
    nx = solo.next_step(line="dealer Петя", auction=True)
    assert {p for p, _ in nx.bids} == {"Оля"} and ("Оля", "prop") in nx.bids
    nx = solo.next_step(line="dealer Петя; bids Оля prop")
    assert {p for p, _ in nx.bids} == {"Коля"} and ("Коля", "cop") in nx.bids and ("Коля", "prop") not in nx.bids
    unaccepted = "dealer Петя; bids Оля prop, Коля pass, Маша pass, Петя pass"
    nx = solo.next_step(line=unaccepted)  # the proposer must go on (unaccepted_prop: raise)
    assert {p for p, _ in nx.bids} == {"Оля"} and ("Оля", "solo") in nx.bids and not nx.done
    assert ("Оля", "cop") not in nx.bids  # nobody accepts his own prop
    nx = solo.next_step(line=unaccepted + ", Оля solo")
    assert nx.declarers == ("Оля",) and nx.contracts == ("solo",)
    thrown = _game(tmp_path / "t.jsonl", "encyclopedia", unaccepted_prop="redeal")
    nx = thrown.next_step(line=unaccepted)
    assert (nx.step, nx.done, nx.bids) == ("done", True, ())
    thrown.record_line(unaccepted)
    assert thrown.table().next_deal == 2
    serbian = vistlog.Recorder(tmp_path / "b.jsonl")
    serbian.record([{"type": "game_started", "game": "g", "kind": "preferans", "players": THREE, "pool": 20,
                     "rules": {"preset": "serbian"}}])
    assert serbian.next_step(line="dealer Аня").contracts == ()  # a Serbian contract is won in the auction
    nx = serbian.next_step(line="dealer Аня; bids Боря 2")
    assert {p for p, _ in nx.bids} == {"Вова"} and ("Вова", "3") in nx.bids and ("Вова", "2") not in nx.bids
    nx = serbian.next_step(line="dealer Аня; bids Боря 2, Вова pass, Аня pass")
    assert nx.declarers == ("Боря",) and "6S" in nx.contracts and nx.bids == ()
