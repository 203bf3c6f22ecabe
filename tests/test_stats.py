"""``vistlog stats``: records, contract statistics and Glicko-2 ratings across an archive."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.simulate import preferans_game, solo_whist_game
from vistlog.cli import main
from vistlog.projections import batch
from vistlog.projections.ratings import START, Rating, rate_period
from vistlog.projections.render.stats import stats_html
from vistlog.projections.stats import Archive, ArchiveBuilder, RatingPoint, period_of, ratings

from .conftest import SAMPLES
from .helpers import CHROMIUM, chromium_screenshot


def test_the_glicko2_papers_example_to_its_published_decimals() -> None:
    """Glickman, "Example of the Glicko-2 system": τ = 0.5; 1500/200/0.06 against 1400/30, 1550/100,
    1700/300 with 1, 0, 0 gives μ′ = −0.2069, φ′ = 0.8722, σ′ = 0.05999, so r′ = 1464.06, RD′ = 151.52."""
    start = {"p": Rating(1500, 200, 0.06), "a": Rating(1400, 30, 0.06), "b": Rating(1550, 100, 0.06),
             "c": Rating(1700, 300, 0.06)}
    r = rate_period(start, {"p": [("a", 1.0), ("b", 0.0), ("c", 0.0)]}, tau=0.5, only=("p",))["p"]
    mu, phi = round((r.rating - 1500) / 173.7178, 4), round(r.rd / 173.7178, 4)
    assert (mu, phi) == (-0.2069, 0.8722)
    assert 0.05999 <= r.volatility < 0.06000
    assert (round(1500 + 173.7178 * mu, 2), round(173.7178 * phi, 2)) == (1464.06, 151.52)
    idle = rate_period({"x": Rating(1500, 200, 0.06)}, {}, only=("x",))["x"]
    assert idle.rating == 1500 and idle.rd > 200  # a period without games only adds uncertainty


def _games(seed: int, count: int) -> list[list[dict[str, Any]]]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        day = f"2026-11-{1 + k % 5:02d}T19:00:00+03:00"
        if k % 4 == 3:
            evs = solo_whist_game(rng, game=f"s{k}", deals=3, card_play=0.0)
        else:
            evs = preferans_game(rng, players=("Аня", "Боря", "Вова", "Гена")[: 3 + k % 2], pool=6, game=f"p{k}",
                                 max_deals=8, card_play=0.0)
        evs[0] = {**evs[0], "at": day}
        out.append(evs)
    return out


def _write(folder: Path, groups: list[list[list[dict[str, Any]]]]) -> list[str]:
    paths = []
    for i, group in enumerate(groups):
        seq = 0
        lines = []
        for evs in group:
            for e in evs:
                seq += 1
                lines.append(orjson.dumps({**e, "v": 1, "seq": seq}))
        path = folder / f"log-{i:03d}.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        paths.append(str(path))
    return paths


def _archive(paths: list[str], jobs: int) -> dict[str, Any]:
    report = batch.run_local("stats", paths, jobs=jobs)
    summaries = [g for f in report.in_order() for g in f.games if "unsound" not in g]
    return Archive.build(summaries).to_json()


GAMES = _games(3, 12)
WHOLE: dict[str, Any] = {}


@settings(max_examples=8, deadline=None)
@given(st.permutations(list(range(len(GAMES)))), st.lists(st.integers(1, 4), min_size=1, max_size=6),
       st.sampled_from([1, 2]), st.sampled_from([1, 3, ArchiveBuilder.RUN]))
def test_the_same_archive_gives_the_same_statistics_for_any_split_and_worker_count(
        tmp_path_factory: pytest.TempPathFactory, order: list[int], sizes: list[int], jobs: int, run: int) -> None:
    """Any order of the games, any grouping into files, 1 or 2 workers, and the ratings' games sorted in
    memory or on disk in runs of 1 or 3 (an external merge sort): the same statistics."""
    if not WHOLE:
        WHOLE.update(_archive(_write(tmp_path_factory.mktemp("whole"), [GAMES]), 1))
    shuffled = [GAMES[i] for i in order]
    groups, at = [], 0
    for n in sizes * len(GAMES):
        if at >= len(shuffled):
            break
        groups.append(shuffled[at:at + n])
        at += n
    kept = ArchiveBuilder.RUN
    ArchiveBuilder.RUN = run
    try:
        got = _archive(_write(tmp_path_factory.mktemp("split"), groups), jobs)
    finally:
        ArchiveBuilder.RUN = kept
    assert got == WHOLE
    assert WHOLE["games"] == len(GAMES) and set(WHOLE["players"]) >= {"Аня", "Боря", "Вова"}


def test_an_old_game_added_later_changes_the_ratings_from_its_date_on(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    late = _archive(_write(tmp_path / "a", [GAMES[4:]]), 1)  # the archive before the old games were added
    full = _archive(_write(tmp_path / "b", [GAMES[4:], GAMES[:4]]), 1)  # the old games come in a later file
    assert late["ratings"] != full["ratings"]
    first_day = {p: h[0]["period"] for p, h in full["ratings"].items()}
    assert min(first_day.values()) == "2026-11-01"


def test_unsound_games_are_left_out_and_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jsonl"
    lines = (SAMPLES / "sochi-evening.jsonl").read_bytes().splitlines()
    broken.write_bytes(b"\n".join(lines[:5] + lines[6:]) + b"\n")
    code = main(["stats", str(broken), str(SAMPLES / "classic-bombs.jsonl"), "--format", "json", "--jobs", "1"])
    out = orjson.loads(capsys.readouterr().out)
    assert code == 1 and out["games"] == 1
    assert [(x["game"], x["problems"] > 0) for x in out["left_out"]] == [("sochi-2026-11-28", True)]


def test_aliases_merge_spellings_and_look_alikes_are_warned(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    log.write_bytes((SAMPLES / "sochi-evening.jsonl").read_bytes().replace("Вова".encode(), "ВОВА".encode()))
    code = main(["stats", str(log), str(SAMPLES / "disputed-sheet.jsonl"), "--jobs", "1"])
    _, err = capsys.readouterr()
    assert code == 0 and "ВОВА, Вова" in err
    aliases = tmp_path / "names.csv"
    aliases.write_text("name,alias\nВова,ВОВА\n", encoding="utf-8")
    main(["stats", str(log), str(SAMPLES / "disputed-sheet.jsonl"), "--jobs", "1", "--alias", str(aliases),
          "--format", "json"])
    out = orjson.loads(capsys.readouterr().out)
    assert "ВОВА" not in out["players"] and out["players"]["Вова"]["games"] == 2


def test_stats_on_the_samples_counts_contracts_and_money(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", str(SAMPLES / "sochi-evening.jsonl"), "--format", "json", "--jobs", "1"]) == 0
    out = orjson.loads(capsys.readouterr().out)
    vova = out["players"]["Вова"]
    assert vova["games"] == 1 and vova["total"] == "1388/3" and vova["money"] == "46.26"
    assert sum(c["declared"] for p in out["players"].values() for c in p["contracts"].values()) > 0
    assert out["players"]["Аня"]["rating"]["rating"] < vova["rating"]["rating"]


def test_stats_of_serbian_games_count_what_the_worked_example_shows(capsys: pytest.CaptureFixture[str]) -> None:
    """sr-1 worked by hand (tests/vectors/serbian/sr-1.md): made when the declarer's bula went down; a defender
    who came made his share when he did not fall. (This was an internal error before.)"""
    log = Path(__file__).parent / "vectors" / "serbian" / "sr-1.jsonl"
    assert main(["stats", str(log), "--format", "json", "--jobs", "1"]) == 0
    players = orjson.loads(capsys.readouterr().out)["players"]
    made = {p: {k: (c["made"], c["declared"]) for k, c in players[p]["contracts"].items()} for p in players}
    assert made == {"Ana": {"6D": (0, 1), "6H": (1, 1)}, "Boris": {"6H": (1, 1), "6C": (1, 1)},
                    "Vesna": {"6NT": (1, 1), "6C": (1, 1)}}
    assert {p: tuple(players[p]["whists"].values()) for p in players} == {"Ana": (3, 3), "Boris": (3, 3),
                                                                          "Vesna": (2, 2)}




def test_the_html_page_is_self_contained(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", str(SAMPLES), "--format", "html", "--jobs", "1"]) == 0
    page = capsys.readouterr().out
    assert "<svg" in page and "<script" not in page and "https://" not in page
    assert page.count("<section>") == 11


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here (.ci/run installs Debian's chromium)")
def test_the_html_page_renders_in_headless_chromium(tmp_path: Path) -> None:
    report = batch.run_local("stats", [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))], jobs=1)
    archive = Archive.build([g for f in report.in_order() for g in f.games if "unsound" not in g])
    page = tmp_path / "stats.html"
    page.write_text(stats_html(archive), encoding="utf-8")
    assert chromium_screenshot(page, tmp_path).stat().st_size > 10_000


def test_results_that_tell_nothing_more_leave_a_rating_alone() -> None:
    """Far apart ratings make every expected score 0 or 1 (the paper's v is infinite): no crash."""
    far = {"a": Rating(1e6, 30, 0.06), "b": Rating(-1e6, 30, 0.06)}
    out = rate_period(far, {"a": [("b", 1.0)] * 50, "b": [("a", 0.0)] * 50})
    assert out["a"].rating == 1e6 and out["b"].rating == -1e6 and out["a"].rd >= 30


def _ratings_spelled_out(summaries: list[dict[str, Any]], period: str) -> dict[str, list[RatingPoint]]:
    """The ratings as the Glicko-2 steps say, from the summaries kept whole: every game's results,
    grouped by period in date order, each player against each other by who finished above."""
    games = sorted(summaries, key=lambda s: (s["date"] is not None, s["date"] or "", s["game"]))
    by_period: dict[str, list[dict[str, Any]]] = {}
    for s in games:
        by_period.setdefault(period_of(s["date"], period), []).append(s)
    current: dict[str, Rating] = {}
    history: dict[str, list[RatingPoint]] = {}
    for name, group in by_period.items():
        results: dict[str, list[tuple[str, float]]] = {}
        for s in group:
            res = {p: Fraction(v) for p, v in s["result"].items()}
            for p in s["players"]:
                for q in s["players"]:
                    if p != q:
                        results.setdefault(p, []).append((q, 1.0 if res[p] > res[q] else 0.5 if res[p] == res[q]
                                                          else 0.0))
        for p in results:
            current.setdefault(p, START)
        current = rate_period(current, results)
        for p in results:
            r = current[p]
            history.setdefault(p, []).append(RatingPoint(name, r.rating, r.rd, r.volatility))
    return history


summaries = st.lists(st.fixed_dictionaries({
    "game": st.sampled_from(["g1", "g2", "g3"]),
    "date": st.none() | st.sampled_from(["2026-01-05", "2026-01-06", "2026-01-12", "2026-02-01"]),
    "players": st.lists(st.sampled_from(["Аня", "Боря", "Вова", "Гена"]), min_size=3, max_size=4),
    "result": st.lists(st.fractions(-50, 50, max_denominator=3).map(str), min_size=4, max_size=4),
}), max_size=12).map(lambda ss: [{**s, "result": dict(zip(s["players"], s["result"]))} for s in ss])


@given(summaries, st.sampled_from(["day", "week", "month"]))
def test_ratings_kept_as_ranks_are_the_ratings_of_the_whole_summaries(ss: list[dict[str, Any]], period: str) -> None:
    """What the archive keeps of a game (who finished above whom) rates exactly as the whole results,
    float for float, names repeated in one game (two aliases of one person) and ties included."""
    assert ratings(ss, period) == _ratings_spelled_out(ss, period)
