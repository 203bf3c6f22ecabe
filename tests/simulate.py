"""Random legal games, for tests, benchmarks and sample logs.

:func:`preferans_game` and :func:`solo_whist_game` deal real cards and make random but
legal choices (bids, contracts, whist calls, play), returning event dicts in log order.
They know the rules only as the state machine states them: a ``check`` callable (by
default :class:`vistlog.events.checker.LogChecker`) is asked about every event, and a choice it
refuses is a bug the caller will see.

>>> import random
>>> evs = preferans_game(random.Random(1), players=("A", "B", "C"), rules={"preset": "sochi"}, pool=10)
>>> evs[0]["type"], evs[-1]["type"]
('game_started', 'game_ended')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from vistlog.events.cards import PREFERANS_DECK, SOLO_WHIST_DECK, Card, Suit, all_bids
from vistlog.events.codec import decode_obj
from vistlog.events import seating
from vistlog.events.play import Play
from vistlog.events.rules import PreferansOptions, SoloWhistOptions

__all__ = ["preferans_game", "solo_whist_game", "Checker"]

Checker = Callable[[Any], list[tuple[str, str]]]

_PREF_BIDS = sorted((b for b in all_bids() if b.preferans and not b.is_pass and b.text != "hold"),
                    key=lambda b: b.auction_rank)


class _Emitter:
    def __init__(self, game: str, check: Checker | None, seq0: int) -> None:
        self.game = game
        self.events: list[dict[str, Any]] = []
        self.seq = seq0
        self.checker = None
        if check is None:
            from vistlog.events.checker import LogChecker

            self.checker = LogChecker()
            check = self.checker.check
        self.check = check

    def closed(self) -> bool:
        """Every pool is closed, as the emitter's own checker knows it (its game's tally)."""
        state = self.checker.games.get(self.game) if self.checker is not None else None
        return state is not None and state.pools_closed()

    def __call__(self, type_: str, **fields: Any) -> None:
        self.seq += 1
        ev = {"v": 1, "seq": self.seq, "type": type_, "game": self.game, **fields}
        issues = self.check(decode_obj(dict(ev)))
        if issues:
            raise AssertionError(f"simulator made an illegal event {ev}: {issues}")
        self.events.append(ev)


def _cards(cs: Sequence[Card]) -> list[str]:
    return [str(c) for c in sorted(cs, key=lambda c: (c.suit.order, c.rank))]


def _play_out(rng: random.Random, play: Play) -> list[tuple[str, Card]]:
    moves = []
    while not play.complete:
        p = play.to_play
        legal = [c for c in sorted(play.hands[p], key=lambda c: (c.suit.order, c.rank)) if play.is_legal(p, c)]
        card = rng.choice(legal)
        err = play.play(p, card)
        assert err is None, err
        moves.append((p, card))
    return moves


def _claimed(rng: random.Random, emit: _Emitter, number: int, play: Play, declarer: str,
             defenders: Sequence[str], whisters: Sequence[str], skill: float | None = None,
             contract: Any = None) -> None:
    """Play to a random trick, then a claim (see :func:`preferans_game`); with ``skill``, skilled play
    and a claim of what the cards give the claimer's side four times in five."""
    solver = None
    if skill is not None:
        from vistlog.projections.solver import Solver

        solver = Solver(play.hands, play.seating, play.to_play, play.trump, declarer, contract.is_misere)
    stop = rng.randint(0, 9) if solver is None else rng.randint(3, 9)
    line: list[Card] = []
    while play.trick_no <= stop:
        card = _next_card(rng, play, solver, line, skill or 0.0)
        emit("card_played", deal=number, player=play.to_play, card=str(card))
        play.play(play.to_play, card)
        line.append(card)
    left = 10 - play.trick_no + 1
    claimer = declarer if rng.random() < 0.75 else rng.choice(list(defenders))
    tricks = rng.randint(0, left)
    if solver is not None and rng.random() < 0.8:
        mine = solver.value(line) - play.taken.get(declarer, 0)
        tricks = mine if claimer == declarer else left - mine
    accepted = rng.random() < 0.75
    fields: dict[str, Any] = {"deal": number, "player": claimer, "tricks": tricks}
    if not accepted:
        fields["accepted"] = False
    defence = left - tricks if claimer == declarer else tricks
    if claimer == declarer and defence and len(whisters) == 2:
        first = rng.randint(0, defence)
        fields["split"] = {whisters[0]: first, whisters[1]: defence - first}
    emit("claim", **fields)
    if not accepted:
        while not play.complete:
            card = _next_card(rng, play, solver, line, skill or 0.0)
            play.play(play.to_play, card)
            line.append(card)
        emit("tricks", deal=number, taken=dict(play.taken))


