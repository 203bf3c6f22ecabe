"""Across an archive, how each player decided with the cards hidden: how often his whist calls and opening leads
were the best single-dummy choice, and what his choices cost on average (``vistlog stats --decisions``).

It reads what ``analyse --single-dummy`` gives each game (:func:`~vistlog.projections.analysis.analysis_json`),
so it runs wherever that runs: one process, ``--jobs`` processes or a Dask cluster, with the same numbers.

>>> t = DecisionTally()
>>> t.add({"unit": "whists", "deals": [{"decisions": [{"player": "Аня", "kind": "lead", "rank": 2, "cost": "3/2",
...        "choices": [{}]}]}]})
>>> t.add({"unit": "whists", "deals": [{"decisions": [{"player": "Аня", "kind": "discard", "rank": 3,
...        "cost": 5, "choices": [{}]}]}]})
>>> t.to_json()["units"]["whists"]["Аня"]["lead"]
{'count': 1, 'best': 0, 'cost': '3/2'}
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from vistlog.events.entries import exact, exact_div

from .words import Lang, Words, decimal

__all__ = ["DecisionTally"]

KINDS = ("call", "lead")


class DecisionTally:
    """Per unit of score (whists, Solo Whist's points: never added together), player and kind of decision: how
    many were weighed, how many were a best choice, their total cost."""

    def __init__(self) -> None:
        self.units: dict[str, dict[str, dict[str, list[Any]]]] = {}

    def add(self, game: Mapping[str, Any]) -> None:
        """One game's analysis (its JSON dict): its whist calls and leads (not a discard, nor a decision no
        layout fitted)."""
        for deal in game.get("deals", ()):
            for x in deal.get("decisions", ()):
                if not x["choices"] or x["kind"] not in KINDS or x.get("enough") is False:
                    continue  # a discard (analyse --discards), or too few layouts to rank: not counted here
                players = self.units.setdefault(game["unit"], {})
                row = players.setdefault(x["player"], {k: [0, 0, Fraction(0)] for k in KINDS})[x["kind"]]
                row[0] += 1
                row[1] += x["rank"] == 1
                row[2] += Fraction(x["cost"])

    def to_json(self) -> dict[str, Any]:
        """``{"units": {unit: {name: {"call": {"count", "best", "cost"}, "lead": {…}}}}}``; ``cost`` is the mean
        (exact), ``null`` where there was none."""
        return {"units": {unit: {
            p: {k: {"count": n, "best": best, "cost": exact(exact_div(total, n)) if n else None}
                for k, (n, best, total) in rows.items()} for p, rows in sorted(players.items())}
            for unit, players in sorted(self.units.items())}}

    def text(self, lang: Lang | None = None) -> str:
        """A table a unit, a player a line, the columns lined up whatever the script of the names."""
        w = Words(lang)
        out: list[str] = []
        for unit, players in self.to_json()["units"].items():
            head = [w("player"), w("calls"), w("best"), w("cost"), w("leads"), w("best"), w("cost")]
            rows = [head]
            for p, kinds in players.items():
                row = [p]
                for k in KINDS:
                    x = kinds[k]
                    row += [str(x["count"]), str(x["best"]),
                            "—" if x["cost"] is None else decimal(Fraction(x["cost"]), 1, w.lang)]
                rows.append(row)
            widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
            out.append(("\n" if out else "") + w("single-dummy decisions · cost in {unit} on average", unit=w(unit)))
            out += ["  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r))
                    for r in rows]
        return "\n".join(out) if out else w("no decision weighed")
