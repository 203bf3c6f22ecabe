"""The rule options a game declares: presets plus overrides, typed and validated.

A log names its rules in ``game_started.rules`` as ``{"preset": NAME, OPTION: VALUE, ...}``.
:func:`make_rules` turns that into a frozen :class:`Rules` value whose ``options`` is a
:class:`PreferansOptions` or :class:`SoloWhistOptions`. Every option is declared once,
below, with its type and its documentation; presets are data (:data:`PRESETS`), and
nothing else in the program knows a preset by name.

>>> r = make_rules({"preset": "sochi", "raspas_amnesty": True})
>>> r.options.raspas_progression, r.options.raspas_amnesty
((1, 2, 3), True)
>>> make_rules({"preset": "sochi", "whist_rat": 2})
Traceback (most recent call last):
...
vistlog.events.rules.RulesError: rules.whist_rat: unknown option (did you mean whist_rate?)
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Final, Literal

import attrs

from .problems import VistlogError

from .cards import SOLO_ORDER, GameKind
from .native import mypyc_attr
from .plain import Plain

__all__ = [
    "RulesError",
    "Rules",
    "PreferansOptions",
    "SoloWhistOptions",
    "SerbianOptions",
    "ContractPoints",
    "PRESETS",
    "make_rules",
    "option_docs",
    "show",
    "Preset",
    "register_preset",
    "Parser",
    "option",
    "whole",
]


@mypyc_attr(native_class=False)  # exceptions keep their class attributes
class RulesError(VistlogError):
    """An unknown option, a bad option value, or an unknown preset."""

    code = "rules-invalid"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# --------------------------------------------------------------------------- option kinds

class Parser:
    """How an option's value is read from JSON (``parser(value)`` gives it, or raises ``ValueError``), and
    what it accepts, in words (``accepts``: what ``vistlog rules`` and the schema say)."""

    __slots__ = ("accepts", "read")

    def __init__(self, read: Callable[[Any], Any], accepts: str) -> None:
        self.read = read
        self.accepts = accepts

    def __call__(self, value: Any) -> Any:
        return self.read(value)


def _choice(*values: str) -> Parser:
    def parse(v: Any) -> str:
        if not isinstance(v, str) or v not in values:
            raise ValueError(f"{v!r} is not one of: {', '.join(values)}")
        return v

    return Parser(parse, " | ".join(values))


def _read_bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"{v!r} is not true or false")
    return v


_bool = Parser(_read_bool, "true | false")


LARGEST_RULE: Final = 2**63 - 1
"""The largest number a rule holds, whole or a fraction's numerator and denominator (so that no sum scoring
makes of them is past what a reader prints or draws)."""

_DECIMAL: Final = re.compile(r"\s*(?:\d+(?:\.\d+)?|\d+/\d+)\s*", re.ASCII)


def _int(lo: int, hi: int | None = None) -> Parser:
    top = LARGEST_RULE if hi is None else hi

    def parse(v: Any) -> int:
        if type(v) is not int or v < lo or v > top:
            span = f"{lo}..{hi}" if hi is not None else f"≥ {lo} (at most {LARGEST_RULE})"
            raise ValueError(f"{_shown(v)} is not a whole number {span}")
        return v

    return Parser(parse, f"integer {lo}..{hi}" if hi is not None else f"integer ≥ {lo}")


def _shown(v: Any) -> str:
    """A value as a message quotes it: its first characters only (a number of 5,000 digits is not printed)."""
    text = "a number past 2^63-1" if type(v) is int and not -LARGEST_RULE <= v <= LARGEST_RULE else repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def to_fraction(v: Any) -> Fraction:
    """An exact non-negative number from JSON: an int, a decimal or ratio string, or a
    float that is a short decimal (``0.5``); whole numbers come back as ``int`` (they keep
    the arithmetic of scoring in fast integers). Raises ``ValueError`` otherwise."""
    if isinstance(v, bool):
        raise ValueError(f"{v!r} is not a number")
    try:
        if isinstance(v, int):
            f = Fraction(v)
        elif isinstance(v, float):
            f = Fraction(repr(v))
        elif isinstance(v, str) and len(v) <= 80 and _DECIMAL.fullmatch(v):
            f = Fraction(v.strip())
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{_shown(v)} is not a number (use 1, 0.5 or \"1/2\", in ASCII digits)") from None
    if f < 0:
        raise ValueError(f"{_shown(v)} is negative")
    if f.numerator > LARGEST_RULE or f.denominator > LARGEST_RULE:
        raise ValueError(f"{_shown(v)} is past the largest number a rule holds ({LARGEST_RULE}, "
                         "numerator and denominator alike)")
    return f.numerator if f.denominator == 1 else f  # type: ignore[return-value]


_fraction = Parser(to_fraction, "number ≥ 0 (1, 0.5, \"1/2\")")


def _read_progression(v: Any) -> tuple[int, ...]:
    if (not isinstance(v, (list, tuple)) or not v or len(v) > 100
            or any(type(x) is not int or not 0 <= x <= LARGEST_RULE for x in v)):
        raise ValueError(f"{_shown(v)} is not a list of 1 to 100 whole numbers from 0 to {LARGEST_RULE}")
    return tuple(v)


_progression = Parser(_read_progression, "list of integers, e.g. [1, 2, 3] (the last repeats)")


def _opt(default: Any, parse: Parser, doc: str) -> Any:
    return attrs.field(default=default, metadata={"parse": parse, "doc": doc})


def option(default: Any, parse: Parser, doc: str) -> Any:
    """A rule option of a game's options class: its default, what reads it from a ``rules`` object (a
    :class:`Parser`, such as :func:`whole`) and what it means (``vistlog rules`` shows the three)."""
    return _opt(default, parse, doc)


def whole(lo: int, hi: int | None = None) -> Parser:
    """The :class:`Parser` of a whole number from ``lo`` (to ``hi``).

    >>> whole(1, 10).read(3), whole(1, 10).accepts
    (3, 'integer 1..10')
    """
    return _int(lo, hi)


# --------------------------------------------------------------------------- the choices

Consolation = Literal["ordinary", "none", "grabbing"]
SingleWhister = Literal["greedy", "gentleman"]
TwoWhisters = Literal["team_then_half", "team_capped", "team_then_each", "personal"]
TenGame = Literal["whisted", "checked", "checked_silent", "consolation_only"]
RaspasMode = Literal["mountain", "whists"]
RaspasZero = Literal["pool", "mountain_off", "none"]
RaspasZeroAmount = Literal["price", "one"]
RaspasReset = Literal["any_contract", "played_contract"]
RaspasExit = Literal["simple", "hard", "strict"]
Overflow = Literal["help", "mountain", "none"]
MadePointsFirst = Literal["pool", "mountain"]
GameEnd = Literal["pools_closed", "agreement"]
SettlementDivisor = Literal["all", "opponents"]
Rounding = Literal["largest_remainder", "per_conversion"]
AllPass = Literal["redeal", "general_misere"]
UnacceptedProp = Literal["proposer_may_raise", "redeal"]
PikNoKontra = Literal["refa_else_pass", "refa_else_pass_if_under_hat", "refa_else_nothing", "pass"]
KontraMax = Literal["mortkontra", "rekontra"]
TwoDefendersQuota = Literal["each_two_or_team_four", "each_two"]
BetlFailSoup = Literal["fixed", "tricks"]
SansLead = Literal["left_defender", "not_declarer"]
LastGameCap = Literal["bula", "bula_and_soups", "none"]
WriteOff = Literal["integer", "exact"]


def _choice_of(kind: Any) -> Parser:
    """A parser for the values of a ``Literal`` type: the one place an option's choices are written,
    so that mypy (``strict_equality``) refuses a comparison with a value that is not one of them."""
    return _choice(*typing.get_args(kind))


# --------------------------------------------------------------------------- Preferans

@attrs.frozen(repr=False, eq=False)
class PreferansOptions(Plain):
    """Every Preferans option of RULES.md (and the few this project adds, marked *ext*)."""

    pool_point: int = _opt(10, _int(1), "whists one pool point is worth")
    mountain_point: int = _opt(10, _int(1), "whists one mountain point is worth")
    whist_rate: Fraction = _opt(1, _fraction, "whists per defence trick, times the price")
    declarer_penalty_rate: Fraction = _opt(1, _fraction,
                                           "mountain per undertrick of a failed declarer, times the price")
    consolation_rate: Fraction = _opt(1, _fraction,
                                      "consolation whists per undertrick, times the price")
    misere_penalty_rate: Fraction = _opt(1, _fraction,
                                         "mountain per trick taken on a failed misère, times the price")
    whister_penalty_rate: Fraction = _opt(1, _fraction,
                                          "mountain per trick a whister is short, times the price")
    consolation: Consolation = _opt("ordinary", _choice_of(Consolation),
                            "who writes whists for the declarer's undertricks")
    dealer_consolation: bool = _opt(True, _bool, "the sitting-out 4-player dealer writes consolation too")
    single_whister: SingleWhister = _opt("greedy", _choice_of(SingleWhister),
                               "one whists, one passes: greedy (жлобский) or gentleman (split on a remise)")
    two_whisters: TwoWhisters = _opt("team_then_half",
                             _choice_of(TwoWhisters),
                             "who pays when two whisters fall short of the obligation")
    half_whist: bool = _opt(True, _bool, "a second defender may say half (полвиста) on a 6 or 7")
    half_whist_played: bool = _opt(False, _bool,
                                   "*ext*: a standing half-whist may still be played out: the half-whister "
                                   "writes the defence's tricks up to half the obligation and pays for the "
                                   "tricks short of it (the score pad preferans-score)")
    ten_game: TenGame = _opt("whisted", _choice_of(TenGame),
                         "how a 10-level contract is defended")
    raspas_mode: RaspasMode = _opt("mountain", _choice_of(RaspasMode),
                            "raspas tricks go to the mountain, or are paid in whists (Rostov)")
    raspas_progression: tuple[int, ...] = _opt((1, 2, 3), _progression,
                                               "mountain per raspas trick, for the 1st, 2nd, … raspas in a row")
    raspas_whists: int = _opt(5, _int(0), "whists mode: whists per trick the others took")
    raspas_zero: RaspasZero = _opt("pool", _choice_of(RaspasZero),
                            "what a player with no raspas trick gets")
    raspas_zero_amount: RaspasZeroAmount = _opt("price", _choice_of(RaspasZeroAmount),
                                   "the zero-trick bonus: the current raspas price, or always 1")
    raspas_amnesty: bool = _opt(False, _bool, "subtract the smallest trick count first")
    raspas_reset: RaspasReset = _opt("any_contract", _choice_of(RaspasReset),
                             "which deals end a run of raspasy")
    elder_hand_holds: bool = _opt(False, _bool,
                                  "the elder hand may answer a bid with hold («здесь»), taking that bid himself")
    misere_first_word: bool = _opt(True, _bool,
                                   "misère only as a player's first word; who said it says nothing more")
    raspas_exit: RaspasExit = _opt("simple", _choice_of(RaspasExit),
                            "the least contract after k raspasy in a row: any (simple), 7 (hard), 6 + k up to 8 "
                            "(strict); misère always")
    raspas_dealer_repeats: int = _opt(0, _int(0, 3),
                                      "*ext*: the dealer deals again after a raspas, this many in a row "
                                      "(classic: 3); 0 = the deal always passes on")
    talon_tricks_to_dealer: bool = _opt(False, _bool,
                                        "*ext*: 4-player raspas tricks won by the talon go to the dealer")
    overflow: Overflow = _opt("help", _choice_of(Overflow),
                         "where points past one's own pool go")
    mountain_floor: bool = _opt(False, _bool, "overflow write-offs stop at a mountain of 0")
    made_points_first: MadePointsFirst = _opt("pool", _choice_of(MadePointsFirst),
                                  "a made game first fills the pool, or first writes off own mountain")
    dark_games: bool = _opt(False, _bool, "contracts may be bid dark (втёмную), doubling the price")
    bombs: bool = _opt(False, _bool, "deals may be played on bombs (level 1..3), doubling per level")
    totus: bool = _opt(False, _bool, "a 10-game may be declared тотус")
    game_end: GameEnd = _opt("pools_closed", _choice_of(GameEnd),
                         "the game ends when every pool is closed, or by agreement")
    pool_in_settlement: bool = _opt(True, _bool,
                                    "*ext*: the pool counts in the settlement; false settles the mountains and "
                                    "whists only, finished or not (the score pad preferans-score)")
    settlement_divisor: SettlementDivisor = _opt("all", _choice_of(SettlementDivisor),
                                   "a pool or mountain point is shared by all N players or the N−1 others")
    rounding: Rounding = _opt("largest_remainder", _choice_of(Rounding),
                         "how whole whists are made from exact results")

    def raspas_run(self, run: int, raspas: bool, contract: bool, played: bool) -> int:
        """Raspasy in a row after a deal (``raspas_reset`` decides what ends a run)."""
        if raspas:
            return run + 1
        if not contract or (self.raspas_reset == "played_contract" and not played):
            return run
        return 0

    def least_exit(self, run: int) -> int:
        """The least contract level allowed after ``run`` raspasy in a row (``raspas_exit``)."""
        if run == 0 or self.raspas_exit == "simple":
            return 6
        return 7 if self.raspas_exit == "hard" else min(6 + run, 8)

    def raspas_rate(self, k: int) -> int:
        """Price of a raspas trick for the k-th raspas in a row (k ≥ 1)."""
        prog = self.raspas_progression
        return prog[min(k, len(prog)) - 1]


# --------------------------------------------------------------------------- Solo Whist

@attrs.frozen(repr=False, eq=False)
class ContractPoints(Plain):
    """One row of the Solo Whist points table.

    ``tricks`` is what the declaring side needs (0 for the misères, which must take none);
    ``declarer``/``opponent`` are paid when made; ``*_per_trick`` per over- or undertrick.
    """

    tricks: int
    declarer: int
    opponent: int
    declarer_per_trick: int = 0
    opponent_per_trick: int = 0


SOLO_CONTRACTS: Final = tuple(b for b in SOLO_ORDER if b != "cop")
"""The Solo Whist contracts (the bids of :data:`~vistlog.events.cards.SOLO_ORDER` but cop, which accepts a prop)."""

ENCYCLOPEDIA_TABLE: Final = {
    "prop": ContractPoints(8, 4, 4, 1, 1),
    "solo": ContractPoints(5, 12, 4, 3, 1),
    "misere": ContractPoints(0, 24, 8),
    "abundance": ContractPoints(9, 36, 12, 6, 2),
    "trump_abundance": ContractPoints(9, 36, 12, 6, 2),
    "open_misere": ContractPoints(0, 48, 16),
    "full_abundance": ContractPoints(13, 72, 24),
}


def _read_table(v: Any) -> Mapping[str, ContractPoints]:
    """Overrides of the points table, merged over the encyclopedia's, then checked zero-sum."""
    if not isinstance(v, Mapping):
        raise ValueError(f"{_shown(v)} is not an object of contract rows")
    table = dict(ENCYCLOPEDIA_TABLE)
    for name, row in v.items():
        if name not in SOLO_CONTRACTS:
            raise ValueError(f"{name!r} is not a Solo Whist contract ({', '.join(SOLO_CONTRACTS)})")
        if not isinstance(row, Mapping):
            raise ValueError(f"{name}: {row!r} is not an object")
        base = attrs.asdict(table[name])
        for key, value in row.items():
            if key not in base:
                raise ValueError(f"{name}.{key}: unknown column ({', '.join(base)})")
            if type(value) is not int or not 0 <= value <= LARGEST_RULE:
                raise ValueError(f"{name}.{key}: {_shown(value)} is not a whole number from 0 to {LARGEST_RULE}")
            base[key] = value
        table[name] = ContractPoints(**base)
    for name, row in table.items():
        side = 2 if name == "prop" else 1
        opponents = 4 - side
        for what, d, o in (("when made", row.declarer, row.opponent),
                           ("per trick", row.declarer_per_trick, row.opponent_per_trick)):
            if side * d != opponents * o:
                who = "each partner receives" if side == 2 else "the declarer receives"
                raise ValueError(
                    f"{name} is not zero-sum {what}: {who} {d}, but {opponents} opponents pay "
                    f"{o} each ({opponents * o})")
        if not 0 <= row.tricks <= 13:
            raise ValueError(f"{name}.tricks: {row.tricks} is not 0..13")
    return table


