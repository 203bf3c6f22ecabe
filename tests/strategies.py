"""Hypothesis strategies for events of every type."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from events.cards import PREFERANS_DECK, SOLO_WHIST_DECK, GameKind, Suit, WhistCall, all_bids
from events.model import (
    Adjustment, Allocation, BidMade, CardPlayed, ContractMade, DealStarted, DealVoided, Discard, GameEnded,
    GameStarted, OpeningBalance, ScoreRecorded, SheetLine, Tricks, WhistMade,
)
from events.rules import make_rules

names = st.text(alphabet="АБВГДЕЖабвгдеёжABCDEFabcdef _-1", min_size=1, max_size=8)
texts = st.none() | st.text(max_size=20)
ints = st.integers(min_value=-(2**40), max_value=2**40)
small = st.integers(min_value=0, max_value=40)
cards = st.sampled_from(sorted(SOLO_WHIST_DECK | PREFERANS_DECK, key=str))
bids = st.sampled_from(sorted(all_bids(), key=lambda b: b.text))
rules = st.sampled_from([
    {"preset": "sochi"}, {"preset": "leningrad", "raspas_amnesty": True}, {"preset": "rostov", "whist_rate": "3/2"},
    {"preset": "classic", "raspas_progression": [1, 2, 4, 8]}, {"preset": "encyclopedia", "all_pass": "general_misere"},
]).map(make_rules)
int_map = st.dictionaries(names, ints, max_size=4)
whist_map = st.dictionaries(names, st.dictionaries(names, ints, max_size=3), max_size=3)
extensions = st.dictionaries(st.text(alphabet="abc_", max_size=5).map(lambda s: "_x" + s),
                             st.integers(-(2**62), 2**62) | st.text(max_size=5) | st.none(), max_size=2)


def envelope(**fields: Any) -> dict[str, Any]:
    return {"seq": st.integers(min_value=1, max_value=2**40), "game": names, "v": st.just(1), "at": texts,
            "by": texts, "note": texts, **fields}


EVENTS = {
    GameStarted: envelope(kind=st.sampled_from(GameKind), players=st.lists(names, max_size=4).map(tuple),
                          rules=rules, pool=st.none() | small, stake=st.none() | st.just("0.10")),
    OpeningBalance: envelope(pool=int_map, mountain=int_map, whists=whist_map, points=int_map),
    DealStarted: envelope(deal=small, dealer=names, bomb=st.integers(0, 3),
                          hands=st.none() | st.dictionaries(names, st.lists(cards, max_size=3).map(tuple), max_size=3),
                          talon=st.none() | st.lists(cards, max_size=2).map(tuple), turned=st.none() | cards),
    BidMade: envelope(deal=small, player=names, bid=bids),
    ContractMade: envelope(deal=small, declarer=names, contract=bids, dark=st.booleans(),
                           without_three=st.booleans(), totus=st.booleans(),
                           helps=st.lists(names, max_size=2).map(tuple), partner=st.none() | names,
                           trump=st.none() | st.sampled_from(Suit)),
    WhistMade: envelope(deal=small, player=names, call=st.sampled_from(WhistCall)),
    Discard: envelope(deal=small, player=names, cards=st.lists(cards, max_size=2).map(tuple)),
    CardPlayed: envelope(deal=small, player=names, card=cards),
    Tricks: envelope(deal=small, taken=st.dictionaries(names, small, max_size=4), last=st.none() | names),
    Allocation: envelope(deal=small, player=names, pool=ints, mountain=ints, help=int_map),
    Adjustment: envelope(pool=int_map, mountain=int_map, whists=whist_map, points=int_map, reason=texts),
    DealVoided: envelope(deal=small, reason=texts),
    ScoreRecorded: envelope(after_deal=small, sheet=st.dictionaries(names, st.builds(
        SheetLine, pool=st.none() | ints, mountain=st.none() | ints,
        whists=st.none() | st.dictionaries(names, ints, max_size=2), points=st.none() | ints), max_size=3)),
    GameEnded: envelope(reason=texts),
}


def event_of(cls: type) -> st.SearchStrategy[Any]:
    return st.builds(cls, **EVENTS[cls])


any_event = st.one_of([event_of(cls) for cls in EVENTS])
