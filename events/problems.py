"""What can be wrong with a log: the one exception root, problems with their place, stable codes.

Everything vistlog raises on bad input is a :class:`VistlogError`. A log that can be read but
breaks a rule is not an exception: each thing wrong with it is a :class:`Problem` value with
its place (file, line, ``seq``, field), a message for people and a stable ``code`` for programs.
The codes are listed in :data:`CODES` (and in ``docs/problems.md``); a code never changes
meaning, while a message may be reworded.

>>> p = Problem("club.jsonl", 6, 6, "taken", "taken adds up to 11, a Preferans deal has 10 tricks",
...             code="tricks-sum")
>>> str(p)
'club.jsonl:6: seq 6: taken: taken adds up to 11, a Preferans deal has 10 tricks'
>>> p.code, CODES[p.code]
('tricks-sum', 'the tricks taken do not add up to the tricks of a deal')
"""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs

from .native import mypyc_attr

__all__ = ["VistlogError", "LogUnreadable", "Issue", "Problem", "CODES"]


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class VistlogError(ValueError):
    """The root of everything vistlog raises on bad input or a file it cannot read or write.

    Every subclass carries its details in the same attributes: ``code`` (a stable word naming the
    kind of failure, one per class, or the problem code of a single refused event) and
    ``problems`` (each :class:`Problem` when there are several; empty otherwise).

    >>> err = VistlogError("club.jsonl: cannot open (No such file or directory)")
    >>> err.code, err.problems, str(err)
    ('error', (), 'club.jsonl: cannot open (No such file or directory)')
    """

    code: str = "error"
    problems: tuple[Problem, ...] = ()


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class UnknownName(VistlogError):
    """A name that is none of those known (a format, a preset, a game, a player, a column);
    the message lists the known ones."""

    code = "unknown-name"


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class LogUnreadable(VistlogError):
    """A log (or a key file) that cannot be read at all: missing, a folder, unreadable, empty, or not JSON Lines."""

    code = "log-unreadable"


class Issue(NamedTuple):
    """One reason an event is refused, as the state machine says it: code, field, message."""

    code: str
    field: str
    message: str


