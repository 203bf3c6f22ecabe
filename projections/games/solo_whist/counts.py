"""What the statistics count of a Solo Whist game: each contract declared and made (by the declarer's points)."""

from __future__ import annotations

from typing import Any

from vistlog.events.record import DealRecord

from ...stats import count_made

__all__ = ["count_solo_whist"]


def count_solo_whist(rec: DealRecord, points: dict[tuple[int, str], Any], per: dict[str, dict[str, Any]],
                     raspas: set[int]) -> None:
    """One deal: its contract declared, and made when the declarer's points went up."""
    c = rec.contract
    if c is not None:
        count_made(per[c.declarer]["declared"], c.contract.text, points.get((rec.number, c.declarer), 0) > 0)
