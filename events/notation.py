"""One deal in one line: the notation ``vistlog deal`` reads and ``replay --format lines`` writes.

A line holds what a scorekeeper writes of a deal, in clauses separated by ``;``; the game,
the deal number, the dealer and ``seq`` come from the log (:class:`~vistlog.events.game.Table`).
Russian or English words, suit symbols or letters; a player is named in full or by the
beginning of his name when no other name begins so. The grammar is in ``docs/notation.md``.

>>> from vistlog.events.cards import GameKind
>>> from vistlog.events.game import Table
>>> t = Table("g", GameKind.PREFERANS, 10, ("Аня", "Боря", "Вова"), 4, "Аня", "Боря",
...           ("Боря", "Вова", "Аня"), None, (), False)
>>> [e["type"] for e in parse_deal("Боря 6♠; Вова вист, Аня пас; Боря 7 Вова 3 Аня 0", t)]
['deal_started', 'contract', 'whist', 'whist', 'tricks']
>>> parse_deal("Б 6S; В whist, А pass; Б 7 В 3", t)[-1]["taken"]
{'Боря': 7, 'Вова': 3, 'Аня': 0}
>>> print(deal_line(parse_deal("bids Боря 6S, Вова pass, Аня pass; Боря 6S; Вова half, Аня pass", t)))
bids Боря 6S, Вова pass, Аня pass; Боря 6S; Вова half, Аня pass
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final

from .cards import (RUSSIAN_SUITS, SERBIAN_CYRILLIC_BIDS, SOLO_WHIST_WORDS, WHIST_SPELLINGS, parse_bid, parse_card,
                    parse_suit)
from .draft import assemble
from .game import Table
from .problems import VistlogError
from .text import printable

__all__ = ["NotationError", "NOT_A_WORD", "word", "WORDS_RU", "parse_deal", "parse_line", "deal_line", "void_line",
           "game_lines", "FORM"]

FORM: Final = ("[dealer NAME, bomb N, turned CARD, again N;] [bids NAME BID, …;] "
               "NAME CONTRACT [dark] [without-three] [totus [helps NAME …]] [igra] [partner NAME] [trump SUIT] "
               "| raspas; [NAME whist|pass|half|invite|kontra…, …;] [NAME TRICKS, … [last NAME]]"
               "   or: void N [REASON]   or: end [REASON]")
"""The expected form of a line, as error messages show it."""


class NotationError(VistlogError):
    """A line of the deal notation that does not parse: the message names the word and shows
    the expected form (:data:`FORM`).

    What was wrong is kept apart from its English words, so that another language can say it:
    ``expected`` is a template (``"a player's name ({known})"``) filled from ``values``; ``word`` is the
    word that could not be read (``None`` at the end of a clause), or :data:`NOT_A_WORD` for a line
    wrong as a whole (``expected`` then says all of it).

    >>> e = NotationError("a suit (S, C, D, H or ♠ ♣ ♦ ♥)", word="X")
    >>> str(e).split(" (a line reads")[0], e.word, e.expected
    ("cannot read 'X': expected a suit (S, C, D, H or ♠ ♣ ♦ ♥)", 'X', 'a suit (S, C, D, H or ♠ ♣ ♦ ♥)')
    """

    code = "notation-invalid"

    def __init__(self, expected: str, word: str | object | None = None, **values: object) -> None:
        self.expected = expected
        self.word = word
        self.values = values
        said = expected.format(**values)
        if word is not NOT_A_WORD:
            shown = f"{word!r}" if word is not None else "the end of the clause"
            said = f"cannot read {shown}: expected {said} (a line reads: {FORM})"
        super().__init__(said)


NOT_A_WORD: Final = object()
"""The ``word`` of a :class:`NotationError` about the line as a whole."""


def _fold(word: str) -> str:
    return word.casefold().replace("ё", "е")


def _name_key(name: str) -> str:
    """A name as a clause reads it: folded, its commas and runs of blanks one space."""
    return " ".join(_fold(name).replace(",", " ").split())


def _words(*pairs: tuple[str, str]) -> dict[str, str]:
    return {_fold(w): canonical for canonical, spellings in pairs for w in spellings.split("|")}


_OPTIONS: Final = _words(("dealer", "dealer|сдаёт|сдает|сдающий"), ("bomb", "bomb|бомба"),
                         ("turned", "turned|открыта|открытая"), ("again", "again|заново|снова"))
_AUCTION: Final = _words(("bids", "bids|auction|торг"))
_RASPAS: Final = _words(("raspas", "raspas|pass-out|all-pass|распасы|распас|все-пас|все-пасы"))
_TRICKS: Final = _words(("tricks", "tricks|взятки"), ("last", "last|последняя|последнюю"))
_FLAGS: Final = _words(("dark", "dark|втёмную|втемную"), ("without_three", "without-three|без-трёх|без-трех"),
                       ("totus", "totus|тотус"), ("helps", "helps|помогает"), ("igra", "igra|игра"),
                       ("partner", "partner|партнёр|партнер|с"), ("trump", "trump|козырь"))
_KONTRA: Final = {**_words(("kontra", "kontra|контра"), ("rekontra", "rekontra|реконтра"),
                           ("subkontra", "subkontra|субконтра"), ("mortkontra", "mortkontra|мортконтра"))}
_CALLS: Final = {_fold(w): c.value for w, c in WHIST_SPELLINGS.items()} | _words(("invite", "invite|зову"))
_VOID: Final = _words(("void", "void|аннулировать|аннулирована|отмена"))
_END: Final = _words(("end", "end|конец"))
_PHRASES: Final = (("без трёх", "без-трёх"), ("без трех", "без-трех"), ("ne dođem", "ne-dođem"),
                   ("все пас", "все-пас"), ("all pass", "all-pass"))
_HEADS: Final = frozenset({*_OPTIONS, *_AUCTION, *_RASPAS, *_TRICKS, *_VOID, *_END})
"""The words the notation reads before a player's name (a line's or a clause's first word, ``last``)."""


