"""``--from preferans-score``: the JSON backup of the score pad ``rostiktc2-star/preferans-score``.

The backup (``SavedGame``, schema 1) holds the settings and the list of what was played:
``normal`` deals (declarer, level, suit, each defender's ``pass``/``vist``/``polvist``, tricks),
``mizer``, ``raspasy`` and ``manual`` corrections; ``undone`` events are left out. Its
conventions become options (``research/peers.md``): no consolation, greedy whist with full
responsibility, personal quotas, a whisted ten, raspasy 1-2-3 with amnesty and a zero bonus of
1, a run not ended by a contract both defenders passed, help then the own mountain down to 0,
and a point shared among the N − 1 opponents. The pad keeps no dealer for 3 players: the
importer deals in seating order from the last player, so the first player bids first. Its
played half-whist (``polvist`` with tricks) has no counterpart here and is scored as a whist
(the event's ``note`` says so); 8–10 with two whisters is scored ``personal`` (both answer),
where the pad makes only the second defender answer.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..seating import dealer_sits_out, defenders, holders
from . import ImportedGame, SourceError, source

__all__ = ["read", "RULES"]

RULES: dict[str, Any] = {
    "preset": "sochi", "consolation": "none", "single_whister": "greedy", "two_whisters": "personal",
    "ten_game": "whisted", "raspas_progression": [1, 2, 3], "raspas_amnesty": True, "raspas_zero": "pool",
    "raspas_zero_amount": "one", "raspas_reset": "played_contract", "overflow": "help", "mountain_floor": True,
    "settlement_divisor": "opponents",
}
SUITS = {"picche": "S", "fiori": "C", "quadri": "D", "cuori": "H", "senza briscola": "NT"}
CALLS = {"pass": "pass", "vist": "whist", "polvist": "half"}


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The game of a score-pad backup."""
    try:
        saved = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise SourceError(f"{path}: not valid JSON ({exc.msg})") from None
    if type(saved) is not dict or saved.get("schemaVersion") != 1 or not isinstance(saved.get("events"), list) \
            or not isinstance(saved.get("config"), dict):
        raise SourceError(f"{path}: not a preferans-score backup (SavedGame with schemaVersion 1)")
    config = saved["config"]
    try:
        names = {p["id"]: p["name"] for p in config["players"]}
        players = [p["name"] for p in config["players"]]
    except (KeyError, TypeError):
        raise SourceError(f"{path}: config.players: a list of {{id, name}}") from None
    game = "preferans-score-" + str(config.get("createdAt") or path.rsplit("/", 1)[-1]).replace(":", "")
    start: dict[str, Any] = {"v": 1, "type": "game_started", "game": game, "kind": "preferans", "players": players,
                             "pool": config.get("poolTarget", 20), "rules": RULES,
                             "_source": source(path, "config")}
    cents = config.get("euroCentsPerCredit")
    if type(cents) is int and cents > 0:
        start["stake"] = f"{cents / 100:.2f}"
    events: list[dict[str, Any]] = [start]
    deal = 0
    dealer_index = len(players) - 1
    sits_out = dealer_sits_out(True, players)
    for k, item in enumerate(saved["events"]):
        where = f"{path}: events[{k}]"
        if type(item) is not dict:
            raise SourceError(f"{where}: not an object")
        src = source(path, f"events[{k}]")

        def ev(type_: str, **fields: Any) -> None:
            events.append({"v": 1, "type": type_, "game": game, **fields, "_source": src})

        def name(pid: Any) -> str:
            if pid not in names:
                raise SourceError(f"{where}: {pid!r} is not a player id")
            return names[pid]

        kind = item.get("type")
        if kind == "manual":
            adj: dict[str, Any] = {"pool": {}, "mountain": {}, "whists": {}}
            for a in item.get("adjustments", []):
                if a.get("kind") == "pool":
                    adj["pool"][name(a["playerId"])] = a["amount"]
                elif a.get("kind") == "penalty":
                    adj["mountain"][name(a["playerId"])] = a["amount"]
                elif a.get("kind") == "credit":
                    adj["whists"].setdefault(name(a["fromId"]), {})[name(a["againstId"])] = a["amount"]
                else:
                    raise SourceError(f"{where}: adjustment kind {a.get('kind')!r}")
            ev("adjustment", **{k2: v for k2, v in adj.items() if v}, reason=item.get("note") or "manual entry")
            continue
        if kind not in ("normal", "mizer", "raspasy"):
            raise SourceError(f"{where}: event type {kind!r} is not normal, mizer, raspasy or manual")
        deal += 1
        if item.get("restPlayerId") is not None:
            dealer = name(item["restPlayerId"])
        else:
            dealer = players[dealer_index % len(players)]
        dealer_index = players.index(dealer) + 1
        ev("deal_started", deal=deal, dealer=dealer)
        tricks = {name(p): n for p, n in (item.get("tricks") or {}).items()}
        if kind == "raspasy":
            ev("tricks", deal=deal, taken=tricks)
            continue
        declarer = name(item.get("declarerId"))
        if kind == "mizer":
            ev("contract", deal=deal, declarer=declarer, contract="misere")
            if not tricks:
                rest = defenders(holders(players, dealer, dealer_sits_out=sits_out), declarer)
                own = item.get("declarerTricks", 0)
                tricks = {declarer: own, rest[0]: 10 - own, rest[1]: 0}
            ev("tricks", deal=deal, taken=tricks)
            continue
        suit = SUITS.get(str(item.get("suit")))
        level = item.get("level")
        if suit is None or type(level) is not int:
            raise SourceError(f"{where}: level and suit ({', '.join(SUITS)}) expected")
        ev("contract", deal=deal, declarer=declarer, contract=f"{level}{suit}")
        order = defenders(holders(players, dealer, dealer_sits_out=sits_out), declarer)
        choices = {name(p): CALLS.get(c, c) for p, c in (item.get("defenderChoices") or {}).items()}
        calls = [(p, choices.get(p, "pass")) for p in order]
        note = None
        if any(c == "half" for _, c in calls):
            stands = not tricks and calls[0][1] == "pass" and calls[1][1] == "half"
            if not stands:
                calls = [(p, "whist" if c == "half" else c) for p, c in calls]
                note = "score pad: a played half-whist (polvist), scored here as a whist"
        for p, c in calls:
            fields = {"deal": deal, "player": p, "call": c}
            if note:
                fields["note"] = note
            ev("whist", **fields)
        if tricks and any(c == "whist" for _, c in calls):
            ev("tricks", deal=deal, taken=tricks)
    events.append({"v": 1, "type": "game_ended", "game": game, "reason": "agreed", "_source": source(path, "end")})
    return [ImportedGame(game, events, path)]
