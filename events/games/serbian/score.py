"""Scoring Serbian preferans: one deal into bula, soups and refe entries; the write-off and the result.

Every rule of docs/serbian.md §6–§9 is here once. A deal's value is ``V = 2v × K × R``
(v the contract's number, K the kontra factor, R = 2 when the declarer plays a refa);
every bula and soup entry of the deal is a multiple of V, except under the last-game cap.

>>> from vistlog.events.cards import parse_bid
>>> from vistlog.events.model import ContractMade
>>> from vistlog.events.rules import SerbianOptions
>>> from vistlog.events.record import DealRecord
>>> t = SCORING.totals(["A", "B", "C"]); t["bula"].update({"A": 20, "B": 20, "C": 20})
>>> rec = DealRecord(number=1, dealer="C", holders=("A", "B", "C"), bomb=0,
...                  contract=ContractMade(seq=9, game="g", deal=1, declarer="B", contract=parse_bid("6H")),
...                  defenders=("C", "A"), calls=(("C", WhistCall.WHIST), ("A", WhistCall.WHIST)),
...                  taken={"A": 1, "B": 6, "C": 3})
>>> [e.describe() for e in score_deal(SerbianOptions(), rec, t).entries]
['-8 bula B: herc made (V 8)', '+24 soups C→B: 3 tricks × 8', '+8 soups A→B: 1 trick × 8']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from ...cards import WhistCall
from ...rules import SerbianOptions
from .deal import CONTRACT_NUMBER, SERBIAN_NAMES, contract_number, is_plain_pik, tricks_needed

from ...entries import Column, DealScore, Num, Row, Totals, exact_div
from ...record import DealRecord
from ...scoring import Scoring


__all__ = ["SCORING", "score_deal", "deal_value", "refa_allowed", "game_over", "write_off", "serbian_result",
           "contract_name"]


def contract_name(rec: DealRecord) -> str:
    """``herc``, ``igra sans`` …"""
    assert rec.contract is not None
    name = SERBIAN_NAMES[CONTRACT_NUMBER[rec.contract.contract.text]]
    return f"igra {name}" if rec.contract.igra else name


SHEET = (Column("bula"), Column("soups", paired=True), Column("refe", counted=True))
"""The Serbian sheet: each player's bula, the soups he writes on another, his open refe (drawn for everybody at
once: the sheet counts how many times)."""


def deal_value(rec: DealRecord, totals: Totals) -> tuple[int, int, bool]:
    """(V, the kontra factor K, whether the declarer plays a refa)."""
    assert rec.contract is not None
    k = rec.kontra[-1][1].factor if rec.kontra else 1
    refa = totals["refe"][rec.contract.declarer] > 0
    return 2 * contract_number(rec.contract) * k * (2 if refa else 1), k, refa


def refa_allowed(o: SerbianOptions, totals: Totals) -> bool:
    """A refa may be written: the limit is not reached and (by default) nobody is under the hat."""
    if o.refe_limit is not None and totals.times["refe"] >= o.refe_limit:
        return False
    return not (o.refa_blocked_under_hat and any(b < 0 for b in totals["bula"].values()))


def game_over(totals: Totals) -> bool:
    """The bulas add up to 0 (or less): the game has ended."""
    return sum(totals["bula"].values()) <= 0


def _counted(o: SerbianOptions, rec: DealRecord) -> dict[str, int]:
    """Each defender's tricks that count for soups: the first five of the defence (soup_trick_cap).
    A count that gives the defence more keeps the better defender's count and gives the other the rest."""
    assert rec.contract is not None and rec.taken is not None
    dec = rec.contract.declarer
    theirs = {p: n for p, n in rec.taken.items() if p != dec}
    cap = o.soup_trick_cap
    if cap is None or sum(theirs.values()) <= cap:
        return theirs
    best = max(theirs, key=lambda p: (theirs[p], -rec.holders.index(p)))
    kept = min(theirs[best], cap)
    return {p: kept if p == best else (cap - kept if p == next(q for q in theirs if q != best) else 0)
            for p in theirs}


