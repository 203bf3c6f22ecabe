"""Serbian preferans, as the read side knows it: one :class:`~vistlog.projections.variants.Reading`, registered once.

Its scoring is :mod:`vistlog.events.games.serbian.score` (the write side's); the views it names are imported only when
asked for.
"""

from __future__ import annotations

from typing import Final

from vistlog.events.games.serbian.score import serbian_result

from ...parts import Part
from ...variants import Reading, register

__all__ = ["READING"]


SERBIAN_CYRILLIC: Final = {
    "dalje": "даље", "mogu": "могу", "tvoja je jača": "твоја је јача", "igra": "игра", "pik": "пик", "karo": "каро",
    "herc": "херц", "tref": "треф", "betl": "бетл", "sans": "санс", "preferans": "преферанс", "dođem": "дођем",
    "ne dođem": "не дођем", "zovem": "зовем", "kontra": "контра", "rekontra": "реконтра",
    "subkontra": "субконтра", "mortkontra": "мортконтра",
}
"""The Serbian auction's and defence's words in Serbian Cyrillic: a Russian line says the players' own Serbian
words in the script it is written in (no Latin letter in a Russian line)."""

READING: Final = register(Reading(
    "serbian", serbian_result, layout=Part("vistlog.projections.games.serbian.paper", "BULA"),
    teller=Part("vistlog.projections.replay", "tell_serbian_deals"),
    counter=Part("vistlog.projections.games.serbian.counts", "count_serbian"),
    moves="bula",  # the moves of a bula are what a Serbian deal's outcome is read from
    said={"ru": SERBIAN_CYRILLIC}))
"""Serbian preferans, as the read side knows it (:mod:`vistlog.projections.variants`)."""
