"""``--from jsonl``: card-level records of online play in this project's own event format.

A server writes, per game, ``game_started`` and per deal ``deal_started`` with ``hands`` and
``talon``, the auction, ``contract``, whist calls, ``discard`` and every ``card_played`` in
order (``seq`` may be left out). The importer keeps every event, adds ``_source``, and where a
deal's cards are all played but no ``tricks`` event follows, adds the ``tricks`` the cards
give (marked ``"_source": {"derived": "from the cards"}``). The state machine then checks
every card: following suit, trumping, the talon-led tricks of a raspas; a revoke is refused
with the card and the trick named; a given ``tricks`` must agree with the cards.
"""

from __future__ import annotations

import io
from typing import Any

import orjson

from ..codec import DecodeError, decode_obj
from ..checker import LogChecker
from .base import EventList, ImportedGame, SourceError, source

__all__ = ["read", "derive_tricks"]


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The games of a JSONL file of events."""
    games: dict[str, ImportedGame] = {}
    for lineno, line in enumerate(io.BytesIO(data), start=1):
        if not line.strip():
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise SourceError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from None
        if type(obj) is not dict or type(obj.get("game")) is not str:
            raise SourceError(f"{path}:{lineno}: not an event (a JSON object with a game)")
        obj.pop("seq", None)
        obj.pop("_chain", None)
        obj["_source"] = source(path, f"line {lineno}")
        gid = obj["game"]
        games.setdefault(gid, ImportedGame(gid, [], path)).events.append(obj)
    return [derive_tricks(g) for g in games.values()]


def derive_tricks(game: ImportedGame) -> ImportedGame:
    """Insert the ``tricks`` of every deal whose cards were all played (or whose play ended with an accepted
    claim) and that has none."""
    checker = LogChecker()
    out = EventList()
    pending: Any = None  # the DealState whose tricks may need adding
    pending_game = game.game

    def close() -> None:
        if pending is not None and pending.play is not None and pending.tricks is None and (
                pending.play.complete or pending.claimed is not None):
            derived, _ = pending.tricks_taken()
            assert derived is not None
            taken = {p: n for p, n in derived.items() if p in pending.holders or n}
            out.append({"v": 1, "type": "tricks", "game": pending_game, "deal": pending.number, "taken": taken,
                        "_source": {"derived": "from the cards" if pending.claim is None else "from the claim"}})

    for k, ev in enumerate(game.events, start=1):
        if ev.get("type") in ("deal_started", "game_ended", "deal_voided", "score_recorded"):
            close()
            pending = None
        out.append(ev)
        try:
            decoded = decode_obj({**{x: y for x, y in ev.items() if not x.startswith("_")}, "seq": k})
        except DecodeError:
            continue  # the full check later names it
        checker.expect_seq(k)
        if not checker.check(decoded) and ev.get("type") == "deal_started":
            pending = checker.deal_of(decoded.game)
            pending_game = decoded.game
    close()
    return ImportedGame(game.game, out, game.origin)
