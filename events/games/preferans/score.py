"""Preferans scoring: one deal → the numbers it writes on the sheet, each with its reason.

:func:`score_deal` is pure: it reads the options, the deal and the totals so far (for the
pool overflow, тотус and the mountain floor) and returns a :class:`DealScore`: the rows the deal
writes, which the caller adds to its totals (and makes into entries when it keeps them).
Every rule reads an option of :class:`vistlog.events.rules.PreferansOptions`; no preset is named here.

>>> from vistlog.events.rules import make_rules
>>> from vistlog.events.model import ContractMade
>>> from vistlog.events.cards import parse_bid, WhistCall
>>> opts = make_rules({"preset": "sochi"}).options
>>> deal = DealRecord(number=1, dealer="C", holders=("A", "B", "C"), bomb=0,
...     contract=ContractMade(seq=2, game="g", deal=1, declarer="A", contract=parse_bid("6S")),
...     defenders=("B", "C"), calls=(("B", WhistCall.WHIST), ("C", WhistCall.PASS)),
...     taken={"A": 6, "B": 2, "C": 2})
>>> for e in score_deal(opts, 20, ["A", "B", "C"], deal, SCORING.totals("ABC"), 0).entries:
...     print(e.describe())
+2 pool A: 6S made
+8 whists B→A: 4 defence tricks × 2 (greedy: the passer's tricks too)
"""

from __future__ import annotations

from collections.abc import Sequence

from ...calls import WhistCall, final_calls, half_stands, obligation, undertricks, whister_share
from ...model import Allocation
from ...rules import PreferansOptions
from ...seating import clockwise

from ...entries import Column, DealScore, Num, Totals, exact_div, fmt
from ...record import DealRecord
from ...scoring import Scoring

__all__ = ["score_deal", "price_of", "next_streak", "SCORING"]


def price_of(opts: PreferansOptions, deal: DealRecord) -> int:
    """``base × 2^bomb × 2 (dark)``."""
    assert deal.contract is not None
    p = deal.contract.contract.base_price << deal.bomb
    return p * 2 if deal.contract.dark else p


def next_streak(opts: PreferansOptions, deal: DealRecord, streak: int) -> int:
    """Raspasy in a row after this deal (the rule is the options', :meth:`PreferansOptions.raspas_run`)."""
    return opts.raspas_run(streak, deal.mode == "raspas", deal.contract is not None, deal.played)


class _Book:
    """Entries being written for one deal, with scratch pools and mountains for the overflow."""

    def __init__(self, opts: PreferansOptions, pool_size: int, players: Sequence[str], deal: DealRecord,
                 totals: Totals) -> None:
        self.o = opts
        self.size = pool_size
        self.players = list(players)
        self.deal = deal
        self.pool = dict(totals["pool"])
        self.mountain = dict(totals["mountain"])
        self.score = DealScore(deal.number)
        self.write = self.score.write

    def pool_add(self, p: str, x: Num, why: str) -> None:
        if x:
            self.pool[p] += x
            self.write("pool", p, x, why)

    def mountain_add(self, p: str, x: Num, why: str) -> None:
        if x:
            self.mountain[p] += x
            self.write("mountain", p, x, why)

    def whist(self, writer: str, on: str, x: Num, why: str) -> None:
        if x:
            self.write("whists", writer, x, why, on)

    def clockwise_from(self, p: str) -> list[str]:
        """The others, clockwise from p's left (the seating rule of :mod:`vistlog.events.seating`)."""
        return clockwise(self.players, p)[:-1]

    def write_off(self, p: str, x: Num, why: str) -> None:
        """Take ``x`` off p's own mountain, stopping at 0 when ``mountain_floor`` says so."""
        if self.o.mountain_floor:
            x = min(x, max(self.mountain[p], 0))
        self.mountain_add(p, -x, why)

    def win(self, p: str, x: Num, why: str, *, made_game: bool) -> None:
        """Points won: an ``allocation`` if one was recorded (and adds up), else the overflow policy."""
        alloc = [a for a in self.deal.allocations if a.player == p]
        if alloc and self._allocate(p, x, why, alloc[-1]):
            return
        rest = x
        if made_game and self.o.made_points_first == "mountain" and self.mountain[p] > 0:
            off = min(rest, self.mountain[p])
            self.mountain_add(p, -off, f"{why}: off own mountain first")
            rest -= off
        if self.o.overflow == "none":
            self.pool_add(p, rest, why)
            return
        to_pool = min(rest, max(self.size - self.pool[p], 0))
        self.pool_add(p, to_pool, why)
        rest -= to_pool
        if rest and self.o.overflow == "help":
            while rest:
                open_pools = [q for q in self.clockwise_from(p) if self.pool[q] < self.size]
                if not open_pools:
                    break
                target = max(open_pools, key=lambda q: self.pool[q])  # first of equals: clockwise
                give = min(rest, self.size - self.pool[target])
                self.pool_add(target, give, f"help from {p} ({why})")
                self.whist(p, target, give * self.o.pool_point,
                           f"help: {fmt(give)} pool points × {self.o.pool_point}")
                rest -= give
        if rest:
            self.write_off(p, rest, f"{why}: past the pool, off own mountain")

    def _allocate(self, p: str, x: Num, why: str, a: Allocation) -> bool:
        """Write an explicit allocation; ``False`` (and a problem) when it does not add up."""
        helped = sum(a.help.values())
        total = a.pool - a.mountain + helped
        if total != x:
            self.score.problems.append((
                f"allocation of {p} puts {total} points (pool {a.pool}, mountain {a.mountain}, help {helped}) "
                f"but the deal awards {fmt(x)}", a.seq))
            return False
        self.pool_add(p, a.pool, f"{why} (allocated to the pool)")
        self.mountain_add(p, a.mountain, f"{why} (allocated: off own mountain)")
        for q, n in a.help.items():
            self.pool_add(q, n, f"help from {p} ({why}, allocated)")
            self.whist(p, q, n * self.o.pool_point, f"help: {n} pool points × {self.o.pool_point}")
        return True