def notation_word(name: str) -> str | None:
    """The word of the deal notation that a player's ``name`` holds (``None`` when none): a line or clause
    beginning with such a name is read as that word (``End 6S; …`` as ``end``), so a game refuses it. A name
    holding ``;`` (the notation's clause break) or one of its two-word phrases is refused alike; a comma is a
    word break, which the notation reads in a name too.

    >>> notation_word("End game"), notation_word("Конец"), notation_word("Вова"), notation_word("Ли; Ан")
    ('End', 'Конец', None, ';')
    """
    if ";" in name:
        return ";"
    folded = _fold(name)
    for phrase, _ in _PHRASES:
        if re.search(rf"(?<!\w){re.escape(_fold(phrase))}(?!\w)", folded):
            return phrase
    return next((w for w in name.split() if _fold(w) in _HEADS), None)
_NUMBER: Final = re.compile(r"-?\d{1,4}", re.ASCII)


class _Clause:
    """The words of one clause, read from left to right."""

    def __init__(self, text: str, table: Table) -> None:
        for phrase, word in _PHRASES:
            text = re.sub(phrase, word, text, flags=re.IGNORECASE)
        self.words = [w for w in re.split(r"[\s,]+", text) if w]
        self.i = 0
        self.table = table

    def more(self) -> bool:
        return self.i < len(self.words)

    def peek(self, ahead: int = 0) -> str | None:
        k = self.i + ahead
        return self.words[k] if k < len(self.words) else None

    def take(self) -> str:
        word = self.words[self.i]
        self.i += 1
        return word

    def fail(self, expected: str, word: str | None = None, **values: object) -> NotationError:
        return NotationError(expected, word if word is not None else self.peek(), **values)

    def name_at(self) -> tuple[str, int] | None:
        """The player named at the current word (the longest full name, else a unique beginning); a name's
        commas and blanks are word breaks, as in a clause (``Смит, Джон``)."""
        players = self.table.players
        folded = {_name_key(p): p for p in players}
        for span in range(min(4, len(self.words) - self.i), 0, -1):
            text = _name_key(" ".join(self.words[self.i:self.i + span]))
            if text in folded:
                return folded[text], span
        word = self.peek()
        if word is None:
            return None
        begins = [p for p in players if _fold(p).startswith(_fold(word))]
        return (begins[0], 1) if len(begins) == 1 else None

    def name(self, what: str = "a player's name") -> str:
        found = self.name_at()
        if found is None:
            known = ", ".join(self.table.players)
            raise self.fail(what + " ({known})", known=known)
        self.i += found[1]
        return found[0]

    def number(self, what: str, **values: object) -> int:
        word = self.peek()
        if word is None or not _NUMBER.fullmatch(word):
            raise NotationError(what, word, **values)
        self.i += 1
        return int(word)

    def level_contract_at(self, k: int) -> bool:
        """A contract written in two or three words begins at word ``k`` (``7 червей``, ``6 без козыря``)."""
        names = {_fold(p) for p in self.table.players}
        for span in (3, 2):
            words = self.words[k:k + span]
            if len(words) < span or any(_fold(w) in names for w in words[1:]):
                continue
            try:
                if parse_bid(" ".join(words)).level is not None:
                    return True
            except ValueError:
                continue
        return False

    def bid(self, contract: bool) -> str:
        names = {_fold(p) for p in self.table.players}
        for span in (3, 2, 1):
            if self.i + span > len(self.words) or any(_fold(w) in names for w in self.words[self.i + 1:self.i + span]):
                continue  # "B 6, C pass": C is a player here, not clubs
            text = " ".join(self.words[self.i:self.i + span]).replace("-", "_")
            try:
                bid = parse_bid(text)
            except ValueError:
                continue
            if contract and bid.is_pass:
                break
            self.i += span
            return bid.text
        raise self.fail("a contract (6S … 10NT, 6♠, 7 червей, misere, мизер; Solo Whist: prop, solo, abundance …)"
                        if contract else "a bid (pass, 6S … 10NT, misere …)")


