"""The words of every human output, in one language at a time: Russian (``ru``) or English (``en``).

Text, HTML and SVG outputs take a :class:`Words` and ask it for each phrase; JSON and CSV keep
their exact, language-free values. A phrase is looked up by its English text (as gettext does),
so code reads as it prints in English and the Russian catalogue beside it says the rest. The
reasons the scoring writes on the sheet are English (the JSON keeps them as written); a
:class:`Words` in Russian says them in Russian through :data:`REASONS`, phrase by phrase.

One spelling of a number everywhere a person reads one: ``+45 1/3`` (:func:`signed`), ``45 1/3``
(:func:`mixed`); contracts as players write them: ``6♠``, ``7БК`` (``7NT`` in English).

>>> ru, en = Words("ru"), Words("en")
>>> ru("deal"), en("deal")
('сдача', 'deal')
>>> ru.reason("6S failed: 2 undertrick(s) × 4"), en.reason("6S failed: 2 undertrick(s) × 4")
('6♠: без двух × 4', '6♠ failed: 2 undertricks × 4')
>>> signed(Fraction(136, 3)), mixed(Fraction(-7, 2))
('+45 1/3', '-3 1/2')
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final, Literal

from vistlog.events.rules import show
from vistlog.events.variants import VARIANTS

from .entries import ADJUSTMENT_REASON

__all__ = ["Lang", "LANGS", "Words", "default_lang", "mixed", "signed", "plural", "rules_words", "REASONS", "RU"]

Lang = Literal["ru", "en"]
"""A language of the human outputs."""
LANGS: Final[tuple[Lang, ...]] = ("ru", "en")


def default_lang() -> Lang:
    """``VISTLOG_LANG`` when it names a language, else English (the language of the docs and messages)."""
    lang = os.environ.get("VISTLOG_LANG", "").strip().lower()[:2]
    return "ru" if lang == "ru" else "en"


def mixed(x: int | Fraction) -> str:
    """An exact value as a person reads it: ``45 1/3``, ``-3 1/2``, ``-1/3``, ``12``.

    >>> mixed(Fraction(-1, 3)), mixed(Fraction(226, 3)), mixed(4)
    ('-1/3', '75 1/3', '4')
    """
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    whole = abs(x.numerator) // x.denominator
    rest = abs(x) - whole
    sign = "-" if x < 0 else ""
    part = f"{rest.numerator}/{rest.denominator}"
    return f"{sign}{whole} {part}" if whole else f"{sign}{part}"


def signed(x: int | Fraction) -> str:
    """:func:`mixed` with a plus on a gain: ``+45 1/3``, ``-2``, ``0``."""
    return ("+" if x > 0 else "") + mixed(x)


def rules_words(rules: Any) -> str:
    """``sochi`` or ``sochi + raspas_exit: strict; raspas_progression: 1, 2, 4`` (the words of ``vistlog rules``)."""
    if not rules.overrides:
        return str(rules.preset)
    options = rules.options
    return f"{rules.preset} + " + "; ".join(f"{k}: {show(getattr(options, k, v))}" for k, v in rules.overrides.items())


def plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian form of a noun after ``n``: 1 взятка, 2 взятки, 5 взяток (11 взяток, 21 взятка).

    >>> [plural(n, "взятка", "взятки", "взяток") for n in (1, 3, 5, 11, 21)]
    ['взятка', 'взятки', 'взяток', 'взяток', 'взятка']
    """
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


