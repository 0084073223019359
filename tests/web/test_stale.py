"""An ``act`` names the table step of the state it answers; an action for any other step is stale and
refused, with the current state, even when the same action has become legal again (a resent message,
a second tab).  In-process: the host's protocol with fake connections."""

from __future__ import annotations

import json

from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds
from tests.web.test_protocol import Clock


class Inbox:
    def __init__(self) -> None:
        self.messages: list[dict] = []

    def send(self, message: dict) -> None:
        self.messages.append(message)

    def close(self, reason: str) -> None:
        self.messages.append({"type": "closed", "reason": reason})


def _table(label: str, deals: int = 3) -> tuple[Host, Table, list]:
    """A four-person table of Khrap (no bots: the test moves every seat), each seat connected once."""
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=1000, base_stake=1,
                         bots={}, deals=deals, seed_source=fixed_seeds(label))
    host.add(table)
    clients = []
    for seat in range(4):
        client = host.connect(Inbox())
        host.receive(client, json.dumps({"type": "hello", "token": table.seats[seat].token}))
        clients.append(client)
    for client in clients:
        host.receive(client, json.dumps({"type": "next"}))
    assert table.in_deal
    return host, table, clients


def _act(host: Host, client, text: str, step: str) -> None:
    host.receive(client, json.dumps({"type": "act", "action": text, "step": step}))


def test_a_resent_action_is_refused_when_it_is_legal_again() -> None:
    """Each seat's first action is sent again, with its old step, whenever that seat is to act and the same
    text is legal once more (a "pass" in a later round, the same card word): it is refused every time,
    the table unchanged, and the sender gets the current state.  Without the step it would be applied."""
    host, table, clients = _table("stale")
    sent: dict[int, tuple[str, str]] = {}
    resent = 0
    for _ in range(400):
        if table.finished:
            break
        if not table.in_deal:
            for client in clients:
                host.receive(client, json.dumps({"type": "next"}))
            continue
        seat = table.session.to_act
        legal = [str(a) for a in table.session.legal_actions()]
        old = sent.get(seat)
        if old is not None and old[0] in legal and old[1] != table.step:
            before, inbox = list(table.actions), clients[seat].conn
            inbox.messages.clear()
            _act(host, clients[seat], *old)
            assert table.actions == before  # not applied
            kinds = [m["type"] for m in inbox.messages]
            assert kinds == ["refused", "state"], kinds
            assert inbox.messages[0]["stale"] and inbox.messages[0]["step"] == table.step
            assert inbox.messages[1]["table"]["step"] == table.step
            resent += 1
        text = table.bot_action(seat, "rule")
        sent.setdefault(seat, (text, table.step))
        count = len(table.actions)
        _act(host, clients[seat], text, table.step)
        assert len(table.actions) == count + 1  # the step it answers: applied
    assert resent >= 3, "the same action came round again at least a few times"


def test_two_tabs_of_one_seat_send_at_once_and_one_action_is_applied() -> None:
    """Two connections of the seat to act send, for the same state, each its own action: the first is
    applied; the second answers a state that is gone and is refused, whatever it is.  (The older tab
    only watches while the newer one is open (tests/web/test_seats.py): here it presses "Play here" after
    the newer one took its state, then both answer that state.)"""
    host, table, clients = _table("tabs", deals=1)
    seat = table.session.to_act
    second = host.connect(Inbox())
    host.receive(second, json.dumps({"type": "hello", "token": table.seats[seat].token}))
    step = table.step
    legal = [str(a) for a in table.session.legal_actions()]
    count = len(table.actions)
    host.receive(clients[seat], json.dumps({"type": "claim"}))
    _act(host, clients[seat], legal[0], step)
    host.receive(second, json.dumps({"type": "claim"}))  # back to the second tab, which answers the same state
    second.conn.messages.clear()
    _act(host, second, legal[-1], step)
    assert len(table.actions) == count + 1
    assert second.conn.messages[0]["type"] == "refused" and second.conn.messages[0]["stale"]


def test_an_action_without_a_step_is_refused() -> None:
    host, table, clients = _table("nostep", deals=1)
    seat = table.session.to_act
    inbox = clients[seat].conn
    inbox.messages.clear()
    legal = str(table.session.legal_actions()[0])
    for message in ({"type": "act", "action": legal}, {"type": "act", "action": legal, "step": 7},
                    {"type": "act", "action": legal, "step": "9" * 100}):
        host.receive(clients[seat], json.dumps(message))
    assert table.actions == []
    assert [m["type"] for m in inbox.messages].count("refused") == 3
