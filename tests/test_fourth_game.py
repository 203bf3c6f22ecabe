"""A fourth game, Nullo, written only under ``tests/`` (:mod:`tests.nullo_events`, :mod:`tests.nullo_projections`):
it registers once per side and is checked, folded, settled, rendered (text, JSON, CSV, HTML), replayed and
recorded through the pad, with no line of vistlog that names it (issue 45)."""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import time
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

import vistlog
from vistlog import views
from vistlog.events.cards import GameKind
from vistlog.events.rules import PRESETS
from vistlog.events.variants import VARIANTS, find_variant, presets_of
from vistlog.projections.variants import READINGS, SCORINGS, reading_of

from . import nullo_projections
from .conftest import ROOT
from .nullo_events import NulloGame, NulloOptions

PLAYERS = ("Аня", "Боря", "Вова")


@pytest.fixture(autouse=True)
def nullo() -> Iterator[None]:
    """Nullo is registered for each test here and taken away after: no other test sees a fourth game."""
    nullo_projections.register_nullo()
    yield
    VARIANTS.pop("nullo")
    PRESETS.pop("nullo")
    READINGS.pop("nullo")
    GameKind.unregister("nullo")
TRICKS = ((1, 3, 6), (0, 4, 6), (2, 2, 6), (5, 5, 0), (3, 0, 7))
"""Each deal's tricks of Аня, Боря, Вова: Вова reaches the limit of 20 after the fifth."""


def _evening(game: str = "n1", deals: tuple[tuple[int, int, int], ...] = TRICKS, limit: int = 20
             ) -> list[dict[str, Any]]:
    rules = {"preset": "nullo", "trick_cost": 1}
    events: list[dict[str, Any]] = [{"type": "game_started", "game": game, "kind": "nullo",
                                     "players": list(PLAYERS), "pool": limit, "rules": rules}]
    dealers = itertools.cycle((*PLAYERS[2:], *PLAYERS[:2]))
    for n, taken in enumerate(deals, start=1):
        events.append({"type": "deal_started", "game": game, "deal": n, "dealer": next(dealers)})
        events.append({"type": "tricks", "game": game, "deal": n, "taken": dict(zip(PLAYERS, taken))})
    return [{"seq": i, **e} for i, e in enumerate(events, start=1)]


def test_nullo_registers_once_per_side() -> None:
    assert VARIANTS["nullo"].game is NulloGame and VARIANTS["nullo"].options is NulloOptions
    assert find_variant("nullo").title == "Nullo" and presets_of("nullo") == ("nullo",)
    assert PRESETS["nullo"].variant == "nullo" and "nullo" in views.preset_names()
    assert reading_of("nullo") is nullo_projections.READING and SCORINGS["nullo"].unit == "points"


def test_nullo_is_checked_by_its_own_rules() -> None:
    c = vistlog.Checker()
    c.push_all(_evening()[:2])
    assert [p.code for p in c.problems({"type": "bid", "game": "n1", "deal": 1, "player": "Аня", "bid": "6S"})] \
        == ["bid-unknown"]
    assert [p.code for p in c.problems({"type": "tricks", "game": "n1", "deal": 1,
                                        "taken": {"Аня": 1, "Боря": 3, "Вова": 5}})] == ["tricks-sum"]
    c.push({"type": "tricks", "game": "n1", "deal": 1, "taken": {"Аня": 1, "Боря": 3, "Вова": 6}})
    bad_rule = {"type": "game_started", "game": "n2", "kind": "nullo", "players": list(PLAYERS), "pool": 20,
                "rules": {"preset": "nullo", "trick_cost": 0}}
    assert [p.code for p in c.problems(bad_rule)] == ["rules-invalid"]
    for column in ("pool", "points"):  # Nullo's one column is its own, which no adjustment of the log names
        adjusted = {"type": "adjustment", "game": "n1", column: {"Аня": 2, "Боря": -2}, "reason": "agreed"}
        assert [(p.code, p.field) for p in c.problems(adjusted)] == [("column-undeclared", column)]
    assert c.table("n1").over is False


def test_nullo_is_folded_settled_and_ended_by_its_rules() -> None:
    (game,) = vistlog.read_games(_evening())
    assert game.sound and (game.kind, game.variant, game.preset) == ("nullo", "nullo", "nullo")
    assert [game.sheet().value(p, "penalty") for p in PLAYERS] == [-11, -14, -25]
    assert game.sheet().columns == ("penalty",)  # the column Nullo declares, which no other game has
    assert all("penalty" not in SCORINGS[name].writes for name in SCORINGS if name != "nullo")
    for column in ("pool", "points"):  # kept: none but its own
        with pytest.raises(vistlog.VistlogError, match=f"no column '{column}' \\(columns: penalty\\)"):
            game.sheet().value(PLAYERS[0], column)
    settlement = game.settlement()
    assert dict(settlement.exact) == {"Аня": 17, "Боря": 8, "Вова": -25} and settlement.zero_sum
    more = _evening(deals=(*TRICKS, (1, 1, 8)))
    (over,) = vistlog.read_games(more)
    assert [p.code for p in over.problems] == ["pools-closed"]  # the limit was reached: the sixth deal is refused


