"""Replay: each deal in words, with every entry and its reason, then the sheet.

Russian game terms come with the English in brackets the first time they appear.

>>> g = Glossary()
>>> g("гора"), g("гора")
('гора (mountain)', 'гора')
"""

from __future__ import annotations

from collections.abc import Iterator

from vistlog.events.cards import Bid, GameKind
from vistlog.events.model import BidMade, CardPlayed, ContractMade, Discard, KontraMade, Tricks, WhistMade
from vistlog.events.rules import SerbianOptions
from vistlog.events.serbian import CONTRACT_NUMBER, SERBIAN_NAMES

from .entries import Entry, fmt
from .fold import GameResult

__all__ = ["replay_lines", "Glossary"]

TERMS = {
    "сдача": "deal", "сдаёт": "deals", "торговля": "auction", "контракт": "contract", "висты": "whists",
    "вист": "whist", "пас": "pass", "полвиста": "half-whist", "взятки": "tricks", "пуля": "pool",
    "гора": "mountain", "распасы": "raspas: everybody passed", "мизер": "misère", "прикуп": "talon",
    "снос": "discard", "втёмную": "dark", "бомба": "bomb", "тотус": "totus", "без трёх": "without three",
    "консоляция": "consolation", "помощь": "help", "пулька": "score sheet", "пересдача": "redeal",
    "предложение": "prop", "принятие": "cop", "соло": "solo", "абонданс": "abundance",
    "очки": "points",
}


SERBIAN_TERMS = {
    "deljenje": "deal", "deli": "deals", "licitacija": "auction", "dalje": "pass", "mogu": "mine: I hold it",
    "igra": "a game without the talon", "tvoja je jača": "yours wins", "škart": "discard", "dođem": "I come",
    "ne dođem": "I don't come", "zovem": "I call the other to play with me", "kontra": "doubled",
    "rekontra": "redoubled", "subkontra": "×8", "mortkontra": "×16", "štihovi": "tricks", "bula": "count-down score",
    "supe": "soups", "refa": "a doubling mark for all", "šešir": "hat: the bula reached 0", "pik": "spades",
    "karo": "diamonds", "herc": "hearts", "tref": "clubs", "betl": "no trick", "sans": "no trump",
    "preferans": "all ten tricks", "nosilac": "declarer", "otpis": "write-off",
}


class Glossary:
    """Adds the English in brackets the first time a Russian (or Serbian) term is used."""

    def __init__(self, terms: dict[str, str] = TERMS) -> None:
        self.terms = terms
        self.seen: set[str] = set()

    def __call__(self, term: str) -> str:
        if term in self.seen or term not in self.terms:
            return term
        self.seen.add(term)
        return f"{term} ({self.terms[term]})"


def _entry_lines(entries: list[Entry]) -> Iterator[str]:
    """A deal's entries, each with its reason."""
    if not entries:
        yield "  No entries"
        return
    yield "  Entries:"
    for e in entries:
        yield f"    {e.describe()}" + ("  (void)" if e.void else "")


def _bid(b: Bid, g: Glossary) -> str:
    if b.is_pass:
        return g("пас")
    if b.is_misere:
        return g("мизер")
    if b.level is not None:
        return f"{b.level}{b.strain.symbol if b.strain else ' NT'}"
    term = {"prop": "предложение", "cop": "принятие", "solo": "соло", "abundance": "абонданс"}.get(b.text)
    return g(term) if term else b.text.replace("_", " ")