_table = Parser(_read_table, "object: contract → {tricks, declarer, opponent, declarer_per_trick, opponent_per_trick}")


@attrs.frozen(repr=False, eq=False)
class SoloWhistOptions(Plain):
    """Every Solo Whist option of RULES.md."""

    all_pass: AllPass = _opt("redeal", _choice_of(AllPass),
                         "when all four pass: redeal, or a general misère")
    general_misere_stake: int = _opt(4, _int(0), "general misère: what the taker of the last trick "
                                                 "pays each other player")
    unaccepted_prop: UnacceptedProp = _opt("proposer_may_raise", _choice_of(UnacceptedProp),
                                "a prop nobody accepts: the proposer may bid again, or redeal")
    misere_per_trick: int = _opt(0, _int(0), "failed misère: extra each opponent receives per trick taken")
    table: Mapping[str, ContractPoints] = _opt(ENCYCLOPEDIA_TABLE, _table,
                                               "points table rows overriding the encyclopedia's; "
                                               "checked zero-sum")


# --------------------------------------------------------------------------- Serbian preferans

def _int_or_none(lo: int, hi: int | None, *words: str) -> Parser:
    """A whole number in ``lo..hi``, or one of ``words`` meaning no limit (``None``)."""
    number = _int(lo, hi)
    span = f"{lo}..{hi}" if hi is not None else f"≥ {lo}"

    def parse(v: Any) -> int | None:
        if v in words:
            return None
        try:
            return number(v)  # type: ignore[no-any-return]
        except ValueError:
            raise ValueError(f"{_shown(v)} is not a whole number {span} or "
                             f"{' or '.join(repr(w) for w in words)}") from None

    return Parser(parse, f"integer {span} | {' | '.join(words)}")


