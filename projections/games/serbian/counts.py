"""What the statistics count of a Serbian preferans game: each contract declared and made (by the declarer's bula)
and each defence a player came to."""

from __future__ import annotations

from typing import Any

from vistlog.events.cards import WhistCall
from vistlog.events.record import DealRecord

from ...stats import count_made

__all__ = ["count_serbian"]


def count_serbian(rec: DealRecord, bula: dict[tuple[int, str], Any], per: dict[str, dict[str, Any]],
                  raspas: set[int]) -> None:
    """A Serbian contract is made when the declarer's bula went down; a defender who came made his share
    when he did not fall."""
    c = rec.contract
    if c is None:
        return
    count_made(per[c.declarer]["declared"], c.contract.text, bula.get((rec.number, c.declarer), 0) < 0)
    for q, call in rec.calls:
        if call is WhistCall.WHIST:
            per[q]["whists"][0] += 1
            per[q]["whists"][1] += bula.get((rec.number, q), 0) <= 0
