"""The ids of ended games, kept as their hashes: a set, and a map to small values."""

from __future__ import annotations

import pickle
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vistlog.events.ids import IdTable


@given(st.lists(st.tuples(st.text(min_size=1, max_size=6), st.integers(0, 255)), max_size=60),
       st.lists(st.text(max_size=6), max_size=20), st.sampled_from([1, 2, 4, 1024]))
def test_an_id_table_answers_as_a_dict_through_its_growth(added: list[tuple[str, int]], asked: list[str],
                                                           size: int) -> None:
    table, plain = IdTable(size), {}
    for game, value in added:
        table[game] = value
        plain[game] = value
    assert len(table) == len(plain)
    for game in [*plain, *asked]:
        assert table.get(game) == plain.get(game)
        assert (game in table) == (game in plain)
    assert 3 * len(table) <= 2 * len(table.digests)


def test_an_id_takes_at_most_27_bytes_and_the_string_is_not_kept() -> None:
    tracemalloc.start()
    table = IdTable()
    for k in range(50_000):
        table.add(f"club-2026-11-28-game-{k}")  # each id string is gone once added
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert held / len(table) <= 27
    assert all(f"club-2026-11-28-game-{k}" in table for k in range(0, 50_000, 97))


def test_a_table_of_this_process_hashes_does_not_travel() -> None:
    with pytest.raises(TypeError, match="another process"):
        pickle.dumps(IdTable())


def test_a_copy_is_its_own_table() -> None:
    import copy

    table = IdTable(1)
    table.add("a")
    for other in (copy.copy(table), copy.deepcopy(table)):
        other.add("b")
        assert "a" in other and "b" in other and "b" not in table
