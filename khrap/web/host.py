"""The room: tables by token, connections, the protocol, limits, and the bots' clock.

A connection says ``{"type": "hello", "token": T, "lang": "en"}`` first; the token decides, once,
which seat it speaks for (or that it only watches).  After that it may send ``act`` (an action's
text and the ``step`` of the state it answers: an action for any other step is stale and refused,
followed by the current state), ``next`` (ready for the next deal) and ``lang``.  Every message is at
most ``MAX_MESSAGE`` bytes of JSON and a connection may send ``RATE`` a second (a burst of ``BURST``); anything else is
refused with a reason and changes nothing.  Views go out through :meth:`Table.parts` only.

Nothing here touches a socket: a connection is any object with ``send(dict)`` (and ``close()``), so
the protocol test drives thousands of deals in-process.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import secrets
import time
import unicodedata
from collections.abc import Callable, Container
from typing import Any

try:
    import orjson
except ImportError:  # the web extra brings it; without it the standard encoder serves, slower
    orjson = None  # type: ignore[assignment]

from khrap.cards import card_str
from khrap.safe_text import BIDI_CONTROLS
from khrap.web import acting, fanout
from khrap.web.acting import FLOOD_LIMIT, MAX_MESSAGE  # (a message's limits: the act path's, compiled)
from khrap.web.delta import Parts
from khrap.web.fanout import BURST, RATE, Client, Connection
from khrap.web.i18n import LANGS  # the languages a view is made in: the page's
from khrap.web.store import Lost, Store
from khrap.web.table import Table

# ``RATE`` and ``BURST``, the messages a second a connection may send and the burst it may send at once, are
# ``fanout``'s (a ``Client``'s defaults; ``Client`` and ``Connection`` are there too, compiled with the loop).
MAX_NAME = 64
"""Characters kept of a player's name: the page shows 24 letters of it, cut with "…", and the whole in a tooltip
(static/table.js, ``cutName``); a longer one is cut here between two letters, never inside one."""
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Printable characters that draw nothing (the Hangul fillers, the blank Braille pattern)."""
PER_TABLE = 200
"""Connections at one table at once (its players' tabs and its spectators)."""
REACTIONS = ("thumbs_up", "laugh", "wow", "grimace", "party", "well_played", "good_luck", "thinking", "oops", "thanks")
"""The quick reactions a seat may send, by id: the page shows each in the reader's language (or as its emoji)."""
CHAT_MAX = 200
"""Characters in one chat message (after control and format characters are taken out)."""
CHAT_KEEP = 30
"""Chat messages and reactions a table keeps (in memory only) and shows."""
CHAT_RATE, CHAT_BURST = 1 / 3, 5
"""Chat messages and reactions a second one seat may send (all its tabs together), and its burst."""


ELSEWHERE = "this seat is open on another device: this tab only watches (press \"Play here\" to play here)"
REVOKED = {"bot": "the table's host gave seat {seat} to a bot: this link no longer plays it",
           "link": "the table's host gave seat {seat} to a new link: this link no longer plays it; "
                   "ask the host for yours",
           "left": "you left the table: a bot plays seat {seat} now, and this link no longer plays it"}
"""What the page of a link that no longer plays its seat says (it words it in its language by ``why``)."""


_NO_CLOCK = fanout.NO_CLOCK
"""A view's ``clock`` with no clock running and nothing played for the seat: one dict for all (views are read
only), so a patch finds it unchanged by identity."""


def _revoked(seat: int, why: str) -> dict:
    return {"type": "error", "code": "revoked", "seat": seat, "why": why,
            "reason": REVOKED.get(why, REVOKED["link"]).format(seat=seat)}


