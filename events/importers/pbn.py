"""``--from pbn`` / ``--to pbn``: Solo Whist deals in PBN (Portable Bridge Notation 2.1).

One board per deal, all boards of a file one game. The players, clockwise in seating order,
sit North, East, South, West. The export writes every tag PBN 2.1 requires (``Event``, ``Site``,
``Date``, ``Board``, ``West``, ``North``, ``East``, ``South``, ``Dealer``, ``Vulnerable``,
``Deal``, ``Scoring``, ``Declarer``, ``Contract``, ``Result``) and the ``Play`` section, so PBN
tools (endplay) read it. PBN's ``Contract``, ``Declarer`` and ``Auction`` are bridge's and
cannot hold Solo Whist, so those stay bridge-neutral (``Pass``, empty) and the game's own facts
go in tags of this project::

    [VistlogRules "{…}"]                   the rules object (first board)
    [VistlogAuction "N prop pass cop …"]   the first bidder's seat, then the bids
    [VistlogContract "solo"] [VistlogDeclarer "N"]
    [VistlogPartner "S"] [VistlogTrump "S"] [VistlogTurned "QH"]
    [VistlogTricks "N:7 E:2 S:2 W:2"]      tricks per seat (also when the play is recorded)
    [VistlogResult "7"] [VistlogStake "0.10"] (first board)
    [VistlogLeader "S"]                    who led the first trick (PBN tools may rewrite Play's seat)
    [VistlogEnded "agreed"]                the game ended, and why (last board)

The reader takes PBN as written by people and programs: ``{ comments }`` anywhere (across lines
too), ``;`` and ``%`` lines, the ``*`` that ends a section, sections and tags it does not know
(skipped; the unknown tags are kept in ``deal_started._pbn``), ``...`` or ``-`` for unknown
hands, and the tag names of this project's older exports (``Contract "solo"``, ``Turned``,
``Partner``, ``Trump``, ``Tricks``, an ``Auction`` section of Solo Whist bids). A board that is
bridge (a bridge contract or auction, or none of the above) is refused with one line at its
``Deal``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import orjson

from ..cards import SOLO_ORDER, Card, Suit, parse_card
from ..play import Play, solo_whist_trump
from ..seating import in_turn
from ..text import digits
from .base import EventList, ImportedGame, SourceError, source

__all__ = ["read", "write"]

SEATS = ("N", "E", "S", "W")
_SUIT_ORDER = (Suit.S, Suit.H, Suit.D, Suit.C)
_RANKS = "AKQJT98765432"
_RANK_VALUE = {c: 14 - i for i, c in enumerate(_RANKS)}
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*(?:;.*)?$')  # a ; comment may follow on the line


def _unescape(value: str) -> str:
    return re.sub(r'\\([\\"])', r"\1", value)  # PBN escapes only the quote and the backslash


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
    if all(h in ("-", "...") for h in hands):
        return None
    out: dict[str, list[str]] = {}
    for seat, hand in zip(in_turn(SEATS, first), hands):
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


_KNOWN = {"Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal",
          "Scoring", "Declarer", "Contract", "Result", "Auction", "Play", "VistlogRules", "VistlogAuction",
          "VistlogContract", "VistlogDeclarer", "VistlogPartner", "VistlogTrump", "VistlogTurned", "VistlogTricks",
          "VistlogResult", "VistlogStake", "VistlogLeader", "VistlogEnded",
          "Turned", "Partner", "Trump", "Tricks"}
_BRIDGE_CALL = re.compile(r"^([1-7](C|D|H|S|NT|N)|X|XX|AP|-|\+|\$\d+|=\d+=)$", re.I)
_SOLO_BIDS = {*SOLO_ORDER, "pass"}


def _strip_comments(text: str) -> str:
    """PBN's ``{ … }`` comments out (they may span lines: those become ``;`` lines, so lines still count)."""
    out = []
    depth = 0
    in_string = False
    for ch in text:
        if depth:
            if ch == "}":
                depth = 0
            elif ch == "\n":
                out.append("\n;")  # a comment line: skipped, and it does not end the board
            continue
        if ch == '"':
            in_string = not in_string
        elif ch == "{" and not in_string:
            depth = 1
            continue
        elif ch == "\n":
            in_string = False
        out.append(ch)
    return "".join(out)