@attrs.frozen(repr=False, eq=False)
class SerbianOptions(Plain):
    """Every option of the ``serbian`` preset (docs/serbian.md §10): bula counted down, soups,
    refe and kontra. The game kind is Preferans; the deck, hands and talon are the Russian ones."""

    refe_limit: int | None = _opt(2, _int_or_none(0, None, "unlimited", "none"),
                                  "how many refe may be written in a game (PPN tag Refe)")
    refa_blocked_under_hat: bool = _opt(True, _bool, "no refa is written while any bula is below zero")
    pik_needs_kontra: bool = _opt(True, _bool, "a plain pik (won in the auction, not igra) is played only "
                                               "if a defender says kontra")
    pik_on_refa_needs_kontra: bool = _opt(True, _bool, "the same holds when the declarer plays a refa")
    pik_no_kontra: PikNoKontra = _opt("refa_else_pass",
                              _choice_of(PikNoKontra),
                              "a plain pik without kontra: a refa for everybody if one may be written, else "
                              "the declarer passes (bula −V); _if_under_hat: passes only when some bula is "
                              "below zero, else nothing; refa_else_nothing: nothing; pass: always passes")
    kontra_max: KontraMax = _opt("mortkontra", _choice_of(KontraMax),
                           "the highest kontra: mortkontra (×16) or rekontra (×4)")
    two_defenders_quota: TwoDefendersQuota = _opt("each_two_or_team_four", _choice_of(TwoDefendersQuota),
                                    "when two defenders play, one falls with fewer than 2 tricks unless the two "
                                    "took 4 (each_two: whatever the other took)")
    soup_trick_cap: int | None = _opt(5, _int_or_none(1, 10, "none"),
                                      "defence tricks that count for soups (play stops at the 5th); none: all")
    betl_fail_soup: BetlFailSoup = _opt("fixed", _choice_of(BetlFailSoup),
                               "a failed betl: each defender writes 5 × value (fixed) or value × his tricks")
    preferans_contract: bool = _opt(False, _bool, "the contract preferans (8: all ten tricks, no trump) exists")
    sans_lead: SansLead = _opt("left_defender", _choice_of(SansLead),
                          "who leads to sans: the defender on the declarer's left, or the first hand unless "
                          "he declares")
    last_game_cap: LastGameCap = _opt("bula", _choice_of(LastGameCap),
                              "a made game worth more than the bula left: the declarer descends only to a sum "
                              "of 0 (bula), and the soups shrink in proportion too (bula_and_soups), or no cut")
    last_game_double_fall: bool = _opt(False, _bool, "a failed game worth more than the bula left costs 2V")
    write_off: WriteOff = _opt("integer", _choice_of(WriteOff),
                          "a game stopped early: the open bula is shared out in whole points (the highest "
                          "bulas one more) or exactly")
    bula_point: int = _opt(10, _int(1), "soups one bula point is worth in the settlement")


