"""The layouts a player cannot tell apart: the cards he has not seen dealt to the places he cannot see
(the other hands, and cards out of play: a discard, a talon not shown, a hand that sits out), every way
consistent with what he saw, each equally likely.

What he saw is data: how many unseen cards each place holds, and for each group of cards who may hold them
(a suit a player showed void in is not his; a talon card shown to all went to the declarer or was put
away). :class:`Layouts` counts the layouts exactly, draws one uniformly, or lists them all.

>>> from vistlog.events.cards import parse_card as c
>>> spades = [c("7S"), c("8S"), c("9S")]
>>> lay = Layouts({"B": 2, "C": 1}, [(spades, ("B", "C"))])
>>> lay.count
3
>>> sorted(sorted(str(x) for x in one["C"]) for one in lay)
[['7S'], ['8S'], ['9S']]
>>> Layouts({"B": 2, "C": 1}, [(spades, ("B",))]).count   # C showed void in spades: none fits
0
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Mapping, Sequence

from vistlog.events.cards import Card

__all__ = ["Layouts"]


class Layouts:
    """Every way to deal the unseen cards: ``places`` maps each place to how many of them it holds,
    ``groups`` lists cards with the places that may hold them (each card in one group)."""

    def __init__(self, places: Mapping[str, int], groups: Sequence[tuple[Sequence[Card], Sequence[str]]]) -> None:
        self.places = list(places)
        self._sizes = tuple(places[p] for p in self.places)
        self._groups = [(list(cards), tuple(self.places.index(p) for p in allowed))
                        for cards, allowed in groups if cards]
        if sum(len(cards) for cards, _ in self._groups) != sum(self._sizes):
            raise ValueError("the unseen cards and the places' sizes do not add up")
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._split_memo: dict[tuple[int, tuple[int, ...]], list[tuple[int, tuple[int, ...], tuple[int, ...]]]] = {}

    @property
    def count(self) -> int:
        """How many layouts fit what was seen."""
        return self._count(0, self._sizes)

    def _count(self, i: int, room: tuple[int, ...]) -> int:
        if i == len(self._groups):
            return int(not any(room))
        key = (i, room)
        got = self._ways.get(key)
        if got is None:
            got = sum(w * self._count(i + 1, rest) for w, _parts, rest in self._splits(i, room))
            self._ways[key] = got
        return got

    def _splits(self, i: int, room: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """Each way group ``i``'s cards split among its places (how many each): the number of card choices it
        makes, the counts, and the room left (kept: each draw walks them again)."""
        key = (i, room)
        got = self._split_memo.get(key)
        if got is None:
            got = self._split_memo[key] = list(self._each_split(i, room))
        return got

    def _each_split(self, i: int, room: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        cards, allowed = self._groups[i]

        def parts(k: int, left: int) -> Iterator[list[int]]:
            if k == len(allowed) - 1:
                if left <= room[allowed[k]]:
                    yield [left]
                return
            for x in range(min(left, room[allowed[k]]) + 1):
                for rest in parts(k + 1, left - x):
                    yield [x, *rest]

        if not allowed:
            return
        for split in parts(0, len(cards)):
            ways, left = 1, len(cards)
            for x in split:
                ways *= math.comb(left, x)
                left -= x
            rest = list(room)
            for place, x in zip(allowed, split):
                rest[place] -= x
            yield ways, tuple(split), tuple(rest)

    def sample(self, rng: random.Random) -> dict[str, list[Card]]:
        """One layout drawn uniformly (``rng`` decides; the same state gives the same layout)."""
        if not self.count:
            raise ValueError("no layout fits what was seen")
        out: dict[str, list[Card]] = {p: [] for p in self.places}
        room = self._sizes
        for i, (cards, allowed) in enumerate(self._groups):
            pick = rng.randrange(self._count(i, room))
            for w, parts, left in self._splits(i, room):
                pick -= w * self._count(i + 1, left)
                if pick < 0:
                    split, rest = parts, left
                    break
            shuffled = list(cards)
            rng.shuffle(shuffled)
            at = 0
            for place, x in zip(allowed, split):
                out[self.places[place]] += shuffled[at:at + x]
                at += x
            room = rest
        return out

    def __iter__(self) -> Iterator[dict[str, list[Card]]]:
        """Every layout, each once."""
        yield from self._every(0, self._sizes, {p: [] for p in self.places})

    def _every(self, i: int, room: tuple[int, ...], acc: dict[str, list[Card]]) -> Iterator[dict[str, list[Card]]]:
        if i == len(self._groups):
            if not any(room):
                yield {p: list(cs) for p, cs in acc.items()}
            return
        cards, allowed = self._groups[i]
        for _w, split, rest in self._splits(i, room):
            if not self._count(i + 1, rest):
                continue
            for chosen in _deals(cards, split):
                for place, got in zip(allowed, chosen):
                    acc[self.places[place]] += got
                yield from self._every(i + 1, rest, acc)
                for place, got in zip(allowed, chosen):
                    del acc[self.places[place]][len(acc[self.places[place]]) - len(got):]


def _deals(cards: Sequence[Card], split: Sequence[int]) -> Iterator[list[list[Card]]]:
    """Every way to hand ``split[k]`` of ``cards`` to the k-th place."""
    if not split:
        yield []
        return
    for first in itertools.combinations(cards, split[0]):
        taken = set(first)
        rest = [c for c in cards if c not in taken]
        for more in _deals(rest, split[1:]):
            yield [list(first), *more]

