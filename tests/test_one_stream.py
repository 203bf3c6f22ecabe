"""Issue 59: one stream. The checker decides each event once and tells what it decided (verdicts); the read side
folds those and nothing else; trying a step leaves a game as it was (explicit snapshots); a game's own words."""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import vistlog
from tests.serbian_games import random_game as serbian_game
from tests.simulate import preferans_game, solo_whist_game
from vistlog import views
from vistlog.events.checker import LogChecker
from vistlog.events.codec import decode_obj
from vistlog.events.nextstep import next_step
from vistlog.events.verdicts import DealClosed, GameOpened, Rewound, Rows, Standing, Verdict
from vistlog.projections.fold import GameFold

from .conftest import ROOT
from .helpers import fold
from .test_properties import _with_voids


def _game(rng: random.Random, kind: str, voids: int) -> list[dict[str, Any]]:
    if kind == "serbian":
        return serbian_game(rng, 10)
    if kind == "solo_whist":
        return solo_whist_game(rng, deals=8)
    return _with_voids(rng, preferans_game(rng, rules={"preset": "sochi"}, pool=10, max_deals=16), voids)


def _told(evs: list[dict[str, Any]], detail: bool = True, eager: bool = False) -> list[Verdict]:
    told: list[Verdict] = []
    chk = LogChecker(told.append, detail=detail, eager=eager)
    for ev in evs:
        assert chk.check(decode_obj(dict(ev))) == [], ev
    chk.end()
    return told


@settings(max_examples=20)
@given(st.randoms(use_true_random=False), st.sampled_from(["preferans", "serbian", "solo_whist"]),
       st.integers(0, 3), st.booleans())
def test_the_stream_folded_is_the_sheet(rng: random.Random, kind: str, voids: int, eager: bool) -> None:
    """The rows told, with every withdrawal after a void applied, are the game's entries, and they add up to the
    totals its closing standing tells; each deal's record is told once (or amended), a game opened and closed
    once. A live (eager) checker tells the same sheet."""
    evs = _game(rng, kind, voids)
    told = _told(evs, eager=eager)
    (result,), problems = fold(evs)
    assert problems == []
    assert [type(v) for v in told].count(GameOpened) == 1 and isinstance(told[0], GameOpened)
    closing = [v for v in told if isinstance(v, Standing) and v.final]
    assert len(closing) == 1 and closing[0] is [v for v in told if isinstance(v, Standing)][-1]
    entries: list[Any] = []
    for v in told:
        if isinstance(v, Rows):
            entries += v.entries
        elif isinstance(v, Rewound):
            del entries[v.rows:]
    assert tuple(entries) == result.entries
    sums: dict[tuple[str, str, str | None], Any] = {}
    for e in entries:
        if not e.void:
            sums[e.column, e.player, e.on] = sums.get((e.column, e.player, e.on), 0) + e.amount
    t = closing[0].totals
    for (column, player, on), amount in sums.items():
        assert (t["whists"] if column == "whists" else t["soups"]).get((player, on), 0) == amount if on else \
            t.value(player, column) == amount
    numbers = [v.record.number for v in told if isinstance(v, DealClosed) and not v.amends]
    assert len(numbers) == len(result.records)


@settings(max_examples=15)
@given(st.randoms(use_true_random=False), st.sampled_from(["preferans", "serbian", "solo_whist"]))
def test_a_snapshot_restored_is_the_game_as_it_was(rng: random.Random, kind: str) -> None:
    """After any event of a random game, a snapshot taken, the next events applied on the state (up to a card,
    which is tried on a copy of the play, never on the game) and the snapshot restored: the state is as it was
    (its snapshot the same), and checking goes on as if nothing was tried."""
    evs = _game(rng, kind, 0)
    chk = LogChecker()
    game = evs[0]["game"]
    cut = rng.randrange(1, len(evs))
    for ev in evs[:cut]:
        assert chk.check(decode_obj(dict(ev))) == []
    state = chk.games.get(game)
    if state is None:
        return
    expected = repr(state.snapshot())
    before = state.snapshot()
    state.tally.trying = True  # the tally counts nothing tried (as the next step has it)
    for ev in evs[cut:cut + 6]:
        if ev["type"] in ("card_played", "claim", "discard") or state.check(decode_obj(dict(ev))):
            break  # card play is never tried: a card is tried on a copy of the play (Play.copy)
    state.restore(before)
    state.tally.trying = False
    assert repr(state.snapshot()) == expected
    for ev in evs[cut:]:
        assert chk.check(decode_obj(dict(ev))) == [], ev


def test_asking_the_next_step_leaves_every_state_alone() -> None:
    """The next step is asked between every two events of games of each kind: their snapshots before and after
    the question are equal (trying goes through ``snapshot``/``restore`` only)."""
    for kind in ("preferans", "serbian", "solo_whist"):
        evs = _game(random.Random(7), kind, 1)
        chk = LogChecker()
        for ev in evs:
            assert chk.check(decode_obj(dict(ev))) == []
            state = chk.games.get(ev["game"])
            if state is not None and not state.ended:
                seen = repr(state.snapshot())
                next_step(state)
                assert repr(state.snapshot()) == seen


def test_the_fold_is_no_write_side_class() -> None:
    """The read side's fold of a game is its own class, fed what the checker told."""
    from vistlog.events.tally import Tally

    assert not issubclass(GameFold, Tally) and GameFold.__mro__[1:] == (object,)


FORBIDDEN_RU = re.compile(r"пульк|пул[яиюе]\b|распас|\bгор[аыуе]\b", re.IGNORECASE)
FORBIDDEN_EN = re.compile(r"\bpool\b|\bmountain\b|raspas", re.IGNORECASE)


def test_a_solo_whist_game_says_no_preferans_word() -> None:
    """Issue 59 point 3: the Solo Whist sample's replay, sheet, settlement, HTML page, drawing and the pad's view,
    in Russian and in English, hold no «пулька», «пуля», «распасы», «гора» (pool, mountain, raspasy)."""
    (game,) = vistlog.read_games(ROOT / "samples" / "solo-whist-evening.jsonl")
    from vistlog.padview import game_json

    for lang, forbidden in (("ru", FORBIDDEN_RU), ("en", FORBIDDEN_EN)):
        said = {
            "replay": "\n".join(views.record_lines(game, lang)) + "\n".join(game.replay(lang=lang)),
            "sheet": views.sheet_text(game, lang=lang),
            "settlement": views.settlement_text(game.to_json(), lang),
            "html": views.html(game, lang=lang),
            "svg": views.svg(game, lang=lang),
            "pad": str(game_json(game, lang)["words"]),
        }
        for where, text in said.items():
            found = forbidden.findall(re.sub(r"<[^>]+>", " ", text))
            assert found == [], (lang, where, found[:5])
    assert views.game_words("solo_whist", "ru")["sheet"] == "Пункты"
    assert views.game_words("preferans", "ru")["sheet"] == "Пулька"
