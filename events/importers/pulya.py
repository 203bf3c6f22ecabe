"""``--from pulya``: the saves of «Пуля преферанса» (``mathfewmatthews-dev/preferans-score``).

Its local save (``src/persistence/local-game-repository.ts``) is a ``LocalGameEnvelope``:
``{"format": "preferans-local-v2", "schemaVersion": 2, "started": true, "gameId", "revision",
"stateHash", "state", "pendingEvents", "savedAt"}``. The ``state`` (``src/domain/game-state.ts``)
keeps the sheet as totals: ``players`` (3 to 5 names), ``poolTarget``, ``convention`` (Sochi or
Piter), ``pool``, ``mountain``, the ``whists`` matrix (row writes on column) and ``history``
(lines of text). Each event (``src/domain/game-event.ts``) carries a command, a ``patch`` of the
state's top-level keys (``previous`` and ``changes``) and its own hash chain: ``beforeHash`` and
``afterHash`` are the SHA-256 of the state's canonical JSON (keys sorted, no spaces) before and
after it, and ``revision`` counts up by one.

The importer walks the events back from the saved state, so every hash is checked: the saved
state against ``stateHash``, each event's ``afterHash`` against the state after it and its
``beforeHash`` against the state before it (a save edited after it was written is refused),
revisions one by one. The program keeps no deals, only what each command changed on the sheet:
the state before the first event becomes ``opening_balance``, each event that changed the sheet an
``adjustment`` with exactly those changes (reason: the command and its history line), and the
program's totals follow as ``score_recorded``, so ``audit`` checks that the changes add up.
The convention becomes the preset (``sochi`` or ``leningrad`` for Piter). Five players are
refused: vistlog's Preferans is for 3 or 4.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from typing import Any, Literal

import attrs

from ..codec import first_where
from .base import ImportedGame, SourceError, source, structure

__all__ = ["read", "canonical_json", "state_hash"]

SHEET = ("pool", "mountain", "whists")


@attrs.frozen
class Command:
    """What the user did (``record-added``, ``manual-adjustment``, ``undo``…) and its payload."""

    type: str
    payload: dict[str, Any] = attrs.Factory(dict)


@attrs.frozen
class Patch:
    """The top-level keys of the state that an event changed: before, after, removed."""

    previous: dict[str, Any]
    changes: dict[str, Any]
    removed: list[str] = attrs.Factory(list)


@attrs.frozen
class Event:
    """One ``GameEvent``."""

    eventId: str
    revision: int
    baseRevision: int
    command: Command
    patch: Patch
    beforeHash: str
    afterHash: str


@attrs.frozen
class Envelope:
    """The ``LocalGameEnvelope``."""

    format: Literal["preferans-local-v2"]
    schemaVersion: Literal[2]
    gameId: str
    revision: int
    stateHash: str
    state: dict[str, Any]
    pendingEvents: list[Event] = attrs.Factory(list)


def canonical_json(value: Any) -> str:
    """The program's ``canonicalJson``: keys sorted at every level, no spaces, text as it is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def state_hash(state: Any) -> str:
    """The program's ``hashValue`` of a state: SHA-256 of its canonical JSON, in hex."""
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


def _load(path: str, data: bytes) -> Envelope:
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise SourceError(f"{path}: not a «Пуля преферанса» save: not JSON ({exc})") from None
    except RecursionError:
        raise SourceError(f"{path}: not a «Пуля преферанса» save: JSON nested too deep") from None
    if type(raw) is not dict or raw.get("format") != "preferans-local-v2":
        raise SourceError(f"{path}: not a «Пуля преферанса» save (format preferans-local-v2)")
    where = first_where(raw, lambda v: type(v) is float and not math.isfinite(v))
    if where is not None:
        raise SourceError(f"{path}: {where[0]}: {where[1]} is not a number JSON allows (NaN and Infinity are "
                          "not JSON): the save was not written by the program")
    return structure(raw, Envelope, path, "a «Пуля преферанса» save")


