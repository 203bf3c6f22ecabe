"""The final settlement (расчёт): exact results in whists or points, rounding, money, payments.

Preferans: ``R_i = D_i − mean(D) + Σ_j W[i→j] − Σ_j W[j→i]`` with
``D_i = pool_point·pool_i − mountain_point·mountain_i``; with ``settlement_divisor``
``opponents`` a point is shared by the N − 1 others instead. Everything is exact: a whole number
an ``int``, anything else a ``Fraction``.

>>> r = preferans_result(["A", "B", "C"], {"A": 3, "B": 0, "C": 0}, {"A": 0, "B": 14, "C": 6},
...                      {("B", "A"): 8}, pool_point=10, mountain_point=10, divisor="all")
>>> [str(r[p]) for p in "ABC"]
['236/3', '-226/3', '-10/3']
>>> round_to_zero_sum(r, ["A", "B", "C"])
{'A': 79, 'B': -76, 'C': -3}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

__all__ = ["preferans_result", "per_conversion_result", "round_to_zero_sum", "money", "payments"]


from vistlog.events.entries import Num, exact_div


def preferans_result(players: Sequence[str], pool: Mapping[str, Num], mountain: Mapping[str, Num],
                     whists: Mapping[tuple[str, str], Num], *, pool_point: int, mountain_point: int,
                     divisor: str) -> dict[str, Num]:
    """Exact results in whists; they sum to exactly 0."""
    n = len(players)
    d = {p: pool_point * pool.get(p, 0) - mountain_point * mountain.get(p, 0) for p in players}
    total: Num = sum(d.values())
    out: dict[str, Num] = {}
    for p in players:
        if divisor == "opponents":
            out[p] = exact_div(n * d[p] - total, n - 1)
        else:
            out[p] = d[p] - exact_div(total, n)
    for (w, t), x in whists.items():
        out[w] += x
        out[t] -= x
    return out


def _half_away(x: Fraction) -> int:
    """Round to the nearest whole number, halves away from zero."""
    sign = -1 if x < 0 else 1
    return sign * math.floor(abs(x) + Fraction(1, 2))


def per_conversion_result(players: Sequence[str], pool: Mapping[str, Num], mountain: Mapping[str, Num],
                          whists: Mapping[tuple[str, str], Num], *, pool_point: int, mountain_point: int,
                          divisor: str) -> dict[str, Fraction]:
    """``rounding: per_conversion``: every conversion one player writes on another
    (points × value / N) is rounded to a whole whist, halves away from zero, before netting."""
    n = len(players)
    div = n - 1 if divisor == "opponents" else n
    out = {p: Fraction(0) for p in players}
    for i in players:
        for j in players:
            if i == j:
                continue
            # j's pool makes i pay j; i's mountain makes j write on i
            pay = _half_away(Fraction(pool_point) * pool.get(j, 0) / div)
            out[j] += pay
            out[i] -= pay
            mw = _half_away(Fraction(mountain_point) * mountain.get(i, 0) / div)
            out[j] += mw
            out[i] -= mw
    for (w, t), x in whists.items():
        out[w] += x
        out[t] -= x
    return out


def _apportion(values: Mapping[str, Fraction], order: Sequence[str], total: int) -> dict[str, int]:
    """Largest remainder: whole numbers close to non-negative ``values`` summing to ``total``."""
    floors = {p: math.floor(values[p]) for p in order}
    left = total - sum(floors.values())
    ranked = sorted(order, key=lambda p: (-(values[p] - floors[p]), order.index(p)))
    for p in ranked[:max(left, 0)]:
        floors[p] += 1
    return floors


def round_to_zero_sum(values: Mapping[str, Num], order: Sequence[str], unit: Fraction = Fraction(1)
                      ) -> dict[str, int]:
    """Whole multiples of ``unit`` that still sum to zero.

    The winners' total is rounded to the nearest unit (halves up) and apportioned among the
    winners by largest remainder; the losers share the same total the same way; ties go
    to the earlier seat. Each rounded value is within one unit of the exact one.
    """
    if unit == 1 and all(type(values[p]) is int for p in order) and sum(values[p] for p in order) == 0:
        return {p: int(values[p]) for p in order}  # already whole and zero-sum: what the rounding gives
    scaled = {p: Fraction(values[p]) / unit for p in order}
    winners = [p for p in order if scaled[p] > 0]
    losers = [p for p in order if scaled[p] < 0]
    won = sum((scaled[p] for p in winners), Fraction(0))
    total = math.floor(won + Fraction(1, 2))
    out = {p: 0 for p in order}
    out.update(_apportion({p: scaled[p] for p in winners}, winners, total))
    out.update({p: -v for p, v in _apportion({p: -scaled[p] for p in losers}, losers, total).items()})
    return out


def money(values: Mapping[str, Num], order: Sequence[str], stake: str) -> dict[str, str]:
    """Money per player (result × stake), in cents or the stake's own precision, summing to 0."""
    places = max(2, len(stake.split(".")[1]) if "." in stake else 0)
    unit = Fraction(1, 10 ** places)
    rate = Fraction(Decimal(stake))
    cents = round_to_zero_sum({p: values[p] * rate for p in order}, order, unit)
    return {p: _decimal(cents[p], places) for p in order}


