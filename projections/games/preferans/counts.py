"""What the statistics count of a Russian preferans game: each contract declared and made, each whist called and
its share made, the raspasy, the mountain they wrote and who closed his pool first."""

from __future__ import annotations

from typing import Any

from vistlog.events.cards import WhistCall
from vistlog.events.record import DealRecord

from ...fold import GameResult
from ...stats import count_made

__all__ = ["count_preferans", "count_closing"]


def count_preferans(rec: DealRecord, moves: dict[tuple[int, str], Any], per: dict[str, dict[str, Any]],
                    raspas: set[int]) -> None:
    """One deal: its contract declared and made, its whists and their shares, a raspas."""
    c = rec.contract
    if c is None:
        if rec.mode == "raspas":
            raspas.add(rec.number)
            for p in rec.holders:
                per[p]["raspasy"] += 1
        return
    key = "totus" if c.totus else "misere" if c.contract.is_misere else c.contract.text
    count_made(per[c.declarer]["declared"], key, rec.made)
    if c.dark:
        count_made(per[c.declarer]["declared"], "dark", rec.made)
    final = rec.final_calls()
    whisters = [q for q in rec.defenders if final.get(q) is WhistCall.WHIST]
    for q in whisters:
        per[q]["whists"][0] += 1
        per[q]["whists"][1] += rec.share_made(q, len(whisters))


def count_closing(res: GameResult, per: dict[str, dict[str, Any]], raspas: set[int]) -> None:
    """What the statistics read of a game's entries after its deals: the mountain its raspasy wrote, who closed
    his pool first."""
    closed: str | None = None
    pool: dict[str, Any] = dict.fromkeys(res.players, 0)
    for e in res.entries:
        if e.void:
            continue
        if e.column == "mountain" and e.deal in raspas:
            per[e.player]["raspas_mountain"] += e.amount
        if e.column == "pool" and closed is None and res.started.pool:
            pool[e.player] += e.amount
            if pool[e.player] >= res.started.pool:
                closed = e.player
    if closed is not None:
        per[closed]["closed_first"] = 1
