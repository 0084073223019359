"""The act path: a client's message read, its action applied and stored, and the table's broadcast.

At 100 busy tables the server's one core does nothing else (issue 32), so the path every action takes is
compiled with the server's other hot modules (``SERVER_MODULES``, docs/compiled.md): ``Host.receive`` hands
this module the message; an ``act`` is checked, applied (``Table.apply``), stored and broadcast here, where
native code calls native code (the table, the loop of ``fanout``), without the interpreter's frames the host's
methods were.  Every other message, and every refusal, goes back to the host's Python (``Host.dispatch``,
``Host._refuse``), which stays a Python class: tests replace its methods and its module's globals, so the
host hands over what they reach (the encoder and decoder, read from ``host.py`` at each call).  ``host`` is
a ``khrap.web.host.Host``, typed ``Any``: this module cannot import it (the host imports this one).
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

from khrap.engine import IllegalAction
from khrap.web.fanout import Client, Encode, Views, presence, send_all
from khrap.web.store import Lost
from khrap.web.table import Table

MAX_MESSAGE = 4096
"""Bytes in one message from a client (an action is at most 200 characters)."""
FLOOD_LIMIT = 100
"""Messages refused for rate after which the connection is closed."""

Decode = Callable[[str | bytes], Any]
"""A client's message as JSON (``khrap.web.host._decode``, or orjson's ``loads`` itself)."""


def receive(host: Any, client: Client, raw: str | bytes, decode: Decode, encode: Encode) -> None:
    """One message from a client (``Host.receive``): an ``act`` of a connection that plays its seat here, the
    rest by the host's ``dispatch``; refused with a reason (the table unharmed) when it cannot be read."""
    if not client.allow(host.clock()):
        if client.refused_for_rate >= FLOOD_LIMIT:
            client.conn.close("too many messages")
            return
        host._refuse(client, {"reason": "too many messages: slow down"})
        return
    if len(raw) > MAX_MESSAGE:
        host._refuse(client, {"reason": f"a message is at most {MAX_MESSAGE} bytes"})
        return
    try:
        message: Any = decode(raw)
    except (ValueError, UnicodeError, RecursionError):  # RecursionError: nested thousands deep
        host._refuse(client, {"reason": "a message must be JSON text in UTF-8, nested a few levels"})
        return
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        host._refuse(client, {"reason": "a message must be a JSON object with a `type`"})
        return
    kind: str = message["type"]
    table = client.table
    if kind == "act" and table is not None and not client.passive:  # (the dispatch's own answer to an act)
        act(host, client, table, message.get("action"), message.get("step"), encode)
        return
    host.dispatch(client, kind, message)


def act(host: Any, client: Client, table: Table, text: Any, step: Any, encode: Encode) -> None:
    """A seat's action at ``table``: applied if it answers the table's step and the rules allow it, else refused."""
    seat = client.seat
    if seat is None:
        host._refuse(client, {"reason": "a spectator cannot act"})
        return
    if not isinstance(text, str) or not text or len(text) > 200:
        host._refuse(client, {"reason": "an action is a text of 1 to 200 characters"})
        return
    now = table.step
    if step != now:  # resent, or sent from another tab: it answers a state that is gone
        shown = step[:20] if isinstance(step, str) else None
        host._refuse(client, {"stale": True, "step": now,
                              "reason": f"this action answers step {shown!r} of the table; it is now at step "
                                        f"{now}: look again"})
        host.send_view(client)
        return
    timed_out: dict = host.timed_out
    told = timed_out.get(table.id)
    if told is not None and told["seat"] == seat:
        del timed_out[table.id]  # he is back at the table: the clock's note has been read
    try:
        apply(host, table, seat, text, "human", encode)
    except IllegalAction as err:  # ``said``: in the reader's language, from the kernel's refusal code
        said = table.refusal_said(err.reason, client.lang)
        client.conn.send({"type": "refused", "reason": str(err), "said": said})


def apply(host: Any, table: Table, seat: int, text: str, by: str, encode: Encode) -> None:
    """Apply an action and store it before anybody hears of it (``Host.apply``); a failed write rebuilds the table."""
    table.apply(seat, text, by)
    store = host.store
    try:
        store.acted(table)
    except Lost as err:  # the turn's transaction rolled back: every table written in it as stored again
        host._lost(err.tables)
        raise
    except Exception:
        host._reload(table)
        raise
    written(host, store)
    broadcast(host, table, None, encode)


def written(host: Any, store: Any) -> None:
    """After a write: the turn's commit scheduled, if writes wait for it (``Host._written``)."""
    if not host._commit_due:
        schedule = host._schedule
        if schedule is not None and store.pending:
            host._commit_due = True
            schedule(host.commit)


def broadcast(host: Any, table: Table, seats: Container[int] | None, encode: Encode) -> None:
    """Each connection of ``table`` gets its own view (``Host.broadcast``, which says how)."""
    tid = table.id
    sent: dict = host.sent
    kept = sent.pop(tid, {})
    takeover_seconds = host.takeover_seconds
    present, takeover = presence(table.seats, host.clock(), takeover_seconds)
    deadline = clock_deadline(host, table)  # (the turn clock starts)
    timed_out = host.timed_out.get(tid)
    views = Views(host, table, present, takeover, deadline, timed_out, host._plain_extras, takeover_seconds)
    clients: dict = host.clients
    send_all(clients.get(tid, []), seats, kept, sent, tid, next(host._numbers), views, encode)
    on_change = host.on_change
    if on_change is not None:
        on_change(table)


def clock_deadline(host: Any, table: Table) -> Any:
    """When the person to act at ``table`` runs out of time (``Host._clock_deadline``: None, no clock, or no
    person to act).  A decision's time starts when the host first sees it.  (``Any``, not ``float``: compiled, a
    ``float`` makes an ``int`` a float, and a view's ``clock`` would say ``5.0`` where a clock of whole seconds,
    a test's, said ``5``: the same bytes as before, whatever the host's clock gives.)"""
    seconds = table.setup.get("clock", 0)
    if not seconds or not table.in_deal:
        return None
    seat = table.session.to_act
    assert seat is not None  # (a deal under way has a seat to act)
    if table.bot_kind(seat, host.taken_over(table)[seat]) is not None:
        return None
    turn_since: dict = host.turn_since
    since = turn_since.get(table.id)
    if since is None or since[0] != table.step:
        since = turn_since[table.id] = (table.step, host.clock())
    deadline: Any = since[1] + seconds
    return deadline


__all__ = ["FLOOD_LIMIT", "MAX_MESSAGE", "act", "apply", "broadcast", "clock_deadline", "receive", "written"]