RU: Final[dict[str, str]] = {
    # the game
    "Preferans": "преферанс", "Solo Whist": "вист-соло", "Serbian preferans": "сербский преферанс",
    "trump": "козырь", "everybody passed": "все пас",
    "every pool is closed": "все пули закрыты", "the bulas add up to 0": "булы в сумме дошли до 0",
    "game_ended was recorded": "записан конец игры",
    "Sochi": "Сочинка", "Leningrad": "Ленинградка", "Rostov": "Ростовская", "Classic": "Классика",
    "Solo Whist, by the encyclopedia": "Вист-соло, по энциклопедии",
    "deal": "сдача", "deals": "сдачи", "auction": "торговля", "contract": "контракт", "whists": "висты",
    "whist": "вист", "pass": "пас", "half-whist": "полвиста", "tricks": "взятки", "pool": "пуля",
    "mountain": "гора", "points": "очки", "misère": "мизер", "dark": "втёмную", "bomb": "бомба",
    "totus": "тотус", "without three": "без трёх", "prop": "предложение", "cop": "принятие", "solo": "соло",
    "abundance": "абонданс", "trump abundance": "абонданс с козырем", "open misère": "открытый мизер",
    "full abundance": "полный абонданс", "general misère": "общий мизер", "redeal": "пересдача", "discard": "снос",
    "raspasy": "распасы", "bula": "була", "soups": "супы", "refe": "рефе",
    # the replay
    "Game {game}: {kind}, rules {rules}": "Игра {game}: {kind}, правила {rules}",
    ", pool of {size}": ", пуля до {size}",
    ", bula {size} each": ", була по {size}",
    "; players {players}": "; игроки {players}",
    "; players in turn order {players}": "; игроки по очереди {players}",
    "Opening balance:": "Начальный счёт:",
    "Deal {n}: {dealer} deals": "Сдача {n}: сдаёт {dealer}",
    ", bomb {n}": ", бомба {n}",
    ", turned {card}": ", открыта {card}",
    "  [VOID: struck from the sheet]": "  [АННУЛИРОВАНА: вычеркнута из пульки]",
    "  [VOID: struck from the paper]": "  [АННУЛИРОВАНА: вычеркнута из записи]",
    "  [recorded again, in the voided record's place]": "  [записана заново, вместо аннулированной]",
    "  Auction: {bids}": "  Торговля: {bids}",
    "  Discard: {player} puts away {cards}": "  Снос: {player} сносит {cards}",
    "  Contract: {declarer} plays {contract}": "  Контракт: {declarer} играет {contract}",
    "helping {names}": "с помощью {names}",
    "with {partner}": "с партнёром {partner}",
    "trump {suit}": "козырь {suit}",
    "  Everybody passed: raspasy": "  Все спасовали: распасы",
    "  Everybody passed: general misère": "  Все спасовали: общий мизер",
    "  Everybody passed: redeal": "  Все спасовали: пересдача",
    "  Everybody said dalje: nobody plays": "  Все сказали dalje: никто не играет",
    "  Whists: {calls}": "  Висты: {calls}",
    "  Defence: {calls}": "  Защита: {calls}",
    "  Play: {n} cards recorded": "  Розыгрыш: записано карт: {n}",
    "  Tricks: {tricks}": "  Взятки: {tricks}",
    "  Decided without play": "  Решена без розыгрыша",
    "  No entries": "  Записей нет",
    "  Entries:": "  Записи:",
    "  (void)": "  (аннулирована)",
    "adjustment: ": "поправка: ",
    "Sheet:": "Пулька:", "Sheet after deal {n}:": "Пулька после сдачи {n}:",
    "Paper:": "Запись:", "Paper after deal {n}:": "Запись после сдачи {n}:",
    "on {player} {value}": "на {player} {value}",
    "none": "нет",
    "open refe {value}": "открытых рефе {value}",
    "  {declarer} declares {contract}": "  {declarer} играет {contract}",
    # the open-hand analysis
    "open-hand analysis": "анализ в открытую", "Deal {n}": "Сдача {n}",
    "double-dummy {v} trick(s) ({verdict})": "в открытую взяток: {v} ({verdict})", "took {n}": "взято {n}",
    "double-dummy {v} trick(s), the defence {d} ({verdict})": "в открытую взяток: {v}, у защиты {d} ({verdict})",
    "makeable": "играется", "not makeable": "не играется", "clean": "чистый", "caught": "ловится",
    "cost {n} trick(s); {cards} kept the value": "стоила взяток: {n}; не теряли {cards}",
    "cost in {unit}": "цена ({unit})",
    "{player}: {call} instead of {other}: {gain}": "{player}: {call} вместо «{other}»: {gain}",
    "claim by {player} of {n} trick(s) ({said}): {holds}; best play gives the declarer {best}":
        "заявка {player} на взяток: {n} ({said}): {holds}; при лучшей игре у разыгрывающего {best}",
    "accepted": "принята", "disputed": "оспорена", "holds": "верна", "does not hold": "неверна",
    "discard {cards}: {v}; best {best}: {bv}": "снос {cards}: {v}; лучший снос {best}: {bv}",
    "not analysed: deal(s) {deals}: {why}": "не разобраны сдачи {deals}: {why}",
    "the hands are not recorded": "руки не записаны",
    "a raspas (each for himself) is not analysed": "распасы (каждый за себя) не разбираются",
    "Solo Whist is not analysed (four hands, partnerships)": "вист-соло не разбирается (четыре руки, партнёрства)",
    "fewer than three hands play (a defender did not come): not analysed":
        "играют меньше трёх рук (защитник не пришёл): не разбирается",
    "the hands in play do not hold equal numbers of cards (the discard is not recorded)":
        "на руках неравное число карт (снос не записан)",
    "no deal with its hands recorded": "нет сдач с записанными руками", "no contract": "нет контракта",
    "card": "карта", "before": "до", "after": "после", "deal {n}": "сдача {n}",
    # the sheet, the settlement, the audit
    "after deal {n}": "после сдачи {n}",
    "{n} option(s) changed": "изменено правил: {n}", "stake": "ставка",
    "whists on {player}": "висты на {player}",
    "= total": "= итог",
    "voided deals (struck through): {deals}": "аннулированные сдачи (зачёркнуты): {deals}",
    "refe written: {n}": "рефе записано: {n}",
    "left soups": "супы слева", "right soups": "супы справа",
    "{n} deal(s)": "сдач: {n}",
    "{n} problem(s)": "проблем: {n}",
    "exact ({unit})": "точно ({unit})",
    "rounded": "округлено", "money": "деньги",
    "write-off (otpis): ": "списание (otpis): ",
    "payments: ": "расчёт: ",
    "zero-sum: ": "сумма ноль: ", "yes": "да", "NO": "НЕТ",
    "line {n}: ": "строка {n}: ",
    "{field} of {player} on {on}": "{field} {player} на {on}",
    "{field} of {player}": "{field} {player}",
    "recorded {value}, computed ": "записано {value}, по правилам ",
    "{value} (the same difference of {diff}, carried on)": "{value} (та же разница {diff}, перенесена дальше)",
    "{value} (no entries)": "{value} (записей нет)",
    "{n} entry up to deal {deal}": "{n} запись до сдачи {deal}",
    "{n} entries up to deal {deal}": "записей: {n} до сдачи {deal}",
    "recorded and computed agree": "записанное и подсчитанное совпадают",
    "recorded and computed agree after deal {a} and part by deal {b} ({label})":
        "записанное и подсчитанное совпадают после сдачи {a} и расходятся к сдаче {b} ({label})",
    "recorded and computed part by deal {b} ({label})": "записанное и подсчитанное расходятся к сдаче {b} ({label})",
    ": the entry of deal {n} is where they part": ": расходятся на записи сдачи {n}",
    "; deals between that touch it: {deals}": "; сдачи между ними, которые его меняют: {deals}",
    "{game}: {n} recorded value(s), all match": "{game}: записанных значений {n}, все совпадают",
    "{game}: {k} of {n} recorded value(s) differ": "{game}: расходятся {k} из {n} записанных значений",
    "△ refa drawn, ▲ refa played, ∩ hat (the bula reached 0), ∩̸ hat crossed (it climbed back)":
        "△ рефа записана, ▲ рефа сыграна, ∩ шляпа (була дошла до 0), ∩̸ шляпа перечёркнута (була выросла снова)",
    # the drawing and the page
    "{game}: the score sheet after deal {n}": "{game}: пулька после сдачи {n}",
    "closed": "закрыта",
    "pool of {player}": "пуля {player}", "mountain of {player}": "гора {player}",
    "whists of {player} on {other}": "висты {player} на {other}",
    "from the centre: mountain · pool · whists on each other player · name; struck out: a voided deal":
        "от центра: гора · пуля · висты на каждого из других игроков · имя; зачёркнуто: аннулированная сдача",
    "points after each deal": "очки после каждой сдачи",
    "Settlement": "Расчёт", "Deals": "Сдачи", "Sheet": "Пулька",
    "player": "игрок", "field": "поле", "value": "значение", "result": "итог", "entries": "записи", "dealer": "сдающий",
    "voided": "аннулирована", "stands (recorded again)": "действует (записана заново)",
    "Made by vistlog from the game log; every entry above carries its reason.":
        "Составлено vistlog по журналу игры; у каждой записи выше указана причина.",
    # statistics
    "{n} game(s) counted": "игр учтено: {n}",
    "; {n} left out (with problems)": "; пропущено (с проблемами): {n}",
    "games": "игры", "total": "итог", "per game": "за игру", "rating (± 2 RD)": "рейтинг (± 2 RD)",
    "unit": "единица",
    "contracts made/declared: {parts}": "контракты сыграно/заявлено: {parts}",
    "; whists {n} (share made {share}); raspasy {r} (mountain {m}); pools closed first {c}":
        "; вистов {n} (доля сыгранных {share}); распасов {r} (гора {m}); первым закрыл пулю {c}",
    "left out: {path}: game {game}: {n} problem(s)": "пропущено: {path}: игра {game}: проблем {n}",
    "warning: {text}": "внимание: {text}",
    "Statistics of {n} game(s)": "Статистика: игр {n}",
    "Left out (with problems): ": "Пропущено (с проблемами): ",
    "rating over time (line), ± 2 RD (band)": "рейтинг во времени (линия), ± 2 RD (полоса)",
    "result per evening ({unit})": "итог за вечер ({unit})",
    "contracts by level: declared (dark), made (light)": "контракты по уровню: заявлено (тёмные), сыграно (светлые)",
}
"""The Russian catalogue: English phrase (the lookup key) → Russian."""

