"""``--from ppn``: Serbian preferans games in PPN (Portable Preferans Notation, Prefko).

A PPN file is one game: tag pairs (``[Bula 60]``, ``[Refe 2]``, ``[Player1 …]``…,
``[Result1 …]``…), then one bracketed record per deal::

    [id order cards bids main discarded contract accepted kontra refa value starts throws summary]

(docs/ppn.md has the grammar and the mapping). The reader rebuilds each deal's events:
the hands from the 32-character card string, the whole auction from each player's highest bid
(asking the Serbian state machine what each player may say at his turn), the discard, the
contract, who came, the invitation or the kontras, and every card of the tricks, checking each
trick's winner digit. A deal's ``refa``, ``value`` and ``summary`` are the other program's
scoring: they become a ``score_recorded`` checkpoint with the bula and soups they imply, so
``vistlog audit`` compares them with what the rules give; ``Result1..3`` become the final
checkpoint's ``result``. Unknown tags are kept in ``game_started._ppn_tags``.

The proposals of docs/ppn.md are read too: 13-field records (no ``refa``), ``starts 0`` and
``throws -`` for a contract that is not played, and ``[Rules "key=value,…"]`` naming options.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from ..cards import Bid, Card, Kontra, Suit, WhistCall
from ..codec import decode_obj
from ..checker import LogChecker
from ..games.serbian.game import NUMBER_CONTRACT, Phase, SerbianDeal, SerbianGame, neighbours
from ..text import digits
from .base import ImportedGame, SourceError, source

__all__ = ["read", "CODES", "card_of", "code_of", "ppn_bid", "KONTRA_LETTER"]

_SUITS = (Suit.S, Suit.D, Suit.H, Suit.C)
CODES = "123456789ABCDEFGHIJKLMNOPQRSTUVW"
"""The 32 card codes: ♠ 7…A = 1…8, ♦ = 9…G, ♥ = H…O, ♣ = P…W."""
_CARD_OF = {code: Card(7 + i % 8, _SUITS[i // 8]) for i, code in enumerate(CODES)}
_CODE_OF = {card: code for code, card in _CARD_OF.items()}
_NAME = re.compile(r"\w+")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')  # one pass: the two alternatives never match the same character


def _tag(text: str) -> tuple[str, str] | None:
    """``[Name "value"]`` or ``[Name value]`` as (name, value); read by hand, in one pass (a regular
    expression with overlapping quantifiers over the blanks backtracked cubically on a long line)."""
    if not (text.startswith("[") and text.endswith("]")):
        return None
    inner = text[1:-1]
    name, blank, rest = inner.partition(" ")
    if not blank:
        name, blank, rest = inner.partition("\t")
    if not blank or not _NAME.fullmatch(name):
        return None
    rest = rest.strip()
    if rest.startswith('"'):
        m = _QUOTED.fullmatch(rest)
        return (name, m.group(1).replace('\\"', '"')) if m else None
    return None if '"' in rest or "]" in rest else (name, rest)
KONTRA_LETTER = {"K": Kontra.KONTRA, "R": Kontra.REKONTRA, "S": Kontra.SUBKONTRA, "M": Kontra.MORTKONTRA}
_ENTRY = re.compile(r"^(?:0|M(\d+):(-?\d+)|F(\d+):([LR])(\d+)(?::(-?\d+))?)$", re.ASCII)


def card_of(code: str) -> Card:
    """A PPN card code as a card.

    >>> str(card_of("4")), str(card_of("G")), str(card_of("M")), str(card_of("W"))
    ('10S', 'AD', 'QH', 'AC')
    """
    return _CARD_OF[code]


def code_of(card: Card) -> str:
    """A card as its PPN code."""
    return _CODE_OF[card]


class _Reader:
    """One PPN game being read: the events so far and a checker that follows them."""

    def __init__(self, path: str, game: str) -> None:
        self.path, self.game = path, game
        self.events: list[dict[str, Any]] = []
        self.checker = LogChecker()
        self.seq = 0
        self.where = path

    def fail(self, message: str) -> SourceError:
        return SourceError(f"{self.where}: {message}")

    def emit(self, type_: str, record: str | int, **fields: Any) -> None:
        """Add an event, and check it: the next step of reading depends on the state it leaves."""
        self.seq += 1
        ev = {"v": 1, "seq": self.seq, "type": type_, "game": self.game, **fields}
        issues = self.checker.check(decode_obj(dict(ev)))
        if issues:
            raise self.fail(f"{type_}: {issues[0].field}: {issues[0].message}")
        del ev["seq"]
        ev["_source"] = source(self.path, record)
        self.events.append(ev)

    def trial(self) -> SerbianGame:
        """A state of its own, to try moves on: the events so far, checked again (the same in both builds)."""
        checker = LogChecker()
        for seq, ev in enumerate(self.events, 1):
            checker.check(decode_obj({k: v for k, v in ev.items() if k != "_source"} | {"seq": seq}))
        st = checker.games[self.game]
        assert isinstance(st, SerbianGame)
        return st

    @property
    def state(self) -> SerbianGame:
        st = self.checker.games[self.game]
        assert isinstance(st, SerbianGame)
        return st

    @property
    def deal(self) -> SerbianDeal:
        d = self.state.deal
        assert isinstance(d, SerbianDeal)
        return d


def _tags(path: str, lines: list[tuple[int, str]]) -> tuple[dict[str, str], list[tuple[int, str]]]:
    tags: dict[str, str] = {}
    deals: list[tuple[int, str]] = []
    for no, text in lines:
        tag = _tag(text) if not digits(text[1:2]) else None
        if tag is not None:
            tags[tag[0]] = tag[1]
        elif text.startswith("[") and text.endswith("]") and digits(text[1:2]):
            deals.append((no, text[1:-1]))
        else:
            raise SourceError(f"{path}:{no}: not a PPN tag or deal record: {text[:40]!r}")
    return tags, deals


def _rules(path: str, tags: dict[str, str]) -> dict[str, Any]:
    rules: dict[str, Any] = {"preset": "serbian"}
    if "Refe" in tags:
        if not digits(tags["Refe"]):
            raise SourceError(f"{path}: Refe: {tags['Refe']!r} is not a whole number")
        rules["refe_limit"] = int(tags["Refe"])
    for item in filter(None, (x.strip() for x in tags.get("Rules", "").split(","))):
        key, _, value = item.partition("=")
        v: Any = value.strip()
        if v in ("true", "false"):
            v = v == "true"
        elif digits(v.lstrip("-")):
            v = int(v)
        rules[key.strip()] = v
    return rules


def read(path: str, data: bytes) -> list[ImportedGame]:
    """The game of a PPN file."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceError(f"{path}: not UTF-8 text") from None
    lines = [(no, t.strip()) for no, t in enumerate(text.splitlines(), start=1)]
    tags, deals = _tags(path, [(no, t) for no, t in lines if t and t != "..."])
    players = [tags.get(f"Player{i}", "") for i in (1, 2, 3)]
    if not all(players):
        raise SourceError(f"{path}: the tags Player1, Player2 and Player3 name the players")
    if not tags.get("Bula", "").isdigit():
        raise SourceError(f"{path}: Bula: the starting bula is a whole number, not {tags.get('Bula')!r}")
    game = tags.get("Game") or path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    r = _Reader(path, game)
    extra = {k: v for k, v in tags.items() if k not in ("Bula", "Refe", "Rules", "Game")
             and not re.fullmatch(r"(Player|Result|Place)[123]", k)}
    r.emit("game_started", "tags", kind="preferans", players=players, pool=int(tags["Bula"]),
           rules=_rules(path, tags), **({"_ppn_tags": extra} if extra else {}))
    notes: list[str] = []
    bula = {p: int(tags["Bula"]) for p in players}
    soups: dict[str, dict[str, int]] = {p: {} for p in players}
    for no, record in deals:
        r.where = f"{path}:{no}"
        _deal(r, players, record, bula, soups, notes)
    results = {p: tags.get(f"Result{i}") for i, p in enumerate(players, start=1)}
    last = deals[-1][1].split()[0] if deals else "0"
    if all(v is not None and re.fullmatch(r"-?\d+", v) for v in results.values()):
        r.emit("score_recorded", "tags", after_deal=int(last),
               sheet={p: {"result": int(v)} for p, v in results.items() if v is not None})
    r.emit("game_ended", "end", reason="bula_zero" if sum(bula.values()) == 0 else "agreed")
    return [ImportedGame(game, r.events, path, notes)]