@attrs.frozen
class Problem:
    """One thing wrong with a log, with its place: ``FILE:LINE: seq N: field: message``."""

    path: str
    line: int | None
    seq: int | None
    field: str
    message: str
    game: str | None = None
    event_type: str | None = None
    deal: int | None = None
    code: str = attrs.field(kw_only=True)

    def __str__(self) -> str:
        parts = [self.path if self.line is None else f"{self.path}:{self.line}"]
        if self.seq is not None:
            parts.append(f"seq {self.seq}")
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The problem as JSON outputs give it: every field, and ``text`` as the text output prints it."""
        return {"code": self.code, "path": self.path, "line": self.line, "seq": self.seq, "field": self.field,
                "message": self.message, "game": self.game, "text": str(self)}


CODES: dict[str, str] = {
    # reading and decoding a line
    "json-invalid": "the line is not valid JSON (or not UTF-8 text)",
    "torn-line": "the file ends in the middle of an event (a write that never finished)",
    "line-too-long": "the line is longer than any event can be",
    "not-an-object": "the line is JSON but not an object",
    "type-missing": "the event has no type",
    "type-unknown": "the type is not an event type of the format",
    "field-missing": "a required field is missing",
    "field-unknown": "a field the event type does not have (extensions start with _)",
    "field-duplicate": "the same field twice in one event",
    "field-invalid": "a field's value is not of its kind (a card, a bid, a number, a name…)",
    "rules-invalid": "game_started.rules names an unknown preset or option, or a bad value",
    "version": "a format version this program does not read",
    "seq-order": "seq does not run 1, 2, 3… (a line is missing, repeated or out of order)",
    "chain-mismatch": "the hash chain breaks at this line: it or one before it was changed",
    "chain-missing": "a line without a chain after the chain began",
    "chain-unkeyed": "a line chained without the key after the keyed chain began",
    "chain-head-missing": "the head kept from an earlier verify is on no line: lines were cut from the end",
    "append-conflict": "a conditional append (the score pad's) expected another next seq: somebody recorded first; "
                       "nothing written",
    "chain-not-keyed": "verify was given a key, but no line carries a keyed chain (_mac): the key proves nothing",
    # games and players
    "game-empty": "an empty game id",
    "game-not-started": "an event of a game with no game_started before it",
    "game-twice": "a game id started twice in one file",
    "after-game-ended": "an event after the game's game_ended",
    "game-end-unfinished": "game_ended in the middle of a deal",
    "game-unfinished": "the file ends in the middle of a game's deal",
    "event-misplaced": "an event type that is not allowed at this point",
    "event-preferans-only": "an event that only Preferans has",
    "player-unknown": "a name that is not a player of the game",
    "player-sits-out": "the sitting-out dealer named where only card holders may be",
    "player-name-empty": "an empty player name",
    "player-name-invalid": "a player name with control or format characters",
    "player-twice": "a player listed twice",
    "player-name-notation": "a player name holding a word of the deal notation (end, raspas, tricks …) or its "
                            "clause break (;): a line would misread it",
    "player-name-not-nfc": "a player name not in Unicode NFC form (two spellings of the same letters)",
    "player-name-spaces": "a player name with blanks at its ends (it would print like the name without them)",
    "players-look-alike": "two players of one game whose names look alike (case, ё/е, confusable letters: "
                          "Unicode TR #39 skeletons)",
    "number-too-large": "a whole number past 2^63 − 1, the largest a log holds (either sign)",
    "line-unfinished": "a line of the deal notation that leaves its deal unfinished (a line is a whole deal)",
    "reason-invalid": "a reason (free text) too long, or with control, format or bidi characters",
    "draft-invalid": "a draft asked about with the next-step query that holds card play or is not an event",
    "game-id-invalid": "a game id with control or format characters, or not in Unicode NFC form",
    "players-count": "the wrong number of players for the game",
    "preset-other-game": "a preset of the other game",
    "pool-missing": "a Preferans game without a pool size",
    "pool-size": "a pool size below 1",
    "pool-solo-whist": "a pool size for Solo Whist",
    "stake-invalid": "a stake that is not a decimal amount",
    "opening-balance-late": "opening_balance after the first deal",
    "points-in-preferans": "points in a Preferans game",
    "points-only": "a Solo Whist balance or sheet with something other than points",
    # deals
    "deal-not-started": "a deal event before any deal_started",
    "deal-not-current": "a deal event naming another deal than the current one",
    "deal-out-of-order": "deal numbers do not run 1, 2, 3…",
    "deal-unfinished": "a new deal before the last one has its result",
    "pools-closed": "a deal after every pool is closed, where the rules end the game so",
    "dealer-wrong": "not the dealer the rotation gives",
    "bomb-level": "a bomb level outside 0..3",
    "bombs-off": "a bomb where the rules have none",
    "bomb-solo-whist": "a bomb in Solo Whist",
    "turned-card-preferans": "a turned card in Preferans",
    "turned-card-not-in-hand": "the turned card is not in the dealer's hand",
    "talon-size": "a talon that is not two cards",
    "talon-in-hand": "a card in both the talon and a hand",
    "talon-solo-whist": "a talon in Solo Whist",
    "hand-missing": "no hand for a player who holds cards",
    "hand-of-sitting-out": "a hand for the sitting-out dealer",
    "hand-size": "a hand of the wrong size",
    "card-not-in-deck": "a card the game's deck does not have",
    "card-dealt-twice": "a card dealt twice",
    "void-unplayed": "deal_voided for a deal not played yet",
    "void-twice": "deal_voided for a deal already void",
    "deal-replace-flag-missing": "a voided deal's number again without replaces_voided",
    "deal-not-voided": "replaces_voided for a deal that was not voided",
    "deal-replaced-twice": "a voided deal recorded again twice for one void",
    "checkpoint-unplayed": "score_recorded after a deal not played yet",
    # the auction and the contract
    "auction-over": "a bid after the auction ended",
    "bid-unknown": "not a bid of this game",
    "bid-out-of-turn": "a bid by a player whose turn it is not",
    "bid-too-low": "a bid that does not beat the highest so far",
    "bid-after-pass": "a bid by a player who has passed",
    "bid-by-holder": "a bid by the player who holds the highest bid",
    "cop-without-prop": "a cop with no standing prop",
    "cop-own-prop": "a cop by the player who made the prop",
    "cop-late": "a cop by a player who may no longer cop",
    "prop-not-first": "a prop that does not open the auction",
    "hold-off": "«здесь» (hold) where the rules have none (elder_hand_holds)",
    "hold-not-elder": "«здесь» (hold) by someone other than the elder hand",
    "hold-nothing": "«здесь» (hold) with no bid of another player to hold",
    "misere-not-first": "misère after the player has already spoken (misere_first_word)",
    "bid-below-raspas-exit": "a contract below the least one after a run of raspasy (raspas_exit)",
    "contract-twice": "a second contract in one deal",
    "contract-after-all-pass": "a contract after everybody passed",
    "contract-prop-not-accepted": "a contract after a prop nobody accepted",
    "contract-auction-open": "a contract before the auction is over",
    "contract-after-play": "a contract after play has begun",
    "contract-unknown": "not a contract of this game",
    "contract-field-solo-whist": "partner or trump on a Preferans contract",
    "contract-flag-preferans": "dark, without_three or totus on a Solo Whist contract",
    "declarer-not-winner": "a declarer who did not win the auction",
    "contract-not-bid": "a contract other than the auction gave",
    "contract-too-low": "a contract below the winning bid",
    "dark-games-off": "a dark game where the rules have none",
    "totus-off": "a тотус where the rules have none",
    "totus-level": "a тотус that is not a 10-game",
    "totus-helps": "more helping partners than the bomb level allows",
    "helps-not-totus": "helping partners on a contract that is not a тотус",
    "helps-not-partner": "a helper who is not a partner of the declarer",
    "helps-solo-whist": "helping partners in Solo Whist",
    "without-three-not-allowed": "a contract that cannot be given up without three",
    "partner-missing": "a prop without its accepting partner",
    "partner-self": "a prop whose partner is the declarer",
    "partner-not-cop": "a partner other than the player who copped",
    "partner-not-prop": "a partner on a contract that is not a prop",
    "trump-not-abundance": "a trump named on a contract that is not an abundance",
    "trump-missing": "an abundance without its trump suit",
    # defence and play
    "whist-no-contract": "a whist call with no contract",
    "whist-not-called-for": "a whist call where none is asked for (misère, raspas, given up)",
    "whist-after-play": "a whist call after play began",
    "whist-too-many": "a third whist call",
    "whist-out-of-turn": "a whist call by a defender whose turn it is not",
    "half-whist-misplaced": "half-whist by someone other than the second defender after a pass",
    "half-whist-off": "half-whist where the rules have none",
    "half-whist-level": "half-whist on a contract above 7",
    "whist-after-half": "a first defender's answer to a half-whist other than whist or pass",
    "discard-twice": "a second discard",
    "discard-size": "a discard that is not two different cards",
    "discard-not-declarer": "a discard by someone other than the declarer",
    "discard-after-play": "a discard after play began",
    "discard-not-held": "a discarded card the declarer does not hold",
    "card-after-tricks": "a card played after the tricks were recorded",
    "card-without-play": "a card played where the deal has no play",
    "card-without-hands": "card-level play without the hands in deal_started",
    "card-after-claim": "a card played after a claim ended the play",
    "claim-not-here": "a claim in a game that records none (Solo Whist, Serbian preferans)",
    "claim-after-play": "a claim after the deal's play has ended",
    "claim-in-raspas": "a claim in a raspas (each plays for himself)",
    "claim-not-playing": "a claim by a player who plays no cards in the deal",
    "claim-mid-trick": "a claim while a trick is under way (claims are made between tricks)",
    "claim-range": "a claim of more tricks than are left to play (or fewer than none)",
    "claim-split": "a claim whose split of the defence's tricks is missing or does not add up",
    "claim-without-play": "a claim where the deal has no play",
    "claim-without-hands": "a claim without the hands in deal_started",
    "tricks-differ-from-claim": "tricks that differ from those an accepted claim gave",
    "tricks-below-played": "tricks after a disputed claim fewer than a player took before it",
    "play-complete": "a card after every trick was played",
    "card-out-of-turn": "a card played by a player whose turn it is not",
    "card-not-held": "a card the player does not hold",
    "revoke": "a card of another suit while the player can follow suit",
    "must-trump": "a card other than a trump while the player has no card of the suit led and must trump",
    "tricks-twice": "a second tricks event in one deal",
    "tricks-without-play": "tricks where the deal is decided without play",
    "tricks-missing": "no tricks for a player who holds cards",
    "tricks-range": "a player's tricks outside 0..the tricks of a deal",
    "tricks-sum": "the tricks taken do not add up to the tricks of a deal",
    "tricks-not-played": "tricks before the cards of every trick were played",
    "tricks-differ-from-cards": "tricks other than the cards played give",
    "last-trick-wrong": "the player named as taking the last trick took none",
    "last-trick-missing": "a general misère without who took the last trick",
    # scoring
    "allocation-solo-whist": "an allocation in Solo Whist",
    "allocation-self": "a player who helps himself",
    "allocation-undecided": "an allocation before the deal is decided",
    "allocation-sum": "an allocation whose points do not add up to what the player won",
    "zero-sum": "a deal or a game whose numbers do not add up to zero",
    # Serbian preferans (docs/serbian.md)
    "bid-not-next": "a Serbian bid that is not one the player may say now (the message lists them)",
    "contract-before-auction-end": "a contract before the auction is won",
    "contract-below-auction": "a contract below the number won in the auction",
    "contract-field-russian": "a Serbian contract with a field of the Russian game (dark, totus, helps…)",
    "contract-igra": "igra on a contract that was not won with igra, or missing on one that was",
    "contract-not-serbian": "a contract that is not pik, karo, herc, tref, betl, sans (or preferans)",
    "contract-wrong-declarer": "a contract by somebody who did not win the auction",
    "discard-before-auction-end": "a discard before the auction is won",
    "discard-igra": "a discard in an igra, which is played without the talon",
    "discard-missing": "a contract before the discard, when the hands are known",
    "half-whist-serbian": "half-whist in a Serbian game",
    "invite-misplaced": "an invitation (zovem) before both defenders spoke or after play began",
    "invite-not-lone": "an invitation by somebody who is not the one defender who came",
    "invite-after-kontra": "an invitation and a kontra in the same deal",
    "invite-plain-pik": "an invitation on a plain pik, which needs a kontra",
    "kontra-misplaced": "a kontra before the defence has spoken",
    "kontra-after-play": "a kontra after play began",
    "kontra-after-invite": "a kontra after an invitation",
    "kontra-order": "a kontra level out of order (kontra, rekontra, subkontra, mortkontra)",
    "kontra-max": "a kontra level above the rules' kontra_max",
    "kontra-wrong-player": "a kontra level said by the wrong player",
    "play-decided": "a card after play stopped with the outcome decided",
    "tricks-not-playing": "tricks for a player who does not play this deal",
    "allocation-serbian": "an allocation in a Serbian game",
    "balance-serbian": "pool, mountain, whists or points in a Serbian balance",
    "sheet-serbian": "pool, mountain, whists or points in a Serbian checkpoint",
    "soups-on-self": "soups written by a player on himself",
    "bula-russian": "bula, soups or result outside a Serbian game",
    "igra-russian": "igra outside a Serbian game",
    "invite-russian": "an invitation (zovem) outside a Serbian game",
    "column-undeclared": "a balance or an adjustment in a column the game's scoring does not declare",
}
"""Every problem code, with what it means."""
