"""Building small games by hand for the tests."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from vistlog.events.cards import PREFERANS_DECK, SOLO_WHIST_DECK, GameKind, Suit, WhistCall, all_bids
from vistlog.events.codec import DecodeError, decode_obj
from vistlog.events.log import Problem
from vistlog.events.model import (
    Adjustment, Allocation, BidMade, CardPlayed, ContractMade, DealStarted, DealVoided, Discard, GameEnded,
    GameStarted, OpeningBalance, ScoreRecorded, SheetLine, Tricks, WhistMade,
)
from vistlog.events.rules import make_rules
from vistlog.projections.fold import GameResult, fold_events


class Game:
    """A game written event by event; ``seq`` and ``game`` are filled in."""

    def __init__(self, rules: str | dict[str, Any], players: Sequence[str] = ("A", "B", "C"), pool: int = 20,
                 kind: str | None = None, game: str = "t", **extra: Any) -> None:
        self.rules = {"preset": rules} if isinstance(rules, str) else rules
        self.players = list(players)
        self.game = game
        self.events: list[dict[str, Any]] = []
        self.deal_no = 0
        kind = kind or ("solo_whist" if self.rules["preset"] == "encyclopedia" else "preferans")
        start: dict[str, Any] = {"kind": kind, "players": self.players, "rules": self.rules, **extra}
        if kind == "preferans":
            start["pool"] = pool
        self.add("game_started", **start)

    def add(self, type_: str, **fields: Any) -> Game:
        self.events.append({"v": 1, "seq": len(self.events) + 1, "type": type_, "game": self.game, **fields})
        return self

    def deal(self, dealer: str, **fields: Any) -> Game:
        self.deal_no += 1
        return self.add("deal_started", deal=self.deal_no, dealer=dealer, **fields)

    def bids(self, *pairs: tuple[str, str]) -> Game:
        for p, b in pairs:
            self.add("bid", deal=self.deal_no, player=p, bid=b)
        return self

    def contract(self, declarer: str, contract: str, **fields: Any) -> Game:
        return self.add("contract", deal=self.deal_no, declarer=declarer, contract=contract, **fields)

    def whists(self, *pairs: tuple[str, str]) -> Game:
        for p, c in pairs:
            self.add("whist", deal=self.deal_no, player=p, call=c)
        return self

    def tricks(self, **taken: int) -> Game:
        return self.add("tricks", deal=self.deal_no, taken=taken)

    def end(self) -> Game:
        return self.add("game_ended", reason="agreed")

    def fold(self) -> tuple[list[GameResult], list[Problem]]:
        return fold(self.events)

    def result(self) -> GameResult:
        results, problems = self.fold()
        assert not problems, [str(p) for p in problems]
        assert len(results) == 1
        return results[0]


def fold(events: Iterable[dict[str, Any]], detail: bool = True) -> tuple[list[GameResult], list[Problem]]:
    items: list[tuple[int, Any]] = []
    for i, ev in enumerate(events, start=1):
        try:
            items.append((i, decode_obj(dict(ev))))
        except DecodeError as exc:
            items.append((i, Problem("t.jsonl", i, exc.seq, exc.field, exc.message, code=exc.code)))
    results: list[GameResult] = []
    problems: list[Problem] = []
    for item in fold_events("t.jsonl", iter(items), detail):
        (problems if isinstance(item, Problem) else results).append(item)
    return results, problems


def codes(problems: Iterable[Problem]) -> list[str]:
    """The codes of problems, in order (tests assert codes, not message wording)."""
    return [p.code for p in problems]


def sheet(res: GameResult) -> dict[str, Any]:
    """pool/mountain/whists as plain numbers, zeros left out."""
    t = res.totals
    out: dict[str, Any] = {}
    for p in res.players:
        line: dict[str, Any] = {}
        for column in ("pool", "mountain", "points", "whists"):  # the columns the vectors' sheets give
            if column in t.paired:
                if t.pairs_by(column, p):
                    line[column] = t.pairs_by(column, p)
            elif column in t and t[column].get(p, 0):
                line[column] = t[column][p]
        if line:
            out[p] = line
    return out


# ----------------------------------------------------------------------------- hypothesis strategies

names = st.text(alphabet="АБВГДЕЖабвгдеёжABCDEFabcdef _-1", min_size=1, max_size=8)
texts = st.none() | st.text(max_size=20)
ints = st.integers(min_value=-(2**40), max_value=2**40)
small = st.integers(min_value=0, max_value=40)
cards = st.sampled_from(sorted(SOLO_WHIST_DECK | PREFERANS_DECK, key=str))
bids = st.sampled_from(sorted(all_bids(), key=lambda b: b.text))
rules = st.sampled_from([
    {"preset": "sochi"}, {"preset": "leningrad", "raspas_amnesty": True}, {"preset": "rostov", "whist_rate": "3/2"},
    {"preset": "classic", "raspas_progression": [1, 2, 4, 8]}, {"preset": "encyclopedia", "all_pass": "general_misere"},
]).map(make_rules)
int_map = st.dictionaries(names, ints, max_size=4)
whist_map = st.dictionaries(names, st.dictionaries(names, ints, max_size=3), max_size=3)
extensions = st.dictionaries(st.text(alphabet="abc_", max_size=5).map(lambda s: "_x" + s),
                             st.integers(-(2**62), 2**62) | st.text(max_size=5) | st.none(), max_size=2)


def envelope(**fields: Any) -> dict[str, Any]:
    return {"seq": st.integers(min_value=1, max_value=2**40), "game": names, "v": st.just(1), "at": texts,
            "by": texts, "note": texts, **fields}


EVENTS = {
    GameStarted: envelope(kind=st.sampled_from([GameKind(k) for k in GameKind.known()]),
                          players=st.lists(names, max_size=4).map(tuple),
                          rules=rules, pool=st.none() | small, stake=st.none() | st.just("0.10")),
    OpeningBalance: envelope(pool=int_map, mountain=int_map, whists=whist_map, points=int_map),
    DealStarted: envelope(deal=small, dealer=names, bomb=st.integers(0, 3),
                          hands=st.none() | st.dictionaries(names, st.lists(cards, max_size=3).map(tuple), max_size=3),
                          talon=st.none() | st.lists(cards, max_size=2).map(tuple), turned=st.none() | cards),
    BidMade: envelope(deal=small, player=names, bid=bids),
    ContractMade: envelope(deal=small, declarer=names, contract=bids, dark=st.booleans(),
                           without_three=st.booleans(), totus=st.booleans(),
                           helps=st.lists(names, max_size=2).map(tuple), partner=st.none() | names,
                           trump=st.none() | st.sampled_from(Suit)),
    WhistMade: envelope(deal=small, player=names, call=st.sampled_from(WhistCall)),
    Discard: envelope(deal=small, player=names, cards=st.lists(cards, max_size=2).map(tuple)),
    CardPlayed: envelope(deal=small, player=names, card=cards),
    Tricks: envelope(deal=small, taken=st.dictionaries(names, small, max_size=4), last=st.none() | names),
    Allocation: envelope(deal=small, player=names, pool=ints, mountain=ints, help=int_map),
    Adjustment: envelope(pool=int_map, mountain=int_map, whists=whist_map, points=int_map, reason=texts),
    DealVoided: envelope(deal=small, reason=texts),
    ScoreRecorded: envelope(after_deal=small, sheet=st.dictionaries(names, st.builds(
        SheetLine, pool=st.none() | ints, mountain=st.none() | ints,
        whists=st.none() | st.dictionaries(names, ints, max_size=2), points=st.none() | ints), max_size=3)),
    GameEnded: envelope(reason=texts),
}


def event_of(cls: type) -> st.SearchStrategy[Any]:
    return st.builds(cls, **EVENTS[cls])


any_event = st.one_of([event_of(cls) for cls in EVENTS])


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
"""Debian's Chromium, where it is installed (.ci/run installs it): the browser the pages are tested in."""


def chromium_screenshot(page: Path, folder: Path, size: str = "900,1400") -> Path:
    """Render ``page`` in headless Chromium and take a screenshot: it must load with no console message."""
    assert CHROMIUM is not None
    shot = folder / (page.stem + ".png")
    proc = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-sync", "--disable-background-networking", "--disable-component-update",
         f"--user-data-dir={folder / 'chromium-profile'}", "--enable-logging=stderr", "--v=0", "--hide-scrollbars",
         f"--window-size={size}", f"--screenshot={shot}", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [line for line in proc.stderr.splitlines() if "CONSOLE" in line] == []
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return shot
