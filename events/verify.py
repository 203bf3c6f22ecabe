"""Proving a log: walk its hash chain (keyed or not) and say where it breaks, or that it holds up to a head
kept elsewhere."""

from __future__ import annotations

import sys

import attrs

from .chain import CHAIN_MESSAGES, KEYED, Chain, split_chain
from .journal import MAX_LINE
from .lines import _is_torn, open_source, read_lines
from .problems import LogUnreadable

__all__ = ["VerifyResult", "verify"]


@attrs.frozen
class VerifyResult:
    """What :func:`verify` found: ``status`` is ``ok``, ``broken``, ``unchained`` or ``keyed`` (a keyed
    chain and no key); ``code`` is the problem code when it is broken.

    ``head_at``: the line whose chain value is the remembered head given to :func:`verify`;
    ``since_head``: how many chained lines follow it. ``keyed_from``: with a key, the first line
    of the keyed chain (every line from there on had its ``_mac`` checked with the key; the lines
    before it carry only the plain chain, which anyone can recompute).
    """

    status: str
    lines: int
    chained: int
    head: str | None = None
    line: int | None = None
    message: str = ""
    head_at: int | None = None
    since_head: int = 0
    code: str | None = None
    keyed_from: int | None = None


def verify(path: str, head: str | None = None, key: bytes | None = None) -> VerifyResult:
    """Walk the chain of a log; the first line where it breaks is reported.

    Every line a reader uses is covered: a last line without a newline is skipped only when
    it is not whole JSON (a write that never finished). The file alone cannot show that
    lines were cut from its end. ``head``, the chain value printed by an earlier ``verify``
    (or the last line's ``_chain``), can: when no line of the intact chain carries it, the
    log is not the one that head was taken from, or lost lines at its end; the result is
    then ``broken``. ``head`` may be a unique prefix of the value (8 digits or more, as git
    takes commit ids); one that matches two lines is ``ambiguous``. A keyed chain (``_mac``
    lines, see :class:`Chain`) is proven only with its ``key``; without it the result is
    ``keyed``, and nothing is proven. With a ``key``, a log that has no keyed line at all is
    ``broken`` (``chain-not-keyed``): a plain chain can be rewritten by anyone, so the key proves
    nothing of it.
    """
    src = open_source(path)
    try:
        chain = Chain(key)
        total = 0
        head_at: int | None = None
        head_value = ""
        chained_at_head = 0
        torn_at: int | None = None
        keyed_from: int | None = None
        head = head.lower() if head is not None else None
        for lineno, line, torn in read_lines(src):
            total += 1
            if total == 1 and (torn or not line.lstrip().startswith(b"{") or _is_torn(line)):
                raise LogUnreadable(f"{path}:{lineno}: not a JSON Lines log (the first line is not a JSON object)")
            if torn:
                torn_at = lineno
                break
            if not line:
                return VerifyResult("broken", total, chain.chained, None, lineno,
                                    f"a line of over {MAX_LINE} bytes: the chain cannot be followed",
                                    code="line-too-long")
            content, value = split_chain(line)
            broken = chain.step(content, value)
            if keyed_from is None and chain.keyed:
                keyed_from = lineno
            if broken:
                return VerifyResult("broken", total, chain.chained - (value is not None), None, lineno,
                                    CHAIN_MESSAGES[broken], code=broken)
            if head is not None and value is not None and value.removeprefix(KEYED).startswith(head):
                if head_at is not None and value.removeprefix(KEYED) != head_value:
                    return VerifyResult("ambiguous", total, chain.chained, None, lineno,
                                        f"the head prefix {head} matches lines {head_at} and {lineno}: "
                                        "give more digits")
                if head_at is None:
                    head_at, chained_at_head, head_value = lineno, chain.chained, value.removeprefix(KEYED)
        if total == 0:
            raise LogUnreadable(f"{path}: empty, nothing to read")
        if not chain.began:
            return VerifyResult("unchained", total, 0)
        if chain.unchecked:
            return VerifyResult("keyed", total, chain.chained, None, None,
                                f"{chain.unchecked} line(s) carry a keyed chain (_mac): only its key can prove them")
        if key is not None and keyed_from is None:
            return VerifyResult("broken", total, chain.chained, None, None,
                                f"no line carries a keyed chain (_mac): the key proves nothing of this log "
                                f"({chain.chained} line(s) with a plain chain, which anyone can recompute)",
                                code="chain-not-keyed")
        if head is not None and head_at is None:
            return VerifyResult("broken", total, chain.chained, None, None,
                                f"the remembered head {head[:16]}… is on no line of this chain: lines were "
                                "removed from its end, or it is another log", code="chain-head-missing")
        note = "torn last line ignored: a write that never finished" if torn_at else ""
        return VerifyResult("ok", total, chain.chained, chain.state.hex(), torn_at, note, head_at,
                            chain.chained - chained_at_head if head_at is not None else 0,
                            keyed_from=keyed_from if key is not None else None)
    finally:
        if src is not sys.stdin.buffer:
            src.close()