def _next_card(rng: random.Random, play: Play, solver: Any, line: list[Card], skill: float) -> Card:
    """The next card: a best one with chance ``skill`` when a solver is given, else any legal one."""
    p = play.to_play
    legal = [c for c in sorted(play.hands[p], key=lambda c: (c.suit.order, c.rank)) if play.is_legal(p, c)]
    if solver is not None and rng.random() < skill:
        _, keep = solver.best_cards(line)
        legal = sorted(keep, key=lambda c: (c.suit.order, c.rank))
    return rng.choice(legal)


def _skilled_contract(hands: dict[str, list[Card]], talon: list[Card], holding: list[str], declarer: str,
                      bid: Any) -> tuple[Any, tuple[list[Card], int]]:
    """The contract a declarer who sees every hand names, and his discard and its value: for each trump,
    the two lowest cards of his shortest other suits away, the suit that makes the most."""
    from vistlog.projections.solver import Solver

    own = hands[declarer] + talon
    best: tuple[int, int, Suit | None, list[Card]] | None = None
    for order, trump in enumerate((Suit.S, Suit.C, Suit.D, Suit.H, None)):
        side = sorted((c for c in own if c.suit is not trump),
                      key=lambda c: (sum(x.suit is c.suit for x in own), c.rank))
        away = side[:2]
        held = {**hands, declarer: [c for c in own if c not in away]}
        v = Solver(held, holding, holding[0], trump, declarer).value()
        if best is None or (v, order) > best[:2]:
            best = (v, order, trump, away)
    assert best is not None
    value, _, trump, away = best
    level = min(10, max(6, value))
    named = next(b for b in _PREF_BIDS if b.level == level and b.strain is trump and not b.is_misere)
    if named.auction_rank < bid.auction_rank:
        named = bid
        side = sorted((c for c in own if c.suit is not named.strain),
                      key=lambda c: (sum(x.suit is c.suit for x in own), c.rank))
        away = side[:2]
        held = {**hands, declarer: [c for c in own if c not in away]}
        value = Solver(held, holding, holding[0], named.strain, declarer).value()
    return named, (away, value)


def _skilled_play(rng: random.Random, play: Play, declarer: str, contract: Any, skill: float
                  ) -> list[tuple[str, Card]]:
    """Play to the end, each card a best one (double-dummy) with chance ``skill``, else any legal one."""
    from vistlog.projections.solver import Solver

    solver = Solver(play.hands, play.seating, play.to_play, play.trump, declarer, contract.is_misere)
    moves: list[tuple[str, Card]] = []
    line: list[Card] = []
    while not play.complete:
        p = play.to_play
        card = _next_card(rng, play, solver, line, skill)
        assert play.play(p, card) is None
        moves.append((p, card))
        line.append(card)
    return moves


def _split(rng: random.Random, total: int, names: Sequence[str], weights: Sequence[float] | None = None
           ) -> dict[str, int]:
    out = {n: 0 for n in names}
    for _ in range(total):
        out[rng.choices(list(names), weights=weights)[0]] += 1
    return out


