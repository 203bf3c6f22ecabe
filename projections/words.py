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

import functools
import os
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final, Literal

from vistlog.events.rules import PRESETS, show
from vistlog.events.variants import VARIANTS

from vistlog.events.entries import ADJUSTMENT_REASON
from vistlog.events.notation import card_word
from vistlog.events.text import digits
from .analysis_ru import ANALYSIS_RU
from .options_ru import OPTIONS_RU, VALUES_RU
from .refusals_ru import NOTATION_RU, PROBLEMS_RU

__all__ = ["Lang", "LANGS", "Words", "game_words", "default_lang", "mixed", "signed", "plural", "rules_words",
           "REASONS", "RU"]

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


def decimal(x: int | Fraction, places: int = 2, lang: str = "en", sign: bool = False) -> str:
    """An estimate rounded to ``places`` decimals (half away from zero), with the language's decimal mark.

    >>> decimal(Fraction(213, 50)), decimal(Fraction(-2, 3), 1, "ru", sign=True), decimal(Fraction(1, 3), 1, sign=True)
    ('4.26', '-0,7', '+0.3')
    """
    x = Fraction(x)
    scaled = abs(x) * 10 ** places
    n = int(scaled) + (1 if scaled - int(scaled) >= Fraction(1, 2) else 0)
    whole, part = divmod(n, 10 ** places)
    text = f"{whole}.{part:0{places}d}" if places else str(whole)
    mark = "-" if x < 0 and n else "+" if sign and x > 0 and n else ""
    return mark + (text.replace(".", ",") if lang == "ru" else text)


def signed(x: int | Fraction) -> str:
    """:func:`mixed` with a plus on a gain: ``+45 1/3``, ``-2``, ``0``."""
    return ("+" if x > 0 else "") + mixed(x)


def rules_words(rules: Any, lang: Lang | None = None) -> str:
    """``sochi`` or ``sochi + raspas_exit: strict; raspas_progression: 1, 2, 4`` (the words of ``vistlog rules``);
    in Russian the preset and the options by their Russian names: ``«Сочинка» + выход из распасов: строгий``."""
    ru = Words(lang).lang == "ru"
    shown = {k: show(getattr(rules.options, k, v)) for k, v in rules.overrides.items()}
    said = [f"{OPTIONS_RU[k][0]}: {VALUES_RU.get(v, v)}" if ru and k in OPTIONS_RU else f"{k}: {v}"
            for k, v in shown.items()]
    return preset_words(str(rules.preset), lang) + (" + " + "; ".join(said) if said else "")


def preset_words(name: str, lang: Lang | None = None) -> str:
    """A preset as a line in ``lang`` names it: its key in English (``sochi``, as the log spells it), its name in
    Russian (``«Сочинка»``)."""
    preset, w = PRESETS.get(name), Words(lang)
    return f"«{w.cap(preset.label)}»" if w.lang == "ru" and preset is not None else name


def plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian form of a noun after ``n``: 1 взятка, 2 взятки, 5 взяток (11 взяток, 21 взятка), by CLDR's
    plural rules for Russian (Babel's).

    >>> [plural(n, "взятка", "взятки", "взяток") for n in (1, 3, 5, 11, 21)]
    ['взятка', 'взятки', 'взяток', 'взяток', 'взятка']
    """
    form = _ru_plural()(abs(n))
    return one if form == "one" else few if form == "few" else many


@functools.cache
def _ru_plural() -> Callable[[int], str]:
    from babel import Locale

    return Locale("ru").plural_form  # type: ignore[no-any-return]


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
    "  Everybody said dalje: nobody plays": "  Все сказали «даље»: никто не играет",
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
    **ANALYSIS_RU,
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
    "write-off (otpis): ": "списание (отпис): ",
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
    "games": "игры", "total": "итог", "per game": "за игру", "rating (± 2 RD)": "рейтинг (± 2 откл.)",
    "unit": "единица",
    "contracts made/declared: {parts}": "контракты сыграно/заявлено: {parts}",
    "; whists {n} (share made {share}); raspasy {r} (mountain {m}); pools closed first {c}":
        "; вистов {n} (доля сыгранных {share}); распасов {r} (гора {m}); первым закрыл пулю {c}",
    "left out: {path}: game {game}: {n} problem(s)": "пропущено: {path}: игра {game}: проблем {n}",
    "warning: {text}": "внимание: {text}",
    "Statistics of {n} game(s)": "Статистика: игр {n}",
    "Left out (with problems): ": "Пропущено (с проблемами): ",
    "rating over time (line), ± 2 RD (band)": "рейтинг во времени (линия), ± 2 отклонения (полоса)",
    "result per evening ({unit})": "итог за вечер ({unit})",
    "contracts by level: declared (dark), made (light)": "контракты по уровню: заявлено (тёмные), сыграно (светлые)",
}
"""The Russian catalogue: English phrase (the lookup key) → Russian."""


_UNDER = ("", "одной", "двух", "трёх", "четырёх", "пяти", "шести", "семи", "восьми", "девяти", "десяти")


def _tricks(n: str) -> str:
    return f"{n} " + plural(int(n), "взятка", "взятки", "взяток") if digits(n) else f"{n} взятки"


def _points(n: str) -> str:
    """``2 очка``, ``5 очков`` (a whole number; another, as ``очков``)."""
    return f"{n} " + (plural(int(n), "очко", "очка", "очков") if digits(n) else "очков")


def _without(n: str) -> str:
    k = int(n)
    return f"без {_UNDER[k]}" if 0 < k < len(_UNDER) else f"без {k}"


Replacement = str | Callable[[re.Match[str]], str]

_NEUTER: Final = {"prop & cop": "предложение и принятие", "solo": "соло"}
"""The contracts whose Russian names are neuter (the participle agrees: «сыграно»)."""

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
    (r"help: (\S+) pool points × ", lambda m: f"помощь: {_points(m[1])} пули × "),
    (r"help: (\S+) mountain points × ", lambda m: f"помощь: {_points(m[1])} горы × "),
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
    # соло and предложение и принятие are neuter: «соло сыграно», not «сыгран»
    (r"^(prop & cop|solo) made with (\d+) overtrick\(s\)",
     lambda m: f"{_NEUTER[m[1]]} сыграно, {_tricks(m[2])} сверх"),
    (r"^(prop & cop|solo) made\b", lambda m: f"{_NEUTER[m[1]]} сыграно"),
    (r"^(prop & cop|solo) failed: (\d+) undertrick\(s\)", lambda m: f"{_NEUTER[m[1]]} не сыграно: {_without(m[2])}"),
    (r"^(prop & cop|solo) failed: (\d+) trick\(s\) taken", lambda m: f"{_NEUTER[m[1]]} не сыграно: {_tricks(m[2])}"),
    (r"^(prop & cop|solo) failed\b", lambda m: f"{_NEUTER[m[1]]} не сыграно"),
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
    (r" without kontra: not played, a refa for everybody", " без контре: не играется, рефа всем"),
    (r" without kontra: the declarer passes \(V ", " без контре: носилац пасует (цена "),
    (r": nobody came, made without play \(V ", ": никто не пришёл, сыгран без розыгрыша (цена "),
    (r"a refa played", "рефа сыграна"),
    (r", double fall in the last game\)", ", двойное падение в последней игре)"),
    (r"; last game: only (\S+) of the bula is left", r"; последняя игра: от булы осталось только \1"),
    (r"^(.+?) gave kontra and the betl was made", r"\1 дал контру, а бетл сыгран"),
    (r"betl failed: ", "бетл не сыгран: "),
    (r"^(.+?) falls: the defence took (\d+) < (\d+)", r"\1 падает: защита взяла \2 < \3"),
    (r"^(.+?) falls: (\d+) tricks? < 2", lambda m: f"{m[1]} падает: {_tricks(m[2])} < 2"),
    (r", the two (\d+) < 4", r", вдвоём \1 < 4"),
    (r"(?<!\d)(\d+) tricks? × ", lambda m: f"{_tricks(m[1])} × "),
    (r"^the starting bula$", "начальная була"),
    (r"^all pass: a refa for everybody$", "все сказали «даље»: рефа всем"),
    (r" gave kontra: ", " дал контру: "),
    (r" called the other \(zovem\): ", " позвал второго («зовем»): "),
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
    (r"\(V (\S+)\)", r"(цена \1)"),
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


def game_words(game: str, lang: Lang, part: str = "words") -> dict[str, str]:
    """A game's own words in ``lang`` (:attr:`~vistlog.projections.variants.Reading.words`, or ``part="said"``:
    its players' words, :attr:`~vistlog.projections.variants.Reading.said`); none for a game nobody registered.

    >>> game_words("solo_whist", "ru")["Sheet:"], game_words("preferans", "ru").get("Sheet:")
    ('Пункты:', None)
    """
    from .variants import reading_of

    try:
        return dict(getattr(reading_of(game), part).get(lang, {}))
    except KeyError:
        return {}


@functools.cache
def _spelling(game: str, lang: Lang) -> tuple[dict[str, str], re.Pattern[str] | None]:
    """A game's own spelling of its players' words in ``lang``, and the pattern that finds them in a line."""
    table = game_words(game, lang, "said")
    keys = sorted(table, key=len, reverse=True)
    return table, re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, keys)) + r")(?!\w)") if keys else None


@functools.lru_cache(maxsize=8192)
def _reason(text: str, lang: Lang, game: str | None) -> str:
    w = Words(lang, game)
    text = w.contracts_in(text)
    if lang == "en":
        return _MISERE.sub("misère", _english_plurals(text))
    for pattern, replacement in _REASONS:
        text = pattern.sub(replacement, text)
    return w.said(text)


class Words:
    """The phrases of one language, and of one game when ``game`` is given (its own words first).

    ``words(phrase, **values)`` is the phrase in the language, its ``{names}`` filled; a phrase
    not in the catalogue is said as written.

    >>> Words("ru")("Deal {n}: {dealer} deals", n=3, dealer="Аня")
    'Сдача 3: сдаёт Аня'
    >>> Words("ru")("Sheet"), Words("ru", "solo_whist")("Sheet"), Words("en", "solo_whist")("Sheet")
    ('Пулька', 'Пункты', 'Points')
    """

    def __init__(self, lang: Lang | None = None, game: str | None = None) -> None:
        self.lang: Lang = lang or default_lang()
        self._game = game
        self.catalogue: dict[str, str] = RU if self.lang == "ru" else {}
        if game is not None:
            self.catalogue = {**self.catalogue, **game_words(game, self.lang)}
        self.spelling, self._said = _spelling(game, self.lang) if game is not None else ({}, None)

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
        agreed adjustment's own words) is said as written: only what vistlog wrote is translated, in time linear
        in the text (every pattern is anchored or starts at a word's first character), each text once a game."""
        if text.startswith(ADJUSTMENT_REASON):
            return self(ADJUSTMENT_REASON) + text[len(ADJUSTMENT_REASON):]
        return _reason(text, self.lang, self._game)

    def said(self, words: str) -> str:
        """What the players say (a bid, a call) as this language writes it: the game's own spelling of each
        word (:attr:`~vistlog.projections.variants.Reading.said`), else as said: a Serbian game's ``3 karo`` is
        ``3 каро`` in a Russian line.

        >>> Words("ru", "serbian").said("igra herc"), Words("en", "serbian").said("ne dođem")
        ('игра херц', 'ne dođem')
        """
        return self._said.sub(lambda m: self.spelling[m[0]], words) if self._said is not None else words

    def card(self, card: object) -> str:
        """A card as a person reads it in this language: ``Q♥`` (``Д♥`` in Russian: no Latin letter).

        >>> Words("ru").card("QH"), Words("en").card("QH"), Words("ru").card("10S")
        ('Д♥', 'Q♥', '10♠')
        """
        text = str(card)
        return card_word(text, "ru") if self.lang == "ru" else text[:-1] + _SUITS.get(text[-1:], text[-1:])

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
