"""``--from preferans-score``: the JSON backup of the score pad ``rostiktc2-star/preferans-score``.

The backup (``SavedGame``, schema 1) holds the settings and the list of what was played:
``normal`` deals (declarer, level, suit, each defender's ``pass``/``vist``/``polvist``, tricks),
``mizer``, ``raspasy`` and ``manual`` corrections; ``undone`` events are left out (the shapes of
its ``src/domain/types.ts``, checked by structuring them into the classes below). Its
conventions, read from its ``src/domain/engine.ts`` and ``finalize.ts``, become options: no
consolation, greedy whist with full responsibility, personal quotas, a whisted ten, raspasy
1-2-3 with amnesty and a zero bonus of 1, a run not ended by a contract both defenders passed,
help then the own mountain down to 0, a point shared among the N − 1 opponents, a played
half-whist (``polvist`` with tricks: ``half_whist_played``), and a settlement of the mountains
and whists only, finished or not (``pool_in_settlement: false``). The pad keeps no dealer for
3 players: the importer deals in seating order from the last player, so the first player bids
first; for 4 it follows the resting player (``restPlayerId``, else the next after the last).
8–10 with two whisters is scored ``personal`` (both answer), where the pad makes only the
second defender answer.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs
import orjson

from ..seating import clockwise, dealer_sits_out, defenders, holders
from .base import ImportedGame, SourceError, source, structure

__all__ = ["read", "RULES"]

RULES: dict[str, Any] = {
    "preset": "sochi", "consolation": "none", "single_whister": "greedy", "two_whisters": "personal",
    "ten_game": "whisted", "raspas_progression": [1, 2, 3], "raspas_amnesty": True, "raspas_zero": "pool",
    "raspas_zero_amount": "one", "raspas_reset": "played_contract", "overflow": "help", "mountain_floor": True,
    "settlement_divisor": "opponents", "half_whist_played": True, "pool_in_settlement": False,
}
SUITS = {"picche": "S", "fiori": "C", "quadri": "D", "cuori": "H", "senza briscola": "NT"}
CALLS = {"pass": "pass", "vist": "whist", "polvist": "half"}


@attrs.frozen
class Player:
    """A player of the pad: id and name."""

    id: str
    name: str


@attrs.frozen
class Config:
    """The pad's ``GameConfig``."""

    players: list[Player]
    poolTarget: int
    createdAt: str = ""
    euroCentsPerCredit: int = 0
    firstRestPlayerId: str | None = None


@attrs.frozen
class Adjustment:
    """One line of a manual correction."""

    kind: Literal["pool", "penalty", "credit"]
    amount: int
    playerId: str | None = None
    fromId: str | None = None
    againstId: str | None = None


@attrs.frozen
class Hand:
    """One event of the pad (``normal``, ``mizer``, ``raspasy`` or ``manual``)."""

    type: Literal["normal", "mizer", "raspasy", "manual"]
    restPlayerId: str | None = None
    declarerId: str | None = None
    level: int | None = None
    suit: str | None = None
    defenderChoices: dict[str, str] = attrs.Factory(dict)
    tricks: dict[str, int] | None = None
    declarerTricks: int = 0
    adjustments: list[Adjustment] = attrs.Factory(list)
    note: str | None = None


@attrs.frozen
class SavedGame:
    """The backup file."""

    schemaVersion: Literal[1]
    config: Config
    events: list[Hand]


def _load(path: str, data: bytes) -> SavedGame:
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise SourceError(f"{path}: not valid JSON ({exc.msg})") from None
    if type(raw) is not dict or "config" not in raw or "events" not in raw:
        raise SourceError(f"{path}: not a preferans-score backup (SavedGame with schemaVersion 1)")
    return structure(raw, SavedGame, path, "a preferans-score backup")


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The game of a score-pad backup."""
    saved = _load(path, data)
    config = saved.config
    names = {p.id: p.name for p in config.players}
    players = [p.name for p in config.players]
    if len(names) != len(players) or len(players) not in (3, 4):
        raise SourceError(f"{path}: config.players: 3 or 4 players with distinct ids")
    game = "preferans-score-" + (config.createdAt or path.rsplit("/", 1)[-1]).replace(":", "")
    start: dict[str, Any] = {"v": 1, "type": "game_started", "game": game, "kind": "preferans", "players": players,
                             "pool": config.poolTarget, "rules": RULES, "_source": source(path, "config")}
    if config.euroCentsPerCredit > 0:
        start["stake"] = f"{config.euroCentsPerCredit // 100}.{config.euroCentsPerCredit % 100:02d}"
    events: list[dict[str, Any]] = [start]
    deal = 0
    sits_out = dealer_sits_out(True, players)
    upcoming = names[config.firstRestPlayerId] if sits_out and config.firstRestPlayerId in names else players[-1]
    for k, item in enumerate(saved.events):
        where = f"{path}: events[{k}]"
        src = source(path, f"events[{k}]")

        def ev(type_: str, **fields: Any) -> None:
            events.append({"v": 1, "type": type_, "game": game, **fields, "_source": src})

        def name(pid: str | None, field: str) -> str:
            if pid not in names:
                raise SourceError(f"{where}: {field}: {pid!r} is not a player id ({', '.join(names)})")
            return names[pid]

        if item.type == "manual":
            adj: dict[str, Any] = {"pool": {}, "mountain": {}, "whists": {}}
            for a in item.adjustments:
                if a.kind == "pool":
                    adj["pool"][name(a.playerId, "playerId")] = a.amount
                elif a.kind == "penalty":
                    adj["mountain"][name(a.playerId, "playerId")] = a.amount
                else:
                    adj["whists"].setdefault(name(a.fromId, "fromId"), {})[name(a.againstId, "againstId")] = a.amount
            ev("adjustment", **{k2: v for k2, v in adj.items() if v}, reason=item.note or "manual entry")
            continue
        deal += 1
        dealer = name(item.restPlayerId, "restPlayerId") if item.restPlayerId is not None else upcoming
        upcoming = clockwise(players, dealer)[0]
        ev("deal_started", deal=deal, dealer=dealer)
        tricks = {name(p, "tricks"): n for p, n in (item.tricks or {}).items()}
        if item.type == "raspasy":
            ev("tricks", deal=deal, taken=tricks)
            continue
        declarer = name(item.declarerId, "declarerId")
        holding = holders(players, dealer, dealer_sits_out=sits_out)
        if declarer not in holding:
            raise SourceError(f"{where}: declarerId: {declarer} rests this hand")
        order = defenders(holding, declarer)
        if item.type == "mizer":
            ev("contract", deal=deal, declarer=declarer, contract="misere")
            if not tricks:
                own = item.declarerTricks
                tricks = {declarer: own, order[0]: 10 - own, order[1]: 0}
            ev("tricks", deal=deal, taken=tricks)
            continue
        suit = SUITS.get(str(item.suit))
        if suit is None or item.level is None:
            raise SourceError(f"{where}: level and suit ({', '.join(SUITS)}) expected")
        ev("contract", deal=deal, declarer=declarer, contract=f"{item.level}{suit}")
        choices = {name(p, "defenderChoices"): CALLS.get(c, c) for p, c in item.defenderChoices.items()}
        calls = [(p, choices.get(p, "pass")) for p in order]
        for p, c in calls:
            ev("whist", deal=deal, player=p, call=c)
        if tricks and any(c in ("whist", "half") for _, c in calls):
            ev("tricks", deal=deal, taken=tricks)
    return [ImportedGame(game, events, path)]