def _numbers(path: str, state: dict[str, Any], n: int) -> tuple[list[int], list[int], list[list[int]]]:
    def whole(x: Any, where: str) -> int:
        if type(x) is not int:
            if type(x) is float and x.is_integer():
                return int(x)
            raise SourceError(f"{path}: {where}: {x!r} is not a whole number")
        return x

    try:
        pool = [whole(x, f"pool.{i}") for i, x in enumerate(state["pool"])]
        mountain = [whole(x, f"mountain.{i}") for i, x in enumerate(state["mountain"])]
        whists = [[whole(x, f"whists.{i}.{j}") for j, x in enumerate(row)] for i, row in enumerate(state["whists"])]
    except (KeyError, TypeError):
        raise SourceError(f"{path}: state: pool, mountain and whists are lists of numbers") from None
    if len(pool) != n or len(mountain) != n or len(whists) != n or any(len(r) != n for r in whists):
        raise SourceError(f"{path}: state: pool, mountain and whists have a value per player")
    return pool, mountain, whists


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The game of one «Пуля преферанса» save."""
    env = _load(path, data)
    state = env.state
    if state_hash(state) != env.stateHash:
        raise SourceError(f"{path}: stateHash does not match the saved state: the file was changed after it was saved")
    players = state.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or not 3 <= len(players) <= 5:
        raise SourceError(f"{path}: state.players: 3 to 5 names")
    if len(players) == 5:
        raise SourceError(f"{path}: a game of 5 players; vistlog's Preferans is for 3 or 4")
    convention = str(state.get("convention", "")).lower()
    preset = "leningrad" if any(w in convention for w in ("pit", "пит", "lenin", "ленин")) else "sochi"
    if preset == "sochi" and not any(w in convention for w in ("soch", "соч")):
        raise SourceError(f"{path}: state.convention: {state.get('convention')!r} is neither Sochi nor Piter")
    target = state.get("poolTarget")
    if type(target) is not int or target < 1:
        raise SourceError(f"{path}: state.poolTarget: a whole number of at least 1")
    n = len(players)
    final = _numbers(path, state, n)
    # walk back from the saved state, checking every link of the program's chain
    states = [state]
    events = sorted(env.pendingEvents, key=lambda e: e.revision)
    for a, b in itertools.pairwise(events):
        if b.baseRevision != a.revision or b.revision != a.revision + 1 or a.afterHash != b.beforeHash:
            raise SourceError(f"{path}: pendingEvents: revision {b.revision} does not follow {a.revision}")
    if events and events[-1].revision != env.revision:
        raise SourceError(f"{path}: revision {env.revision} is not the last event's {events[-1].revision}")
    for k, ev in enumerate(reversed(events)):
        after = states[0]
        if state_hash(after) != ev.afterHash:
            raise SourceError(f"{path}: pendingEvents[{len(events) - 1 - k}] ({ev.eventId}): afterHash does not "
                              "match the state after it: the save was changed")
        before = _undo(after, ev.patch, ev.beforeHash)
        if before is None:
            raise SourceError(f"{path}: pendingEvents[{len(events) - 1 - k}] ({ev.eventId}): beforeHash does not "
                              "match the state before it: the save was changed")
        states.insert(0, before)
    game = f"pulya-{env.gameId}"
    out: list[dict[str, Any]] = [{"v": 1, "type": "game_started", "game": game, "kind": "preferans",
                                  "players": players, "pool": target, "rules": {"preset": preset},
                                  "_source": source(path, "state")}]
    base = _numbers(path, states[0], n)
    opening = _sheet_change(players, (([0] * n), ([0] * n), [[0] * n for _ in range(n)]), base)
    if opening:
        out.append({"v": 1, "type": "opening_balance", "game": game, **opening,
                    "_source": source(path, "the state before the first event")})
    for k, ev in enumerate(events):
        change = _sheet_change(players, _numbers(path, states[k], n), _numbers(path, states[k + 1], n))
        if not change:
            continue
        history = ev.patch.changes.get("history")
        line = history[-1] if isinstance(history, list) and history and isinstance(history[-1], str) else ""
        reason = f"«Пуля преферанса» {ev.command.type}" + (f": {line}" if line else "")
        out.append({"v": 1, "type": "adjustment", "game": game, **change, "reason": reason,
                    "_source": source(path, f"pendingEvents[{k}] revision {ev.revision}")})
    pool, mountain, whists = final
    out.append({"v": 1, "type": "score_recorded", "game": game, "after_deal": 0,
                "sheet": {p: {"pool": pool[i], "mountain": mountain[i],
                              "whists": {q: whists[i][j] for j, q in enumerate(players) if j != i and whists[i][j]}}
                          for i, p in enumerate(players)},
                "_source": source(path, "state")})
    return [ImportedGame(game, out, path)]


def _undo(after: dict[str, Any], patch: Patch, want: str) -> dict[str, Any] | None:
    """The state before ``patch``, or ``None`` when none hashes to ``want``.

    The program writes ``null`` as the previous value of a key the event added, so a ``null``
    is either "was null" or "was absent": both are tried.
    """
    base = {key: value for key, value in after.items() if key not in patch.changes}
    base.update({key: patch.previous.get(key) for key in patch.removed})
    added = [key for key in patch.changes if patch.previous.get(key) is None]
    for absent in (False, True):
        before = dict(base)
        for key in patch.changes:
            if key in patch.previous and not (absent and key in added):
                before[key] = patch.previous[key]
        if state_hash(before) == want:
            return before
    return None


def _sheet_change(players: list[str], a: tuple[list[int], list[int], list[list[int]]],
                  b: tuple[list[int], list[int], list[list[int]]]) -> dict[str, Any]:
    """The changes from sheet ``a`` to sheet ``b`` as the fields of an adjustment."""
    out: dict[str, Any] = {}
    for name, x, y in (("pool", a[0], b[0]), ("mountain", a[1], b[1])):
        d = {p: y[i] - x[i] for i, p in enumerate(players) if y[i] != x[i]}
        if d:
            out[name] = d
    whists: dict[str, dict[str, int]] = {}
    for i, p in enumerate(players):
        for j, q in enumerate(players):
            if i != j and b[2][i][j] != a[2][i][j]:
                whists.setdefault(p, {})[q] = b[2][i][j] - a[2][i][j]
    if whists:
        out["whists"] = whists
    return out