def preferans_game(rng: random.Random, *, players: Sequence[str] = ("Аня", "Боря", "Вова"),
                   rules: dict[str, Any] | None = None, pool: int = 10, game: str = "g",
                   max_deals: int = 60, card_play: float = 0.2, check: Checker | None = None,
                   seq0: int = 0, closed: Callable[[], bool] | None = None, stake: str | None = None,
                   claims: float = 0.0, skill: float | None = None) -> list[dict[str, Any]]:
    """A random legal Preferans game, as event dicts.

    ``skill`` (with cards recorded): players who see every hand, as the double-dummy solver does: the
    declarer names the contract his cards make (no lower than the auction's bid) after a sensible
    discard, a defender whists a contract he can set, and each card is a best one with chance ``skill``.

    ``claims``: the chance that a contract played card by card stops at a random trick with a claim
    (accepted three times in four; a disputed one is followed by the tricks of the rest played out).

    ``closed`` says whether every pool is closed (by default the checker's own tally, when the simulator checks
    with its own); the game ends there when the rules end it so, else after ``max_deals`` deals.
    """
    from vistlog.events.rules import make_rules

    rules = rules or {"preset": "sochi"}
    opts = make_rules(rules).options
    assert isinstance(opts, PreferansOptions), "a Preferans preset is needed"
    emit = _Emitter(game, check, seq0)
    if closed is None and emit.checker is not None:
        closed = emit.closed
    start: dict[str, Any] = {"kind": "preferans", "players": list(players), "pool": pool, "rules": rules}
    if stake:
        start["stake"] = stake
    emit("game_started", **start)
    dealer = rng.choice(list(players))
    same_dealer = 0
    deck = sorted(PREFERANS_DECK, key=lambda c: (c.suit.order, c.rank))
    for number in range(1, max_deals + 1):
        if closed is not None and getattr(opts, "game_end", "") == "pools_closed" and closed():
            break
        next_dealer = seating.clockwise(players, dealer)[0]
        sits_out = seating.dealer_sits_out(True, players)
        holding = seating.holders(players, dealer, dealer_sits_out=sits_out)
        cards = list(deck)
        rng.shuffle(cards)
        hands = {p: cards[10 * k:10 * k + 10] for k, p in enumerate(holding)}
        talon = cards[30:32]
        bomb = rng.choice([0, 0, 0, 1, 2, 3]) if opts.bombs else 0
        record_cards = rng.random() < card_play
        ds: dict[str, Any] = {"deal": number, "dealer": dealer}
        if bomb:
            ds["bomb"] = bomb
        if record_cards:
            ds["hands"] = {p: _cards(hands[p]) for p in holding}
            ds["talon"] = [str(c) for c in talon]
        emit("deal_started", **ds)
        # auction
        highest = -1
        passed: set[str] = set()
        winner = None
        bids: list[tuple[str, str]] = []
        turn = 0
        want_raspas = rng.random() < 0.25
        silent: set[str] = set()  # a misère bidder says nothing more (misere_first_word)
        spoken: set[str] = set()
        while True:
            speakers = [p for p in holding if p not in passed and p not in silent]
            if (winner is None and not speakers) or (winner is not None and not [s for s in speakers if s != winner]):
                break
            p = holding[turn % len(holding)]
            turn += 1
            if p in passed or p in silent:
                continue
            higher = [b for b in _PREF_BIDS if b.auction_rank > highest
                      and not (b.is_misere and (winner is not None or p in spoken))]
            if not want_raspas and higher and rng.random() < (0.8 if winner is None else 0.35):
                step = 0
                while step < len(higher) - 1 and rng.random() < 0.35:
                    step += 1
                b = higher[step]
                highest = b.auction_rank
                winner = p
                bids.append((p, b.text))
                spoken.add(p)
                if b.is_misere and getattr(opts, "misere_first_word", False):
                    silent.add(p)
            else:
                passed.add(p)
                bids.append((p, "pass"))
        record_auction = rng.random() < 0.7
        if record_auction:
            for p, call in bids:
                emit("bid", deal=number, player=p, bid=call)
        if winner is None:
            if record_cards:
                taker = dealer if sits_out and opts.talon_tricks_to_dealer else None
                play = Play(hands, holding, holding[0], None, talon_leads=talon, talon_taker=taker, must_trump=True)
                for p, c in _play_out(rng, play):
                    emit("card_played", deal=number, player=p, card=str(c))
            else:
                taken = _split(rng, 10, holding)
                if sits_out and opts.talon_tricks_to_dealer and rng.random() < 0.2:
                    give = rng.choice([p for p in holding if taken[p]])
                    taken[give] -= 1
                    taken[dealer] = 1
                emit("tricks", deal=number, taken=taken)
            if opts.raspas_dealer_repeats and same_dealer + 1 < opts.raspas_dealer_repeats:
                same_dealer += 1
                continue
            same_dealer = 0
            dealer = next_dealer
            continue
        same_dealer = 0
        top = next(x for x in _PREF_BIDS if x.auction_rank == highest)
        contract = top
        seen: tuple[list[Card], int] | None = None  # skill: the discard and the value of the contract
        if skill is not None and record_cards and not top.is_misere:
            contract, seen = _skilled_contract(hands, talon, holding, winner, top)
        elif not top.is_misere and rng.random() < 0.2:
            contract = rng.choice([b for b in _PREF_BIDS if b.auction_rank >= highest and not b.is_misere])
        cfields: dict[str, Any] = {"deal": number, "declarer": winner, "contract": contract.text}
        if opts.dark_games and rng.random() < 0.1:
            cfields["dark"] = True
        level = contract.level
        totus = bool(opts.totus and level == 10 and rng.random() < 0.5)
        if totus:
            cfields["totus"] = True
            others = [p for p in players if p != winner]
            k = min(bomb, 2)
            if k:
                cfields["helps"] = rng.sample(others, rng.randint(0, k))
        without_three = (not totus and not contract.is_misere and rng.random() < 0.05)
        if without_three:
            cfields["without_three"] = True
        if record_cards:
            own = hands[winner] + talon
            rng.shuffle(own)
            if seen is not None:
                own = seen[0] + [x for x in own if x not in seen[0]]
            emit("contract", **cfields)
            emit("discard", deal=number, player=winner, cards=[str(x) for x in own[:2]])
            hands[winner] = own[2:]
        else:
            emit("contract", **cfields)
        if without_three:
            dealer = next_dealer
            continue
        defenders = seating.defenders(holding, winner)
        needs_calls = not (contract.is_misere or totus or (level == 10 and opts.ten_game != "whisted"))
        played = True
        calls: list[str] = []
        if needs_calls:
            first, second = defenders
            c1 = rng.choice(["whist", "whist", "pass"])
            if c1 == "pass" and opts.half_whist and level in (6, 7) and rng.random() < 0.3:
                emit("whist", deal=number, player=first, call="pass")
                emit("whist", deal=number, player=second, call="half")
                back = rng.choice([None, "pass", "whist"])
                if back:
                    emit("whist", deal=number, player=first, call=back)
                played = back == "whist"
                calls = [back or "pass", "pass"]
            elif seen is not None:
                c1 = "whist" if seen[1] < (level or 0) or rng.random() < 0.4 else "pass"
                c2 = "whist" if seen[1] < (level or 0) or rng.random() < 0.3 else "pass"
                emit("whist", deal=number, player=first, call=c1)
                emit("whist", deal=number, player=second, call=c2)
                played = "whist" in (c1, c2)
                calls = [c1, c2]
            else:
                c2 = rng.choice(["whist", "pass"] if c1 == "whist" else ["whist", "whist", "pass"])
                emit("whist", deal=number, player=first, call=c1)
                emit("whist", deal=number, player=second, call=c2)
                played = "whist" in (c1, c2)
                calls = [c1, c2]
        if played:
            if record_cards:
                trump = contract.strain if contract.level is not None else None
                play = Play(hands, holding, holding[0], trump, must_trump=True)
                if claims and rng.random() < claims:
                    whisters = [d for d, c in zip(defenders, calls) if c == "whist"]
                    _claimed(rng, emit, number, play, winner, defenders, whisters, skill, contract)
                    dealer = next_dealer
                    continue
                moves = _play_out(rng, play) if skill is None else _skilled_play(rng, play, winner, contract, skill)
                for p, card in moves:
                    emit("card_played", deal=number, player=p, card=str(card))
            else:
                w = [3.0 if p == winner else 1.0 for p in holding]
                if contract.is_misere:
                    w = [0.15 if p == winner else 1.0 for p in holding]
                emit("tricks", deal=number, taken=_split(rng, 10, holding, w))
        dealer = next_dealer
    emit("game_ended", reason="pools_closed" if closed is not None and closed() else "agreed")
    return emit.events


