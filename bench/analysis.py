"""The open-hand analysis: time per deal, pure Python and compiled, and the speed-up of many logs on 2 workers.

    python bench/analysis.py [--deals 40] [--misere 20] [--logs 8] [--solo 24] [--solo-pure 2] [--seed 1]
                             [--budget-deals 20] [--budget SECONDS] [--dds 40] [--only-budget]

First (issue 62), ``--budget-deals`` Solo Whist deals dealt at random and played card by card are analysed end to end
within the budget a deal (the CLI's default), printing the wall time and the share of deals answered exact, in a
range or undecided; and ``--dds`` random bridge deals with a trump are solved by this search and by DDS (endplay's
``solve_board``), side by side: the medians, their ratio, and how many values differ.

It makes, with the project's own simulator (``tests/simulate.py``), card-level evenings played by players
who see every hand and slip now and then (``skill=0.9``: each card a double-dummy best one nine times in
ten), until ``--deals`` contract deals have been played card by card; and ``--misere`` misère deals (the
declarer the holder of the lowest cards, his two highest put away, the defence playing the same way).
Then it analyses every deal card by card (``vistlog analyse``: the value before and after every card, the
cards that keep it and the cost in whists of each mistake) with the pure-Python search and with the
compiled one, one core, and prints the total, the median and the 90th percentile per deal, and the ratio.

The raspasy of those evenings are timed the same way (each player's guaranteed number, card by card); then
``--solo`` Solo Whist deals (the simulator's: random hands, contract and declarer, random legal cards; dealt from
a seed of their own, ``--seed`` + 1000, so that they are the same deals whatever ran before), timed together and
apart for the contracts played for the most tricks and the misères; the first ``--solo-pure`` of them by the
pure search too (minutes each, hours for a misère), and ``vistlog analyse`` of the Solo Whist sample end to end.

Then single-dummy (``--single-dummy N``, default 200 layouts a decision): each whist call and opening lead of
``samples/open-hands.jsonl`` weighed alone, timed per decision (median, max), and the whole sample through
``vistlog analyse --single-dummy --jobs 2`` end to end.

Last, ``--logs`` such evenings are written to a folder and ``vistlog analyse FOLDER --format json`` runs
with ``--jobs 1`` and ``--jobs 2`` and on a local Dask cluster of 2 workers (``VISTLOG_SOLVER=python``:
the pure search, where the work is), printing the speed-up.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.simulate import preferans_game, solo_whist_game  # noqa: E402
from vistlog.events.cards import PREFERANS_DECK  # noqa: E402
from vistlog.events import seating  # noqa: E402
from vistlog.projections import analysis, solver  # noqa: E402
from vistlog.projections.fold import GameResult, run  # noqa: E402
from vistlog.projections.worth import camps  # noqa: E402

DECK = sorted(PREFERANS_DECK, key=lambda c: (c.suit.order, c.rank))


def contract_evening(rng: random.Random, deals: int, games_at_least: int = 0) -> list[list[dict[str, Any]]]:
    """Games of Leningradka played card by card until ``deals`` contracts were played (and at least
    ``games_at_least`` games)."""
    games: list[list[dict[str, Any]]] = []
    played = k = 0
    while played < deals or len(games) < games_at_least:
        gid = f"bench-{k}"
        evs = preferans_game(rng, players=("Аня", "Боря", "Вова"), rules={"preset": "leningrad"}, pool=20,
                             game=gid, max_deals=60, card_play=1.0, skill=0.9)
        games.append(evs)
        played += _played_contracts(evs)
        k += 1
    return games


def _played_contracts(evs: list[dict[str, Any]]) -> int:
    contracts = {e["deal"] for e in evs if e["type"] == "contract"}
    return len({e["deal"] for e in evs if e["type"] == "card_played" and e["deal"] in contracts})


def misere_evening(rng: random.Random, deals: int) -> list[dict[str, Any]]:
    """One game of ``deals`` misères, each played card by card, as events."""
    players = ["Аня", "Боря", "Вова"]
    g = "bench-misere"
    evs: list[dict[str, Any]] = [{"type": "game_started", "game": g, "kind": "preferans", "players": players,
                                  "pool": 500, "rules": {"preset": "sochi"}}]
    dealer = players[0]
    for n in range(1, deals + 1):
        holding = seating.holders(players, dealer, dealer_sits_out=False)
        cards = list(DECK)
        rng.shuffle(cards)
        hands = {p: cards[10 * i:10 * i + 10] for i, p in enumerate(holding)}
        talon = cards[30:]
        declarer = min(holding, key=lambda p: sum(c.rank for c in hands[p]))
        own = sorted(hands[declarer] + talon, key=lambda c: c.rank)
        held = {**hands, declarer: own[:10]}
        evs.append({"type": "deal_started", "game": g, "deal": n, "dealer": dealer,
                    "hands": {p: [str(c) for c in hands[p]] for p in holding}, "talon": [str(c) for c in talon]})
        evs.append({"type": "contract", "game": g, "deal": n, "declarer": declarer, "contract": "misere"})
        evs.append({"type": "discard", "game": g, "deal": n, "player": declarer, "cards": [str(c) for c in own[10:]]})
        s = solver.Solver(held, holding, holding[0], None, declarer, fewest=True)
        line: list[Any] = []
        while len(line) < 30:
            keep = s.best_cards(line)[1] if rng.random() < 0.9 else s.legal(line)
            line.append(rng.choice(sorted(keep, key=lambda c: (c.suit.order, c.rank))))
        play_seats = _seats_of(s, line, holding)
        for player, card in zip(play_seats, line):
            evs.append({"type": "card_played", "game": g, "deal": n, "player": player, "card": str(card)})
        dealer = seating.clockwise(players, dealer)[0]
    evs.append({"type": "game_ended", "game": g, "reason": "agreed"})
    return [{"v": 1, "seq": k, **e} for k, e in enumerate(evs, start=1)]


def _seats_of(s: solver.Solver, line: list[Any], holding: list[str]) -> list[str]:
    """Who plays each card of ``line``."""
    out = []
    for k in range(len(line)):
        _h, seat, _trick, _won, _t = s.position(line[:k])
        out.append(holding[seat])
    return out


def folded(events: list[dict[str, Any]]) -> GameResult:
    with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as f:
        f.write(b"".join(orjson.dumps(e) + b"\n" for e in events))
    try:
        return next(x for x in run(f.name) if isinstance(x, GameResult))
    finally:
        os.unlink(f.name)


def per_deal(games: list[GameResult], engine: str, raspas: bool = False, most: int | None = None) -> list[float]:
    """CPU seconds of each analysed deal played card by card, a contract's (or with ``raspas``, a raspas's):
    ``analyse`` of that deal alone, as ``vistlog analyse --deal N`` runs it; ``most``: no more deals."""
    times: list[float] = []
    for g in games:
        for n in _card_level(g, raspas):
            if most is not None and len(times) >= most:
                return times
            t = time.process_time()
            analysis.analyse(g, engine=engine, deals={n})
            times.append(time.process_time() - t)
    return times


def _card_level(g: GameResult, raspas: bool = False) -> list[int]:
    """The deals of a contract (or a raspas) played card by card, with their hands, by three or four."""
    def wanted(rec: Any) -> bool:
        if raspas:  # no contract, and the game plays it (each for himself for the fewest): camps, not a reason
            return rec.contract is None and not isinstance(camps(rec, g.variant), str)
        return rec.contract is not None

    return [rec.number for rec, void, _ in g.told() if not void and wanted(rec)
            and rec.hands_in_play() is not None and rec.setup is not None and len(rec.setup.seating) >= 3
            and any(e.type == "card_played" for e in rec.events)]


def solo_whist_evening(rng: random.Random, deals: int) -> list[dict[str, Any]]:
    """A Solo Whist game of ``deals`` deals played card by card (the project's simulator: random hands, a random
    contract and declarer, random legal cards), as events."""
    return solo_whist_game(rng, players=("Оля", "Петя", "Коля", "Маша"), deals=deals, card_play=1.0)


def sample_end_to_end(name: str) -> float:
    """Wall seconds of ``vistlog analyse samples/NAME --format json`` in a new process (start-up included)."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "vistlog", "analyse", str(ROOT / "samples" / name), "--format", "json"],
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def _p90(xs: list[float]) -> float:
    return sorted(xs)[max(0, round(0.9 * (len(xs) - 1)))]