PRESET_NAMES_EN: Final[dict[str, str]] = {
    "sochi": "Sochi", "leningrad": "Leningrad", "rostov": "Rostov", "classic": "Classic",
    "encyclopedia": "Solo Whist, by the encyclopedia", "serbian": "Serbian preferans",
}
"""Each preset as players name it (the phrase :class:`Words` says in the page's language)."""

_UNDER = ("", "одной", "двух", "трёх", "четырёх", "пяти", "шести", "семи", "восьми", "девяти", "десяти")


def _tricks(n: str) -> str:
    return f"{n} " + plural(int(n), "взятка", "взятки", "взяток") if n.isdigit() else f"{n} взятки"


def _without(n: str) -> str:
    k = int(n)
    return f"без {_UNDER[k]}" if 0 < k < len(_UNDER) else f"без {k}"


Replacement = str | Callable[[re.Match[str]], str]

REASONS: Final[tuple[tuple[str, Replacement], ...]] = (
    # the longest, most particular phrases first: each is applied once, in this order
    (r"(?<!\S)(\S+) failed: (\d+) undertrick\(s\) × ", lambda m: f"{m[1]}: {_without(m[2])} × "),
    (r"given up without three: 3 × ", "без трёх: 3 × "),
    (r"made without play \(both defenders passed\)", "сыгран без розыгрыша (оба защитника спасовали)"),
    (r"made without play \(half-whist\)", "сыгран без розыгрыша (полвиста)"),
    (r"played half-whist: (\S+) of (\d+) defence trick\(s\), up to half the obligation, × ",
     lambda m: f"полвиста сыгран: {m[1]} из {_tricks(m[2])} защиты, не больше половины обязательства, × "),
    (r"half-whister short by (\S+) trick\(s\) × ", lambda m: f"недобор полвистующего: {_tricks(m[1])} × "),
    (r"whister short by (\S+) trick\(s\) × ", lambda m: f"недобор вистующего: {_tricks(m[1])} × "),
    (r"half-whist: (\S+) trick\(s\) × ", lambda m: f"полвиста: {_tricks(m[1])} × "),
    (r"(?<!\d)(\d+) defence tricks? × ", lambda m: f"{_tricks(m[1])} защиты × "),
    (r"(?<!\d)(\d+) defence trick\(s\) × ", lambda m: f"{_tricks(m[1])} защиты × "),
    (r" \(greedy: the passer's tricks too\)", " (жадный вист: и взятки спасовавшего)"),
    (r"gentleman's whist: half of (\S+) \(tricks and consolation\)",
     r"джентльменский вист: половина от \1 (взятки и консоляция)"),
    (r"grabbing whist: as much as the whister wrote", "хваткий вист: столько же, сколько вистующий"),
    (r"consolation for (\d+) undertrick\(s\) × ", lambda m: f"консоляция ({_without(m[1])}) × "),
    (r"^help from (.+?) \(", r"помощь от \1 ("),
    (r", allocated\)", ", по раскладу)"),
    (r"help: (\S+) pool points × ", r"помощь: \1 очков пули × "),
    (r"help: (\S+) mountain points × ", r"помощь: \1 очков горы × "),
    (r": past the pool, off own mountain", ": сверх пули, списано со своей горы"),
    (r": off own mountain first", ": сначала списано со своей горы"),
    (r" \(allocated to the pool\)", " (по раскладу: в пулю)"),
    (r" \(allocated: off own mountain\)", " (по раскладу: со своей горы)"),
    (r"^тотус (.+?) made: own pool closed", r"тотус \1 сыгран: своя пуля закрыта"),
    (r"^тотус made: own mountain written off", "тотус сыгран: своя гора списана"),
    (r"^тотус on ёлка: every mountain written off", "тотус на ёлке: списаны все горы"),
    (r"^тотус: (.+?) closes the pool", r"тотус: \1 закрывает пулю"),
    (r"^тотус: (.+?) writes off the mountain", r"тотус: \1 списывает гору"),
    (r"^тотус (.+?) failed: own mountain doubled", r"тотус \1 не сыгран: своя гора удвоена"),
    (r"^тотус failed: plus the mountain of (.+)", r"тотус не сыгран: плюс гора \1"),
    (r"(?<!\d)(\d+) talon trick\(s\) × (\S+) to the dealer", lambda m: f"{_tricks(m[1])} прикупа × {m[2]} сдающему"),
    (r" on whists: (.+?) took (\d+) × ", r" вистами: \1 взял \2 × "),
    (r" \(after amnesty of (\S+)\)", r" (после амнистии \1)"),
    (r": no trick", ": ни одной взятки"),
    (r", (\S+) off own mountain", r", \1 списано со своей горы"),
    (r" \((\S+) lost at 0\)", r" (\1 сгорело на нуле)"),
    (r"\braspas\b", "распасы"),
    # Solo Whist
    (r"general misère: took the last trick, pays (\S+) to each",
     r"общий мизер: взял последнюю взятку, платит \1 каждому"),
    (r"general misère: (.+?) took the last trick", r"общий мизер: \1 взял последнюю взятку"),
    (r"prop & cop", "предложение и принятие"),
    (r"trump abundance", "абонданс с козырем"),
    (r"full abundance", "полный абонданс"),
    (r"\babundance\b", "абонданс"),
    (r"\bopen misere\b", "открытый мизер"),
    (r"\bsolo\b", "соло"),
    (r" made with (\d+) overtrick\(s\)", lambda m: f" сыгран, {_tricks(m[1])} сверх"),
    (r" failed: (\d+) undertrick\(s\)", lambda m: f" не сыгран: {_without(m[1])}"),
    (r" failed: (\d+) trick\(s\) taken", lambda m: f" не сыгран: {_tricks(m[1])}"),
    # Serbian
    (r" without kontra: not played, a refa for everybody", " без kontra: не играется, рефа всем"),
    (r" without kontra: the declarer passes \(V ", " без kontra: nosilac пасует (V "),
    (r": nobody came, made without play \(V ", ": никто не пришёл, сыгран без розыгрыша (V "),
    (r"a refa played", "рефа сыграна"),
    (r", double fall in the last game\)", ", двойное падение в последней игре)"),
    (r"; last game: only (\S+) of the bula is left", r"; последняя игра: от булы осталось только \1"),
    (r"^(.+?) gave kontra and the betl was made", r"\1 дал kontra, а betl сыгран"),
    (r"betl failed: ", "betl не сыгран: "),
    (r"^(.+?) falls: the defence took (\d+) < (\d+)", r"\1 падает: защита взяла \2 < \3"),
    (r"^(.+?) falls: (\d+) tricks? < 2", lambda m: f"{m[1]} падает: {_tricks(m[2])} < 2"),
    (r", the two (\d+) < 4", r", вдвоём \1 < 4"),
    (r"(?<!\d)(\d+) tricks? × ", lambda m: f"{_tricks(m[1])} × "),
    (r"^the starting bula$", "начальная була"),
    (r"^all pass: a refa for everybody$", "все сказали dalje: рефа всем"),
    (r" gave kontra: ", " дал kontra: "),
    (r" called the other \(zovem\): ", " позвал второго (zovem): "),
    # the two whisters' modes (the option two_whisters)
    (r" \(team_then_half\)$", " (вместе, затем пополам)"),
    (r" \(team_capped\)$", " (вместе, не больше обязательства)"),
    (r" \(team_then_each\)$", " (вместе, затем каждый)"),
    (r" \(personal\)$", " (каждый за себя)"),
    # the common words, last
    (r"\bmisere\b", "мизер"),
    (r" dark\b", " втёмную"),
    (r" on bomb (\d+)", r" на бомбе \1"),
    (r"(?<!\d)(\d+) trick\(s\) × ", lambda m: f"{_tricks(m[1])} × "),
    (r"(?<!\d)(\d+) trick\(s\)", lambda m: _tricks(m[1])),
    (r" made\b", " сыгран"),
    (r" failed\b", " не сыгран"),
    (r"^opening balance$", "начальный счёт"),
    (r"\(V (\S+)\)", r"(V \1)"),
)
"""How a reason the scoring writes (in English) reads in Russian: ``(regular expression, replacement)``
pairs applied in order. A test says every reason of every sample and vector in Russian, and finds no
English word left."""

