"""Small Serbian games for tests: deals written as words, and a random game maker.

>>> events = game([deal("A:2 B:pass C:pass", "A:6S", calls="B:whist C:pass", kontra="B:kontra",
...                     taken={"A": 6, "B": 4})])
>>> [e["type"] for e in events][-4:]
['whist', 'kontra', 'tricks', 'game_ended']
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import vistlog
from vistlog.events.codec import decode_obj
from vistlog.events.checker import LogChecker
from vistlog.events.games.serbian.game import NUMBER_CONTRACT, Phase, SerbianDeal, SerbianGame

PLAYERS = ["A", "B", "C"]
Deal = Callable[[int], list[dict[str, Any]]]


def dealer_of(n: int) -> str:
    """C deals the first deal, then A, B, C …"""
    return PLAYERS[(n + 1) % 3]


def deal(bids: str, contract: str | None = None, calls: str = "", kontra: str = "",
         taken: dict[str, int] | None = None, igra: bool = False) -> Deal:
    """One deal in words: ``"A:2 B:pass C:pass"``, ``"A:6S"``, ``"B:whist C:pass"``, ``"B:kontra A:rekontra"``."""
    def make(n: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"type": "deal_started", "deal": n, "dealer": dealer_of(n)}]
        for word in bids.split():
            p, b = word.split(":")
            out.append({"type": "bid", "deal": n, "player": p, "bid": b})
        if contract:
            p, c = contract.split(":")
            extra = {"igra": True} if igra else {}
            out.append({"type": "contract", "deal": n, "declarer": p, "contract": c, **extra})
        for word in calls.split():
            p, c = word.split(":")
            out.append({"type": "whist", "deal": n, "player": p, "call": c})
        for word in kontra.split():
            p, k = word.split(":")
            out.append({"type": "kontra", "deal": n, "player": p, "level": k})
        if taken is not None:
            out.append({"type": "tricks", "deal": n, "taken": taken})
        return out

    return make


def all_pass(n: int) -> list[dict[str, Any]]:
    """A deal everybody passes."""
    first = PLAYERS.index(dealer_of(n)) + 1
    order = [PLAYERS[(first + i) % 3] for i in range(3)]
    return deal(" ".join(f"{p}:pass" for p in order))(n)


def game(deals: list[Deal], rules: dict[str, Any] | None = None, pool: int = 20, end: bool = True,
         before: list[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """The events of a game ``g`` with these deals, numbered."""
    events: list[dict[str, Any]] = [{"type": "game_started", "kind": "preferans", "players": PLAYERS, "pool": pool,
                                     "rules": {"preset": "serbian", **(rules or {})}}, *before]
    for n, make in enumerate(deals, start=1):
        events += make(n)
    if end:
        events.append({"type": "game_ended", "reason": "agreed"})
    return [{"v": 1, "seq": i, "game": "g", **e} for i, e in enumerate(events, start=1)]


def fold(events: list[dict[str, Any]]) -> vistlog.Game:
    """The one game of these events."""
    (g,) = vistlog.read_games(events)
    return g


def random_game(rng: random.Random, deals: int, rules: dict[str, Any] | None = None, cards: bool = False,
                pool: int = 40) -> list[dict[str, Any]]:
    """A legal random game: every word chosen among those the state machine allows; with ``cards``
    the hands are dealt and every card played legally, else the tricks are drawn at random."""
    events: list[dict[str, Any]] = []
    checker = LogChecker()

    def emit(**ev: Any) -> None:
        ev = {"v": 1, "seq": len(events) + 1, "game": "r", **ev}
        issues = checker.check(decode_obj(dict(ev)))
        assert not issues, (ev, issues)
        events.append(ev)

    emit(type="game_started", kind="preferans", players=PLAYERS, pool=pool,
         rules={"preset": "serbian", **(rules or {})})
    state = checker.games["r"]
    assert isinstance(state, SerbianGame)
    deck = [f"{r}{s}" for s in "SCDH" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
    for n in range(1, deals + 1):
        if n > 1 and state.pools_closed():
            break  # the bulas add up to 0: the game is over
        dealer = dealer_of(n)
        fields: dict[str, Any] = {}
        if cards:
            rng.shuffle(deck)
            order = [PLAYERS[(PLAYERS.index(dealer) + 1 + i) % 3] for i in range(3)]
            fields = {"hands": {p: deck[10 * i:10 * i + 10] for i, p in enumerate(order)}, "talon": deck[30:]}
        emit(type="deal_started", deal=n, dealer=dealer, **fields)
        d = state.deal
        assert isinstance(d, SerbianDeal)
        while d.phase is Phase.AUCTION:
            p = state._speaker(d)
            words = state.choices(d, p) + ["pass"] * 3
            emit(type="bid", deal=n, player=p, bid=rng.choice(words))
        if d.phase is Phase.DONE:
            continue
        assert d.winner is not None
        least = (d.best[1] if d.best else 2) if d.igra else d.level
        top = 8 if state.serbian.preferans_contract else 7
        number = rng.randint(least, top)
        if not d.igra and cards:
            held = fields["hands"][d.winner] + fields["talon"]
            emit(type="discard", deal=n, player=d.winner, cards=rng.sample(held, 2))
        emit(type="contract", deal=n, declarer=d.winner, contract=NUMBER_CONTRACT[number],
             **({"igra": True} if d.igra else {}))
        for p in list(d.defenders) if d.phase is Phase.DEFENCE else []:
            emit(type="whist", deal=n, player=p, call=rng.choice(["whist", "whist", "pass"]))
        if d.phase is Phase.DONE:
            continue
        if len(d.came) == 1 and d.contract is not None and not (d.contract.contract.text == "6S" and not d.igra) \
                and rng.random() < 0.2:
            emit(type="whist", deal=n, player=d.came[0], call="invite")
        elif rng.random() < 0.3:
            levels = ["kontra", "rekontra", "subkontra", "mortkontra"][:rng.randint(1, 4)]
            if state.serbian.kontra_max == "rekontra":
                levels = levels[:2]
            starter = rng.choice(d.came or list(d.defenders))
            for level in levels:
                emit(type="kontra", deal=n, player=d.winner if level in ("rekontra", "mortkontra") else starter,
                     level=level)
        if state._play_allowed(d) is not None:
            continue  # a plain pik nobody kontred
        if cards:
            while not d.finished:
                if d.play is None:
                    leader = state._leader(d, d.in_play())
                    emit(type="card_played", deal=n, player=leader, card=_first_card(d, leader))
                    continue
                p = d.play.to_play
                hand = sorted(d.play.hands[p], key=str)
                rng.shuffle(hand)
                card = next(c for c in hand if d.play.is_legal(p, c))
                emit(type="card_played", deal=n, player=p, card=str(card))
        else:
            playing = d.in_play()
            dec = d.contract.declarer
            mine = rng.randint(0, 10)
            rest = 10 - mine
            others = [p for p in playing if p != dec]
            split = rng.randint(0, rest) if len(others) == 2 else rest
            taken = {dec: mine, others[0]: split}
            if len(others) == 2:
                taken[others[1]] = rest - split
            emit(type="tricks", deal=n, taken=taken)
    emit(type="game_ended", reason="agreed")
    return events


def _first_card(d: SerbianDeal, p: str) -> str:
    """The first card of the deal: any card of the leader's playing hand leads."""
    started = d.begun
    assert started.hands is not None and d.contract is not None
    hand = list(started.hands[p])
    if p == d.contract.declarer and d.discarded is not None:
        hand = [c for c in hand + list(started.talon or ()) if c not in d.discarded]
    return str(hand[0])