class _Deal:
    """The rows of one deal as they are written."""

    def __init__(self, o: SerbianOptions, rec: DealRecord, totals: Totals) -> None:
        self.o, self.rec, self.totals = o, rec, totals
        self.score = DealScore(rec.number)
        self.rows = self.score.rows
        self.write = self.score.write

    def bula(self, p: str, x: Num, why: str) -> None:
        if x:
            self.write("bula", p, x, why)

    def soup(self, w: str, t: str, x: Num, why: str) -> None:
        if x:
            self.write("soups", w, x, why, t)

    def refe(self, p: str, x: int, why: str) -> None:
        self.write("refe", p, x, why)

    def refa_for_all(self, why: str) -> None:
        for p in self.totals.players:
            self.refe(p, 1, why)


def score_deal(o: SerbianOptions, rec: DealRecord, totals: Totals) -> DealScore:
    """What one finished Serbian deal writes, given the totals before it."""
    book = _Deal(o, rec, totals)
    c = rec.contract
    if c is None:
        if refa_allowed(o, totals):
            book.refa_for_all("all pass: a refa for everybody")
        return book.score
    dec = c.declarer
    value, _, refa = deal_value(rec, totals)
    name = contract_name(rec)
    left = sum(totals["bula"].values())
    came = [p for p, call in rec.calls if call is WhistCall.WHIST]
    if rec.taken is None:  # decided without play
        if is_plain_pik(c) and came:
            if refa_allowed(o, totals) and o.pik_no_kontra != "pass":
                book.refa_for_all(f"{name} without kontra: not played, a refa for everybody")
                return book.score
            under_hat = any(b < 0 for b in totals["bula"].values())
            if o.pik_no_kontra == "refa_else_nothing" or (o.pik_no_kontra == "refa_else_pass_if_under_hat"
                                                           and not under_hat):
                return book.score
            _descend(book, dec, value, left, f"{name} without kontra: the declarer passes (V {value})")
        else:
            _descend(book, dec, value, left, f"{name}: nobody came, made without play (V {value})")
        if refa:
            book.refe(dec, -1, "a refa played")
        return book.score
    counted = _counted(o, rec)
    team = sum(counted.values())
    theirs = sum(n for p, n in rec.taken.items() if p != dec)
    need = tricks_needed(c)
    made = rec.taken.get(dec, 0) == 0 if need == 0 else theirs == 0 if need == 10 else theirs <= 4
    defence = _defence_rows(o, rec, counted, team, made, value, 1)
    if made:
        falls = sum((amount for column, _, amount, _, _ in defence if column == "bula"), start=0)
        descent = _descend(book, dec, value, left + falls, f"{name} made (V {value})")
        if o.last_game_cap == "bula_and_soups" and descent != value:  # the soups shrink with the descent
            defence = _defence_rows(o, rec, counted, team, made, value, Fraction(descent, value))
    else:
        fall = 2 * value if o.last_game_double_fall and value > left else value
        book.bula(dec, fall, f"{name} failed (V {value}" + (", double fall in the last game)" if fall != value
                                                            else ")"))
    book.rows += defence
    if refa:
        book.refe(dec, -1, "a refa played")
    return book.score


def _descend(book: _Deal, dec: str, value: int, left: Num, why: str) -> Num:
    """The declarer's bula goes down by V, cut so that the sum lands on 0 (last_game_cap)."""
    descent: Num = value
    if book.o.last_game_cap != "none" and left - value < 0:
        descent = max(left, 0)
        why += f"; last game: only {descent} of the bula is left"
    book.bula(dec, -descent, why)
    return descent


