"""Replay: each deal in words, with every entry and its reason, then the sheet; in one language.

>>> from vistlog.projections.fold import run
>>> res = next(r for r in run("tests/vectors/preferans-sochi-four-deals.jsonl") if hasattr(r, "entries"))
>>> lines = list(replay_lines(res, lang="ru"))
>>> lines[2]
'Сдача 1: сдаёт Вова'
>>> list(replay_lines(res, lang="en"))[2]
'Deal 1: Вова deals'
"""

from __future__ import annotations

from collections.abc import Iterator

from vistlog.events.cards import Bid
from vistlog.events.record import DealRecord
from vistlog.events.model import BidMade, CardPlayed, ContractMade, Discard, KontraMade, Tricks, WhistMade
from vistlog.events.games.serbian.game import CONTRACT_NUMBER, SERBIAN_NAMES

from .analysis import DealAnalysis, analyse
from .render.analysis import between, span
from vistlog.events.entries import Entry, Totals
from .fold import GameResult
from .variants import SCORINGS, reading_of
from .words import Lang, Words, mixed, rules_words, signed

__all__ = ["replay_lines", "describe", "tell_deals", "tell_serbian_deals"]

CALLS = {"whist": "whist", "pass": "pass", "half": "half-whist"}
SERBIAN_CALLS = {"whist": "dođem", "pass": "ne dođem", "invite": "zovem"}


def describe(e: Entry, w: Words) -> str:
    """One entry in words: ``+2 пуля Аня: 6♠ сыгран`` (``+2 pool Аня: 6♠ made``)."""
    where = f"{w(e.column)} {e.player}" + (f"→{e.on}" if e.on is not None else "")
    return f"{signed(e.amount)} {where}: {w.reason(e.reason)}"


def _entry_lines(entries: list[Entry], w: Words) -> Iterator[str]:
    """A deal's entries, each with its reason."""
    if not entries:
        yield w("  No entries")
        return
    yield w("  Entries:")
    for e in entries:
        yield f"    {describe(e, w)}" + (w("  (void)") if e.void else "")


def _bid(b: Bid, w: Words) -> str:
    if b.is_pass:
        return w("pass")
    if b.is_misere:
        return w("misère")
    return w.contract(b.text)


def replay_lines(res: GameResult, upto: int | None = None, lang: Lang | None = None, values: bool = False,
                 since: int = 0) -> Iterator[str]:
    """The story of a game, deal by deal, as lines of text in one language (``ru`` or ``en``); ``values``:
    beside each card played, the double-dummy value after it (:mod:`vistlog.projections.analysis`: the
    declarer's total tricks with best play from there), ``✗`` on a card that cost its side a trick.
    ``since``: the deals from that record on (see :meth:`GameResult.told`), after the header."""
    solved = {d.deal: d for d in analyse(res, deals=None if upto is None else range(upto + 1)).deals} if values else {}
    yield from reading_of(res.variant).teller()(res, upto, Words(lang, res.variant), solved, since)


def _play_lines(rec: DealRecord, cards: list[CardPlayed], solved: DealAnalysis | None, w: Words) -> Iterator[str]:
    """The play of a deal: how many cards, and with values, trick by trick, each card and the value after it (a
    contract's side's; in a raspas, the card's own player's)."""
    yield w("  Play: {n} cards recorded", n=len(cards))
    if solved is None or len(solved.cards) != len(cards) or rec.setup is None:
        return
    verdict = w("not decided within the budget") if solved.fate is None else \
        w("makeable") if solved.fate else w("not makeable")
    if solved.declarer is None:
        each = ", ".join([f"{p} {n}" for p, n in solved.values.items()]
                         + [f"{p} {between(lo, hi)}" for p, (lo, hi) in solved.ranges.items()])
        yield "    " + w("each can hold himself to: {each}", each=each)
    elif solved.value is None:
        assert solved.low is not None and solved.high is not None
        yield "    " + w("double-dummy {v} ({verdict})", v=span(solved.low, solved.high, solved.tricks, w),
                         verdict=verdict)
    else:
        yield "    " + w("double-dummy {v} trick(s) ({verdict})", v=solved.value, verdict=verdict)
    per = len(rec.setup.seating)
    for k in range(0, len(cards), per):
        trick = solved.cards[k:k + per]
        said = ", ".join(f"{c.player} {w.card(c.card)} {between(c.low[1], c.high[1])}" + (" ✗" if c.mistake else "")
                         for c in trick)
        yield f"    {k // per + 1:>2}. {said}"


