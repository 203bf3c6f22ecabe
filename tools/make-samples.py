"""Write the sample logs of this folder (deterministic; run from the repository root).

    python tools/make-samples.py

Each sample is a random but legal evening from :mod:`events.simulate`, picked by seed so
that it shows what it is meant to show, timestamped like a real evening, and checked by
the same pipeline as everything else before it is written.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.simulate import preferans_game, solo_whist_game
from vistlog.projections.fold import GameResult, Pipeline

HERE = Path(__file__).resolve().parent.parent / "samples"


def stamp(events: list[dict[str, Any]], start: str, by: str) -> list[dict[str, Any]]:
    t = dt.datetime.fromisoformat(start)
    rng = random.Random(start)
    for e in events:
        if e["type"] == "deal_started":
            t += dt.timedelta(minutes=rng.randint(3, 7))
        e["at"] = t.isoformat(timespec="seconds")
        e["by"] = by
    return events


def check(events: list[dict[str, Any]]) -> GameResult:
    pipe = Pipeline("sample")
    out = []
    for k, e in enumerate(events, start=1):
        e["seq"] = k
        from vistlog.events.codec import decode_obj

        out += list(pipe.feed(k, decode_obj(dict(e))))
    out += list(pipe.close())
    problems = [str(x) for x in out if not isinstance(x, GameResult)]
    assert not problems, problems
    return next(x for x in out if isinstance(x, GameResult))


def sochi() -> list[dict[str, Any]]:
    for seed in range(100):
        evs = preferans_game(random.Random(seed), players=("Аня", "Боря", "Вова"), rules={"preset": "sochi"},
                             pool=20, game="sochi-2026-11-28", max_deals=80, card_play=0.0,
                             stake="0.10")
        if evs[-1]["reason"] == "pools_closed" and sum(e["type"] == "deal_started" for e in evs) <= 50:
            return stamp(evs, "2026-11-28T19:00:00+03:00", "Аня")
    raise SystemExit("no seed closes the pools")


def classic() -> list[dict[str, Any]]:
    for seed in range(500):
        evs = preferans_game(random.Random(seed), players=("Юг", "Запад", "Север", "Восток"),
                             rules={"preset": "classic"}, pool=20, game="classic-2026-11-29", max_deals=20,
                             card_play=0.1)
        kinds = {"bomb": any(e.get("bomb") for e in evs), "dark": any(e.get("dark") for e in evs),
                 "raspas": any(e["type"] == "tricks" and not any(c["type"] == "contract" and c["deal"] == e["deal"]
                                                                 for c in evs) for e in evs)}
        if all(kinds.values()):
            return stamp(evs, "2026-11-29T18:30:00+03:00", "Север")
    raise SystemExit("no classic seed with bombs, dark and raspas")


def open_hands() -> list[dict[str, Any]]:
    """A leningrad evening recorded card by card by players who see every hand and slip now and then,
    with claims: what ``vistlog analyse`` is for."""
    from vistlog.projections.analysis import analyse

    for seed in range(200):
        evs = preferans_game(random.Random(seed), players=("Аня", "Боря", "Вова"), rules={"preset": "leningrad"},
                             pool=10, game="open-hands-2026-12-01", max_deals=20, card_play=1.0, claims=0.3,
                             skill=0.85)
        claims = [e for e in evs if e["type"] == "claim"]
        if len(claims) < 3 or all(e.get("accepted", True) for e in claims) or evs[-1]["reason"] != "pools_closed":
            continue
        slips = sum(bool(d.mistakes) for d in analyse(check([dict(e) for e in evs])).deals)
        if slips >= 4:
            return stamp(evs, "2026-12-01T19:00:00+03:00", "Аня")
    raise SystemExit("no seed with claims accepted and disputed, slips in four deals and the pools closed")


def solo() -> list[dict[str, Any]]:
    evs = solo_whist_game(random.Random(3), players=("Маша", "Петя", "Оля", "Коля"),
                          rules={"preset": "encyclopedia"}, game="vist-solo-2026-11-27", deals=16, card_play=0.15,
                          stake="1")
    return stamp(evs, "2026-11-27T20:00:00+03:00", "Маша")


def disputed(sochi_events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Sochi evening with the scorekeeper's sheet written down every 4 deals, one entry wrong."""
    res = check([dict(e) for e in sochi_events])
    out: list[dict[str, Any]] = []
    last_deal = 0
    wrong_at = 8
    for e in sochi_events:
        if e["type"] in ("deal_started", "game_ended") and last_deal and last_deal % 4 == 0:
            t = res.totals_after(last_deal)
            sheet = {p: {"pool": int(t["pool"][p]), "mountain": int(t["mountain"][p]),
                         "whists": {q: int(v) for q, v in t.pairs_by("whists", p).items()}} for p in res.players}
            if last_deal >= wrong_at:
                sheet["Вова"]["mountain"] += 10  # a misère entry written twice, carried from deal 8 on
            out.append({"v": 1, "type": "score_recorded", "game": e["game"], "after_deal": last_deal,
                        "sheet": sheet, "at": e["at"], "by": "Аня"})
        if e["type"] == "deal_started":
            last_deal = e["deal"]
        out.append(dict(e))
    for e in out:
        e["game"] = "sochi-disputed"
    return out


def corrected(s: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first six deals of the Sochi evening with deal 2 first written wrong (7♠ played and lost
    instead of given up without three), then voided and recorded again as it was (``replaces_voided``)."""
    end = next(i for i, e in enumerate(s) if e["type"] == "deal_started" and e["deal"] == 7)
    head = [dict(e, game="sochi-corrected") for e in s[:end]]
    deal2 = [e for e in head if e.get("deal") == 2]
    at = deal2[-1]["at"]
    wrong: list[dict[str, Any]] = []
    for e in deal2:
        if e["type"] == "contract":
            e = {k: v for k, v in e.items() if k != "without_three"}
            rest = {k: v for k, v in e.items() if k not in ("declarer", "contract")}
            wrong += [e, {**rest, "type": "whist", "player": "Аня", "call": "whist"},
                      {**rest, "type": "whist", "player": "Боря", "call": "pass"},
                      {**rest, "type": "tricks", "taken": {"Аня": 3, "Боря": 1, "Вова": 6}}]
            continue
        wrong.append(e)
    out = [e for e in head if e.get("deal") != 2]
    first = out.index(next(e for e in out if e.get("deal") == 3))
    out[first:first] = wrong
    last_at = out[-1]["at"]
    out.append({"v": 1, "type": "deal_voided", "game": "sochi-corrected", "deal": 2,
                "reason": "Вова gave 7♠ up without three; it was written as played", "at": last_at, "by": "Аня"})
    again = [dict(e, at=last_at) for e in deal2]
    again[0]["replaces_voided"] = True
    return out + again + [{"v": 1, "type": "game_ended", "game": "sochi-corrected", "reason": "agreed",
                           "at": at, "by": "Аня"}]


def write(name: str, events: list[dict[str, Any]]) -> None:
    check([dict(e) for e in events])
    for k, e in enumerate(events, start=1):
        e["seq"] = k
    (HERE / name).write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    print(f"{name}: {len(events)} events")


if __name__ == "__main__":
    s = sochi()
    write("sochi-evening.jsonl", s)
    write("classic-bombs.jsonl", classic())
    write("solo-whist-evening.jsonl", solo())
    write("disputed-sheet.jsonl", disputed(s))
    write("corrected-deal.jsonl", corrected(s))
    write("open-hands.jsonl", open_hands())