def score_deal(opts: PreferansOptions, pool_size: int, players: Sequence[str], deal: DealRecord,
               totals: Totals, streak: int) -> DealScore:
    """What one Preferans deal writes. ``streak`` is the raspasy in a row before it."""
    book = _Book(opts, pool_size, players, deal, totals)
    if deal.contract is None:
        if deal.mode == "raspas" and deal.played:
            _raspas(book, deal, streak + 1)
    else:
        _contract(book, deal)
    return book.score


# --------------------------------------------------------------------------- contracts

def _contract(book: _Book, deal: DealRecord) -> None:
    o = book.o
    c = deal.contract
    assert c is not None
    d = c.declarer
    name = c.contract.text + (" dark" if c.dark else "") + (f" on bomb {deal.bomb}" if deal.bomb else "")
    p = price_of(o, deal)
    if c.without_three:
        book.mountain_add(d, p * o.declarer_penalty_rate * 3, f"{name} given up without three: 3 × {fmt(p)}")
        return
    if c.totus:
        _totus(book, deal, p, name)
        return
    if c.contract.is_misere:
        t = undertricks(None, True, False, None if deal.taken is None else deal.taken.get(d, 0))
        if t == 0:
            book.win(d, p, f"{name} made", made_game=True)
        else:
            book.mountain_add(d, p * o.misere_penalty_rate * t, f"{name} failed: {t} trick(s) × {fmt(p)}")
        return
    level = c.contract.level
    assert level is not None
    if not deal.played:
        if half_stands(deal.calls):
            book.win(d, p, f"{name} made without play (half-whist)", made_game=True)
            half_tricks = exact_div(obligation(level), 2)
            halfer = deal.calls[1][0]
            book.whist(halfer, d, p * o.whist_rate * half_tricks,
                       f"half-whist: {fmt(half_tricks)} trick(s) × {fmt(p * o.whist_rate)}")
        else:
            book.win(d, p, f"{name} made without play (both defenders passed)", made_game=True)
        return
    assert deal.taken is not None
    u = undertricks(level, False, False, deal.taken.get(d, 0))
    if u == 0:
        book.win(d, p, f"{name} made", made_game=True)
    else:
        book.mountain_add(d, p * o.declarer_penalty_rate * u, f"{name} failed: {u} undertrick(s) × {fmt(p)}")
    _defence(book, deal, p, u, level)


