"""``--to ppn``: a Serbian preferans game written as PPN (docs/ppn.md).

The writer reads the folded game: the deal's events give the deal order, the cards, each
player's highest bid, the discard, the contract, who came, the invitation or kontra and the
tricks; the scoring gives ``refa``, ``value`` and the ``summary``; the settlement gives
``Result1..3``. Reading the output back (``--from ppn``) gives the same deal records.

A log without the cards cannot be PPN (``cards`` and ``throws`` are required fields), nor a
game under another preset.
"""

from __future__ import annotations

from vistlog.events.cards import Card, WhistCall
from vistlog.events.importers import SourceError
from vistlog.events.importers.ppn import KONTRA_LETTER, ppn_bid, code_of
from vistlog.events.model import BidMade, CardPlayed, DealStarted, Discard
from vistlog.events.play import Play, contract_trump, held_after_discard
from vistlog.events.rules import SerbianOptions
from vistlog.events.games.serbian.game import CONTRACT_NUMBER, neighbours

from vistlog.events.entries import Entry, Totals
from ...fold import GameResult
from vistlog.events.record import DealRecord
from vistlog.events.games.serbian.score import deal_value

__all__ = ["write"]

_LETTER = {k: letter for letter, k in KONTRA_LETTER.items()}


def write(res: GameResult) -> str:
    """The game as a PPN file."""
    if res.variant != "serbian":
        raise SourceError(f"game {res.game}: PPN holds Serbian preferans only, not the {res.started.rules.preset} "
                          "rules")
    o = res.started.rules.options
    assert isinstance(o, SerbianOptions)
    if not res.detail:
        raise SourceError(f"game {res.game}: folded without detail")
    players = list(res.players)
    seat = {p: str(i) for i, p in enumerate(players, start=1)}
    lines = [f"[Bula {res.started.pool}]", f"[Refe {o.refe_limit if o.refe_limit is not None else 'unlimited'}]"]
    lines += [f"[Player{i} {_tag(p)}]" for i, p in enumerate(players, start=1)]
    lines += [f"[Result{i} {res.rounded[p]}]" for i, p in enumerate(players, start=1)]
    lines += [f"[Place{i} {1 + sum(res.rounded[q] > res.rounded[p] for q in players)}]"
              for i, p in enumerate(players, start=1)]
    rules = {k: v for k, v in res.started.rules.overrides.items() if k != "refe_limit"}
    if rules:
        lines.append(f'[Rules "{",".join(f"{k}={_word(v)}" for k, v in rules.items())}"]')
    if res.started.note:
        lines.append(f"[Name {_tag(res.started.note)}]")
    for key, value in (res.started.extensions.get("_ppn_tags") or {}).items():
        lines.append(f"[{key} {_tag(str(value))}]")
    lines.append("")
    live = sorted((e for e in res.entries if not e.void), key=lambda e: e.deal)
    by_deal: dict[int, list[Entry]] = {}
    for e in live:
        by_deal.setdefault(e.deal, []).append(e)
    before = Totals(players, res.totals.declared)  # the sheet before each deal (a refa in hand doubles V)
    done = 0
    for rec in res.records:
        if rec.seq in res.voided:
            continue
        while done < len(live) and live[done].deal < rec.number:
            before.apply(live[done])
            done += 1
        lines.append(f"[{_deal(res, rec, seat, before, by_deal.get(rec.number, []))}]")
    return "\n".join(lines) + "\n"


def _tag(value: str) -> str:
    return f'"{value}"' if any(c.isspace() for c in value) or '"' in value else value


