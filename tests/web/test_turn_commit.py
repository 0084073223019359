"""A turn's moves stored together (issue 32's capacity): the actions and deals begun of one turn of the server's
loop are one transaction, committed once the turn is over and before anything is written to anybody; a turn that
cannot be stored is undone, and the connections that were to be told of it are dropped."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from khrap.web.wire import Wire, _flush_waiting
from tests.web.conftest import fixed_seeds


class Conn:
    """A connection that keeps what it is sent and whether it was dropped."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.aborted = False

    def send(self, message: dict) -> None:
        self.texts.append(json.dumps(message))

    def send_text(self, text: str) -> None:
        self.texts.append(text)

    def close(self, reason: str) -> None:
        raise AssertionError("a dropped connection is aborted, not closed (closing writes what waits)")

    def abort(self) -> None:
        self.aborted = True


def _stored(path: Path) -> tuple[int, int]:
    """(actions, deals begun) that another connection reads: what is committed."""
    db = sqlite3.connect(path)
    try:
        return (db.execute("SELECT count(*) FROM actions").fetchone()[0],
                db.execute("SELECT count(*) FROM deals WHERE started").fetchone()[0])
    finally:
        db.close()


def _seated(path: Path, due: list) -> tuple[Host, list[Table], list[Conn]]:
    """Two 2-seat tables, every seat connected, their first deals begun and committed."""
    host = Host(Store(path), takeover_seconds=1e12)
    host.group_commits(due.append)
    tables = [Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                           bots={}, deals=3, seed_source=fixed_seeds(f"turn{i}")) for i in range(2)]
    conns = []
    for table in tables:
        host.add(table)  # (a transaction of its own)
    for table in tables:
        for seat in range(2):
            conn = Conn()
            client = host.connect(conn)
            host.receive(client, json.dumps({"type": "hello", "token": table.seats[seat].token}))
            host.receive(client, '{"type": "next"}')
            conns.append(conn)
    assert [t.step for t in tables] == ["1:0", "1:0"]
    assert len(due) == 1 and _stored(path) == (0, 0)  # two deals begun in the turn: one commit, not yet run
    due.pop()()
    assert _stored(path) == (0, 2)
    return host, tables, conns


def _act(host: Host, table: Table) -> None:
    seat = table.session.to_act
    [client] = [c for c in host.clients[table.id] if c.seat == seat]
    host.receive(client, json.dumps({"type": "act", "action": table.bot_action(seat, "rule"), "step": table.step}))


def test_a_turns_actions_are_one_transaction_committed_once_the_turn_is_over(tmp_path: Path) -> None:
    path, due = tmp_path / "t.sqlite", []
    host, tables, _ = _seated(path, due)
    for table in tables:
        _act(host, table)
    _act(host, tables[0])
    assert [t.step for t in tables] == ["1:2", "1:1"]
    assert len(due) == 1  # one commit for the turn's three actions
    assert _stored(path) == (0, 2)  # not committed before the turn is over
    due.pop()()
    assert _stored(path) == (3, 2) and not host.store.pending
    restored = Host(Store(path), takeover_seconds=1e12)  # what a restart finds: the tables as played
    assert [restored.get(t.id).step for t in tables] == ["1:2", "1:1"]


class FailingCommits:
    """The store's connection, but its commits fail (a full disk, an I/O error)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args):
        if sql == "COMMIT":
            raise sqlite3.OperationalError("disk I/O error")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.db, name)


def test_a_turn_that_cannot_be_stored_is_undone_and_its_tables_connections_dropped(tmp_path: Path) -> None:
    path, due = tmp_path / "t.sqlite", []
    host, tables, conns = _seated(path, due)
    _act(host, tables[0])
    _act(host, tables[0])
    real, host.store.db = host.store.db, FailingCommits(host.store.db)
    due.pop()()
    host.store.db = real
    assert _stored(path) == (0, 2)
    assert tables[0].step == "1:0" and len(tables[0].actions) == 0  # as stored: the turn's two actions undone
    assert [c.aborted for c in conns] == [True, True, False, False]  # (its pages reconnect and see it as stored)
    _act(host, tables[0])  # and it plays on from there
    due.pop()()
    assert _stored(path) == (1, 2) and tables[0].step == "1:1"


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return False


class Loop:
    def __init__(self) -> None:
        self.soon: list = []

    def call_soon(self, callback, *args) -> None:
        self.soon.append((callback, args))


def test_a_turns_frames_are_written_after_the_apps_hook_once_a_turn() -> None:
    loop, wires, order = Loop(), [], []
    for _ in range(3):
        wire = Wire.__new__(Wire)  # (its sending half alone: no socket)
        wire.out, wire.loop, wire.transport = [], loop, Transport()
        wire.close_sent = wire.disconnected = False
        wire.before_write = None
        wires.append(wire)

    def commit() -> None:
        order.append(("commit", sum(len(w.transport.written) for w in wires)))

    for wire in wires:
        wire.before_write = commit
        wire.write_text(b"update")
    assert len(loop.soon) == 1 and all(w.transport.written == [] for w in wires)  # nothing written in the turn
    callback, args = loop.soon.pop()
    assert callback is _flush_waiting
    callback(*args)
    assert order == [("commit", 0)]  # once, before any connection's frames were written
    assert [w.transport.written for w in wires] == [[b"\x81\x06update"]] * 3
