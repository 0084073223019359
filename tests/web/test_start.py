"""A server starts on many archived tables without reading their games or setups (issue 32), and what it
no longer reads at start is still found when asked: a finished table's "play again" survives a restart."""

from __future__ import annotations

import json
import sqlite3

from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds


class Quiet:
    """A connection that keeps the last view it was sent."""

    def __init__(self) -> None:
        self.last: dict = {}

    def send(self, message: dict) -> None:
        if message.get("type") == "state":
            self.last = message

    def close(self, reason: str) -> None:
        pass


def finish(host: Host, table: Table) -> Quiet:
    """Play ``table`` to its end, its one person (seat 0) answering with the easy bot's moves."""
    conn = Quiet()
    client = host.connect(conn)
    host.receive(client, json.dumps({"type": "hello", "token": table.seats[0].token, "lang": "en"}))
    for _ in range(5000):
        if table.finished:
            return conn
        if not table.in_deal:
            host.receive(client, json.dumps({"type": "next"}))
        elif host.automated(table) is not None:
            host.step(table)
        else:
            host.receive(client, json.dumps({"type": "act", "action": table.bot_action(0, "easy"),
                                             "step": table.step}))
    raise AssertionError("the table did not finish")


def test_play_again_is_found_after_a_restart(tmp_path) -> None:
    path = tmp_path / "t.sqlite"
    host = Host(Store(path), takeover_seconds=1e12)
    table = Table.create(builtin("frap"), name="frap", source=None, players=3, stacks=100, base_stake=1,
                         bots={1: "easy", 2: "easy"}, deals=1, seed_source=fixed_seeds("start"))
    host.add(table)
    conn = finish(host, table)
    host.receive(host.clients[table.id][0], json.dumps({"type": "again"}))
    new_token = conn.last["again"]
    assert host.find(new_token)[0].setup["after"] == table.id
    host.store.close()

    restarted = Host(Store(path), takeover_seconds=1e12)
    assert restarted.tables == {} and restarted.rematch == {}  # nothing read of either table at start
    old, seat = restarted.find(table.seats[0].token)
    assert seat == 0 and old.finished
    assert restarted.view(old, 0, "en")["again"] == new_token  # the new table's seat-0 link, from the store
    restarted.store.close()


def test_the_start_reads_no_setup(tmp_path) -> None:
    """The tokens and the ages come from indexes: with every setup made unreadable JSON the start still
    reads every token (a start that parsed the setups, as before, would fail or be slow here)."""
    path = tmp_path / "t.sqlite"
    host = Host(Store(path), takeover_seconds=1e12)
    tables = [Table.create(builtin("frap"), name="frap", source=None, players=3, stacks=100, base_stake=1,
                           bots={1: "easy", 2: "easy"}, deals=1, seed_source=fixed_seeds(f"start{i}"))
              for i in range(3)]
    for table in tables:
        host.add(table)
    host.store.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE tables SET setup = '{cut'")
    calls: list[str] = []
    store = Store(path)
    store.db.set_trace_callback(calls.append)
    restarted = Host(store, takeover_seconds=1e12)
    restarted.expire(30.0)
    assert len(restarted.tokens) == 3 * 4  # three seats and a spectator's link a table
    assert not [c for c in calls if "setup" in c and "json_valid" not in c], calls
    store.close()
