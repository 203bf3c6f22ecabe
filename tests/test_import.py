"""Import and export: round trips, card-level records, the score pad, gchet saves, big batches."""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vistlog.events.importers import EXPORTERS
from vistlog.events.importers.jsonl import derive_tricks, read as read_jsonl
from vistlog.events.log import Problem, read_events, verify
from tests.simulate import preferans_game, solo_whist_game
from vistlog.projections.audit import audit
from vistlog.projections.fold import GameResult, run
from vistlog.projections.importing import import_sources

from .conftest import SAMPLES
from .helpers import sheet


def result(log: Path) -> GameResult:
    items = list(run(str(log)))
    assert not [str(i) for i in items if isinstance(i, Problem)]
    return next(i for i in items if isinstance(i, GameResult))


def events_of(log: Path) -> list[dict[str, Any]]:
    from vistlog.events.codec import unstructure

    return [unstructure(e) for _, e in read_events(str(log)) if not isinstance(e, Problem)]


@pytest.mark.parametrize("sample", ["classic-bombs.jsonl", "solo-whist-evening.jsonl", "disputed-sheet.jsonl"])
def test_csv_log_csv_gives_the_same_rows(tmp_path: Path, sample: str) -> None:
    from vistlog.events.importers import ImportedGame

    evs = events_of(SAMPLES / sample)
    first = EXPORTERS["csv"](derive_tricks(ImportedGame("g", evs, "x")).events)
    src = tmp_path / "protocol.csv"
    src.write_text(first, encoding="utf-8")
    log = tmp_path / "log.jsonl"
    out = import_sources("csv", [str(src)], str(log))
    assert out.exit_code == 0 and len(out.imported) == 1
    assert EXPORTERS["csv"](events_of(log)) == first
    assert result(log).result == result(SAMPLES / sample).result
    assert verify(str(log)).status == "ok"


def test_csv_recorded_columns_become_checkpoints_for_audit(tmp_path: Path) -> None:
    src = tmp_path / "club.csv"
    src.write_text(
        "# game: club\n# kind: preferans\n# players: Аня, Боря, Вова\n# pool: 20\n# rules: {\"preset\": \"sochi\"}\n"
        "deal,dealer,declarer,contract,flags,whist:Аня,whist:Боря,whist:Вова,tricks:Аня,tricks:Боря,tricks:Вова,"
        "pool:Аня,mountain:Боря,whists:Вова:Аня\n"
        "1,Вова,Аня,6C,,,whist,pass,6,3,1,2,,4\n"
        "2,Аня,,,,,,,0,4,6,3,5,\n", encoding="utf-8")
    log = tmp_path / "club.jsonl"
    assert import_sources("csv", [str(src)], str(log)).exit_code == 0
    rep = audit(result(log))
    # deal 1: Боря whists alone (greedy): 4 tricks × 2 = 8 on Аня; Вова wrote nothing; deal 2: Боря 4
    assert [(m.claim.after_deal, m.claim.label, m.claim.value, m.computed) for m in rep.mismatches] == [
        (1, "whists of Вова on Аня", 4, 0), (2, "mountain of Боря", 5, 4)]


def test_pbn_log_pbn_gives_the_same_deals(tmp_path: Path) -> None:
    first = EXPORTERS["pbn"](events_of(SAMPLES / "solo-whist-evening.jsonl"))
    assert "[Play " in first and '[Deal "N:- - - -"]' in first and '[Deal "N:A' in first
    src = tmp_path / "solo.pbn"
    src.write_text(first, encoding="utf-8")
    log = tmp_path / "solo.jsonl"
    assert import_sources("pbn", [str(src)], str(log)).exit_code == 0
    assert EXPORTERS["pbn"](events_of(log)) == first
    assert result(log).result == result(SAMPLES / "solo-whist-evening.jsonl").result


def _server_log(rng: random.Random, solo: bool) -> list[dict[str, Any]]:
    """What an online server writes: every card, no tricks events, no seq."""
    evs = (solo_whist_game(rng, deals=3, card_play=1.0) if solo else
           preferans_game(rng, players=("A", "B", "C"), rules={"preset": "sochi"}, max_deals=3, card_play=1.0))
    out = []
    for e in evs:
        if e["type"] == "tricks" and "last" not in e:
            continue
        e = dict(e)
        e.pop("seq")
        out.append(e)
    return out


