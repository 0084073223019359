"""A broadcast's loop: every connection of a table sent its update, made once per view key and encoded once.

The host (``khrap.web.host``) decides what a broadcast is (who is here, the clock, the extras of a view) and
this module does what it does for every connection at every action: a view's parts made once a key, the patch
from the view the key was sent last, its JSON, the send.  It is compiled with the server's other hot modules
(``SERVER_MODULES``, docs/compiled.md), so it holds no patch point: the host hands it the encoder and its own
calls (``Host.broadcast``), which tests may replace in ``host.py`` where they are.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Any, Protocol

from khrap.web.delta import Parts, patch
from khrap.web.table import Change, SeatState, Table

RATE = 10.0
BURST = 30
"""Messages a second a connection may send, and the burst it may send at once."""

Encode = Callable[[dict], bytes]
"""A message's JSON as the bytes sent (``khrap.web.host.encode_json``)."""
NO_CLOCK: dict[str, Any] = {"left": None, "timed_out": None}
"""A view's ``clock`` with no clock running and nothing played for the seat: one dict for all (views are read
only), so a patch finds it unchanged by identity."""


class Connection(Protocol):
    def send(self, message: dict) -> None: ...

    def close(self, reason: str) -> None: ...


@dataclass
class Client:
    """One connection: what it speaks for, its language and its rate budget."""

    conn: Connection
    rate: float = RATE
    burst: float = BURST
    table: Table | None = None
    seat: int | None = None
    lang: str = "en"
    tokens: float = BURST
    last: float = field(default_factory=time.monotonic)
    refused_for_rate: int = 0
    passive: bool = False  # its seat is open on a newer connection: this one only watches until it claims it
    host: bool = False  # holds the table's host link: may hand seats over
    deltas: bool = False  # asked (in its hello) for updates that carry what changed, after a first full view
    shown: tuple[tuple, int] | None = None  # (the view's key, its number): the update it was sent last

    @property
    def key(self) -> tuple[int | None, str, bool, bool]:
        """What its view depends on besides the table: connections of the same key get the same update."""
        return (self.seat, self.lang, self.passive, self.host)

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            self.refused_for_rate += 1
            return False
        self.tokens -= 1
        return True


class Views:
    """What a broadcast's views are made of, found once for all its views: the table's change (made for the first
    view: a broadcast to nobody makes none) with the table its "play again" made, and each view's extras: one dict
    for the plain views (no clock, no "play again", no host link) by whether they only watch (``plain``), else the
    host's (``Host._extras``).  ``host``: the ``khrap.web.host.Host`` (a Python class: its methods stay replaceable)."""

    __slots__ = ("host", "table", "present", "takeover", "deadline", "timed_out", "plain_extras", "takeover_seconds",
                 "change", "again", "plain_now")  # (plain Python: a broadcast makes one; compiled, it is native anyway)

    def __init__(self, host: Any, table: Table, present: list[bool], takeover: list[bool], deadline: Any,
                 timed_out: dict | None, plain_extras: dict[bool, dict[str, Any]], takeover_seconds: Any) -> None:
        # (``deadline``, ``takeover_seconds``: ``Any``, not ``float``, which compiled makes an int a float, and a
        # view then said ``60.0`` for ``--takeover 60``: they go into the views as the host has them)
        self.host, self.table, self.present, self.takeover = host, table, present, takeover
        self.deadline, self.timed_out = deadline, timed_out
        self.plain_extras, self.takeover_seconds = plain_extras, takeover_seconds
        self.change: Change | None = None
        self.again: Table | None = None
        self.plain_now = False

    def parts(self, key: tuple[int | None, str, bool, bool], number: int) -> Parts:
        seat, lang, passive, hosting = key
        change = self.change
        if change is None:
            change = self.change = self.table.change(self.present, self.takeover)
            self.again = again = again_table(self.host, self.table)
            # (plain: every view but the host's has the plain extras, with no clock and no "play again")
            self.plain_now = again is None and self.deadline is None and self.timed_out is None
        if self.plain_now and not hosting:
            extras = plain(self.plain_extras, passive, self.takeover_seconds)
        else:
            extras = self.host._extras(self.table, seat, passive, hosting, self.again, self.deadline, self.timed_out)
        return Parts(change.common(lang), change.own(seat, lang, not passive), extras, number)


def plain(made: dict[bool, dict[str, Any]], passive: bool, takeover_seconds: Any) -> dict[str, Any]:
    """A view's extras with no clock, no "play again" and no host link (``Host._plain``): one dict for all such
    views (read only; ``made`` keeps them by ``passive``), so a patch finds it unchanged by identity.
    ``takeover_seconds`` goes into the view as it is (an ``int`` stays one: ``Views``)."""
    found = made.get(passive)
    if found is None or found["takeover_seconds"] != takeover_seconds:
        found = made[passive] = {"elsewhere": passive, "host": None, "takeover_seconds": takeover_seconds,
                                 "clock": NO_CLOCK}
    return found


def again_table(host: Any, table: Table) -> Table | None:
    """The table that ``table``'s "play again" made, if any (``Host._again_table``): the host's map of them read
    here, its Python asked only for a finished table it does not know one of (the store may)."""
    tid = table.id
    rematch: dict = host.rematch
    again_id = rematch.get(tid)
    if again_id is None:
        tables: dict = host.tables
        held = tables.get(tid)
        if held is not None and held.finished:
            again_id = host.rematch_of(tid)
    if again_id is None:
        return None
    again: Table | None = host.get(again_id)
    return again


