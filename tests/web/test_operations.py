"""Operations: a stopped server's database file is complete by itself (the store checkpointed and closed
at shutdown), and ``khrap serve --backup`` copies a consistent database while a server plays on it."""

from __future__ import annotations

import shutil
import sqlite3
import time

import pytest

pytest.importorskip("httpx", reason="Starlette's test client needs httpx (the test extra)")
from typer.testing import CliRunner

from khrap.cli import app as cli  # noqa: E402
from khrap.variant.catalog import builtin  # noqa: E402
from khrap.web.app import create_app  # noqa: E402
from khrap.web.host import Host  # noqa: E402
from khrap.web.store import Store  # noqa: E402
from khrap.web.table import Table  # noqa: E402
from tests.web.conftest import fixed_seeds  # noqa: E402
from tests.web.test_hostile import Client  # noqa: E402


def _play(host: Host, actions: int) -> Table:
    """A two-person table of Khrap with ``actions`` actions stored (every seat played by the test)."""
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                         bots={}, deals=50, seed_source=fixed_seeds("ops"))
    host.add(table)
    for _ in range(actions):
        if not table.in_deal:
            table.start_deal()
            host.store.started(table)
        host.apply(table, table.session.to_act, table.bot_action(table.session.to_act, "rule"), "bot")
    return table


def _actions(path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count(*) FROM actions").fetchone()[0]
    finally:
        db.close()


def test_a_copy_of_the_file_after_a_clean_stop_holds_every_action(tmp_path) -> None:
    path = tmp_path / "t.sqlite"
    app = create_app(path, bot_delay=0.0)
    with Client(app, base_url="http://127.0.0.1:8000"):  # the app's lifespan: started, then stopped
        _play(app.state.host, 60)
        assert _actions(path) == 60  # a reader sees the log as well
    shutil.copy(path, tmp_path / "copy.sqlite")  # the file alone, without its -wal
    assert _actions(tmp_path / "copy.sqlite") == 60


def test_backup_while_a_server_plays(tmp_path) -> None:
    path, copy = tmp_path / "t.sqlite", tmp_path / "backup.sqlite"
    host = Host(Store(path), takeover_seconds=1e12)
    _play(host, 40)  # in the write-ahead log, not yet in the file
    result = CliRunner().invoke(cli, ["serve", "--db", str(path), "--backup", str(copy)])
    assert result.exit_code == 0, result.output
    db = sqlite3.connect(copy)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()
    assert _actions(copy) == 40
    restored = Host(Store(copy), takeover_seconds=1e12)  # the copy serves the same table
    assert [restored.get(tid).step for tid in host.tables] == [t.step for t in host.tables.values()]
    host.store.close()
    again = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path / "none.sqlite"), "--backup", str(copy)])
    assert again.exit_code == 2 and "no such database" in again.output


def test_tables_load_when_asked_for_and_leave_memory_when_nobody_is_at_them(tmp_path) -> None:
    """Startup loads no table (a server of 10,000 archived tables starts at once); a hello loads its
    table; the last connection leaving a table between deals or finished takes it out of memory, and
    a finished table's record is still downloadable (loaded for it, then out again)."""
    path = tmp_path / "t.sqlite"
    host = Host(Store(path), takeover_seconds=1e12)
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                         bots={1: "rule"}, deals=1, seed_source=fixed_seeds("archive"))
    host.add(table)
    host.store.close()
    app = create_app(path, bot_delay=0.0, takeover_seconds=600)
    with Client(app, base_url="http://127.0.0.1:8000") as client:
        client.opened = []
        served = app.state.host
        assert served.tables == {}
        ws = client.open()
        ws.send_json({"type": "hello", "token": table.seats[0].token})
        view = ws.receive_json()
        assert view["type"] == "state" and list(served.tables) == [table.id]
        ws.send_json({"type": "next"})
        while not view["table"]["finished"]:  # the one deal, seat 0 taking its first legal action each time
            view = ws.receive_json()
            if view["type"] == "state" and view["legal"]:
                ws.send_json({"type": "act", "action": view["legal"][0]["text"], "step": view["table"]["step"]})
        assert client.get(f"/record/{table.seats[0].token}").status_code == 200
        ws.close()
        deadline = time.monotonic() + 20
        while served.tables and time.monotonic() < deadline:
            time.sleep(0.05)
        assert served.tables == {}  # archived: out of memory
        record = client.get(f"/record/{table.seats[0].token}")
        assert record.status_code == 200 and record.json()["table"]["fingerprint"] == table.setup["fingerprint"]
        assert served.tables == {}  # loaded for the record only
        assert client.get(f"/sheet/{table.id}").status_code == 200 and served.tables == {}
        client.close_all()


