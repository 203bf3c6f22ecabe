"""The score pad: ``vistlog serve LOG``, a local web page over one chained log.

A Starlette application (served by uvicorn) over one :class:`~vistlog.api.Recorder`: the page
records a game, a deal at a time, as a line of the deal notation (``docs/notation.md``) that it
composes from taps; the same state machine as ``vistlog append`` checks it before anything is
written. What the page shows (the drawn пулька, the settlement, the deals, their replay) is
rendered from the public API, as any other client would.

Safety: the server reads and writes only its log (and the log's journal); every write is a
JSON ``POST`` carrying the header ``X-Vistlog-Pad`` (a page of another site cannot send one
without the server's consent, which it never gives) and, when the server listens beyond this
machine, the secret token printed with its address. Bodies are limited in size; a bad
request gets a 4xx with its reason in words, never a traceback.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hmac
import os
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Final

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.concurrency import iterate_in_threadpool
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from . import archive, views
from .api import (
    FORMATS_IN, AppendConflict, AppendRejected, Game, LiveFold, LogBusy, NotationError, Recorder, VistlogError,
    default_budget, kind_name,
)
from .guard import (
    HttpError, Stopped, beside, read_body,
    IDLE_SECONDS, LOCAL_HOSTS, MAX_CONNECTIONS, SECURITY_HEADERS, Guard, _open_files_limit, _protocol,
    _qr_rows, _quiet_loop_errors, attachment, new_token,
)
from .output import OutputError, dumps
from .padview import BUSY, CONFLICT, NOTHING_WRITTEN, VIEW_DEALS, game_json, table_json
from vistlog.recording import DealDraft, DraftError, log_chunks, next_seq_of, read_draft

__all__ = ["Pad", "make_app", "VIEW_DEALS", "Guard", "attachment", "SECURITY_HEADERS", "MAX_BODY", "MAX_UPLOAD",
           "LOCAL_HOSTS", "IDLE_SECONDS", "MAX_CONNECTIONS"]

STATIC = Path(__file__).with_name("static")
MAX_BODY = 64 * 1024
"""The largest JSON request body (a deal, a game, an adjustment) in bytes."""
MAX_UPLOAD = 4 * 1024 * 1024
"""The largest file the page may upload for import, in bytes: import holds one of any format in well under
150 MB (``bench/import_memory.py`` measures it: 66 MB for a 4 MB protocol CSV, 78 MB for a 4 MB PBN; a
larger archive is imported with ``vistlog import``)."""
MAX_DRAFT = 2000
"""The longest draft line the page may ask about (``GET /api/next``), in characters."""
_ASSETS = {"pad.js": "text/javascript", "pad.css": "text/css", "pad.html": "text/html",
           "viewer.js": "text/javascript", "viewer.css": "text/css"}
_TOKEN_HEADER = "x-vistlog-token"
_PAD_HEADER = "x-vistlog-pad"
_COOKIE = "vistlog_token"


WRITE_WAIT: Final = 3.0
"""How long a write from the page waits for another writer's lock on the log (an import, ``vistlog append``)
before it says the log is busy, in seconds."""
ANALYSIS_SECONDS: Final = 30.0
"""How long one deal's analysis may run beside the server (``vistlog serve --analysis-seconds``)."""
ANALYSIS_MEMORY: Final = 2 << 30
"""How much memory one deal's analysis may take, in bytes (``vistlog serve --analysis-memory``, in MB)."""
ANALYSES: Final = 2
"""How many analyses run at once (one a core of a small machine); one more is told to wait."""


