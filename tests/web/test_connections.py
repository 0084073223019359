"""Connections with limits, on a live server over loopback: a connection that never says hello is closed
after the hello deadline; one address may hold only so many sockets, one table only so many
connections; a client that never reads is dropped and its seat counts as away; each view is encoded
once per seat and language, not once per connection."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import time

import pytest

from khrap.variant.catalog import builtin
from khrap.web import app as web
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds

websockets = pytest.importorskip("websockets.sync.client", reason="the websockets client is not installed")
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402


def _table(server, players: int = 2) -> Table:
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=players, stacks=100, base_stake=1,
                         bots={}, deals=5, seed_source=fixed_seeds("conn"))
    server.host.add(table)
    return table


def _ws(server, **kwargs):
    """A client connection, closed by the test (entered by hand: several are open at once)."""
    return websockets.connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=20, **kwargs).__enter__()


def test_a_connection_without_hello_is_closed(live_server) -> None:
    server = live_server(hello_seconds=0.5)
    ws = _ws(server)
    started = time.monotonic()
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=30)
    assert time.monotonic() - started < 20
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008 and "hello" in closed.value.rcvd.reason
    ws.close()


def test_one_address_holds_only_so_many_sockets(live_server) -> None:
    server = live_server(per_address=3)
    table = _table(server)
    open_ = [_ws(server) for _ in range(3)]
    with pytest.raises(InvalidStatus):
        _ws(server)  # refused at the handshake
    open_.pop().close()
    deadline = time.monotonic() + 20
    while True:  # the server counts the closed one out once its handler ends
        try:
            again = _ws(server)
            break
        except InvalidStatus:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    again.send(json.dumps({"type": "hello", "token": table.spectator_token}))
    assert json.loads(again.recv(timeout=20))["type"] == "state"
    for ws in [*open_, again]:
        ws.close()


class Inbox:
    def __init__(self) -> None:
        self.messages: list = []
        self.closed: str | None = None
        self.texts = 0

    def send(self, message: dict) -> None:
        self.messages.append(message)

    def send_text(self, text: str) -> None:
        self.texts += 1
        self.messages.append(text)

    def close(self, reason: str) -> None:
        self.closed = reason


def test_a_table_holds_only_so_many_connections_and_encodes_each_view_once(monkeypatch) -> None:
    host = Host(Store(":memory:"), takeover_seconds=1e12, per_table=30)
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                         bots={}, deals=5, seed_source=fixed_seeds("cap"))
    host.add(table)
    inboxes = []
    for _ in range(31):
        inbox = Inbox()
        host.receive(host.connect(inbox), json.dumps({"type": "hello", "token": table.spectator_token}))
        inboxes.append(inbox)
    assert inboxes[-1].closed == "table full" and all(i.closed is None for i in inboxes[:-1])
    encoded = []
    monkeypatch.setattr("khrap.web.host.encode_json", lambda message: encoded.append(1) or json.dumps(message).encode())
    host.broadcast(table)
    assert len(encoded) == 1  # 30 spectators in one language: one view, encoded once
    assert all(i.texts >= 1 for i in inboxes[:-1])


def _frame(text: str) -> bytes:
    """A client's (masked) WebSocket text frame."""
    data, mask = text.encode(), os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    return bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def _deaf(server, token: str) -> socket.socket:
    """A WebSocket client that says hello and then never reads a byte (a small receive buffer)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += sock.recv(1)
    assert b" 101 " in reply
    sock.sendall(_frame(json.dumps({"type": "hello", "token": token})))
    return sock


@pytest.mark.parametrize("guard", ["time", "buffer"])
def test_a_client_that_never_reads_is_dropped_and_its_seat_is_away(live_server, monkeypatch, guard: str) -> None:
    """Either guard alone drops it: a socket whose buffer stayed full for ``SEND_SECONDS`` (the 1 MiB limit
    lifted), or one that left ``MAX_BUFFERED`` unread (the time limit lifted).  With both on, disabling either
    one passed (the other dropped the client): each is tried alone here."""
    if guard == "time":
        monkeypatch.setattr(web, "SEND_SECONDS", 2.0)
        monkeypatch.setattr(web._WireSocket, "MAX_BUFFERED", 1 << 40)
    else:
        monkeypatch.setattr(web, "SEND_SECONDS", 1e9)
    server = live_server(rate=1e6, takeover_seconds=1e9)
    table = _table(server)
    deaf = _deaf(server, table.seats[0].token)
    deadline = time.monotonic() + 120
    while not server.host.present(table)[0]:  # its hello is taken
        assert time.monotonic() < deadline
        time.sleep(0.02)
    other = None
    sent = 0
    while server.host.present(table)[0]:
        assert time.monotonic() < deadline and sent < 20_000, "the deaf seat still counts as present"
        try:
            if other is None:  # (again if a machine too busy to send its views in time dropped it too)
                other = _ws(server, max_queue=None)
                other.send(json.dumps({"type": "hello", "token": table.seats[1].token}))
            for _ in range(10):  # each name sends every connection of the table a view (a "next" is told
                other.send(json.dumps({"type": "name", "name": f"Boris {sent}", "pad": "x" * 2000}))  # the ready only)
                sent += 1
            with contextlib.suppress(TimeoutError):
                while True:  # the other seat reads what it is sent
                    other.recv(timeout=0.05)
        except ConnectionClosed:
            other.close()
            other = None
    assert not server.host.present(table)[0]  # (the reading seat may be dropped too on a machine so busy
    # that it takes a message more than 2 s to be sent: that is the same rule)
    if other is not None:
        other.close()
    deaf.close()
    assert sent > 20  # it took a full buffer, not the first message