def _decimal(units: int, places: int) -> str:
    sign = "-" if units < 0 else ""
    units = abs(units)
    whole, frac = divmod(units, 10 ** places)
    return f"{sign}{whole}.{frac:0{places}d}" if places else f"{sign}{whole}"


def _units(amount: str, places: int) -> int:
    """A decimal string as a whole number of ``10 ** -places``, exactly, at any size."""
    sign = -1 if amount.startswith("-") else 1
    whole, _, frac = amount.lstrip("+-").partition(".")
    if len(frac) > places:
        raise ValueError(f"{amount} has more than {places} decimal places")
    return sign * int((whole or "0") + frac.ljust(places, "0"))


def payments(amounts: Mapping[str, str], order: Sequence[str]) -> list[dict[str, str]]:
    """The fewest payments that settle ``amounts`` (money strings summing to zero).

    The players are split into as many groups that settle among themselves as possible
    (exact search, fine for a card table); inside a group the largest debtor pays the
    largest creditor until it is square.
    """
    places = max((len(a.split(".")[1]) for a in amounts.values() if "." in a), default=0)
    bal = {p: _units(amounts[p], places) for p in order}
    if sum(bal.values()) != 0:
        raise ValueError(f"the amounts do not sum to zero: {', '.join(amounts[p] for p in order)}")
    people = [p for p in order if bal[p]]
    groups = _zero_sum_groups(people, bal)
    out: list[dict[str, str]] = []
    for group in groups:
        debt = {p: bal[p] for p in group}
        while any(debt.values()):
            payer = min(group, key=lambda p: (debt[p], order.index(p)))
            payee = max(group, key=lambda p: (debt[p], -order.index(p)))
            x = min(-debt[payer], debt[payee])
            if x <= 0:  # cannot happen for a group that sums to zero; never loop on it
                break
            out.append({"from": payer, "to": payee, "amount": _decimal(x, places)})
            debt[payer] += x
            debt[payee] -= x
    return out


def _zero_sum_groups(people: list[str], bal: Mapping[str, int]) -> list[list[str]]:
    n = len(people)
    if n == 0:
        return []
    if n > 12:
        return [people]
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + bal[people[low.bit_length() - 1]]
    best: dict[int, int] = {0: 0}
    choice: dict[int, int] = {}
    for mask in range(1, full + 1):
        if sums[mask] != 0:
            continue
        best_here, pick = -1, 0
        sub = mask
        while sub:
            if sums[sub] == 0 and (mask ^ sub) in best and best[mask ^ sub] + 1 > best_here:
                best_here, pick = best[mask ^ sub] + 1, sub
            sub = (sub - 1) & mask
        if best_here > 0:
            best[mask] = best_here
            choice[mask] = pick
    groups = []
    mask = full
    while mask:
        pick = choice.get(mask, mask)
        groups.append([people[i] for i in range(n) if pick >> i & 1])
        mask ^= pick
    return groups