def _word(v: object) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _deal(res: GameResult, rec: DealRecord, seat: dict[str, str], before: Totals, entries: list[Entry]) -> str:
    players = list(res.players)
    started = next(e for e in rec.events if isinstance(e, DealStarted))
    if started.hands is None or started.talon is None:
        raise SourceError(f"game {res.game} deal {rec.number}: no cards; PPN needs the hands and the talon")
    order = [*rec.holders]
    cards = "".join(code_of(c) for p in order for c in started.hands[p]) + "".join(code_of(c) for c in started.talon)
    bids = ",".join(_highest(rec, p) for p in order)
    head = f"{rec.number} {''.join(seat[p] for p in order)} {cards} {bids}"
    c = rec.contract
    if c is None:
        return head
    dec = c.declarer
    discard = next((e for e in rec.events if isinstance(e, Discard)), None)
    discarded = "".join(code_of(x) for x in discard.cards) if discard else "XX"
    contract = ("G" if c.igra else "") + str(CONTRACT_NUMBER[c.contract.text])
    came = [p for p, call in rec.calls if call is WhistCall.WHIST]
    accepted = "8" if c.contract.is_misere or len(came) == 2 else seat[came[0]] if came else "0"
    inviter = next((p for p, call in rec.calls if call is WhistCall.INVITE), None)
    kontra = f"I{seat[inviter]}" if inviter else \
        f"{_LETTER[rec.kontra[-1][1]]}{seat[rec.kontra[0][0]]}" if rec.kontra else "0"
    value, _k, refa = deal_value(rec, before)
    starts, throws = _throws(rec, started, discard.cards if discard else (), seat)
    summary = ",".join(_entry(res, rec, p, [e for e in entries if e.player == p], players) for p in order)
    return f"{head} {seat[dec]} {discarded} {contract} {accepted} {kontra} {int(refa)} {value} {starts} {throws} " \
           f"{summary}"


def _highest(rec: DealRecord, player: str) -> str:
    best, level = "P", 0
    for e in rec.events:
        if not isinstance(e, BidMade):
            continue
        bid = e.bid
        if bid.number is not None and not bid.igra:
            level = bid.number
        if e.player == player and not bid.is_pass and bid.text != "yours":
            best = ppn_bid(bid, level)
    return best


def _throws(rec: DealRecord, started: DealStarted, discarded: tuple[Card, ...], seat: dict[str, str]
            ) -> tuple[str, str]:
    cards = [e for e in rec.events if isinstance(e, CardPlayed)]
    if not cards:
        if rec.taken is not None:
            raise SourceError(f"deal {rec.number}: tricks without cards; PPN needs the card play")
        return "0", "-"
    assert rec.contract is not None and started.hands is not None
    playing = sorted({e.player for e in cards}, key=list(rec.holders).index)
    held = held_after_discard(started.hands, rec.contract.declarer, started.talon, discarded or None)
    play = Play({p: held[p] for p in playing}, playing, cards[0].player, contract_trump(rec.contract.contract),
                must_trump=True)
    tricks, current = [], ""
    for e in cards:
        play.play(e.player, e.card)
        current += code_of(e.card)
        if not play.current:
            assert play.last_winner is not None
            tricks.append(current + seat[play.last_winner])
            current = ""
    return seat[cards[0].player], ",".join(tricks)


def _entry(res: GameResult, rec: DealRecord, p: str, entries: list[Entry], players: list[str]) -> str:
    """One player's summary entry: ``0``, ``M<tricks>:<bula>`` or ``F<tricks>:L|R<soup>[:<bula>]``."""
    bula = sum(e.amount for e in entries if e.column == "bula")
    soups = [e for e in entries if e.column == "soups"]
    c = rec.contract
    assert c is not None
    taken = rec.taken or {}
    if p == c.declarer:
        if not bula and not any(e.column == "bula" for e in entries):
            return "0"
        return f"M{taken.get(p, 10 if rec.taken is None else 0)}:{bula}"
    if not soups and not bula:
        return "0"
    left, _right = neighbours(players, p)
    writers = [q for q, call in rec.calls if call is WhistCall.INVITE] or [q for q, _ in rec.kontra[:1]]
    tricks = sum(n for q, n in taken.items() if q != c.declarer) if p in writers else taken.get(p, 0)
    cap = res.started.rules.options.soup_trick_cap  # type: ignore[union-attr]
    tricks = min(tricks, cap) if cap is not None else tricks
    on = soups[0].on if soups else c.declarer
    amount = sum(e.amount for e in soups)
    text = f"F{tricks}:{'L' if on == left else 'R'}{amount}"
    return text + (f":{bula}" if bula else "")
