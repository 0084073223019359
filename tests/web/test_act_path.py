"""The act path (``khrap.web.acting``, compiled with the server's modules: docs/compiled.md, "The act path"): a
view's figures go out as the host has them, and the messages it does not take back reach the host's dispatch.

Compiled, a parameter typed ``float`` turns an ``int`` into a float: a host whose clock and takeover time are
whole seconds (``Host(takeover_seconds=60)``, a test's clock) would have its views say ``60.0`` where they said
``60``, other bytes than the plain build's.  The compiled stage of CI runs this file on the wheel."""

from __future__ import annotations

import json

from khrap.variant.catalog import builtin
from khrap.web.host import Host, encode_json
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds


class Conn:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, message: dict) -> None:
        self.sent.append(message)

    def close(self, reason: str) -> None:
        pass


def _seated(clock_seconds: int) -> tuple[Host, Table, Conn, object]:
    """Seat 1 a person at a turn clock of ``clock_seconds`` (0: none), the others bots; a host of whole seconds."""
    now = [1000]
    host = Host(Store(":memory:"), takeover_seconds=60, clock=lambda: now[0])
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1,
                         bots={0: "rule", 2: "rule", 3: "rule"}, deals=1, seed_source=fixed_seeds("browser-test"),
                         session_seed=7, clock=clock_seconds)
    host.add(table)
    conn = Conn()
    client = host.connect(conn)
    host.receive(client, json.dumps({"type": "hello", "token": table.seats[1].token, "lang": "en"}))
    host.receive(client, json.dumps({"type": "next"}))
    assert table.in_deal and table.session.to_act == 1
    return host, table, conn, client


def test_a_views_whole_seconds_stay_whole() -> None:
    host, table, conn, client = _seated(0)
    view = conn.sent[-1]
    assert view["type"] == "state" and type(view["takeover_seconds"]) is int  # (60, not 60.0)
    assert b'"takeover_seconds":60,' in encode_json(view)
    host.receive(client, json.dumps({"type": "act", "action": str(table.session.legal_actions()[0]),
                                     "step": table.step}))
    acted = conn.sent[-1]
    assert acted["type"] == "state" and acted["takeover_seconds"] == 60 and type(acted["takeover_seconds"]) is int


def test_a_turn_clocks_seconds_left_stay_whole() -> None:
    host, table, conn, client = _seated(30)
    view = host.view(table, 1, "en")
    assert view["clock"]["left"] == 30 and type(view["clock"]["left"]) is int  # (30, not 30.0)
    assert type(conn.sent[-1]["clock"]["left"]) is int  # the broadcast's view, made by the act path


def test_messages_other_than_an_act_reach_the_hosts_dispatch() -> None:
    host, table, conn, client = _seated(0)
    seen: list[str] = []
    dispatch = host.dispatch
    host.dispatch = lambda c, kind, message: seen.append(kind) or dispatch(c, kind, message)  # type: ignore
    host.receive(client, json.dumps({"type": "lang", "lang": "ru"}))
    host.receive(client, json.dumps({"type": "act", "action": "nothing", "step": table.step}))
    assert seen == ["lang"]  # the act is the compiled path's own
    assert conn.sent[-1]["type"] == "refused" and conn.sent[-2]["type"] == "state"