def show(label: str, py: list[float], c: list[float] | None) -> None:
    print(f"{label}: {len(py)} deals")
    print(f"  pure Python: total {sum(py):6.2f} s   median {statistics.median(py) * 1000:7.1f} ms   "
          f"p90 {_p90(py) * 1000:7.1f} ms   max {max(py) * 1000:7.1f} ms")
    if c:
        print(f"  compiled:    total {sum(c):6.3f} s   median {statistics.median(c) * 1000:7.2f} ms   "
              f"p90 {_p90(c) * 1000:7.2f} ms   max {max(c) * 1000:7.2f} ms   "
              f"({sum(py) / sum(c):.0f}× faster)")


def many_logs(games: list[list[dict[str, Any]]], folder: Path) -> None:
    for k, evs in enumerate(games):
        (folder / f"evening-{k}.jsonl").write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in evs))
    env = {**os.environ, "VISTLOG_SOLVER": "python"}

    def timed(*extra: str) -> float:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "vistlog", "analyse", str(folder), "--format", "json", *extra],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        return time.perf_counter() - t

    one = timed("--jobs", "1")
    two = timed("--jobs", "2")
    print(f"{len(games)} logs, pure search: --jobs 1 {one:.2f} s, --jobs 2 {two:.2f} s: {one / two:.2f}× faster")
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("  (no dask here: pip install 'vistlog[dask]')")
        return
    code = ("import sys; from distributed import LocalCluster; "
            "c = LocalCluster(n_workers=2, threads_per_worker=1, host='127.0.0.1', dashboard_address=None); "
            "print(c.scheduler_address, flush=True); sys.stdin.read()")
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=env)
    assert proc.stdout is not None
    address = proc.stdout.readline().strip()
    try:
        timed("--dask", address)  # the workers import vistlog once
        dask = timed("--dask", address)
        print(f"  on a Dask cluster of 2 workers ({address}): {dask:.2f} s: {one / dask:.2f}× faster than --jobs 1")
    finally:
        proc.communicate("")


