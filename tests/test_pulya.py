"""``--from pulya``: saves of «Пуля преферанса» (mathfewmatthews-dev/preferans-score).

The fixtures are written here in the exact shapes that program's code writes, and the helpers say
which file each follows: the envelope of ``src/persistence/local-game-repository.ts``
(``createLocalEnvelope``), the events of ``src/domain/game-event.ts`` (``createGameEvent``:
``diffState`` for the patch, ``hashValue`` of ``canonicalJson`` for the hashes), and the state of
``src/domain/game-state.ts``. A real session is replayed: a state, then commands that change it.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from vistlog.events.importers import SourceError
from vistlog.events.importers.pulya import read
from vistlog.projections.audit import audit
from vistlog.projections.importing import import_sources

from .test_import import result


def canonical(value: Any) -> str:
    """game-event.ts ``canonicalJson``: ``JSON.stringify`` of the value with keys sorted at every level."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def hash_value(value: Any) -> str:
    """game-event.ts ``hashValue``: SHA-256 of the canonical JSON's UTF-8 bytes, hex."""
    return hashlib.sha256(canonical(value).encode()).hexdigest()


def diff_state(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """game-event.ts ``diffState``: previous and changed values of each top-level key that differs."""
    previous, changes, removed = {}, {}, []
    for key in {*before, *after}:
        if key not in after:
            previous[key] = before[key]
            removed.append(key)
        elif key not in before or canonical(before[key]) != canonical(after[key]):
            previous[key] = before.get(key)
            changes[key] = after[key]
    return {"previous": previous, "changes": changes, "removed": sorted(removed)}


def session(players: list[str], steps: list[tuple[str, dict[str, Any], str]], convention: str = "Сочи",
            target: int = 10) -> dict[str, Any]:
    """A LocalGameEnvelope after ``steps`` (command, changes to pool/mountain/whists, history line)."""
    n = len(players)
    state: dict[str, Any] = {"convention": convention, "poolTarget": target, "players": players, "pool": [0] * n,
                             "mountain": [0] * n, "whists": [[0] * n for _ in range(n)], "history": [],
                             "scoreLog": None, "gameId": "g-1"}
    events = []
    for k, (command, change, line) in enumerate(steps):
        after = copy.deepcopy(state)
        for i, x in enumerate(change.get("pool", [0] * n)):
            after["pool"][i] += x
        for i, x in enumerate(change.get("mountain", [0] * n)):
            after["mountain"][i] += x
        for (i, j), x in change.get("whists", {}).items():
            after["whists"][i][j] += x
        after["history"] = [*state["history"], line]
        events.append({"schemaVersion": 2, "eventId": f"e{k + 1}", "gameId": "g-1", "baseRevision": k,
                       "revision": k + 1, "clientId": "c1", "command": {"type": command, "payload": {}},
                       "patch": diff_state(state, after), "beforeHash": hash_value(state),
                       "afterHash": hash_value(after), "clientCreatedAt": 1764532800000 + k})
        state = after
    return {"format": "preferans-local-v2", "schemaVersion": 2, "started": True, "gameId": "g-1",
            "revision": len(steps), "stateHash": hash_value(state), "state": state, "pendingEvents": events,
            "savedAt": 1764536400000}


STEPS = [
    ("record-added", {"pool": [2, 0, 0], "whists": {(1, 0): 4}}, "Аня 6♠, Боря вист: 2 взятки"),
    ("record-added", {"mountain": [0, 4, 0]}, "Боря 7♦ без одной"),
    ("manual-adjustment", {"whists": {(2, 1): 10}}, "поправка"),
    ("scores-calculated", {}, "расчёт"),
]


def test_a_session_imports_with_its_chain_checked_and_audits_clean(tmp_path: Path) -> None:
    src = tmp_path / "pulya.json"
    src.write_text(json.dumps(session(["Аня", "Боря", "Вова"], STEPS), ensure_ascii=False), encoding="utf-8")
    log = tmp_path / "g.jsonl"
    assert import_sources("pulya", [str(src)], str(log)).exit_code == 0
    res = result(log)
    assert audit(res).ok  # the changes add up to the program's own totals
    assert res.totals["pool"]["Аня"] == 2 and res.totals["mountain"]["Боря"] == 4
    assert res.totals.value("Вова", "whists", "Боря") == 10
    (game,) = read(str(src), src.read_bytes())
    reasons = [e["reason"] for e in game.events if e["type"] == "adjustment"]
    assert reasons == ["«Пуля преферанса» record-added: Аня 6♠, Боря вист: 2 взятки",
                       "«Пуля преферанса» record-added: Боря 7♦ без одной",
                       "«Пуля преферанса» manual-adjustment: поправка"]
    assert game.events[0]["rules"] == {"preset": "sochi"}


@pytest.mark.parametrize("edit, words", [
    (lambda s: s["state"]["pool"].__setitem__(0, 9), "stateHash does not match"),
    (lambda s: s["pendingEvents"][1]["patch"]["previous"]["mountain"].__setitem__(1, 7), "beforeHash does not match"),
    (lambda s: s["pendingEvents"][1].__setitem__("revision", 5), "does not follow"),
])
def test_a_save_edited_after_hashing_is_refused(edit: Any, words: str) -> None:
    save = session(["Аня", "Боря", "Вова"], STEPS)
    edit(save)
    with pytest.raises(SourceError, match=words):
        read("x.json", json.dumps(save, ensure_ascii=False).encode())


def test_piter_is_leningrad_and_five_players_are_refused() -> None:
    (game,) = read("x.json", json.dumps(session(["A", "B", "C", "D"], [], convention="Питер")).encode())
    assert game.events[0]["rules"] == {"preset": "leningrad"}
    with pytest.raises(SourceError, match="5 players"):
        read("x.json", json.dumps(session(["A", "B", "C", "D", "E"], [])).encode())
