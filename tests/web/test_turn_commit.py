"""A turn's moves stored together (issue 32's capacity): the actions and deals begun of one turn of the server's
loop are one transaction, committed once the turn is over and before anything is written to anybody; a turn that
cannot be stored is undone, and the connections that were to be told of it are dropped."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Lost, Store
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


class Failing:
    """The store's connection, but the statements that begin with ``start`` fail with ``error``."""

    def __init__(self, db: sqlite3.Connection, start: str, error: str) -> None:
        self.db, self.start, self.error = db, start, error

    def execute(self, sql: str, *args):
        if sql.startswith(self.start):
            raise sqlite3.OperationalError(self.error)
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.db, name)


def failing_commits(db: sqlite3.Connection) -> Failing:
    """Its commits fail (a full disk, an I/O error)."""
    return Failing(db, "COMMIT", "disk I/O error")


def failing_inserts(db: sqlite3.Connection) -> Failing:
    """An action's row cannot be written (a constraint, a full disk)."""
    return Failing(db, "INSERT INTO actions", "database or disk is full")


def test_a_turn_that_cannot_be_stored_is_undone_and_its_tables_connections_dropped(tmp_path: Path) -> None:
    path, due = tmp_path / "t.sqlite", []
    host, tables, conns = _seated(path, due)
    _act(host, tables[0])
    _act(host, tables[0])
    real, host.store.db = host.store.db, failing_commits(host.store.db)
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


def test_what_waits_is_committed_before_a_write_of_its_own_when_grouping_ends_and_at_close(tmp_path: Path) -> None:
    # The store on its own, without the host's commit before each: one action waits in the turn's transaction,
    # then (a) another table is added (a transaction of its own), (b) grouping is turned off (the server's
    # shutdown), (c) the store is closed.  Each time the waiting action is committed first: 1 action stored.
    for end in ("add", "ungroup", "close"):
        path, due = tmp_path / f"{end}.sqlite", []
        host, tables, _ = _seated(path, due)
        _act(host, tables[0])
        assert host.store.pending and _stored(path) == (0, 2)
        if end == "add":
            extra = Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                                 bots={}, deals=3, seed_source=fixed_seeds("turn-extra"))
            host.store.add(extra)
            assert host.store.load(extra.id).step == "0:0"
        elif end == "ungroup":
            assert host.store.group(False) == []
        else:
            host.store.close()
        assert _stored(path) == (1, 2), end


def test_a_write_that_fails_in_the_turn_undoes_every_table_written_in_it(tmp_path: Path) -> None:
    # Table 1 acts (1:1, waiting in the turn's transaction); table 0's action then cannot be written: the whole
    # transaction is rolled back, so both tables are back as stored (1:0), and all four seats' connections are
    # dropped (table 1's pages were to be told of an action no longer stored).
    path, due = tmp_path / "t.sqlite", []
    host, tables, conns = _seated(path, due)
    _act(host, tables[1])
    assert tables[1].step == "1:1"
    real, host.store.db = host.store.db, failing_inserts(host.store.db)
    with pytest.raises(Lost):
        _act(host, tables[0])
    host.store.db = real
    assert [t.step for t in tables] == ["1:0", "1:0"] and not host.store.pending
    assert [c.aborted for c in conns] == [True, True, True, True]
    for _ in range(3):  # and both play on from there
        _act(host, tables[1])
    due.pop()()
    assert _stored(path) == (3, 2) and tables[1].step == "1:3"


def _deal_rows(path: Path, tid: str) -> list[tuple[int, int]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT number, started FROM deals WHERE table_id = ? ORDER BY number", (tid,)).fetchall()
    finally:
        db.close()


def test_an_action_replayed_after_a_failed_commit_stores_the_deals_it_changed(tmp_path: Path) -> None:
    # Every action of table 0's first deal is first lost (its commit fails, the table is reloaded as stored) and
    # then played again and committed.  The action that settles deal 1 also writes deal 2's row (its commitment,
    # not started); replayed after the loss, it must write it again, since the rolled-back rows are not stored.
    path, due = tmp_path / "t.sqlite", []
    host, tables, _ = _seated(path, due)
    table = tables[0]
    for client in host.clients[table.id]:  # (some 90 messages a seat: past the connection's burst)
        client.tokens = client.burst = 1e9
    assert _deal_rows(path, table.id) == [(1, 1)]
    while table.in_deal:
        step = table.step
        _act(host, table)
        real, host.store.db = host.store.db, failing_commits(host.store.db)
        due.pop()()
        host.store.db = real
        assert table.step == step  # undone
        _act(host, table)
        due.pop()()
    assert _deal_rows(path, table.id) == [(1, 1), (2, 0)]
    restored = Host(Store(path), takeover_seconds=1e12).get(table.id)
    assert [(d.number, d.commitment) for d in restored.deals] == [(d.number, d.commitment) for d in table.deals]


def test_once_the_host_stops_grouping_what_waits_is_stored_and_each_action_at_once(tmp_path: Path) -> None:
    # The server's shutdown (``group_commits(None)``): the waiting action is committed then; after it, an action
    # is stored as it is applied, with no commit scheduled.
    path, due = tmp_path / "t.sqlite", []
    host, tables, _ = _seated(path, due)
    _act(host, tables[0])
    scheduled = due.pop()  # (the turn's commit, due when the loop's turn is over: run last here)
    host.group_commits(None)
    assert _stored(path) == (1, 2) and not host.store.pending
    _act(host, tables[0])
    assert _stored(path) == (2, 2) and due == []
    scheduled()
    assert _stored(path) == (2, 2)


def test_a_connection_closed_with_frames_waiting_commits_before_they_are_written() -> None:
    # ``Wire.close_with`` writes what waits for the turn's end before its closing frame: the app's hook (the
    # store's commit) runs first, with nothing written yet.
    order: list[tuple[str, int]] = []
    wire = Wire.__new__(Wire)  # (its sending half alone: no socket)
    wire.out, wire.loop, wire.transport = [], Loop(), Transport()
    wire.close_sent = wire.disconnected = False
    wire.before_write = lambda: order.append(("commit", len(wire.transport.written)))
    wire.write_text(b"update")
    wire.disconnected = True  # (the socket gone meanwhile: the frames are still flushed, nothing more is sent)
    wire.close_with(1000, "bye")
    assert order == [("commit", 0)]


def test_the_server_groups_the_writes_of_its_loops_turns_while_it_runs(tmp_path: Path) -> None:
    # The app's lifespan turns the grouping on for its event loop's thread (the writes of another thread, a test
    # driving the host, still commit at once) and off at shutdown, what waits committed.
    import threading

    from starlette.testclient import TestClient

    from khrap.web.app import create_app

    with TestClient(create_app(tmp_path / "t.sqlite", bot_delay=0.0)) as client:
        store = client.app.state.store
        assert store.grouped == client.portal.call(threading.get_ident) != threading.get_ident()
    assert store.grouped is None and not store.pending