def tell_deals(res: GameResult, upto: int | None, w: Words, solved: dict[int, DealAnalysis], since: int = 0
                   ) -> Iterator[str]:
    """A Russian Preferans or a Solo Whist game (what a game has not, it never says)."""
    pool, reading = SCORINGS[res.variant].size == "pool", reading_of(res.variant)
    yield (w("Game {game}: {kind}, rules {rules}", game=res.game, kind=w.game(res.variant),
             rules=rules_words(res.started.rules, w.lang))
           + (w(", pool of {size}", size=res.started.pool) if pool else "")
           + w("; players {players}", players=", ".join(res.players)))
    opening = [e for e in res.entries if e.deal == 0]
    if opening:
        yield w("Opening balance:")
        for e in opening:
            yield f"    {describe(e, w)}"
    for rec, void, entries in res.told(upto, since):
        yield ""
        yield (w("Deal {n}: {dealer} deals", n=rec.number, dealer=rec.dealer)
               + (w(", bomb {n}", n=rec.bomb) if rec.bomb else "")
               + (w(", turned {card}", card=w.card(rec.turned)) if rec.turned else "")
               + (w("  [VOID: struck from the sheet]") if void else "")
               + (w("  [recorded again, in the voided record's place]") if rec.replaces else ""))
        bids = [e for e in rec.events if isinstance(e, BidMade)]
        if bids:
            yield w("  Auction: {bids}", bids=", ".join(f"{b.player} {_bid(b.bid, w)}" for b in bids))
        for ev in rec.events:
            if isinstance(ev, Discard):
                yield w("  Discard: {player} puts away {cards}", player=ev.player,
                        cards=" ".join(w.card(card) for card in ev.cards))
        c = next((e for e in rec.events if isinstance(e, ContractMade)), None)
        if c is not None:
            extra = []
            if c.dark:
                extra.append(w("dark"))
            if c.totus:
                extra.append(w("totus") + (", " + w("helping {names}", names=", ".join(c.helps)) if c.helps else ""))
            if c.without_three:
                extra.append(w("without three"))
            if c.partner:
                extra.append(w("with {partner}", partner=c.partner))
            if c.trump:
                extra.append(w("trump {suit}", suit=c.trump.symbol))
            trump = rec.trump
            if trump is not None and not c.trump and rec.turned is not None:  # the turned card's suit is trump
                extra.append(w("trump {suit}", suit=trump.symbol))
            yield (w("  Contract: {declarer} plays {contract}", declarer=c.declarer, contract=_bid(c.contract, w))
                   + (f" ({'; '.join(extra)})" if extra else ""))
        elif rec.contract is None and (told := reading.mode_words(rec.mode).told):
            yield w(told)
        calls = [e for e in rec.events if isinstance(e, WhistMade)]
        if calls:
            yield w("  Whists: {calls}", calls=", ".join(f"{c.player} {w(CALLS[c.call.value])}" for c in calls))
        cards = [e for e in rec.events if isinstance(e, CardPlayed)]
        if cards:
            yield from _play_lines(rec, cards, None if void else solved.get(rec.number), w)
        if rec.taken is not None and any(isinstance(e, (Tricks, CardPlayed)) for e in rec.events):
            yield w("  Tricks: {tricks}", tricks=", ".join(f"{p} {n}" for p, n in rec.taken.items()))
        elif rec.contract is not None and not rec.played:
            yield w("  Decided without play")
        yield from _entry_lines(entries, w)
    yield ""
    t = res.totals_after(upto)
    yield w("Sheet:") if upto is None else w("Sheet after deal {n}:", n=upto)
    for p in res.players:
        yield f"  {p}: " + ", ".join(_column_total(t, c, p, w) for c in t.columns)


