"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), one period at a time.

>>> import math

A rating period takes every player's results against opponents as they stood at the start of the
period; a player who did not play only grows less certain. :func:`rate_period` is the paper's
steps 1 to 8, with its Illinois iteration for the volatility; the paper's own example:

>>> r = rate_period({"p": Rating(1500, 200, 0.06), "a": Rating(1400, 30, 0.06), "b": Rating(1550, 100, 0.06),
...                  "c": Rating(1700, 300, 0.06)},
...                 {"p": [("a", 1.0), ("b", 0.0), ("c", 0.0)]}, tau=0.5, only=("p",))["p"]
>>> mu, phi = round((r.rating - 1500) / SCALE, 4), round(r.rd / SCALE, 4)  # the paper's μ′ and φ′
>>> mu, phi, math.floor(r.volatility * 1e5) / 1e5
(-0.2069, 0.8722, 0.05999)
>>> round(1500 + SCALE * mu, 2), round(SCALE * phi, 2)  # r′ and RD′ as the paper converts them
(1464.06, 151.52)

Unrounded, r′ is 1464.0507 and σ′ 0.0599960: the paper rounds μ′ and φ′ to four places before it
converts them back, and gives σ′ to its first five decimals.

Ratings are floats: they are estimates, not scores; every score of the sheet stays exact.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import attrs

__all__ = ["Rating", "rate_period", "SCALE", "START"]

SCALE = 173.7178
"""Glicko-2's conversion between the Glicko scale and its own."""


@attrs.frozen
class Rating:
    """A rating, its deviation (RD) and volatility, on the Glicko scale."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


START = Rating()
"""A new player's rating."""


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(max(-700.0, min(700.0, -_g(phi_j) * (mu - mu_j)))))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float, eps: float = 1e-6) -> float:
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > eps and fb != fa:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = c, fc
    return math.exp(big_a / 2)


def _update(r: Rating, games: Iterable[tuple[Rating, float]], tau: float) -> Rating:
    mu, phi = (r.rating - 1500) / SCALE, r.rd / SCALE
    v_inv = 0.0
    total = 0.0
    for opp, score in games:
        mu_j, phi_j = (opp.rating - 1500) / SCALE, opp.rd / SCALE
        e = _e(mu, mu_j, phi_j)
        v_inv += _g(phi_j) ** 2 * e * (1 - e)
        total += _g(phi_j) * (score - e)
    if v_inv < 1e-12:  # no game, or every expected score 0 or 1 (the games tell nothing more): only less certain
        return Rating(r.rating, min(350.0, math.sqrt(phi * phi + r.volatility ** 2) * SCALE), r.volatility)
    v = 1 / v_inv
    delta = v * total
    sigma = _volatility(r.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(1500 + SCALE * mu_new, SCALE * phi_new, sigma)


def rate_period(ratings: Mapping[str, Rating], results: Mapping[str, Iterable[tuple[str, float]]],
                tau: float = 0.5, only: Iterable[str] | None = None) -> dict[str, Rating]:
    """Every player's rating after one period.

    ``results`` gives, per player, ``(opponent, score)`` pairs (1 a win, ½ a draw, 0 a loss)
    against the opponents' ratings at the start of the period; players in ``ratings`` without
    results only grow less certain. ``only`` limits the update to those players.
    """
    names = list(only) if only is not None else sorted({*ratings, *results})
    out = dict(ratings)
    for name in names:
        mine = ratings.get(name, START)
        games = ((ratings.get(opp, START), score) for opp, score in results.get(name, ()))
        out[name] = _update(mine, games, tau)
    return out
