"""What a club player sees is the same however it is asked for (issue 30)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import Game

ROOT = Path(__file__).resolve().parents[1]
LOGS = [ROOT / "samples" / "disputed-sheet.jsonl", ROOT / "samples" / "solo-whist-evening.jsonl"]


def _run(*args: str) -> tuple[int, str, set[str]]:
    done = subprocess.run([sys.executable, "-m", "vistlog", *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, set(done.stderr.splitlines())


@pytest.mark.parametrize("command", ["validate", "settle", "audit"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_worker_count_changes_nothing_a_single_log_prints(command: str, fmt: str, tmp_path: Path) -> None:
    """Item 3: ``--jobs`` changes the speed, not the form: one log prints the one-log form whatever it says."""
    import vistlog
    from vistlog.events.codec import unstructure

    two = tmp_path / "two-games.jsonl"  # what stands between two games is part of the form
    vistlog.append(two, [{k: v for k, v in unstructure(e).items() if k not in ("seq", "_chain")}
                         for log in LOGS for e in vistlog.game_events(log)])
    for log in [*LOGS, two]:
        alone = _run(command, str(log), "--format", fmt)
        for jobs in ("1", "2"):
            assert _run(command, str(log), "--format", fmt, "--jobs", jobs) == alone, (log.name, jobs)
    if fmt == "json" and command != "validate":
        assert alone[1].startswith('{\n  "games"')


def test_the_html_page_shows_the_record_that_stands_as_standing_with_its_own_entries() -> None:
    """Item 1: a deal voided and recorded again: the voided record struck with its entries, the one that
    stands not struck, with its own only."""
    import re

    import vistlog

    (game,) = vistlog.read_games(ROOT / "samples" / "corrected-deal.jsonl")
    page = vistlog.views.html(game, lang="en")
    rows = [r for r in re.findall(r"<tr[^>]*>.*?</tr>", page, re.S) if '<td class="num">2<' in r]
    assert len(rows) == 2
    voided, standing = rows
    assert voided.startswith('<tr class="void">') and "7♠ failed" in voided and "without three" not in voided
    assert standing.startswith("<tr>") and "given up without three" in standing and "failed" not in standing
    assert ">voided<" in voided and ">stands (recorded again)<" in standing


def test_a_pbn_comment_after_a_tag_on_its_line_is_a_comment(tmp_path: Path) -> None:
    """Item 9: ``[Event "x"] ; a comment``, as in the PBN standard's own examples."""
    import vistlog

    (game,) = vistlog.read_games(ROOT / "samples" / "solo-whist-evening.jsonl")
    text = vistlog.dump(vistlog.game_events(ROOT / "samples" / "solo-whist-evening.jsonl"), "pbn")
    commented = "\n".join(line + ' ; "a comment", as the standard writes them' if line.startswith("[") else line
                          for line in text.splitlines()) + "\n"
    assert commented.count("; \"a comment\"") > 10
    plain, with_comments = tmp_path / "plain.pbn", tmp_path / "commented.pbn"
    plain.write_text(text, encoding="utf-8")
    with_comments.write_text(commented, encoding="utf-8")
    def events(path: Path) -> list[list[dict[str, object]]]:
        return [[{k: v for k, v in ev.items() if k != "_source"} for ev in g.events] for g in vistlog.load(path, "pbn")]

    assert events(with_comments) == events(plain)
    assert game.started