def _defence_rows(o: SerbianOptions, rec: DealRecord, counted: Mapping[str, int], team: int, made: bool,
                  value: int, scale: Fraction | int) -> list[Row]:
    """Soups and falls of the defence (docs/serbian.md §6)."""
    assert rec.contract is not None
    book = _Deal(o, rec, Totals([], SHEET))
    dec = rec.contract.declarer
    soup_value = value * scale
    kontra_player = rec.kontra[0][0] if rec.kontra else None
    inviter = next((p for p, c in rec.calls if c is WhistCall.INVITE), None)
    if rec.contract.contract.is_misere:
        writers = [kontra_player] if kontra_player else [p for p in rec.holders if p != dec]
        for w in writers:
            if made:
                if kontra_player:
                    book.bula(w, value, f"{w} gave kontra and the betl was made")
            elif o.betl_fail_soup == "fixed":
                book.soup(w, dec, _whole(5 * soup_value), f"betl failed: 5 × {value}")
            else:
                t = team if kontra_player else rec.taken.get(w, 0) if rec.taken else 0
                book.soup(w, dec, _whole(t * soup_value), f"betl failed: {t} × {value}")
        return book.rows
    writer = kontra_player or inviter
    if writer is not None:
        what = "gave kontra" if kontra_player else "called the other (zovem)"
        book.soup(writer, dec, _whole(team * soup_value), f"{writer} {what}: {team} × {value}")
        quota = 5 if kontra_player else 4
        if team < quota:
            book.bula(writer, value, f"{writer} falls: the defence took {team} < {quota}")
        return book.rows
    came = [p for p, c in rec.calls if c is WhistCall.WHIST]
    for f in came:
        t = counted.get(f, 0)
        book.soup(f, dec, _whole(t * soup_value), f"{t} trick{'s' if t != 1 else ''} × {value}")
        if t < 2 and (len(came) == 1 or o.two_defenders_quota == "each_two" or team < 4):
            book.bula(f, value, f"{f} falls: {t} trick{'s' if t != 1 else ''} < 2"
                      + ("" if len(came) == 1 or o.two_defenders_quota == "each_two" else f", the two {team} < 4"))
    return book.rows


def _whole(x: Num) -> Num:
    """An exact amount, as an int when it is whole."""
    return exact_div(x, 1) if isinstance(x, int) else (x.numerator if x.denominator == 1 else x)


def write_off(o: SerbianOptions, players: Sequence[str], bula: Mapping[str, Num]) -> dict[str, Num]:
    """What each bula loses when a game stops early so that the sum is 0 (*otpis*).

    >>> write_off(SerbianOptions(), ["A", "B", "C"], {"A": 24, "B": 34, "C": 28})
    {'A': 28, 'B': 29, 'C': 29}
    >>> write_off(SerbianOptions(), ["A", "B", "C"], {"A": 8, "B": 2, "C": 0})
    {'A': 4, 'B': 3, 'C': 3}
    """
    total = sum(bula.values())
    n = len(players)
    if total == 0:
        return {p: 0 for p in players}
    if o.write_off == "exact" or total < 0 or not isinstance(total, int):
        return {p: exact_div(total, n) for p in players}
    q, r = divmod(total, n)
    ranked = sorted(players, key=lambda p: (-bula[p], players.index(p)))
    return {p: q + (1 if p in ranked[:r] else 0) for p in players}


def serbian_result(o: SerbianOptions, players: Sequence[str], totals: Totals) -> dict[str, Num]:
    """``R_i = −bula_point × b_i + soups written − soups suffered``, after any write-off; sums to 0."""
    cut = write_off(o, players, totals["bula"])
    out: dict[str, Num] = {}
    for p in players:
        b = totals["bula"][p] - cut[p]
        out[p] = -o.bula_point * b
    for (w, t), x in totals["soups"].items():
        out[w] += x
        out[t] -= x
    return {p: _whole(v) for p, v in out.items()}


def _starting_bula(players: Sequence[str], size: int | None) -> list[Row]:
    return [("bula", p, size, "the starting bula", None) for p in players] if size else []


def _score(o: SerbianOptions, size: int, players: Sequence[str], rec: DealRecord, totals: Totals,
           streak: int) -> DealScore:
    return score_deal(o, rec, totals)


def _over(totals: Totals, size: int) -> bool:
    return game_over(totals)


SCORING = Scoring("serbian", "points", "bula", score=_score, over=_over, opening=_starting_bula, sheet=SHEET,
                  columns=("bula", "soups"))
"""Serbian preferans's arithmetic: bula, soups and refe, the game over when the bulas add up to 0."""