def _deal(r: _Reader, players: list[str], record: str, bula: dict[str, int], soups: dict[str, dict[str, int]],
          notes: list[str]) -> None:
    f = record.split()
    if len(f) == 13:
        f.insert(9, "0")  # the README's own examples leave out refa
    if len(f) not in (4, 14):
        raise r.fail(f"a deal record has 4 or 14 fields, not {len(f)}")
    number, order, cards, bids = f[:4]
    if not digits(number):
        raise r.fail(f"deal id {number!r} is not a number")
    if sorted(order) != ["1", "2", "3"]:
        raise r.fail(f"deal order {order!r} is not the seats 1, 2, 3")
    seat = {d: players[int(d) - 1] for d in "123"}
    if len(cards) != 32 or sorted(cards) != sorted(CODES):
        raise r.fail("the cards are not the 32 PPN codes, each once")
    hands = {seat[order[i]]: [str(_CARD_OF[c]) for c in cards[10 * i:10 * i + 10]] for i in range(3)}
    deal = int(number)
    r.emit("deal_started", f"deal {deal}", deal=deal, dealer=seat[order[2]], hands=hands,
           talon=[str(_CARD_OF[c]) for c in cards[30:]])
    highest = bids.split(",")
    if len(highest) != 3:
        raise r.fail(f"bids {bids!r}: three bids, one per player")
    _auction(r, deal, [seat[d] for d in order], highest)
    if len(f) == 4:
        if not r.deal.all_passed:
            raise r.fail("a 4-field record is an all-pass deal, but the bids are not three passes")
        return
    main, discarded, contract, accepted, kontra, _refa, _value, starts, throws, summary = f[4:]
    if main not in seat:
        raise r.fail(f"main {main!r} is not a seat")
    declarer = seat[main]
    if discarded != "XX":
        if len(discarded) != 2 or any(c not in _CARD_OF for c in discarded):
            raise r.fail(f"discarded {discarded!r} is not two card codes or XX")
        r.emit("discard", f"deal {deal}", deal=deal, player=declarer, cards=[str(_CARD_OF[c]) for c in discarded])
    m = re.fullmatch(r"(G?)([2-8])", contract)
    if not m:
        raise r.fail(f"contract {contract!r} is not 2..8 with an optional G")
    r.emit("contract", f"deal {deal}", deal=deal, declarer=declarer, contract=NUMBER_CONTRACT[int(m.group(2))],
           **({"igra": True} if m.group(1) else {}))
    d = r.deal
    if not d.contract or not d.contract.contract.is_misere:
        came = set(d.defenders) if digits(accepted) and int(accepted) >= 4 else \
            {seat[accepted]} if accepted in seat else set()
        for p in d.defenders:
            r.emit("whist", f"deal {deal}", deal=deal, player=p, call="whist" if p in came else "pass")
    if kontra != "0":
        letter, who = kontra[:1], kontra[1:]
        if who not in seat or letter not in ("I", *KONTRA_LETTER):
            raise r.fail(f"kontra {kontra!r} is not 0, or I, K, R, S, M and a seat")
        if letter == "I":
            r.emit("whist", f"deal {deal}", deal=deal, player=seat[who], call=WhistCall.INVITE.value)
        else:
            for level in list(Kontra)[:KONTRA_LETTER[letter].step]:
                r.emit("kontra", f"deal {deal}", deal=deal, player=declarer if level.by_declarer else seat[who],
                       level=level.value)
    _throws(r, deal, seat, starts, throws, notes)
    _summary(r, deal, players, [seat[x] for x in order], summary, bula, soups)