def test_the_drawing_puts_the_mountain_nearest_the_centre_then_the_pool_then_the_whists(tmp_path: Path) -> None:
    """Item 2: as on the paper sheet: гора nearest the centre, then пуля, then the whists; a long game id
    is shortened to fit the header (whole in its tooltip); a struck number stays dark enough to read."""
    import math
    import re
    import xml.etree.ElementTree as ET

    import vistlog
    from vistlog.projections.render import drawing

    svg_ns = "{http://www.w3.org/2000/svg}"
    for log in ("sochi-evening.jsonl", "classic-bombs.jsonl"):
        (game,) = vistlog.read_games(ROOT / "samples" / log)
        svg = ET.fromstring(vistlog.views.svg(game))
        centre = (drawing.SIZE / 2 + drawing.PAD, drawing.SIZE / 2 + drawing.TOP)
        for player in game.players:
            reach = {}
            for poly in svg.iter(f"{svg_ns}polygon"):
                if poly.get("data-player") == player:
                    points = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
                    reach[poly.get("data-band")] = min(math.dist(centre, p) for p in points)
            assert reach["mountain"] < reach["pool"] < reach["whists"] < reach["name"], (log, player, reach)
    (game,) = vistlog.read_games(ROOT / "samples" / "corrected-deal.jsonl")
    struck = re.findall(r'<tspan text-decoration="line-through" fill="#([0-9a-f]{6})">', vistlog.views.svg(game))
    assert struck and all(sum(int(c[i:i + 2], 16) for i in (0, 2, 4)) < 3 * 0x80 for c in struck)  # dark
    long_id = "preferans-score-2026-11-28T183000.000Z-" + "x" * 80
    g = Game("sochi", players=("Аня", "Боря", "Вова"), game=long_id)
    svg = ET.fromstring(vistlog.views.svg(next(vistlog.read_games(_log_of(g, tmp_path)))))
    head = next(t for t in svg.iter(f"{svg_ns}text") if t.find(f"{svg_ns}title") is not None
                and t.find(f"{svg_ns}title").text == long_id)  # type: ignore[union-attr]
    shown = "".join(head.itertext())[len(long_id):]
    assert shown.endswith("…") and 0.6 * 18 * len(shown) < drawing.SIZE + 2 * drawing.PAD


def _log_of(game: Game, folder: Path) -> Path:
    import orjson

    path = folder / "g.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in game.events))
    return path


def test_stats_never_add_whists_and_points(tmp_path: Path) -> None:
    """Item 4: one person in a Preferans game and in a Solo Whist game: a total per scoring, each with its
    unit, and no sum of the two."""
    import orjson

    aliases = tmp_path / "names.csv"
    aliases.write_text("name,alias\nАня,Маша\n", encoding="utf-8")
    logs = [str(ROOT / "samples" / "sochi-evening.jsonl"), str(ROOT / "samples" / "solo-whist-evening.jsonl")]
    code, out, _ = _run("stats", *logs, "--alias", str(aliases), "--format", "json")
    assert code == 0
    anya = orjson.loads(out)["players"]["Аня"]
    assert set(anya["by_kind"]) == {"preferans", "solo_whist"} and "total" not in anya
    assert anya["by_kind"]["preferans"] == {"unit": "whists", "games": 1, "deals": 43, "total": "-1732/3",
                                            "average": "-1732/3", "money": "-57.73"}
    assert anya["by_kind"]["solo_whist"]["unit"] == "points" and anya["by_kind"]["solo_whist"]["total"] == "43"
    _, text, _ = _run("stats", *logs, "--alias", str(aliases), "--lang", "en")
    lines = text.splitlines()
    pref, solo = lines.index("Preferans (whists)"), lines.index("Solo Whist (points)")
    assert any(line.startswith("Аня ") and "-577 1/3" in line for line in lines[pref:solo])
    assert any(line.startswith("Аня ") and "+43" in line for line in lines[solo:])
    _, csv_text, _ = _run("stats", *logs, "--alias", str(aliases), "--format", "csv")
    rows = [r.split(",") for r in csv_text.splitlines()]
    assert rows[0][:3] == ["player", "scoring", "unit"]
    assert sorted(r[1] for r in rows if r[0] == "Аня") == ["preferans", "solo_whist"]


def test_one_spelling_of_an_exact_value_in_every_human_output() -> None:
    """Item 5: ``+45 1/3`` in text, HTML, SVG and stats alike; JSON keeps its exact strings."""
    import re

    log = str(ROOT / "samples" / "sochi-evening.jsonl")
    improper = re.compile(r"(?<![\d/])-?\d{2,}/\d+")  # 136/3 and not 1/3
    for args in (("settle", log), ("sheet", log), ("sheet", log, "--format", "html"), ("replay", log),
                 ("sheet", log, "--format", "svg"), ("stats", str(ROOT / "samples"))):
        _, out, _ = _run(*args, "--lang", "en")
        assert not improper.findall(re.sub(r"<[^>]+>", " ", out)), args
    _, page, _ = _run("sheet", log, "--format", "html")
    assert "-577 1/3" in page and "+462 2/3" in page
    _, js, _ = _run("settle", log, "--format", "json")
    assert '"-1732/3"' in js



EXPECTED_LATIN = {"sochi", "classic", "encyclopedia", "rostov", "leningrad", "serbian", "vistlog"}


def _words_of(out: str) -> str:
    import re

    out = re.sub(r"<style>.*?</style>", " ", out, flags=re.S)
    out = re.sub(r"<[^>]+>", " ", out)
    return re.sub(r"&\w+;", " ", out)


