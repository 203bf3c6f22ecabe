"""What may come next in a game: the legal choices of the next step, as data (what python-chess's
``Board.legal_moves`` is for a board).

:func:`next_step` asks a game's state, with a *draft* (the events of the deal being composed, not yet
written) applied to a copy of it, and tries each candidate event on a copy in turn: what the state machine
accepts is offered, nothing else. So there is one implementation for every game, through each game's own
class (its contracts, calls, flags and the handlers that judge them), and the answer can never disagree
with what recording would accept.

>>> from vistlog.events.codec import decode_obj
>>> from vistlog.events.variants import find_variant
>>> start = decode_obj({"seq": 1, "type": "game_started", "game": "g", "kind": "preferans",
...                     "players": ["Аня", "Боря", "Вова"], "pool": 10, "rules": {"preset": "sochi"}})
>>> state = find_variant("sochi").start(start)
>>> n = next_step(state)
>>> n.step, n.dealers
('dealer', ('Аня', 'Боря', 'Вова'))
>>> draft = [{"type": "deal_started", "deal": 1, "dealer": "Аня"}, {"type": "contract", "deal": 1,
...          "declarer": "Боря", "contract": "6S"}, {"type": "whist", "deal": 1, "player": "Вова", "call": "pass"}]
>>> n = next_step(state, draft)
>>> n.step, n.calls
('calls', (('Аня', 'pass'), ('Аня', 'whist'), ('Аня', 'half')))
>>> n = next_step(state, draft + [{"type": "whist", "deal": 1, "player": "Аня", "call": "pass"}])
>>> n.step, n.tricks
('done', False)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from .codec import DecodeError, decode_obj, unstructure
from .game import DealState, GameState
from .cards import Kontra
from .model import ContractMade, Event
from .problems import Issue

__all__ = ["Next", "next_step", "DEAL_FLAGS"]

DEAL_FLAGS: Final = ("bomb", "turned")
"""The flags of a deal (:attr:`~vistlog.events.game.Table.flags`) that belong to the deal, not its contract."""
_NEEDS_FILLED: Final = {"partner": None, "trump": "S"}
"""What a contract's needs are filled with while trying it on its own (a partner: the next holder)."""
_KONTRAS: Final = frozenset(k.value for k in Kontra)