def _parse_highest(text: str, where: str) -> tuple[str, int | None]:
    m = re.fullmatch(r"(P)|([2-8])|M([2-8])|G([2-8]?)", text)
    if not m:
        raise SourceError(f"{where}: bid {text!r} is not P, 2..8, M2..M8, G or G2..G8")
    if m.group(1):
        return "P", None
    if m.group(2):
        return "N", int(m.group(2))
    if m.group(3):
        return "M", int(m.group(3))
    return "G", int(m.group(4)) if m.group(4) else None


def _auction(r: _Reader, deal: int, order: list[str], highest: list[str]) -> None:
    """Rebuild the auction from each player's highest bid: at his turn a player says the one thing
    that leads towards it (docs/ppn.md §4.4). An igra game of 6 or more may have been named at once
    or after «igra»: each player's choice is tried, on a copy of the game, before anything is written."""
    target = {p: _parse_highest(h, r.where) for p, h in zip(order, highest)}
    named = [p for p in order if target[p][0] == "G" and (target[p][1] or 0) >= 6]
    for flags in sorted(itertools.product((False, True), repeat=len(named)), key=sum):
        direct = {p for p, f in zip(named, flags) if f}
        state = r.trial()
        d = state.deal
        assert isinstance(d, SerbianDeal)
        plan: list[tuple[str, str]] = []
        while d.phase is Phase.AUCTION and len(plan) < 64:
            p = state._speaker(d)
            assert p is not None
            say = _word(d, state.choices(d, p), p, *target[p], p in direct)
            plan.append((p, say))
            issues = state.check(decode_obj({"v": 1, "seq": 0, "type": "bid", "game": r.game, "deal": deal,
                                             "player": p, "bid": say}))
            assert not issues, issues
        if [_highest_of(d, p) for p in order] == highest:
            for p, say in plan:
                r.emit("bid", f"deal {deal}", deal=deal, player=p, bid=say)
            return
    raise r.fail(f"the auction {','.join(highest)} cannot be rebuilt (no legal auction gives these highest bids)")


