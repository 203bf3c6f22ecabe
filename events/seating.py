"""Who sits where: clockwise order, who holds cards, and the defenders' speaking order.

Players are listed clockwise in ``game_started.players``. In a 4-player Preferans deal the
dealer sits out and holds no cards; in every other deal everybody plays.

>>> holders(["A", "B", "C", "D"], "B", dealer_sits_out=True)
['C', 'D', 'A']
>>> defenders(["C", "D", "A"], "D")
['A', 'C']
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["in_turn", "clockwise", "holders", "defenders", "dealer_sits_out"]


def clockwise(players: Sequence[str], after: str) -> list[str]:
    """Everybody clockwise starting after ``after``, who comes last."""
    i = list(players).index(after)
    return [*players[i + 1:], *players[:i + 1]]


def in_turn(players: Sequence[str], first: str) -> list[str]:
    """Everybody clockwise starting with ``first`` (the seats of a trick, an auction, a PBN deal).

    >>> in_turn(["N", "E", "S", "W"], "S")
    ['S', 'W', 'N', 'E']
    """
    return [first, *clockwise(players, first)[:-1]]


def dealer_sits_out(preferans: bool, players: Sequence[str]) -> bool:
    """True in a 4-player Preferans game: the dealer deals and sits the deal out."""
    return preferans and len(players) == 4


def holders(players: Sequence[str], dealer: str, *, dealer_sits_out: bool) -> list[str]:
    """The players who hold cards, clockwise from the dealer's left (the first to speak)."""
    return [p for p in clockwise(players, dealer) if not (dealer_sits_out and p == dealer)]


def defenders(holding: Sequence[str], declarer: str) -> list[str]:
    """The declarer's opponents among ``holding``, in speaking order (from his left)."""
    return [p for p in clockwise(holding, declarer) if p != declarer]