def test_abandoned_tables_expire_and_finished_ones_stay(tmp_path) -> None:
    """Three tables, all untouched for 40 days by their stored times: one never finished (deleted at 30
    days, its links dead), one finished (kept: its record stays downloadable), and one where somebody
    acted today (kept)."""
    host = Host(Store(tmp_path / "t.sqlite"), takeover_seconds=1e12)
    old, finished, recent = (Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100,
                                          base_stake=1, bots={}, deals=1, seed_source=fixed_seeds(label))
                             for label in ("old", "finished", "recent"))
    for table in (old, finished, recent):
        host.add(table)
    finished.start_deal()
    host.store.started(finished)
    while not finished.finished:
        host.apply(finished, finished.session.to_act, finished.bot_action(finished.session.to_act, "rule"), "bot")
    recent.start_deal()
    host.store.started(recent)
    forty_days = time.time() - 40 * 86400
    host.store.db.execute("UPDATE tables SET created = ?", (forty_days,))
    host.store.db.execute("UPDATE activity SET at = ? WHERE table_id != ?", (forty_days, recent.id))
    assert host.expire(30) == [old.id]
    assert host.find(old.seats[0].token) is None and host.get(old.id) is None
    assert host.find(finished.seats[0].token)[0].finished
    assert host.find(recent.spectator_token) is not None
    assert sorted(host.store.ids()) == sorted([finished.id, recent.id])


def test_the_server_expires_abandoned_tables_apart_a_few_at_a_time(tmp_path, monkeypatch) -> None:
    """At start ``serve``'s app finds the abandoned tables in a thread (``Store.abandoned_apart``, the query that
    reads every table) and deletes them ``EXPIRE_BATCH`` a turn, each checked again first: 5 old tables, 2 a
    turn, one of them played today after the candidates were found (kept)."""
    from starlette.testclient import TestClient

    from khrap.web import app as web

    path = tmp_path / "t.sqlite"
    store = Store(path)
    tables = [Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                           bots={}, deals=1, seed_source=fixed_seeds(f"sweep{i}")) for i in range(5)]
    for table in tables:
        store.add(table)
    store.db.execute("UPDATE tables SET created = ?", (time.time() - 40 * 86400,))
    found = store.abandoned_apart(time.time() - 30 * 86400)
    assert sorted(found) == sorted(t.id for t in tables) == sorted(store.abandoned(time.time() - 30 * 86400))
    store.close()
    batches: list[list[str]] = []
    apart = Store.abandoned_apart

    def found_then_one_played(self, before):  # a table is played after the candidates are read
        found = apart(self, before)
        with sqlite3.connect(self.path) as db:
            db.execute("INSERT INTO activity VALUES (?, ?)", (tables[0].id, time.time()))
        return found

    expire = Host.expire

    def counted(self, days, among=None):
        batches.append(sorted(among))
        return expire(self, days, among)

    monkeypatch.setattr(Store, "abandoned_apart", found_then_one_played)
    monkeypatch.setattr(Host, "expire", counted)
    monkeypatch.setattr(web, "EXPIRE_BATCH", 2)
    with TestClient(web.create_app(path)) as client:
        deadline = time.monotonic() + 20
        while len(client.app.state.store.ids()) > 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert client.app.state.store.ids() == [tables[0].id]  # the one played since was checked again: kept
        assert [len(b) for b in batches] == [2, 2, 1] and sorted(sum(batches, [])) == sorted(found)


def test_serve_says_at_start_which_kernel_it_runs(monkeypatch) -> None:
    """The start line names the kernel (a compiled wheel's server is the faster: docs/serve.md), as
    ``python -m khrap.kernel_build`` says it; here the server stops at once (its database cannot be made)."""
    import khrap.kernel_build as kernel_build

    for kind, said in (("compiled", "kernel: compiled (mypyc);"), ("plain", "kernel: plain Python;")):
        monkeypatch.setattr(kernel_build, "kernel_kind", lambda kind=kind: kind)
        result = CliRunner().invoke(cli, ["serve", "--db", "/proc/no-such-dir/khrap.sqlite", "--port", "1"])
        first = result.output.splitlines()[0]
        assert first.startswith("khrap serve: http://127.0.0.1:1/") and said in first, first
