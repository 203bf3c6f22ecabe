"""``--from csv`` / ``--to csv``: a club's paper protocol, one row per deal.

The file starts with ``# key: value`` lines for what a row cannot say, then a header row::

    # game: club-2026-11-29
    # kind: preferans
    # players: Аня, Боря, Вова
    # pool: 20
    # rules: {"preset": "sochi"}
    deal,dealer,declarer,contract,flags,whist:Аня,whist:Боря,whist:Вова,tricks:Аня,tricks:Боря,tricks:Вова
    1,Вова,Аня,6C,,,whist,pass,6,3,1
    2,Аня,,,,,,,0,4,6

Columns: ``deal``, ``dealer``, ``declarer`` and ``contract`` (both empty for a raspas, or a
Solo Whist deal everybody passed), ``flags`` (words: ``dark``, ``without_three``, ``totus``,
``bomb:N``, ``helps:NAME``), ``whist:NAME`` (the defender's call: ``whist``, ``pass``,
``half``; ``pass/whist`` when he took a half-whist back), ``tricks:NAME`` (empty when the deal
was decided without play). Solo Whist adds ``turned``, ``partner``, ``trump`` and ``last``.
Optionally what the scorekeeper wrote after the deal: ``pool:NAME``, ``mountain:NAME``,
``whists:NAME:ON`` (whists NAME wrote on ON), ``points:NAME``; a row with any of them becomes a
``score_recorded``. ``export --to csv`` writes the same columns, so a sheet round-trips
through a spreadsheet.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from typing import Any

import orjson

from ..seating import clockwise, dealer_sits_out, defenders, holders
from ..text import neutral, restored
from .base import EventList, ImportedGame, SourceError, source

__all__ = ["read", "write"]

def _names_line(names: list[str]) -> str:
    """``Аня, Боря, Вова``; a name with a comma, a quote or a space at either end is quoted as CSV quotes it."""

    def one(name: str) -> str:
        name = neutral(name)
        if any(c in name for c in ',"') or name != name.strip():
            return '"' + name.replace('"', '""') + '"'
        return name

    return ", ".join(one(n) for n in names)


def _names_of(value: str) -> list[str]:
    (row,) = list(csv.reader([value], skipinitialspace=True)) or [[]]
    return [restored(n.strip()) for n in row if n.strip()]


PREF_COLUMNS = ("deal", "dealer", "declarer", "contract", "flags")
SOLO_COLUMNS = ("deal", "dealer", "turned", "declarer", "contract", "partner", "trump", "last")


def _meta(lines: list[str], path: str) -> tuple[dict[str, str], list[str]]:
    meta: dict[str, str] = {}
    rest = []
    for i, line in enumerate(lines):
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if not sep:
                raise SourceError(f"{path}:{i + 1}: a header line is '# key: value'")
            meta[key.strip()] = value.strip()
        else:
            rest = lines[i:]
            break
    return meta, rest


def _int(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise SourceError(f"{where}: {text!r} is not a whole number") from None


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The one game of a protocol CSV."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceError(f"{path}: not UTF-8 text") from None
    lines = text.splitlines()
    meta, body = _meta(lines, path)
    offset = len(lines) - len(body)  # the header row is line offset + 1, the first deal offset + 2
    reader = csv.DictReader(body)
    del lines, text
    first = next(reader, None)
    rows: Iterator[dict[str, Any]] = itertools.chain([first] if first is not None else [], reader)  # a row at a time
    if not body or first is None:
        raise SourceError(f"{path}: no deals (a header row and one row per deal)")
    header = list(csv.DictReader(io.StringIO(body[0])).fieldnames or [])
    missing = [c for c in ("deal", "dealer", "declarer", "contract") if c not in header]
    if missing:
        raise SourceError(f"{path}:{offset + 1}: not a protocol header (missing {', '.join(missing)}; "
                          f"found {', '.join(header)})")
    players = _names_of(meta.get("players", "")) or [c.split(":", 1)[1] for c in header if c.startswith("tricks:")]
    if not players:
        raise SourceError(f"{path}: no players (a '# players:' line, or tricks:NAME columns)")
    kind = meta.get("kind", "preferans")
    game = meta.get("game") or path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    try:
        rules = orjson.loads(meta["rules"]) if "rules" in meta else \
            {"preset": "encyclopedia" if kind == "solo_whist" else "sochi"}
    except orjson.JSONDecodeError:
        raise SourceError(f"{path}: rules: not a JSON object") from None
    start: dict[str, Any] = {"v": 1, "type": "game_started", "game": game, "kind": kind, "players": players,
                             "rules": rules, "_source": source(path, "header")}
    if kind == "preferans":
        start["pool"] = _int(meta.get("pool", "20"), f"{path}: pool")
    if meta.get("stake"):
        start["stake"] = meta["stake"]
    events = EventList([start])
    for n, row in enumerate(rows, start=offset + 2):
        _deal_row(events, row, f"{path}:{n}", source(path, f"row {n}"), game, kind, players)
    if "ended" in meta:  # the game ends only where the protocol says it did
        events.append({"v": 1, "type": "game_ended", "game": game, "reason": meta["ended"] or "agreed",
                       "_source": source(path, "end")})
    return [ImportedGame(game, events, path)]


def _deal_row(events: EventList, row: dict[str, Any], where: str, src: dict[str, Any], game: str,
              kind: str, players: list[str]) -> None:
    """The events of one protocol row (one deal), appended to ``events``."""

    def ev(type_: str, **fields: Any) -> None:
        events.append({"v": 1, "type": type_, "game": game, **fields, "_source": src})

    def cell(name: str) -> str:
        return restored((row.get(name) or "").strip())

    def who(name: str, empty: bool = False) -> str:
        text = cell(name)
        if (text or not empty) and text not in players:
            raise SourceError(f"{where}: {name}: {text!r} is not a player ({', '.join(players)})")
        return text

    deal = _int(cell("deal"), f"{where}: deal")
    flags = cell("flags").split() if kind == "preferans" else []
    started: dict[str, Any] = {"deal": deal, "dealer": who("dealer")}
    for flag in flags:
        if flag.startswith("bomb:"):
            started["bomb"] = _int(flag[5:], f"{where}: flags")
    if kind == "solo_whist" and cell("turned"):
        started["turned"] = cell("turned")
    ev("deal_started", **started)
    declarer, contract = who("declarer", empty=True), cell("contract")
    if bool(declarer) != bool(contract):
        raise SourceError(f"{where}: declarer and contract go together (both empty for a raspas)")
    if contract:
        c: dict[str, Any] = {"deal": deal, "declarer": declarer, "contract": contract}
        for flag in flags:
            if flag in ("dark", "without_three", "totus"):
                c[flag] = True
            elif flag.startswith("helps:"):
                c.setdefault("helps", []).append(flag[6:])
            elif not flag.startswith("bomb:"):
                raise SourceError(f"{where}: flags: unknown word {flag!r}")
        for name in ("partner", "trump"):
            if cell(name):
                c[name] = cell(name)
        ev("contract", **c)
        calls = {p: cell(f"whist:{p}").split("/") for p in players if cell(f"whist:{p}")}
        if calls:
            sits_out = dealer_sits_out(kind == "preferans", players)
            order = defenders(holders(players, started["dealer"], dealer_sits_out=sits_out), declarer)
            firsts = [(p, calls[p][0]) for p in order if p in calls]
            seconds = [(p, calls[p][1]) for p in order if p in calls and len(calls[p]) > 1]
            for p, call in firsts + seconds:
                ev("whist", deal=deal, player=p, call=call)
    elif kind == "solo_whist":
        for p in clockwise(players, started["dealer"]):
            ev("bid", deal=deal, player=p, bid="pass")
    taken = {p: _int(cell(f"tricks:{p}"), f"{where}: tricks:{p}") for p in players if cell(f"tricks:{p}")}
    if taken:
        t: dict[str, Any] = {"deal": deal, "taken": taken}
        if kind == "solo_whist" and cell("last"):
            t["last"] = cell("last")
        ev("tricks", **t)
    sheet: dict[str, dict[str, Any]] = {}
    for col, value in row.items():
        if not col or not value or not value.strip():
            continue
        head, _, rest = col.partition(":")
        if head in ("pool", "mountain", "points"):
            sheet.setdefault(rest, {})[head] = _int(value.strip(), f"{where}: {col}")
        elif head == "whists":
            writer, _, target = rest.partition(":")
            sheet.setdefault(writer, {}).setdefault("whists", {})[target] = _int(value.strip(), f"{where}: {col}")
    if sheet:
        ev("score_recorded", after_deal=deal, sheet=sheet)


def write(events: list[dict[str, Any]]) -> str:
    """The protocol CSV of one game (event dicts in log order)."""
    start = next(e for e in events if e["type"] == "game_started")
    players: list[str] = start["players"]
    kind = start["kind"]
    solo = kind == "solo_whist"
    out = io.StringIO()
    out.write(f"# game: {start['game']}\n# kind: {kind}\n# players: {_names_line(players)}\n")
    if not solo:
        out.write(f"# pool: {start['pool']}\n")
    out.write(f"# rules: {orjson.dumps(start['rules']).decode()}\n")
    if start.get("stake"):
        out.write(f"# stake: {start['stake']}\n")
    ended = next((e for e in events if e["type"] == "game_ended"), None)
    if ended is not None:
        out.write(f"# ended: {' '.join(str(ended.get('reason') or 'agreed').split())}\n")
    deals: dict[int, dict[str, Any]] = {}
    recorded: dict[int, dict[str, Any]] = {}
    for e in events:
        t = e["type"]
        if t == "deal_started":
            deals[e["deal"]] = {"deal": e["deal"], "dealer": e["dealer"], "bomb": e.get("bomb", 0),
                                "turned": e.get("turned", ""), "calls": {}}
        elif t == "contract":
            deals[e["deal"]]["contract"] = e
        elif t == "whist":
            deals[e["deal"]]["calls"].setdefault(e["player"], []).append(e["call"])
        elif t == "tricks":
            deals[e["deal"]]["tricks"] = e
        elif t == "score_recorded":
            recorded[e["after_deal"]] = e["sheet"]
    cols = list(SOLO_COLUMNS if solo else PREF_COLUMNS)
    if not solo:
        cols += [f"whist:{p}" for p in players]
    cols += [f"tricks:{p}" for p in players]
    extra: list[str] = []
    for sheet in recorded.values():
        for p, line in sheet.items():
            for field in ("pool", "mountain", "points"):
                if line.get(field) is not None and f"{field}:{p}" not in extra:
                    extra.append(f"{field}:{p}")
            for q in line.get("whists") or {}:
                if f"whists:{p}:{q}" not in extra:
                    extra.append(f"whists:{p}:{q}")
    order = {c: i for i, c in enumerate(f"{f}:{p}" for p in players for f in ("pool", "mountain", "points"))}
    extra.sort(key=lambda c: (order.get(c, len(order)), c))
    w = csv.writer(out, lineterminator="\n")
    w.writerow(cols + extra)
    for number in sorted(deals):
        d = deals[number]
        c = d.get("contract") or {}
        flags = [f for f in ("dark", "without_three", "totus") if c.get(f)]
        if d["bomb"]:
            flags.insert(0, f"bomb:{d['bomb']}")
        flags += [f"helps:{h}" for h in c.get("helps", [])]
        taken = (d.get("tricks") or {}).get("taken", {})
        row: dict[str, Any] = {"deal": number, "dealer": neutral(d["dealer"]),
                               "declarer": neutral(c.get("declarer", "")), "contract": c.get("contract", ""),
                               "flags": " ".join(flags), "turned": d["turned"],
                               "partner": neutral(c.get("partner", "")),
                               "trump": c.get("trump", ""), "last": neutral((d.get("tricks") or {}).get("last", ""))}
        for p in players:
            row[f"whist:{p}"] = "/".join(d["calls"].get(p, []))
            row[f"tricks:{p}"] = taken.get(p, "")
        for p, line in recorded.get(number, {}).items():
            for field in ("pool", "mountain", "points"):
                if line.get(field) is not None:
                    row[f"{field}:{p}"] = line[field]
            for q, x in (line.get("whists") or {}).items():
                row[f"whists:{p}:{q}"] = x
        w.writerow([row.get(col, "") for col in cols + extra])
    return out.getvalue()