@settings(max_examples=20)
@given(st.randoms(use_true_random=False), st.booleans())
def test_jsonl_derives_every_trick_from_the_cards(rng: random.Random, solo: bool) -> None:
    evs = _server_log(rng, solo)
    data = b"\n".join(orjson.dumps(e) for e in evs)
    (game,) = read_jsonl("online.jsonl", data)
    derived = [e for e in game.events if e["type"] == "tricks" and e["_source"] == {"derived": "from the cards"}]
    played = {e["deal"] for e in evs if e["type"] == "card_played"}
    assert {e["deal"] for e in derived} == played
    for e in derived:
        assert sum(e["taken"].values()) == (13 if solo else 10)


@settings(max_examples=20)
@given(st.randoms(use_true_random=False), st.data())
def test_a_planted_revoke_is_refused_with_its_trick_named(tmp_path_factory: pytest.TempPathFactory,
                                                         rng: random.Random, data: st.DataObject) -> None:
    evs = _server_log(rng, False)
    contract_deals = {e["deal"] for e in evs if e["type"] == "contract"}
    by_deal: dict[int, list[int]] = {}
    for i, e in enumerate(evs):
        if e["type"] == "card_played" and e["deal"] in contract_deals:
            by_deal.setdefault(e["deal"], []).append(i)
    candidates = []
    for idx in by_deal.values():
        for t in range(0, len(idx), 3):
            lead, *rest = [evs[i] for i in idx[t:t + 3]]
            for j, f in zip(idx[t + 1:t + 3], rest):
                if f["card"][-1] == lead["card"][-1]:
                    later = [evs[k]["card"] for k in idx[t + 3:] if evs[k]["player"] == f["player"]
                             and evs[k]["card"][-1] != lead["card"][-1]]
                    if later:
                        candidates.append((j, later[0], t // 3 + 1))
    if not candidates:
        return
    j, card, trick = data.draw(st.sampled_from(candidates))
    bad = [dict(e) for e in evs]
    bad[j]["card"] = card
    src = tmp_path_factory.mktemp("r") / "online.jsonl"
    src.write_bytes(b"\n".join(orjson.dumps(e) for e in bad))
    out = import_sources("jsonl", [str(src)], str(src.with_suffix(".log")))
    (problems,) = out.refused.values()
    assert f"trick {trick}:" in problems[0] and card in problems[0] and "must follow" in problems[0]
    assert not src.with_suffix(".log").exists() or not src.with_suffix(".log").read_bytes()


def test_score_pad_backup_settles_as_that_app_does(tmp_path: Path) -> None:
    backup = {
        "schemaVersion": 1, "updatedAt": "",
        "config": {"schemaVersion": 1, "createdAt": "2026-01-01T00:00:00Z", "poolTarget": 10,
                   "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}],
                   "euroCentsPerCredit": 1, "animations": True},
        "events": [
            {"id": "1", "createdAt": "x", "type": "normal", "declarerId": "a", "level": 6, "suit": "picche",
             "defenderChoices": {"b": "pass", "c": "vist"}, "tricks": {"a": 6, "b": 0, "c": 4}},
            {"id": "2", "createdAt": "x", "type": "mizer", "declarerId": "b", "declarerTricks": 1,
             "tricks": {"a": 5, "b": 1, "c": 4}},
            {"id": "3", "createdAt": "x", "type": "raspasy", "tricks": {"a": 0, "b": 4, "c": 6}},
            {"id": "4", "createdAt": "x", "type": "manual",
             "adjustments": [{"kind": "credit", "fromId": "c", "againstId": "b", "amount": 5}]},
        ],
        "undone": [{"id": "5", "createdAt": "x", "type": "raspasy", "tricks": {"a": 10, "b": 0, "c": 0}}],
    }
    src = tmp_path / "preferans-backup-2026-01-01.json"
    src.write_bytes(orjson.dumps(backup))
    log = tmp_path / "pad.jsonl"
    assert import_sources("preferans-score", [str(src)], str(log)).exit_code == 0
    res = result(log)
    # worked by hand: A 6♠ made (pool 2), C whists alone: 4 tricks × 2 = 8 on A; B's misère takes 1
    # trick: mountain 10; raspas ×1: A none (pool +1), B 4, C 6; C credits 5 on B. Pool A 3; mountain
    # B 14, C 6. The pad settles mountains and whists only (pool_in_settlement: false), a point shared
    # by the 2 opponents: D = (0, -140, -60); A = (140 + 60)/2 - 8 = 92, B = (-140 - 80)/2 - 5 = -115,
    # C = (-60 + 80)/2 + 8 + 5 = 23.
    assert res.result == {"A": 92, "B": -115, "C": 23}
    assert res.money == {"A": "0.92", "B": "-1.15", "C": "0.23"}
    assert all(e["_source"]["file"] == str(src) for e in events_of(log))


FIXTURES = Path(__file__).parent / "fixtures"
GCHET = FIXTURES / "gchet" / "leningrad-3-rounds.json"


def _gchet_save(data: str) -> bytes:
    """A save in the exact shape gchet's ``internal/storage/store.go`` writes: ``{"sha256": hex of
    data's bytes, "data": <raw JSON object>}``, ``data`` as Go's ``json.Marshal`` writes it (compact)."""
    return b'{"sha256":"' + hashlib.sha256(data.encode()).hexdigest().encode() + b'","data":' + data.encode() + b"}"


def _gchet_data() -> str:
    text = GCHET.read_text(encoding="utf-8")
    return text[text.index('"data":') + len('"data":'):-1].rstrip("}\n") + "}"


def test_a_real_gchet_save_imports_and_the_programs_own_sheet_is_right(tmp_path: Path) -> None:
    """The fixture was made in the shape gchet writes (tests/fixtures/README.md): each round's own
    changes in ``history``, the last round rebuilt in full, and audit finds the program right."""
    assert _gchet_save(_gchet_data()) == GCHET.read_bytes().rstrip(b"\n")  # the helper writes what gchet writes
    log = tmp_path / "g.jsonl"
    notes: list[str] = []
    assert import_sources("gchet", [str(GCHET)], str(log), warn=notes.append).exit_code == 0
    res = result(log)
    rep = audit(res)
    assert rep.ok and rep.checked == 9
    assert sheet(res) == {"Лена": {"pool": 2, "whists": {"Миша": 16, "Коля": 24}}, "Миша": {"pool": 2,
                          "whists": {"Лена": 16}}, "Коля": {"pool": 4}}
    assert any("3 rounds" in n or "1 deal(s)" in n for n in notes)


def test_a_gchet_save_taken_mid_deal_imports_the_finished_rounds_and_names_the_rest(tmp_path: Path) -> None:
    data = _gchet_data().replace('"stage":"round"', '"stage":"play"').replace('"round":3,"turn"', '"round":4,"turn"')
    src = tmp_path / "mid.json"
    src.write_bytes(_gchet_save(data))
    notes: list[str] = []
    log = tmp_path / "g.jsonl"
    assert import_sources("gchet", [str(src)], str(log), warn=notes.append).exit_code == 0
    assert any("during round 4 (stage play)" in n and "left out" in n for n in notes)
    res = result(log)
    assert res.deals == 0 and audit(res).ok  # three rounds as their own changes add up to the program's totals


def test_a_gchet_save_edited_after_hashing_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "edited.json"
    src.write_bytes(GCHET.read_bytes().replace(b'"target":30', b'"target":20'))
    out = import_sources("gchet", [str(src)], str(tmp_path / "g.jsonl"))
    assert out.exit_code == 2 and "sha256 does not match" in out.unreadable[0]
    assert not (tmp_path / "g.jsonl").exists()


@pytest.mark.parametrize("name, result_, money", [
    ("closed-3p", {"Anna": 135, "Bruno": -215, "Carla": 80}, {"Anna": "13.50", "Bruno": "-21.50", "Carla": "8.00"}),
    ("unfinished-3p", {"Anna": 156, "Bruno": -225, "Carla": 69},
     {"Anna": "15.60", "Bruno": "-22.50", "Carla": "6.90"}),
])
def test_real_score_pad_backups_settle_as_the_app_shows(tmp_path: Path, name: str, result_: dict[str, int],
                                                        money: dict[str, str]) -> None:
    """The app's own figures (tests/fixtures/README.md): it settles mountains and whists only, and
    scores a played polvist for half the obligation; the importer sets both options."""
    log = tmp_path / "pad.jsonl"
    assert import_sources("preferans-score", [str(FIXTURES / "preferans-score" / f"{name}.json")],
                          str(log)).exit_code == 0
    res = result(log)
    assert res.result == result_ and res.money == money


def test_with_the_pool_counted_the_unfinished_backup_settles_otherwise(tmp_path: Path) -> None:
    log = tmp_path / "pad.jsonl"
    import_sources("preferans-score", [str(FIXTURES / "preferans-score" / "unfinished-3p.json")], str(log))
    lines = log.read_bytes().splitlines()
    start = orjson.loads(lines[0])
    start["rules"]["pool_in_settlement"] = True
    del start["_chain"]
    other = tmp_path / "counted.jsonl"
    other.write_bytes(b"\n".join([orjson.dumps(start)] + [orjson.dumps({k: v for k, v in orjson.loads(x).items()
                                                                         if k != "_chain"}) for x in lines[1:]]))
    counted = result(other)
    assert counted.result != {"Anna": 156, "Bruno": -225, "Carla": 69}
    assert sum(counted.result.values()) == 0


def test_a_batch_of_200_files_with_3_broken_imports_197_and_names_the_3(tmp_path: Path) -> None:
    rng = random.Random(11)
    folder = tmp_path / "server"
    folder.mkdir()
    broken = {17, 88, 150}
    for k in range(200):
        evs = preferans_game(rng, players=("A", "B", "C"), rules={"preset": "classic"}, game=f"t{k:03d}",
                             max_deals=2, card_play=0.5)
        if k == 17:
            evs[3]["player"] = "Nobody"
        lines = [orjson.dumps({x: y for x, y in e.items() if x != "seq"}) for e in evs]
        if k == 88:
            lines[2] = b'{"type": "deal_started", "game": '
        if k == 150:
            lines = [b"\x89PNG not a log"]
        (folder / f"t{k:03d}.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    log = tmp_path / "all.jsonl"
    out = import_sources("jsonl", sorted(str(p) for p in folder.iterdir()), str(log))
    assert len(out.imported) == 197
    named = {k.split(": game")[0] for k in out.refused} | {u.split(":")[0] for u in out.unreadable}
    assert {Path(p).name for p in named} == {f"t{k:03d}.jsonl" for k in broken}
    assert verify(str(log)).status == "ok"
    games = [i for i in run(str(log)) if isinstance(i, GameResult)]
    assert len(games) == 197 and all(sum(g.result.values(), Fraction(0)) == 0 for g in games)
    assert all("_source" in e.extensions for _, e in read_events(str(log)))


def test_the_docs_example_for_server_authors_is_legal(tmp_path: Path) -> None:
    from .conftest import ROOT

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = text.split("A complete 3-player\nSochi deal:", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if line.strip()]
    assert len(lines) == 12
    src = tmp_path / "srv.jsonl"
    src.write_text("\n".join(lines) + '\n{"type":"game_ended","game":"srv-81723"}\n', encoding="utf-8")
    out = import_sources("jsonl", [str(src)], str(tmp_path / "log.jsonl"))
    (problems,) = out.refused.values()
    assert len(problems) == 1 and "deal 1 has no tricks" in problems[0]


@pytest.mark.parametrize("fmt, data, message", [
    ("csv", b"garbage,csv\n1,2\n",
     "x:1: not a protocol header (missing deal, dealer, declarer, contract; found garbage, csv)"),
    ("csv", b"# kind: preferans\n# bad line\ndeal,dealer,declarer,contract\n", "x:2: a header line is '# key: value'"),
    ("csv", b"\xff\xfe", "x: not UTF-8 text"),
    ("preferans-score", b'{"not": "score"}', "x: not a preferans-score backup"),
    ("pbn", b'[Event "x"]\n[VistlogContract "solo"]\n', "x: the first board must name North, East, South and West"),
    ("pbn", b'[Event "x"]\n[Contract "3NT"]\n', "x:1: a bridge deal (Contract '3NT')"),
    ("gchet", b"[]", "x: not a gchet save"),
])
def test_a_source_that_is_not_its_format_is_one_message(fmt: str, data: bytes, message: str) -> None:
    from vistlog.events.importers import IMPORTERS, SourceError

    with pytest.raises(SourceError) as err:
        IMPORTERS[fmt]("x", data)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)
