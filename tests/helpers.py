"""Building small games by hand for the tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from events.codec import DecodeError, decode_obj
from events.log import Problem
from projections.fold import GameResult, fold_events


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


def fold(events: Iterable[dict[str, Any]]) -> tuple[list[GameResult], list[Problem]]:
    items: list[tuple[int, Any]] = []
    for i, ev in enumerate(events, start=1):
        try:
            items.append((i, decode_obj(dict(ev))))
        except DecodeError as exc:
            items.append((i, Problem("t.jsonl", i, exc.seq, exc.field, exc.message)))
    results: list[GameResult] = []
    problems: list[Problem] = []
    for item in fold_events("t.jsonl", iter(items)):
        (problems if isinstance(item, Problem) else results).append(item)
    return results, problems


def sheet(res: GameResult) -> dict[str, Any]:
    """pool/mountain/whists as plain numbers, zeros left out."""
    t = res.totals
    out: dict[str, Any] = {}
    for p in res.players:
        line: dict[str, Any] = {}
        if t.pool[p]:
            line["pool"] = t.pool[p]
        if t.mountain[p]:
            line["mountain"] = t.mountain[p]
        if t.points[p]:
            line["points"] = t.points[p]
        w = t.whists_by(p)
        if w:
            line["whists"] = w
        if line:
            out[p] = line
    return out
