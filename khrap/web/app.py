"""The ASGI app of ``khrap serve``: the pages, the create form's API, the rule sheet, records, the WebSocket.

Starlette (routing, static responses, WebSockets) on uvicorn.  Every file served is one of the
package's own, looked up by name in a fixed table: nothing a client sends is used as a path.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from khrap.bots import KINDS
from khrap.fairness import new_seed
from khrap.session.record import dumps
from khrap.variant.catalog import builtin_names, load_variant
from khrap.variant.loader import UPLOAD, VariantError, errors_of
from khrap.web import i18n
from khrap.web.host import MAX_MESSAGE, RATE, Host
from khrap.web.store import Store
from khrap.web.table import MAX_CLOCK, Table

STATIC = Path(__file__).resolve().parent / "static"
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}
FILES = {p.name: (p.read_bytes(), TYPES[p.suffix]) for p in STATIC.iterdir() if p.suffix in TYPES}
"""The page's files, read once at start: a request names one of these or gets 404."""
UPLOAD_BYTES = 256 * 1024
"""A house-rule file sent to the server (the loader's own per-file limit)."""
BODY_BYTES = UPLOAD_BYTES + 16 * 1024
MAX_TABLES = 10_000
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Refused(Exception):
    """A request that is not served: (status, message)."""


def _headers(extra: dict | None = None) -> dict:
    return {**SECURITY_HEADERS, **(extra or {})}


async def _body(request: Request) -> dict:
    """The request's JSON body, at most ``BODY_BYTES``."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > BODY_BYTES):
        raise Refused(413, f"a request is at most {BODY_BYTES // 1024} KiB")
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > BODY_BYTES:
            raise Refused(413, f"a request is at most {BODY_BYTES // 1024} KiB")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks))
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "the request must be JSON") from None
    if not isinstance(data, dict):
        raise Refused(400, "the request must be a JSON object")
    return data


def check_upload(text: str) -> tuple[Any, list[dict]]:
    """(variant, []) for a valid house-rule text, else (None, located mistakes), in the loader's upload
    mode: extends only built-ins, no paths, the size limits; the messages are ``khrap validate``'s."""
    if len(text.encode("utf-8", "surrogatepass")) > UPLOAD_BYTES:
        return None, [{"line": None, "col": None, "message": f"a house-rule file is at most {UPLOAD_BYTES // 1024} KiB",
                       "text": f"upload.yaml: a house-rule file is at most {UPLOAD_BYTES // 1024} KiB"}]
    try:
        return load_variant("upload.yaml", text=text, trust=UPLOAD), []
    except VariantError as err:
        return None, [{"line": e.line, "col": e.col, "message": e.message, "text": str(e)} for e in errors_of(err)]


