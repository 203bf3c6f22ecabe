"""Where a game stands for whoever records its next deal: :class:`Table` (the score pad, ``vistlog deal``)."""

from __future__ import annotations

import attrs

from .plain import Plain

from .cards import GameKind
from .seating import holders

__all__ = ["Table"]


@attrs.frozen(repr=False, eq=False)
class Table(Plain):
    """Where a game stands for whoever records its next deal (the score pad, ``vistlog deal``)."""

    game: str
    kind: GameKind
    tricks_total: int | None
    """What a deal's tricks add up to (None where play may stop once the outcome is decided)."""
    players: tuple[str, ...]
    next_deal: int
    """The number the next new deal gets."""
    dealer: str | None
    """Who deals it; None before the first deal (anybody may)."""
    first_to_speak: str | None
    """Who speaks (and leads) first in it: the first holder to the dealer's left."""
    holders: tuple[str, ...]
    """Who holds cards in it (in a four-handed Preferans game the dealer sits out)."""
    open_deal: int | None
    """A deal that has started and is not finished (its next event must finish it)."""
    voided: tuple[tuple[int, str], ...]
    """Voided deals not yet recorded again, each with its dealer."""
    ended: bool
    """A ``game_ended`` was recorded."""
    over: bool = False
    """The rules end the game here: no deal may start (every pool closed; Serbian: the bulas at 0)."""
    dealer_sits_out: bool = False
    """In a four-handed Preferans game the dealer holds no cards."""
    contracts: tuple[str, ...] = ()
    """The contracts of this game, lowest first, as the log writes them."""
    calls: tuple[str, ...] = ()
    """The defenders' calls its rules allow (none in Solo Whist), then its kontras (Serbian)."""
    flags: tuple[str, ...] = ()
    """What else a deal of this game may say: ``bomb``, ``turned`` (of the deal); ``dark``,
    ``without_three``, ``totus``, ``igra``, ``partner``, ``trump`` (of the contract)."""
    all_pass_bids: bool = False
    """Everybody passing is written as each holder's pass, in speaking order: the auction is what the deal
    is (Solo Whist: a redeal, or the general misère); else a deal without contract needs no bids (a raspas)."""
    all_pass_played: bool = True
    """A deal everybody passed is played out (a raspas; the general misère), so its tricks are asked; else it
    ends with the passes (a redeal)."""
    last_needed: bool = False
    """A deal without contract that is played needs who took the last trick (``last NAME``)."""
    needs: tuple[tuple[str, str], ...] = ()
    """What a contract must say besides its declarer: ``(contract, flag)`` pairs (a prop its ``partner``, an
    abundance its ``trump``)."""
    targets: tuple[tuple[str, int], ...] = ()
    """The tricks each contract's declaring side must take (a misère: none), for a form's first guess."""
    over_why: str = ""
    """Why the rules end the game here (``every pool is closed``), empty while they do not."""
    variant: str = ""
    """The game (:data:`vistlog.events.variants.VARIANTS`), for whoever draws its form
    (:func:`vistlog.projections.variants.reading_of`)."""

    def holders_for(self, dealer: str) -> tuple[str, ...]:
        """Who holds cards when ``dealer`` deals, from his left."""
        return tuple(holders(list(self.players), dealer, dealer_sits_out=self.dealer_sits_out))