@attrs.frozen
class Next:
    """The next step of a game and its legal choices (see :func:`next_step`).

    ``step`` is one of ``over`` (nothing may come: ``why``), ``open`` (a deal the log left unfinished must be
    finished or voided first: ``why``), ``dealer`` (the first deal: anybody may deal), ``deal`` (what is played),
    ``calls`` (the defence speaks), ``tricks`` (the tricks are asked) or ``done`` (the draft is a whole deal:
    it may be recorded as it is).
    """

    step: str
    deal: int
    """The number of the deal the next step belongs to."""
    dealer: str | None = None
    dealers: tuple[str, ...] = ()
    """Who may deal it (everybody before the first deal, else the one whose turn it is)."""
    holders: tuple[str, ...] = ()
    """Who holds cards, in speaking order (the first speaks and leads first)."""
    seats: tuple[str, ...] = ()
    """The same players in seat order (the game's order of players): buttons that stay put from deal to deal."""
    speaks: str | None = None
    sits_out: str | None = None
    declarers: tuple[str, ...] = ()
    """Who may declare a contract."""
    contracts: tuple[str, ...] = ()
    """The contracts the declarer (the draft's, else the first to speak) may play now, lowest first."""
    all_pass: bool = False
    """Everybody passing is legal now (a raspas, a redeal, the general misère)."""
    flags: tuple[str, ...] = ()
    """The flags the draft's contract may carry (``dark``, ``without_three``, ``totus``, ``igra``)."""
    needs: tuple[str, ...] = ()
    """What the draft's contract must say besides its declarer (``partner``, ``trump``)."""
    must_say: tuple[str, ...] = ()
    """The flags the draft's contract must carry because of the auction (a Serbian ``igra`` won as such)."""
    partners: tuple[str, ...] = ()
    """Who may be named as its partner, when it needs one."""
    bids: tuple[tuple[str, str], ...] = ()
    """The bids of the auction that may be said now, each ``(player, bid)`` (an auction is optional where a
    contract may be written without one)."""
    calls: tuple[tuple[str, str], ...] = ()
    """The calls that may be said now, each ``(player, call)``: a defender's whist, pass or half-whist only
    where legal after what was said, a kontra."""
    tricks: bool = False
    """The deal is played, so its tricks may be written."""
    tricks_total: int | None = None
    """What the tricks add up to (None where play may stop once the outcome is decided)."""
    takers: tuple[str, ...] = ()
    """Who is listed in the tricks."""
    guess: Mapping[str, int] = attrs.field(factory=dict)
    """A first guess for the tricks: the declaring side takes what its contract needs, the rest shared."""
    last: tuple[str, ...] = ()
    """Who may be named as taking the last trick, when the deal needs it (a pass-out played)."""
    done: bool = False
    """The draft is a whole deal (decided without play, or thrown in)."""
    again: tuple[tuple[int, str], ...] = ()
    """Voided deals that may be recorded again, each with its dealer."""
    voidable: int = 0
    """Deals 1..``voidable`` may be voided, but those voided and not recorded again (:attr:`again`)."""
    adjust: bool = True
    """An agreed adjustment may be recorded."""
    why: str = ""
    """Why nothing may come (``over``) or what must come first (``open``)."""
    problem: Issue | None = None
    """The first event of the draft the game refuses (the choices are those before it)."""


def next_step(state: GameState[Any], draft: Sequence[Mapping[str, Any] | Event] = (), *,
              declarer: str | None = None, contract: str | None = None, all_pass: bool = False,
              auction: bool = False) -> Next:
    """The legal next step of ``state``'s game with ``draft`` (events of the deal being composed, as dicts
    without ``seq``/``game`` or as events; no card play) tried on it; ``state`` is left exactly as it was.

    What a form has chosen but the draft cannot say yet: ``declarer`` (the contracts offered are his),
    ``contract`` (its :attr:`Next.needs` and partners are given before it is whole), ``all_pass`` (everybody
    passes in a game whose log writes no passes, a raspas: the tricks are asked at once). ``auction``: the bids
    are asked for (:attr:`Next.bids`; always when the draft has one)."""
    t = state.table()
    common: dict[str, Any] = {"again": t.voided, "voidable": state.deals_started, "adjust": not state.ended}
    if state.ended or (t.over and t.open_deal is None):
        return Next("over", t.next_deal, why="game_ended was recorded" if state.ended else state.OVER_WHY,
                    **{**common, "adjust": not state.ended})
    if not draft and t.dealer is not None and t.open_deal is None:
        draft = [{"type": "deal_started", "deal": t.next_deal, "dealer": t.dealer}]  # the deal the form begins
    with _kept(state):
        problem, applied, played_at = None, 0, _before(draft)
        chosen: dict[str, Any] = {}
        for k, item in enumerate(draft):
            if k == played_at:
                chosen = _what_is_played(state, declarer, draft[k], contract)
            issues = _try(state, item)
            if issues:
                problem = issues[0]
                break
            applied += 1
        d = state.deal
        if applied == 0 or d is None:
            why = state.unfinished()
            if why:
                return Next("open", d.number if d is not None else 0, why=why, problem=problem, **common)
            return _before_deal(state, problem, common)
        if played_at is None or played_at >= applied:
            chosen = _what_is_played(state, declarer, None, contract)
        auction = auction or any(_kind(item) == "bid" for item in draft)
        return _in_deal(state, d, {**chosen, "contract": contract, "all_pass": all_pass, "declarer": declarer,
                                   "auction": auction}, problem, common)