def _int(data: dict, key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refused(400, f"`{key}` must be a whole number from {low} to {high}")
    return value


def create_app(db: str | Path = "khrap.sqlite", *, takeover_seconds: float = 60.0, bot_delay: float = 0.7,
               origins: tuple[str, ...] = (), seed_source: Callable[[], str] = new_seed,
               session_seed: Callable[[], int | None] = lambda: None, rate: float = RATE,
               first_dealer: Callable[[int], int] = secrets.randbelow) -> Starlette:
    """The app: tables in the SQLite file ``db``; absent players' seats are taken over after
    ``takeover_seconds``; bots wait ``bot_delay`` seconds before acting (so people can follow);
    ``origins``: pages on other origins allowed to open the WebSocket (the server's own always is);
    ``rate``: messages a second one connection may send; ``first_dealer(players)``: the seat that deals
    first at a new table (by lot; tests fix it)."""
    store = Store(db)
    drivers: dict[str, asyncio.Task] = {}
    wakers: dict[str, asyncio.TimerHandle] = {}

    def kick(table: Table) -> None:
        """Let the bots (and the next deal) move at ``table``: one driver task per table."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = drivers.get(table.id)
        if task is None or task.done():
            drivers[table.id] = loop.create_task(drive(table))
        deadline = host.next_deadline(table)
        old = wakers.pop(table.id, None)
        if old is not None:
            old.cancel()
        if deadline is not None:
            wakers[table.id] = loop.call_later(deadline - host.clock() + 0.05, lambda: wake(table))

    def wake(table: Table) -> None:
        host.broadcast(table)  # the table says the seat is played by a bot now; kick() follows

    async def drive(table: Table) -> None:
        """Bots act (each after ``bot_delay``) and deals begin, until a person is to act."""
        while True:
            try:
                if host.automated(table) is not None:
                    await asyncio.sleep(bot_delay)
                    if host.automated(table) is not None:
                        host.step(table)
                elif not host.start_if_ready(table):
                    break
            except Exception:  # a failed write: the table is as stored; try again later
                logging.getLogger("khrap.web").exception("table %s: an automatic step failed", table.id)
                await asyncio.sleep(1)

    host = Host(store, takeover_seconds=takeover_seconds, on_change=kick, seed_source=seed_source, rate=rate)

    async def page(request: Request) -> Response:
        return _file("table.html" if request.url.path == "/play" else "index.html")

    def _file(name: str) -> Response:
        found = FILES.get(name)
        if found is None:
            return Response("not found", 404, media_type="text/plain")
        body, kind = found
        return Response(body, media_type=kind, headers=_headers({"Cache-Control": "no-cache"}))

    async def static(request: Request) -> Response:
        return _file(request.path_params["name"])

    async def variants(request: Request) -> Response:
        rows = []
        for name in builtin_names():
            v = load_variant(name)
            rows.append({"name": name, "title": v.name, "players": [v.players.min, v.players.max],
                         "base_stake": v.base_stake})
        words = {lang: i18n.strings(lang) for lang in i18n.LANGS}
        return JSONResponse({"variants": rows, "bots": list(KINDS), "ui": words}, headers=_headers())

    async def validate(request: Request) -> Response:
        try:
            data = await _body(request)
            text = data.get("text")
            if not isinstance(text, str):
                raise Refused(400, "send the house rule's text as `text`")
        except Refused as err:
            return _refused(err)
        variant, errors = check_upload(text)
        if variant is None:
            return JSONResponse({"ok": False, "errors": errors}, headers=_headers())
        return JSONResponse({"ok": True, "title": variant.name, "players": [variant.players.min, variant.players.max],
                             "base_stake": variant.base_stake}, headers=_headers())

    async def create(request: Request) -> Response:
        try:
            data = await _body(request)
            if len(host.tables) >= MAX_TABLES:
                raise Refused(503, "this server has as many tables as it keeps; try later")
            text = data.get("text")
            if isinstance(text, str) and text.strip():
                variant, errors = check_upload(text)
                if variant is None:
                    return JSONResponse({"ok": False, "errors": errors}, headers=_headers())
                name, source = variant.name.get("en", "house rules")[:100], text
            else:
                name = data.get("variant")
                if name not in builtin_names():
                    raise Refused(400, f"`variant` must be one of {', '.join(builtin_names())}, or send `text`")
                variant, source = load_variant(name), None
            players = _int(data, "players", variant.players.min, 1, 16)
            bots_in = data.get("bots", {})
            if not isinstance(bots_in, dict) or len(bots_in) > 16:
                raise Refused(400, "`bots` maps seats to bot kinds")
            bots: dict[int, str] = {}
            for seat, kind in bots_in.items():
                if not (isinstance(seat, str) and seat.isdigit() and len(seat) < 3) or kind not in KINDS:
                    raise Refused(400, f"`bots` maps seats to one of {', '.join(KINDS)}")
                bots[int(seat)] = kind
            table = Table.create(
                variant, name=name, source=source, players=players,
                stacks=_int(data, "stacks", 100, 1, 1_000_000),
                base_stake=_int(data, "base_stake", variant.base_stake, 1, 1_000_000),
                bots=bots, deals=_int(data, "deals", 10, 1, 500), clock=_int(data, "clock", 0, 0, MAX_CLOCK),
                seed_source=seed_source, session_seed=session_seed(),
                dealer=first_dealer(players))  # the first dealer by lot, as the rule sheets say
        except Refused as err:
            return _refused(err)
        except ValueError as err:
            return JSONResponse({"ok": False, "errors": [{"line": None, "col": None, "message": str(err),
                                                           "text": str(err)}]}, headers=_headers())
        host.add(table)
        base = str(request.base_url).rstrip("/")
        return JSONResponse({
            "ok": True, "table": table.id, "fingerprint": table.setup["fingerprint"],
            "seats": [{"seat": i, "human": st.human, "bot": st.bot,
                       "link": f"{base}/play#{st.token}" if st.human else None} for i, st in enumerate(table.seats)],
            "spectator": f"{base}/play#{table.spectator_token}",
        }, headers=_headers())

    sheets: dict[tuple[str, str], str] = {}

    async def sheet(request: Request) -> Response:
        table = host.tables.get(request.path_params["table"])
        lang = request.query_params.get("lang", "en")
        if table is None:
            return Response("no such table", 404, media_type="text/plain")
        if lang not in i18n.LANGS:
            lang = "en"
        key = (table.id, lang)
        if key not in sheets:
            sheets[key] = await asyncio.get_running_loop().run_in_executor(None, _sheet, table, lang)
        return HTMLResponse(sheets[key], headers={"Referrer-Policy": "no-referrer",
                                                  "X-Content-Type-Options": "nosniff"})

    async def record(request: Request) -> Response:
        found = host.by_token.get(request.path_params["token"])
        if found is None:
            return Response("no such table", 404, media_type="text/plain")
        table = found[0]
        if not table.finished:
            return Response("the record can be downloaded once the session is over", 409, media_type="text/plain")
        return Response(dumps(table.record()), media_type="application/json", headers=_headers({
            "Content-Disposition": f'attachment; filename="khrap-{table.id}.json"'}))

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True  # not a browser (bots, the benchmark): a browser always sends its page's origin
        if origin in origins:
            return True
        return urlsplit(origin).netloc == ws.headers.get("host", "")

    async def socket(ws: WebSocket) -> None:
        if not origin_ok(ws):
            await ws.close(code=1008)  # before accept: the handshake is refused (403)
            return
        await ws.accept()
        conn = _Socket(ws)
        client = host.connect(conn)
        writer = asyncio.create_task(conn.pump())
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                host.receive(client, raw)
        except WebSocketDisconnect:
            pass
        finally:
            conn.closed = True
            conn.queue.put_nowait(None)
            host.disconnect(client)
            await writer

    routes = [
        Route("/", page), Route("/play", page), Route("/static/{name}", static),
        Route("/api/variants", variants), Route("/api/validate", validate, methods=["POST"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/sheet/{table}", sheet), Route("/record/{token}", record),
        WebSocketRoute("/ws", socket),
    ]
    app = Starlette(routes=routes)
    app.state.host = host
    app.state.store = store

    return app


def _refused(err: Refused) -> Response:
    status, message = err.args
    return JSONResponse({"ok": False, "errors": [{"line": None, "col": None, "message": message, "text": message}]},
                        status_code=status, headers=_headers())


def _sheet(table: Table, lang: str) -> str:
    """The rule sheet of the table's rules (as resolved, with its base stake), its fingerprint printed on it."""
    from khrap.rulebook.sheet import render_rules
    from khrap.variant.schema import Variant

    setup = table.setup
    builtin = setup["source"] is None and setup["name"] in builtin_names() and \
        load_variant(setup["name"]).model_dump(mode="json") == setup["rules"]
    ref = setup["name"] if builtin else Variant.model_validate(setup["rules"])
    text = render_rules(ref, "html", lang)
    stamp = (f'<p class="khrap-fingerprint" style="font-family:monospace;border:1px solid #888;padding:.3em .6em">'
             f'{html.escape(i18n.strings(lang)["fingerprint"])}: {html.escape(setup["fingerprint"])}</p>')
    at = text.find(">", text.find("<body")) + 1 if "<body" in text else 0
    return text[:at] + stamp + text[at:]


class _Socket:
    """A WebSocket as the host's connection: messages queue up and one task writes them in order."""

    MAX_QUEUED = 200

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue = asyncio.Queue()
        self.closed = False
        self.close_reason: str | None = None

    def send(self, message: dict) -> None:
        if self.closed:
            return
        if self.queue.qsize() > self.MAX_QUEUED:
            self.close("too slow")  # a reader that never reads does not grow the server
            return
        self.queue.put_nowait(json.dumps(message, ensure_ascii=False))

    def close(self, reason: str) -> None:
        if not self.closed:
            self.closed = True
            self.close_reason = reason
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                break
            try:
                await self.ws.send_text(text)
            except Exception:
                self.closed = True
                break
        if self.close_reason is not None:
            with contextlib.suppress(Exception):
                await self.ws.close(code=1008, reason=self.close_reason[:100])


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "khrap.sqlite", **kwargs: Any) -> None:
    """Run the server until interrupted."""
    import uvicorn

    app = create_app(db, **kwargs)
    uvicorn.run(app, host=host, port=port, ws_max_size=16 * MAX_MESSAGE, log_level="warning",
                proxy_headers=True, server_header=False)


__all__ = ["check_upload", "create_app", "serve"]
