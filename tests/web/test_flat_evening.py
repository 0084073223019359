"""A table's memory stays flat over a long evening (issue 32: at 100 busy tables a 30-second run doubled the
server's memory and made every action dearer): the kernel's log of the deals that ended is released as the next
deal begins (``Session.release_ended``), so the log holds one deal's events whatever the evening's length, and what
a table keeps a deal is its actions and the deal's fair-deal data (the record's), not every event of it.  Counts
and bytes (what a table's objects reach), not time."""

from __future__ import annotations

import gc
import json
import sys
import types

from khrap.engine import events as ev
from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds
from tests.web.test_protocol import Clock


class Kept:
    """A connection that drops what it is sent (the server's side alone is measured)."""

    def send(self, message: dict) -> None:
        pass

    def send_text(self, text: str) -> None:
        pass

    def close(self, reason: str) -> None:
        raise AssertionError(reason)


def _seated(name: str = "khrap") -> tuple[Host, Table, list]:
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin(name), name=name, source=None, players=4, stacks=1_000_000, base_stake=1, bots={},
                         deals=500, seed_source=fixed_seeds(f"flat:{name}"), session_seed=7)
    host.add(table)
    clients = []
    for token in [st.token for st in table.seats] + [table.spectator_token]:
        client = host.connect(Kept())
        host.receive(client, json.dumps({"type": "hello", "token": token, "deltas": True}))
        clients.append(client)
    return host, table, clients


def _deal(host: Host, table: Table, clients: list) -> None:
    """One deal played to its end by the seats' connections (a random bot's choices), updates as patches."""
    for client in clients[:4]:
        host.receive(client, '{"type": "next"}')
    assert table.in_deal
    while table.in_deal:
        seat = table.session.to_act
        host.receive(clients[seat], json.dumps({"type": "act", "action": table.bot_action(seat, "random"),
                                                "step": table.step}))


def test_the_log_holds_the_deal_in_progress_only() -> None:
    host, table, clients = _seated()
    s = table.session
    longest = 0
    for deal in range(1, 13):
        _deal(host, table, clients)
        log = s.state.log
        assert sum(isinstance(e, ev.Settled) for e in log) == 1  # this deal's settlement, none of the deals before
        longest = max(longest, len(log))
        assert s.log_base + len(log) > longest * (deal - 1) // 2  # (the evening's events counted on: released)
    assert longest < 120  # one deal's events (khrap: some 40)
    assert len(table._standings()) == 12  # the standings read every settlement before it was released
    assert len(table._revealed) <= 4  # the decks of the last deals shown only


def held(table: Table, host: Host) -> int:
    """The bytes of the objects a table holds (``sys.getsizeof`` of what its session, seats, deals and caches reach
    by ``gc.get_referents``, and the views the host keeps as its next patches' bases), each object once; the rules
    and the program, shared by every table of the same rules, are left out."""
    seen: set[int] = set()
    _reach((table.session.rules, table.session.variant, table.setup), seen)
    return _reach((table, host.sent.get(table.id)), seen)


def _reach(roots: tuple, seen: set[int]) -> int:
    total, stack = 0, list(roots)
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, type | types.ModuleType | types.FunctionType | types.BuiltinFunctionType):
            continue
        seen.add(id(x))
        total += sys.getsizeof(x)
        stack += gc.get_referents(x)  # (the compiled kernel's objects too: they have no ``__dict__``)
    return total


def test_a_table_holds_a_few_kilobytes_more_a_deal_over_an_evening() -> None:
    # Before: some 37 KB a deal, 31 KB of it the kernel's events of the deals that ended; now the actions (the
    # table's and the session's, 4.3 KB a deal of khrap's some 22 actions), the decks dealt, the deals' seeds and
    # the settlements' stacks (the standings: 1 KB).
    host, table, clients = _seated()
    for _ in range(4):
        _deal(host, table, clients)
    before = held(table, host)
    deals = 12
    for _ in range(deals):
        _deal(host, table, clients)
    grown = held(table, host) - before
    assert 0 < grown / deals < 8_000, f"{grown / deals:.0f} bytes a deal"