_REASONS = tuple((re.compile(p), r) for p, r in REASONS)
_CONTRACT = re.compile(r"(?<![\w/])(10|[6-9])(S|C|D|H|NT)(?![\w/])")
_BIDS = {"misere": "misère", "trump_abundance": "trump abundance", "open_misere": "open misère",
         "full_abundance": "full abundance"}
_MISERE = re.compile(r"\bmisere\b")
_SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
_PLURAL_EN = re.compile(r"\b(\d+) ((?:\w+ )?\w+?)\(s\)")


def _english_plurals(text: str) -> str:
    """``1 trick(s)`` → ``1 trick``, ``3 trick(s)`` → ``3 tricks``."""
    return _PLURAL_EN.sub(lambda m: f"{m[1]} {m[2]}" + ("" if m[1] == "1" else "s"), text)


class Words:
    """The phrases of one language.

    ``words(phrase, **values)`` is the phrase in the language, its ``{names}`` filled; a phrase
    not in the catalogue is said as written.

    >>> Words("ru")("Deal {n}: {dealer} deals", n=3, dealer="Аня")
    'Сдача 3: сдаёт Аня'
    """

    def __init__(self, lang: Lang | None = None) -> None:
        self.lang: Lang = lang or default_lang()
        self.catalogue: dict[str, str] = RU if self.lang == "ru" else {}

    def __call__(self, phrase: str, **values: object) -> str:
        text = self.catalogue.get(phrase, phrase)
        text = text.format(**values) if values else text
        return _english_plurals(text) if self.lang == "en" and "(s)" in text else text

    def cap(self, phrase: str, **values: object) -> str:
        """The phrase with a capital first letter."""
        text = self(phrase, **values)
        return text[:1].upper() + text[1:]

    def contract(self, code: str) -> str:
        """A contract as players write it: ``6♠``, ``10БК`` (``10NT`` in English); others as given.

        >>> Words("ru").contract("7NT"), Words("en").contract("6H"), Words("ru").contract("misere")
        ('7БК', '6♥', 'мизер')
        """
        m = _CONTRACT.fullmatch(code)
        if m:
            return m[1] + _SUITS.get(m[2], "БК" if self.lang == "ru" else "NT")
        return self(_BIDS.get(code, code))

    def contracts_in(self, text: str) -> str:
        """Every contract code in a text written as :meth:`contract` writes it."""
        return _CONTRACT.sub(lambda m: self.contract(m[0]), text)

    def reason(self, text: str) -> str:
        """A reason from the sheet in this language, its contracts in symbols. What a person wrote (an
        agreed adjustment's own words) is said as written: only what vistlog wrote is translated, and in
        time linear in the text (every pattern is anchored or starts at a word's first character)."""
        if text.startswith(ADJUSTMENT_REASON):
            return self(ADJUSTMENT_REASON) + text[len(ADJUSTMENT_REASON):]
        text = self.contracts_in(text)
        if self.lang == "en":
            return _MISERE.sub("misère", _english_plurals(text))
        for pattern, replacement in _REASONS:
            text = pattern.sub(replacement, text)
        return text

    def column(self, column: str) -> str:
        """A column of the sheet: ``пуля``, ``гора``, ``висты`` (``pool``, ``mountain``, ``whists``)."""
        return self(column)

    def game(self, variant: str) -> str:
        """The game's name (``preferans``, ``solo_whist``, ``serbian``): ``преферанс``, ``вист-соло``,
        ``сербский преферанс``."""
        known = VARIANTS.get(variant)
        return self(known.title if known is not None else variant)

    def yes(self, ok: bool) -> str:
        """``yes``/``NO`` (``да``/``НЕТ``)."""
        return self("yes" if ok else "NO")