def parse_line(line: str, table: Table) -> list[dict[str, Any]]:
    """The events one line of the notation stands for (dicts without ``seq``): a deal, a
    ``void N`` or an ``end``. Raises :class:`NotationError` naming the word it could not read."""
    text = line.strip()
    first = _fold(text.split(None, 1)[0]) if text else ""
    rest = text.split(None, 1)[1].strip() if len(text.split(None, 1)) > 1 else ""
    if first in _VOID:
        number, _, reason = rest.partition(" ")
        if not _NUMBER.fullmatch(number):
            raise NotationError("the number of the deal to void (void N [REASON])", number or None)
        ev: dict[str, Any] = {"type": "deal_voided", "game": table.game, "deal": int(number)}
        if reason.strip():
            ev["reason"] = reason.strip()
        return [ev]
    if first in _END:
        ev = {"type": "game_ended", "game": table.game}
        if rest:
            ev["reason"] = rest
        return [ev]
    return parse_deal(line, table)


def parse_deal(line: str, table: Table) -> list[dict[str, Any]]:
    """The events of one deal written in one line (dicts without ``seq``)."""
    if not line.strip():
        raise NotationError("an empty line: write a deal", NOT_A_WORD)
    start: dict[str, Any] = {"type": "deal_started", "game": table.game, "deal": table.next_deal,
                             "dealer": table.dealer}
    bids: list[dict[str, Any]] = []
    contract: dict[str, Any] | None = None
    calls: list[dict[str, Any]] = []
    tricks: dict[str, Any] | None = None
    raspas = False
    for text in line.split(";"):
        c = _Clause(text, table)
        if not c.more():
            continue
        head = _fold(c.peek() or "")
        if head in _OPTIONS and c.name_at() is None:
            _options(c, start, table)
        elif head in _AUCTION:
            if bids:
                raise NotationError("the auction is said twice (two 'bids' clauses): say it once", NOT_A_WORD)
            c.take()
            while c.more():
                bids.append({"type": "bid", "player": c.name(), "bid": c.bid(contract=False)})
        elif head in _RASPAS:
            c.take()
            raspas = True
            if c.more():
                raise c.fail("nothing more in the raspas clause (its tricks follow after ';')")
        elif head in _TRICKS and _TRICKS[head] == "tricks":
            c.take()
            tricks = _once(tricks, _tricks(c))
        else:
            found = c.name_at()
            if found is None:
                raise c.fail("dealer, bids, raspas or a player's name ({known})", known=", ".join(table.players))
            after = c.peek(found[1])
            if after is not None and (_fold(after) in _CALLS or _fold(after) in _KONTRA):
                while c.more():
                    calls.append(_call(c))
            elif after is not None and _NUMBER.fullmatch(after) and not c.level_contract_at(c.i + found[1]):
                tricks = _once(tricks, _tricks(c))
            elif contract is not None or raspas:
                raise c.fail("a call (whist, pass, half, invite, kontra …) or the tricks (a number)", after)
            else:
                contract = _contract(c)
        if raspas and contract is not None:
            raise NotationError("a deal is a raspas or has a contract, not both", NOT_A_WORD)
    if start["dealer"] is None:
        raise NotationError("the first deal of a game needs its dealer: begin the line with 'dealer NAME;'", NOT_A_WORD)
    return assemble(table, start, bids, raspas, contract, calls, tricks)


