"""Solo Whist scoring: one deal → points for each player, with reasons; every deal sums to 0.

The points come from the rules' table (:class:`vistlog.events.rules.ContractPoints` rows): the
declaring side receives, and each opponent pays, the row's amount plus the per-trick rate
for each over- or undertrick; a failed contract reverses every sign.

>>> from vistlog.events.rules import make_rules
>>> from vistlog.events.model import ContractMade
>>> from vistlog.events.cards import parse_bid
>>> opts = make_rules({"preset": "encyclopedia"}).options
>>> deal = DealRecord(number=1, dealer="W", holders=("N", "E", "S", "W"), bomb=0,
...     contract=ContractMade(seq=2, game="g", deal=1, declarer="S", contract=parse_bid("solo")),
...     taken={"S": 7, "W": 2, "N": 2, "E": 2})
>>> [e.describe() for e in score_deal(opts, deal).entries][:2]
['+18 points S: solo made with 2 overtrick(s): 12 + 2 × 3', '-6 points N: solo made with 2 overtrick(s): 4 + 2 × 1']
"""

from __future__ import annotations

from ...rules import SoloWhistOptions

from collections.abc import Sequence

from ...entries import Column, DealScore, Totals
from ...record import DealRecord
from ...scoring import Scoring

__all__ = ["score_deal", "SCORING"]


def score_deal(opts: SoloWhistOptions, deal: DealRecord) -> DealScore:
    """The points one Solo Whist deal writes (none for a redeal)."""
    score = DealScore(deal.number)
    write = score.write
    players = list(deal.holders)
    c = deal.contract
    if c is None:
        if not deal.played or deal.last_trick is None:
            return score
        loser = deal.last_trick
        stake = opts.general_misere_stake
        write("points", loser, -stake * (len(players) - 1),
              f"general misère: took the last trick, pays {stake} to each")
        for q in players:
            if q != loser:
                write("points", q, stake, f"general misère: {loser} took the last trick")
        return score
    name = c.contract.text
    row = opts.table[name]
    side = [c.declarer] + ([c.partner] if name == "prop" and c.partner else [])
    opponents = [q for q in players if q not in side]
    assert deal.taken is not None
    got = sum(deal.taken.get(q, 0) for q in side)
    label = "prop & cop" if name == "prop" else name.replace("_", " ")
    if row.tricks == 0:
        made = got == 0
        extra = 0 if made else got
        d_rate, o_rate = len(opponents) * opts.misere_per_trick, opts.misere_per_trick  # zero-sum
        why = f"{label} made" if made else f"{label} failed: {got} trick(s) taken"
    else:
        made = got >= row.tricks
        extra = got - row.tricks if made else row.tricks - got
        d_rate, o_rate = row.declarer_per_trick, row.opponent_per_trick
        word = "overtrick" if made else "undertrick"
        why = (f"{label} {'made' if made else 'failed'}"
               + (f" with {extra} {word}(s)" if made and extra else f": {extra} {word}(s)" if extra else ""))
    sign = 1 if made else -1
    d_amount = row.declarer + extra * d_rate
    o_amount = row.opponent + extra * o_rate
    d_how = f"{row.declarer} + {extra} × {d_rate}" if extra and d_rate else f"{row.declarer}"
    o_how = f"{row.opponent} + {extra} × {o_rate}" if extra and o_rate else f"{row.opponent}"
    for q in side:
        write("points", q, sign * d_amount, f"{why}: {d_how}")
    for q in opponents:
        write("points", q, -sign * o_amount, f"{why}: {o_how}")
    return score


def _score(o: SoloWhistOptions, size: int, players: Sequence[str], rec: DealRecord, totals: Totals,
           streak: int) -> DealScore:
    return score_deal(o, rec)


def _needed(o: SoloWhistOptions, rec: DealRecord) -> int:
    c = rec.contract
    return 0 if c is None else o.table[c.contract.text].tricks


def _never_over(totals: Totals, size: int) -> bool:
    return False


SCORING = Scoring("solo_whist", "points", None, score=_score, over=_never_over, needed=_needed, deals_sum_to_zero=True,
                  sheet=(Column("points"),))
"""Solo Whist's arithmetic: points, every deal's adding up to 0; the players end the game when they will."""
