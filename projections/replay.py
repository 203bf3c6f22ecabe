"""Replay: each deal in words, with every entry and its reason, then the sheet.

Russian game terms come with the English in brackets the first time they appear.

>>> g = Glossary()
>>> g("гора"), g("гора")
('гора (mountain)', 'гора')
"""

from __future__ import annotations

from collections.abc import Iterator

from vistlog.events.cards import Bid, GameKind
from vistlog.events.model import BidMade, CardPlayed, ContractMade, Discard, Tricks, WhistMade

from .entries import fmt
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


class Glossary:
    """Adds the English in brackets the first time a Russian term is used."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __call__(self, term: str) -> str:
        if term in self.seen or term not in TERMS:
            return term
        self.seen.add(term)
        return f"{term} ({TERMS[term]})"


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
    by_deal: dict[int, list] = {}
    for e in res.entries:
        by_deal.setdefault(e.deal, []).append(e)
    for rec in res.records:
        if upto is not None and rec.number > upto:
            break
        again = sum(1 for r in res.records if r.number == rec.number) > 1
        void = rec.seq in res.voided if again else any(e.void for e in by_deal.get(rec.number, ()))
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
        entries = by_deal.get(rec.number, [])
        if again:  # the deal has a voided record and the record that stands: each shows its own entries
            entries = [e for e in entries if e.void == void]
        if entries:
            yield "  Entries:"
            for e in entries:
                yield f"    {e.describe()}" + ("  (void)" if e.void else "")
        else:
            yield "  No entries"
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