def _once(before: dict[str, Any] | None, now: dict[str, Any]) -> dict[str, Any]:
    """The tricks of a deal, said once: a second tricks clause is refused, naming both."""
    if before is not None:
        raise NotationError("the tricks are said twice ({one} and {other}): say them once", NOT_A_WORD,
                            one=_said(before["taken"]), other=_said(now["taken"]))
    return now


def _said(taken: Mapping[str, int]) -> str:
    return ", ".join(f"{p} {n}" for p, n in taken.items())


def _twice(ev: Mapping[str, Any], key: str, word: str, value: object) -> None:
    """Refuse a word said twice in one deal (``bomb 1 bomb 3``, two partners), naming both."""
    if key in ev:
        before = ev[key]
        shown = " ".join(map(str, before)) if isinstance(before, list) else before
        if before is True:
            raise NotationError("{said!r} is said twice: say it once", NOT_A_WORD, said=word)
        raise NotationError("{said!r} is said twice ({said} {one} and {said} {other}): say it once", NOT_A_WORD,
                            said=word, one=shown, other=value)


def _options(c: _Clause, start: dict[str, Any], table: Table) -> None:
    said: set[str] = set()
    while c.more():
        word = c.take()
        option = _OPTIONS.get(_fold(word))
        if option is None:
            raise c.fail("dealer NAME, bomb N, turned CARD or again N", word)
        if option in said:
            key = {"again": "deal"}.get(option, option)
            _twice({option: start.get(key)}, option, word, " ".join(c.words[c.i:c.i + 1]))
        said.add(option)
        if option == "dealer":
            start["dealer"] = c.name("the dealer's name")
        elif option == "bomb":
            start["bomb"] = c.number("the bomb level, 0 to 3")
        elif option == "turned":
            try:
                start["turned"] = str(parse_card(_latin_card(c.peek() or "")))
            except ValueError:
                raise c.fail("the turned-up card (QH, 10♥)") from None
            c.take()
        else:
            voided = dict(table.voided)
            if c.more() and _NUMBER.fullmatch(c.peek() or ""):
                number = c.number("the number of the voided deal")
            elif len(voided) == 1:
                number = next(iter(voided))
            else:
                raise c.fail("the number of the voided deal recorded again ({known})",
                             known=", ".join(map(str, voided)) or "—")
            start["deal"] = number
            start["replaces_voided"] = True
            if number in voided:
                start["dealer"] = voided[number]


def _contract(c: _Clause) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "contract", "declarer": c.name("the declarer's name"),
                          "contract": c.bid(contract=True)}
    if c.more() and c.name_at() is None:  # a contract that names its trump: абонданс черви, abundance H
        with contextlib.suppress(ValueError):
            ev["trump"] = _suit(c.peek() or "")
            c.take()
    while c.more():
        word = c.take()
        flag = _FLAGS.get(_fold(word))
        if flag is None:
            raise c.fail("dark, without-three, totus, helps NAME, igra, partner NAME or trump SUIT", word)
        _twice(ev, flag, word, " ".join(c.words[c.i:c.i + 1]))
        if flag == "helps":
            helps = []
            while c.more() and c.name_at() is not None:
                helps.append(c.name())
            if not helps:
                raise c.fail("the names of the players the declarer helps")
            ev["helps"] = helps
        elif flag == "partner":
            ev["partner"] = c.name("the partner's name")
        elif flag == "trump":
            try:
                ev["trump"] = _suit(c.peek() or "")
            except ValueError:
                raise c.fail("a suit (S, C, D, H or ♠ ♣ ♦ ♥)") from None
            c.take()
        else:
            ev[flag] = True
    return ev


def _suit(word: str) -> str:
    """A suit as the notation reads it: ``H``, ``♥``, ``черви``, ``червей`` (``ValueError`` for another word)."""
    russian = RUSSIAN_SUITS.get(_fold(word))
    return russian if russian is not None else parse_suit(word).value


