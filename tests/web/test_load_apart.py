"""A table not in memory is rebuilt off the event loop (issue 32's tail): a long evening's replay takes 0.1 to
0.2 s (30 to 100 deals) and a finished 500-deal one about a second, and every table waited that long while the
loop did it. Now its rows are read on the loop and its game replayed in a thread: the other tables are served
meanwhile, and the messages its connection sends meanwhile are handled after its hello, in order."""

from __future__ import annotations

import json
import sqlite3
import threading
import urllib.request
from pathlib import Path

import pytest

from khrap.variant.catalog import builtin
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds

websockets = pytest.importorskip("websockets.sync.client", reason="the websockets client is not installed")


def _tables(path: Path) -> tuple[Table, Table]:
    """Two stored tables, neither in any server's memory (a server loads a table when one of its links is opened)."""
    store = Store(path)
    made = tuple(Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                              bots={}, deals=1, seed_source=fixed_seeds(f"apart{i}")) for i in range(2))
    for table in made:
        store.add(table)
    store.close()
    return made


def _state(ws) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == "state":
            return message


def test_the_other_tables_are_served_while_a_table_is_rebuilt(live_server, tmp_path, monkeypatch) -> None:
    slow, other = _tables(tmp_path / "tables.sqlite")  # (the live server's database)
    entered, served = threading.Event(), threading.Event()
    seen: list[bool] = []
    rebuild = Store.rebuild

    def held(stored, **kwargs):  # the slow table's replay lasts until the other table has been served
        if stored.tid == slow.id:
            entered.set()
            seen.append(served.wait(10))  # (False: the other table was not served meanwhile)
        return rebuild(stored, **kwargs)

    monkeypatch.setattr(Store, "rebuild", staticmethod(held))
    server = live_server(rate=1e6)
    url = f"ws://127.0.0.1:{server.port}/ws"
    with websockets.connect(url, open_timeout=30) as a:
        a.send(json.dumps({"type": "hello", "token": slow.seats[0].token, "deltas": False}))
        a.send(json.dumps({"type": "name", "name": "Anna"}))  # sent while the table loads: handled after the hello
        assert entered.wait(10)
        with websockets.connect(url, open_timeout=30) as b:
            b.send(json.dumps({"type": "hello", "token": other.seats[1].token, "deltas": False}))
            view = _state(b)
            assert view["table"]["id"] == other.id and view["me"] == 1
            served.set()
        first, second = _state(a), _state(a)
    assert seen == [True]  # the other table was served while the slow one was replayed
    assert first["table"]["id"] == slow.id and first["me"] == 0
    assert first["table"]["seats"][0]["name"] == "" and second["table"]["seats"][0]["name"] == "Anna"


def test_a_table_played_while_it_was_rebuilt_is_loaded_as_it_is_now(tmp_path) -> None:
    """The rows read before a replay in a thread are kept only if the store's version of the table is the same
    after it (it changes with every action, deal and change of hands)."""
    store = Store(tmp_path / "t.sqlite")
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                         bots={}, deals=2, seed_source=fixed_seeds("version"))
    store.add(table)
    before = store.rows(table.id)
    table.start_deal()
    store.started(table)
    started = store.version(table.id)
    table.apply(table.session.to_act, table.bot_action(table.session.to_act, "easy"))
    store.acted(table)
    assert len({before.version, started, store.version(table.id)}) == 3
    assert store.rows_apart(table.id) == store.rows(table.id)  # (its own connection, as a thread reads them)
    again = Store.rebuild(store.rows(table.id))
    assert again.step == table.step and Store.rebuild(before).step == "0:0"
    store.close()


def _finished_table(store: Store, word: str) -> Table:
    """A finished one-deal khrap table of two easy bots, stored."""
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                         bots={}, deals=1, seed_source=fixed_seeds(word))
    store.add(table)
    table.start_deal()
    store.started(table)
    while table.in_deal:
        table.apply(table.session.to_act, table.bot_action(table.session.to_act, "easy"))
        store.acted(table)
    return table