# --------------------------------------------------------------------------- presets

_OPTION_CLASS: Final[dict[GameKind, type]] = {GameKind.PREFERANS: PreferansOptions,
                                               GameKind.SOLO_WHIST: SoloWhistOptions}

@attrs.frozen(repr=False, eq=False)
class Preset(Plain):
    """A named rule set: the game it is for, its options class and the options it changes from the defaults."""

    name: str
    kind: GameKind
    description: str
    values: Mapping[str, Any]
    options: type = attrs.field(default=None)
    variant: str = ""
    """The game it is played as (:data:`vistlog.events.variants.VARIANTS`): ``preferans``, ``solo_whist`` or
    ``serbian``; by default the game of its kind."""
    label: str = ""
    """The preset as players name it, in English (the pad says it in its language); by default its name."""

    def __attrs_post_init__(self) -> None:
        if self.options is None:
            object.__setattr__(self, "options", _OPTION_CLASS[self.kind])
        if not self.variant:
            object.__setattr__(self, "variant", self.kind.value)
        if not self.label:
            object.__setattr__(self, "label", self.name)


PRESETS: Final[dict[str, Preset]] = {
    p.name: p
    for p in (
        Preset("sochi", GameKind.PREFERANS, "Сочинка: 3 or 4 players, greedy whist, raspas 1-2-3, help", {},
               label="Sochi"),
        Preset("leningrad", GameKind.PREFERANS,
               "Ленинградка (Питер): doubled whists, pool point 20, half-responsible whist, "
               "10-game checked, raspas 2-4-6",
               {"pool_point": 20, "whist_rate": 2, "declarer_penalty_rate": 2, "consolation_rate": 2,
                "misere_penalty_rate": 2, "whister_penalty_rate": 1, "ten_game": "checked",
                "raspas_progression": (2, 4, 6)}, label="Leningrad"),
        Preset("rostov", GameKind.PREFERANS,
               "Ростовская (московская): gentleman whist, half-responsible, raspas paid in whists",
               {"whister_penalty_rate": Fraction(1, 2), "single_whister": "gentleman",
                "raspas_mode": "whists", "raspas_zero_amount": "one"}, label="Rostov"),
        Preset("classic", GameKind.PREFERANS,
               "Классика (the seed): bombs, dark games, тотус; no half-whist; 10-game consolation only; "
               "raspas 1-2-4 to the mountain; ends by agreement",
               {"half_whist": False, "ten_game": "consolation_only", "raspas_progression": (1, 2, 4),
                "raspas_zero": "mountain_off", "overflow": "mountain", "dark_games": True, "bombs": True,
                "totus": True, "game_end": "agreement", "raspas_dealer_repeats": 3,
                "talon_tricks_to_dealer": True}, label="Classic"),
        Preset("encyclopedia", GameKind.SOLO_WHIST,
               "Вист-соло by the encyclopedia's table (solo 12, not the misprinted 42)", {},
               label="Solo Whist, by the encyclopedia"),
        Preset("serbian", GameKind.PREFERANS,
               "Serbian (Balkan) preferans: bula counted down, soups, refe, kontra to mortkontra",
               {}, SerbianOptions, "serbian", label="Serbian preferans"),
    )
}


