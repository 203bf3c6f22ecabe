"""The pad's web server, safe by default: loopback only with the Host header checked (no DNS rebinding), no
framing by other sites, idle connections dropped, bodies bounded in size and time, a cap on open connections,
and the rest of what serving a page on a table's network takes (the token, the QR code, file names for
downloads). Nothing here knows a game: :mod:`vistlog.pad` is the page's application on top of it."""

from __future__ import annotations

import asyncio
import re
import secrets
import urllib.parse
from collections.abc import Awaitable, Callable
from typing import Any, Final

import orjson


__all__ = ["Guard", "SECURITY_HEADERS", "LOCAL_HOSTS", "attachment", "new_token", "IDLE_SECONDS", "MAX_CONNECTIONS",
           "BODY_SECONDS"]


LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""Addresses that reach only this machine: serving there needs no token."""


SECURITY_HEADERS: Final = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
"""Sent with every answer: no page of another site may frame the pad (a 1%-opacity frame over a button is how a
click is stolen), and the page runs only its own script and style."""


class Guard:
    """The pad's ASGI wrapper: before any handler runs, a pad on a loopback address answers only requests
    whose ``Host`` is a loopback name with its own port (a page on another name that resolves to 127.0.0.1 —
    DNS rebinding — gets 421 and reads nothing); every answer carries :data:`SECURITY_HEADERS`."""

    def __init__(self, app: Any, *, loopback: bool) -> None:
        self.app = app
        self.loopback = loopback

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def guarded(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *SECURITY_HEADERS]}
            await send(message)

        if self.loopback and not _loopback_host(scope):
            body = orjson.dumps({"error": "this score pad answers only http://localhost, http://127.0.0.1 or "
                                          "http://[::1] with its port (the Host header names another site)"})
            await guarded({"type": "http.response.start", "status": 421,
                           "headers": [(b"content-type", b"application/json"),
                                       (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, guarded)


_LOOPBACK_NAMES: Final = (b"localhost", b"127.0.0.1", b"[::1]")


def _loopback_host(scope: Any) -> bool:
    """The request's ``Host`` is a loopback name, with the port the server listens on (or none, for port 80)."""
    hosts = [v for k, v in scope.get("headers", ()) if k == b"host"]
    if len(hosts) != 1:
        return False
    host = hosts[0].lower()
    name, port = (host, b"") if host.endswith(b"]") or b":" not in host else host.rsplit(b":", 1)
    server = scope.get("server") or (None, None)
    if name not in _LOOPBACK_NAMES:
        return False
    if not port:
        return server[1] in (80, None)
    return (port.isascii() and port.isdigit()) and int(port) == server[1]


def attachment(name: str) -> str:
    """A ``Content-Disposition`` for a download named ``name`` in any script (RFC 6266: ``filename*`` in
    UTF-8, and an ASCII ``filename`` for old clients).

    >>> print(attachment("пулька.jsonl"))
    attachment; filename="_.jsonl"; filename*=UTF-8''%D0%BF%D1%83%D0%BB%D1%8C%D0%BA%D0%B0.jsonl
    """
    stem, dot, ext = name.rpartition(".") if "." in name else (name, "", "")
    plain = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "._-") else "_" for ch in stem)
    plain = re.sub("_+", "_", plain).lstrip(".") or "download"
    ext = "".join(ch for ch in ext if ch.isascii() and ch.isalnum())
    return f"attachment; filename=\"{plain}{dot}{ext}\"; filename*=UTF-8''{urllib.parse.quote(name, safe='')}"


def new_token() -> str:
    """A secret for a pad served beyond this machine."""
    return secrets.token_urlsafe(18)


IDLE_SECONDS: Final = 10.0
"""A connection must send a whole request within this many seconds of opening (or of its last answer, when it
has begun another): one that sends nothing, or a byte at a time, is dropped."""
MAX_CONNECTIONS: Final = 200
"""The most connections held at once; past it, the one idle longest is closed to make room (far below the
open-file limit: the server never runs out of files, and a flood of idle connections never shuts out the table)."""
BODY_SECONDS: Final = 60.0
"""The longest a request's body may take to arrive (a 16 MB upload on a slow phone link takes a few)."""


