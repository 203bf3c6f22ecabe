"""The hash chain of a log: each line's ``_chain`` (or keyed ``_mac``) field, the key file, and the running
state that proves no line before the last chained one was changed, added, removed or reordered.

Every line ``append`` writes ends with ``,"_chain":"<64 hex>"}``; the value is
``sha256(previous + line without the chain field)``, starting from 32 zero bytes, where
lines without a chain (hand-written ones before the first append) are absorbed as they are.
"""

from __future__ import annotations

from typing import Any, Final

from .problems import LogUnreadable

__all__ = [
    "CHAIN_FIELD", "GENESIS", "MAC_FIELD", "KEYED", "split_chain", "MAX_KEY", "read_key", "chain_step", "Chain",
    "CHAIN_MESSAGES",
]


CHAIN_FIELD: Final = "_chain"
GENESIS: Final = bytes(32)
_CHAIN_PREFIX: Final = b',"_chain":"'
_CHAIN_TAIL: Final = len(_CHAIN_PREFIX) + 64 + 2
MAC_FIELD: Final = "_mac"
_MAC_PREFIX: Final = b',"_mac":"'
_MAC_TAIL: Final = len(_MAC_PREFIX) + 64 + 2
KEYED: Final = "mac:"
"""How :func:`split_chain` marks the value of a keyed line (``_mac``)."""


def _sha256(data: bytes = b"") -> Any:
    """A SHA-256 of ``data`` (``hashlib`` is imported on first use: reading a log without a chain needs none)."""
    import hashlib

    return hashlib.sha256(data)


def _hmac_sha256(key: bytes, data: bytes) -> bytes:
    import hashlib
    import hmac

    return hmac.new(key, data, hashlib.sha256).digest()


def split_chain(line: bytes) -> tuple[bytes, str | None]:
    """Split a line (no line ending) into (content without the chain field, chain hex or None).

    The value of a keyed line (``_mac``) comes back marked ``mac:HEX``.
    """
    if len(line) > _CHAIN_TAIL and line.endswith(b'"}'):
        if line[-_CHAIN_TAIL:-66] == _CHAIN_PREFIX:
            return line[:-_CHAIN_TAIL] + b"}", line[-66:-2].decode("ascii", "replace")
        if line[-_MAC_TAIL:-66] == _MAC_PREFIX:
            return line[:-_MAC_TAIL] + b"}", KEYED + line[-66:-2].decode("ascii", "replace")
    return line, None


MAX_KEY: Final = 4096
"""The largest key file read (bytes): a longer one is refused, never read in part."""


def read_key(path: str) -> bytes:
    """The secret of a keyed chain, from a key file: all its bytes, a trailing newline left off
    (16 to :data:`MAX_KEY` bytes; a longer file is refused, so two keys that differ anywhere are
    two keys)."""
    try:
        with open(path, "rb") as fh:
            key = fh.read(MAX_KEY + 1)
    except OSError as exc:
        raise LogUnreadable(f"{path}: cannot read the key file ({exc.strerror or exc})") from None
    if len(key) > MAX_KEY:
        raise LogUnreadable(f"{path}: a key file holds at most {MAX_KEY} bytes; this one is longer "
                            "(is it the right file?)")
    key = key.rstrip(b"\r\n")
    if len(key) < 16:
        raise LogUnreadable(f"{path}: a key file holds at least 16 bytes of secret")
    return key


def chain_step(previous: bytes, content: bytes) -> bytes:
    """The next chain value: ``sha256(previous + content)``."""
    return _sha256(previous + content).digest()


class Chain:
    """Follows a log's hash chain line by line (every reader does, on the way).

    Lines without a chain before the first chained one are absorbed as they are; after it,
    every line must carry the chain. :meth:`step` says what is wrong with one line, if
    anything, and resynchronises on the line's own value, so each changed, inserted or
    removed line is reported once.

    A keyed line (``_mac``: HMAC-SHA256 with a secret key instead of SHA-256) is checked when
    the chain has the ``key``; without it, the chain follows the line's own value unchecked
    (``unchecked`` counts them). Once keyed lines began, a line chained without the key is a
    problem for a chain that has the key: somebody without it wrote there.

    >>> c = Chain()
    >>> value = chain_step(GENESIS, b'{"a":1}').hex()
    >>> c.step(b'{"a":1}', value), c.step(b'{"a":2}', None)
    (None, 'chain-missing')
    """

    __slots__ = ("began", "chained", "key", "keyed", "state", "unchecked")

    def __init__(self, key: bytes | None = None) -> None:
        self.state = GENESIS
        self.began = False
        self.chained = 0
        self.key = key
        self.keyed = False
        self.unchecked = 0

    def step(self, content: bytes, value: str | None) -> str | None:
        """Take one line's content (no chain field, no line ending) and its chain value."""
        if value is None and self.began:
            return "chain-missing"
        if value is not None and value.startswith(KEYED):
            return self._keyed(content, value[len(KEYED):])
        if value is not None and self.keyed and self.key is not None:
            self._resync(value, self.state)
            self.chained += 1
            return "chain-unkeyed"
        state = _sha256(self.state + content).digest()
        if value is None:
            self.state = state
            return None
        self.began = True
        self.chained += 1
        if state.hex() == value:
            self.state = state
            return None
        self._resync(value, state)
        return "chain-mismatch"

    def _keyed(self, content: bytes, value: str) -> str | None:
        self.began = self.keyed = True
        self.chained += 1
        if self.key is None:
            self.unchecked += 1
            self._resync(value, self.state)
            return None
        state = _hmac_sha256(self.key, self.state + content)
        if state.hex() == value:
            self.state = state
            return None
        self._resync(value, state)
        return "chain-mismatch"

    def _resync(self, value: str, fallback: bytes) -> None:
        try:
            self.state = bytes.fromhex(value)
        except ValueError:
            self.state = fallback


CHAIN_MESSAGES: Final = {
    "chain-mismatch": "chain mismatch: this line or one before it was changed, inserted, removed or reordered",
    "chain-missing": "a line without a chain after the chain began: inserted or changed",
    "chain-unkeyed": "a line chained without the key after the keyed chain began: written by someone without it",
}


def _content(raw: bytes) -> bytes:
    """A line without its ending and trailing blanks (how the chain sees it)."""
    return raw.rstrip(b" \t\r\n")