def single_dummy(samples: int) -> None:
    """Each decision of the open-hands sample weighed alone (this process, the default search), then the sample
    end to end on 2 processes."""
    from vistlog.projections.worth import Worth as _Worth, camps as _camps
    from vistlog.projections.decisions import deal_decisions
    from vistlog.projections.odds import SingleDummy

    g = next(x for x in run(str(ROOT / "samples" / "open-hands.jsonl")) if isinstance(x, GameResult))
    worth = _Worth(g)
    times: list[float] = []
    discards: list[float] = []
    for rec, void, _ in g.told():
        hands = rec.hands_in_play()
        camps = _camps(rec, g.variant)
        if void or rec.contract is None or hands is None or isinstance(camps, str) or rec.setup is None:
            continue
        t = time.perf_counter()
        got = deal_decisions(rec, hands, camps[0], worth, g.game, g.started, SingleDummy(samples), True)
        if got:  # a deal's time shared among its decisions
            times += [(time.perf_counter() - t) / len(got)] * len(got)
        t = time.perf_counter()
        more = deal_decisions(rec, hands, camps[0], worth, g.game, g.started, SingleDummy(samples), True,
                              discards=True)
        if len(more) > len(got):  # the discard: the deal with it less the deal without
            discards.append(time.perf_counter() - t - sum(times[-len(got):]) if got else time.perf_counter() - t)
    print(f"single-dummy, {samples} layouts a decision, samples/open-hands.jsonl: {len(times)} whist calls and "
          f"leads, each median {statistics.median(times):.2f} s, max {max(times):.2f} s (a deal's time over its "
          f"decisions)")
    said = re.search(r"0\.\d+ s median, (\d+\.\d+) s at most", (ROOT / "docs" / "cli.md").read_text(encoding="utf-8"))
    if said:
        print(f"  worst decision {max(times):.2f} s against docs/cli.md's {said.group(1)} s "
              f"({max(times) / float(said.group(1)):.2f}x)")
    if discards:
        print(f"  the declarer's discard (--discards): {len(discards)} deals, "
              f"median {statistics.median(discards):.1f} s, max {max(discards):.1f} s")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "vistlog", "analyse", str(ROOT / "samples" / "open-hands.jsonl"),
                    "--single-dummy", "--samples", str(samples), "--jobs", "2", "--format", "json"],
                   check=True, capture_output=True)
    print(f"  every whist call and opening lead end to end (--jobs 2): {time.perf_counter() - t:.1f} s")