@pytest.mark.parametrize("log", ["sochi-evening.jsonl", "corrected-deal.jsonl", "classic-bombs.jsonl",
                                 "disputed-sheet.jsonl", "solo-whist-evening.jsonl"])
def test_each_human_output_speaks_one_language(log: str) -> None:
    """Item 6: with ``--lang ru`` no English word is left, with ``--lang en`` no Russian one (names, game ids
    and preset names are the players' own)."""
    import re

    import vistlog

    path = ROOT / "samples" / log
    own = {w for g in vistlog.read_games(path) for name in (*g.players, g.id) for w in re.findall(r"\w+", name)}
    for args in (("replay",), ("sheet",), ("settle",), ("audit",), ("sheet", "--format", "svg"),
                 ("sheet", "--format", "html")):
        for lang, foreign in (("ru", r"[A-Za-z]{3,}"), ("en", r"[А-Яа-яЁё]+")):
            _, out, _ = _run(args[0], str(path), *args[1:], "--lang", lang)
            left = set(re.findall(foreign, _words_of(out))) - own - EXPECTED_LATIN
            assert not left, (args, lang, sorted(left))


def test_every_reason_the_scoring_writes_reads_in_russian() -> None:
    """Item 6: every reason of every vector and sample said in Russian leaves no English word (only the
    Serbian game's own words, contracts and player names)."""
    import re

    from vistlog.events.games.serbian.game import SERBIAN_NAMES
    from vistlog.projections.fold import GameResult, run
    from vistlog.projections.words import Words

    ru = Words("ru")
    serbian = {*SERBIAN_NAMES.values(), "igra", "kontra", "betl", "refa", "bula", "nosilac", "dalje", "zovem"}
    seen = 0
    for path in sorted([*(ROOT / "tests" / "vectors").rglob("*.jsonl"), *(ROOT / "samples").glob("*.jsonl")]):
        for res in run(str(path)):
            if not isinstance(res, GameResult):
                continue
            for e in res.entries:
                said = ru.reason(e.reason)
                for name in res.players:
                    said = said.replace(name, " ")
                left = set(re.findall(r"[A-Za-z]{2,}", said)) - serbian - {"V"}
                assert not left, (path.name, e.reason, said)
                seen += 1
    assert seen > 400


def test_errors_say_what_to_do(tmp_path: Path) -> None:
    """Item 7: a misspelt field is an unknown field with the one it was meant for; so are an event type
    and a game id; a deal after the last pool closed names game_ended."""
    import orjson

    import vistlog

    start = {"v": 1, "seq": 1, "type": "game_started", "game": "g", "kind": "preferans", "players": ["A", "B", "C"],
             "pool": 2, "rules": {"preset": "sochi"}}
    log = tmp_path / "typo.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in (
        start, {"v": 1, "seq": 2, "type": "deal_started", "game": "g", "deal": 1, "dealr": "A"},
        {"v": 1, "seq": 3, "type": "deal_strated", "game": "g", "deal": 1, "dealer": "A"})))
    code, out, _ = _run("validate", str(log))
    assert code == 1
    assert f"{log}:2: seq 2: dealr: unknown field dealr; did you mean dealer?" in out
    assert "'deal_strated' is not an event type; did you mean deal_started?" in out
    code, _, err = _run("settle", str(ROOT / "samples" / "sochi-evening.jsonl"), "--game", "sochi-2026-11-2")
    assert code == 2 and any("did you mean sochi-2026-11-28?" in line for line in err)
    g = Game("sochi", pool=2)
    for n, dealer in enumerate("CAB", start=1):  # each player makes 6♠ without play and closes his pool of 2
        first, second, third = "ABC"[(n - 1) % 3], "ABC"[n % 3], "ABC"[(n + 1) % 3]
        g.add("deal_started", deal=n, dealer=dealer).add("bid", deal=n, player=first, bid="6S")
        g.add("bid", deal=n, player=second, bid="pass").add("bid", deal=n, player=third, bid="pass")
        g.add("contract", deal=n, declarer=first, contract="6S")
        g.add("whist", deal=n, player=second, call="pass").add("whist", deal=n, player=third, call="pass")
    g.add("deal_started", deal=4, dealer="C")
    with pytest.raises(vistlog.AppendRejected, match="record its game_ended"):
        vistlog.append(tmp_path / "over.jsonl", g.events)