def _before_deal(state: GameState[Any], problem: Issue | None, common: dict[str, Any]) -> Next:
    """No draft (or none accepted): the next deal, and who may deal it."""
    t = state.table()
    if t.dealer is None:
        # the contracts are offered before the dealer is chosen: as they stand with the first player dealing
        contracts: tuple[str, ...] = ()
        with _kept(state):
            if not _try(state, {"type": "deal_started", "deal": t.next_deal, "dealer": t.players[0]}):
                contracts = _what_is_played(state, None, None).get("contracts", ())
        return Next("dealer", t.next_deal, dealers=t.players, seats=t.players, contracts=contracts,
                    problem=problem, **common)
    return Next("deal", t.next_deal, dealer=t.dealer, dealers=(t.dealer,), holders=t.holders,
                seats=_seats(state, t.holders), speaks=t.first_to_speak, sits_out=_sits_out(state, t.dealer),
                declarers=_seats(state, t.holders), problem=problem, **common)


def _what_is_played(state: GameState[Any], declarer: str | None,
                    made: Mapping[str, Any] | Event | None, contract: str | None = None) -> dict[str, Any]:
    """The choices of what is played, in a deal whose auction is open: who may declare, the contracts (each
    tried for the declarer), everybody passing, and the flags ``made`` (the draft's contract) may carry. What is
    played stays a choice while the deal is composed, so these are asked before the draft says it."""
    d = state.deal
    if d is None or d.contract is not None or d.all_passed or d.redeal:
        return {}
    said = _as_dict(made) if made is not None and _kind(made) == "contract" else None
    who: str | None = said["declarer"] if said else declarer if declarer in d.holders else (
        d.holders[0] if d.holders else None)
    seats = _seats(state, d.holders)
    if d.auction_over or d.bids:  # an auction was held: who declares is whoever a contract is accepted of
        won = tuple(p for p in seats if any(_contract_ok(state, d, p, x) is not None for x in state.CONTRACTS))
        if won:
            seats = won
            who = who if who in seats else seats[0]
    out: dict[str, Any] = {"declarers": seats, "all_pass": _all_pass_legal(state, d)}
    contracts, needed = [], {}
    for x in state.CONTRACTS:
        flag = _contract_ok(state, d, who, x) if who is not None else None
        if flag is not None:
            contracts.append(x)
            if flag:  # a contract the auction made so that it must carry a flag (a Serbian igra)
                needed[x] = flag
    out["contracts"], out["flag_needs"] = tuple(contracts), needed
    word = said["contract"] if said else contract
    if who and word and any(x == word and need == "partner" for x, need in state.NEEDS):
        # a partner the auction allows (the one who copped a prop), each tried
        base = {**_contract_event(state, d, who, word), **({k: v for k, v in said.items() if k != "partner"}
                                                           if said else {})}
        out["partners"] = tuple(p for p in _seats(state, d.holders) if p != who
                                and not _try_kept(state, {**base, "partner": p, **(
                                    {needed[word]: True} if word in needed else {})}))
    if said is not None:
        out["flags"] = tuple(f for f in _contract_flags(state)
                             if said.get(f) or not _try_kept(state, {**said, f: True}))
    return out