def _protocol() -> type:
    """uvicorn's HTTP/1.1 protocol, with a deadline on each request's arrival and a bound on connections."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):  # type: ignore[misc]
        _deadline: Any = None
        _since = 0.0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._since = self.loop.time()
            if len(self.connections) > MAX_CONNECTIONS:  # make room: the longest idle one goes, else this one
                idle = [c for c in self.connections if c is not self and isinstance(c, Protocol) and not c._busy()]
                victim = min(idle, key=lambda c: c._since) if idle else self
                victim.transport.close()
                if victim is self:
                    return
            self._watch()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._stop()  # the keep-alive timeout (5 s) drops it now, unless another request begins

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop()
            super().connection_lost(exc)

        def _busy(self) -> bool:
            return self.cycle is not None and not self.cycle.response_complete

        def _watch(self) -> None:
            if self._busy():
                self._stop()
            elif self._deadline is None and not self.transport.is_closing():
                self._deadline = self.loop.call_later(IDLE_SECONDS, self._expire)

        def _stop(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if not self._busy() and not self.transport.is_closing():
                self.transport.close()

    return Protocol


def _quiet_loop_errors(say: Callable[[str], None]) -> Callable[[Any, dict[str, Any]], None]:
    """The event loop's error handler: one line per kind of error, at most once a minute (an accept loop out of
    files would otherwise write a traceback for every try)."""
    import time

    last: dict[str, float] = {}

    def handler(loop: Any, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        what = f"{context.get('message', 'error')}" + (f": {type(exc).__name__}: {exc}" if exc else "")
        now = time.monotonic()
        if now - last.get(what, -1e9) >= 60:
            last[what] = now
            say(f"vistlog serve: {what}")

    return handler


class Stopped(Exception):
    """A process run :func:`beside` the server was stopped: ``why`` is ``stopping`` (the server is), ``gone`` (the
    asker left), ``late`` (its time was up) or ``died`` (it ended without an answer: past its own limits)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


async def beside(module: str, question: Any, seconds: float, running: set[Any], stopping: Callable[[], bool],
                 gone: Callable[[], Awaitable[bool]]) -> Any:
    """Ask ``python -m MODULE`` one question (JSON on its standard input) and return its answer (JSON on its
    standard output), the server answering everything else meanwhile: the process is in ``running`` while it
    runs, and killed as soon as ``stopping()`` or ``await gone()`` says so or ``seconds`` have passed
    (:class:`Stopped`). A slow path of the server bounded in time; the module bounds its own memory."""
    import sys

    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", module, stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    running.add(proc)
    try:
        work = asyncio.ensure_future(proc.communicate(orjson.dumps(question)))
        deadline = asyncio.get_running_loop().time() + seconds
        while not work.done():
            await asyncio.wait({work}, timeout=0.2)
            if work.done():
                break
            if stopping():
                raise Stopped("stopping")
            if await gone():
                raise Stopped("gone")
            if asyncio.get_running_loop().time() > deadline:
                raise Stopped("late")
        out, _ = work.result()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        running.discard(proc)
    try:
        return orjson.loads(out)
    except orjson.JSONDecodeError:
        raise Stopped("died") from None


class HttpError(Exception):
    """A request refused, with its status and reason (and the problems, field by field)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


async def read_body(request: Any, limit: int) -> bytes:
    """The request's body, at most ``limit`` bytes (413) and within :data:`BODY_SECONDS` (408)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not (declared.isascii() and declared.isdigit()) or int(declared) > limit):
        raise HttpError(413, f"the body is over {limit} bytes")
    chunks: list[bytes] = []
    size = 0

    async def read() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise HttpError(413, f"the body is over {limit} bytes")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), BODY_SECONDS)
    except TimeoutError:
        raise HttpError(408, f"the body did not arrive within {BODY_SECONDS:.0f} seconds") from None
    return b"".join(chunks)


def _open_files_limit() -> None:
    """Raise this process's open-file limit to what the system allows (the connections stay far below it)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or hard > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536) if hard != resource.RLIM_INFINITY
                                                        else 65536, hard))
    except (ImportError, ValueError, OSError):
        pass


def _qr_rows(text: str) -> list[str]:
    """``text`` as a QR code in the terminal (two rows of modules a line), for a phone's camera."""
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n").split("\n")