_SOLO_BIDS = ("solo", "misere", "abundance", "trump_abundance", "open_misere", "full_abundance")


def solo_whist_game(rng: random.Random, *, players: Sequence[str] = ("North", "East", "South", "West"),
                    rules: dict[str, Any] | None = None, game: str = "s", deals: int = 16,
                    card_play: float = 0.2, check: Checker | None = None, seq0: int = 0,
                    stake: str | None = None) -> list[dict[str, Any]]:
    """A random legal Solo Whist game, as event dicts."""
    from vistlog.events.rules import make_rules

    rules = rules or {"preset": "encyclopedia"}
    opts = make_rules(rules).options
    assert isinstance(opts, SoloWhistOptions), "a Solo Whist preset is needed"
    emit = _Emitter(game, check, seq0)
    start: dict[str, Any] = {"kind": "solo_whist", "players": list(players), "rules": rules}
    if stake:
        start["stake"] = stake
    emit("game_started", **start)
    dealer = rng.choice(list(players))
    deck = sorted(SOLO_WHIST_DECK, key=lambda c: (c.suit.order, c.rank))
    for number in range(1, deals + 1):
        order = seating.holders(players, dealer, dealer_sits_out=False)
        cards = list(deck)
        rng.shuffle(cards)
        hands = {p: cards[13 * k:13 * k + 13] for k, p in enumerate(order)}
        turned = rng.choice(hands[dealer])
        record_cards = rng.random() < card_play
        ds: dict[str, Any] = {"deal": number, "dealer": dealer, "turned": str(turned)}
        if record_cards:
            ds["hands"] = {p: _cards(hands[p]) for p in order}
        emit("deal_started", **ds)
        roll = rng.random()
        contract: dict[str, Any] | None
        if roll < 0.1:
            for p in order:
                emit("bid", deal=number, player=p, bid="pass")
            contract = None
        elif roll < 0.4:
            proposer = rng.choice(order[1:]) if rng.random() < 0.5 else order[0]
            partner = rng.choice([p for p in order if p != proposer])
            contract = {"declarer": proposer, "contract": "prop", "partner": partner}
            j, k = order.index(proposer), order.index(partner)
            if rng.random() < 0.6 and (k > j or k == 0):
                for m, p in enumerate(order):
                    late_cop = k == 0 and p == partner and k < j
                    b = "prop" if p == proposer else "cop" if p == partner and not late_cop else "pass"
                    if m < j and b == "cop":
                        b = "pass"
                    emit("bid", deal=number, player=p, bid=b)
                if k < j:
                    emit("bid", deal=number, player=partner, bid="cop")
        else:
            name = rng.choices(_SOLO_BIDS, weights=(8, 3, 2, 1, 1, 0.5))[0]
            contract = {"declarer": rng.choice(order), "contract": name}
            if name == "abundance":
                contract["trump"] = rng.choice([s.value for s in Suit])
        if contract is not None:
            emit("contract", deal=number, **contract)
        if contract is None and opts.all_pass == "redeal":
            dealer = order[0]
            continue
        if record_cards:
            trumps = {"prop": turned.suit, "solo": turned.suit, "trump_abundance": turned.suit}
            name = contract["contract"] if contract else "general"
            trump = Suit(contract["trump"]) if contract and "trump" in contract else trumps.get(name)
            leader = contract["declarer"] if contract and name == "full_abundance" else order[0]
            play = Play(hands, order, leader, trump)
            for p, c in _play_out(rng, play):
                emit("card_played", deal=number, player=p, card=str(c))
        else:
            side = ([contract["declarer"]] + ([contract["partner"]] if "partner" in contract else [])
                    if contract else [])
            misere = contract is not None and "misere" in contract["contract"]
            w = [(0.2 if misere else 2.0) if p in side else 1.0 for p in order]
            taken = _split(rng, 13, order, w)
            fields: dict[str, Any] = {"deal": number, "taken": taken}
            if contract is None:
                fields["last"] = rng.choice([p for p in order if taken[p]])
            emit("tricks", **fields)
        dealer = order[0]
    emit("game_ended", reason="agreed")
    return emit.events
