"""Text that is safe to show: on a terminal (no control characters) and in a spreadsheet (no formulas).

Names and free text come from logs that anybody may write; what vistlog prints of them must
not move the cursor, forge a line, or run as a spreadsheet formula.
"""

from __future__ import annotations

import unicodedata

__all__ = ["unsafe_characters", "printable", "neutral", "restored"]


def unsafe_characters(text: str) -> str:
    """The control and format characters of ``text`` (line breaks, escapes, bidi overrides), as names.

    >>> unsafe_characters("Аня"), unsafe_characters("A\\x1b[31m"), unsafe_characters("B\\u202e")
    ('', 'U+001B', 'U+202E')
    """
    if text.isprintable():
        return ""
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co")]
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