def _call(c: _Clause) -> dict[str, Any]:
    player = c.name()
    word = c.peek()
    if word is None:
        raise c.fail("whist, pass, half, invite or a kontra")
    c.take()
    folded = _fold(word)
    if folded == "ne-dođem":
        return {"type": "whist", "player": player, "call": "pass"}
    if folded in _CALLS:
        return {"type": "whist", "player": player, "call": _CALLS[folded]}
    if folded in _KONTRA:
        return {"type": "kontra", "player": player, "level": _KONTRA[folded]}
    raise c.fail("whist, pass, half, invite or a kontra", word)


def _tricks(c: _Clause) -> dict[str, Any]:
    taken: dict[str, int] = {}
    ev: dict[str, Any] = {"type": "tricks", "taken": taken}
    while c.more():
        if _TRICKS.get(_fold(c.peek() or "")) == "last":
            c.take()
            ev["last"] = c.name("who took the last trick")
            continue
        name = c.name()
        if name in taken:
            raise c.fail("each player's tricks once ({name} is given twice)", name, name=name)
        taken[name] = c.number("the tricks {name} took", name=name)
    return ev


# --------------------------------------------------------------------------- writing

WORDS_RU: Final = {
    "dealer": "сдаёт", "bomb": "бомба", "turned": "открыта", "again": "заново", "bids": "торг", "raspas": "распасы",
    "dark": "втёмную", "without-three": "без-трёх", "totus": "тотус", "helps": "помогает", "igra": "игра",
    "partner": "партнёр", "trump": "козырь", "last": "последняя", "whist": "вист", "pass": "пас", "half": "полвиста",
    "invite": "зову", "kontra": "контра", "rekontra": "реконтра", "subkontra": "субконтра",
    "mortkontra": "мортконтра", "void": "аннулировать", "misere": "мизер", "all-pass": "все-пас",
}
"""The notation's words in Russian (each is read back: the tables above list them)."""

_RU_SUITS: Final = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "БК"}
_RU_RANKS: Final = {"A": "Т", "K": "К", "Q": "Д", "J": "В"}
"""A card's rank as a Russian line writes it (туз, король, дама, валет); the notation reads both."""
_LATIN_RANKS: Final = {v: k for k, v in _RU_RANKS.items()} | {"т": "A", "к": "K", "д": "Q", "в": "J"}


def _latin_card(word: str) -> str:
    """A card as the log spells its rank: ``Д♥`` → ``Q♥`` (a Russian rank letter first), else as written."""
    return _LATIN_RANKS[word[0]] + word[1:] if word[:1] in _LATIN_RANKS and len(word) > 1 else word


def card_word(card: str, lang: str = "en") -> str:
    """A card as a line in ``lang`` writes it: ``QH`` in English, ``Д♥`` in Russian (no Latin letter).

    >>> card_word("QH", "ru"), card_word("10S", "ru"), card_word("QH")
    ('Д♥', '10♠', 'QH')
    """
    if lang != "ru" or not card:
        return card
    return _RU_RANKS.get(card[:-1], card[:-1]) + _RU_SUITS.get(card[-1], card[-1])
_RU_BIDS: Final = {v: k for k, v in (*SOLO_WHIST_WORDS.items(), *SERBIAN_CYRILLIC_BIDS.items())
                   if k != "козырный абонданс"}
"""A Solo Whist bid as a Russian line writes it: the pad's own words (``абонданс с козырем``), read back too."""


def word(text: str, lang: str = "en") -> str:
    """A word of the notation in ``lang`` (``en`` as the log spells it; ``ru``: the Russian word it reads).

    >>> word("raspas", "ru"), word("7NT", "ru"), word("trump_abundance", "ru"), word("6S", "en")
    ('распасы', '7БК', 'абонданс с козырем', '6S')
    """
    if lang != "ru":
        return text
    if text in WORDS_RU:
        return WORDS_RU[text]
    if text in _RU_BIDS:
        return _RU_BIDS[text]
    if text in ("S", "C", "D", "H"):  # a suit named: its symbol
        return _RU_SUITS[text]
    m = re.fullmatch(r"(10|[6-9])(S|C|D|H|NT)", text)
    return m[1] + _RU_SUITS[m[2]] if m else text


