"""``--from pbn`` / ``--to pbn``: Solo Whist deals in PBN (Portable Bridge Notation 2.1 syntax).

One board per deal, all boards of a file one game. The players, clockwise in seating order,
sit North, East, South, West. Tags used::

    [Event "vist-solo-2026-11-27"]        the game id
    [North "Маша"] [East "Петя"] [South "Оля"] [West "Коля"]
    [Board "1"] [Dealer "W"]
    [Deal "N:AKQ2.JT9.876.543 …"]         hands from the named seat clockwise, suits S.H.D.C
    [Declarer "N"] [Contract "solo"]      the Solo Whist bid; no Contract when everybody passed
    [Auction "N"]                          then the calls: prop cop solo misere abundance
                                           trump_abundance open_misere full_abundance pass
    [Play "N"]                             then one line per trick, columns fixed by seat from
                                           the tag's seat clockwise (PBN's rule)
    [Result "7"]                           tricks of the declaring side

and four tags of this project's own: ``[VistlogRules "{…}"]`` (the rules object),
``[Turned "QH"]``, ``[Partner "S"]`` (the seat that accepted a prop), ``[Trump "S"]`` (an
abundance's named suit) and ``[Tricks "N:7 E:2 S:2 W:2"]`` (tricks per seat, for deals whose
play is not recorded).
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from ..cards import Card, Suit, parse_card
from ..play import Play
from . import ImportedGame, SourceError, source

__all__ = ["read", "write"]

SEATS = ("N", "E", "S", "W")
_SUIT_ORDER = (Suit.S, Suit.H, Suit.D, Suit.C)
_RANKS = "AKQJT98765432"
_RANK_VALUE = {c: 14 - i for i, c in enumerate(_RANKS)}
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _pbn_card(c: Card) -> str:
    return c.suit.value + _RANKS[14 - c.rank]


def _from_pbn_card(text: str) -> Card:
    text = text.strip()
    if len(text) != 2 or text[1].upper() not in _RANK_VALUE:
        raise ValueError(f"{text!r} is not a PBN card (suit then rank, e.g. SK, HT)")
    rank = text[1].upper()
    return parse_card(("10" if rank == "T" else rank) + text[0].upper())


def _hands(deal: str, seat_player: dict[str, str], where: str) -> dict[str, list[str]] | None:
    first, _, rest = deal.partition(":")
    if first not in SEATS or not rest:
        raise SourceError(f"{where}: Deal: {deal!r} is not 'N:hand hand hand hand'")
    hands = rest.split()
    if len(hands) != 4:
        raise SourceError(f"{where}: Deal: four hands expected")
    if all(h == "-" for h in hands):
        return None
    start = SEATS.index(first)
    out: dict[str, list[str]] = {}
    for k, hand in enumerate(hands):
        seat = SEATS[(start + k) % 4]
        suits = hand.split(".")
        if len(suits) != 4:
            raise SourceError(f"{where}: Deal: {hand!r} is not four suits S.H.D.C")
        cards = []
        for suit, ranks in zip(_SUIT_ORDER, suits):
            for r in ranks:
                if r.upper() not in _RANK_VALUE:
                    raise SourceError(f"{where}: Deal: {r!r} is not a rank")
                cards.append(str(Card(_RANK_VALUE[r.upper()], suit)))
        out[seat_player[seat]] = cards
    return out


def _boards(path: str, text: str) -> list[tuple[int, dict[str, str], dict[str, list[str]]]]:
    """(line, tags, sections) per board; a board starts at its first tag after a blank line."""
    boards: list[tuple[int, dict[str, str], dict[str, list[str]]]] = []
    tags: dict[str, str] = {}
    sections: dict[str, list[str]] = {}
    current: str | None = None
    first_line = 0
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%") or line.startswith(";"):
            if not line and tags:
                boards.append((first_line, tags, sections))
                tags, sections, current = {}, {}, None
            continue
        m = _TAG.match(line)
        if m:
            if not tags:
                first_line = n
            tags[m.group(1)] = _unescape(m.group(2))
            current = m.group(1) if m.group(1) in ("Auction", "Play") else None
            if current:
                sections[current] = []
        elif current:
            sections[current] += line.split()
        else:
            raise SourceError(f"{path}:{n}: {line[:30]!r} is neither a tag nor a section line")
    if tags:
        boards.append((first_line, tags, sections))
    return boards


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The game of a PBN file of Solo Whist boards."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceError(f"{path}: not UTF-8 text") from None
    boards = _boards(path, text)
    if not boards:
        raise SourceError(f"{path}: no boards")
    _, first, _ = boards[0]
    seat_player = {s: first.get(name, "") for s, name in zip(SEATS, ("North", "East", "South", "West"))}
    if not all(seat_player.values()):
        raise SourceError(f"{path}: the first board must name North, East, South and West")
    players = [seat_player[s] for s in SEATS]
    game = first.get("Event") or path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    try:
        rules = orjson.loads(first["VistlogRules"]) if "VistlogRules" in first else {"preset": "encyclopedia"}
    except orjson.JSONDecodeError:
        raise SourceError(f"{path}: VistlogRules is not a JSON object") from None
    events: list[dict[str, Any]] = [{"v": 1, "type": "game_started", "game": game, "kind": "solo_whist",
                                     "players": players, "rules": rules, "_source": source(path, "board 1")}]
    for number, (line, tags, sections) in enumerate(boards, start=1):
        where = f"{path}:{line}"
        src = source(path, f"board {tags.get('Board', number)}")

        def ev(type_: str, **fields: Any) -> None:
            events.append({"v": 1, "type": type_, "game": game, **fields, "_source": src})

        try:
            dealer = seat_player[tags["Dealer"]]
        except KeyError:
            raise SourceError(f"{where}: Dealer: N, E, S or W expected") from None
        hands = _hands(tags.get("Deal", "N:- - - -"), seat_player, where)
        started: dict[str, Any] = {"deal": number, "dealer": dealer}
        if hands:
            started["hands"] = hands
        if tags.get("Turned"):
            started["turned"] = tags["Turned"]
        ev("deal_started", **started)
        if "Auction" in sections:
            seat = tags.get("Auction", "")
            if seat not in SEATS:
                raise SourceError(f"{where}: Auction: the first seat is N, E, S or W")
            k = SEATS.index(seat)
            for i, call in enumerate(sections["Auction"]):
                ev("bid", deal=number, player=seat_player[SEATS[(k + i) % 4]], bid=call.lower())
        contract = tags.get("Contract", "")
        declarer = seat_player.get(tags.get("Declarer", ""), "")
        c: dict[str, Any] = {}
        if contract:
            c = {"deal": number, "declarer": declarer, "contract": contract.lower()}
            if tags.get("Partner"):
                c["partner"] = seat_player.get(tags["Partner"], tags["Partner"])
            if tags.get("Trump"):
                c["trump"] = tags["Trump"]
            ev("contract", **c)
        if "Play" in sections and hands:
            _play(ev, number, tags, sections["Play"], seat_player, hands, c, where)
        elif tags.get("Tricks"):
            taken = {}
            for part in tags["Tricks"].split():
                seat, _, n = part.partition(":")
                if seat not in seat_player or not n.isdigit():
                    raise SourceError(f"{where}: Tricks: {part!r} is not SEAT:N")
                taken[seat_player[seat]] = int(n)
            ev("tricks", deal=number, taken=taken)
    events.append({"v": 1, "type": "game_ended", "game": game, "reason": "agreed", "_source": source(path, "end")})
    return [ImportedGame(game, events, path)]


def _play(ev: Any, number: int, tags: dict[str, str], cards: list[str], seat_player: dict[str, str],
          hands: dict[str, list[str]], contract: dict[str, Any], where: str) -> None:
    seat = tags.get("Play", "")
    if seat not in SEATS:
        raise SourceError(f"{where}: Play: the first seat is N, E, S or W")
    columns = [seat_player[SEATS[(SEATS.index(seat) + i) % 4]] for i in range(4)]
    order = [seat_player[s] for s in SEATS]
    turned = parse_card(tags["Turned"]).suit if tags.get("Turned") else None
    name = contract.get("contract", "")
    trump = {"prop": turned, "solo": turned, "trump_abundance": turned}.get(name)
    if name == "abundance" and contract.get("trump"):
        trump = Suit(contract["trump"])
    play = Play({p: [parse_card(c) for c in h] for p, h in hands.items()}, order, columns[0], trump)
    if len(cards) % 4:
        raise SourceError(f"{where}: Play: {len(cards)} cards is not whole tricks of 4")
    for t in range(0, len(cards), 4):
        trick = dict(zip(columns, cards[t:t + 4]))
        start = order.index(play.leader)
        for i in range(4):
            player = order[(start + i) % 4]
            try:
                card = _from_pbn_card(trick[player])
            except ValueError as exc:
                raise SourceError(f"{where}: Play: {exc}") from None
            play.play(player, card)  # the state machine judges legality later
            ev("card_played", deal=number, player=player, card=str(card))


def write(events: list[dict[str, Any]]) -> str:
    """The PBN of one Solo Whist game (event dicts in log order)."""
    start = next(e for e in events if e["type"] == "game_started")
    if start["kind"] != "solo_whist":
        raise SourceError("PBN export is for Solo Whist games")
    players: list[str] = start["players"]
    seat_of = dict(zip(players, SEATS))
    deals: dict[int, dict[str, Any]] = {}
    for e in events:
        t = e["type"]
        if t == "deal_started":
            deals[e["deal"]] = {"start": e, "bids": [], "cards": [], "contract": None, "tricks": None}
        elif t == "bid":
            deals[e["deal"]]["bids"].append(e)
        elif t == "contract":
            deals[e["deal"]]["contract"] = e
        elif t == "card_played":
            deals[e["deal"]]["cards"].append(e)
        elif t == "tricks":
            deals[e["deal"]]["tricks"] = e
    out: list[str] = []
    for number in sorted(deals):
        d = deals[number]
        s = d["start"]
        tags = [("Event", start["game"])]
        if number == 1:
            tags.append(("VistlogRules", orjson.dumps(start["rules"]).decode()))
        tags += [("Board", str(number)), ("North", players[0]), ("East", players[1]), ("South", players[2]),
                 ("West", players[3]), ("Dealer", seat_of[s["dealer"]])]
        hands = s.get("hands")
        if hands:
            parts = []
            for p in players:
                cs = [parse_card(c) for c in hands[p]]
                parts.append(".".join("".join(_RANKS[14 - c.rank] for c in sorted(cs, key=lambda c: -c.rank)
                                              if c.suit is suit) for suit in _SUIT_ORDER))
            tags.append(("Deal", "N:" + " ".join(parts)))
        else:
            tags.append(("Deal", "N:- - - -"))
        if s.get("turned"):
            tags.append(("Turned", str(parse_card(s["turned"]))))
        c = d["contract"]
        if c:
            tags += [("Declarer", seat_of[c["declarer"]]), ("Contract", c["contract"])]
            if c.get("partner"):
                tags.append(("Partner", seat_of[c["partner"]]))
            if c.get("trump"):
                tags.append(("Trump", c["trump"]))
        taken = (d["tricks"] or {}).get("taken")
        if taken and not d["cards"]:
            tags.append(("Tricks", " ".join(f"{seat_of[p]}:{taken[p]}" for p in players if p in taken)))
        if c and taken:
            side = [c["declarer"]] + ([c["partner"]] if c.get("partner") else [])
            tags.append(("Result", str(sum(taken.get(p, 0) for p in side))))
        lines = [f'[{k} "{_escape(v)}"]' for k, v in tags]
        if d["bids"]:
            lines.append(f'[Auction "{seat_of[d["bids"][0]["player"]]}"]')
            lines.append(" ".join(b["bid"] for b in d["bids"]))
        if d["cards"]:
            lines += _play_section(d["cards"], players, seat_of)
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _play_section(cards: list[dict[str, Any]], players: list[str], seat_of: dict[str, str]) -> list[str]:
    first = cards[0]["player"]
    columns = [players[(players.index(first) + i) % 4] for i in range(4)]
    lines = [f'[Play "{seat_of[first]}"]']
    for t in range(0, len(cards), 4):
        trick = {e["player"]: _pbn_card(parse_card(e["card"])) for e in cards[t:t + 4]}
        lines.append(" ".join(trick.get(p, "-") for p in columns))
    return lines
