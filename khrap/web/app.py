"""The ASGI app of ``khrap serve``: the pages, the create form's API, the rule sheet, records, the WebSocket.

Starlette (routing, static responses, WebSockets) on uvicorn.  Every file served is one of the
package's own, looked up by name in a fixed table: nothing a client sends is used as a path.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import hashlib
import html
import json
import logging
import os
import re
import secrets
import sqlite3
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from khrap.bots import CHOICES, KINDS
from khrap.fairness import new_seed
from khrap.session.record import dumps
from khrap.variant.catalog import builtin, builtin_names, load_variant, variants_dir
from khrap.variant.loader import UPLOAD, VariantError, errors_of
from khrap.variant.schema import Variant
from khrap.web import i18n
from khrap.web.host import MAX_MESSAGE, PER_TABLE, RATE, Host, encode, encode_json
from khrap.web.store import Store
from khrap.web.table import MAX_CLOCK, Table
from khrap.web.wire import EXTENSION, Wire
from khrap.web.work import Worker, WorkFailed, check_text, render_sheet

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


SHEET_BYTES = 1024 * 1024
"""The largest rule sheet served (a built-in's is about 40 KiB; ``terms:`` may make one some times longer)."""
SEND_SECONDS = 10.0
"""A message (or the closing handshake) a client has not taken in this time: its connection is dropped."""
HELLO_SECONDS = 10.0
FREEZE_SECONDS = 1.0
"""How often ``serve`` sets the objects that survived out of the garbage collector's walk."""
COLLECT_SECONDS = 3600.0
"""How often it collects everything once (the cycles among frozen objects that died)."""
COLLECT_GROWN, COLLECT_FLOOR = 2.0, 512 * 1024 * 1024
"""It collects everything at once, too, when the process's resident memory is this many times what it
was after the last pass, and that many bytes more (the cycles that died in the meantime hold memory: a bound
on it). Each such pass stops every table (about a second at 1,000 tables in memory), so they come only once
the memory doubled. (Counting the frozen objects instead walks all of them: a pause of its own.)"""
"""A connection that has not said hello with a table's token in this time is closed."""
LOAD_WAITING = 32
"""Messages a connection may send while the table its hello names is being loaded; more close it."""
EXPIRE_BATCH = 20
"""Abandoned tables deleted in one turn of the event loop (the others' turns come between)."""
RECORDS_KEPT = 32
"""Finished tables' records kept made (the newest asked for): an archived one is not replayed for each download."""
RECORDS_BYTES = 16 * 2**20
"""And at most this many characters of them (a 500-deal evening's record is about a megabyte, 2.3 KB a khrap
deal): a longer one is not kept."""
PER_ADDRESS = 64
"""WebSockets open at once from one client address."""
EXPIRE_DAYS = 30.0
"""Days after which a table where nothing happened, and that is not finished, is deleted."""
POST_RATE, POST_BURST = 1.0, 20
"""Requests a second one client address may POST (checks and creations), and its burst."""
CREATES_PER_HOUR, CREATES_BURST = 30.0, 10
"""Tables one client address may create an hour, and at once."""
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)


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
        json.dumps(data, ensure_ascii=False).encode("utf-8")  # a lone surrogate is not text
    except (ValueError, UnicodeError, RecursionError):  # RecursionError: nested thousands deep
        raise Refused(400, "the request must be JSON text in UTF-8, nested a few levels") from None
    if not isinstance(data, dict):
        raise Refused(400, "the request must be a JSON object")
    return data


def check_upload(text: str, lang: str = "en") -> tuple[Any, list[dict]]:
    """(variant, []) for a valid house-rule text, else (None, located mistakes), in the loader's upload
    mode: extends only built-ins, no paths, the size limits; the messages are ``khrap validate --lang``'s,
    in the page's language ``lang``."""
    if len(text.encode("utf-8", "surrogatepass")) > UPLOAD_BYTES:
        return None, [{"line": None, "col": None, "message": f"a house-rule file is at most {UPLOAD_BYTES // 1024} KiB",
                       "text": f"upload.yaml: a house-rule file is at most {UPLOAD_BYTES // 1024} KiB"}]
    try:
        return load_variant("upload.yaml", text=text, trust=UPLOAD), []
    except VariantError as err:
        from khrap.rulebook.i18n import checker_translations

        say = checker_translations(lang if lang in i18n.LANGS else "en").gettext
        # a mistake inherited from a built-in names it by its file name (khrap.yaml:11:7): the server's folders
        # are nobody's business
        folder = f"{variants_dir()}{os.sep}"
        return None, [{"line": e.line, "col": e.col, "message": e.text(say).replace(folder, ""),
                       "text": e.shown(say).replace(folder, "")} for e in errors_of(err)]