def register_preset(preset: Preset) -> Preset:
    """Add a preset (a game's, :func:`vistlog.events.variants.register` adds them); returns it."""
    PRESETS[preset.name] = preset
    return preset


@attrs.frozen(repr=False, eq=False)
class Rules(Plain):
    """A validated rule set: the preset, the overrides as written, and the resolved options."""

    preset: str
    overrides: Mapping[str, Any]
    options: Any = attrs.field(eq=False)
    """An instance of the preset's options class (:class:`PreferansOptions`, :class:`SoloWhistOptions`,
    :class:`SerbianOptions`, or a registered game's own)."""

    @property
    def variant(self) -> str:
        """The game these rules are played as: ``preferans``, ``solo_whist`` or ``serbian``."""
        return PRESETS[self.preset].variant

    @property
    def kind(self) -> GameKind:
        """The game these rules are for."""
        return PRESETS[self.preset].kind

    def to_json(self) -> dict[str, Any]:
        """The ``rules`` object as it was written: ``{"preset": …, **overrides}``."""
        return {"preset": self.preset, **self.overrides}


def _meta(f: Any) -> Mapping[str, Any]:
    """An option field's metadata (its reader and meaning): attrs keeps it in a read-only mapping."""
    return f.metadata  # type: ignore[no-any-return]