def coverage(samples: int, reference: int) -> None:
    """Open-hands deals 14 and 15, the opening lead (the cases single-dummy costs were found noisy on): the cost's
    interval at ``samples`` layouts (five seeds) against the cost measured on ``reference`` layouts."""
    from vistlog.projections.worth import Worth as _Worth, camps as _camps
    from vistlog.projections.decisions import deal_decisions
    from vistlog.projections.odds import SingleDummy

    g = next(x for x in run(str(ROOT / "samples" / "open-hands.jsonl")) if isinstance(x, GameResult))
    worth = _Worth(g)
    for rec, void, _ in g.told():
        if void or rec.number not in (14, 15):
            continue
        hands = rec.hands_in_play()
        side = _camps(rec, g.variant)
        assert hands is not None and not isinstance(side, str)

        def lead(sd: SingleDummy, rec: Any = rec, hands: Any = hands, side: Any = side) -> Any:
            return deal_decisions(rec, hands, side[0], worth, g.game, g.started, sd, False)[-1]

        t = time.perf_counter()
        big = lead(SingleDummy(reference, 99))
        took = time.perf_counter() - t
        hits = 0
        for seed in range(5):
            x = lead(SingleDummy(samples, seed))
            covered = Fraction(x.cost_low) <= Fraction(big.cost) <= Fraction(x.cost_high)
            hits += covered
            print(f"  deal {rec.number}, {x.player}'s lead {x.made}, seed {seed}: cost {float(x.cost):.2f} "
                  f"[{float(x.cost_low):.2f}–{float(x.cost_high):.2f}] at {x.samples} layouts, "
                  f"ties {x.ties}: {'covers' if covered else 'MISSES'}")
        print(f"deal {rec.number}: cost at {reference} layouts {float(big.cost):.2f} ({took:.0f} s); "
              f"covered {hits} of 5")


def budgeted(rng: random.Random, deals: int, budget: float | None) -> None:
    """An evening of ``deals`` Solo Whist deals dealt at random and played card by card, analysed end to end
    within ``budget`` seconds a deal (the CLI's default when ``None``): the wall time, how many deals were
    answered exact, in a range or undecided, and how many misères were caught or proven clean."""
    from vistlog.projections.analysis import default_budget

    seconds = budget if budget is not None else default_budget()
    g = folded(solo_whist_evening(rng, deals))
    t = time.perf_counter()
    a = analysis.analyse(g, budget=seconds)
    took = time.perf_counter() - t
    shares = {k: sum(d.answer == k for d in a.deals) for k in analysis.ANSWERS}
    misere = [d for d in a.deals if d.misere and d.declarer is not None]
    caught = sum(d.fate is False for d in misere)
    clean = sum(d.fate is True for d in misere)
    print(f"Solo Whist, {deals} deals at random card by card, budget {seconds:g} s a deal ({solver.engine_name()}): "
          f"{len(a.deals)} analysed in {took:.1f} s; exact {shares['exact']}, in a range {shares['range']}, "
          f"undecided {shares['undecided']}; misères {len(misere)}: caught {caught}, proven clean {clean}, "
          f"undecided {len(misere) - caught - clean}")