def _page_lang(data: dict) -> str:
    """The language of the page that sent ``data`` (its ``lang``), for the words sent back; English if unknown."""
    lang = data.get("lang")
    return lang if isinstance(lang, str) and lang in i18n.LANGS else "en"


def _int(data: dict, key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refused(400, f"`{key}` must be a whole number from {low} to {high}")
    return value


def _new_table(variant: Variant | dict, *, name: str | None, base_stake: int | None, **setup: Any) -> Table:
    """A new table for ``variant`` (a house rule's checked data, validated here, or a built-in), named
    ``name`` or by the house rule's own English name; ``base_stake`` None: the variant's."""
    if not isinstance(variant, Variant):
        variant = Variant.model_validate(variant)
    if name is None:
        name = variant.name.get("en", "house rules")[:100]
    return Table.create(variant, name=name, base_stake=variant.base_stake if base_stake is None else base_stake,
                        **setup)


def create_app(db: str | Path = "khrap.sqlite", *, takeover_seconds: float = 60.0, bot_delay: float = 0.7,
               origins: tuple[str, ...] = (), seed_source: Callable[[], str] = new_seed,
               session_seed: Callable[[], int | None] = lambda: None, rate: float = RATE,
               post_rate: tuple[float, float] = (POST_RATE, POST_BURST),
               creates: tuple[float, float] = (CREATES_PER_HOUR, CREATES_BURST), hello_seconds: float = HELLO_SECONDS,
               per_address: int = PER_ADDRESS, per_table: int = PER_TABLE,
               expire_days: float = EXPIRE_DAYS,
               first_dealer: Callable[[int], int] = secrets.randbelow, freeze_seconds: float = 0.0) -> Starlette:
    """The app: tables in the SQLite file ``db``; absent players' seats are taken over after
    ``takeover_seconds``; bots wait ``bot_delay`` seconds before acting (so people can follow);
    ``origins``: pages on other origins allowed to open the WebSocket (the server's own always is);
    ``rate``: messages a second one connection may send; ``post_rate``: (requests a second, burst) one
    client address may POST; ``creates``: (tables an hour, burst) one client address may create;
    ``hello_seconds``: how long a new connection may wait before its hello; ``per_address``, ``per_table``:
    WebSockets open at once from one address, and at one table; ``expire_days``: a table not finished
    where nothing happened for this long is deleted; ``first_dealer(players)``: the seat that deals
    first at a new table (by lot; tests fix it); ``freeze_seconds``: how often the objects that survived
    are set out of the cyclic collector's walk (0: never; ``serve`` does it, see ``keep_collections_short``)."""
    store = Store(db)
    worker = Worker()
    buckets = {"post": Buckets(*post_rate), "create": Buckets(creates[0] / 3600, creates[1])}

    def limit(request: Request, kind: str) -> None:
        address = request.client.host if request.client else "?"
        if not buckets[kind].allow(address, time.monotonic()):
            what = "tables created" if kind == "create" else "requests"
            raise Refused(429, f"too many {what} from your address: wait a little")
    drivers: dict[str, asyncio.Task] = {}
    wakers: dict[str, asyncio.TimerHandle] = {}

    def kick(table: Table) -> None:
        """Let the bots (and the next deal) move at ``table``: one driver task per table."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = drivers.get(table.id)
        # (a person to act and no bot due: a driver would find nothing to do; not one task an action)
        idle = table.in_deal and host.automated(table) is None
        if not idle and (task is None or task.done()):
            drivers[table.id] = loop.create_task(drive(table))
        deadline = host.next_deadline(table)
        old = wakers.pop(table.id, None)
        if old is not None:
            old.cancel()
        if deadline is not None:
            wakers[table.id] = loop.call_later(deadline - host.clock() + 0.05, lambda: wake(table))

    def wake(table: Table) -> None:
        wakers.pop(table.id, None)
        if host.tables.get(table.id) is table:  # not since taken out of memory
            host.broadcast(table)  # the table says the seat is played by a bot now; kick() follows

    async def drive(table: Table) -> None:
        """Bots act (each after ``bot_delay``) and deals begin, until a person is to act."""
        while host.tables.get(table.id) is table:
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
        if host.unload(table):  # the deal played out with nobody here: out of memory until somebody comes
            old = wakers.pop(table.id, None)
            if old is not None:
                old.cancel()
        if drivers.get(table.id) is asyncio.current_task():
            del drivers[table.id]

    host = Host(store, takeover_seconds=takeover_seconds, on_change=kick, seed_source=seed_source, rate=rate,
                per_table=per_table)
    commit = host.commit  # the turn's moves stored, before anything is written to a client (``lifespan``)
    loading: dict[str, asyncio.Future] = {}  # table id -> its rebuild in a thread (one however many ask)
    background: set[asyncio.Future] = set()  # the hellos waiting for their table's rebuild

    async def load_apart(tid: str | None) -> None:
        """Bring table ``tid`` into memory (if it is a table and not there) without stopping the other tables: its
        rows are read and its game replayed in a thread (a long evening's replay takes 0.1 to 0.2 s at 30 to 100
        deals, a 500-deal one a second, and every table waited that long when the loop did it, issue 32); the
        loop keeps turning meanwhile (the thread holds the interpreter 5 ms at a time at most)."""
        if tid is None or tid in host.tables or tid in host.set_aside:
            return
        job = loading.get(tid)
        if job is None:
            job = loading[tid] = asyncio.ensure_future(rebuild_apart(tid))
            job.add_done_callback(lambda _: loading.pop(tid, None))
        await asyncio.shield(job)

    def read_and_rebuild(tid: str) -> tuple[tuple | None, Table | None, Exception | None]:
        """(the store's version of the table read, the table, or what its replay raised); in a thread."""
        try:
            stored = store.rows_apart(tid)
        except LookupError:
            return None, None, None  # (deleted meanwhile: ``get`` says there is no such table)
        try:
            return stored.version, Store.rebuild(stored, **host.table_kwargs), None
        except Exception as err:  # (``adopt`` sets it aside with its log line)
            return stored.version, None, err

    async def rebuild_apart(tid: str) -> None:
        version, table, failed = await asyncio.to_thread(read_and_rebuild, tid)
        if version is None or store.version(tid) != version:
            return  # gone, or played meanwhile (loaded, played and taken out again): ``get`` loads it as it is now

        def made() -> Table:
            if failed is not None:
                raise failed
            return table

        host.adopt(tid, made)

    def hello_table(raw: str | bytes) -> str | None:
        """The table a hello names, if it is not in memory (its load is done apart first); None otherwise."""
        if len(raw) > MAX_MESSAGE:
            return None
        try:
            message = json.loads(raw)
        except (ValueError, UnicodeError, RecursionError):
            return None
        if not isinstance(message, dict) or message.get("type") != "hello":
            return None
        tid = host.table_of(message.get("token"))
        return None if tid is None or tid in host.tables or tid in host.set_aside else tid

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

    listing: list[bytes] = []

    async def variants(request: Request) -> Response:
        if not listing:  # the built-ins do not change while the server runs: made once, off the loop
            listing.append(await asyncio.get_running_loop().run_in_executor(None, _listing))
        return Response(listing[0], media_type="application/json", headers=_headers())

    async def validate(request: Request) -> Response:
        try:
            data = await _body(request)
            text = data.get("text")
            if not isinstance(text, str):
                raise Refused(400, "send the house rule's text as `text`")
            limit(request, "post")
            checked = await checked_text(text, _page_lang(data))
        except Refused as err:
            return _refused(err)
        if not checked["ok"]:
            return JSONResponse({"ok": False, "errors": checked["errors"]}, headers=_headers())
        return JSONResponse({**{k: checked[k] for k in ("ok", "title", "players", "base_stake")},
                             "min_stack": checked.get("min_stack")}, headers=_headers())

    async def checked_text(text: str, lang: str = "en") -> dict:
        """A house-rule text checked in the worker (cached by content and language); Refused if the work
        fails."""
        try:
            return await worker.run("check", check_text, text, lang)
        except WorkFailed as err:
            raise Refused(422, f"this house-rule file could not be checked: {err}") from None

    async def create(request: Request) -> Response:
        try:
            data = await _body(request)
            limit(request, "post")
            if len(host.tables) >= MAX_TABLES:
                raise Refused(503, "this server has as many tables in play as it keeps; try later")
            text = data.get("text")
            if isinstance(text, str) and text.strip():
                checked = await checked_text(text, _page_lang(data))
                if not checked["ok"]:
                    return JSONResponse({"ok": False, "errors": checked["errors"]}, headers=_headers())
                variant: Variant | dict = checked["rules"]  # made into a Variant off the loop, below
                name, source = None, text
            else:
                name = data.get("variant")
                if name not in builtin_names():
                    raise Refused(400, f"`variant` must be one of {', '.join(builtin_names())}, or send `text`")
                variant, source = builtin(name), None  # parsed once (cached), not each time on the loop
            limit(request, "create")
            fewest = variant.players.min if isinstance(variant, Variant) else variant["players"]["min"]
            players = _int(data, "players", fewest, 1, 16)
            bots_in = data.get("bots", {})
            if not isinstance(bots_in, dict) or len(bots_in) > 16:
                raise Refused(400, "`bots` maps seats to bot kinds")
            bots: dict[int, str] = {}
            for seat, kind in bots_in.items():
                if not (isinstance(seat, str) and seat.isdigit() and len(seat) < 3) or kind not in KINDS:
                    raise Refused(400, f"`bots` maps seats to one of {', '.join(KINDS)}")
                bots[int(seat)] = kind
            # Validating a stranger's rules, compiling them and dealing the first deal is work that grows
            # with the file: it runs in a thread, never on the event loop (other tables keep moving).
            table = await asyncio.to_thread(
                _new_table, variant, name=name, source=source, players=players,
                stacks=_int(data, "stacks", 100, 1, 1_000_000),
                base_stake=None if data.get("base_stake") is None else _int(data, "base_stake", 0, 1, 1_000_000),
                bots=bots, deals=_int(data, "deals", 10, 1, 500), clock=_int(data, "clock", 0, 0, MAX_CLOCK),
                seed_source=seed_source, session_seed=session_seed(),
                dealer=first_dealer(players))  # the first dealer by lot, as the rule sheets say
        except Refused as err:
            return _refused(err)
        except ValueError as err:
            return JSONResponse({"ok": False, "errors": [{"line": None, "col": None, "message": str(err),
                                                           "text": str(err)}]}, headers=_headers())
        try:
            host.add(table)
        except sqlite3.Error as err:  # a full disk, a file made read-only while it runs
            logging.getLogger("khrap.web").error("a table could not be stored: %s", err)
            return _refused(Refused(503, "the server cannot store a new table now; try later"))
        base = str(request.base_url).rstrip("/")
        return JSONResponse({
            "ok": True, "table": table.id, "fingerprint": table.setup["fingerprint"],
            "seats": [{"seat": i, "human": st.human, "bot": st.bot,
                       "link": f"{base}/play#{st.token}" if st.human else None} for i, st in enumerate(table.seats)],
            "spectator": f"{base}/play#{table.spectator_token}",
            "host": f"{base}/play#{table.host_token}",  # the host's: the seats' links, and handing seats over
        }, headers=_headers())

    async def sheet(request: Request) -> Response:
        tid = request.path_params["table"]
        table = host.tables.get(tid)
        setup = table.setup if table is not None else None if tid in host.set_aside else store.setup(tid)
        lang = request.query_params.get("lang", "en")
        if setup is None:
            return Response("no such table", 404, media_type="text/plain")
        if lang not in i18n.LANGS:
            lang = "en"
        try:
            text = await worker.run("sheet", render_sheet, setup, lang)  # cached by the rules' content
        except WorkFailed as err:
            return Response(f"this table's rule sheet could not be made: {err}", 503, media_type="text/plain")
        if len(text.encode("utf-8", "replace")) > SHEET_BYTES:
            return Response(f"this table's rule sheet would be over {SHEET_BYTES // 1024} KiB: it is not served",
                            413, media_type="text/plain")
        return HTMLResponse(text, headers={"Content-Security-Policy": sheet_policy(text)})

    records: OrderedDict[str, tuple[tuple, str]] = OrderedDict()  # finished table -> (its store version, record)
    records_size = [0]  # the characters of the records kept

    def keep_record(tid: str, body: str) -> None:
        """Keep ``body`` so that, asked again, the table is not replayed again; the oldest asked for go first
        past ``RECORDS_KEPT`` records or ``RECORDS_BYTES`` characters (one longer than that goes at once)."""
        old = records.pop(tid, None)
        if old is not None:
            records_size[0] -= len(old[1])
        records[tid] = (store.version(tid), body)
        records_size[0] += len(body)
        while len(records) > RECORDS_KEPT or records_size[0] > RECORDS_BYTES:
            records_size[0] -= len(records.popitem(last=False)[1][1])

    async def record(request: Request) -> Response:
        host.commit()  # (the turn's moves stored before a record shows them: ``Host.group_commits``)
        token = request.path_params["token"]
        entry = host.tokens.get(token)  # (a seat's or a spectator's link: not the host's)
        tid = entry[0] if entry is not None else None
        kept = records.get(tid) if tid is not None else None
        if kept is not None and kept[0] == store.version(tid):  # (a finished table's record changes with its seats)
            records.move_to_end(tid)
            return _record_response(tid, kept[1])
        await load_apart(tid)  # (an archived table: replayed apart)
        found = host.find(token)
        if found is None:
            return Response("no such table", 404, media_type="text/plain")
        table = found[0]
        if not table.finished:
            return Response("the record can be downloaded once the session is over", 409, media_type="text/plain")
        body = dumps(table.record())
        keep_record(table.id, body)
        host.unload(table)  # an archived table is loaded for its record only
        return _record_response(table.id, body)

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True  # not a browser (bots, the benchmark): a browser always sends its page's origin
        if origin in origins:
            return True
        return urlsplit(origin).netloc == ws.headers.get("host", "")

    sockets: dict[str, int] = {}

    async def socket(ws: WebSocket) -> None:
        address = ws.client.host if ws.client else "?"
        if not origin_ok(ws) or sockets.get(address, 0) >= per_address:
            await ws.close(code=1008)  # before accept: the handshake is refused (403)
            return
        sockets[address] = sockets.get(address, 0) + 1
        try:
            await serve_socket(ws)
        finally:
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    live: set[_Socket | _WireSocket] = set()  # every open connection
    watchdog: list[asyncio.Task] = []

    async def watch() -> None:
        """Once a second, cut off the connections whose client stopped reading; ends when none is open."""
        while live:
            await asyncio.sleep(1.0)
            now = asyncio.get_running_loop().time()
            for conn in [c for c in live if c.sending_since is not None]:
                conn.stalled(now)

    async def serve_socket(ws: WebSocket) -> None:
        await ws.accept()
        wire = ws.scope.get("extensions", {}).get(EXTENSION)
        if wire is not None:  # uvicorn with ``Wire``: messages in and out without a task or coroutine each
            await serve_wire(ws, wire)
            return
        conn = _Socket(ws)
        conn.before_write = host.commit
        conn.handler = asyncio.current_task()
        client = host.connect(conn)
        writer = conn.writer = asyncio.create_task(conn.pump())
        live.add(conn)
        if not watchdog or watchdog[0].done():
            watchdog[:] = [asyncio.create_task(watch())]
        hello_by = asyncio.get_running_loop().time() + hello_seconds
        try:
            while not conn.closed:
                if client.table is None:  # a connection that says nothing is not kept
                    try:
                        message = await asyncio.wait_for(ws.receive(), hello_by - asyncio.get_running_loop().time())
                    except TimeoutError:
                        conn.close(f"say hello within {hello_seconds:g} s")
                        break
                else:
                    message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                if client.table is None:
                    await load_apart(hello_table(raw))
                try:
                    host.receive(client, raw)
                except Exception:  # a message the server could not handle: said, logged, the table as stored
                    logging.getLogger("khrap.web").exception("a message could not be handled")
                    conn.send({"type": "refused", "reason": "the server could not handle this message"})
                await asyncio.sleep(0)  # let the writers send what this message made before the next one
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            if not conn.aborted:
                raise  # the server stops
        finally:
            conn.handler = None  # no longer reading: an abort from now on has nothing to interrupt
            conn.closed = True
            conn.queue.put_nowait(None)
            live.discard(conn)
            host.disconnect(client)
            await writer

    async def serve_wire(ws: WebSocket, wire: Wire) -> None:
        """A table's socket on the direct path (``khrap.web.wire``): each message is handled as it is parsed,
        and what it makes is written at the end of the loop's turn; this task only waits for the end."""
        conn = _WireSocket(wire)
        wire.before_write = commit  # (one bound method for all: the flush calls it once a turn)
        conn.handler = asyncio.current_task()
        client = host.connect(conn)
        live.add(conn)
        if not watchdog or watchdog[0].done():
            watchdog[:] = [asyncio.create_task(watch())]

        waiting: list[str | bytes] = []  # messages that came while the table the hello names was loaded apart

        def handle(raw: str | bytes) -> None:
            if conn.closed:
                return
            try:
                host.receive(client, raw)
            except Exception:  # a message the server could not handle: said, logged, the table as stored
                logging.getLogger("khrap.web").exception("a message could not be handled")
                conn.send({"type": "refused", "reason": "the server could not handle this message"})

        def take(raw: str | bytes) -> None:
            if conn.closed:
                return
            if waiting:  # (in order, after the hello)
                if len(waiting) >= LOAD_WAITING:
                    conn.close("too many messages")
                    return
                waiting.append(raw)
                return
            tid = hello_table(raw) if client.table is None else None
            if tid is None:
                handle(raw)
                return
            waiting.append(raw)
            task = asyncio.ensure_future(after_load(tid))
            background.add(task)  # (a task nothing refers to may be collected before it ends)
            task.add_done_callback(background.discard)

        async def after_load(tid: str) -> None:
            try:
                await load_apart(tid)
            finally:
                while waiting:
                    handle(waiting.pop(0))

        def no_hello() -> None:  # a connection that says nothing is not kept
            if client.table is None:
                conn.close(f"say hello within {hello_seconds:g} s")

        wire.on_message = take
        timer = asyncio.get_running_loop().call_later(hello_seconds, no_hello)
        try:
            while True:  # only the end comes here now (and a message parsed before ``on_message`` was set)
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                take(raw if raw is not None else message.get("bytes") or b"")
        except WebSocketDisconnect:
            pass
        finally:
            timer.cancel()
            wire.on_message = None
            conn.closed = True
            live.discard(conn)
            host.disconnect(client)

    routes = [
        Route("/", page), Route("/play", page), Route("/static/{name}", static),
        Route("/api/variants", variants), Route("/api/validate", validate, methods=["POST"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/sheet/{table}", sheet), Route("/record/{token}", record),
        WebSocketRoute("/ws", socket),
    ]
    async def sweep() -> None:
        """Abandoned tables deleted, once at start and every hour: the candidates found in a thread (the query
        reads every table: 0.1 s at 10,000), then each checked again and deleted on the loop, ``EXPIRE_BATCH``
        a turn (a table's deletion is a transaction of its own)."""
        while True:
            try:
                found = await asyncio.to_thread(store.abandoned_apart, time.time() - expire_days * 86400)
                for start in range(0, len(found), EXPIRE_BATCH):
                    host.expire(expire_days, found[start:start + EXPIRE_BATCH])
                    await asyncio.sleep(0)
            except Exception:
                logging.getLogger("khrap.web").exception("expiring abandoned tables failed")
            await asyncio.sleep(3600)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        store.checkpoint_apart()  # (the disk's waits off the loop that plays the tables)
        host.group_commits(asyncio.get_running_loop().call_soon)  # a turn's moves in one transaction
        sweeper = asyncio.get_running_loop().create_task(sweep())
        freezer = asyncio.get_running_loop().create_task(keep_collections_short(freeze_seconds)) \
            if freeze_seconds > 0 else None
        yield
        sweeper.cancel()
        if freezer is not None:
            freezer.cancel()
        for task in [*drivers.values(), *watchdog]:
            task.cancel()
        for handle in wakers.values():
            handle.cancel()
        host.group_commits(None)  # (what waits, committed)
        store.close()  # checkpointed into the file: a copy of it after a stop is complete
        worker.close()

    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)], lifespan=lifespan)
    app.state.host = host
    app.state.store = store

    return app


async def keep_collections_short(freeze_seconds: float, collect_seconds: float = COLLECT_SECONDS,
                                 grown: float = COLLECT_GROWN, floor: int = COLLECT_FLOOR) -> None:
    """Keep the cyclic garbage collector off the tables' way while they stay in memory.

    Its passes walk the objects they collect, and on a heap of hundreds of MB each object walked costs about a
    microsecond (its referents are cache misses): with 1,000 tables in memory a full pass took up to a second,
    and even the young generations' passes, over the views kept as the bases of the next patches, took 20 % of
    the server's processor time at 1,000 tables and 13 % at 100, in pauses of 2 to 80 ms that were the p99 of
    every table's updates (issue 32). So while this runs the automatic collection is off: reference counting
    frees what the server drops (playing makes no cycles). Every ``freeze_seconds`` the objects alive so far
    are frozen (``gc.freeze``), and all are unfrozen and collected once every ``collect_seconds``, or as soon
    as the resident memory is ``grown`` times what it was after the last pass and ``floor`` bytes more
    (making a table leaves some 500 objects in cycles, unloading one its session), so the cycles that died
    meanwhile are freed and what they hold stays bounded."""
    loop = asyncio.get_running_loop()
    collected, after = loop.time(), _memory()
    gc.disable()
    try:
        while True:
            await asyncio.sleep(freeze_seconds)
            gc.freeze()
            memory = _memory()
            if loop.time() - collected >= collect_seconds or \
                    (memory is not None and after is not None and memory > grown * after + floor):
                gc.unfreeze()
                gc.collect()
                collected, after = loop.time(), _memory()
    finally:
        gc.unfreeze()  # the server stops (or a test's app): nothing stays out of the collector's sight
        gc.enable()


def _memory() -> int | None:
    """The process's resident memory in bytes (a read of ``/proc``, or the peak where there is none: no object
    is walked); None where the platform does not say."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:  # (Windows)
        return None
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _listing() -> bytes:
    """``/api/variants``: the built-ins, the bot kinds, the page's words, its cards' rank letters and suit names."""
    rows = []
    for name in builtin_names():
        v = builtin(name)
        rows.append({"name": name, "title": v.name, "players": [v.players.min, v.players.max],
                     "base_stake": v.base_stake})
    words = {lang: i18n.strings(lang) for lang in i18n.LANGS}
    ranks = {lang: i18n.ranks(lang) for lang in i18n.LANGS}  # the cards' rank letters, once, with the words
    suits = {lang: i18n.suits(lang) for lang in i18n.LANGS}  # a card's tooltip: its suit's name
    # (upload_bytes: the page measures a house-rule file before it sends it, and says so in its own words)
    return json.dumps({"variants": rows, "bots": CHOICES, "ui": words, "ranks": ranks, "suits": suits,
                       "upload_bytes": UPLOAD_BYTES}, ensure_ascii=False).encode()


class Buckets:
    """Token buckets by key (a client address): ``rate`` a second, ``burst`` at once; at most ``keep``
    keys are remembered (the oldest forgotten, which only ever lets a client do more)."""

    def __init__(self, rate: float, burst: float, keep: int = 10_000) -> None:
        self.rate, self.burst, self.keep = rate, burst, keep
        self.state: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float) -> bool:
        tokens, last = self.state.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        allowed = tokens >= 1
        self.state[key] = (tokens - 1 if allowed else tokens, now)
        while len(self.state) > self.keep:
            self.state.popitem(last=False)
        return allowed


def sheet_policy(page: str) -> str:
    """The rule sheet's Content-Security-Policy: no script at all, no request to anywhere, and only
    the sheet's own style blocks (by their hashes; no style attribute, no other ``<style>``).  Framed by this
    server's own pages only (the table shows it over the table, with its way back): no other site's."""
    head = page[:page.find("<body")] if "<body" in page else ""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(m.encode()).digest()).decode()}'"
                      for m in _STYLE.findall(head)) or "'none'"
    return (f"default-src 'none'; style-src {hashes}; img-src data:; frame-ancestors 'self'; "
            "base-uri 'none'; form-action 'none'")


class SecurityHeaders:
    """Every HTTP response (pages, errors, 404s) carries ``SECURITY_HEADERS`` unless it set its own."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()
                            if k.lower().encode() not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def _record_response(tid: str, body: str) -> Response:
    return Response(body, media_type="application/json", headers=_headers({
        "Content-Disposition": f'attachment; filename="khrap-{tid}.json"'}))


def _refused(err: Refused) -> Response:
    status, message = err.args
    return JSONResponse({"ok": False, "errors": [{"line": None, "col": None, "message": message, "text": message}]},
                        status_code=status, headers=_headers())


def _sheet_of(setup: dict, lang: str) -> str:
    """The rule sheet of a table's rules (as resolved, with its base stake), its fingerprint printed on it
    (in the worker process: khrap.web.work)."""
    from khrap.rulebook.sheet import render_rules

    unchanged = setup["source"] is None and setup["name"] in builtin_names() and \
        builtin(setup["name"]).model_dump(mode="json") == setup["rules"]
    ref = setup["name"] if unchanged else Variant.model_validate(setup["rules"])
    parent = None if unchanged else _parent_of(setup)
    text = render_rules(ref, "html", lang, parent=parent)
    stamp = (f'<p class="khrap-fingerprint">'
             f'{html.escape(i18n.strings(lang)["fingerprint"])}: {html.escape(setup["fingerprint"])}</p>')
    style = ("<style>.khrap-fingerprint{font-family:monospace;border:1px solid #888;padding:.3em .6em}"
             f"{PHONE_SHEET}</style>")
    head = text.find("</head>")
    if head >= 0:
        text = text[:head] + style + text[head:]
    at = text.find(">", text.find("<body")) + 1 if "<body" in text else 0
    return text[:at] + stamp + text[at:]


PHONE_SHEET = ("@media screen and (max-width:640px){html,body{max-width:100%;overflow-wrap:anywhere}"
               "table{display:block;max-width:100%;overflow-x:auto}pre{white-space:pre-wrap}"
               "img,svg{max-width:100%;height:auto}}")
"""A rule sheet on a phone: nothing wider than the screen; a wide table scrolls inside its own box."""


def _parent_of(setup: dict) -> tuple[str, Variant] | None:
    """The built-in a table's rules change: a pasted house rule's ``extends`` (upload mode allows only
    built-ins), or the built-in itself when the create form changed its base stake; None if unknown."""
    name: Any = setup["name"]
    if setup["source"] is not None:
        from khrap.variant.reading import read_yaml

        try:
            data, _ = read_yaml("upload.yaml", text=setup["source"])
        except Exception:  # it was read when the table was made; a sheet without marks rather than none
            return None
        name = data.get("extends") if isinstance(data, dict) else None
    return (name, builtin(name)) if isinstance(name, str) and name in builtin_names() else None


class _Socket:
    """A WebSocket as the host's connection: messages queue up and one task writes them in order."""

    MAX_QUEUED = 200

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue = asyncio.Queue()
        self.closed = False
        self.aborted = False
        self.close_reason: str | None = None
        self.handler: asyncio.Task | None = None  # the task reading this connection's messages
        self.writer: asyncio.Task | None = None  # the task sending its messages (``pump``)
        self.sending_since: float | None = None  # when the message being sent was handed to the socket
        self.before_write: Callable[[], None] | None = None  # the host's commit, before a message is sent

    def send(self, message: dict) -> None:
        self.send_text(encode(message))

    def send_json(self, data: bytes) -> None:
        """A message already encoded, as UTF-8 (``Host.broadcast``'s)."""
        self.send_text(data.decode())

    def send_text(self, text: str) -> None:
        """A message already encoded (a broadcast encodes each view once for all its connections)."""
        if self.closed:
            return
        if self.queue.qsize() > self.MAX_QUEUED:
            self.close("too slow")  # a reader that never reads does not grow the server
            return
        self.queue.put_nowait(text)

    def close(self, reason: str) -> None:
        if not self.closed:
            self.closed = True
            self.close_reason = reason
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send the queued messages in order.  A client that stops reading fills the socket's buffer and a
        send waits: ``stalled`` (the watchdog, once a second) cuts it off once one has waited ``SEND_SECONDS``
        (a timer a message cost a tenth of the server's processor time at 100 busy tables)."""
        loop = asyncio.get_running_loop()
        while True:
            text = await self.queue.get()
            if text is None:
                break
            if self.before_write is not None:
                self.before_write()  # (what the message shows, stored first)
                if self.aborted:  # (it was not stored: the connection was dropped)
                    break
            self.sending_since = loop.time()
            try:
                await self.ws.send_text(text)
            except asyncio.CancelledError:
                if not self.aborted:
                    raise  # the server stops
                asyncio.current_task().uncancel()  # (cut off by ``stalled``: the closing below may wait)
                break
            except Exception:
                self.closed = True
                self.abort()
                break
            self.sending_since = None
        if self.close_reason is not None:
            try:
                await asyncio.wait_for(self.ws.close(code=1008, reason=self.close_reason[:100]), SEND_SECONDS)
            except Exception:
                self.abort()

    def abort(self) -> None:
        """Give up on the connection at once: its handler stops waiting for messages and ends, so the
        seat counts as away (a bot may take it over) and the server drops the socket."""
        self.closed = self.aborted = True
        if self.handler is not None and self.handler is not asyncio.current_task():
            self.handler.cancel()

    def stalled(self, now: float) -> bool:
        """Cut the connection off if a message has waited ``SEND_SECONDS`` to be taken (True if it was)."""
        if self.sending_since is None or now - self.sending_since < SEND_SECONDS or self.aborted:
            return False
        self.abort()
        if self.writer is not None:
            self.writer.cancel()  # (its send waits for a buffer that never drains)
        return True


class _WireSocket:
    """A table's socket on the direct path (``khrap.web.wire.Wire``) as the host's connection: a message is
    framed and written with the others of the loop's turn; the transport's buffer is the only queue."""

    MAX_BUFFERED = 1024 * 1024
    """Bytes a client may leave unread before it is dropped (some 200 whole views)."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.closed = False
        self.aborted = False
        self.handler: asyncio.Task | None = None  # the task that waits for its end (``serve_wire``)

    def send(self, message: dict) -> None:
        self.send_json(encode_json(message))

    def send_text(self, text: str) -> None:
        self.send_json(text.encode())

    def send_json(self, data: bytes) -> None:
        """A message already encoded, as UTF-8: a broadcast's bytes, shared by the connections that get them."""
        if self.closed:
            return
        if self.wire.buffered() > self.MAX_BUFFERED:  # a reader that never reads does not grow the server
            self.abort()
            return
        self.wire.write_text(data)

    def close(self, reason: str) -> None:
        if not self.closed:
            self.closed = True
            self.wire.close_with(1008, reason[:100])

    @property
    def sending_since(self) -> float | None:
        """Since when its client has left the socket's buffer full (None: it reads)."""
        return self.wire.stalled_since

    def abort(self) -> None:
        """Drop the connection at once: its handler sees the end, so the seat counts as away."""
        self.closed = self.aborted = True
        self.wire.abort()

    def stalled(self, now: float) -> bool:
        """Cut the connection off if its client has not taken what it was sent for ``SEND_SECONDS``."""
        since = self.wire.stalled_since
        if since is None or now - since < SEND_SECONDS or self.aborted:
            return False
        self.abort()
        return True


def uvicorn_options() -> dict:
    """How ``serve`` runs uvicorn (the tests' live server too): the WebSocket protocol with the direct path
    (``Wire``), a 64 KiB frame limit, pings every 20 s (a client that does not answer for 20 s is dropped:
    its seat counts as away; so is one that does not read, ``_WireSocket.stalled``), compression off (views
    are small and deflate cost the CPU most, issue 32), and uvloop's event loop where it is installed (uvicorn's
    ``auto``; the project does not require it): libuv's sockets and timers in C, where asyncio's are Python, so a
    message read or written costs the server less processor time (docs/serve.md, "Fifth pass")."""
    return {"ws": Wire, "ws_max_size": 16 * MAX_MESSAGE, "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0,
            "ws_per_message_deflate": False, "loop": "auto"}


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "khrap.sqlite", **kwargs: Any) -> None:
    """Run the server until interrupted."""
    import uvicorn

    kwargs.setdefault("freeze_seconds", FREEZE_SECONDS)
    app = create_app(db, **kwargs)
    uvicorn.run(app, host=host, port=port, log_level="warning", proxy_headers=True, server_header=False,
                **uvicorn_options())


__all__ = ["check_upload", "create_app", "serve"]
