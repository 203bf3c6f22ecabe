"""``--from gchet``: the save files of ``gchet/Preferans`` (``saves/<table>.json``).

The program writes ``{"sha256": hex, "data": {...}}`` (its ``internal/storage/store.go``): ``data``
is the saved table as a raw JSON object, and ``sha256`` the hex digest of ``data``'s bytes exactly
as they stand in the file; a save edited after it was hashed is refused. The table's ``state``
(``internal/game/types.go``) holds the players, the pool size (``target``), the totals (``pool``,
``mountain``, the ``whists`` matrix) and ``history``: one ledger per finished round with that
round's **own** changes (what ``recordScore`` adds to the totals), but the cards, auction and
defence only of the current deal.

So each finished round becomes an ``adjustment`` carrying its own changes (reason: the round's
label), except the last one when the save was taken at the end of it (``stage`` ``round`` or
``finished``): that deal is rebuilt in full (contract, whist calls, tricks) from the state,
and the program's totals follow as ``score_recorded``, so ``audit`` checks the program's own
arithmetic on it. A save taken in the middle of a deal (the program saves after every
command) imports its finished rounds and leaves the unfinished deal out, with a note that
names it. The rules are the program's ``leningrad-1`` conventions.

The save's shape is checked by structuring it into the classes below (cattrs); anything
else is refused with one line naming the field.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs

from ..seating import dealer_sits_out, defenders, holders
from .base import ImportedGame, SourceError, source, structure

__all__ = ["read", "RULES", "Save", "State"]

RULES: dict[str, Any] = {
    "preset": "leningrad", "ten_game": "checked_silent", "dealer_consolation": False,
    "raspas_progression": [2, 4, 8], "raspas_amnesty": True, "raspas_reset": "played_contract",
    "two_whisters": "team_capped", "single_whister": "gentleman", "misere_penalty_rate": 2,
}
SUITS = ("S", "C", "D", "H", "NT")
CALLS = {1: "pass", 2: "whist", 3: "half"}
ROUND_OVER = ("round", "finished")


@attrs.frozen
class Player:
    """A seat of the table."""

    name: str


@attrs.frozen
class Contract:
    """A contract: level 6..10 and suit 0..4 (♠ ♣ ♦ ♥ NT), or a misère."""

    level: int
    suit: int
    misere: bool = False


@attrs.frozen
class Ledger:
    """One finished round's own changes."""

    round: int
    label: str
    pool: list[int]
    mountain: list[int]
    whists: list[list[int]]


@attrs.frozen
class State:
    """The parts of the program's ``State`` the importer reads."""

    players: list[Player]
    target: int
    stage: str
    dealer: int
    round: int
    id: str = ""
    declarer: int = -1
    contract: Contract | None = None
    defence: list[int] = attrs.Factory(list)
    taken: list[int] = attrs.Factory(list)
    pool: list[int] = attrs.Factory(list)
    mountain: list[int] = attrs.Factory(list)
    whists: list[list[int]] = attrs.Factory(list)
    history: list[Ledger] = attrs.Factory(list)


@attrs.frozen
class Table:
    """The saved table."""

    state: State


@attrs.frozen
class Save:
    """The file: the digest and the table."""

    sha256: str
    data: Table


def _data_span(text: str) -> tuple[int, int] | None:
    """Where the value of the top-level key ``data`` stands in the file's text."""
    decoder = json.JSONDecoder()
    i = text.find("{")
    if i < 0:
        return None
    i += 1
    while True:
        while i < len(text) and text[i] in " \t\r\n,":
            i += 1
        if i >= len(text) or text[i] == "}":
            return None
        key, i = decoder.raw_decode(text, i)
        while text[i] in " \t\r\n:":
            i += 1
        start = i
        _, end = decoder.raw_decode(text, i)
        if key == "data":
            return start, end
        i = end


def _load(path: str, data: bytes) -> Save:
    try:
        text = data.decode("utf-8")
        raw = json.loads(text)
        span = _data_span(text)
    except (UnicodeDecodeError, ValueError, IndexError) as exc:
        raise SourceError(f"{path}: not a gchet save: not JSON ({exc})") from None
    except RecursionError:
        raise SourceError(f"{path}: not a gchet save: JSON nested too deep") from None
    if type(raw) is not dict or span is None:
        raise SourceError(f"{path}: not a gchet save ({{\"sha256\": …, \"data\": {{\"state\": …}}}})")
    save = structure(raw, Save, path, "a gchet save")
    digest = hashlib.sha256(text[span[0]:span[1]].encode("utf-8")).hexdigest()
    if digest != save.sha256.lower():
        raise SourceError(f"{path}: sha256 does not match the saved data: the file was changed after it was saved")
    _check_shape(path, save.data.state)
    return save