def send_all(clients: list[Client], seats: Container[int] | None, kept: dict[tuple, tuple[int, Parts]],
             sent: dict[str, dict[tuple, tuple[int, Parts]]], tid: str, number: int, views: Views,
             encode: Encode) -> None:
    """Each of ``clients`` (a table's) gets its view (``Host.broadcast``): the whole view, or to a connection that
    asked for them and holds the view its key was sent last (``kept``: each key's number and parts), the patch from
    that one.  ``sent[tid]`` becomes each key's view made now (the base of its next patch); ``seats``: only the
    connections of these seats (the others keep the view they hold as their base)."""
    made: dict[tuple, Update] = {}
    memo: dict = {}  # the patches of the parts the views share, made once (``delta.patch``), and their texts
    now: dict[tuple, tuple[int, Parts]] = {}  # each key's view made now: the base of its next patch
    for client in list(clients):
        key = (client.seat, client.lang, client.passive, client.host)
        if seats is not None and client.seat not in seats:
            base = kept.get(key)
            if base is not None:  # (the key's connections all skipped alike: its seat is in the key)
                now[key] = base
                sent[tid] = now
            continue
        update = made.get(key)
        if update is None:
            parts = views.parts(key, number)
            update = made[key] = Update(parts, kept.get(key), memo, encode)
            now[key] = (number, parts)
            sent[tid] = now  # (kept for the keys of the connections still at the table only)
        before = update.before
        patched = client.deltas and before is not None and client.shown == (key, before[0])
        client.shown = (key, number)
        conn = client.conn
        send_json = getattr(conn, "send_json", None)
        if send_json is not None:  # JSON once per seat and language (or for all alike), as the bytes sent
            send_json(update.delta_data() if patched else update.data())
            continue
        send_text = getattr(conn, "send_text", None)
        if send_text is None:
            conn.send(update.delta() if patched else update.whole())
        else:
            send_text(update.delta_text() if patched else update.text())
    memo.clear()  # (it holds updates that hold it: a cycle, with the collector off a leak)


class Update:
    """One view key's update in a broadcast: its view's parts, and (made when a connection needs them) the view
    and its JSON, the patch from the view that key was sent last (``before``: its number and parts) and that
    patch's JSON.  ``alike``: the update whose patch is this one's too (the first of the broadcast with the same
    common parts and extras before and after and nothing of its own changed: its patch is the same), or None.
    The broadcast's ``memo`` holds the first ones, and each update the memo: ``send_all`` empties it when it is
    done, so that no cycle is left (the server runs with the cyclic collector off)."""

    __slots__ = ("parts", "before", "memo", "encode", "_whole", "_data", "_delta", "_delta_data", "alike")

    def __init__(self, parts: Parts, before: tuple[int, Parts] | None, memo: dict, encode: Encode) -> None:
        self.parts, self.before, self.memo, self.encode = parts, before, memo, encode
        self._whole: dict | None = None
        self._data: bytes | None = None
        self._delta: dict | None = None
        self._delta_data: bytes | None = None
        self.alike: Update | None = None  # (None: itself; never itself, which would be a cycle)
        if before is not None:
            number, old = before
            if old.own is parts.own:  # (``delta.patch`` then adds nothing of the viewer's)
                first = memo.setdefault(
                    ("alike", id(old.common), id(old.extras), number, id(parts.common), id(parts.extras)), self)
                if first is not self:
                    self.alike = first

    def whole(self) -> dict:
        found = self._whole
        if found is None:
            found = self._whole = self.parts.whole()
        return found

    def data(self) -> bytes:
        found = self._data
        if found is None:
            found = self._data = self.encode(self.whole())
        return found

    def text(self) -> str:
        return self.data().decode()

    def delta(self) -> dict:
        alike = self.alike
        if alike is not None:
            return alike.delta()
        found = self._delta
        if found is None:
            before = self.before
            assert before is not None  # (a delta is asked only of an update with a base)
            number, old = before
            found = self._delta = {"type": "delta", "n": self.parts.n, "base": number,
                                   "d": patch(old, self.parts, self.memo)}
        return found

    def delta_data(self) -> bytes:
        alike = self.alike
        if alike is not None:
            return alike.delta_data()
        found = self._delta_data
        if found is None:
            found = self._delta_data = self.encode(self.delta())
        return found

    def delta_text(self) -> str:
        return self.delta_data().decode()


def presence(seats: list[SeatState], now: float, limit: float) -> tuple[list[bool], list[bool]]:
    """(who is here, who is taken over: gone ``limit`` seconds or more) in one pass over a table's seats."""
    present: list[bool] = []
    over: list[bool] = []
    for st in seats:
        here = st.connections > 0
        present.append(here)
        gone = st.gone_since
        over.append(st.human and not here and gone is not None and now - gone >= limit)
    return present, over


__all__ = ["BURST", "NO_CLOCK", "RATE", "Client", "Connection", "Update", "Views", "again_table", "plain", "presence",
           "send_all"]