def _defence(book: _Book, deal: DealRecord, p: Num, u: int, level: int) -> None:
    """What the defenders write after a played contract: whists for their tricks, a whister short of his
    share, the consolation of a contract that failed."""
    o = book.o
    assert deal.contract is not None and deal.taken is not None
    d = deal.contract.declarer
    others = _consolers(book, deal, d)
    cons, cons_why = _consolation(book, p, u)
    if level == 10 and o.ten_game != "whisted":
        if u and o.ten_game != "checked_silent" and o.consolation != "none":
            for q in others:
                book.whist(q, d, cons, cons_why)
        return
    final = final_calls(deal.calls)
    whisters = [q for q in deal.defenders if final.get(q) is WhistCall.WHIST]
    rate = p * o.whist_rate
    tricks = {q: deal.taken.get(q, 0) for q in deal.defenders}
    team = sum(tricks.values())
    need = obligation(level)
    written: dict[str, Num] = {}
    if half_stands(deal.calls):  # played out (option half_whist_played): the half-whister answers for half
        halfer = deal.calls[1][0]
        quota = exact_div(need, 2)
        got = min(team, quota)
        written[halfer] = rate * got
        if got:
            book.whist(halfer, d, written[halfer],
                       f"played half-whist: {fmt(got)} of {team} defence trick(s), up to half the obligation, "
                       f"× {fmt(rate)}")
        short = max(0, quota - team)
        if short:
            book.mountain_add(halfer, p * o.whister_penalty_rate * short,
                              f"half-whister short by {fmt(short)} trick(s) × {fmt(p * o.whister_penalty_rate)}")
    elif len(whisters) == 2:
        for who in whisters:
            written[who] = rate * tricks[who]
            book.whist(who, d, written[who], f"{tricks[who]} defence trick(s) × {fmt(rate)}")
        if u == 0:
            _two_whister_shortfall(book, whisters, tricks, team, need, level, p)
    elif len(whisters) == 1:
        lone = whisters[0]
        passer = next(q for q in deal.defenders if q != lone)
        if u and o.single_whister == "gentleman":
            pot = rate * team
            if o.consolation == "ordinary":
                pot += 2 * cons
            elif o.consolation == "grabbing":
                pot = 2 * (pot + cons)
            half = exact_div(pot, 2)
            for q in (lone, passer):
                book.whist(q, d, half, f"gentleman's whist: half of {fmt(pot)} (tricks and consolation)")
                written[q] = half
            others = [q for q in others if q not in (lone, passer)]
        else:
            written[lone] = rate * team
            why = f"{team} defence tricks × {fmt(rate)}" + (" (greedy: the passer's tricks too)"
                                                             if tricks[passer] else "")
            book.whist(lone, d, written[lone], why)
            if u == 0:
                short = max(0, need - team)
                if short:
                    book.mountain_add(lone, p * o.whister_penalty_rate * short,
                                      f"whister short by {short} trick(s) × {fmt(p * o.whister_penalty_rate)}")
    if u and o.consolation != "none":
        top = max(written.values(), default=0)
        for q in others:
            if o.consolation == "grabbing" and q not in whisters:
                book.whist(q, d, top + cons, "grabbing whist: as much as the whister wrote")
            else:
                book.whist(q, d, cons, cons_why)

def _two_whister_shortfall(book: _Book, whisters: list[str], tricks: dict[str, int], team: int, need: int,
                           level: int, p: Num) -> None:
    o = book.o
    share = whister_share(level)
    mode = o.two_whisters
    short = max(0, need - team)
    pays: dict[str, int] = {}
    if mode == "personal" or short:
        if level >= 8 and mode in ("team_then_half", "team_capped"):
            pays[whisters[1]] = short
        else:
            for w in whisters:
                own = max(0, share - tricks[w])
                if mode == "team_capped":
                    own = min(own, short)
                if own:
                    pays[w] = own
    for who, n in pays.items():
        if n:
            book.mountain_add(who, p * o.whister_penalty_rate * n,
                              f"whister short by {n} trick(s) × {fmt(p * o.whister_penalty_rate)} ({mode})")