def _word(d: SerbianDeal, allowed: list[str], p: str, kind: str, n: int | None, direct: bool) -> str:
    """What a player whose highest bid is (``kind``, ``n``) says now."""
    if kind == "G":
        if n is not None and f"igra{n}" in allowed and (direct or p in d.igra):
            return f"igra{n}"
        if p not in d.igra and "igra" in allowed:
            return "igra"
        return "yours" if "yours" in allowed else "pass"
    if kind in ("N", "M") and n is not None:
        if "mine" in allowed and d.level <= n:
            return "mine"
        nxt = str(d.level + 1 if d.level else 2)
        if nxt in allowed and int(nxt) <= n:
            return nxt
    return "pass"


def _highest_of(d: SerbianDeal, player: str) -> str:
    """A player's highest bid in PPN: ``P``, ``3``, ``M3``, ``G``, ``G4``."""
    best = "P"
    level = 0
    for who, bid in d.bids:
        if bid.number is not None and not bid.igra:
            level = bid.number
        if who != player or bid.is_pass or bid.text == "yours":
            continue
        best = ppn_bid(bid, level)
    return best


def ppn_bid(bid: Bid, level: int) -> str:
    """A bid as PPN writes it (``M2`` for «mine» at level 2, the contract's number otherwise)."""
    if bid.text == "mine":
        return f"M{level}"
    if bid.igra:
        return f"G{bid.number}" if bid.number is not None else "G"
    return str(bid.number)


def _throws(r: _Reader, deal: int, seat: dict[str, str], starts: str, throws: str, notes: list[str]) -> None:
    if throws == "-":
        if starts != "0":
            raise r.fail(f"starts {starts!r}: a deal without play starts 0")
        return
    for k, trick in enumerate(throws.split(","), start=1):
        if len(trick) not in (3, 4) or trick[-1] not in seat or any(c not in _CARD_OF for c in trick[:-1]):
            raise r.fail(f"trick {k} {trick!r} is not 2 or 3 card codes and the winner's seat")
        for i, code in enumerate(trick[:-1]):
            d = r.deal
            if d.play is None:
                player = seat.get(starts, "")
            else:
                player = d.play.to_play
            if k == 1 and i == 0 and starts not in seat:
                raise r.fail(f"starts {starts!r} is not a seat")
            r.emit("card_played", f"deal {deal} trick {k}", deal=deal, player=player, card=str(_CARD_OF[code]))
        play = r.deal.play
        if play is not None and play.last_winner != seat[trick[-1]]:
            raise r.fail(f"trick {k}: {play.last_winner} wins it, not seat {trick[-1]} ({seat[trick[-1]]})")


def _summary(r: _Reader, deal: int, players: list[str], order: list[str], summary: str, bula: dict[str, int],
             soups: dict[str, dict[str, int]]) -> None:
    """The other program's scoring of the deal, as a checkpoint of the running bula and soups."""
    entries = summary.split(",")
    if len(entries) != 3:
        raise r.fail(f"summary {summary!r}: three entries, one per player")
    for p, text in zip(order, entries):
        m = _ENTRY.match(text)
        if not m:
            raise r.fail(f"summary entry {text!r} is not 0, M<tricks>:<bula> or F<tricks>:L|R<soup>[:<bula>]")
        if m.group(1) is not None:
            bula[p] += int(m.group(2))
        elif m.group(3) is not None:
            left, right = neighbours(players, p)
            on = left if m.group(4) == "L" else right
            soups[p][on] = soups[p].get(on, 0) + int(m.group(5))
            if m.group(6) is not None:
                bula[p] += int(m.group(6))
    r.emit("score_recorded", f"deal {deal}", after_deal=deal,
           sheet={p: {"bula": bula[p], "soups": {t: x for t, x in soups[p].items()}} for p in bula})