def deal_line(events: Iterable[Mapping[str, Any]], *, dealer: bool = False,
              taken: Mapping[str, int] | None = None, lang: str = "en", passed: str = "raspas") -> str:
    """One deal's events (its ``deal_started`` first) as a line of the notation.

    ``dealer`` writes the dealer (the first deal of a game needs it); ``taken`` gives the tricks of a
    deal whose cards were played and which has no ``tricks`` event. Card-level events (hands, the
    talon, the discard, the cards) are not written: the line is the deal as a score pad keeps it.
    Raises :class:`NotationError` for what the notation does not write (an ``allocation``). ``lang``:
    ``ru`` writes the notation's Russian words (it reads both). ``passed``: the word of a deal everybody passed
    (``raspas``, or ``all-pass`` in a game without raspasy: both read the same).
    """
    w = functools.partial(word, lang=lang)
    opts: list[str] = []
    auction: list[str] = []
    contract = w(passed)
    calls: list[str] = []
    result: list[str] = []
    for ev in events:
        kind = ev["type"]
        if kind == "deal_started":
            if dealer and not ev.get("replaces_voided"):
                opts.append(f"{w('dealer')} {ev['dealer']}")
            if ev.get("replaces_voided"):
                opts.append(f"{w('again')} {ev['deal']}")
            if ev.get("bomb"):
                opts.append(f"{w('bomb')} {ev['bomb']}")
            if ev.get("turned"):
                opts.append(f"{w('turned')} {card_word(str(ev['turned']), lang)}")
        elif kind == "bid":
            auction.append(f"{ev['player']} {w(str(ev['bid']))}")
        elif kind == "contract":
            contract = _contract_text(ev, w)
        elif kind == "whist":
            calls.append(f"{ev['player']} {w(str(ev['call']))}")
        elif kind == "kontra":
            calls.append(f"{ev['player']} {w(str(ev['level']))}")
        elif kind == "tricks":
            taken = ev["taken"]
            if ev.get("last"):
                result = [f"{w('last')} {ev['last']}"]
        elif kind == "allocation":
            raise NotationError("deal {deal}: an allocation is not written in the one-line notation (record it with "
                                "vistlog append)", NOT_A_WORD, deal=ev.get("deal"))
    clauses = [", ".join(opts)] if opts else []
    if auction:
        clauses.append(w("bids") + " " + ", ".join(auction))
    clauses.append(contract)
    if calls:
        clauses.append(", ".join(calls))
    if taken is not None:
        clauses.append(", ".join([f"{p} {n}" for p, n in taken.items()] + result))
    return "; ".join(clauses)


def _contract_text(ev: Mapping[str, Any], w: Callable[[str], str]) -> str:
    words = [ev["declarer"], w(str(ev["contract"]))]
    for flag, said in (("dark", "dark"), ("without_three", "without-three"), ("totus", "totus")):
        if ev.get(flag):
            words.append(w(said))
    if ev.get("helps"):
        words += [w("helps"), *ev["helps"]]
    if ev.get("igra"):
        words.append(w("igra"))
    if ev.get("partner"):
        words += [w("partner"), ev["partner"]]
    if ev.get("trump"):
        words += [w("trump"), w(str(ev["trump"]))]
    return " ".join(words)


def void_line(ev: Mapping[str, Any], lang: str = "en") -> str:
    """A ``deal_voided`` event as a line of the notation."""
    reason = ev.get("reason")
    return f"{word('void', lang)} {ev['deal']}" + (f" {printable(reason)}" if reason else "")


def game_lines(events: Iterable[Mapping[str, Any]], skipped: Callable[[str], None] | None = None,
               lang: str = "en") -> Iterator[str]:
    """Every deal of one game (its events as dicts, in log order) as a line; a ``deal_voided`` as
    ``void N``. The first deal writes its dealer; the game's other events are not lines. A deal the
    notation cannot write raises :class:`NotationError`, or, with ``skipped``, is told to it and left out."""
    group: list[Mapping[str, Any]] = []
    first = True

    def line() -> Iterator[str]:
        try:
            yield deal_line(group, dealer=first, lang=lang)
        except NotationError as exc:
            if skipped is None:
                raise
            skipped(str(exc))

    for ev in events:
        kind = ev.get("type")
        if group and kind not in _OUTSIDE and ev.get("deal") == group[0].get("deal"):
            group.append(ev)
            continue
        if group:
            yield from line()
            first, group = False, []
        if kind == "deal_started":
            group = [ev]
        elif kind == "deal_voided":
            yield void_line(ev, lang)
    if group:
        yield from line()


_OUTSIDE: Final = frozenset({"deal_started", "deal_voided", "adjustment", "score_recorded", "game_ended",
                             "opening_balance", "game_started"})
