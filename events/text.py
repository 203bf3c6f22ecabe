"""Text that is safe to show: on a terminal (no control characters) and in a spreadsheet (no formulas).

Names and free text come from logs that anybody may write; what vistlog prints of them must
not move the cursor, forge a line, or run as a spreadsheet formula.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import unicodedata

__all__ = ["unsafe_characters", "ignorable_characters", "printable", "neutral", "restored", "nearest"]

_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters that print
as nothing (joiners, variation selectors, fillers), so that two names holding them look alike."""


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
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.75)
    return f"; did you mean {close[0]}?" if close else ""