class Pad:
    """The score pad's state: the log, its recorder, and the log folded by the recorder's own checks.

    Writes go through one lock and the log's own (so a ``vistlog append`` in another terminal is safe
    too), waiting :data:`WRITE_WAIT` seconds at most for another writer; a write is tried first, then checked
    once, and that verdict is what the view folds. Reads never wait on another process's writer: they read
    the log without its lock, up to where an append under way began, and never change it; they wait only
    while a write of this pad feeds the fold (its own events, a deal: milliseconds). The view is made again
    only when the log changed.
    """

    def __init__(self, log: str | os.PathLike[str], *, key_file: str | os.PathLike[str] | None = None,
                 token: str | None = None, warn: Callable[[str], None] | None = None,
                 analysis_seconds: float = ANALYSIS_SECONDS, analysis_memory: int = ANALYSIS_MEMORY,
                 analysis_budget: float | None = None, analysis_exact: bool = False) -> None:
        self.log = os.fspath(log)
        self.key_file = key_file
        self.token = token
        self.analysis_seconds = analysis_seconds
        self.analysis_memory = analysis_memory
        self.analysis_budget: float | None = None if analysis_exact else (
            analysis_budget if analysis_budget is not None else default_budget())
        """The seconds of open-hand search a deal may take (``analyse``'s default unless given; ``None``: every
        count exact, within ``analysis_seconds``)."""
        self.analyses: set[Any] = set()
        """The analyses running beside the server (their processes)."""
        self.stopping = False
        """The server was told to stop (its analyses stop at once)."""
        self.recorder = Recorder(self.log, key_file=key_file, warn=warn, wait=WRITE_WAIT, live=True)
        """What the page's writes go through (under :attr:`lock`), and its reads look through: one checker, whose
        verdict on a write is what the view folds (issue 59: one check per write)."""
        self.live: LiveFold = self.recorder.live  # type: ignore[assignment]
        """The log folded as it grows, by the recorder's own checks: a look after a deal folds only that deal."""
        self.lock = threading.Lock()  # held by every write: at most WRITE_WAIT seconds more than the write itself
        self.view_lock = self.live.guard
        """Held while the fold is read or fed (a next step asked, a write checked), never while a write waits for
        the log's own lock nor while a view is made."""
        self._views: dict[tuple[str, str, bool], dict[str, Any]] = {}
        """Each game's view as last made (by game, language, and whether all its deals are in it)."""
        self._made: dict[str, int] = {}
        """How many times each game changed: a view made meanwhile is not kept."""
        if os.path.exists(self.log):  # read the log now: a keyed log without its key is refused at start,
            self.live.update()        # and the first deal recorded costs that deal, not a replay of the log

    # ------------------------------------------------------------------ reading

    def seq(self) -> int:
        """The next ``seq`` of the log, read from its last event alone: no lock, whatever else is going on."""
        return next_seq_of(self.log)

    def state(self, game: str | None, lang: views.Lang = "ru", every: bool = False) -> dict[str, Any]:
        """What the page shows: the games, and the chosen (or last) one in full, its texts in ``lang``: its last
        :data:`VIEW_DEALS` deals, or ``every`` deal; ``at``, the position of the log it was read at (the page
        sends it back with a write, which is refused once the log is anywhere else)."""
        with self.view_lock:
            tables = self.recorder.tables()
            seq = self.recorder.next_seq
            at = self.recorder.position
            self.look()
            order = self.live.order
            chosen = game if game in order else (order[-1] if order else None)
            games = [self._summary(g, g in tables) for g in order]
            problems = [str(p) for ps in self.live.problems.values() for p in ps]
            table = tables.get(chosen) if chosen is not None else None
            nx = views.next_step(self.recorder.next_step(chosen), lang) if table is not None else None
        full = self._game_view(chosen, lang, every) if chosen is not None else None  # a write goes on beside it
        out: dict[str, Any] = {"log": os.path.basename(self.log), "seq": seq, "at": at, "games": games,
                               "problems": problems, "game": None}
        if full is not None:
            out["game"] = {**full, "table": {**table_json(table, lang), "next": nx} if table is not None else None}
        return out

    def look(self) -> None:
        """Read what was appended since the last look (under :attr:`view_lock`); the changed games' views go."""
        for changed in self.live.update():
            self._made[changed] = self._made.get(changed, 0) + 1
            for key in [k for k in self._views if k[0] == changed]:
                del self._views[key]

    def _summary(self, game: str, under_way: bool) -> dict[str, Any]:
        ended = game in self.live.ended
        started = self.live.ended[game].started if ended else self.live.pipe.folds[game].started
        return {"id": game, "players": list(started.players), "kind": kind_name(started.kind),
                "variant": started.rules.variant, "preset": started.rules.preset, "ended": ended,
                "under_way": under_way}

    def _game_view(self, game: str, lang: views.Lang, every: bool) -> dict[str, Any] | None:
        """``game``'s view: its result taken under :attr:`view_lock`, made outside it (writes go on meanwhile)."""
        key = (game, lang, every)
        with self.view_lock:
            if key in self._views:
                return self._views[key]
            result = self.live.result(game)
            if result is None:
                return None
            taken, made = Game(result, tuple(self.live.problems.get(game, ()))), self._made.get(game, 0)
        view = game_json(taken, lang, every)
        with self.view_lock:
            if self._made.get(game, 0) == made:
                self._views[key] = view
        return view

    def next_step(self, game: str | None, line: str, chosen: Mapping[str, Any], lang: views.Lang = "ru",
                  draft: str | None = None, tricks: str | None = None) -> dict[str, Any]:
        """What may come next in ``game`` with the deal the page is composing (``draft``: the deal as data,
        JSON of a :class:`~vistlog.api.DealDraft`; or ``line``, a deal in the notation; and what the form chose
        that the deal cannot say yet): :meth:`vistlog.api.Recorder.next_step`, in ``lang``. With a draft, the
        answer's ``line`` is the deal in the notation in ``lang`` (what the page shows), with ``tricks`` (JSON of
        the draft's ``tricks`` and ``last``, which the question itself leaves out) when given."""
        if len(line) > MAX_DRAFT or len(draft or "") + len(tricks or "") > 4 * MAX_DRAFT:
            raise HttpError(413, f"a draft line is at most {MAX_DRAFT} characters")
        deal = self._draft(draft) if draft else None
        shown = deal
        if deal is not None and tricks:
            try:
                extra = orjson.loads(tricks)
            except orjson.JSONDecodeError:
                extra = None
            if not isinstance(extra, dict) or set(extra) - {"tricks", "last"}:
                raise HttpError(400, "tricks: a JSON object of the draft's tricks and who took the last")
            shown = self._draft({**orjson.loads(draft or "{}"), **extra})
        with self.view_lock:
            try:
                nx = self.recorder.next_step(game, line, declarer=chosen.get("declarer"),
                                             contract=chosen.get("contract"), all_pass=bool(chosen.get("all_pass")),
                                             auction=bool(chosen.get("auction")), draft=deal)
                said = views.next_step(nx, lang)
                if shown is not None:
                    table = self.recorder.table(game)
                    with contextlib.suppress(VistlogError):
                        said["line"] = views.deal_text(shown.events(table), lang, table.variant,
                                                       dealer=table.dealer is None)
            except VistlogError as exc:
                raise HttpError(404, str(exc)) from None
        return said

    @staticmethod
    def _draft(text: str | Mapping[str, Any]) -> DealDraft:
        try:
            return read_draft(orjson.loads(text) if isinstance(text, str) else text)
        except orjson.JSONDecodeError:
            raise HttpError(400, "draft: the deal as a JSON object") from None
        except DraftError as exc:
            raise HttpError(400, str(exc)) from None

    # ------------------------------------------------------------------ writing

    def record(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Record what the page sends: ``{"game", "expect_seq", "expect_at", "deal"}`` (a deal as data: a
        :class:`~vistlog.api.DealDraft`, what the form composes; the answer's ``line`` is it in the notation, in
        the page's language), ``{…, "line"}`` (a deal typed in the notation,
        ``void N``, ``end``) or ``{"game", "expect_seq", "expect_at", "events"}`` (a game's start, an adjustment);
        ``expect_at`` is the ``at`` of the state the page showed (the write is refused once the log moved on or
        was rewritten since)."""
        expect = body.get("expect_seq")
        if expect is not None and (not isinstance(expect, int) or isinstance(expect, bool) or expect < 1):
            raise HttpError(400, "expect_seq: a positive integer (the seq the page saw as next)")
        at = body.get("expect_at")
        if at is not None and (not isinstance(at, str) or len(at) > 100):
            raise HttpError(400, "expect_at: the position the page read the log at (its state's at)")
        stamp = {"at": _now()}
        by = body.get("by")
        if isinstance(by, str) and by.strip():
            stamp["by"] = by.strip()[:100]
        game = body.get("game")
        if game is not None and not isinstance(game, str):
            raise HttpError(400, "game: a game id (text)")
        line, events, sent = body.get("line"), body.get("events"), body.get("deal")
        lang: views.Lang = "en" if body.get("lang") == "en" else "ru"
        deal = self._draft(sent) if sent is not None else None
        with self.lock:
            try:
                if deal is not None:
                    done = self.recorder.record_deal(deal, game=game, expect_seq=expect, stamp=stamp, expect_at=at)
                elif isinstance(line, str):
                    done = self.recorder.record_line(line, game=game, expect_seq=expect, stamp=stamp, expect_at=at)
                elif isinstance(events, list) and events and all(isinstance(e, dict) for e in events):
                    if len(events) > 100:
                        raise HttpError(413, "at most 100 events at once")
                    done = self.recorder.record([{**e, **stamp} for e in events], expect_seq=expect, source="<pad>",
                                                expect_at=at)
                else:
                    raise HttpError(400, "send a deal (an object), a line (a deal in the notation) or events (a list "
                                         "of objects)")
            except AppendConflict as exc:
                raise HttpError(409, CONFLICT[lang]["rewritten" if exc.rewritten else "first"].format(
                    actual=exc.actual, expected=exc.expected), seq=exc.actual, rewritten=exc.rewritten) from None
            except LogBusy:
                raise HttpError(503, BUSY[lang], busy=True) from None
            except NotationError as exc:
                said = views.notation_message(exc, lang)
                raise HttpError(422, said, problems=[{"field": "line", "message": said, "code": exc.code}]) from None
            except AppendRejected as exc:
                problems = [{"field": p.field, "message": views.problem_message(p.code, p.message, lang),
                             "code": p.code} for p in exc.problems]
                raise HttpError(422, "; ".join(f"{p['field']}: {p['message']}" if p["field"] else p["message"]
                                               for p in problems) + NOTHING_WRITTEN[lang],
                                problems=problems) from None
            except VistlogError as exc:
                raise HttpError(422, str(exc)) from None
            seq = self.recorder.next_seq
        shown = views.deal_text(done, lang, self.recorder.table(done[0].game).variant, dealer=deal.dealer is not None) \
            if deal is not None and done else None
        return {"recorded": [{"seq": e.seq, "type": e.type} for e in done], "seq": seq,
                **({"line": shown} if shown is not None else {})}

    def upload(self, data: bytes, fmt: str, name: str) -> dict[str, Any]:
        """Import a file of another program (the body) into the log, as ``vistlog import`` does."""
        if fmt not in FORMATS_IN:
            raise HttpError(400, f"format: one of {', '.join(FORMATS_IN)}, not {fmt!r}")
        safe = "".join(ch for ch in os.path.basename(name) if ch.isascii() and (ch.isalnum() or ch in "._-"))
        safe = safe.lstrip(".")[:80] or "upload"  # never "", "." or "..": a file of its own in the folder
        with tempfile.TemporaryDirectory(prefix="vistlog-upload-") as folder:
            path = os.path.join(folder, safe)
            with open(path, "wb") as fh:
                fh.write(data)
            try:  # under the log's own lock, not the pad's: the table records on while a file is read
                outcome = archive.import_files(fmt, [path], self.log, key_file=self.key_file)
            except AppendRejected as exc:
                raise HttpError(422, "; ".join(str(p) for p in exc.problems)) from None
            except VistlogError as exc:
                raise HttpError(422, str(exc)) from None
        refused = {g: [str(p) for p in ps] for g, ps in outcome.refused.items()}
        return {"imported": list(outcome.imported), "refused": refused,
                "unreadable": [line.replace(folder, "") for line in outcome.unreadable]}


def _lang(request: Request) -> views.Lang:
    """The page's language (``?lang=ru|en``; Russian by default, as the page)."""
    return "en" if request.query_params.get("lang") == "en" else "ru"


def _now() -> str:
    return _dt.datetime.now().astimezone().isoformat(timespec="seconds")


# ---------------------------------------------------------------------------- the application

def make_app(pad: Pad) -> Starlette:
    """The Starlette application of ``pad``: the page, its assets and its JSON endpoints.

    Longer than 80 lines on purpose: each endpoint is a few lines closing over ``pad`` and the one
    ``guard`` (token, origin, errors), and they read best as the route table they make, side by side."""

    def guard(handler: Callable[[Request], Awaitable[Response]], *, write: bool = False
              ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                _check_token(pad, request)
                if write:
                    _check_write(request)
                return await handler(request)
            except HttpError as exc:
                return JSONResponse({"error": str(exc), **exc.extra}, status_code=exc.status)
            except OutputError as exc:
                return JSONResponse({"error": str(exc)}, status_code=503)
            except Exception as exc:  # noqa: BLE001 - a request never sees a traceback; the server goes on
                print(f"vistlog serve: internal error on {request.url.path}: {type(exc).__name__}: {exc}",
                      file=sys.stderr)
                return JSONResponse({"error": f"internal error ({type(exc).__name__}); the log is unchanged"},
                                    status_code=500)
        return endpoint

    async def page(request: Request) -> Response:
        response: Response = FileResponse(STATIC / "pad.html", media_type="text/html; charset=utf-8")
        if pad.token and request.query_params.get("token") == pad.token:
            response.set_cookie(_COOKIE, pad.token, httponly=True, samesite="strict")
        return response

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _ASSETS:
            raise HttpError(404, f"no asset {name!r}")
        return FileResponse(STATIC / name, media_type=f"{_ASSETS[name]}; charset=utf-8")

    async def version(request: Request) -> Response:
        return JSONResponse({"seq": await _run(pad.seq)})

    async def state(request: Request) -> Response:
        game = request.query_params.get("game")
        return _json(await _run(pad.state, game, _lang(request), request.query_params.get("all") == "1"))

    async def next_step(request: Request) -> Response:
        q = request.query_params
        chosen = {"declarer": q.get("declarer") or None, "contract": q.get("contract") or None,
                  "all_pass": q.get("all_pass") == "1", "auction": q.get("auction") == "1"}
        return _json(await _run(pad.next_step, q.get("game"), q.get("line", ""), chosen, _lang(request),
                                q.get("draft"), q.get("tricks")))

    async def rules(request: Request) -> Response:
        preset = request.path_params["preset"]
        try:
            rows = views.rules_rows(preset, _lang(request))
            return _json({**rows, "start": {"type": "game_started", "kind": rows["kind"]}})
        except VistlogError as exc:
            raise HttpError(404, str(exc)) from None

    async def presets(request: Request) -> Response:
        lang = _lang(request)
        names = views.preset_names()
        return _json({"presets": list(names), "text": views.presets_text(), "formats": list(FORMATS_IN),
                      "labels": {p: views.preset_label(p, lang) for p in names}})

    async def record(request: Request) -> Response:
        body = await read_body(request, MAX_BODY)
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError as exc:
            raise HttpError(400, f"the body is not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise HttpError(400, "the body must be a JSON object")
        return _json(await _run(pad.record, data))

    async def upload(request: Request) -> Response:
        data = await read_body(request, MAX_UPLOAD)
        fmt = request.query_params.get("format", "")
        return _json(await _run(pad.upload, data, fmt, request.query_params.get("name", "upload")))

    async def download(request: Request) -> Response:
        what = request.path_params["what"]
        game = request.query_params.get("game")
        if what == "log":
            try:
                size, chunks = log_chunks(pad.log)
            except FileNotFoundError:
                raise HttpError(404, "the log is empty: nothing recorded yet") from None
            return StreamingResponse(iterate_in_threadpool(chunks), media_type="application/x-ndjson",
                                     headers={"content-disposition": attachment(os.path.basename(pad.log)),
                                              "content-length": str(size)})
        g = await _run(_game, pad, game)
        if what == "html":
            return Response(views.html(g, lang=_lang(request)), media_type="text/html; charset=utf-8",
                            headers={"content-disposition": attachment(f"{_file(g.id)}.html")})
        if what == "csv":
            return Response(views.sheet_csv([g]), media_type="text/csv; charset=utf-8",
                            headers={"content-disposition": attachment(f"{_file(g.id)}.csv")})
        raise HttpError(404, f"nothing to download as {what!r} (log, html, csv)")

    async def analysis(request: Request) -> Response:
        game, deal = request.query_params.get("game"), request.query_params.get("deal", "")
        if not (deal.isascii() and deal.isdigit() and len(deal) <= 6):
            raise HttpError(400, "deal: a deal number (1 to 999999) is needed")
        weigh = request.query_params.get("single_dummy") == "1"
        chosen = await _run(_game_id, pad, game)
        spec = {"log": os.path.abspath(pad.log), "game": chosen, "deal": int(deal), "single_dummy": weigh,
                "lang": _lang(request), "samples": PAD_SAMPLES, "budget": pad.analysis_budget,
                "seconds": pad.analysis_seconds,
                "memory": pad.analysis_memory}
        return _json(await _beside(pad, request, spec))

    async def sheet(request: Request) -> Response:
        upto = request.query_params.get("upto", "")
        if not (upto.isascii() and upto.isdigit() and len(upto) <= 6):
            raise HttpError(400, "upto: a deal number (1 to 999999) is needed")
        g = await _run(_game, pad, request.query_params.get("game"))
        return _json({"svg": await _run(views.svg, g, int(upto), _lang(request))})

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", guard(page)),
        Route("/favicon.ico", favicon),
        Route("/static/{name}", guard(asset)),
        Route("/api/version", guard(version)),
        Route("/api/state", guard(state)),
        Route("/api/next", guard(next_step)),
        Route("/api/analysis", guard(analysis)),
        Route("/api/sheet", guard(sheet)),
        Route("/api/presets", guard(presets)),
        Route("/api/rules/{preset}", guard(rules)),
        Route("/api/record", guard(record, write=True), methods=["POST"]),
        Route("/api/upload", guard(upload, write=True), methods=["POST"]),
        Route("/download/{what}", guard(download)),
    ]
    app = Starlette(routes=routes)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        return JSONResponse({"error": f"{request.method} {request.url.path}: "
                                      f"{'no such page' if status == 404 else 'not allowed here'}"},
                            status_code=status)

    app.add_exception_handler(404, not_found)
    app.add_exception_handler(405, not_found)
    return Guard(app, loopback=pad.token is None)  # type: ignore[return-value]


async def _run(func: Callable[..., Any], *args: Any) -> Any:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(func, *args)


def _json(data: Any) -> Response:
    return Response(dumps(data, indent=False).encode(), media_type="application/json")


def _file(game: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in game)[:100].lstrip(".") or "game"


PAD_SAMPLES = 60
"""Layouts a decision when the pad's replay asks what the players could know (a few seconds a deal with the
compiled search; the command line's default is 200)."""


async def _beside(pad: Pad, request: Request, spec: dict[str, Any]) -> Any:
    """One deal of the open-hand analysis (``analyse --format json``'s deal object), asked for when the replay
    viewer shows the values, computed beside the server (:mod:`vistlog._beside`, :func:`~vistlog.guard.beside`):
    killed when the page leaves, after ``pad.analysis_seconds`` or when the server stops; it cannot take more
    than ``pad.analysis_memory``."""
    if len(pad.analyses) >= ANALYSES:
        raise HttpError(503, f"{ANALYSES} analyses are running already: try again when one has finished")
    try:
        answer = await beside("vistlog._beside", spec, pad.analysis_seconds, pad.analyses,
                              lambda: pad.stopping, request.is_disconnected)
    except Stopped as exc:
        why = {"stopping": "the server is stopping: the analysis was stopped",
               "gone": "the page left: the analysis was stopped",
               "late": f"deal {spec['deal']}: the analysis took over {pad.analysis_seconds:g} s and was stopped "
                       "(vistlog analyse has no such limit)",
               "died": f"deal {spec['deal']}: the analysis stopped (over its {pad.analysis_seconds:g} s or "
                       f"{pad.analysis_memory >> 20} MB)"}[exc.why]
        raise HttpError(499 if exc.why == "gone" else 503, why) from None
    if answer["status"] != 200:
        raise HttpError(answer["status"], answer["error"])
    return answer["body"]


def _game_id(pad: Pad, game: str | None) -> str:
    """The id of ``game`` in the pad's log (the last one when None), or 404."""
    return _game(pad, game).id


def _game(pad: Pad, game: str | None) -> Game:
    """A game of the pad's log as folded so far (the last one when ``game`` is None)."""
    with pad.view_lock:
        pad.look()
        order = pad.live.order
        chosen = game if game is not None else (order[-1] if order else None)
        result = pad.live.result(chosen) if chosen is not None else None
        if result is None:
            raise HttpError(404, f"no game {game!r} in the log")
        return Game(result, tuple(pad.live.problems.get(chosen or "", ())))


def _check_token(pad: Pad, request: Request) -> None:
    if not pad.token:
        return
    given = (request.headers.get(_TOKEN_HEADER) or request.query_params.get("token")
             or request.cookies.get(_COOKIE) or "")
    if not hmac.compare_digest(given.encode(), pad.token.encode()):
        raise HttpError(403, "this score pad needs its token: open the address the server printed")


def _check_write(request: Request) -> None:
    """A write comes from the pad's own page: its header, a JSON or file body, and no foreign origin."""
    if request.headers.get(_PAD_HEADER) != "1":
        raise HttpError(403, "a write must come from the score pad's page (header X-Vistlog-Pad)")
    origin = request.headers.get("origin")
    if origin is not None and origin != "null":
        host = request.headers.get("host", "")
        if origin.split("://", 1)[-1] != host:
            raise HttpError(403, f"a write from another site ({origin}) is refused")


def serve(log: str, *, host: str = "127.0.0.1", port: int = 8765, key_file: str | None = None,
          open_browser: bool = False, say: Callable[[str], None] = print,
          analysis_seconds: float = ANALYSIS_SECONDS, analysis_memory: int = ANALYSIS_MEMORY,
          analysis_budget: float | None = None, analysis_exact: bool = False) -> None:
    """Run the score pad until interrupted (what ``vistlog serve`` does): Ctrl+C or SIGTERM stops it within a
    few seconds, whatever it is doing (an analysis running beside it is killed)."""
    import asyncio
    import socket

    import uvicorn

    token = None if host in LOCAL_HOSTS else new_token()
    pad = Pad(log, key_file=key_file, token=token, warn=lambda m: say(m), analysis_seconds=analysis_seconds,
              analysis_memory=analysis_memory, analysis_budget=analysis_budget, analysis_exact=analysis_exact)
    app = make_app(pad)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    actual = sock.getsockname()[1]
    shown = "localhost" if host in LOCAL_HOSTS else (f"[{host}]" if ":" in host else host)
    address = f"http://{shown}:{actual}/" + (f"?token={token}" if token else "")
    say(f"vistlog serve: the score pad over {log} at {address}")
    if token:
        say("  other devices at the table open that address (the token is its key); a request without it gets 403")
        for row in _qr_rows(address):
            say("  " + row)
    say("  Ctrl+C stops it")
    if open_browser:
        import webbrowser

        threading.Timer(0.5, webbrowser.open, args=(address,)).start()
    _open_files_limit()
    config = uvicorn.Config(app, log_level="warning", access_log=False, http=_protocol(), timeout_keep_alive=5,
                            h11_max_incomplete_event_size=16 * 1024, timeout_graceful_shutdown=2)
    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            pad.stopping = True  # an analysis under way is stopped at once, not waited for
            super().handle_exit(sig, frame)

    server = Server(config)

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(
            _quiet_loop_errors(lambda m: print(m, file=sys.stderr, flush=True)))
        try:
            await server.serve(sockets=[sock])
        finally:
            for proc in list(pad.analyses):
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()

    asyncio.run(main())


