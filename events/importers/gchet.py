"""``--from gchet``: the save files of ``gchet/Preferans`` (``saves/<table>.json``).

A save is ``{"sha256": hex, "data": …}`` where ``data`` is the saved table (as a JSON string
whose hash is checked, or as an object). Its ``state`` keeps the per-deal score ledger
(``history``: the sheet after each round) but the cards, auction and defence only of the
current deal. So the importer writes, for each earlier round, an ``adjustment`` that carries
the ledger's change (reason: the round's label), then rebuilds the last deal in full (contract,
whist calls, tricks) when the save holds it,
followed by the program's final sheet as ``score_recorded``: ``audit`` then checks that
program's own arithmetic on the deal it kept. Its rules are its ``leningrad-1`` conventions
(pool point 20, doubled whists, half-responsible whist, checked ten without consolation, no
consolation from the 4-player dealer, raspasy 2-4-8 with amnesty, team-capped shortfall,
gentleman whist); a ledger in points of the pool, the mountain and the whist matrix, seats
as in ``players``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from ..seating import dealer_sits_out, defenders, holders
from . import ImportedGame, SourceError, source

__all__ = ["read", "RULES"]

RULES: dict[str, Any] = {
    "preset": "leningrad", "ten_game": "checked_silent", "dealer_consolation": False,
    "raspas_progression": [2, 4, 8], "raspas_amnesty": True, "raspas_reset": "played_contract",
    "two_whisters": "team_capped", "single_whister": "gentleman", "misere_penalty_rate": 2,
}
SUITS = ("S", "C", "D", "H", "NT")


def _sheet(players: list[str], pool: list[Any], mountain: list[Any], whists: list[list[Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, p in enumerate(players):
        out[p] = {"pool": int(pool[i]), "mountain": int(mountain[i]),
                  "whists": {q: int(whists[i][j]) for j, q in enumerate(players) if j != i and whists[i][j]}}
    return out


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The game of one gchet save file."""
    try:
        envelope = orjson.loads(data)
        body = envelope["data"]
        if isinstance(body, str):
            if envelope.get("sha256") and hashlib.sha256(body.encode()).hexdigest() != envelope["sha256"]:
                raise SourceError(f"{path}: sha256 does not match the saved data (the file was changed)")
            body = orjson.loads(body)
        state = body["state"]
        players = [p["name"] for p in state["players"]]
    except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
        raise SourceError(f"{path}: not a gchet save ({{sha256, data: {{state: …}}}}): {exc}") from None
    n = len(players)
    game = f"gchet-{state.get('id', path.rsplit('/', 1)[-1].rsplit('.', 1)[0])}"
    events: list[dict[str, Any]] = [{"v": 1, "type": "game_started", "game": game, "kind": "preferans",
                                     "players": players, "pool": state.get("target", 30), "rules": RULES,
                                     "_source": source(path, "state")}]
    prev: dict[str, Any] = {"pool": [0] * n, "mountain": [0] * n, "whists": [[0] * n for _ in range(n)]}
    history = state.get("history") or []
    last = _last_deal(state, players, game, path)
    if last and history:
        history = history[:-1]  # the ledger's last entry is the deal rebuilt below
    for k, h in enumerate(history):
        src = source(path, f"history[{k}]")
        adj: dict[str, Any] = {"pool": {}, "mountain": {}, "whists": {}}
        for i, p in enumerate(players):
            for field in ("pool", "mountain"):
                d = h[field][i] - prev[field][i]
                if d:
                    adj[field][p] = d
            for j, q in enumerate(players):
                d = h["whists"][i][j] - prev["whists"][i][j]
                if d and i != j:
                    adj["whists"].setdefault(p, {})[q] = d
        events.append({"v": 1, "type": "adjustment", "game": game, **{f: v for f, v in adj.items() if v},
                       "reason": f"gchet round {h.get('round', k + 1)}: {h.get('label', '')}".strip(),
                       "_source": src})
        prev = {"pool": h["pool"], "mountain": h["mountain"], "whists": h["whists"]}
    if last:
        events += last
        if all(key in state for key in ("pool", "mountain", "whists")):
            events.append({"v": 1, "type": "score_recorded", "game": game, "after_deal": 1,
                           "sheet": _sheet(players, state["pool"], state["mountain"], state["whists"]),
                           "_source": source(path, "state.pool/mountain/whists")})
    events.append({"v": 1, "type": "game_ended", "game": game, "reason": "agreed", "_source": source(path, "end")})
    return [ImportedGame(game, events, path)]


def _last_deal(state: dict[str, Any], players: list[str], game: str, path: str) -> list[dict[str, Any]]:
    """The current deal, when the save holds its contract and its tricks."""
    c = state.get("contract")
    taken = state.get("taken")
    if not isinstance(c, dict) or not isinstance(taken, list) or state.get("declarer") is None:
        return []
    src = source(path, "state (the last deal)")
    dealer = players[state.get("dealer", 0)]
    declarer = players[state["declarer"]]
    out: list[dict[str, Any]] = [{"v": 1, "type": "deal_started", "game": game, "deal": 1, "dealer": dealer,
                                  "_source": src}]
    contract = "misere" if c.get("misere") else f"{c['level']}{SUITS[c['suit']]}"
    out.append({"v": 1, "type": "contract", "game": game, "deal": 1, "declarer": declarer, "contract": contract,
                "_source": src})
    defence = state.get("defence") or []
    holding = holders(players, dealer, dealer_sits_out=dealer_sits_out(True, players))
    order = defenders(holding, declarer)
    names = {1: "pass", 2: "whist", 3: "half"}
    if not c.get("misere") and c.get("level") != 10:
        for p in order:
            call = names.get(defence[players.index(p)] if players.index(p) < len(defence) else 1, "pass")
            out.append({"v": 1, "type": "whist", "game": game, "deal": 1, "player": p, "call": call, "_source": src})
    counts = {p: int(taken[k]) for k, p in enumerate(players) if p in holding}
    if sum(counts.values()) == 10:
        out.append({"v": 1, "type": "tricks", "game": game, "deal": 1, "taken": counts, "_source": src})
    return out