@pytest.fixture
def rebuilt(monkeypatch) -> list[str]:
    """The ids of the tables the servers replay (``Store.rebuild``), in order."""
    ids: list[str] = []
    rebuild = Store.rebuild

    def counted(stored, **kwargs):
        ids.append(stored.tid)
        return rebuild(stored, **kwargs)

    monkeypatch.setattr(Store, "rebuild", staticmethod(counted))
    return ids


def _download(server, table: Table) -> bytes:
    """The table's record, by its spectator's link."""
    return urllib.request.urlopen(f"{server.url}/record/{table.spectator_token}", timeout=30).read()


def test_an_archived_tables_record_is_replayed_once(live_server, tmp_path, rebuilt) -> None:
    """A finished table's record is made once and kept while its rows say the same (``Store.version``): a
    download does not replay the evening again (a second each at 500 deals), a change of hands does."""
    path = tmp_path / "tables.sqlite"  # (the live server's database)
    store = Store(path)
    table = _finished_table(store, "record")
    store.close()
    server = live_server()
    bodies = [_download(server, table) for _ in range(3)]
    assert rebuilt == [table.id] and bodies[0] == bodies[1] == bodies[2]
    assert json.loads(bodies[0])["actions"] == [[seat, text] for seat, text, _ in table.actions]
    assert table.id not in server.host.tables  # (loaded for its record only)
    with sqlite3.connect(path) as db:  # the seat's link revoked (as a change of hands stores it)
        db.execute("INSERT INTO revoked VALUES ('gone', ?, 1, 'bot', 0)", (table.id,))
    _download(server, table)
    assert rebuilt == [table.id, table.id]


