"""Issue 59: a sheet is the columns its game's scoring declares. The totals are keyed by them: what is added to a
column is what it holds (a paired column by writer and target), a column nobody declared is refused, a copy is its
own; the public sheet reads the same numbers and names a wrong column."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import vistlog
from vistlog.events.entries import Column, Entry, Totals
from vistlog.events.problems import VistlogError
from vistlog.events.variants import VARIANTS

from .conftest import SAMPLES

PLAYERS = ("Аня", "Боря", "Вова", "Гена")
DECLARED = (Column("pool"), Column("whists", paired=True), Column("refe", counted=True), Column("penalty"))
amounts = st.one_of(st.integers(-50, 50), st.fractions(min_value=-20, max_value=20, max_denominator=6))


@st.composite
def entries(draw: Any) -> list[Entry]:
    out = []
    for _ in range(draw(st.integers(0, 40))):
        column = draw(st.sampled_from(DECLARED))
        player = draw(st.sampled_from(PLAYERS))
        on = draw(st.sampled_from([p for p in PLAYERS if p != player])) if column.paired else None
        out.append(Entry(draw(st.integers(0, 9)), column.name, player, draw(amounts), "r", on, draw(st.booleans())))
    return out


@given(entries())
def test_a_column_holds_what_was_added_to_it(written: list[Entry]) -> None:
    t = Totals(PLAYERS, DECLARED)
    for e in written:
        t.apply(e)
    assert t.columns == ("pool", "whists", "refe", "penalty") and t.paired == {"whists"}
    for column in t.columns:
        sums: dict[Any, Fraction] = {}
        for e in written:
            if e.column == column and not e.void:
                key = (e.player, e.on) if column in t.paired else e.player
                sums[key] = sums.get(key, Fraction(0)) + e.amount
        held = t[column]
        assert {k: v for k, v in held.items() if v} == {k: v for k, v in sums.items() if v}
        if column not in t.paired:
            assert set(held) == set(PLAYERS)  # every player has his number, 0 when nothing was written
    drawn = [e for e in written if e.column == "refe" and not e.void and e.amount > 0 and e.player == PLAYERS[0]]
    assert t.times == {"refe": len(drawn)}
    other = t.copy()
    other.add("pool", PLAYERS[0], 1)
    other.add("whists", PLAYERS[1], 1, PLAYERS[0])
    assert other["pool"][PLAYERS[0]] == t["pool"][PLAYERS[0]] + 1
    assert other.value(PLAYERS[1], "whists", PLAYERS[0]) == t.value(PLAYERS[1], "whists", PLAYERS[0]) + 1


def test_a_column_nobody_declared_is_refused() -> None:
    t = Totals(PLAYERS, DECLARED)
    with pytest.raises(VistlogError, match=r"no mountain column \(its columns: pool, whists, refe, penalty\)"):
        t.add("mountain", PLAYERS[0], 1)
    with pytest.raises(VistlogError, match="pool is not written on a player"):
        t.pairs_by("pool", PLAYERS[0])


def test_every_game_declares_its_sheet() -> None:
    """The games vistlog ships, each its own columns in its sheet's order; none is declared twice."""
    sheets = {name: v.scoring.writes for name, v in VARIANTS.items()}
    assert sheets["preferans"] == ("pool", "mountain", "whists")
    assert sheets["solo_whist"] == ("points",)
    assert sheets["serbian"] == ("bula", "soups", "refe")
    for v in VARIANTS.values():
        assert len(set(v.scoring.writes)) == len(v.scoring.writes) and set(v.scoring.columns) <= set(v.scoring.writes)
        assert v.modes[0].name == "contract" and len({m.name for m in v.modes}) == len(v.modes)


def test_the_public_sheet_is_keyed_by_its_columns() -> None:
    game = next(vistlog.read_games(SAMPLES / "sochi-evening.jsonl"))
    sheet = game.sheet(after_deal=6)
    assert sheet.columns == ("pool", "mountain", "whists")
    assert sheet["mountain"]["Вова"] == sheet.value("Вова", "mountain") == 19
    assert sheet.pairs_by("whists", "Аня") == {"Боря": 8, "Вова": 4} == {
        on: v for (w, on), v in sheet["whists"].items() if w == "Аня" and v}
    with pytest.raises(vistlog.VistlogError, match=r"no column 'points' \(columns: pool, mountain, whists\)"):
        sheet.value("Вова", "points")
    with pytest.raises(vistlog.VistlogError, match="give on="):
        sheet.value("Вова", "whists")
    with pytest.raises(vistlog.VistlogError, match="mountain is not written on a player"):
        sheet.pairs_by("mountain", "Вова")
    serbian = next(vistlog.read_games(SAMPLES.parent / "tests" / "vectors" / "serbian" / "sr-1.jsonl"))
    assert serbian.sheet().columns == ("bula", "soups", "refe") and serbian.sheet().times["refe"] >= 1