# --------------------------------------------------------------------------- refusals, said to the table

NOTATION_RU: Final[dict[str, str]] = {
    "a player's name ({known})": "имя игрока ({known})",
    "the dealer's name ({known})": "имя сдающего ({known})",
    "the declarer's name ({known})": "имя разыгрывающего ({known})",
    "the partner's name ({known})": "имя партнёра ({known})",
    "who took the last trick ({known})": "кто взял последнюю взятку ({known})",
    "the bomb level, 0 to 3": "уровень бомбы, от 0 до 3",
    "the number of the voided deal": "номер аннулированной сдачи",
    "a contract (6S … 10NT, 6♠, 7 червей, misere, мизер; Solo Whist: prop, solo, abundance …)":
        "контракт (6♠ … 10БК, 7 червей, мизер; в висте-соло: предложение, соло, абонданс черви …)",
    "a bid (pass, 6S … 10NT, misere …)": "заявка (пас, 6♠ … 10БК, мизер …)",
    "the number of the deal to void (void N [REASON])": "номер сдачи, которую аннулировать (аннулировать N причина)",
    "an empty line: write a deal": "пустая строка: запишите сдачу",
    "the auction is said twice (two 'bids' clauses): say it once": "торговля указана дважды: укажите её один раз",
    "nothing more in the raspas clause (its tricks follow after ';')":
        "после «распасы» ничего больше (взятки пишутся после «;»)",
    "dealer, bids, raspas or a player's name ({known})": "«сдаёт», «торг», «распасы» или имя игрока ({known})",
    "a call (whist, pass, half, invite, kontra …) or the tricks (a number)":
        "вист, пас, полвиста, зову, контра… или число взяток",
    "a deal is a raspas or has a contract, not both": "в сдаче либо распасы, либо контракт, не то и другое",
    "the first deal of a game needs its dealer: begin the line with 'dealer NAME;'":
        "в первой сдаче игры назовите сдающего: начните строку с «сдаёт ИМЯ;»",
    "the tricks are said twice ({one} and {other}): say them once":
        "взятки указаны дважды ({one} и {other}): укажите их один раз",
    "{said!r} is said twice: say it once": "«{said}» указано дважды: укажите один раз",
    "{said!r} is said twice ({said} {one} and {said} {other}): say it once":
        "«{said}» указано дважды ({said} {one} и {said} {other}): укажите один раз",
    "dealer NAME, bomb N, turned CARD or again N": "сдаёт ИМЯ, бомба N, открыта КАРТА или заново N",
    "the turned-up card (QH, 10♥)": "открытая карта (Q♥, 10♥)",
    "the number of the voided deal recorded again ({known})":
        "номер аннулированной сдачи, записываемой заново ({known})",
    "dark, without-three, totus, helps NAME, igra, partner NAME or trump SUIT":
        "втёмную, без трёх, тотус, помогает ИМЯ, игра, партнёр ИМЯ или козырь МАСТЬ",
    "the names of the players the declarer helps": "имена игроков, которым помогает разыгрывающий",
    "a suit (S, C, D, H or ♠ ♣ ♦ ♥)": "масть (♠ ♣ ♦ ♥, пики, трефы, бубны, черви)",
    "whist, pass, half, invite or a kontra": "вист, пас, полвиста, зову или контра",
    "each player's tricks once ({name} is given twice)": "взятки каждого игрока один раз ({name} назван дважды)",
    "the tricks {name} took": "сколько взяток взял {name}",
    "deal {deal}: an allocation is not written in the one-line notation (record it with vistlog append)":
        "сдача {deal}: раскладка очков не пишется строкой (запишите её через vistlog append)",
}
"""What the deal notation expected, said in Russian (the English template of a
:class:`~vistlog.events.notation.NotationError` → the Russian one)."""

