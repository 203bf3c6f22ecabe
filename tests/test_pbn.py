"""PBN both ways, tested with a real PBN client: endplay (a bridge library that reads and writes PBN 2.1).

Our export must load in endplay with every board and hand; what endplay writes back must import to
the same game. Real PBN as people write it (comments, unknown tags and sections, the ``*`` that ends
a section) is read; a bridge deal is refused at its ``Deal`` line.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.simulate import solo_whist_game
from vistlog.api import dump, load
from vistlog.events.importers import SourceError
from vistlog.projections.importing import check_game

from .conftest import SAMPLES

endplay_pbn = pytest.importorskip("endplay.parsers.pbn", reason="endplay is in the test extra")


def _events(path: Path) -> list[dict]:
    return [orjson.loads(x) for x in path.read_bytes().splitlines()]


def _through_endplay(text: str) -> str:
    return endplay_pbn.dumps(endplay_pbn.load(io.StringIO(text)))


def _round_trip(events: list[dict], tmp_path: Path) -> None:
    text = dump(events, "pbn")
    boards = endplay_pbn.load(io.StringIO(text))
    deals = [e for e in events if e["type"] == "deal_started"]
    assert len(boards) == len(deals)
    players = next(e for e in events if e["type"] == "game_started")["players"]
    for board, deal in zip(boards, deals):
        assert board.info["North"] == players[0] and board.info["West"] == players[3]
        if deal.get("hands"):
            n = board.deal.north.to_pbn().replace("T", "10")
            assert sum(len(s) for s in board.deal.north.to_pbn().split(".")) == 13 and n
    again = _through_endplay(text)
    src = tmp_path / "ep.pbn"
    src.write_text(again, encoding="utf-8")
    (game,) = load(src, "pbn")
    assert check_game(game) == []
    assert dump(game.events, "pbn") == text  # endplay's file imports to the same game


def test_the_sample_evening_round_trips_through_endplay(tmp_path: Path) -> None:
    _round_trip(_events(SAMPLES / "solo-whist-evening.jsonl"), tmp_path)


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_card_level_games_round_trip_through_endplay(tmp_path_factory: pytest.TempPathFactory,
                                                            rng: random.Random) -> None:
    evs = solo_whist_game(rng, game="pbn-test", deals=4, card_play=1.0)
    _round_trip([{**e, "v": 1} for e in evs], tmp_path_factory.mktemp("pbn"))


REAL = """% PBN 2.1
% EXPORT
;a comment line
[Event "club night"]
[Site "?"] {a comment after a tag}
[Board "1"]
[West "Коля"]
[North "Маша"]
[East "Петя"]
[South "Оля"]
[Dealer "E"]
[Vulnerable "None"]
[Deal "N:- - - -"] { a comment
  across lines }
[Scoring "?"]
[Declarer ""]
[Contract "Pass"]
[Result ""]
[Annotator "someone"]
[VistlogAuction "S solo pass pass pass"]
[VistlogContract "solo"]
[VistlogDeclarer "S"]
[VistlogTurned "QH"]
[VistlogTricks "N:2 E:1 S:8 W:2"]
[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
N NT 6
N S 7
*
"""


def test_real_pbn_is_read_as_written(tmp_path: Path) -> None:
    src = tmp_path / "real.pbn"
    src.write_text(REAL, encoding="utf-8")
    (game,) = load(src, "pbn")
    assert check_game(game) == []
    kinds = [e["type"] for e in game.events]
    assert kinds == ["game_started", "deal_started", "bid", "bid", "bid", "bid", "contract", "tricks"]
    assert game.events[1]["_pbn"] == {"Annotator": "someone",
                                      "OptimumResultTable": "Declarer;Denomination\\2R;Result\\2R"}


def test_a_bridge_deal_is_refused_at_its_deal_line(tmp_path: Path) -> None:
    bridge = """[Event "bridge"]
[Board "1"]
[West "W"]
[North "N"]
[East "E"]
[South "S"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQ2.JT9.876.543 JT98.876.AKQ.AKQ 7654.AKQ.JT9.JT9 3.5432.5432.8762"]
[Declarer "S"]
[Contract "4S"]
[Result "10"]
[Auction "N"]
1C Pass 1S Pass
4S AP
"""
    src = tmp_path / "bridge.pbn"
    src.write_text(bridge, encoding="utf-8")
    with pytest.raises(SourceError, match=r"bridge\.pbn:9: a bridge deal \(Contract '4S'\)"):
        load(src, "pbn")