def test_nullo_is_rendered_as_text_json_csv_and_html() -> None:
    (game,) = vistlog.read_games(_evening())
    text = views.sheet_text(game)
    assert text.splitlines()[0].startswith("n1 · Nullo · nullo") and "-25" in text
    sheet = orjson.loads(orjson.dumps(views.sheet_json(game)))
    assert sheet["kind"] == "nullo" and sheet["after_deal"] == 5
    rows = list(csv.reader(io.StringIO(views.sheet_csv([game]))))
    assert rows == [["game", "after_deal", "player", "field", "value"], ["n1", "5", "Аня", "penalty", "-11"],
                    ["n1", "5", "Боря", "penalty", "-14"], ["n1", "5", "Вова", "penalty", "-25"]]
    page = views.html(game)
    assert page.lower().startswith("<!doctype html>") and "Nullo" in page and "<svg" in page
    settled = views.settlement_text(game.to_json())
    assert "Вова" in settled and "-25" in settled


def test_nullo_is_replayed_deal_by_deal() -> None:
    (game,) = vistlog.read_games(_evening())
    story = game.replay()
    assert story[0].startswith("Game n1: Nullo, rules nullo")
    assert sum(line.startswith("Deal ") for line in story) == 5
    assert any("Tricks: Аня 3, Боря 0, Вова 7" in line for line in story)
    skipped = game.analysis().skipped  # the open-hand analysis says why, in the game's own words
    assert skipped == tuple((n, "Nullo is not analysed (each for himself)") for n in range(1, 6))


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")  # the client starlette prefers
def test_nullo_is_recorded_through_the_pad(tmp_path: Path) -> None:
    """The pad's own application (in this process, where Nullo is registered) records a Nullo evening in the
    notation the page sends and shows its sheet."""
    from starlette.testclient import TestClient

    from vistlog.pad import Pad, make_app

    log = tmp_path / "nullo.jsonl"
    client = TestClient(make_app(Pad(log)), base_url="http://127.0.0.1:8765")
    write = {"X-Vistlog-Pad": "1"}
    assert "nullo" in client.get("/api/presets").json()["presets"]
    start = _evening()[0]
    assert client.post("/api/record", json={"events": [{k: v for k, v in start.items() if k != "seq"}]},
                       headers=write).status_code == 200
    assert client.get("/api/next", params={"game": "n1"}).json()["step"] == "dealer"  # anybody deals first
    offered = client.get("/api/next", params={"game": "n1", "line": "dealer Вова"}).json()
    assert offered["tricks"] and offered["contracts"] == [] and offered["takers"] == list(PLAYERS)  # play at once
    for deal, taken in enumerate(TRICKS, start=1):
        tricks = " ".join(f"{p} {n}" for p, n in zip(PLAYERS, taken))
        line = ("сдаёт Вова; " if deal == 1 else "") + "все-пас; " + tricks  # Nullo's word: no raspas
        answer = client.post("/api/record", json={"game": "n1", "line": line}, headers=write)
        assert answer.status_code == 200, answer.text
    refused = client.post("/api/record", json={"game": "n1", "line": "все-пас; Аня 1 Боря 1 Вова 8"}, headers=write)
    assert refused.status_code == 422 and [p["code"] for p in refused.json()["problems"]] == ["pools-closed"]
    state = client.get("/api/state", params={"game": "n1"}).json()
    assert state["game"]["variant"] == "nullo" and state["game"]["preset"] == "nullo"
    assert state["game"]["table"]["modes"] == ["nullo"] and state["game"]["table"]["grid"] == []  # its own form
    assert state["game"]["table"]["mode_info"]["nullo"] == {"all_pass": True, "contract": None, "label": "Нуль"}
    assert state["game"]["words"]["sheet"] == "Очки" and state["game"]["kind"] == "nullo"
    assert {d["summary"] for d in state["game"]["deal_list"]} == {"нуль"}  # its own deal mode, in its words
    assert state["game"]["columns"] == [] and state["game"]["points"]["players"] == list(PLAYERS)  # its one column
    assert all(line.startswith(("сдаёт", "все-пас")) and "распас" not in line for line in state["game"]["lines"])
    (game,) = vistlog.read_games(log)
    assert game.sound and dict(game.settlement().exact) == {"Аня": 17, "Боря": 8, "Вова": -25}
    assert vistlog.verify(log).status == "ok"