PROBLEMS_RU: Final[dict[str, str]] = {
    "line-unfinished": "строка — это вся сдача: {why}",
    "tricks-sum": "взяток в сумме {0}, а в сдаче их {1}",
    "tricks-missing": "не указаны взятки игрока, у которого были карты",
    "tricks-range": "{0} взяток — вне допустимого (от 0 до {1})",
    "tricks-without-play": "сдача решена без розыгрыша: взятки не указываются",
    "tricks-twice": "взятки этой сдачи уже записаны",
    "tricks-not-playing": "взятки у игрока, который в этой сдаче не играет",
    "player-unknown": "такого игрока нет в этой игре",
    "player-sits-out": "сдающий в этой сдаче отдыхает",
    "bid-unknown": "такой заявки нет в этой игре",
    "bid-out-of-turn": "заявка не в свою очередь",
    "bid-too-low": "заявка не выше предыдущей",
    "bid-after-pass": "игрок уже спасовал",
    "contract-unknown": "такого контракта нет в этой игре",
    "contract-not-bid": "контракт не тот, что дала торговля",
    "contract-twice": "контракт этой сдачи уже записан",
    "contract-after-all-pass": "все спасовали: контракта нет",
    "contract-flag-preferans": "втёмную, без трёх и тотус бывают только в преферансе",
    "contract-field-solo-whist": "партнёр и козырь бывают только в висте-соло",
    "partner-missing": "предложению нужен партнёр, принявший его",
    "partner-self": "партнёр — другой игрок, не разыгрывающий",
    "partner-not-prop": "партнёр бывает только у предложения",
    "trump-not-abundance": "козырь называет только абонданс",
    "trump-missing": "абонданс называет козырь",
    "whist-no-contract": "вист без контракта",
    "whist-not-called-for": "здесь вистовать не нужно (мизер, распасы, сдача без розыгрыша)",
    "whist-too-many": "оба защитника уже сказали",
    "whist-out-of-turn": "вист не в свою очередь",
    "last-trick-wrong": "названный взявшим последнюю взятку не взял ни одной",
    "deal-unfinished": "предыдущая сдача не окончена",
    "pools-closed": "все пули закрыты: игра окончена по правилам; запишите её конец или начните новую",
    "after-game-ended": "игра уже окончена",
    "void-unplayed": "такой сдачи ещё не было",
    "void-twice": "эта сдача уже аннулирована",
    "reason-invalid": "причина слишком длинная или содержит управляющие символы",
    "number-too-large": "число больше допустимого",
    "draft-invalid": "черновик сдачи не читается как её события",
    "json-invalid": "строка не читается как JSON (или не текст UTF-8)",
    "torn-line": "файл обрывается посреди события (запись не была закончена)",
    "line-too-long": "строка длиннее любого события",
    "not-an-object": "строка — JSON, но не объект",
    "type-missing": "у события нет типа",
    "type-unknown": "такого типа событий в формате нет",
    "field-missing": "нет обязательного поля",
    "field-unknown": "у события такого поля нет (расширения начинаются с _)",
    "field-duplicate": "одно и то же поле дважды в одном событии",
    "field-invalid": "значение поля не того вида (карта, заявка, число, имя…)",
    "rules-invalid": "в правилах игры неизвестный пресет или опция, или неверное значение",
    "version": "эту версию формата программа не читает",
    "seq-order": "номера seq идут не подряд (строка пропущена, повторена или не на месте)",
    "chain-mismatch": "цепочка хешей рвётся на этой строке: её или одну из прежних изменили",
    "chain-missing": "строка без цепочки после того, как цепочка началась",
    "chain-unkeyed": "строка сцеплена без ключа после начала цепочки с ключом",
    "chain-head-missing": "сохранённой головы цепочки нет ни на одной строке: конец журнала отрезан",
    "append-conflict": "кто-то записал раньше: ничего не записано",
    "chain-not-keyed": "ключ дан, но ни одна строка не сцеплена с ключом: ключ ничего не доказывает",
    "game-empty": "пустой идентификатор игры",
    "game-not-started": "событие игры, которая не начиналась",
    "game-twice": "игра с таким идентификатором уже начиналась в этом файле",
    "game-end-unfinished": "игра не может закончиться посреди сдачи",
    "game-unfinished": "файл обрывается посреди сдачи",
    "event-misplaced": "такое событие здесь не допускается",
    "event-preferans-only": "такое событие бывает только в преферансе",
    "player-name-empty": "пустое имя игрока",
    "player-name-invalid": "в имени игрока управляющие символы",
    "player-twice": "игрок указан дважды",
    "player-name-not-nfc": "имя игрока не в форме Unicode NFC (два написания одних букв)",
    "player-name-spaces": "пробелы в начале или в конце имени игрока",
    "players-look-alike": "имена двух игроков выглядят одинаково",
    "game-id-invalid": "в идентификаторе игры управляющие символы, или он не в форме NFC",
    "players-count": "не то число игроков для этой игры",
    "preset-other-game": "пресет другой игры",
    "pool-missing": "в преферансе нужен размер пули",
    "pool-size": "пуля меньше 1",
    "pool-solo-whist": "в вист-соло пули нет",
    "stake-invalid": "ставка — не десятичное число",
    "opening-balance-late": "начальный счёт после первой сдачи",
    "points-in-preferans": "очки бывают только в вист-соло",
    "points-only": "в вист-соло бывают только очки",
    "deal-not-started": "событие сдачи до начала какой-либо сдачи",
    "deal-not-current": "событие не текущей сдачи",
    "deal-out-of-order": "сдачи идут не по порядку",
    "dealer-wrong": "сдаёт не тот игрок, чья очередь",
    "bomb-level": "уровень бомбы не от 0 до 3",
    "bombs-off": "бомб в этих правилах нет",
    "bomb-solo-whist": "в вист-соло бомб нет",
    "turned-card-preferans": "открытой карты в преферансе нет",
    "turned-card-not-in-hand": "открытой карты нет в руке сдающего",
    "talon-size": "в прикупе не две карты",
    "talon-in-hand": "карта и в прикупе, и в руке",
    "talon-solo-whist": "в вист-соло прикупа нет",
    "hand-missing": "нет руки игрока, у которого есть карты",
    "hand-of-sitting-out": "рука у отдыхающего сдающего",
    "hand-size": "в руке не то число карт",
    "card-not-in-deck": "такой карты в колоде этой игры нет",
    "card-dealt-twice": "карта сдана дважды",
    "deal-replace-flag-missing": "аннулированная сдача записывается заново без пометки «заново»",
    "deal-not-voided": "сдача не аннулирована: записывать заново нечего",
    "deal-replaced-twice": "эта сдача уже записана заново",
    "checkpoint-unplayed": "записанный счёт после сдачи, которой ещё не было",
    "auction-over": "торговля уже окончена",
    "bid-by-holder": "заявка игрока, у которого и так старшая заявка",
    "cop-without-prop": "принятие без предложения",
    "cop-late": "принять предложение уже нельзя",
    "cop-own-prop": "своё предложение не принимают",
    "prop-not-first": "предложение не первым словом торговли",
    "hold-off": "«здесь» в этих правилах нет",
    "hold-not-elder": "«здесь» говорит только старшая рука",
    "hold-nothing": "«здесь» — а держать нечего",
    "misere-not-first": "мизер не первым словом",
    "bid-below-raspas-exit": "контракт ниже выхода из распасов",
    "contract-prop-not-accepted": "предложение не принято: карты бросают",
    "contract-auction-open": "торговля ещё не окончена",
    "contract-after-play": "розыгрыш начался: контракт назначать поздно",
    "declarer-not-winner": "играет не тот, кто выиграл торговлю",
    "contract-too-low": "контракт ниже выигранной заявки",
    "dark-games-off": "игр втёмную в этих правилах нет",
    "totus-off": "тотуса в этих правилах нет",
    "totus-level": "тотус бывает только на десятерной",
    "totus-helps": "помощников больше, чем позволяет бомба",
    "helps-not-totus": "помощники бывают только в тотусе",
    "helps-not-partner": "помощник — не партнёр разыгрывающего",
    "helps-solo-whist": "в вист-соло помощников нет",
    "without-three-not-allowed": "этот контракт нельзя сдать без трёх",
    "partner-not-cop": "партнёр — не тот, кто принял предложение",
    "whist-after-play": "розыгрыш уже начался",
    "half-whist-misplaced": "полвиста говорит только второй защитник после паса первого",
    "half-whist-off": "полвиста в этих правилах нет",
    "half-whist-level": "полвиста только на шестерной и семерной",
    "whist-after-half": "на полвиста первый защитник отвечает только вист или пас",
    "discard-twice": "снос уже записан",
    "discard-size": "снос — это две разные карты",
    "discard-not-declarer": "сносит только разыгрывающий",
    "discard-after-play": "розыгрыш уже начался",
    "discard-not-held": "такой карты у разыгрывающего нет",
    "card-after-tricks": "взятки уже записаны",
    "card-without-play": "в этой сдаче нет розыгрыша",
    "card-without-hands": "для розыгрыша по картам нужны руки в начале сдачи",
    "card-after-claim": "заявка уже окончила розыгрыш",
    "claim-not-here": "в этой игре заявок не записывают",
    "claim-after-play": "розыгрыш сдачи уже окончен",
    "claim-in-raspas": "на распасах каждый играет за себя: заявок нет",
    "claim-not-playing": "заявляет игрок, который в сдаче не играет",
    "claim-mid-trick": "заявку делают между взятками",
    "claim-range": "заявлено больше взяток, чем осталось",
    "claim-split": "не указано или не сходится, как защита делит свои взятки",
    "claim-without-play": "в этой сдаче нет розыгрыша",
    "claim-without-hands": "для заявки нужны руки в начале сдачи",
    "tricks-differ-from-claim": "взятки не те, что дала принятая заявка",
    "tricks-below-played": "взяток меньше, чем игрок уже взял до заявки",
    "play-complete": "все взятки уже сыграны",
    "card-out-of-turn": "сейчас ход другого игрока",
    "card-not-held": "такой карты у игрока нет",
    "revoke": "нужно ходить в масть",
    "must-trump": "нужно бить козырем",
    "tricks-not-played": "взятки до того, как сыграны все карты",
    "tricks-differ-from-cards": "взятки не те, что дают сыгранные карты",
    "last-trick-missing": "в общем мизере нужно указать, кто взял последнюю взятку",
    "allocation-solo-whist": "в вист-соло распределения нет",
    "allocation-self": "игрок не помогает сам себе",
    "allocation-undecided": "сдача ещё не решена",
    "allocation-sum": "распределение не сходится с выигрышем",
    "zero-sum": "записи не сходятся в ноль",
    "bid-not-next": "эту заявку игрок сейчас сказать не может",
    "contract-before-auction-end": "торговля ещё не выиграна",
    "contract-below-auction": "контракт ниже выигранного в торговле",
    "contract-field-russian": "в сербском контракте поле русской игры",
    "contract-igra": "«игра» не совпадает с тем, как выиграна торговля",
    "contract-not-serbian": "такого контракта в сербском преферансе нет",
    "contract-wrong-declarer": "играет не тот, кто выиграл торговлю",
    "discard-before-auction-end": "снос до окончания торговли",
    "discard-igra": "в «игре» прикуп не берут и не сносят",
    "discard-missing": "контракт до сноса",
    "half-whist-serbian": "полвиста в сербском преферансе нет",
    "invite-misplaced": "«зову» не на месте",
    "invite-not-lone": "«зову» говорит только единственный вистующий",
    "invite-after-kontra": "«зову» и контра в одной сдаче",
    "invite-plain-pik": "на простых пиках зовут только контрой",
    "kontra-misplaced": "контра до слова защиты",
    "kontra-after-play": "розыгрыш уже начался",
    "kontra-after-invite": "контра после «зову»",
    "kontra-order": "контры идут по порядку: контра, реконтра, субконтра, мортконтра",
    "kontra-max": "такой контры в этих правилах нет",
    "kontra-wrong-player": "эту контру говорит другой игрок",
    "play-decided": "исход уже решён: розыгрыш окончен",
    "allocation-serbian": "в сербском преферансе распределения нет",
    "balance-serbian": "в сербском счёте нет пули, горы, вистов и очков",
    "sheet-serbian": "в сербском счёте нет пули, горы, вистов и очков",
    "soups-on-self": "супы на самого себя не пишут",
    "bula-russian": "була и супы бывают только в сербском преферансе",
    "igra-russian": "«игра» бывает только в сербском преферансе",
    "invite-russian": "«зову» бывает только в сербском преферансе",
}
"""A refusal of the state machine said in Russian, by its problem code (``vistlog.CODES``); a code not here is
said in English."""


