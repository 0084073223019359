"""After "Play again" the host of the finished table hosts the new one: the host's pages (his seat's, his host
page) are sent the new table's host link, and no seat or spectator ever is; every page is told which seat
started the new evening.  In-process: the host's protocol with fake connections."""

from __future__ import annotations

import json

from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds
from tests.web.test_protocol import Clock
from tests.web.test_seats import _hello, _say


def _finished() -> tuple[Host, Table, dict]:
    """Frap for three, seats 0 and 1 people (Anna hosts from seat 0), seat 2 a bot, played to its one deal's end;
    connected: Anna's seat page (host link shown), Boris's seat page, a spectator and Anna's host page."""
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("frap"), name="frap", source=None, players=3, stacks=100, base_stake=1,
                         bots={2: "easy"}, deals=1, seed_source=fixed_seeds("again-host"))
    host.add(table)
    pages = {"anna": _hello(host, table.seats[0].token), "boris": _hello(host, table.seats[1].token),
             "watcher": _hello(host, table.spectator_token), "hostpage": _hello(host, table.host_token)}
    assert _say(host, pages["anna"], type="host", token=table.host_token)["host"] is not None
    for _ in range(5000):
        if table.finished:
            return host, table, pages
        if not table.in_deal:
            for name in ("anna", "boris"):
                host.receive(pages[name], json.dumps({"type": "next"}))
        elif host.automated(table) is not None:
            host.step(table)
        else:
            seat = table.session.to_act
            host.receive(pages["anna" if seat == 0 else "boris"],
                         json.dumps({"type": "act", "action": table.bot_action(seat, "easy"), "step": table.step}))
    raise AssertionError("the table did not finish")


def _last(client) -> dict:
    return [m for m in client.conn.messages if m["type"] == "state"][-1]


def test_the_host_of_the_finished_table_hosts_the_new_one_and_nobody_else_gets_its_link() -> None:
    host, table, pages = _finished()
    host.receive(pages["boris"], json.dumps({"type": "again"}))  # Boris, not the host, asks to play again
    new = host.get(host.rematch_of(table.id))
    assert new is not None and new.host_token not in (None, table.host_token)
    anna, page = _last(pages["anna"]), _last(pages["hostpage"])
    assert anna["again_host"] == {"table": new.id, "token": new.host_token}
    assert page["again_host"] == {"table": new.id, "token": new.host_token}
    assert anna["again"] == new.seats[0].token and page["again"] == new.spectator_token
    for name in ("boris", "watcher"):  # a seat and a spectator: never a host link, in any message
        assert "again_host" not in _last(pages[name])
        sent = json.dumps(pages[name].conn.messages)
        assert new.host_token not in sent and table.host_token not in sent
    for name in pages:  # every page is told who started it: seat 1
        assert _last(pages[name])["again_by"] == 1
    # the link sent works: Anna's new seat page shows the new host link and gets the host's view there
    seat = _hello(host, _last(pages["anna"])["again"])
    assert seat.table is new and seat.seat == 0 and not seat.host
    assert _say(host, seat, type="host", token=anna["again_host"]["token"])["host"] is not None
    assert _hello(host, page["again_host"]["token"]).host  # and her host page opens as the new table's host's


def test_the_old_host_link_does_not_host_the_new_table() -> None:
    """A seat at the new table that shows the finished table's host link (Boris read it off Anna's screen) is
    refused: the host link is the new table's own."""
    host, table, pages = _finished()
    host.receive(pages["anna"], json.dumps({"type": "again"}))
    new = host.get(host.rematch_of(table.id))
    boris = _hello(host, _last(pages["boris"])["again"])
    assert boris.table is new
    assert _say(host, boris, type="host", token=table.host_token)["type"] == "refused" and not boris.host
    assert _last(pages["boris"])["again_by"] == 0
