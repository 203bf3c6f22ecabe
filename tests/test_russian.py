"""Issue 60 point 6 (in part): everything a person reads under ``--lang ru`` is Russian — no Latin letter in a line
(suits as ♠♣♦♥, ranks as Т К Д В, which the notation reads too), the participle agreeing with the contract
(«соло сыграно»), plural forms from CLDR's rules (Babel), Solo Whist's own «пункты»."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import vistlog
from vistlog.padview import game_json
from vistlog.projections.words import Words, plural

from .conftest import ROOT

LATIN = re.compile(r"[A-Za-z]")
WRONG = ("соло сыгран:", "соло сыгран,", "принятие сыгран:", "принятие сыгран,", "очков пули", "козырь H",
         "козырь S", "козырь C", "козырь D", " очки ")
SAMPLES = ("sochi-evening", "solo-whist-evening", "classic-bombs")
LOGS = (*(f"samples/{s}.jsonl" for s in SAMPLES), "tests/vectors/serbian/sr-1.jsonl")


@pytest.mark.parametrize("log", LOGS)
@pytest.mark.parametrize("command", [["replay"], ["replay", "--format", "lines"], ["sheet"], ["settle"], ["audit"],
                                     ["stats"]])
def test_every_text_output_in_russian_holds_no_latin_word(log: str, command: list[str]) -> None:
    """Each text output of the samples (and a Serbian game, its auction's words in Serbian Cyrillic) in Russian,
    but for the game's id and the players' names (what the users wrote): no Latin letter, none of the agreement
    slips the issue names."""
    (game,) = vistlog.read_games(ROOT / log)
    done = subprocess.run([sys.executable, "-m", "vistlog", *command, log, "--lang", "ru"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip(), done.stderr
    lines = [line for line in done.stdout.splitlines() if game.id not in line]
    for name in sorted(game.players, key=len, reverse=True):
        lines = [line.replace(name, "") for line in lines]
    assert [line for line in lines if LATIN.search(line)] == []
    assert [w for w in WRONG if w in done.stdout] == []


@pytest.mark.parametrize("sample", SAMPLES)
def test_the_pads_view_in_russian_holds_no_latin_word(sample: str) -> None:
    """The pad's view of a game in Russian: its deal lines, its deals as told, its words."""
    (game,) = vistlog.read_games(ROOT / "samples" / f"{sample}.jsonl")
    view = game_json(game, "ru")
    told = [*view["lines"], *(d["summary"] for d in view["deal_list"]), *view["words"].values(),
            *(line for block in view["deals"] for line in block)]
    assert [line for line in told if LATIN.search(line)] == []


def test_russian_plurals_and_cards() -> None:
    assert [plural(n, "очко", "очка", "очков") for n in (1, 2, 5, 11, 21, 22, 111)] == \
        ["очко", "очка", "очков", "очков", "очко", "очка", "очков"]
    w = Words("ru")
    assert w.reason("solo made: 4") == "соло сыграно: 4"
    assert w.reason("prop & cop made with 3 overtrick(s): 4 + 3 × 1") == \
        "предложение и принятие сыграно, 3 взятки сверх: 4 + 3 × 1"
    assert w.reason("help: 2 pool points × 10") == "помощь: 2 очка пули × 10"
    assert w.card("QH") == "Д♥" and w.card("AS") == "Т♠"


def test_the_notation_reads_russian_ranks(tmp_path: object) -> None:
    """A line with the turned card in Russian (Д♥) is read as the log spells it (QH)."""
    from vistlog.events.notation import parse_deal
    from vistlog.events.table import Table
    from vistlog.events.cards import GameKind

    t = Table("s", GameKind.SOLO_WHIST, 13, ("Маша", "Петя", "Оля", "Коля"), 1, "Петя", "Оля",
              ("Оля", "Коля", "Маша", "Петя"), None, (), False)
    events = parse_deal("открыта Д♥; Маша мизер; Маша 0, Петя 4, Оля 3", t)
    assert events[0]["turned"] == "QH"


def test_the_button_and_the_line_spell_a_contract_alike() -> None:
    """One spelling in Russian: what the pad's contract button says is what the deal's line writes (``7БК``,
    ``абонданс с козырем``), and the notation reads it back as the same contract."""
    from vistlog.events.cards import parse_bid
    from vistlog.views import contract_label, contract_word

    codes = [f"{n}{s}" for n in range(6, 11) for s in ("S", "C", "D", "H", "NT")]
    codes += ["misere", "prop", "cop", "solo", "abundance", "trump_abundance", "open_misere", "full_abundance"]
    for code in codes:
        assert contract_word(code, "ru") == contract_label(code, "ru"), code
        assert parse_bid(contract_word(code, "ru")).text == code, code
    assert contract_word("7NT", "ru") == "7БК" and contract_word("trump_abundance", "ru") == "абонданс с козырем"


def test_every_option_of_every_preset_has_its_russian_words() -> None:
    """The new-game form and ``vistlog rules --lang ru``: each option by a Russian name with its meaning in
    Russian, each value to choose from in words, each preset's description; the log's own keys kept as data."""
    from vistlog.views import rules_rows

    for preset in vistlog.preset_names():
        view = rules_rows(preset, "ru")
        assert not LATIN.search(view["description"]), preset
        for o in view["options"]:
            said = [o["label"], o["meaning"], o["accepts"], *(w for _, w in o["choices"] or [])]
            assert [s for s in said if LATIN.search(s)] == [], (preset, o["name"])
    done = subprocess.run([sys.executable, "-m", "vistlog", "rules", "sochi", "--lang", "ru"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert "один вистует *" not in done.stdout and "жлобский" in done.stdout and "single_whister" in done.stdout