def _column_total(t: Totals, column: str, p: str, w: Words) -> str:
    """One column's total of ``p`` as the replay says it (a paired column: what he wrote on each other)."""
    if column not in t.paired:
        return f"{w(column)} {mixed(t[column][p])}"
    pairs = ", ".join(w("on {player} {value}", player=q, value=mixed(v)) for q, v in t.pairs_by(column, p).items())
    return f"{w(column)} {pairs or w('none')}"


def _serbian_bid(b: Bid) -> str:
    """A Serbian bid in the players' own words (the same in every language)."""
    if b.is_pass:
        return "dalje"
    if b.text == "mine":
        return "mogu"
    if b.text == "yours":
        return "tvoja je jača"
    if b.igra:
        return "igra" + (f" {SERBIAN_NAMES[b.number]}" if b.number is not None else "")
    assert b.number is not None
    return f"{b.number} {SERBIAN_NAMES[b.number]}"


def tell_serbian_deals(res: GameResult, upto: int | None, w: Words, solved: dict[int, DealAnalysis], since: int = 0
                   ) -> Iterator[str]:
    """A Serbian game: the sentences in the language, the bids and calls in the players' Serbian words."""
    yield (w("Game {game}: {kind}, rules {rules}", game=res.game, kind=w.game(res.variant),
             rules=rules_words(res.started.rules, w.lang))
           + w(", bula {size} each", size=res.started.pool)
           + w("; players in turn order {players}", players=", ".join(res.players)))
    for rec, void, entries in res.told(upto, since):
        yield ""
        yield w("Deal {n}: {dealer} deals", n=rec.number, dealer=rec.dealer) + (
            w("  [VOID: struck from the paper]") if void else "")
        bids = [e for e in rec.events if isinstance(e, BidMade)]
        if bids:
            yield w("  Auction: {bids}", bids=", ".join(f"{b.player} {w.said(_serbian_bid(b.bid))}" for b in bids))
        for ev in rec.events:
            if isinstance(ev, Discard):
                yield w("  Discard: {player} puts away {cards}", player=ev.player,
                        cards=" ".join(w.card(card) for card in ev.cards))
        c = rec.contract
        if c is not None:
            name = SERBIAN_NAMES[CONTRACT_NUMBER[c.contract.text]]
            yield w("  Contract: {declarer} plays {contract}", declarer=c.declarer,
                    contract=w.said(("igra " if c.igra else "") + name))
        else:
            yield w("  Everybody said dalje: nobody plays")
        said = [e for e in rec.events if isinstance(e, WhistMade)]
        if said:
            yield w("  Defence: {calls}", calls=", ".join(f"{x.player} {w.said(SERBIAN_CALLS[x.call.value])}"
                                                       for x in said))
        for ev in rec.events:
            if isinstance(ev, KontraMade):
                yield f"  {ev.player}: {w.said(ev.level.value)}"
        cards = [e for e in rec.events if isinstance(e, CardPlayed)]
        if cards:
            yield from _play_lines(rec, cards, None if void else solved.get(rec.number), w)
        if rec.taken is not None:
            yield w("  Tricks: {tricks}", tricks=", ".join(f"{p} {n}" for p, n in rec.taken.items()))
        elif c is not None:
            yield w("  Decided without play")
        yield from _entry_lines(entries, w)
    yield ""
    t = res.totals_after(upto)
    yield w("Paper:") if upto is None else w("Paper after deal {n}:", n=upto)
    for p in res.players:
        soups = ", ".join(w("on {player} {value}", player=q, value=mixed(v))
                          for q, v in t.pairs_by("soups", p).items()) or w("none")
        yield (f"  {p}: {w('bula')} {mixed(t['bula'][p])}, {w('soups')} {soups}, "
               + w("open refe {value}", value=mixed(t["refe"][p])))


