"""A scorekeeper's evening: what a person types and reads (names, Russian spellings, corrections, output)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from vistlog.cli import EXAMPLES, main

from .conftest import ROOT, SAMPLES
from .helpers import Game, codes, fold


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("typed, players", [("аня", ["Аня", "Боря", "Вова"]), ("Алёна", ["Алена", "Боря", "Вова"]),
                                            ("Бора", ["Аня", "Боря", "Вова"])])
def test_an_unknown_name_gets_did_you_mean(typed: str, players: list[str]) -> None:
    g = Game("sochi", players)
    g.deal(players[2]).contract(typed, "6S")
    (_, problems) = fold(g.events)
    assert codes(problems)[0] == "player-unknown"
    expected = {"аня": "Аня", "Алёна": "Алена", "Бора": "Боря"}[typed]
    assert f"(did you mean {expected}?)" in problems[0].message


def test_russian_spellings_are_read_and_printed_canonically() -> None:
    g = Game("sochi", ["Аня", "Боря", "Вова"])
    g.deal("Вова").bids(("Аня", "6 пик"), ("Боря", "7 бк"), ("Вова", "пас"), ("Аня", "пас"))
    g.contract("Боря", "7 бк").whists(("Вова", "вист"), ("Аня", "пас")).tricks(Аня=1, Боря=7, Вова=2)
    g.deal("Аня").bids(("Боря", "мизер"), ("Вова", "пас"), ("Аня", "пас")).contract("Боря", "мизер")
    g.tricks(Аня=5, Боря=0, Вова=5)
    g.deal("Боря").contract("Вова", "6 червей").whists(("Аня", "пас"), ("Боря", "полвиста"))
    (res,), problems = fold(g.events)
    assert problems == []
    assert [str(r.contract.contract) for r in res.records if r.contract] == ["7NT", "misere", "6H"]
    assert [c.value for _, c in res.records[2].calls] == ["pass", "half"]


def test_an_abundance_names_its_trump() -> None:
    g = Game("encyclopedia", ["N", "E", "S", "W"], kind="solo_whist")
    g.deal("W", turned="QH").bids(("N", "abundance"), ("E", "pass"), ("S", "pass"), ("W", "pass"))
    g.contract("N", "abundance")
    (_, problems) = fold(g.events)
    assert codes(problems) == ["trump-missing"]


def test_verify_takes_a_unique_prefix_of_the_head(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    assert main(["import", "--from", "jsonl", str(SAMPLES / "classic-bombs.jsonl"), "-o", str(log)]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, "verify", str(log))
    head = out.split("head ")[1].strip()
    code, out, _ = run(capsys, "verify", str(log), "--head", head[:8])
    assert code == 0 and "the remembered head is line" in out
    code, out, _ = run(capsys, "verify", str(log), "--head", head[:12] + "…")  # as printed, pasted
    assert code == 0
    code, _, err = run(capsys, "verify", str(log), "--head", "abc")
    assert code == 2 and "8 to 64" in err


def test_every_example_of_the_help_works_as_written(tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(SAMPLES)
    lines = [ln.strip() for ln in EXAMPLES.splitlines()[1:] if ln.strip()]
    assert len(lines) >= 10
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    for line in lines:
        command = line.split("  #")[0]
        proc = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, env=env,
                              timeout=120)
        # audit exits 1 on the disputed sheet: that is its answer, not a failure
        assert proc.returncode in ((0, 1) if "disputed" in command else (0,)), (command, proc.stderr[-500:])
        assert "Traceback" not in proc.stderr and "usage:" not in proc.stderr, command
    assert (tmp_path / "sheet.html").exists() and (tmp_path / "club.jsonl").exists()
    assert shlex.split(lines[0])[0] == "vistlog"


def test_sheet_writes_a_file_and_one_page_for_several_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    both = tmp_path / "both.jsonl"
    both.write_bytes((SAMPLES / "classic-bombs.jsonl").read_bytes())
    assert main(["import", "--from", "jsonl", str(SAMPLES / "solo-whist-evening.jsonl"), "-o", str(both)]) == 0
    capsys.readouterr()
    page = tmp_path / "p.html"
    code, out, _ = run(capsys, "sheet", str(both), "--format", "html", "-o", str(page))
    html = page.read_text(encoding="utf-8")
    assert code == 0 and out == "" and html.count('<section class="game">') == 2
    code, _, err = run(capsys, "sheet", str(both), "--format", "svg")
    assert code == 2 and "--game" in err and "classic-2026-11-29" in err
    code, _, err = run(capsys, "sheet", str(SAMPLES / "sochi-evening.jsonl"), "--upto", "999")
    assert code == 0 and "past the last deal (43)" in err
    orjson.loads(subprocess.run([sys.executable, "-m", "vistlog", "sheet", str(SAMPLES / "sochi-evening.jsonl"),
                                 "--format", "json"], capture_output=True, cwd=ROOT, check=True).stdout)


def _auction(rules: dict, *bids: tuple[str, str], raspasy: int = 0) -> list[str]:
    """The problem codes of a deal's auction (after ``raspasy`` raspas deals), 3 players, dealer C first."""
    g = Game({"preset": "sochi", **rules})
    dealers = "CAB"
    for k in range(raspasy):
        g.deal(dealers[k % 3]).tricks(A=3, B=3, C=4)
    g.deal(dealers[raspasy % 3]).bids(*bids)
    return codes(fold(g.events)[1])