def make_rules(raw: Any) -> Rules:
    """Validate a ``rules`` object; raise :class:`RulesError` naming the bad option."""
    if not isinstance(raw, Mapping):
        raise RulesError("rules", f"expected an object like {{\"preset\": \"sochi\"}}, got {raw!r}")
    preset_name = raw.get("preset")
    if preset_name is None:
        raise RulesError("rules.preset", f"missing; one of {', '.join(PRESETS)}")
    if not isinstance(preset_name, str) or preset_name not in PRESETS:
        raise RulesError("rules.preset", f"{preset_name!r} is not a preset ({', '.join(PRESETS)})")
    preset = PRESETS[preset_name]
    cls = preset.options
    fields = attrs.fields_dict(cls)
    values = dict(preset.values)
    overrides: dict[str, Any] = {}
    for name, value in raw.items():
        if name == "preset":
            continue
        if name not in fields:
            import difflib
            hint = difflib.get_close_matches(name, fields, n=1)
            extra = f" (did you mean {hint[0]}?)" if hint else f" for {preset.kind.value}"
            raise RulesError(f"rules.{name}", f"unknown option{extra}")
        try:
            values[name] = _meta(fields[name])["parse"](value)
        except ValueError as exc:
            raise RulesError(f"rules.{name}", str(exc)) from None
        overrides[name] = value
    return Rules(preset_name, overrides, cls(**values))


def show(value: Any) -> str:
    """An option's value in the words of ``vistlog rules`` (never a Python repr).

    >>> show((1, 2, 3)), show(Fraction(1, 2)), show(True), show("greedy")
    ('1, 2, 3', '1/2', 'true', 'greedy')
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ", ".join(show(v) for v in value)
    if isinstance(value, Mapping) or hasattr(value, "items"):
        return f"{len(value)} rows (vistlog rules --format json)"
    return str(value)


def option_docs(preset: str) -> list[tuple[str, Any, str, str]]:
    """(name, value in the preset, accepted values, meaning) for every option of a preset."""
    rules = make_rules({"preset": preset})
    out = []
    for f in attrs.fields(type(rules.options)):
        value = getattr(rules.options, f.name)
        out.append((f.name, value, _meta(f)["parse"].accepts, _meta(f)["doc"]))
    return out
