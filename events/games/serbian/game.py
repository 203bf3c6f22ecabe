"""Serbian preferans: the contracts' numbers and the state machine of a deal (docs/serbian.md).

:class:`SerbianGame` is the checker of a game whose rules are the ``serbian`` preset. It
shares the envelope of every game with :class:`~vistlog.events.game.GameState` (players, deal
numbers and rotation, voids, checkpoints, the end) and has its own deal: an explicit
:class:`Phase` runs auction → exchange → defence → kontra → play → done.

The players' list is the turn order: each next name sits to the right of the one before,
who deals, bids and plays first after the dealer. Refe and the bula are scores: the one
question the machine asks of them (does the declarer play a refa, is the game over) goes to
the game's :class:`~vistlog.events.tally.Tally`, kept from the deals it hands over.

>>> from vistlog.events.codec import decode
>>> from vistlog.events.checker import LogChecker
>>> chk = LogChecker()
>>> lines = [b'{"seq":1,"type":"game_started","game":"g","kind":"preferans","players":["A","B","C"],'
...          b'"pool":20,"rules":{"preset":"serbian"}}',
...          b'{"seq":2,"type":"deal_started","game":"g","deal":1,"dealer":"C"}',
...          b'{"seq":3,"type":"bid","game":"g","deal":1,"player":"A","bid":"2"}',
...          b'{"seq":4,"type":"bid","game":"g","deal":1,"player":"B","bid":"4"}']
>>> [chk.check(decode(x)) for x in lines][-1]
[Issue(code='bid-not-next', field='bid', message='B may say pass, 3, igra, igra6, igra7, not 4')]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from ...cards import SERBIAN_WORDS, Card, GameKind, Kontra, WhistCall
from ...game import DealState, GameState
from ..preferans.game import PreferansDeal, PreferansGame
from ...model import (
    DEAL_EVENTS, Adjustment, Allocation, BidMade, CardPlayed, Claim, ContractMade, DealStarted, DealVoided, Discard,
    GameEnded, GameStarted, KontraMade, OpeningBalance, ScoreRecorded, Tricks, WhistMade,
)
from ...play import Play, contract_trump, held_after_discard
from ...problems import Issue
from ...record import DealRecord
from ...rules import SerbianOptions
from .deal import (
    CONTRACT_NUMBER, NUMBER_CONTRACT, SERBIAN_NAMES, Phase, SerbianDeal, contract_number, is_plain_pik, neighbours,
    tricks_needed,
)
from ...variant import CONTRACT, DealMode, Variant
from .score import SCORING
from ...tally import Tally

__all__ = ["SerbianGame", "SerbianDeal", "Phase", "CONTRACT_NUMBER", "NUMBER_CONTRACT", "contract_number",
           "tricks_needed", "is_plain_pik", "neighbours"]

_BULAS_ZERO: Final = "the bulas add up to 0"
"""Why the rules end a Serbian game."""


class SerbianGame(PreferansGame):
    """A game under the ``serbian`` preset: one :class:`SerbianDeal` at a time."""

    PLAY_MAY_STOP: ClassVar[bool] = True
    CONTRACTS = tuple(CONTRACT_NUMBER)

    def _raspas(self, d: PreferansDeal) -> bool:
        return False  # everybody passing draws a refa

    def _deal_mode(self, d: PreferansDeal) -> str:
        return "contract" if d.contract is not None else "refa"

    def _record_fields(self, d: PreferansDeal) -> dict[str, Any]:
        """A Serbian deal's record: the defence, no bomb, no redeal, the kontras said."""
        assert isinstance(d, SerbianDeal)
        return {**super()._record_fields(d), "bomb": 0, "redeal": False, "kontra": tuple(d.kontra)}

    @classmethod
    def start_issues(cls, ev: GameStarted) -> list[Issue]:
        if len(ev.players) != 3:
            return [Issue("players-count", "players", f"Serbian preferans is for 3 players, not {len(ev.players)}")]
        if ev.pool is None or ev.pool < 2 or ev.pool % 2:
            return [Issue("pool-size", "pool", f"the bula must be an even number ≥ 2, not {ev.pool}")]
        return []

    def calls_allowed(self) -> tuple[str, ...]:
        calls = (WhistCall.WHIST, WhistCall.PASS, WhistCall.INVITE, *Kontra)
        return tuple(c.value for c in calls)

    def bid_words(self) -> tuple[str, ...]:
        numbers = tuple(str(n) for n in range(2, 9))
        return tuple(["pass", *numbers, *SERBIAN_WORDS, *(f"igra{n}" for n in numbers)])

    def flags_allowed(self) -> tuple[str, ...]:
        flags = ("igra",)
        return flags

    ALL_PASS_BIDS = True  # everybody saying dalje is the deal: a refa for everybody, no play

    def all_pass_played(self) -> bool:
        return False

    def __init__(self, started: GameStarted, tally: Tally) -> None:
        super().__init__(started, tally)
        self.dealer_sits_out = False

    @property
    def serbian(self) -> SerbianOptions:
        """The options of this game."""
        assert isinstance(self.options, SerbianOptions)
        return self.options

    def new_deal(self, number: int, dealer: str | None, holders: list[str], started: DealStarted | None
                 ) -> SerbianDeal:
        """A fresh deal of this game."""
        return SerbianDeal(number, dealer, holders, started)

    @property
    def _d(self) -> SerbianDeal:
        d = self.deal
        assert isinstance(d, SerbianDeal)
        return d

    def check(self, ev: Any) -> list[Issue]:
        """As :meth:`GameState.check`; an event outside the deal first closes a plain pik left unplayed."""
        if type(ev) not in DEAL_EVENTS:
            self._close_unplayed_pik()
        return super().check(ev)

    def hand_over(self, starting: bool = False) -> DealRecord | None:
        """As :meth:`GameState.hand_over`, a plain pik left unplayed closed first (the file ends after it)."""
        self._close_unplayed_pik()
        return super().hand_over(starting)

    def _close_unplayed_pik(self) -> None:
        """A plain pik nobody kontred is finished once something else follows it."""
        d = self.deal
        if isinstance(d, SerbianDeal) and not d.finished and not d.broken and d.phase is Phase.KONTRA \
                and self._pik_unplayed(d):
            d.finished = d.without_play = True
            d.phase = Phase.DONE

    def unfinished(self) -> str | None:
        """Why the current deal is not finished, or ``None`` (a plain pik nobody kontred is finished
        once something else follows it: asking changes nothing)."""
        d = self.deal
        if not isinstance(d, SerbianDeal) or d.finished or d.broken or (d.number in self.voided
                                                                         and not d.replacement):
            return None
        if d.phase is Phase.KONTRA and self._pik_unplayed(d):
            return None
        what = {Phase.AUCTION: "the auction is not over", Phase.EXCHANGE: "no contract",
                Phase.DEFENCE: "the defenders have not both spoken",
                Phase.KONTRA: "no tricks", Phase.PLAY: "no tricks"}[d.phase]
        if d.phase is Phase.PLAY and d.play is not None:
            what = f"play stopped at trick {d.play.trick_no}"
        return f"deal {d.number}: {what}"

    # ------------------------------------------------------------------ deal start

    OVER_WHY = _BULAS_ZERO
    GAME_OVER = _BULAS_ZERO + ": game {game} is over; record its game_ended, or start a new game"

    def _game_over(self) -> bool:
        return self.pools_closed()

    def _dealer_deals_again(self, prev: DealState) -> bool:
        return False  # the deal passes on after every deal, all-pass ones included

    def _after_deal(self, prev: DealState) -> None:
        """Refe are scores: the projections keep them."""

    def _deal_fields(self, ev: DealStarted) -> list[Issue]:
        if ev.bomb:
            return [Issue("bombs-off", "bomb", "Serbian preferans has no bombs")]
        return super()._deal_fields(ev)

    # ------------------------------------------------------------------ auction

    def _max_number(self) -> int:
        return 8 if self.serbian.preferans_contract else 7

    def choices(self, d: SerbianDeal, player: str) -> list[str]:
        """What ``player`` may say now besides ``pass`` (not whose turn it is)."""
        if player in d.passed:
            return []
        top = self._max_number()
        first_word = player not in d.spoken and player not in d.igra
        out: list[str] = []
        if d.igra:
            if first_word:
                out.append("igra")
            if player in d.igra or first_word:
                least = 2 if d.igra and d.igra[0] == player else 3
                if d.best is not None:
                    holder, n = d.best
                    if holder == player:
                        return []
                    earlier = player in d.igra and d.igra.index(player) < d.igra.index(holder)
                    least = max(least, n if earlier else n + 1)
                    if player in d.igra:
                        out.append("yours")
                if player in d.named:
                    return out  # a game is named once; outbid, he can only say yours
                low = least if player in d.igra else max(least, 6)
                out += [f"igra{n}" for n in range(low, top + 1)]
            return out
        if (player in d.spoken and d.holder is not None and player != d.holder and d.level >= 3
                and d.holders.index(player) < d.holders.index(d.holder)):
            out.append("mine")  # the senior player holds; he does not raise over a junior
        elif player != d.holder and d.level < top:
            out.append(str(d.level + 1 if d.level else 2))
        if first_word:
            out += ["igra"] + [f"igra{n}" for n in range(6, top + 1)]
        return out

    def _speaker(self, d: SerbianDeal) -> str | None:
        """Whose turn it is to speak."""
        last = d.bids[-1][0] if d.bids else None
        order = self.left_of(last, d.holders) if last else d.holders
        current = d.best[0] if d.igra and d.best else d.holder if not d.igra else None
        return next((p for p in order if p not in d.passed and p != current), None)

    def _auction_winner(self, d: SerbianDeal) -> str | None:
        left = [p for p in d.holders if p not in d.passed]
        if len(left) == 1 and (left[0] == d.holder or left[0] in d.igra):
            return left[0]
        holder = d.best[0] if d.igra and d.best else d.holder
        if holder is not None and all(not self.choices(d, p) for p in left if p != holder):
            return holder  # «moje 7»: nobody can go on
        return None

    def _bid(self, ev: BidMade) -> list[Issue]:
        d = self._d
        issues = self._player(ev.player, "player")
        if issues:
            return issues
        bid = ev.bid
        if not bid.serbian:
            return [Issue("bid-unknown", "bid", f"{bid} is not a Serbian bid (pass, 2..8, mine, igra, igra2..igra8, "
                                                "yours)")]
        if d.phase is not Phase.AUCTION:
            if bid.is_pass and d.winner is not None and d.contract is None and ev.player not in d.passed \
                    and ev.player != d.winner:
                d.passed.add(ev.player)  # an explicit pass after «moje 7»
                d.bids.append((ev.player, bid))
                return []
            return [Issue("auction-over", "bid", "the auction is over")]
        expected = self._speaker(d)
        if ev.player != expected:
            return [Issue("bid-out-of-turn", "player", f"it is {expected}'s turn to bid, not {ev.player}'s")]
        allowed = self.choices(d, ev.player)
        if not bid.is_pass and bid.text not in allowed:
            words = ", ".join(["pass", *allowed])
            return [Issue("bid-not-next", "bid", f"{ev.player} may say {words}, not {bid}")]
        d.bids.append((ev.player, bid))
        if bid.is_pass or bid.text == "yours":
            d.passed.add(ev.player)
        elif bid.text == "mine":
            d.holder = ev.player
        elif bid.igra:
            if ev.player not in d.igra:
                d.igra.append(ev.player)
            if bid.number is not None:
                d.best = (ev.player, bid.number)
                d.named.add(ev.player)
        else:
            assert bid.number is not None
            d.level, d.holder = bid.number, ev.player
            d.spoken.add(ev.player)
        if bid.text == "mine":
            d.spoken.add(ev.player)
        if len(d.passed) == len(d.holders):
            d.all_passed = d.finished = d.without_play = True
            d.phase = Phase.DONE
            return []
        d.winner = self._auction_winner(d)
        if d.winner is not None:
            d.phase = Phase.EXCHANGE
        return []

    # ------------------------------------------------------------------ exchange

    def _discard(self, ev: Discard) -> list[Issue]:
        d = self._d
        issues = self._player(ev.player, "player")
        if issues:
            return issues
        if d.phase is Phase.AUCTION:
            return [Issue("discard-before-auction-end", "type", "the auction is not over")]
        if d.winner is None or ev.player != d.winner:
            return [Issue("discard-not-declarer", "player", f"{d.winner} won the auction and discards, "
                                                             f"not {ev.player}")]
        if d.igra:
            return [Issue("discard-igra", "type", "an igra is played without the talon: nothing is discarded")]
        if d.discarded is not None:
            return [Issue("discard-twice", "cards", "the discard is already recorded")]
        if d.phase not in (Phase.EXCHANGE, Phase.DEFENCE) or d.calls:
            return [Issue("discard-after-play", "cards", "the defence has spoken")]
        if len(ev.cards) != 2 or ev.cards[0] == ev.cards[1]:
            return [Issue("discard-size", "cards", "a discard is two different cards")]
        issues = self._discarded_held(d, ev)
        if issues:
            return issues
        d.discarded = ev.cards
        return []

    def _contract(self, ev: ContractMade) -> list[Issue]:
        d = self._d
        issues = self._player(ev.declarer, "declarer")
        if issues:
            return issues
        if d.contract is not None:
            return [Issue("contract-twice", "contract", f"deal {d.number} already has a contract")]
        if d.phase is Phase.AUCTION:
            return [Issue("contract-before-auction-end", "contract", "the auction is not over")]
        if d.all_passed:
            return [Issue("contract-after-all-pass", "contract", "everybody passed: there is no contract")]
        if ev.declarer != d.winner:
            return [Issue("contract-wrong-declarer", "declarer", f"{d.winner} won the auction, not {ev.declarer}")]
        text = ev.contract.text
        if text not in CONTRACT_NUMBER or (text == "10NT" and not self.serbian.preferans_contract):
            names = ", ".join(k for k in CONTRACT_NUMBER if k != "10NT" or self.serbian.preferans_contract)
            return [Issue("contract-not-serbian", "contract", f"{text} is not a Serbian contract ({names})")]
        if ev.dark or ev.without_three or ev.totus or ev.helps or ev.partner or ev.trump:
            return [Issue("contract-field-russian", "contract", "Serbian preferans has no dark, totus, "
                                                                "without-three, helps, partner or trump")]
        number = CONTRACT_NUMBER[text]
        if bool(d.igra) != ev.igra:
            return [Issue("contract-igra", "igra", "the auction was won with igra: the contract is an igra" if d.igra
                          else "igra is said in the auction, before anybody bids a number")]
        least = (d.best[1] if d.best else 2) if d.igra else d.level
        if number < least:
            return [Issue("contract-below-auction", "contract",
                          f"{text} ({SERBIAN_NAMES[number]}, {number}) is below the {least} won in the auction")]
        if not ev.igra and d.discarded is None and d.begun.hands is not None:
            return [Issue("discard-missing", "type", f"{ev.declarer} took the talon and discards before declaring")]
        d.contract = ev
        d.defenders = [p for p in self.left_of(ev.declarer, d.holders) if p != ev.declarer]
        d.phase = Phase.PLAY if ev.contract.is_misere else Phase.DEFENCE
        return []

    # ------------------------------------------------------------------ defence and kontra

    def _whist(self, ev: WhistMade) -> list[Issue]:
        d = self._d
        issues = self._player(ev.player, "player")
        if issues:
            return issues
        if d.contract is None:
            return [Issue("whist-no-contract", "type", "no contract to defend")]
        if d.contract.contract.is_misere:
            return [Issue("whist-not-called-for", "call", "on a betl both defenders play: nobody is asked")]
        if ev.call is WhistCall.HALF:
            return [Issue("half-whist-serbian", "call", "Serbian preferans has no half-whist")]
        if ev.call is WhistCall.INVITE:
            return self._invite(d, ev)
        if d.phase is not Phase.DEFENCE:
            return [Issue("whist-too-many", "player", "both defenders have spoken")]
        expected = d.defenders[len(d.calls)]
        if ev.player != expected:
            return [Issue("whist-out-of-turn", "player", f"it is {expected}'s call, not {ev.player}'s")]
        d.calls.append((ev.player, ev.call))
        if len(d.calls) == 2:
            if d.came:
                d.phase = Phase.KONTRA
            else:
                d.phase, d.finished, d.without_play = Phase.DONE, True, True
        return []

    def _invite(self, d: SerbianDeal, ev: WhistMade) -> list[Issue]:
        assert d.contract is not None
        if d.phase is not Phase.KONTRA or d.play is not None:
            return [Issue("invite-misplaced", "call", "zovem comes after both defenders spoke, before play")]
        if d.came != [ev.player]:
            return [Issue("invite-not-lone", "player", "only the one defender who came alone may call the other")]
        if d.inviter is not None or d.kontra:
            return [Issue("invite-after-kontra", "call", "an invitation and a kontra exclude each other")]
        if is_plain_pik(d.contract):
            return [Issue("invite-plain-pik", "call", "a plain pik is played only with a kontra: no invitation")]
        d.calls.append((ev.player, ev.call))
        return []

    def _kontra(self, ev: KontraMade) -> list[Issue]:
        d = self._d
        issues = self._player(ev.player, "player")
        if issues:
            return issues
        c = d.contract
        if c is None or d.phase not in (Phase.KONTRA, Phase.PLAY) or (d.phase is Phase.PLAY and not
                                                                        c.contract.is_misere):
            return [Issue("kontra-misplaced", "level", "kontra comes after the defence has spoken, before play")]
        if d.play is not None or d.tricks is not None:
            return [Issue("kontra-after-play", "level", "play has begun")]
        if d.inviter is not None:
            return [Issue("kontra-after-invite", "level", "an invitation and a kontra exclude each other")]
        step = len(d.kontra) + 1
        if ev.level.step != step:
            expected = list(Kontra)[step - 1].value if step <= 4 else "nothing"
            return [Issue("kontra-order", "level", f"after {len(d.kontra)} kontra(s) comes {expected}, "
                                                   f"not {ev.level.value}")]
        top = Kontra(self.serbian.kontra_max)
        if ev.level.step > top.step:
            return [Issue("kontra-max", "level", f"the rules of game {self.id} stop at {top.value} "
                                                 "(option kontra_max)")]
        starter = d.kontra[0][0] if d.kontra else None
        if ev.level.by_declarer:
            if ev.player != c.declarer:
                return [Issue("kontra-wrong-player", "player", f"{ev.level.value} is the declarer's ({c.declarer})")]
        elif starter is not None:
            if ev.player != starter:
                return [Issue("kontra-wrong-player", "player", f"{ev.level.value} is {starter}'s, who said kontra")]
        elif ev.player not in (d.came if not c.contract.is_misere else d.defenders):
            return [Issue("kontra-wrong-player", "player", f"only a defender who came says kontra, not {ev.player}")]
        d.kontra.append((ev.player, ev.level))
        return []

    def _pik_unplayed(self, d: SerbianDeal) -> bool:
        """A plain pik that nobody kontred is not played (the options decide)."""
        c = d.contract
        if c is None or not is_plain_pik(c) or d.kontra or d.play is not None or d.tricks is not None:
            return False
        o = self.serbian
        if not o.pik_needs_kontra:
            return False
        refa = self.tally.held("refe", c.declarer) > 0
        return o.pik_on_refa_needs_kontra or not refa

    # ------------------------------------------------------------------ play

    def _play_allowed(self, d: Any) -> str | None:
        assert isinstance(d, SerbianDeal)
        if d.phase in (Phase.AUCTION, Phase.EXCHANGE):
            return "there is no contract yet" if not d.all_passed else "everybody passed: there is no play"
        if d.phase is Phase.DEFENCE:
            return "the defenders have not both spoken"
        if d.phase is Phase.DONE:
            return "nobody came: the deal is decided without play" if d.contract else "everybody passed"
        if d.phase is Phase.KONTRA and self._pik_unplayed(d):
            return "a plain pik is played only if a defender says kontra (option pik_needs_kontra)"
        return None

    def _new_play(self, d: PreferansDeal, hands: Mapping[str, tuple[Card, ...]]) -> Play:
        """The play of a Serbian contract: the declarer and the defenders who came, the talon taken or (igra)
        not, the first lead by :meth:`_leader`."""
        c = d.contract
        if c is None:
            return super()._new_play(d, hands)
        held = held_after_discard(hands, c.declarer, d.begun.talon, None if c.igra else d.discarded)
        playing = self._playing(d)  # nobody came: the declarer alone, as the deal's record says
        leader = self._leader(d, playing) if len(playing) > 1 else c.declarer
        shown = () if c.igra else tuple((card, c.declarer) for card in d.begun.talon or ())  # igra: kept closed
        return Play({p: held[p] for p in playing}, playing, leader, contract_trump(c.contract), must_trump=True,
                    shown=shown)

    def _playing(self, d: PreferansDeal) -> list[str]:
        """Who plays: the declarer and the defenders who came (:meth:`SerbianDeal.in_play`)."""
        assert isinstance(d, SerbianDeal)
        return d.in_play()

    def _leader(self, d: PreferansDeal, playing: list[str]) -> str:
        """The first lead: the first player after the dealer who plays; on a sans, a defender
        (option ``sans_lead``)."""
        c = d.contract
        assert c is not None
        if c.contract.text in ("6NT", "10NT"):
            if self.serbian.sans_lead == "left_defender":
                left = self.left_of(c.declarer)[-2]  # the one before the declarer in turn order
                return left if left in playing else next(p for p in playing if p != c.declarer)
            return next(p for p in d.holders if p in playing and p != c.declarer)
        return next(p for p in d.holders if p in playing)

    def _outcome_known(self, d: SerbianDeal, taken: Mapping[str, int]) -> bool:
        """Play stops once the result is decided (docs/serbian.md §5)."""
        c = d.contract
        assert c is not None
        mine = taken.get(c.declarer, 0)
        theirs = sum(n for p, n in taken.items() if p != c.declarer)
        if c.contract.is_misere:
            return mine >= 1
        if c.contract.text == "10NT":
            return theirs >= 1
        cap = self.serbian.soup_trick_cap
        return cap is not None and theirs >= 5

    def _card(self, ev: CardPlayed) -> list[Issue]:
        d = self._d
        if d.tricks is not None:
            return [Issue("card-after-tricks", "card", "the tricks are already recorded")]
        if d.decided:
            return [Issue("play-decided", "card", "play stopped: the outcome of the deal is decided")]
        if d.play is None:
            why = self._play_allowed(d)
            if why:
                return [Issue("card-without-play", "card", why)]
            hands = d.begun.hands
            if hands is None:
                return [Issue("card-without-hands", "card", "card-level play needs the hands in deal_started")]
            d.play = self._new_play(d, hands)
            d.phase = Phase.PLAY
        err = d.play.play(ev.player, ev.card)
        if err:
            return [Issue(err[0], "card", err[1])]
        if not d.play.current and (d.play.complete or self._outcome_known(d, d.play.taken)):
            d.finished = d.decided = True
            d.phase = Phase.DONE
        return []

    def _holders_for_tricks(self, d: PreferansDeal) -> tuple[list[str], list[str]]:
        """Who is listed in the tricks: the declarer and the defenders who came (:meth:`SerbianDeal.in_play`)."""
        assert isinstance(d, SerbianDeal)
        playing = list(d.in_play())
        return playing, playing

    def _tricks(self, ev: Tricks) -> list[Issue]:
        d = self._d
        if d.tricks is not None:
            return [Issue("tricks-twice", "type", f"deal {d.number} already has its tricks")]
        if d.play is not None and not d.decided:
            return [Issue("tricks-not-played", "taken", f"the cards show only {d.play.trick_no - 1} tricks played")]
        why = self._play_allowed(d) if d.play is None else None
        if why:
            return [Issue("tricks-without-play", "taken", why)]
        playing, _ = self._holders_for_tricks(d)
        issues = self._tricks_listed(ev, playing, playing, lambda name: Issue(
            "tricks-not-playing", f"taken.{name}", f"{name} does not play this deal"))
        if issues:
            return issues
        for name, n in ev.taken.items():
            if not 0 <= n <= 10:
                return [Issue("tricks-range", f"taken.{name}", f"{n} tricks is not 0..10")]
        if ev.total > 10 or (ev.total < 10 and not self._outcome_known(d, ev.taken)):
            return [Issue("tricks-sum", "taken", f"taken adds up to {ev.total}: a deal has 10 tricks, or fewer "
                                                 "only when play stopped with the outcome decided")]
        if d.play is not None:
            derived = d.play.taken
            if any(ev.taken.get(p, 0) != derived.get(p, 0) for p in {*derived, *ev.taken}):
                shown = ", ".join(f"{p} {n}" for p, n in derived.items())
                return [Issue("tricks-differ-from-cards", "taken", f"the cards give {shown}")]
        d.tricks = ev
        d.finished = True
        d.phase = Phase.DONE
        return []

    # ------------------------------------------------------------------ outside deals

    def _allocation(self, ev: Allocation) -> list[Issue]:
        return [Issue("allocation-serbian", "type", "Serbian preferans has no allocations")]

    def _opening(self, ev: OpeningBalance) -> list[Issue]:
        if ev.pool or ev.mountain or ev.whists or ev.points:
            return [Issue("balance-serbian", "bula", "a Serbian balance has bula and soups only")]
        return self._balance(ev.bula, ev.soups, late=self.deals_started > 0)

    def _adjustment(self, ev: Adjustment) -> list[Issue]:
        if ev.pool or ev.mountain or ev.whists or ev.points:
            return [Issue("balance-serbian", "bula", "a Serbian adjustment has bula and soups only")]
        return self._balance(ev.bula, ev.soups, late=False)

    def _balance(self, bula: Mapping[str, int], soups: Mapping[str, Mapping[str, int]], late: bool
                 ) -> list[Issue]:
        if late:
            return [Issue("opening-balance-late", "type", "an opening balance comes before the first deal")]
        issues = self._names(bula, "bula")
        if issues:
            return issues
        for writer, row in soups.items():
            issues = self._names([writer], "soups") or self._names(row, f"soups.{writer}")
            if issues:
                return issues
            if writer in row:
                return [Issue("soups-on-self", f"soups.{writer}.{writer}", "nobody writes soups on himself")]
        return []

    def _sheet_columns(self, name: str, line: Any) -> list[Issue]:
        if line.pool is not None or line.mountain is not None or line.whists is not None or line.points is not None:
            return [Issue("sheet-serbian", f"sheet.{name}", "a Serbian sheet has bula, soups and result")]
        return self._names(line.soups, f"sheet.{name}.soups") if line.soups else []


SerbianGame.HANDLERS = {
    DealStarted: GameState._deal_started, BidMade: SerbianGame._bid, ContractMade: SerbianGame._contract,
    WhistMade: SerbianGame._whist, KontraMade: SerbianGame._kontra, Tricks: SerbianGame._tricks,
    CardPlayed: SerbianGame._card, Discard: SerbianGame._discard, Allocation: SerbianGame._allocation,
    OpeningBalance: SerbianGame._opening, Adjustment: SerbianGame._adjustment, DealVoided: GameState._voided,
    ScoreRecorded: GameState._recorded, GameEnded: GameState._ended, Claim: GameState._claim,
}


VARIANT: Final = Variant("serbian", GameKind.PREFERANS, "Serbian preferans", SerbianGame, SerbianOptions, SCORING,
                       (CONTRACT, DealMode("refa")))
"""Serbian preferans, as the write side knows it (registered in :data:`vistlog.events.variants.VARIANTS`)."""