def test_nothing_outside_its_own_modules_names_nullo() -> None:
    """No line of vistlog changed for the fourth game: nothing under events/, projections/ or vistlog/ names it."""
    named = [str(path.relative_to(ROOT)) for folder in ("events", "projections", "vistlog")
             for path in (ROOT / folder).rglob("*.py")
             if path.relative_to(ROOT).parts[:2] not in (("vistlog", "events"), ("vistlog", "projections"))
             and "nullo" in path.read_text(encoding="utf-8").lower()]
    assert named == []


def test_every_game_has_every_part() -> None:
    """Every game the write side registers is known to the read side, with each part a view asks for: a layout
    that draws and writes its sheet, a teller, a counter."""
    from vistlog.projections.render.layouts import Layout

    for name in VARIANTS:
        reading = reading_of(name)
        assert reading.name == name and reading.scoring.unit in ("whists", "points")
        assert isinstance(reading.layout.check(), Layout) and callable(reading.teller.check())
        assert reading.moves in ("", None, *reading.scoring.writes) and callable(reading.counter.check())
        assert reading.closing is None or callable(reading.closing.check())


@contextlib.contextmanager
def _pad_in_this_process(log: Path) -> Iterator[str]:
    """The pad's server (uvicorn, as ``vistlog serve`` runs it) in a thread of this process, where Nullo is
    registered, on a free port of the loopback; its address."""
    import asyncio
    import socket
    import threading

    import uvicorn

    from vistlog.pad import Pad, make_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(make_app(Pad(log)), log_level="warning"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def test_nullo_is_recorded_by_taps_in_chromium(tmp_path: Path, browser: Any) -> None:
    """A Nullo evening tapped on the pad's page in headless Chromium: the page draws only what Nullo offers (its
    one mode, no contracts) and the log settles as the same deals written by hand."""
    from .test_pad import _page, _tap_deal

    log = tmp_path / "nullo.jsonl"
    start = {k: v for k, v in _evening(limit=30)[0].items() if k != "seq"}  # the game goes on after these deals
    vistlog.append(log, [start])
    with _pad_in_this_process(log) as url:
        page = _page(browser, url)
        page.wait_for_selector("#mode-buttons button[data-value='nullo']")
        assert page.locator("#mode-buttons button").count() == 1  # Nullo's form: everybody plays, no contract
        assert page.text_content("#mode-buttons button") == "Нуль"  # in its own words
        assert page.text_content("nav button[data-tab='sheet']") == "Очки"
        dealers = itertools.cycle((*PLAYERS[2:], *PLAYERS[:2]))
        for n, taken in enumerate(TRICKS):
            dealer = next(dealers)
            left = PLAYERS.index(dealer) + 1
            order = (*PLAYERS[left:], *PLAYERS[:left])  # from the dealer's left: the page's last counter follows
            tricks = {p: dict(zip(PLAYERS, taken))[p] for p in order}
            _tap_deal(page, ("nullo", None, None, [], tricks, ()), dealer=dealer if n == 0 else None)
        assert not page.errors
    (game,) = vistlog.read_games(log)
    assert game.sound and game.deals == 5
    assert dict(game.settlement().exact) == {"Аня": 17, "Боря": 8, "Вова": -25}


def test_a_nullo_log_is_valid_under_the_published_schema() -> None:
    """Issue 59 point 4: the schema vistlog publishes (``vistlog schema``) lists every registered game's options
    and kinds, so a Nullo log of its own kind is valid under it (checked by the jsonschema library), and a log of
    an unknown kind is not."""
    import jsonschema

    schema = orjson.loads(orjson.dumps(views.schema()))
    events = _evening()
    validator = jsonschema.Draft202012Validator(schema)
    for ev in events:
        assert list(validator.iter_errors({"v": 1, **ev})) == [], ev
    assert "trick_cost" in schema["$defs"]["game_started"]["properties"]["rules"]["properties"]
    assert list(validator.iter_errors({"v": 1, **events[0], "kind": "bridge"}))


def test_nullo_speaks_its_own_words() -> None:
    """Its replay and sheet, in Russian and English, say Nullo's words: its deals are no raspasy, its sheet is
    points (очки), and no Preferans word is left."""
    (game,) = vistlog.read_games(_evening())
    assert game.kind == "nullo"
    ru, en = "\n".join(game.replay(lang="ru")), "\n".join(game.replay(lang="en"))
    assert "Нуль: каждый берёт как можно меньше взяток" in ru and "Очки:" in ru
    assert "Nullo: each takes as few tricks as he can" in en and "Points:" in en
    for text in (ru, en, views.sheet_text(game, lang="ru"), views.sheet_text(game, lang="en")):
        low = text.lower()
        assert "распас" not in low and "raspas" not in low and "пульк" not in low, text


def test_the_files_nullo_is() -> None:
    """The whole fourth game is these files, and registering it is one call per side."""
    assert sorted(p.name for p in (ROOT / "tests").glob("*.py") if "nullo" in p.read_text(encoding="utf-8").lower()
                  and p.name.startswith("nullo")) == ["nullo_events.py", "nullo_projections.py"]
