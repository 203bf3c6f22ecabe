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


@pytest.mark.parametrize("sample", SAMPLES)
@pytest.mark.parametrize("command", [["replay"], ["replay", "--format", "lines"], ["sheet"], ["settle"], ["audit"]])
def test_every_text_output_in_russian_holds_no_latin_word(sample: str, command: list[str]) -> None:
    """Each text output of the samples in Russian, but for its header (the game's id and its preset's name, the
    log's own identifiers): no Latin letter, none of the agreement slips the issue names."""
    log = ROOT / "samples" / f"{sample}.jsonl"
    (game,) = vistlog.read_games(log)
    done = subprocess.run([sys.executable, "-m", "vistlog", *command, str(log), "--lang", "ru"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip(), done.stderr
    lines = [line for line in done.stdout.splitlines() if game.id not in line]
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