def notation_message(expected: str, word: object, values: dict[str, object], lang: Lang,
                     whole_line: object) -> str:
    """A :class:`~vistlog.events.notation.NotationError` in ``lang``, one sentence, without the grammar:
    the word that could not be read and what was expected there (``whole_line``: the marker of an error about
    the line as a whole, whose ``expected`` says all of it).

    >>> notation_message("a suit (S, C, D, H or ♠ ♣ ♦ ♥)", "X", {}, "ru", object())
    'не понял «X»: ожидалась масть (♠ ♣ ♦ ♥, пики, трефы, бубны, черви)'
    >>> notation_message("a suit (S, C, D, H or ♠ ♣ ♦ ♥)", None, {}, "en", object())
    'the clause ends where a suit (S, C, D, H or ♠ ♣ ♦ ♥) was expected'
    """
    template = NOTATION_RU.get(expected, expected) if lang == "ru" else expected
    said = template.format(**values)
    if word is whole_line:
        return said
    if lang == "ru":
        verb = _EXPECTED_RU.get(said.split(" ", 1)[0], "ожидалось")
        return f"не понял «{word}»: {verb} {said}" if word is not None else f"строка оборвалась: {verb} {said}"
    return f"cannot read {word!r}: expected {said}" if word is not None else \
        f"the clause ends where {said} was expected"