def dds_side_by_side(rng: random.Random, boards: int) -> None:
    """``boards`` random bridge deals with a trump, the partnership N+S against E+W, East on lead (prop and cop's
    shape): this project's search for the value (one number: the side's tricks) against DDS (endplay's
    ``solve_board``: every card of the leader), the same deals, wall time each; every value compared."""
    try:
        from endplay.dds import solve_board
        from endplay.types import Deal, Denom, Player
    except ImportError:
        print("DDS side by side: endplay is not installed (pip install endplay)")
        return
    from vistlog.events.cards import SOLO_WHIST_DECK, Suit

    seats = ["N", "E", "S", "W"]
    ours, theirs, wrong = [], [], 0
    order = (Suit.S, Suit.H, Suit.D, Suit.C)  # PBN's order of suits
    rank = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
    for _ in range(boards):
        deck = sorted(SOLO_WHIST_DECK, key=lambda c: (c.suit.order, c.rank))  # a frozenset's order varies by run
        rng.shuffle(deck)
        hands = {p: deck[13 * k:13 * (k + 1)] for k, p in enumerate(seats)}
        trump = rng.choice(order)
        s = solver.Solver(hands, seats, "E", trump, ("N", "S"), must_trump=False, engine=solver.engine_name())
        t = time.perf_counter()
        value = s.value()
        ours.append(time.perf_counter() - t)

        def pbn(cards: list[Any]) -> str:
            return ".".join("".join(rank.get(c.rank, str(c.rank)) for c in
                                    sorted((c for c in cards if c.suit == suit), key=lambda c: -c.rank))
                            for suit in order)
        deal = Deal("N:" + " ".join(pbn(hands[p]) for p in seats))
        deal.first = Player.east
        deal.trump = {Suit.S: Denom.spades, Suit.H: Denom.hearts, Suit.D: Denom.diamonds, Suit.C: Denom.clubs}[trump]
        t = time.perf_counter()
        best = max(n for _, n in solve_board(deal))
        theirs.append(time.perf_counter() - t)
        wrong += value != 13 - best
    m, d = statistics.median(ours), statistics.median(theirs)
    print(f"DDS side by side, {boards} bridge deals with a trump: ours median {m * 1000:.1f} ms (the value), DDS "
          f"{d * 1000:.1f} ms (every card of the leader): {m / d:.1f}× DDS; values that differ: {wrong}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--misere", type=int, default=20)
    ap.add_argument("--logs", type=int, default=8)
    ap.add_argument("--solo", type=int, default=24, help="Solo Whist deals played card by card (compiled search)")
    ap.add_argument("--solo-pure", type=int, default=2, help="of them, solved by the pure search too")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--single-dummy", type=int, default=200, metavar="N",
                    help="layouts a decision for the single-dummy timings (0: skip them)")
    ap.add_argument("--coverage", type=int, default=0, metavar="N",
                    help="only: do the single-dummy cost intervals at 200 layouts cover the cost on N (20000)?")
    ap.add_argument("--budget-deals", type=int, default=20, metavar="N",
                    help="Solo Whist deals at random analysed within the budget, end to end (0: skip)")
    ap.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                    help="the budget a deal (default: the CLI's, 2 s compiled)")
    ap.add_argument("--dds", type=int, default=40, metavar="N", help="bridge deals side by side with DDS (0: skip)")
    ap.add_argument("--only-budget", action="store_true", help="only the budget and DDS sections")
    a = ap.parse_args()
    if a.coverage:
        coverage(200, a.coverage)
        return
    if a.budget_deals:
        budgeted(random.Random(a.seed + 2000), a.budget_deals, a.budget)
    if a.dds:
        dds_side_by_side(random.Random(a.seed + 3000), a.dds)
    if a.only_budget:
        return
    rng = random.Random(a.seed)
    print(f"solver: {'compiled and pure' if solver.COMPILED else 'pure Python only (the C extension is not built)'}")
    contracts = [folded(evs) for evs in contract_evening(rng, a.deals)] if a.deals else []
    if contracts:
        py = per_deal(contracts, "python")[:a.deals]
        c = per_deal(contracts, "compiled")[:a.deals] if solver.COMPILED else None
        show(f"an evening of {a.deals} contract deals, card by card", py, c)
    if a.misere:
        mis = [folded(misere_evening(rng, a.misere))]
        show("misère deals, card by card", per_deal(mis, "python"),
             per_deal(mis, "compiled") if solver.COMPILED else None)
    if contracts:
        show("raspasy of those evenings, card by card (each player's guaranteed number)",
             per_deal(contracts, "python", raspas=True), per_deal(contracts, "compiled", raspas=True)
             if solver.COMPILED else None)
    if a.solo:  # a deal set of its own seed: the same deals whatever the sections before it
        solo = [folded(solo_whist_evening(random.Random(a.seed + 1000), a.solo))]
        pure = per_deal(solo, "python", most=a.solo_pure) if a.solo_pure else []
        if solver.COMPILED:
            if pure:
                show(f"Solo Whist deals, card by card (the first {len(pure)} also pure)", pure,
                     per_deal(solo, "compiled", most=len(pure)))
            c = per_deal(solo, "compiled")
            recs = {rec.number: rec for rec, _, _ in solo[0].told()}
            fewest = [camps(recs[n], solo[0].variant)[0][1] for n in _card_level(solo[0])]
            for label, xs in (("all", c), ("for the most tricks", [x for x, f in zip(c, fewest) if not f]),
                              ("misères (for the fewest)", [x for x, f in zip(c, fewest) if f])):
                if xs:
                    print(f"  compiled, {label}: {len(xs)} deals, median {statistics.median(xs) * 1000:.0f} ms, "
                          f"p90 {_p90(xs) * 1000:.0f} ms, max {max(xs) * 1000:.0f} ms")
        else:
            show("Solo Whist deals, card by card", pure, None)
        print(f"samples/solo-whist-evening.jsonl end to end: {sample_end_to_end('solo-whist-evening.jsonl'):.2f} s")
    if a.single_dummy:
        single_dummy(a.single_dummy)
    if a.logs:
        with tempfile.TemporaryDirectory() as tmp:
            many_logs(contract_evening(random.Random(a.seed + 1), 0, a.logs), Path(tmp))


if __name__ == "__main__":
    main()
