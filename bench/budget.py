"""The open-hand search within a budget (issue 62, its first part): random four-hand misères (52 cards, no trump,
the declarer the holder of the lowest cards), each asked its fate (is the misère caught: ``holds([], 1)``) and its
value within ``--budget`` seconds a deal, the compiled search. With ``--low`` the declarer's 13 cards are drawn from
the 26 lowest of the deck (the others' dealt at random from the rest): many of those misères are clean, the case
whose proof used to take the longest.

    python bench/budget.py [--deals 10] [--budget 2] [--seed 5] [--low]

It prints for each deal the time the fate took and its answer, the range (``low..high``) or exact value the budget
gave and its time, and at the end how many deals were decided (caught, or proven clean), exact, or left in a range.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vistlog.events.cards import SOLO_WHIST_DECK, Card
from vistlog.projections.solver import OutOfBudget, Solver

SEATS = ["N", "E", "S", "W"]


def misere(rng: random.Random, low: bool = False) -> tuple[dict[str, list[Card]], str]:
    """Four hands of 13 and the declarer: the hand whose cards are lowest in rank, summed (``low``: North, his 13
    drawn from the 26 lowest cards)."""
    deck = sorted(SOLO_WHIST_DECK, key=lambda c: (c.suit.order, c.rank))
    if low:
        mine = rng.sample(sorted(deck, key=lambda c: (c.rank, c.suit.order))[:26], 13)
        rest = [c for c in deck if c not in mine]
        rng.shuffle(rest)
        return {"N": mine, "E": rest[:13], "S": rest[13:26], "W": rest[26:]}, "N"
    rng.shuffle(deck)
    hands = {p: deck[13 * k:13 * (k + 1)] for k, p in enumerate(SEATS)}
    declarer = min(SEATS, key=lambda p: sum(c.rank for c in hands[p]))
    return hands, declarer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--budget", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--low", action="store_true", help="the declarer's cards from the 26 lowest (clean misères)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    decided = exact = ranged = 0
    for n in range(1, a.deals + 1):
        hands, declarer = misere(rng, a.low)
        s = Solver(hands, SEATS, SEATS[(SEATS.index(declarer) + 1) % 4], None, declarer, True, must_trump=False)
        s.limit(seconds=a.budget)
        t0 = time.perf_counter()
        try:
            fate: str = "caught" if s.holds([], 1) else "clean"
        except OutOfBudget:
            fate = "undecided"
        t1 = time.perf_counter()
        low, high = s.bounds()
        t2 = time.perf_counter()
        decided += fate != "undecided"
        exact += low == high
        ranged += low != high
        said = str(low) if low == high else f"{low}..{high}"
        print(f"deal {n:2}: fate {fate:9} in {t1 - t0:6.3f} s; tricks {said:6} in {t2 - t0:6.3f} s "
              f"(budget {a.budget} s)")
    print(f"{a.deals} misères: fate decided {decided}, value exact {exact}, in a range {ranged}")


if __name__ == "__main__":
    main()