_EXPECTED_RU: Final = {"масть": "ожидалась", "заявка": "ожидалась", "открытая": "ожидалась", "строка": "ожидалась",
                       "торговля": "ожидалась", "пустая": "ожидалась", "имя": "ожидалось", "номер": "ожидался",
                       "контракт": "ожидался", "уровень": "ожидался", "вист,": "ожидался",
                       "сколько": "ожидалось", "имена": "ожидались", "взятки": "ожидались"}


def problem_message(code: str, message: str, lang: Lang) -> str:
    """A refusal of the state machine in ``lang``: in Russian said by its code (:data:`PROBLEMS_RU`, whose
    ``{0}``, ``{1}``… are the numbers of the English message, in order), the English message kept where the code
    has no Russian words yet.

    >>> problem_message("tricks-sum", "taken adds up to 12, a Preferans deal has 10 tricks", "ru")
    'взяток в сумме 12, а в сдаче их 10'
    """
    if lang != "ru" or code not in PROBLEMS_RU:
        return message
    numbers = _NUMBERS.findall(message)
    template = PROBLEMS_RU[code]
    if template.count("{") > len(numbers) + template.count("{why}"):
        return message  # a message of another shape than the words expect: said as written
    why = message.split(": a line is a whole deal")[0]
    why = next((ru.format(*numbers) for en, ru in _UNFINISHED_RU if en in why), why)
    return template.format(*numbers, why=why)


_UNFINISHED_RU: Final = (
    ("has no result", "в сдаче {0} нет ни контракта, ни взяток"),
    ("have not both spoken", "в сдаче {0} сказали не оба защитника"),
    ("claim was disputed", "в сдаче {0} заявка оспорена: укажите взятки, о которых договорились"),
    ("has no tricks", "в сдаче {0} не указаны взятки"),
)
"""Why a deal is not finished (``GameState.unfinished``), in Russian."""


_NUMBERS: Final = re.compile(r"(?<![\w.])-?\d{1,19}(?![\w.])")