def replay_lines(res: GameResult, upto: int | None = None) -> Iterator[str]:
    """The story of a game, deal by deal, as lines of text."""
    if isinstance(res.started.rules.options, SerbianOptions):
        yield from _serbian_lines(res, upto)
        return
    g = Glossary()
    pref = res.kind is GameKind.PREFERANS
    rules = res.started.rules
    yield (f"Game {res.game}: {res.kind.title}, "
           f"rules {rules.preset}" + (f" + {', '.join(f'{k}={v}' for k, v in rules.overrides.items())}"
                                      if rules.overrides else "")
           + (f", {g('пуля')} of {res.started.pool}" if pref else "")
           + f"; players {', '.join(res.players)}")
    opening = [e for e in res.entries if e.deal == 0]
    if opening:
        yield "Opening balance:"
        for e in opening:
            yield f"    {e.describe()}"
    for rec, void, entries in res.told(upto):
        yield ""
        yield f"{g('сдача').capitalize()} {rec.number}: {rec.dealer} {g('сдаёт')}" + (
            f", {g('бомба')} {rec.bomb}" if rec.bomb else "") + ("  [VOID: struck from the sheet]" if void else "") + (
            "  [recorded again, in the voided record's place]" if rec.replaces else "")
        bids = [e for e in rec.events if isinstance(e, BidMade)]
        if bids:
            yield f"  {g('торговля').capitalize()}: " + ", ".join(f"{b.player} {_bid(b.bid, g)}" for b in bids)
        for ev in rec.events:
            if isinstance(ev, Discard):
                yield f"  {g('снос').capitalize()}: {ev.player} puts away {' '.join(map(str, ev.cards))}"
        c = next((e for e in rec.events if isinstance(e, ContractMade)), None)
        if c is not None:
            extra = []
            if c.dark:
                extra.append(g("втёмную"))
            if c.totus:
                extra.append(g("тотус") + (f", helping {', '.join(c.helps)}" if c.helps else ""))
            if c.without_three:
                extra.append(g("без трёх"))
            if c.partner:
                extra.append(f"with {c.partner}")
            if c.trump:
                extra.append(f"trump {c.trump.symbol}")
            yield (f"  {g('контракт').capitalize()}: {c.declarer} plays {_bid(c.contract, g)}"
                   + (f" ({'; '.join(extra)})" if extra else ""))
        elif pref and rec.raspas:
            yield f"  Everybody passed: {g('распасы')}"
        elif not pref and rec.contract is None:
            yield f"  Everybody passed: {'general misère' if rec.played else g('пересдача')}"
        calls = [e for e in rec.events if isinstance(e, WhistMade)]
        if calls:
            names = {"whist": g("вист"), "pass": g("пас"), "half": g("полвиста")}
            yield f"  {g('висты').capitalize()}: " + ", ".join(f"{w.player} {names[w.call.value]}" for w in calls)
        cards = [e for e in rec.events if isinstance(e, CardPlayed)]
        if cards:
            yield f"  Play: {len(cards)} cards recorded"
        if rec.taken is not None and any(isinstance(e, (Tricks, CardPlayed)) for e in rec.events):
            yield f"  {g('взятки').capitalize()}: " + ", ".join(f"{p} {n}" for p, n in rec.taken.items())
        elif rec.contract is not None and not rec.played:
            yield "  Decided without play"
        yield from _entry_lines(entries)
    yield ""
    last = upto if upto is not None else None
    t = res.totals_after(last)
    yield f"Sheet{'' if last is None else f' after deal {last}'}:"
    for p in res.players:
        if pref:
            whists = ", ".join(f"on {q} {fmt(v)}" for q, v in t.whists_by(p).items()) or "none"
            yield (f"  {p}: {g('пуля')} {fmt(t.pool[p])}, {g('гора')} {fmt(t.mountain[p])}, "
                   f"{g('висты')} {whists}")
        else:
            yield f"  {p}: {g('очки')} {fmt(t.points[p])}"


def _serbian_bid(b: Bid, g: Glossary) -> str:
    if b.is_pass:
        return g("dalje")
    if b.text == "mine":
        return g("mogu")
    if b.text == "yours":
        return g("tvoja je jača")
    if b.igra:
        return g("igra") + (f" {g(SERBIAN_NAMES[b.number])}" if b.number is not None else "")
    assert b.number is not None
    return f"{b.number} {g(SERBIAN_NAMES[b.number])}"


def _serbian_lines(res: GameResult, upto: int | None) -> Iterator[str]:
    """A Serbian game in its own words (Serbian terms, the English in brackets on first use)."""
    g = Glossary(SERBIAN_TERMS)
    yield (f"Game {res.game}: Serbian preferans, rules {res.started.rules.preset}"
           + (f" + {', '.join(f'{k}={v}' for k, v in res.started.rules.overrides.items())}"
              if res.started.rules.overrides else "")
           + f", {g('bula')} {res.started.pool} each; players in turn order {', '.join(res.players)}")
    calls = {"whist": g("dođem"), "pass": g("ne dođem"), "invite": g("zovem")}
    for rec, void, entries in res.told(upto):
        yield ""
        yield f"{g('deljenje').capitalize()} {rec.number}: {rec.dealer} {g('deli')}" + (
            "  [VOID: struck from the paper]" if void else "")
        bids = [e for e in rec.events if isinstance(e, BidMade)]
        if bids:
            yield f"  {g('licitacija').capitalize()}: " + ", ".join(f"{b.player} {_serbian_bid(b.bid, g)}"
                                                                     for b in bids)
        for ev in rec.events:
            if isinstance(ev, Discard):
                yield f"  {g('škart').capitalize()}: {ev.player} puts away {' '.join(map(str, ev.cards))}"
        c = rec.contract
        if c is not None:
            name = SERBIAN_NAMES[CONTRACT_NUMBER[c.contract.text]]
            yield f"  {g('nosilac').capitalize()} {c.declarer} plays " + (f"{g('igra')} " if c.igra else "") + g(name)
        else:
            yield "  Everybody said dalje: nobody plays"
        said = [e for e in rec.events if isinstance(e, WhistMade)]
        if said:
            yield "  Defence: " + ", ".join(f"{w.player} {calls[w.call.value]}" for w in said)
        for ev in rec.events:
            if isinstance(ev, KontraMade):
                yield f"  {ev.player}: {g(ev.level.value)}"
        cards = [e for e in rec.events if isinstance(e, CardPlayed)]
        if cards:
            yield f"  Play: {len(cards)} cards recorded"
        if rec.taken is not None:
            yield f"  {g('štihovi').capitalize()}: " + ", ".join(f"{p} {n}" for p, n in rec.taken.items())
        elif c is not None:
            yield "  Decided without play"
        yield from _entry_lines(entries)
    yield ""
    t = res.totals_after(upto)
    yield f"Paper{'' if upto is None else f' after deal {upto}'}:"
    for p in res.players:
        soups = ", ".join(f"on {q} {fmt(v)}" for q, v in t.soups_by(p).items()) or "none"
        yield f"  {p}: {g('bula')} {fmt(t.bula[p])}, {g('supe')} {soups}, open {g('refa')}e {fmt(t.refe[p])}"