Board = tuple[int, dict[str, str], dict[str, list[str]], dict[str, int]]


def _boards(path: str, text: str) -> Iterator[Board]:
    """(first line, tags, sections, the line of each tag) per board, a board at a time (a file's boards are
    never all held); a blank line ends a board."""
    tags: dict[str, str] = {}
    sections: dict[str, list[str]] = {}
    lines_of: dict[str, int] = {}
    current: str | None = None
    first_line = 0
    for n, raw in enumerate(_strip_comments(text).splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%") or line.startswith(";"):
            if not line and tags:
                yield first_line, tags, sections, lines_of
                tags, sections, lines_of, current = {}, {}, {}, None
            continue
        if line.startswith("["):
            m = _TAG.match(line)
            if not m:
                raise SourceError(f"{path}:{n}: {line[:40]!r} is not a tag [Name \"value\"]")
            if not tags:
                first_line = n
            tags[m.group(1)] = _unescape(m.group(2))
            lines_of[m.group(1)] = n
            current = m.group(1)
            sections[current] = []
        elif current is not None:
            sections[current] += [w for w in line.split(";", 1)[0].split() if w != "*"]
        else:
            raise SourceError(f"{path}:{n}: {line[:30]!r} is neither a tag nor a section line")
    if tags:
        yield first_line, tags, sections, lines_of


def _tag(tags: dict[str, str], name: str) -> str:
    """This project's tag, or the older export's name for it."""
    return tags.get("Vistlog" + name, tags.get(name, "")) if name != "Contract" else tags.get("VistlogContract", "")


def _is_solo(tags: dict[str, str], sections: dict[str, list[str]]) -> bool:
    if any(k.startswith("Vistlog") for k in tags):
        return True
    if tags.get("Contract", "").lower() in _SOLO_BIDS - {"pass"}:
        return True
    calls = [c.lower() for c in sections.get("Auction", [])]
    return bool(calls) and all(c in _SOLO_BIDS for c in calls) and any(c != "pass" for c in calls)


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The game of a PBN file of Solo Whist boards."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceError(f"{path}: not UTF-8 text") from None
    boards = _boards(path, text)
    head = next(boards, None)
    if head is None:
        raise SourceError(f"{path}: no boards")
    _, first, _, _ = head
    seat_player = {s: first.get(name, "") for s, name in zip(SEATS, ("North", "East", "South", "West"))}
    game = first.get("Event") or path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    try:
        rules = orjson.loads(first["VistlogRules"]) if "VistlogRules" in first else {"preset": "encyclopedia"}
    except orjson.JSONDecodeError:
        raise SourceError(f"{path}: VistlogRules is not a JSON object") from None
    events = EventList()
    for number, (line, tags, sections, lines_of) in enumerate(itertools.chain([head], boards), start=1):
        where = f"{path}:{lines_of.get('Deal', line)}"
        if not _is_solo(tags, sections):
            what = tags.get("Contract") or "a bridge auction"
            raise SourceError(f"{where}: a bridge deal (Contract {what!r}); vistlog reads Solo Whist boards, "
                              "which carry the Vistlog tags")
        if number == 1:
            if not all(seat_player.values()):
                raise SourceError(f"{path}: the first board must name North, East, South and West")
            events.append({"v": 1, "type": "game_started", "game": game, "kind": "solo_whist",
                           "players": [seat_player[s] for s in SEATS], "rules": rules,
                           **({"stake": first["VistlogStake"]} if first.get("VistlogStake") else {}),
                           "_source": source(path, "board 1")})
        _board(events, game, number, path, where, tags, sections, seat_player)
        if "VistlogEnded" in tags:
            events.append({"v": 1, "type": "game_ended", "game": game, "reason": tags["VistlogEnded"] or "agreed",
                           "_source": source(path, f"board {tags.get('Board', number)}")})
    return [ImportedGame(game, events, path)]


def _seat(tags: dict[str, str], name: str, seat_player: dict[str, str], where: str) -> str:
    seat = _tag(tags, name)
    if seat not in seat_player:
        raise SourceError(f"{where}: {name}: {seat!r} is not N, E, S or W")
    return seat_player[seat]


def _board(events: EventList, game: str, number: int, path: str, where: str, tags: dict[str, str],
           sections: dict[str, list[str]], seat_player: dict[str, str]) -> None:
    src = source(path, f"board {tags.get('Board', number)}")

    def ev(type_: str, **fields: Any) -> None:
        events.append({"v": 1, "type": type_, "game": game, **fields, "_source": src})

    dealer = seat_player.get(tags.get("Dealer", ""))
    if dealer is None:
        raise SourceError(f"{where}: Dealer: N, E, S or W expected")
    hands = _hands(tags.get("Deal", "N:- - - -"), seat_player, where)
    started: dict[str, Any] = {"deal": number, "dealer": dealer}
    if hands:
        started["hands"] = hands
    if _tag(tags, "Turned"):
        started["turned"] = _tag(tags, "Turned")
    unknown = {k: v for k, v in tags.items() if k not in _KNOWN}
    if unknown:
        started["_pbn"] = unknown
    ev("deal_started", **started)
    auction = tags.get("VistlogAuction", "").split()
    if not auction and sections.get("Auction"):
        auction = [tags.get("Auction", ""), *sections["Auction"]]
    if auction:
        seat, calls = auction[0], auction[1:]
        if seat not in SEATS:
            raise SourceError(f"{where}: Auction: the first seat is N, E, S or W")
        order = in_turn(SEATS, seat)
        for i, call in enumerate(calls):
            ev("bid", deal=number, player=seat_player[order[i % 4]], bid=call.lower())
    contract = (tags.get("VistlogContract") or tags.get("Contract", "")).lower()
    c: dict[str, Any] = {}
    if contract and contract in _SOLO_BIDS - {"pass"}:
        c = {"deal": number, "declarer": _seat(tags, "Declarer", seat_player, where), "contract": contract}
        if _tag(tags, "Partner"):
            c["partner"] = _seat(tags, "Partner", seat_player, where)
        if _tag(tags, "Trump"):
            c["trump"] = _tag(tags, "Trump")
        ev("contract", **c)
    elif contract and contract != "pass":
        raise SourceError(f"{where}: Contract: {contract!r} is not a Solo Whist contract")
    if sections.get("Play") and hands:
        _play(ev, number, tags, sections["Play"], seat_player, hands, c, where)
    elif _tag(tags, "Tricks"):
        taken = {}
        for part in _tag(tags, "Tricks").split():
            seat, _, n = part.partition(":")
            if seat not in seat_player or not digits(n):
                raise SourceError(f"{where}: Tricks: {part!r} is not SEAT:N")
            taken[seat_player[seat]] = int(n)
        ev("tricks", deal=number, taken=taken)


def _play(ev: Any, number: int, tags: dict[str, str], cards: list[str], seat_player: dict[str, str],
          hands: dict[str, list[str]], contract: dict[str, Any], where: str) -> None:
    seat = tags.get("VistlogLeader") or tags.get("Play", "")  # PBN tools may rewrite Play's seat
    if seat not in SEATS:
        raise SourceError(f"{where}: Play: the first seat is N, E, S or W")
    columns = [seat_player[s] for s in in_turn(SEATS, seat)]
    order = [seat_player[s] for s in SEATS]
    try:
        turned = parse_card(_tag(tags, "Turned")).suit if _tag(tags, "Turned") else None
        trump = solo_whist_trump(contract.get("contract"), turned,
                                 Suit(contract["trump"]) if contract.get("trump") else None)
        play = Play({p: [parse_card(c) for c in h] for p, h in hands.items()}, order, columns[0], trump)
    except ValueError as exc:
        raise SourceError(f"{where}: {exc}") from None
    if len(cards) % 4:
        raise SourceError(f"{where}: Play: {len(cards)} cards is not whole tricks of 4")
    for t in range(0, len(cards), 4):
        trick = dict(zip(columns, cards[t:t + 4]))
        for player in in_turn(order, play.leader):
            if trick[player] == "-":
                continue
            try:
                card = _from_pbn_card(trick[player])
            except ValueError as exc:
                raise SourceError(f"{where}: Play: {exc}") from None
            play.play(player, card)  # the state machine judges legality later
            ev("card_played", deal=number, player=player, card=str(card))


def write(events: list[dict[str, Any]]) -> str:
    """The PBN of one Solo Whist game (event dicts in log order), readable by PBN 2.1 tools."""
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
    ended = next((e for e in events if e["type"] == "game_ended"), None)
    last = max(deals, default=0)
    out: list[str] = []
    for number in sorted(deals):
        d = deals[number]
        s = d["start"]
        c = d["contract"]
        taken = (d["tricks"] or {}).get("taken")
        hands = s.get("hands")
        if hands:
            parts = []
            for p in players:
                cs = [parse_card(x) for x in hands[p]]
                parts.append(".".join("".join(_RANKS[14 - x.rank] for x in sorted(cs, key=lambda x: -x.rank)
                                              if x.suit is suit) for suit in _SUIT_ORDER))
            deal = "N:" + " ".join(parts)
        else:
            deal = "N:- - - -"
        result = ""
        if c and taken:
            side = [c["declarer"]] + ([c["partner"]] if c.get("partner") else [])
            result = str(sum(taken.get(p, 0) for p in side))
        tags = [("Event", start["game"]), ("Site", "?"), ("Date", "????.??.??"), ("Board", str(number)),
                ("West", players[3]), ("North", players[0]), ("East", players[1]), ("South", players[2]),
                ("Dealer", seat_of[s["dealer"]]), ("Vulnerable", "None"), ("Deal", deal), ("Scoring", "?"),
                ("Declarer", ""), ("Contract", "Pass"), ("Result", "")]
        if number == 1:
            tags.append(("VistlogRules", orjson.dumps(start["rules"]).decode()))
        if d["bids"]:
            tags.append(("VistlogAuction", " ".join([seat_of[d["bids"][0]["player"]]] + [b["bid"] for b in d["bids"]])))
        if c:
            tags += [("VistlogContract", c["contract"]), ("VistlogDeclarer", seat_of[c["declarer"]])]
            if c.get("partner"):
                tags.append(("VistlogPartner", seat_of[c["partner"]]))
            if c.get("trump"):
                tags.append(("VistlogTrump", c["trump"]))
        if s.get("turned"):
            tags.append(("VistlogTurned", str(parse_card(s["turned"]))))
        if taken:
            tags.append(("VistlogTricks", " ".join(f"{seat_of[p]}:{taken[p]}" for p in players if p in taken)))
        if result:
            tags.append(("VistlogResult", result))
        if number == 1 and start.get("stake"):
            tags.append(("VistlogStake", start["stake"]))
        if d["cards"]:
            tags.append(("VistlogLeader", seat_of[d["cards"][0]["player"]]))
        if ended is not None and number == last:
            tags.append(("VistlogEnded", " ".join(str(ended.get("reason") or "agreed").split())))
        lines = [f'[{k} "{_escape(v)}"]' for k, v in tags]
        if d["cards"]:
            lines += _play_section(d["cards"], players, seat_of)
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _play_section(cards: list[dict[str, Any]], players: list[str], seat_of: dict[str, str]) -> list[str]:
    first = cards[0]["player"]
    columns = in_turn(players, first)
    lines = [f'[Play "{seat_of[first]}"]']
    for t in range(0, len(cards), 4):
        trick = {e["player"]: _pbn_card(parse_card(e["card"])) for e in cards[t:t + 4]}
        lines.append(" ".join(trick.get(p, "-") for p in columns))
    return [*lines, "*"]
