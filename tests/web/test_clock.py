"""The host's turn clock (issue 27), in-process with a clock the test moves: a connected person who does
not act within the table's clock has that one decision made by his seat's bot, and is told; with the
clock off the table waits for him as long as he likes."""

from __future__ import annotations

import json

from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Conn:
    def __init__(self) -> None:
        self.views: list[dict] = []

    def send(self, message: dict) -> None:
        self.views.append(message)

    def close(self, reason: str) -> None:
        pass


def _table(clock_seconds: int):
    """Seat 1 a person (connected, ready), seats 0, 2 and 3 bots; the deal of test_browser.py, where
    seat 1 speaks first."""
    clock = Clock()
    host = Host(Store(":memory:"), takeover_seconds=1e9, clock=clock)
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1,
                         bots={0: "rule", 2: "rule", 3: "rule"}, deals=1, seed_source=fixed_seeds("browser-test"),
                         session_seed=7, clock=clock_seconds)
    host.add(table)
    conn = Conn()
    client = host.connect(conn)
    host.receive(client, json.dumps({"type": "hello", "token": table.seats[1].token, "lang": "en"}))
    host.receive(client, json.dumps({"type": "next"}))
    assert table.in_deal and table.session.to_act == 1
    return host, table, clock, conn, client


def test_the_clock_plays_one_decision_for_an_idle_connected_seat_and_tells_him() -> None:
    host, table, clock, conn, client = _table(30)
    assert host.automated(table) is None
    assert host.next_deadline(table) == clock.now + 30  # the host is woken when the time is up
    clock.now += 29.9
    assert host.automated(table) is None and conn.views[-1]["clock"]["timed_out"] is None
    clock.now += 0.1
    assert host.automated(table) == (1, "normal")  # the takeover bot, for this decision only
    host.step(table)
    assert [(seat, by) for seat, _, by in table.actions] == [(1, "bot")]
    told = conn.views[-1]["clock"]["timed_out"]
    # its words, and typed (the page reads the word and the cards, never the words): seat 1's call, no cards
    said = table.actions[0][1]
    assert told == {"seat": 1, "action": said, "word": said, "cards": []}
    while host.automated(table) is not None and table.session.to_act != 1:
        host.step(table)  # the bots speak until the person's next decision: it is his again
    assert table.session.to_act == 1 and host.automated(table) is None
    assert conn.views[-1]["clock"]["left"] == 30
    action = table.bot_action(1, "rule")
    host.receive(client, json.dumps({"type": "act", "action": action, "step": table.step}))
    assert conn.views[-1]["clock"]["timed_out"] is None  # he acted: the note is gone


def test_with_the_clock_off_the_table_waits_for_him() -> None:
    host, table, clock, conn, _ = _table(0)
    clock.now += 10**7
    assert host.automated(table) is None and host.next_deadline(table) is None
    assert conn.views[-1]["clock"]["left"] is None and table.actions == []


def test_the_first_dealer_is_drawn_by_lot_and_kept_in_the_record(live_server) -> None:
    # The rule sheets say the first dealer is chosen by lot: the server draws him (here the draw is
    # fixed to the last seat), the deal starts from his left and the record says so.
    import urllib.request

    server = live_server(first_dealer=lambda players: players - 1)
    body = json.dumps({"variant": "khrap", "players": 4, "deals": 1, "bots": {"1": "rule", "2": "rule", "3": "rule"}})
    request = urllib.request.Request(server.url + "/api/tables", body.encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as reply:
        assert json.load(reply)["ok"]
    table = next(iter(server.host.tables.values()))
    table.start_deal()
    assert table.session.state.dealer == 3 and table.session.to_act == 0  # seat 0 speaks first, left of 3
    assert table.record()["dealer"] == 3