def _totus(book: _Book, deal: DealRecord, p: Num, name: str) -> None:
    o = book.o
    c = deal.contract
    assert c is not None and deal.taken is not None
    d = c.declarer
    dt = deal.taken[d]
    if dt >= 10:
        book.pool_add(d, max(book.size - book.pool[d], 0), f"тотус {name} made: own pool closed")
        book.mountain_add(d, -max(book.mountain[d], 0), "тотус made: own mountain written off")
        if deal.bomb >= 3:
            for q in book.clockwise_from(d):
                book.mountain_add(q, -max(book.mountain[q], 0), "тотус on ёлка: every mountain written off")
            return
        for q in c.helps[:deal.bomb]:
            gap = max(book.size - book.pool[q], 0)
            book.pool_add(q, gap, f"тотус: {d} closes the pool")
            book.whist(d, q, gap * o.pool_point, f"тотус help: {fmt(gap)} pool points × {o.pool_point}")
            m = max(book.mountain[q], 0)
            book.mountain_add(q, -m, f"тотус: {d} writes off the mountain")
            book.whist(d, q, m * o.mountain_point, f"тотус help: {fmt(m)} mountain points × {o.mountain_point}")
        return
    u = 10 - dt
    book.mountain_add(d, max(book.mountain[d], 0), f"тотус {name} failed: own mountain doubled")
    if deal.bomb == 1 and c.helps:
        q = c.helps[0]
        book.mountain_add(d, max(book.mountain[q], 0), f"тотус failed: plus the mountain of {q}")
    if o.consolation != "none":
        cons, why = _consolation(book, p, u)
        for q in _consolers(book, deal, d):
            book.whist(q, d, cons, why)


def _consolers(book: _Book, deal: DealRecord, declarer: str) -> list[str]:
    """Who writes consolation for a failed declarer: every other player who holds cards, and the
    sitting-out dealer too under ``dealer_consolation``; in seating order."""
    return [q for q in book.players if q != declarer and (q in deal.holders or book.o.dealer_consolation)]


def _consolation(book: _Book, p: Num, u: int) -> tuple[Num, str]:
    """The consolation each of them writes for ``u`` undertricks at price ``p``, and its reason."""
    rate = p * book.o.consolation_rate
    return rate * u, f"consolation for {u} undertrick(s) × {fmt(rate)}"


# --------------------------------------------------------------------------- raspas

def _raspas(book: _Book, deal: DealRecord, k: int) -> None:
    o = book.o
    assert deal.taken is not None
    taken = {q: deal.taken.get(q, 0) for q in deal.holders}
    r = o.raspas_rate(k) if o.raspas_mode == "mountain" else o.raspas_whists
    label = f"raspas {k}" if k > 1 else "raspas"
    bonus = r if o.raspas_zero_amount == "price" and o.raspas_mode == "mountain" else 1
    if o.raspas_mode == "mountain":
        counted = [*taken.values()] + ([deal.taken[deal.dealer]] if deal.dealer in deal.taken
                                       and deal.dealer not in deal.holders else [])
        base = min(counted) if o.raspas_amnesty else 0
        for q in deal.holders:
            t = taken[q] - base
            if t:
                amnesty = f" (after amnesty of {base})" if base else ""
                book.mountain_add(q, r * t, f"{label}: {t} trick(s) × {fmt(r)}{amnesty}")
        talon = deal.taken.get(deal.dealer, 0) - base if deal.dealer not in deal.holders else 0
        if talon > 0:
            book.mountain_add(deal.dealer, r * talon, f"{label}: {talon} talon trick(s) × {fmt(r)} to the dealer")
    else:
        fewest = min(taken.values())
        low = [q for q in deal.holders if taken[q] == fewest]
        for writer in low:
            for q in deal.holders:
                if q not in low and taken[q]:
                    book.whist(writer, q, r * taken[q], f"{label} on whists: {q} took {taken[q]} × {fmt(r)}")
    for q in deal.holders:
        if taken[q] == 0:
            why = f"{label}: no trick"
            if o.raspas_zero == "pool":
                book.win(q, bonus, why, made_game=False)
            elif o.raspas_zero == "mountain_off":
                off = min(bonus, max(book.mountain[q], 0))
                book.mountain_add(q, -off, f"{why}, {fmt(bonus)} off own mountain"
                                  + ("" if off == bonus else f" ({fmt(bonus - off)} lost at 0)"))


def _pools_closed(totals: Totals, size: int) -> bool:
    return min(totals["pool"].values()) >= size


SCORING = Scoring("preferans", "whists", "pool", score=score_deal, over=_pools_closed, streak=next_streak,
                  sheet=(Column("pool"), Column("mountain"), Column("whists", paired=True)))
"""Russian preferans's arithmetic: pool, mountain and whists, the game over when every pool is closed."""
