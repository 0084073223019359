"""``khrap serve`` on either event loop: uvloop where it is installed (uvicorn's ``loop="auto"``, which
``uvicorn_options`` names), asyncio's own otherwise.  The table's sockets take the direct path
(``khrap.web.wire``) on both, and a deal's actions reach both seats (the uvloop case is skipped where uvloop
is not installed: ``pip install uvloop``)."""

from __future__ import annotations

import importlib.util
import json

import pytest

from khrap.variant.catalog import builtin
from khrap.web.app import uvicorn_options
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds

websockets = pytest.importorskip("websockets.sync.client", reason="the websockets client is not installed")


def test_serve_runs_on_uvloop_where_it_is_installed() -> None:
    assert uvicorn_options()["loop"] == "auto"  # (uvicorn's auto: uvloop if it imports, asyncio's loop if not)


def _until(ws, step: str) -> dict:
    """The next whole view of ``ws`` at table step ``step`` (the views between are read and left)."""
    while True:
        view = json.loads(ws.recv(timeout=20))
        if view["type"] == "state" and view["table"]["step"] == step:
            return view


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_a_deal_is_played_over_the_direct_path_on_either_loop(live_server, loop: str) -> None:
    if loop == "uvloop" and importlib.util.find_spec("uvloop") is None:
        pytest.skip("uvloop is not installed (pip install uvloop)")
    server = live_server(loop=loop, rate=1e6)
    [running] = server.server.servers
    assert ("uvloop" in type(running.get_loop()).__module__) == (loop == "uvloop")
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                         bots={}, deals=1, seed_source=fixed_seeds("loops"))
    server.host.add(table)
    url = f"ws://127.0.0.1:{server.port}/ws"
    with websockets.connect(url, open_timeout=20) as a, websockets.connect(url, open_timeout=20) as b:
        seats = (a, b)
        for seat, ws in enumerate(seats):
            ws.send(json.dumps({"type": "hello", "token": table.seats[seat].token}))
        assert all(type(c.conn).__name__ == "_WireSocket" for c in server.host.clients[table.id])
        for ws in seats:
            ws.send(json.dumps({"type": "next"}))
        views = [_until(ws, "1:0") for ws in seats]
        acted = 0
        while views[0]["table"]["in_deal"]:
            to_act = views[0]["obs"]["to_act"]
            mine = views[to_act]
            assert mine["legal"] and not views[1 - to_act]["legal"]  # only the seat to act is offered actions
            seats[to_act].send(json.dumps({"type": "act", "action": mine["legal"][0]["text"],
                                           "step": mine["table"]["step"]}))
            acted += 1
            views = [_until(ws, f"1:{acted}") for ws in seats]
    assert acted == len(table.actions) >= 4 and views[0]["table"]["deals_completed"] == 1
    assert views[0]["events"] and [e["kind"] for e in views[0]["events"]] == [e["kind"] for e in views[1]["events"]]