def _in_deal(state: GameState[Any], d: DealState, chosen: dict[str, Any], problem: Issue | None,
             common: dict[str, Any]) -> Next:
    """A deal under way in the draft: what it may say next (``chosen``: see :func:`next_step`)."""
    dealer = d.begun.dealer
    seats = _seats(state, d.holders)
    base: dict[str, Any] = {"dealer": dealer, "dealers": (dealer,), "holders": tuple(d.holders),
                            "seats": seats, "speaks": d.holders[0] if d.holders else None,
                            "sits_out": _sits_out(state, dealer), "problem": problem, **common}
    for key in ("declarers", "contracts", "all_pass", "flags"):
        if key in chosen:
            base[key] = chosen[key]
    flag_needs = chosen.get("flag_needs", {})
    c = d.contract
    open_auction = c is None and not d.auction_over and not d.all_passed and not d.redeal
    word = _word(c) if c is not None else chosen["contract"]
    who = c.declarer if c is not None else chosen["declarer"]
    if word is not None:
        base["needs"] = tuple(f for x, f in state.NEEDS if x == word)
        base["must_say"] = (flag_needs[word],) if word in flag_needs else ()
        base["partners"] = (chosen["partners"] if "partners" in chosen else tuple(p for p in seats if p != who)) \
            if "partner" in base["needs"] else ()
    calls = _calls(state, d)
    if open_auction and chosen["auction"]:
        base["bids"] = _bids(state, d)
    played = d.tricks is None and d.play is None and state._play_allowed(d) is None and not state._calls_pending(d)
    if played:
        must, _ = state._holders_for_tricks(d)
        base.update(tricks=True, tricks_total=None if state.PLAY_MAY_STOP else state.kind.tricks,
                    takers=tuple(must), guess=_guess(state, d, must),
                    last=tuple(d.holders) if state.LAST_TRICK_NEEDED and c is None else ())
    with _kept(state):  # a game may settle a deal as it answers (a Serbian plain pik nobody kontred)
        done = state.unfinished() is None
    step = ("done" if done and not played else "calls" if calls and not played
            else "tricks" if played and (not open_auction or (chosen["all_pass"] and base.get("all_pass")))
            else "deal")
    return Next(step, d.number, calls=calls, done=done, **base)


def _before(draft: Sequence[Mapping[str, Any] | Event]) -> int | None:
    """Where the draft says what is played (its contract), if it does."""
    for k, item in enumerate(draft):
        if _kind(item) == "contract":
            return k
    return None


def _kind(item: Mapping[str, Any] | Event) -> str:
    return str(item.get("type")) if isinstance(item, Mapping) else item.type


def _as_dict(item: Mapping[str, Any] | Event) -> dict[str, Any]:
    return dict(item) if isinstance(item, Mapping) else {
        k: v for k, v in unstructure(item).items() if k not in ("seq", "v")}


def _word(c: ContractMade) -> str:
    return c.contract.text


def _guess(state: GameState[Any], d: DealState, takers: Sequence[str]) -> dict[str, int]:
    total = state.kind.tricks
    out = {p: 0 for p in takers}
    c = d.contract
    target = dict(state.targets()).get(_word(c)) if c is not None else None
    if c is not None and target is not None:
        side = [c.declarer] + ([c.partner] if c.partner else [])
        mine = min(target, total)
        _spread(out, [p for p in side if p in out], mine)
        _spread(out, [p for p in takers if p not in side], total - mine)
    else:
        _spread(out, list(takers), total)
    return out


