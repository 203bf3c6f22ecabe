"""The open-hand analysis said to a Russian reader (:mod:`vistlog.projections.render.analysis`, the replay's
values): merged into :data:`vistlog.projections.words.RU`."""

from __future__ import annotations

from typing import Final

__all__ = ["ANALYSIS_RU"]


ANALYSIS_RU: Final[dict[str, str]] = {
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
    "single-dummy · {player}, {what} {made}: rank {rank} of {k}, cost {cost} ({unit}) · {layouts}":
        "с закрытыми картами · {player}, {what} {made}: место {rank} из {k}, цена {cost} ({unit}) · {layouts}",
    "single-dummy · {player}, {what} {made}: {layouts}: too few to rank the choices ({n} needed)":
        "с закрытыми картами · {player}, {what} {made}: {layouts}: слишком мало, чтобы сравнивать (нужно {n})",
    "the best {n} cannot be told apart at {m} layouts": "лучшие {n} не различить на {m} раскладах",
    "whist call": "вист", "opening lead": "первый ход", "the discard": "снос",
    "the best {n} shown": "показаны лучшие {n}", "calls": "висты", "leads": "ходы", "best": "лучших",
    "cost": "цена",
    "single-dummy decisions · cost in {unit} on average": "решения с закрытыми картами · средняя цена ({unit})",
    "no decision weighed": "ни одного решения не взвешено",
    "single-dummy · {player}, {what} {made}: no layout of {n} drawn fits the contract":
        "с закрытыми картами · {player}, {what} {made}: ни один из раскладов ({n}) не подходит к контракту",
    "{n} layout(s) fit of {drawn} drawn": "подошли расклады: {n} из {drawn}",
    "(the budget stopped the drawing)": "(время вышло: раскладов меньше)",
    "every layout ({n})": "все расклады ({n})",
    "tricks {t}": "взяток {t}", "make {p}": "выполнить {p}", "set {p}": "подсадить {p}", "catch {p}": "поймать {p}",
    "worth {w}": "выигрыш {w}",
    "not analysed: deal(s) {deals}: {why}": "не разобраны сдачи {deals}: {why}",
    "the hands are not recorded": "руки не записаны",
    "raspas": "распасы", "each can hold himself to: {each}": "каждый удержится на: {each}",
    "the play is not recorded": "розыгрыш не записан",
    "fewer than three hands play (a defender did not come): not analysed":
        "играют меньше трёх рук (защитник не пришёл): не разбирается",
    "the hands in play do not hold equal numbers of cards (the discard is not recorded)":
        "на руках неравное число карт (снос не записан)",
    "no deal with its hands recorded": "нет сдач с записанными руками",
    "no deal analysed": "ни одна сдача не разобрана",
    "a deal with a refused event is not analysed ({n} problem(s): vistlog validate lists them)":
        "сдачи с отклонёнными событиями не разбираются (ошибок: {n}; их перечисляет vistlog validate)",
    "no contract": "нет контракта",
    "card": "карта", "before": "до", "after": "после", "deal {n}": "сдача {n}",
    # past a budget: what the search proved
    "double-dummy {v} ({verdict})": "в открытую: {v} ({verdict})",
    "double-dummy: not decided within the budget": "в открытую: не решено за отведённое время",
    "at least {n} trick(s)": "не меньше {n} {genitive}", "at most {n} trick(s)": "не больше {n} {genitive}",
    "{low} to {high} tricks": "от {low} до {high} {genitive}",
    "not decided within the budget": "не решено за отведённое время",
    "not counted within the budget": "не посчитано за отведённое время",
    "the count past the budget": "счёт не закончен за отведённое время",
    "the contract now makeable": "контракт теперь играется",
    "the contract no longer makeable": "контракт больше не играется",
    "the cost not counted within the budget": "цена не посчитана за отведённое время",
}
