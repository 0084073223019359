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


def test_a_session_that_releases_ended_deals_plays_and_records_the_same() -> None:
    import random

    from khrap.session import Session

    kept, released = Session("khrap", 4, seed=11), Session("khrap", 4, seed=11)
    released.release_ended()
    rng = random.Random(3)
    for _ in range(10):
        for s in (kept, released):
            s.start_deal()
        assert released.state.log == kept.state.log[kept.deal_log_at:]  # the same deal's events
        while not kept.deal_over:
            action = rng.choice(kept.legal_actions())
            assert kept.apply(action) == released.apply(str(action))
            assert released.observation(kept.to_act or 0) == kept.observation(kept.to_act or 0)
    assert released.to_record() == kept.to_record()
    assert released.log_base + len(released.state.log) == len(kept.state.log)
    assert [released.acted_base + i for i in range(len(released.acted_at))] == \
        list(range(len(kept.actions) - len(released.acted_at), len(kept.actions)))


class Last:
    """A spectator's connection on whole views: the last one it was sent."""

    def __init__(self) -> None:
        self.view: dict | None = None

    def send(self, message: dict) -> None:
        if message["type"] == "state":
            self.view = message

    def close(self, reason: str) -> None:
        raise AssertionError(reason)


def test_who_made_each_event_is_read_from_the_deal_in_progress_after_the_ended_ones_are_released() -> None:
    # ``acted_at[i]`` is action ``acted_base + i``'s once ended deals are released: a bot's moves (seat 3) are the
    # bot's, the people's theirs, in every deal of the evening (read at the wrong action, they were another seat's).
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=1_000_000, base_stake=1,
                         bots={3: "random"}, deals=500, seed_source=fixed_seeds("flat:by"), session_seed=3)
    host.add(table)
    clients = []
    for st in table.seats[:3]:
        client = host.connect(Kept())
        host.receive(client, json.dumps({"type": "hello", "token": st.token, "deltas": True}))
        clients.append(client)
    watcher = Last()
    host.receive(host.connect(watcher), json.dumps({"type": "hello", "token": table.spectator_token}))
    checked = 0
    for _ in range(6):
        for client in clients:
            host.receive(client, '{"type": "next"}')
        while table.in_deal:
            seat = table.session.to_act
            if seat == 3:
                host.step(table)
            else:
                host.receive(clients[seat], json.dumps({"type": "act", "action": table.bot_action(seat, "random"),
                                                        "step": table.step}))
        made = [e for e in watcher.view["events"] if "by" in e]
        assert made and all(e["by"] == ("bot" if e["seat"] == 3 else "human") for e in made)
        checked += len(made)
    assert table.session.acted_base > 0 and checked > 60