def test_a_claimed_sheet_in_the_scorekeepers_russian(tmp_path: Path) -> None:
    """Item 7: ``игрок, поле, значение`` and ``пуля, гора, висты`` (and ``45 1/3``) as a Russian scorekeeper
    writes them audit exactly as the English names do."""
    log = str(ROOT / "samples" / "sochi-evening.jsonl")
    english = tmp_path / "claimed.csv"
    english.write_text("player,field,value\nАня,pool,4\nАня,mountain,11\nБоря,whists:Аня,6\nВова,mountain,31\n",
                       encoding="utf-8")
    russian = tmp_path / "заявлено.csv"
    russian.write_text("игрок,поле,значение\nАня,пуля,4\nАня,гора,11\nБоря,висты на Аня,6\nВова,гора,31\n",
                       encoding="utf-8")
    as_json = tmp_path / "заявлено.json"
    as_json.write_text('{"Аня": {"пуля": 4, "гора": 11}, "Боря": {"висты": {"Аня": 6}}, "Вова": {"гора": 31}}',
                       encoding="utf-8")
    import orjson

    def mismatches(path: Path) -> list[tuple[object, ...]]:
        _, out, _ = _run("audit", log, "--claimed", str(path), "--format", "json")
        return [(m["player"], m["field"], m.get("on"), m["recorded"], m["computed"])
                for m in orjson.loads(out)["games"][0]["mismatches"]]

    assert mismatches(russian) == mismatches(english) == mismatches(as_json) != []
    typo = tmp_path / "typo.csv"
    typo.write_text("игрок,поле,значение\nАня,mountian,4\n", encoding="utf-8")
    code, _, err = _run("audit", log, "--claimed", str(typo))
    assert code == 2 and any("did you mean mountain?" in line for line in err)


def test_imports_keep_what_they_read(tmp_path: Path) -> None:
    """Item 8: two backups of one game id go into one log (``--rename``, ``--game-id``); a game its program
    closed is ended; PBN keeps the ended mark; export says what CSV cannot carry."""
    import vistlog

    closed = str(ROOT / "tests" / "fixtures" / "preferans-score" / "closed-3p.json")
    log = tmp_path / "club.jsonl"
    assert _run("import", "--from", "preferans-score", closed, "-o", str(log))[0] == 0
    code, _, err = _run("import", "--from", "preferans-score", closed, "-o", str(log))
    assert code == 1 and any("--game-id ID, or --rename" in line for line in err)
    code, _, err = _run("import", "--from", "preferans-score", closed, "-o", str(log), "--rename")
    first = "preferans-score-2026-11-28T183000.000Z"
    assert code == 0 and f"game {first} imported as {first}-2: its id was taken" in err
    code, _, _ = _run("import", "--from", "preferans-score", closed, "-o", str(log), "--game-id", "backup-3")
    assert code == 0
    games = {g.id: g for g in vistlog.read_games(log)}
    assert set(games) == {first, f"{first}-2", "backup-3"}
    assert all(g.ended for g in games.values()) and not any(g.problems for g in games.values())
    assert len({str(g.to_json()["result"]) for g in games.values()}) == 1  # the same game three times
    unfinished = str(ROOT / "tests" / "fixtures" / "preferans-score" / "unfinished-3p.json")
    (game,) = vistlog.load(unfinished, "preferans-score")
    assert not any(e.get("type") == "game_ended" for e in game.events)
    other = tmp_path / "other.jsonl"
    assert _run("import", "--from", "preferans-score", unfinished, "-o", str(other))[0] == 0
    assert not next(vistlog.read_games(other)).ended

    solo = ROOT / "samples" / "solo-whist-evening.jsonl"  # it ends with a game_ended
    assert next(vistlog.read_games(solo)).ended
    pbn = tmp_path / "solo.pbn"
    assert _run("export", "--to", "pbn", str(solo), "-o", str(pbn))[0] == 0
    assert pbn.read_text(encoding="utf-8").count("[VistlogEnded ") == 1
    back = tmp_path / "back.jsonl"
    assert _run("import", "--from", "pbn", str(pbn), "-o", str(back))[0] == 0
    assert next(vistlog.read_games(back)).ended

    code, _, err = _run("export", "--to", "csv", str(ROOT / "samples" / "corrected-deal.jsonl"), "-o",
                        str(tmp_path / "c.csv"))
    assert code == 0 and any("csv cannot carry 14 bid(s) (the auction); 1 voided record(s)" in line for line in err)
    assert vistlog.cannot_carry(vistlog.game_events(ROOT / "samples" / "solo-whist-evening.jsonl"), "pbn") == []
