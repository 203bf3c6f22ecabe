"""The defence's calls and the verdicts a deal's facts give: small rules the state machines and the
scorings both ask, in one place (compiled in the compiled build, as the hot modules that call them are).

``vistlog.events.cards`` re-exports every name here but :func:`undertricks`.

>>> half_stands([("A", WhistCall.PASS), ("B", WhistCall.HALF)]), obligation(6)
(True, 4)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

__all__ = ["WhistCall", "final_calls", "half_stands", "obligation", "whister_share", "undertricks"]


class WhistCall(enum.Enum):
    """A Preferans defender's decision: whist, pass or half-whist (полвиста); in Serbian
    preferans also invite (*zovem*: the lone defender calls the other to play with him)."""

    WHIST = "whist"
    PASS = "pass"
    HALF = "half"
    INVITE = "invite"


def final_calls(calls: Sequence[tuple[str, WhistCall]]) -> dict[str, WhistCall]:
    """Each Preferans defender's final decision. After pass, half and the first defender's second word
    the half-whister is deemed to pass (the first took the whist, or both pass).

    >>> P, H = WhistCall.PASS, WhistCall.HALF
    >>> final_calls([("A", P), ("B", H), ("A", WhistCall.WHIST)])
    {'A': <WhistCall.WHIST: 'whist'>, 'B': <WhistCall.PASS: 'pass'>}
    """
    final = dict(calls)
    if len(calls) == 3:
        final[calls[1][0]] = WhistCall.PASS
    return final


def half_stands(calls: Sequence[tuple[str, WhistCall]]) -> bool:
    """Half-whist stands: the first passed, the second said half, and the first did not take it back."""
    said = [c for _, c in calls]
    return said[:2] == [WhistCall.PASS, WhistCall.HALF] and (len(said) == 2 or said[2] is WhistCall.PASS)


def obligation(level: int) -> int:
    """Tricks the defence must take against a Preferans contract of this level (6→4, 7→2, else 1):
    a fact of the game, the same under every preset.

    >>> [obligation(n) for n in (6, 7, 8)]
    [4, 2, 1]
    """
    return {6: 4, 7: 2}.get(level, 1)


def whister_share(level: int) -> int:
    """One whister's share of the obligation when both whist (6→2, 7→1, else 1)."""
    return {6: 2, 7: 1}.get(level, 1)


def undertricks(level: int | None, misere: bool, without_three: bool, taken: int | None) -> int:
    """Tricks the declarer of a Preferans contract of ``level`` fell short by, having taken ``taken``
    (``None``: not played): a misère falls short by every trick taken, a contract given up without three
    by 3; 0 when made or decided without play.

    >>> undertricks(7, False, False, 5), undertricks(None, True, False, 2), undertricks(6, False, True, None)
    (2, 2, 3)
    """
    if without_three:
        return 3
    if taken is None:
        return 0
    if misere:
        return taken
    return max(0, (level or 0) - taken)