def test_the_records_kept_are_bounded_in_size(live_server, tmp_path, monkeypatch, rebuilt) -> None:
    """The records kept made hold at most ``RECORDS_BYTES`` characters: with room for one record and a half,
    A, B, A, B are each replayed (each pushes the other out); with room for two, once each; a record longer
    than the bound is never kept (replayed at each download)."""
    from khrap.web import app as app_module

    store = Store(tmp_path / "tables.sqlite")  # (the live server's database)
    first, second = _finished_table(store, "first"), _finished_table(store, "second")
    store.close()
    measure = live_server()
    size = max(len(_download(measure, first)), len(_download(measure, second)))
    monkeypatch.setattr(app_module, "RECORDS_BYTES", size * 3 // 2)
    server = live_server()  # (its own records kept: none yet)
    rebuilt.clear()
    for table in (first, second, first, second):
        _download(server, table)
    assert rebuilt == [first.id, second.id, first.id, second.id]  # (each pushed the other out)
    monkeypatch.setattr(app_module, "RECORDS_BYTES", size * 5 // 2)
    server = live_server()
    rebuilt.clear()
    for table in (first, second, first, second):
        _download(server, table)
    assert rebuilt == [first.id, second.id]  # (room for both)
    monkeypatch.setattr(app_module, "RECORDS_BYTES", 10)
    server = live_server()
    rebuilt.clear()
    _download(server, first)
    _download(server, first)
    assert rebuilt == [first.id, first.id]  # (longer than the bound: never kept)


def test_the_records_kept_go_oldest_asked_for_first_past_their_number(live_server, tmp_path, monkeypatch,
                                                                      rebuilt) -> None:
    """Past ``RECORDS_KEPT`` records the one asked for longest ago goes (not the one kept first): with room for
    two, A, B, A, C, A replays A, B and C once each (A, asked for again, is newer than B: B goes for C)."""
    from khrap.web import app as app_module

    store = Store(tmp_path / "tables.sqlite")  # (the live server's database)
    a, b, c = (_finished_table(store, word) for word in ("kept-a", "kept-b", "kept-c"))
    store.close()
    monkeypatch.setattr(app_module, "RECORDS_KEPT", 2)
    server = live_server()
    for table in (a, b, a, c, a):
        _download(server, table)
    assert rebuilt == [a.id, b.id, c.id]
    _download(server, b)
    assert rebuilt == [a.id, b.id, c.id, b.id]  # (B went for C)


def test_a_record_kept_again_after_a_change_of_hands_counts_once_in_the_bound(live_server, tmp_path, monkeypatch,
                                                                             rebuilt) -> None:
    """A table's record made again (its seats changed hands) replaces the one kept, in the characters counted
    too: with room for two and a half records, A, A changed, B leaves both kept (A is not counted twice)."""
    from khrap.web import app as app_module

    path = tmp_path / "tables.sqlite"  # (the live server's database)
    store = Store(path)
    a, b = _finished_table(store, "again-a"), _finished_table(store, "again-b")
    store.close()

    measure = live_server()
    size = max(len(_download(measure, a)), len(_download(measure, b)))
    monkeypatch.setattr(app_module, "RECORDS_BYTES", size * 5 // 2)
    server = live_server()
    rebuilt.clear()
    _download(server, a)
    with sqlite3.connect(path) as db:  # the seat's link revoked (as a change of hands stores it)
        db.execute("INSERT INTO revoked VALUES ('gone', ?, 1, 'bot', 0)", (a.id,))
    _download(server, a)
    _download(server, b)
    _download(server, a)
    _download(server, b)
    assert rebuilt == [a.id, a.id, b.id]  # (both kept: a + b under the bound)


def test_a_table_played_while_it_was_replayed_apart_is_not_adopted_as_it_was(live_server, tmp_path,
                                                                             monkeypatch) -> None:
    """The server keeps a table replayed in a thread only if the store's version of it is the same after: a
    table played meanwhile (by another server on the file, here) is loaded as it is now, its deal begun."""
    path = tmp_path / "tables.sqlite"
    slow, _ = _tables(path)
    rebuild = Store.rebuild
    played: list[str] = []

    def played_meanwhile(stored, **kwargs):  # the first replay's rows are read; the table is played before it ends
        table = rebuild(stored, **kwargs)
        if not played:
            other = Store(path)
            now = rebuild(other.rows(stored.tid))
            now.start_deal()
            other.started(now)
            now.apply(now.session.to_act, now.bot_action(now.session.to_act, "easy"))
            other.acted(now)
            played.append(now.step)
            other.close()
        return table

    monkeypatch.setattr(Store, "rebuild", staticmethod(played_meanwhile))
    server = live_server(rate=1e6)
    with websockets.connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": slow.seats[0].token, "deltas": False}))
        view = _state(ws)
    assert played and played[0] != "0:0" and view["table"]["step"] == played[0]


def test_a_connection_saying_too_much_while_its_table_loads_is_closed(live_server, tmp_path, monkeypatch) -> None:
    """The messages a connection sends while its hello's table is replayed wait for it, ``LOAD_WAITING`` at most:
    the hello and 31 more wait; the next closes the connection ('too many messages') before the table is served."""
    from websockets.exceptions import ConnectionClosed

    from khrap.web import app as app_module

    slow, _ = _tables(tmp_path / "tables.sqlite")  # (the live server's database)
    entered, release = threading.Event(), threading.Event()
    rebuild = Store.rebuild

    def held(stored, **kwargs):  # the replay lasts until the test lets it end
        entered.set()
        release.wait(20)
        return rebuild(stored, **kwargs)

    monkeypatch.setattr(Store, "rebuild", staticmethod(held))
    server = live_server(rate=1e6)
    assert app_module.LOAD_WAITING == 32
    with websockets.connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": slow.seats[0].token, "deltas": False}))
        assert entered.wait(10)
        for _ in range(32):  # (the 32nd is one too many: the hello is the first waiting)
            ws.send(json.dumps({"type": "name", "name": "Anna"}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        release.set()
    assert closed.value.rcvd is not None and closed.value.rcvd.reason == "too many messages"