def test_elder_hand_holds_only_where_the_club_allows() -> None:
    # dealer C: A is the elder hand, B speaks second
    held = (("A", "6S"), ("B", "7S"), ("C", "pass"), ("A", "hold"), ("B", "8S"), ("A", "pass"))
    assert "hold-off" in _auction({}, *held)
    assert _auction({"elder_hand_holds": True}, *held) == ["game-unfinished"]  # accepted; the deal goes on
    assert "hold-not-elder" in _auction({"elder_hand_holds": True}, ("A", "6S"), ("B", "здесь"))
    assert "hold-nothing" in _auction({"elder_hand_holds": True}, ("A", "hold"))


def test_misere_is_a_first_word_and_its_bidder_says_nothing_more() -> None:
    assert "misere-not-first" in _auction({}, ("A", "6S"), ("B", "7S"), ("C", "pass"), ("A", "misere"))
    assert _auction({"misere_first_word": False}, ("A", "6S"), ("B", "7S"), ("C", "pass"),
                    ("A", "misere"), ("B", "pass")) == ["game-unfinished"]
    # A says misère; B outbids with 9S; A says nothing more, so after C's pass the auction is B's
    assert _auction({}, ("A", "misere"), ("B", "9S"), ("C", "pass")) == ["game-unfinished"]
    assert "auction-over" in _auction({}, ("A", "misere"), ("B", "9S"), ("C", "pass"), ("A", "pass"))


@pytest.mark.parametrize("exit_, run, bid, ok", [
    ("simple", 2, "6S", True), ("hard", 1, "6S", False), ("hard", 1, "7S", True), ("strict", 1, "6NT", False),
    ("strict", 1, "7S", True), ("strict", 2, "7NT", False), ("strict", 2, "8S", True), ("strict", 3, "8S", True),
    ("strict", 3, "misere", True), ("hard", 0, "6S", True),
])
def test_the_exit_from_raspasy(exit_: str, run: int, bid: str, ok: bool) -> None:
    got = _auction({"raspas_exit": exit_}, ({"A": "C", "B": "A", "C": "B"}["ABC"[(run + 1) % 3]], bid), raspasy=run)
    assert ("bid-below-raspas-exit" not in got) == ok, got


def test_an_allocation_that_does_not_add_up_is_named_at_its_line(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    g = Game({"preset": "sochi"})
    g.deal("C").contract("A", "6S").whists(("B", "pass"), ("C", "pass"))
    g.add("allocation", deal=1, player="A", pool=1, mountain=0, help={})
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in g.events))
    code, out, _ = run(capsys, "validate", str(log))
    assert code == 1 and out.startswith(f"{log}:6: seq 6: allocation: deal 1: allocation of A puts 1 points")


def _deal(g: Game, dealer: str, declarer: str, contract: str, taken: dict[str, int], replaces: bool = False,
          number: int | None = None) -> None:
    order = {"A": ("B", "C"), "B": ("C", "A"), "C": ("A", "B")}[declarer]
    if number is None:
        g.deal(dealer)
        number = g.deal_no
    else:
        g.add("deal_started", deal=number, dealer=dealer, replaces_voided=replaces)
    g.add("contract", deal=number, declarer=declarer, contract=contract)
    g.add("whist", deal=number, player=order[0], call="whist")
    g.add("whist", deal=number, player=order[1], call="pass")
    g.add("tricks", deal=number, taken=taken)


DEALS = [("C", "A", "6S", {"A": 6, "B": 3, "C": 1}), ("A", "B", "7H", {"A": 2, "B": 7, "C": 1}),
         ("B", "C", "6NT", {"A": 2, "B": 3, "C": 5}), ("C", "A", "8D", {"A": 8, "B": 1, "C": 1})]