def encode(message: dict) -> str:
    """A message as JSON text that is valid UTF-8 whatever it quotes (a lone surrogate is escaped).

    orjson (the web extra) where it is installed: ten times the standard encoder's speed, and it refuses a
    lone surrogate instead of writing text that is not UTF-8; the standard encoder's ASCII output then.  (Not
    with its option for keys that are not strings: it made a view's encoding four times slower, and no view
    has one; a message that does is the standard encoder's.)"""
    if orjson is not None:
        try:
            return orjson.dumps(message).decode()
        except TypeError:  # a lone surrogate, a key not a string: the standard encoder's escapes
            return json.dumps(message)
    text = json.dumps(message, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(message)  # \u escapes: ASCII
    return text


def encode_json(message: dict) -> bytes:
    """``encode``'s text as UTF-8 bytes, made as bytes (orjson writes bytes, and a socket sends bytes: no text
    made and encoded again for each connection)."""
    if orjson is not None:
        try:
            return orjson.dumps(message)
        except TypeError:  # a lone surrogate, a key not a string: the standard encoder's escapes (ASCII)
            return json.dumps(message).encode()
    return encode(message).encode()


def _decode(raw: str | bytes) -> Any:
    """A client's message as JSON, refused (ValueError, UnicodeError, RecursionError) unless it is text in
    UTF-8 (no lone surrogate, escaped or not) nested at most some hundreds deep.  orjson where it is installed:
    it refuses all of these itself, at a twentieth of the cost of the standard module and its checking encode."""
    if orjson is not None:
        return orjson.loads(raw)  # (its JSONDecodeError is a ValueError; it allows 1,024 levels)
    message = json.loads(raw)
    json.dumps(message, ensure_ascii=False).encode("utf-8")  # a lone surrogate is not text
    return message


def _joins(c: str) -> bool:
    """Whether ``c`` belongs to the letter before it: an accent or other mark, a variation selector, an emoji's
    skin tone (the rest of a cluster the page would count as one letter)."""
    return unicodedata.category(c).startswith("M") or "\U0001f3fb" <= c <= "\U0001f3ff"


def _cut(text: str, limit: int) -> str:
    """At most ``limit`` characters of ``text``, cut before a letter, never between a letter and its marks."""
    if len(text) <= limit:
        return text
    end = limit
    while end > 0 and _joins(text[end]):
        end -= 1
    return text[:end].rstrip()


def readable(name: str) -> str:
    """At most ``MAX_NAME`` printable characters, spaces squeezed (the page shows it as text, never markup);
    "" when none of them draws anything (spaces, combining marks, fillers): a seat never shows a blank name."""
    # (isprintable drops every format character; the bidi controls are named too, the set a rule file is refused
    # for, so that the two stay one rule if either changes)
    kept = "".join(c for c in name if c.isprintable() and c not in BIDI_CONTROLS)
    cleaned = _cut(" ".join(kept.split()), MAX_NAME)
    seen = any(c not in BLANK and not c.isspace() and not unicodedata.category(c).startswith("M") for c in cleaned)
    return cleaned if seen else ""


class Host:
    """Every table of the server, who is connected where, and what the bots do next."""

    def __init__(self, store: Store, *, takeover_seconds: float = 60.0, clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[Table], None] | None = None, rate: float = RATE, per_table: int = PER_TABLE,
                 **table_kwargs: Any) -> None:
        self.store = store
        self.per_table = per_table
        self.takeover_seconds = takeover_seconds
        self.clock = clock
        self.on_change = on_change
        self.rate = rate
        self.tables: dict[str, Table] = {}
        """The tables in memory: those somebody is at, and new ones (the others are loaded when asked for)."""
        self.tokens: dict[str, tuple[str, int | None]] = store.tokens()
        """Every stored table's invite tokens: token -> (table id, seat; None for its spectators)."""
        self.hosts: dict[str, str] = store.host_tokens()
        """Every stored table's host token: token -> table id."""
        self.clients: dict[str, list[Client]] = {}
        self.table_kwargs = table_kwargs
        self.rematch: dict[str, str] = {}
        """A finished table -> the table of its "play again", for the tables met since the start (the others
        are asked of the store, ``rematch_of``)."""
        self.turn_since: dict[str, tuple[str, float]] = {}  # table -> (step, when it began): the turn clock
        self.timed_out: dict[str, dict] = {}  # table -> the last decision its clock made for a person
        self.chats: dict[str, list[dict]] = {}  # table -> its last ``CHAT_KEEP`` chat messages and reactions
        self.chat_budget: dict[tuple[str, int], tuple[float, float]] = {}  # (table, seat) -> (tokens, when)
        self.sent: dict[str, dict[tuple, tuple[int, Parts]]] = {}
        """table -> each view key's last view sent (its parts), with its number (the base of the next update's
        patch)."""
        self._numbers = itertools.count(1)  # updates' numbers: increasing over every table and key
        self._plain_extras: dict[bool, dict[str, Any]] = {}  # a view's extras with no clock, link or host: by passive
        self._schedule: Callable[[Callable[[], None]], object] | None = None  # ``group_commits``
        self._commit_due = False  # ``commit`` is scheduled
        self.set_aside: list[str] = []
        """Tables whose stored rows do not load (a changed action, a cut setup): logged, not served."""

    def get(self, tid: str) -> Table | None:
        """The table ``tid``, loaded from the store if it is not in memory (None: no such table, or one
        that does not load, which is set aside with a log line while the others are served)."""
        return self.adopt(tid, lambda: self.store.load(tid, **self.table_kwargs))

    def adopt(self, tid: str, load: Callable[[], Table]) -> Table | None:
        """Table ``tid`` as ``get`` gives it, ``load()`` making it if it is not in memory (the server's loop has
        it rebuilt in a thread beforehand: ``khrap.web.app``; a table loaded meanwhile is the one kept)."""
        table = self.tables.get(tid)
        if table is not None or tid in self.set_aside:
            return table
        try:
            table = load()
        except LookupError:
            return None
        except Exception as err:  # one bad table must not keep the others down
            logging.getLogger("khrap.web").error("table %s set aside: it does not load from the database (%s: %s)",
                                                 tid, type(err).__name__, str(err)[:200])
            self.set_aside.append(tid)
            return None
        self._index(table)
        for st in table.seats:  # after a restart or an unload every player has the takeover time to come back
            st.gone_since = self.clock() if st.human else None
        return table

    def table_of(self, token: Any) -> str | None:
        """The id of the table a seat's, spectator's or host's token opens (None for any other value), loaded or not."""
        if not isinstance(token, str):
            return None
        entry = self.tokens.get(token)
        return entry[0] if entry is not None else self.hosts.get(token)

    def find(self, token: str) -> tuple[Table, int | None] | None:
        """(table, seat) of an invite token (seat None: a spectator's), the table loaded if need be."""
        entry = self.tokens.get(token)
        table = None if entry is None else self.get(entry[0])
        return None if table is None else (table, entry[1])

    def unload(self, table: Table) -> bool:
        """Take a table nobody is at out of memory when nothing moves there without people: a finished
        one (archived: its record is still downloadable), or one between deals.  True if it was."""
        if self.clients.get(table.id) or table.in_deal or self.tables.get(table.id) is not table:
            return False
        del self.tables[table.id]
        self.clients.pop(table.id, None)
        self.sent.pop(table.id, None)
        self._forget_chat(table.id)
        self.turn_since.pop(table.id, None)
        self.timed_out.pop(table.id, None)
        return True

    def expire(self, days: float, among: list[str] | None = None) -> list[str]:
        """Delete the tables abandoned for ``days`` (not finished, nothing happened there since, nobody at
        them now); finished tables are kept (their records stay downloadable).  ``among``: of these tables
        only (the server finds the candidates apart, then deletes them a few at a time).  Returns their ids."""
        gone = []
        self.commit()
        for tid in self.store.abandoned(time.time() - days * 86400, among):
            if self.clients.get(tid):
                continue
            for token in self.store.delete(tid):  # (its links, not a walk over every table's: O(1) a table)
                self.tokens.pop(token, None)
                self.hosts.pop(token, None)
            self.tables.pop(tid, None)
            self.clients.pop(tid, None)
            self.sent.pop(tid, None)
            self._forget_chat(tid)
            self.turn_since.pop(tid, None)
            self.timed_out.pop(tid, None)
            gone.append(tid)
        if gone:
            # (the set made once: made for each entry, 10,000 tables expiring at once took minutes of the loop)
            ended = set(gone)
            self.rematch = {k: v for k, v in self.rematch.items() if k not in ended and v not in ended}
            logging.getLogger("khrap.web").info("%d abandoned tables expired", len(gone))
        return gone

    def rematch_of(self, tid: str) -> str | None:
        """The table that finished table ``tid``'s "play again" made, if any."""
        found = self.rematch.get(tid)
        if found is None and self.tables.get(tid) is not None and self.tables[tid].finished:
            found = self.store.rematch_of(tid)  # only a finished table has one (an index lookup)
            if found is not None:
                self.rematch[tid] = found
        return found

    def _index(self, table: Table) -> None:
        self.tables[table.id] = table
        if table.setup.get("after"):
            self.rematch[table.setup["after"]] = table.id
        self.clients.setdefault(table.id, [])

    def add(self, table: Table) -> None:
        self.commit()  # (the other writes are transactions of their own, after the turn's)
        self.store.add(table)
        self._index(table)
        self.tokens.update({st.token: (table.id, seat) for seat, st in enumerate(table.seats)})
        self.tokens[table.spectator_token] = (table.id, None)
        if table.host_token is not None:
            self.hosts[table.host_token] = table.id
        for st in table.seats:  # a seat nobody opens in time is played by a bot until he comes
            st.gone_since = self.clock() if st.human else None

    # ------------------------------------------------------------ presence
    def present(self, table: Table) -> list[bool]:
        return [st.connections > 0 for st in table.seats]

    def presence(self, table: Table) -> tuple[list[bool], list[bool]]:
        """(``present``, ``taken_over``) in one pass over the seats: a broadcast's (once an action)."""
        return fanout.presence(table.seats, self.clock(), self.takeover_seconds)

    def taken_over(self, table: Table) -> list[bool]:
        """Human seats a bot plays now: their player has been gone longer than the takeover time."""
        now = self.clock()
        return [st.human and st.connections == 0 and st.gone_since is not None
                and now - st.gone_since >= self.takeover_seconds for st in table.seats]

    def view(self, table: Table, seat: int | None, lang: str, passive: bool = False, host: bool = False) -> dict:
        """What a connection of ``seat`` sees (``parts``' view)."""
        return self.parts(table, seat, lang, passive, host).whole()

    def parts(self, table: Table, seat: int | None, lang: str, passive: bool = False, host: bool = False, *,
              presence: tuple[list[bool], list[bool]] | None = None, again: Table | None | bool = False,
              timing: tuple[float | None, dict | None] | None = None) -> Parts:
        """The parts of what a connection of ``seat`` sees (``delta.Parts``); ``passive``: its seat is open on a
        newer connection (it watches: no action offered); ``host``: it holds the host's link (each person's seat
        link with it); ``presence``: who is here and who is taken over, ``again``: the table its "play again"
        made (None: none), and ``timing``: the turn clock's deadline and its last decision for a person, if the
        caller found them (once for all its views)."""
        present, takeover = presence or (self.present(table), self.taken_over(table))
        parts = table.parts(seat, lang, present=present, takeover=takeover, offered=not passive)
        if again is False:
            again = self._again_table(table)
        deadline, timed_out = timing or (self._clock_deadline(table), self.timed_out.get(table.id))
        parts.extras = self._extras(table, seat, passive, host, again, deadline, timed_out)
        return parts

    def _plain(self, passive: bool) -> dict[str, Any]:
        """A view's extras with no clock, no "play again" and no host link: one dict for all such views (read
        only), so a patch finds it unchanged by identity (``fanout.plain``)."""
        return fanout.plain(self._plain_extras, passive, self.takeover_seconds)

    def _extras(self, table: Table, seat: int | None, passive: bool, host: bool, again: Table | None,
                deadline: float | None, timed_out: dict | None) -> dict[str, Any]:
        """The server's keys of a view (``Parts.extras``): whether it only watches, the host's links, the turn
        clock, the table its "play again" made."""
        mine = timed_out if timed_out and timed_out["seat"] == seat else None
        if not host and again is None and deadline is None and mine is None:
            return self._plain(passive)  # (most views)
        extras: dict[str, Any] = {"elsewhere": passive, "host": None}
        if host:
            extras["host"] = {"links": {str(i): st.token for i, st in enumerate(table.seats) if st.human},
                              "spectator": table.spectator_token}
        extras["takeover_seconds"] = self.takeover_seconds
        if again is not None:  # each seat is sent its own seat's link at the new table, a spectator his
            extras["again"] = again.spectator_token if seat is None else again.seats[seat].token
            extras["again_by"] = again.setup.get("again_by")  # the seat that pressed "Play again" (None: not known)
            if host:  # the host of this table hosts the new one: its page keeps the new host link (nobody else's)
                extras["again_host"] = {"table": again.id, "token": again.host_token}
        extras["clock"] = _NO_CLOCK if deadline is None and mine is None else \
            {"left": None if deadline is None else max(0.0, round(deadline - self.clock(), 1)), "timed_out": mine}
        return extras

    def _again_table(self, table: Table) -> Table | None:
        return fanout.again_table(self, table)

    # ------------------------------------------------------------ the turn clock
    def _clock_deadline(self, table: Table) -> float | None:
        """When the person to act at ``table`` runs out of time (None: no clock, or no person to act).
        A decision's time starts when the host first sees it (``acting.clock_deadline``)."""
        return acting.clock_deadline(self, table)

    def clock_ran_out(self, table: Table) -> bool:
        deadline = self._clock_deadline(table)
        return deadline is not None and self.clock() >= deadline

    # ------------------------------------------------------------ messages
    @staticmethod
    def _refuse(client: Client, message: dict) -> None:
        """A refusal: its ``reason`` in English (the protocol's words) and ``said`` in the connection's
        language, worded by ``play.refusals.say`` (a sentence it has no message for: its generic "not
        allowed now", never English on a Russian page)."""
        reason = message["reason"]
        if client.table is not None:
            said = client.table.refusal_said(reason, client.lang)
        else:  # before hello: no table's voice yet
            from khrap.gamelog.voice import Voice
            from khrap.play.refusals import say

            said = say(Voice(client.lang), reason)
        client.conn.send({"type": "refused", **message, "said": said})

    def connect(self, conn: Connection) -> Client:
        return Client(conn, rate=self.rate, burst=max(BURST, self.rate * 3), tokens=max(BURST, self.rate * 3),
                      last=self.clock())

    def disconnect(self, client: Client) -> None:
        table = client.table
        if table is None:
            return
        self.clients[table.id].remove(client)
        if client.seat is not None:
            st = table.seats[client.seat]
            st.connections -= 1
            if st.connections == 0:
                st.gone_since = self.clock()
            left = [c for c in self.clients[table.id] if c.seat == client.seat]
            if not client.passive and left:  # the playing tab closed: the newest other one plays the seat
                self._make_active(left[-1])
        self.broadcast(table)
        self.unload(table)  # the last one gone from a finished table, or between deals: out of memory

    def receive(self, client: Client, raw: str | bytes) -> None:
        """One message from a client: acted on, or refused with a reason (the table unharmed).  Read, and an
        action applied, by the compiled act path (``acting.receive``); the other messages come back to
        ``dispatch``.  The decoder and encoder are this module's, read at each message (tests replace them)."""
        acting.receive(self, client, raw, orjson.loads if orjson is not None else _decode, encode_json)

    def dispatch(self, client: Client, kind: str, message: dict) -> None:
        """A message that is not a seat's action at its table: ``kind`` is its ``type``."""
        if kind == "hello":
            self._hello(client, message)
            return
        if client.table is None:
            self._refuse(client, {"reason": "say hello with your table link's token first"})
            return
        if client.passive and kind in ("act", "next", "name", "again", "leave"):
            self._refuse(client, {"code": "elsewhere", "reason": ELSEWHERE})
            return
        if kind == "lang":
            lang = message.get("lang")
            client.lang = lang if lang in LANGS else "en"
            self.send_view(client)
        elif kind == "full":  # a client that missed an update (or holds none) asks for the whole view
            self.send_view(client)
        elif kind == "act":
            self._act(client, message.get("action"), message.get("step"))
        elif kind == "next":
            self._next(client)
        elif kind == "name":
            self._name(client, message.get("name"))
        elif kind == "again":
            self._again(client)
        elif kind == "chat":
            self._chat(client, message.get("text"))
        elif kind == "react":
            self._react(client, message.get("id"))
        elif kind == "claim":
            self._claim(client)
        elif kind == "leave":
            self._leave(client)
        elif kind == "host":
            self._host(client, message.get("token"))
        elif kind == "seat":
            self._seat(client, message.get("seat"), message.get("to"))
        else:
            self._refuse(client, {"reason": f"unknown message type {kind[:40]!r}"})

    def _hello(self, client: Client, message: dict) -> None:
        if client.table is not None:
            self._refuse(client, {"reason": "this connection has said hello already"})
            return
        token = message.get("token")
        usable = isinstance(token, str) and len(token) <= 100
        found = self.find(token) if usable else None
        hosting = found is None and usable and token in self.hosts
        if hosting:  # the host's link: he watches the table, with the seats' links and the power to change them
            table = self.get(self.hosts[token])
            found = None if table is None else (table, None)
        if found is None:
            gone = self.store.revoked(token) if usable else None
            if gone is not None:
                client.conn.send(_revoked(*gone[1:]))
                client.conn.close("seat handed over")
                return
            client.conn.send({"type": "error", "reason": "this link is not a table's: ask for a new one"})
            client.conn.close("unknown token")
            return
        table, seat = found
        client.host = hosting
        if len(self.clients[table.id]) >= self.per_table:
            client.conn.send({"type": "error", "reason": "this table has as many connections as it takes; try later"})
            client.conn.close("table full")
            return
        lang = message.get("lang")
        client.table, client.seat, client.lang = table, seat, lang if lang in LANGS else "en"
        client.deltas = message.get("deltas") is True
        # the name this browser keeps; one with nothing to read never blanks the seat's (his other device's)
        if seat is not None and isinstance(message.get("name"), str) and readable(message["name"]):
            self._name_only(table, seat, message["name"])
        self.clients[table.id].append(client)
        if seat is not None:
            st = table.seats[seat]
            st.connections += 1
            st.gone_since = None
            self._make_active(client)  # the newest connection of a seat plays it; an older one only watches
        self.broadcast(table)
        # the table talk so far, once (if any); then each new entry alone: the views stay a few KiB (issue 32)
        if self.chats.get(table.id):
            client.conn.send({"type": "chat", "full": True, "entries": list(self.chats[table.id])})

    def _make_active(self, client: Client) -> None:
        client.passive = False
        for other in self.clients[client.table.id]:
            if other is not client and other.seat == client.seat:
                other.passive = True

    def _claim(self, client: Client) -> None:
        """"Play here": an older connection of a seat takes it back; the other connections of the seat watch."""
        if client.seat is None:
            self._refuse(client, {"reason": "a spectator has no seat to claim"})
            return
        self._make_active(client)
        self.broadcast(client.table)

    def _host(self, client: Client, token: Any) -> None:
        """A connection (a seat's or a spectator's) shows the table's host link: it may hand seats over."""
        table = client.table
        if not isinstance(token, str) or table.host_token is None or \
                not secrets.compare_digest(token.encode(), table.host_token.encode()):
            self._refuse(client, {"reason": "this is not this table's host link"})
            return
        client.host = True
        self.send_view(client)

    def _seat(self, client: Client, seat: Any, to: Any) -> None:
        """The host gives a seat to a bot ("bot") or to a new link ("link")."""
        table = client.table
        if not client.host:
            self._refuse(client, {"reason": "only the table's host hands seats over"})
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.players \
                or to not in ("bot", "link"):
            self._refuse(client, {"reason": f"a seat from 0 to {table.players - 1} goes to "
                                                           "\"bot\" or to a new \"link\""})
            return
        if table.finished:
            self._refuse(client, {"reason": "the session is over"})
            return
        if to == "bot" and not table.seats[seat].human:
            self._refuse(client, {"reason": f"a bot plays seat {seat} already"})
            return
        self.reseat(table, seat, to)

    def _leave(self, client: Client) -> None:
        """A player leaves: his seat goes to the takeover bot and his link stops playing it."""
        if client.seat is None:
            self._refuse(client, {"reason": "a spectator has no seat to leave"})
            return
        self.reseat(client.table, client.seat, "left")

    def reseat(self, table: Table, seat: int, why: str) -> None:
        """Seat ``seat`` changes hands, stored first; the connections of its old link are told plainly and
        closed (their link plays it no more), then everybody sees the table as it is now."""
        self.commit()  # (the turn's writes first: this one is a transaction of its own)
        before = dataclasses.replace(table.seats[seat])
        try:
            old = table.reseat(seat, why)
        except ValueError as err:  # the table's seats changed hands as often as they may
            for client in self.clients[table.id]:
                if client.host or client.seat == seat:
                    self._refuse(client, {"reason": str(err)})
            return
        try:
            self.store.reseat(table, seat, old)
        except Exception:  # not stored: the seat stays as it was
            table.seats[seat] = before
            table.reseats -= 1
            raise
        self.tokens.pop(old, None)
        self.tokens[table.seats[seat].token] = (table.id, seat)
        if table.seats[seat].human:  # a new person: he has the takeover time to come before a bot plays for him
            table.seats[seat].gone_since = self.clock()
        for other in list(self.clients[table.id]):
            if other.seat == seat:
                self.clients[table.id].remove(other)
                other.table = None  # disconnect() has nothing left to undo
                other.conn.send(_revoked(seat, why))
                other.conn.close("seat handed over")
        self.broadcast(table)

    def _act(self, client: Client, text: Any, step: Any) -> None:
        acting.act(self, client, client.table, text, step, encode_json)

    # ------------------------------------------------------------ chat and reactions
    def _chat(self, client: Client, text: Any) -> None:
        """A seat's chat message: text only (control and format characters out, spaces squeezed), at most
        ``CHAT_MAX`` characters; the page shows it as a text node, so markup and links stay plain text."""
        if not isinstance(text, str):
            self._refuse(client, {"reason": "a chat message is a text"})
            return
        clean = " ".join("".join(c for c in text if c.isprintable()).split())
        if not clean or len(clean) > CHAT_MAX:
            self._refuse(client, {"code": "chat_length",
                              "reason": f"a chat message is 1 to {CHAT_MAX} characters"})
            return
        self._say(client, {"text": clean})

    def _react(self, client: Client, rid: Any) -> None:
        if rid not in REACTIONS:
            self._refuse(client, {"reason": f"a reaction is one of {', '.join(REACTIONS)}"})
            return
        self._say(client, {"react": rid})

    def _say(self, client: Client, entry: dict) -> None:
        """Add a seat's chat entry, within its seat's budget (every tab of the seat together); spectators read."""
        table = client.table
        if client.seat is None:
            self._refuse(client, {"code": "chat_spectator", "reason": "a spectator reads the chat only"})
            return
        key, now = (table.id, client.seat), self.clock()
        tokens, last = self.chat_budget.get(key, (CHAT_BURST, now))
        tokens = min(CHAT_BURST, tokens + (now - last) * CHAT_RATE)
        if tokens < 1:
            self.chat_budget[key] = (tokens, now)
            self._refuse(client, {"code": "chat_rate",
                              "reason": "too many chat messages: wait a little"})
            return
        self.chat_budget[key] = (tokens - 1, now)
        chat = self.chats.setdefault(table.id, [])
        chat.append({"n": (chat[-1]["n"] + 1) if chat else 1, "seat": client.seat, **entry})
        del chat[:-CHAT_KEEP]
        message = {"type": "chat", "full": False, "entries": chat[-1:]}
        text = encode(message)  # once for every connection of the table
        for other in list(self.clients.get(table.id, [])):
            send_text = getattr(other.conn, "send_text", None)
            if send_text is None:
                other.conn.send(message)
            else:
                send_text(text)

    def _forget_chat(self, tid: str) -> None:
        self.chats.pop(tid, None)
        for key in [k for k in self.chat_budget if k[0] == tid]:
            del self.chat_budget[key]

    def _name_only(self, table: Table, seat: int, name: str) -> None:
        """The seat's name, or none (the page says "Seat 2") when nothing of it can be read; stored when it
        changes (a table rebuilt from the store keeps its players' names).  A name that cannot be stored stays
        in memory: it is no move of the game."""
        name = readable(name)
        if table.seats[seat].name == name:
            return
        table.seats[seat].name = name
        try:
            self.store.named(table, seat)
        except Lost as err:  # the turn's transaction rolled back: its tables as stored again
            self._lost(err.tables)
        except Exception:
            logging.getLogger("khrap.web").exception("table %s: a seat's name could not be stored", table.id)
        self._written()

    def _name(self, client: Client, name: Any) -> None:
        if client.seat is None or not isinstance(name, str):
            self._refuse(client, {"reason": "only a player names his seat, with a text"})
            return
        self._name_only(client.table, client.seat, name)
        self.broadcast(client.table)

    def _again(self, client: Client) -> None:
        """"Play again": once the session is over, one new table with the same rules and seats for all."""
        table = client.table
        if client.seat is None or not table.finished:
            self._refuse(client, {"reason": "a player may ask to play again once the session is over"})
            return
        if self.rematch_of(table.id) is None:
            self.add(table.again(self.table_kwargs.get("seed_source"), by=client.seat))
        self.broadcast(table)

    def _next(self, client: Client) -> None:
        table = client.table
        if client.seat is None or table.in_deal or table.finished:
            self._refuse(client, {"reason": "there is no next deal to be ready for now"})
            return
        table.seats[client.seat].ready = True
        if not self.start_if_ready(table):
            # Told to the seats ready now only: their page names the seats still to press; a page shows no other
            # seat's readiness before it presses, so the others see it in their next update (the deal's), and a
            # deal costs the views of one broadcast of the four ready changes, not three.
            self.broadcast(table, seats={i for i, st in enumerate(table.seats) if st.ready})

    # ------------------------------------------------------------ storing a turn's changes together
    def group_commits(self, schedule: Callable[[Callable[[], None]], object] | None) -> None:
        """Store the actions and deals begun of one turn of the server's loop in one transaction
        (``Store.group``): ``schedule(commit)`` runs ``commit`` once the turn is over, and the server calls
        ``commit`` before it writes anything to a client (``khrap.web.wire``, its other sockets, a record
        downloaded), so an update still leaves only once what it shows is stored.  None: each write commits
        on its own again (what is waiting committed first)."""
        self._schedule = schedule
        self._commit_due = False
        self._lost(self.store.group(schedule is not None))

    def commit(self) -> None:
        """Commit the turn's writes, if any wait; if that fails, the tables written in it are as stored again
        and their connections dropped (they were to be sent what was not stored: their pages reconnect)."""
        self._commit_due = False
        if self.store.pending:
            self._lost(self.store.commit())

    def _written(self) -> None:
        """After a write: the turn's commit scheduled, if writes wait for it."""
        acting.written(self, self.store)

    def _lost(self, tables: list[Table]) -> None:
        for table in tables:
            for client in list(self.clients.get(table.id, [])):
                abort = getattr(client.conn, "abort", None)  # (nothing of what waits is written)
                if abort is not None:
                    abort()
                else:
                    client.conn.close("the server could not store the last moves: reconnect")
            try:
                self._reload(table)
            except Exception:  # out of memory then: the next hello loads it as stored, or sets it aside
                logging.getLogger("khrap.web").exception("table %s could not be reloaded", table.id)
                self.tables.pop(table.id, None)

    # ------------------------------------------------------------ changing a table
    def apply(self, table: Table, seat: int, text: str, by: str) -> None:
        """Apply an action and store it before anybody hears of it; a failed write rebuilds the table
        (``acting.apply``, compiled: the act path)."""
        acting.apply(self, table, seat, text, by, encode_json)

    def _reload(self, table: Table) -> None:
        """The table as the store holds it (after a failed write: the change is undone)."""
        fresh = self.store.load(table.id, **self.table_kwargs)
        table.deals, table.actions = fresh.deals, fresh.actions
        table._rebuild()
        table._ensure_decks()

    def start_if_ready(self, table: Table) -> bool:
        """Begin the next deal once every player is here and has pressed "next deal"; a player away
        longer than the takeover time does not hold the table up (a bot plays for him).  With no
        player here at all the table waits."""
        if table.in_deal or table.finished:
            return False
        over = self.taken_over(table)
        needed = [st for i, st in enumerate(table.seats) if st.human and not over[i]]
        if not needed or not all(st.connections > 0 and st.ready for st in needed):
            return False
        table.start_deal()
        try:
            self.store.started(table)
        except Lost as err:
            self._lost(err.tables)
            raise
        except Exception:
            self._reload(table)
            raise
        self._written()
        self.broadcast(table)
        return True

    def automated(self, table: Table) -> tuple[int, str] | None:
        """(seat, bot kind) when a bot is to act at ``table`` now, else None."""
        if not table.in_deal:
            return None
        seat = table.session.to_act
        kind = table.bot_kind(seat, self.taken_over(table)[seat])
        if kind is None and self.clock_ran_out(table):
            kind = table.setup["takeover_bot"]  # this one decision only: the clock starts again for the next
        return None if kind is None else (seat, kind)

    def step(self, table: Table) -> bool:
        """One bot action at ``table`` if one is due; True if something happened."""
        due = self.automated(table)
        if due is None:
            return self.start_if_ready(table)
        seat, kind = due
        by_clock = table.bot_kind(seat, self.taken_over(table)[seat]) is None
        action = table.bot_choice(seat, kind)
        text = str(action)
        if by_clock:  # the seat is told, in its view, what was played for it: its words, and typed, what the page reads
            self.timed_out[table.id] = {"seat": seat, "action": text, "word": action.word,
                                        "cards": [card_str(c) for c in action.cards]}
        self.apply(table, seat, text, "bot")
        return True

    def next_deadline(self, table: Table) -> float | None:
        """When an absent player's seat will be taken over (to wake the clock then)."""
        times = [st.gone_since + self.takeover_seconds for st in table.seats
                 if st.human and st.connections == 0 and st.gone_since is not None]
        clock = self._clock_deadline(table)
        if clock is not None:
            times.append(clock)
        future = [t for t in times if t > self.clock()]
        return min(future) if future else None

    # ------------------------------------------------------------ sending
    def send_view(self, client: Client) -> None:
        """``client``'s whole view now (the base of the patches it is sent next)."""
        key = client.key
        parts = self.parts(client.table, *key)
        parts.n = number = next(self._numbers)
        self.sent.setdefault(client.table.id, {})[key] = (number, parts)
        client.shown = (key, number)
        client.conn.send(parts.whole())

    def broadcast(self, table: Table, seats: Container[int] | None = None) -> None:
        """Each connection of ``table`` gets its own view (one per seat and language, made once and encoded
        once): the whole view, or to a connection that asked for them and holds the view this seat and
        language was sent last, the patch from that one to this one (a ``delta`` message, ``khrap.web.delta``:
        made from the parts of the two views, not from the views).  The views of a broadcast share one number,
        so the viewers that see the change alike (the spectators, and the seats of which nothing of their own
        changed: most seats at most actions) share one patch, encoded once.
        ``seats``: only the connections of these seats (the others keep the view they hold as their base)."""
        acting.broadcast(self, table, seats, encode_json)  # (compiled; the encoder read here, where tests patch it)


__all__ = ["BURST", "CHAT_MAX", "FLOOD_LIMIT", "PER_TABLE", "REACTIONS", "Client", "Connection", "Host", "MAX_MESSAGE",
           "RATE", "encode", "encode_json"]
