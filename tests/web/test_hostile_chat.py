"""Chat and quick reactions from hostile clients (issue 27): every message is text within limits, a seat
may say only so much (all its tabs together), spectators only read, and nothing but a known reaction id or
plain text reaches the other pages.  In-process: the host's protocol with fake connections."""

from __future__ import annotations

import json

from khrap.variant.catalog import builtin
from khrap.web.host import CHAT_BURST, CHAT_KEEP, CHAT_MAX, REACTIONS, Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds
from tests.web.test_stale import Inbox


class Hand:
    """A clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _room():
    clock = Hand()
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=clock)
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=3, stacks=100, base_stake=1,
                         bots={2: "rule"}, deals=2, seed_source=fixed_seeds("chat"))
    host.add(table)
    seats = []
    for token in (table.seats[0].token, table.seats[1].token, table.spectator_token):
        client = host.connect(Inbox())
        host.receive(client, json.dumps({"type": "hello", "token": token}))
        seats.append(client)
    return host, table, clock, seats


def _send(host, client, raw) -> dict:
    client.conn.messages.clear()
    host.receive(client, raw if isinstance(raw, str) else json.dumps(raw))
    return client.conn.messages[0]


def _chat(client) -> list[dict]:
    """The chat entries a connection has been sent since its messages were last cleared."""
    return [e for m in client.conn.messages if m["type"] == "chat" for e in m["entries"]]


def test_a_message_is_plain_text_within_its_limit() -> None:
    host, table, clock, (anna, boris, watcher) = _room()
    said = "<img src=x onerror=alert(1)> see https://evil.example/x?a=1 &amp;"
    assert _send(host, anna, {"type": "chat", "text": said}) == {"type": "chat", "full": False, "entries": [
        {"n": 1, "seat": 0, "text": said}]}
    entry = _chat(boris)[-1]
    assert entry == {"n": 1, "seat": 0, "text": said}  # kept as text: the page shows it as a text node
    clock.now += 60
    # control and format characters (a bidi override, an escape, a NUL, a zero-width space) are taken out;
    # runs of spaces and newlines squeeze to one space
    _send(host, boris, {"type": "chat", "text": "ab\x00c\x1b[31m \u202egnp.exe\n\n\t d\u200be"})
    assert _chat(anna)[-1]["text"] == "abc[31m gnp.exe de"
    clock.now += 60
    for text in ("x" * (CHAT_MAX + 1), "", "   \n\t", "\x00\x01\u202e", 42, None, ["hi"], {"text": "hi"}):
        answer = _send(host, anna, {"type": "chat", "text": text})
        assert answer["type"] == "refused", text
    assert _send(host, anna, {"type": "chat", "text": "y" * CHAT_MAX})["type"] == "chat"
    assert len(host.chats[table.id]) == 3


def test_a_lone_surrogate_or_an_oversize_frame_is_refused() -> None:
    host, table, clock, (anna, boris, watcher) = _room()
    answer = _send(host, anna, '{"type": "chat", "text": "hi \\ud800 there"}')
    assert answer["type"] == "refused" and "UTF-8" in answer["reason"]
    answer = _send(host, anna, json.dumps({"type": "chat", "text": "z" * 5000}))
    assert answer["type"] == "refused" and "at most" in answer["reason"]
    assert host.chats.get(table.id) is None


def test_a_seat_that_floods_is_refused_whatever_its_tabs() -> None:
    host, table, clock, (anna, boris, watcher) = _room()
    second = host.connect(Inbox())  # Anna's phone beside her laptop: one seat, one budget
    host.receive(second, json.dumps({"type": "hello", "token": table.seats[0].token}))
    answers = [_send(host, (anna, second)[i % 2], {"type": "chat", "text": f"m{i}"})["type"] for i in range(12)]
    assert answers == ["chat"] * CHAT_BURST + ["refused"] * (12 - CHAT_BURST)
    assert _send(host, anna, {"type": "react", "id": "laugh"})["code"] == "chat_rate"
    assert _send(host, boris, {"type": "react", "id": "laugh"})["type"] == "chat"  # another seat's budget
    clock.now += 3.1  # a message every 3 s
    assert _send(host, anna, {"type": "chat", "text": "again"})["type"] == "chat"
    assert _send(host, second, {"type": "chat", "text": "and again"})["code"] == "chat_rate"


def test_reactions_are_known_ids_and_spectators_only_read() -> None:
    host, table, clock, (anna, boris, watcher) = _room()
    for rid in REACTIONS[:3]:
        assert _send(host, anna, {"type": "react", "id": rid})["type"] == "chat"
    for rid in ("<b>", "LAUGH", "", None, 3, ["laugh"], "thumbs_up " * 3):
        assert _send(host, boris, {"type": "react", "id": rid})["type"] == "refused"
    assert [e["react"] for e in _chat(watcher)] == list(REACTIONS[:3])
    assert _send(host, watcher, {"type": "chat", "text": "hi"})["code"] == "chat_spectator"
    assert _send(host, watcher, {"type": "react", "id": "laugh"})["code"] == "chat_spectator"


def test_the_table_keeps_only_the_last_messages_and_forgets_them_when_unloaded() -> None:
    host, table, clock, (anna, boris, watcher) = _room()
    for i in range(CHAT_KEEP + 7):
        clock.now += 3.1
        _send(host, anna, {"type": "chat", "text": f"m{i}"})
    assert len(_chat(boris)) == CHAT_KEEP + 7  # each entry sent once, alone, to every connection
    late = host.connect(Inbox())  # a connection that comes now is sent the last entries once, after its state
    host.receive(late, json.dumps({"type": "hello", "token": table.spectator_token}))
    assert [m["type"] for m in late.conn.messages] == ["state", "chat"] and "chat" not in late.conn.messages[0]
    chat = late.conn.messages[1]["entries"]
    assert late.conn.messages[1]["full"] and len(chat) == CHAT_KEEP
    assert chat[-1] == {"n": CHAT_KEEP + 7, "seat": 0, "text": f"m{CHAT_KEEP + 6}"}
    host.disconnect(late)
    for client in (anna, boris, watcher):
        host.disconnect(client)
    assert table.id not in host.tables and table.id not in host.chats and not host.chat_budget