@pytest.mark.parametrize("every, keep", [(32, 2048), (1, 1), (2, 1)])
def test_a_voided_deal_recorded_again_folds_in_its_place(every: int, keep: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from vistlog.events import tally as tally_module

    monkeypatch.setattr(tally_module.Tally, "EVERY", every)
    monkeypatch.setattr(tally_module.Items, "KEEP", keep)
    right = Game({"preset": "sochi", "game_end": "agreement"}, pool=10)
    for d in DEALS:
        _deal(right, *d)
    wrong = Game({"preset": "sochi", "game_end": "agreement"}, pool=10)
    _deal(wrong, *DEALS[0])
    _deal(wrong, "A", "B", "7H", {"A": 4, "B": 5, "C": 1})  # the scorekeeper's mistake in deal 2
    for d in DEALS[2:]:
        _deal(wrong, *d)
    wrong.add("deal_voided", deal=2, reason="the tricks were wrong")
    _deal(wrong, "A", "B", "7H", {"A": 2, "B": 7, "C": 1}, replaces=True, number=2)
    (good,), p1 = fold(right.events)
    (fixed,), p2 = fold(wrong.events)
    assert p1 == [] and p2 == []
    assert fixed.result == good.result and fixed.deals == 4
    live = [(e.deal, e.column, e.player, e.amount) for e in fixed.entries if not e.void]
    assert live == [(e.deal, e.column, e.player, e.amount) for e in good.entries]
    assert [r.number for r in fixed.records] == [1, 2, 2, 3, 4]


@pytest.mark.parametrize("event, code", [
    ({"type": "deal_started", "deal": 1, "dealer": "C"}, "deal-replace-flag-missing"),
    ({"type": "deal_started", "deal": 1, "dealer": "C", "replaces_voided": True, "_again": 1}, "deal-replaced-twice"),
    ({"type": "deal_started", "deal": 1, "dealer": "A", "replaces_voided": True}, "dealer-wrong"),
])
def test_recording_a_deal_again_is_checked(event: dict, code: str) -> None:
    g = Game({"preset": "sochi", "game_end": "agreement"}, pool=10)
    _deal(g, *DEALS[0])
    g.add("deal_voided", deal=1)
    if code == "deal-replaced-twice":
        _deal(g, "C", "A", "6S", {"A": 6, "B": 3, "C": 1}, replaces=True, number=1)
    g.add(event.pop("type"), **{k: v for k, v in event.items() if not k.startswith("_")})
    assert code in codes(fold(g.events)[1])
    g2 = Game({"preset": "sochi"}, pool=10)
    _deal(g2, *DEALS[0])
    g2.add("deal_started", deal=1, dealer="C", replaces_voided=True)
    assert "deal-not-voided" in codes(fold(g2.events)[1])


def test_the_text_sheet_fits_the_terminal_and_piped_keeps_a_line_per_player() -> None:
    from vistlog.projections.fold import run
    from vistlog.projections.render import sheet_text, width

    (res,) = [r for r in run(str(SAMPLES / "sochi-evening.jsonl")) if hasattr(r, "entries")]
    piped = sheet_text(res)
    assert max(width(line) for line in piped.splitlines()) > 150  # one line per player, as long as it is
    assert len(piped.splitlines()) == 1 + 1 + 3 + 1 + 3
    narrow = sheet_text(res, None, 100)
    assert max(width(line) for line in narrow.splitlines()[1:]) <= 100
    assert len(narrow.splitlines()) > len(piped.splitlines())
    assert "2.4.6.8.18.20" in "".join(narrow.split())  # wrapping only breaks lines


def test_one_name_per_game_kind_and_rules_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = Game({"preset": "sochi", "raspas_progression": [1, 2, 4], "raspas_exit": "strict"})
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in g.events))
    _, out, _ = run(capsys, "sheet", str(log))
    assert out.splitlines()[0] == "t · Preferans · sochi (2 options changed) · pool 20 · after deal 0"
    _, out, _ = run(capsys, "replay", str(log))  # the replay says the options in words
    assert out.splitlines()[0] == ("Game t: Preferans, rules sochi + raspas_progression: 1, 2, 4; "
                                   "raspas_exit: strict, pool of 20; players A, B, C")
    _, out, _ = run(capsys, "settle", str(SAMPLES / "solo-whist-evening.jsonl"))
    assert " · Solo Whist · " in out.splitlines()[0]
    _, out, _ = run(capsys, "settle", str(SAMPLES / "solo-whist-evening.jsonl"), "--format", "json")
    assert orjson.loads(out)["games"][0]["kind"] == "solo_whist"


def test_a_voided_deal_is_shown_in_running_form_struck_through() -> None:
    from vistlog.events.entries import Entry
    from vistlog.projections.render import running_parts

    entries = [Entry(1, "whists", "A", 4, "x", on="B"), Entry(2, "whists", "A", 16, "x", on="B", void=True),
               Entry(2, "whists", "A", 4, "x", on="B", void=True), Entry(3, "whists", "A", 12, "x", on="B")]
    assert running_parts(entries, "whists", "A", "B") == [("4", False), ("20", True), ("24", True), ("16", False)]


def test_the_drawn_whist_band_is_split_per_opponent_nearest_each() -> None:
    import xml.etree.ElementTree as ET

    from vistlog.projections.fold import run
    from vistlog.projections.render.drawing import preferans_svg

    for log, n in (("sochi-evening.jsonl", 3), ("classic-bombs.jsonl", 4)):
        (res,) = [r for r in run(str(SAMPLES / log)) if hasattr(r, "entries")]
        svg = ET.fromstring(preferans_svg(res, lang="ru"))
        splits = [e for e in svg.iter("{http://www.w3.org/2000/svg}line") if e.get("data-split")]
        assert len(splits) == n * (n - 2)  # n - 1 parts per player
        titles = [t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}title")]
        for p in res.players:
            for q in res.players:
                if p != q:
                    assert any(t.startswith(f"висты {p} на {q}: ") for t in titles)