def _check_shape(path: str, s: State) -> None:
    n = len(s.players)

    def fail(why: str) -> None:
        raise SourceError(f"{path}: data.state: {why}")

    if n not in (3, 4):
        fail(f"{n} players; a table has 3 or 4")
    if not 0 <= s.dealer < n:
        fail(f"dealer {s.dealer} is not a seat 0..{n - 1}")
    for name, row in (("pool", s.pool), ("mountain", s.mountain), ("taken", s.taken)):
        if row and len(row) != n:
            fail(f"{name} has {len(row)} values for {n} players")
    if s.whists and (len(s.whists) != n or any(len(r) != n for r in s.whists)):
        fail(f"whists is not a {n} × {n} matrix")
    for k, h in enumerate(s.history):
        if len(h.pool) != n or len(h.mountain) != n or len(h.whists) != n or any(len(r) != n for r in h.whists):
            fail(f"history[{k}] does not have a value per player")
    if s.contract is not None and not s.contract.misere and not (6 <= s.contract.level <= 10
                                                                 and 0 <= s.contract.suit <= 4):
        fail(f"contract level {s.contract.level}, suit {s.contract.suit} is not a contract")
    if s.declarer >= n:
        fail(f"declarer {s.declarer} is not a seat")


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The game of one gchet save file."""
    state = _load(path, data).data.state
    players = [p.name for p in state.players]
    game = f"gchet-{state.id or path.rsplit('/', 1)[-1].rsplit('.', 1)[0]}"
    events: list[dict[str, Any]] = [{"v": 1, "type": "game_started", "game": game, "kind": "preferans",
                                     "players": players, "pool": state.target, "rules": RULES,
                                     "_source": source(path, "state")}]
    history = list(state.history)
    notes: list[str] = []
    last: list[dict[str, Any]] = []
    if state.stage in ROUND_OVER and history and history[-1].round == state.round:
        last = _last_deal(state, players, game, path)
        if last:
            history = history[:-1]  # the ledger's last round is the deal rebuilt below
    elif state.stage not in ROUND_OVER:
        notes.append(f"{path}: the save was taken during round {state.round} (stage {state.stage}); "
                     "that unfinished deal is left out")
    for k, h in enumerate(history):
        adj: dict[str, Any] = {"pool": {}, "mountain": {}, "whists": {}}
        for i, p in enumerate(players):
            for field, row in (("pool", h.pool), ("mountain", h.mountain)):
                if row[i]:
                    adj[field][p] = row[i]
            for j, q in enumerate(players):
                if h.whists[i][j] and i != j:
                    adj["whists"].setdefault(p, {})[q] = h.whists[i][j]
        events.append({"v": 1, "type": "adjustment", "game": game, **{f: v for f, v in adj.items() if v},
                       "reason": f"gchet round {h.round}: {h.label}".strip(),
                       "_source": source(path, f"state.history[{k}]")})
    events += last
    if state.pool and state.mountain and state.whists:
        events.append({"v": 1, "type": "score_recorded", "game": game, "after_deal": 1 if last else 0,
                       "sheet": _sheet(players, state), "_source": source(path, "state.pool/mountain/whists")})
    if state.stage == "finished":
        events.append({"v": 1, "type": "game_ended", "game": game, "reason": "pools_closed",
                       "_source": source(path, "state.stage")})
    return [ImportedGame(game, events, path, notes)]


def _sheet(players: list[str], s: State) -> dict[str, Any]:
    return {p: {"pool": s.pool[i], "mountain": s.mountain[i],
                "whists": {q: s.whists[i][j] for j, q in enumerate(players) if j != i and s.whists[i][j]}}
            for i, p in enumerate(players)}


def _last_deal(s: State, players: list[str], game: str, path: str) -> list[dict[str, Any]]:
    """The round the save ended on, when it holds its contract and its tricks (else nothing)."""
    c = s.contract
    if c is None or s.declarer < 0 or len(s.taken) != len(players):
        return []
    src = source(path, "state (the last round)")
    dealer = players[s.dealer]
    declarer = players[s.declarer]
    holding = holders(players, dealer, dealer_sits_out=dealer_sits_out(True, players))
    if declarer not in holding:
        raise SourceError(f"{path}: data.state: declarer {declarer} does not hold cards this deal")
    out: list[dict[str, Any]] = [{"v": 1, "type": "deal_started", "game": game, "deal": 1, "dealer": dealer,
                                  "_source": src}]
    contract = "misere" if c.misere else f"{c.level}{SUITS[c.suit]}"
    out.append({"v": 1, "type": "contract", "game": game, "deal": 1, "declarer": declarer, "contract": contract,
                "_source": src})
    if not c.misere and c.level != 10:
        for p in defenders(holding, declarer):
            seat = players.index(p)
            call = CALLS.get(s.defence[seat] if seat < len(s.defence) else 1, "pass")
            out.append({"v": 1, "type": "whist", "game": game, "deal": 1, "player": p, "call": call, "_source": src})
    counts = {p: s.taken[k] for k, p in enumerate(players) if p in holding}
    if sum(counts.values()) == 10:
        out.append({"v": 1, "type": "tricks", "game": game, "deal": 1, "taken": counts, "_source": src})
    return out