def _spread(out: dict[str, int], who: list[str], n: int) -> None:
    rest = n
    for k, p in enumerate(who):
        m = rest if k == len(who) - 1 else -(-rest // (len(who) - k))
        out[p] += m
        rest -= m


def _calls(state: GameState[Any], d: DealState) -> tuple[tuple[str, str], ...]:
    """Each call any holder may say now (tried one by one)."""
    if d.contract is None:
        return ()
    out = []
    for p in d.holders:
        for word in state.calls_allowed():
            ev = ({"type": "kontra", "player": p, "level": word} if word in _KONTRAS
                  else {"type": "whist", "player": p, "call": word})
            if not _try_kept(state, {**ev, "deal": d.number}):
                out.append((p, word))
    return tuple(out)


def _bids(state: GameState[Any], d: DealState) -> tuple[tuple[str, str], ...]:
    """Each bid any holder may say now: who may speak is found by a pass (and a late cop by a cop), then each
    word of the game's auction is tried for them."""
    words = state.bid_words()

    def legal(p: str, w: str) -> bool:
        return not _try_kept(state, {"type": "bid", "deal": d.number, "player": p, "bid": w})

    speakers = [p for p in d.holders if legal(p, "pass") or ("cop" in words and legal(p, "cop"))]
    return tuple((p, w) for p in speakers for w in words if legal(p, w))


def _all_pass_legal(state: GameState[Any], d: DealState) -> bool:
    """Everybody may pass now: the holders' passes are accepted (where the log writes them), else a deal
    without contract may be played (a raspas)."""
    if state.ALL_PASS_BIDS:
        with _kept(state):
            return not any(_try(state, {"type": "bid", "deal": d.number, "player": p, "bid": "pass"})
                           for p in d.holders)
    return state._play_allowed(d) is None


def _contract_ok(state: GameState[Any], d: DealState, declarer: str, contract: str) -> str | None:
    """Whether ``declarer`` may play ``contract`` now: ``""`` as it is, a flag's name when only with that flag,
    ``None`` when not at all. What it needs is filled in (a trump; each possible partner in turn)."""
    ev = _contract_event(state, d, declarer, contract)
    partners = [ev["partner"]] if "partner" in ev else [None]
    if "partner" in ev:
        partners += [p for p in d.holders if p not in (declarer, ev["partner"])]
    for flag in ("", *_contract_flags(state)):
        for partner in partners:
            tried = {**ev, **({"partner": partner} if partner else {}), **({flag: True} if flag else {})}
            if not _try_kept(state, tried):
                return flag
    return None


def _contract_flags(state: GameState[Any]) -> tuple[str, ...]:
    """The flags a contract of this game may carry (``dark``, ``without_three``, ``totus``, ``igra``): those of the
    game's flags that are neither the deal's nor a need with a value (a partner, a trump)."""
    return tuple(f for f in state.flags_allowed() if f not in DEAL_FLAGS and f not in _NEEDS_FILLED)


def _contract_event(state: GameState[Any], d: DealState, declarer: str, contract: str) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "contract", "deal": d.number, "declarer": declarer, "contract": contract}
    for x, need in state.NEEDS:
        if x == contract:
            filled = _NEEDS_FILLED.get(need)
            ev[need] = filled if filled is not None else next(p for p in d.holders if p != declarer)
    return ev


def _seats(state: GameState[Any], holding: Sequence[str]) -> tuple[str, ...]:
    return tuple(p for p in state.players if p in holding)


def _sits_out(state: GameState[Any], dealer: str | None) -> str | None:
    return dealer if state.dealer_sits_out else None


# ---------------------------------------------------------------------------- trying events, then undoing them

def _try(state: GameState[Any], item: Mapping[str, Any] | Event) -> list[Issue]:
    """The problems of one event on ``state`` (applied when there are none)."""
    if _kind(item) in _NOT_TRIED:
        return [Issue("draft-invalid", "type", f"a draft holds no {_kind(item)}: the next step is asked before play")]
    if not isinstance(item, Mapping):
        return state.check(item)
    try:
        ev = decode_obj({"seq": 0, "game": state.id, **item})
    except DecodeError as exc:
        return [Issue("draft-invalid", "", str(exc))]
    return state.check(ev)


_NOT_TRIED: Final = frozenset({"card_played", "claim", "discard", "allocation"})
"""What a draft never holds: card play (its state is not kept by :func:`_kept`)."""


def _try_kept(state: GameState[Any], item: Mapping[str, Any]) -> list[Issue]:
    """The problems of one event on ``state``, which is then as it was."""
    with _kept(state):
        return _try(state, item)


@contextlib.contextmanager
def _kept(state: GameState[Any]) -> Iterator[None]:
    """Events may be tried on ``state`` inside: on the way out the game is put back as it was
    (:meth:`~vistlog.events.game.GameState.snapshot`), and its tally counts nothing tried inside."""
    saved, tally = state.snapshot(), state.tally
    trying, tried = tally.trying, tally.tried
    tally.trying = True
    try:
        yield
    finally:
        state.restore(saved)
        tally.trying, tally.tried = trying, tried
