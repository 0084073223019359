"""The table's sockets on uvicorn's protocol with the direct path (``khrap.web.wire``): frames as RFC 6455
writes them, the live server's connections taking that path, and what it writes for one broadcast leaving
in one write a connection."""

from __future__ import annotations

import json

import pytest

from khrap.variant.catalog import builtin
from khrap.web.table import Table
from khrap.web.wire import Wire, frame
from tests.web.conftest import fixed_seeds

websockets = pytest.importorskip("websockets.sync.client", reason="the websockets client is not installed")


def test_frames_are_rfc_6455s_unmasked_final_text_frames() -> None:
    # (RFC 6455, 5.2: FIN and opcode 1 = 0x81; a length under 126 in the second byte, else 126 and two
    # bytes, or 127 and eight; a server's frame carries no mask)
    assert frame(b"hello") == b"\x81\x05hello"
    assert frame(b"x" * 125)[:2] == b"\x81\x7d"
    assert frame(b"x" * 126)[:4] == b"\x81\x7e\x00\x7e" and len(frame(b"x" * 126)) == 130
    assert frame(b"x" * 70_000)[:10] == b"\x81\x7f" + (70_000).to_bytes(8, "big")
    assert frame(b"\x03\xe8", 8) == b"\x88\x02\x03\xe8"  # a close frame, code 1000


def test_the_live_servers_table_sockets_take_the_direct_path(live_server, monkeypatch) -> None:
    server = live_server(rate=1e6)
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=2, stacks=100, base_stake=1,
                         bots={}, deals=5, seed_source=fixed_seeds("wire"))
    server.host.add(table)
    writes: list[bytes] = []
    flush = Wire.flush

    def counted(self: Wire) -> None:  # each frame's payload (its head is 2 bytes, or 4 from 126 bytes on)
        writes.extend(f[2:] if f[1] < 126 else f[4:] for f in self.out)
        flush(self)

    monkeypatch.setattr(Wire, "flush", counted)
    with websockets.connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=20) as ws:
        ws.send(json.dumps({"type": "hello", "token": table.seats[0].token}))
        first = json.loads(ws.recv(timeout=20))
        assert first["type"] == "state" and first["me"] == 0
        [client] = server.host.clients[table.id]
        assert type(client.conn).__name__ == "_WireSocket"
        ws.send(json.dumps({"type": "name", "name": "Anna"}))
        ws.send(json.dumps({"type": "chat", "text": "hi"}))
        named = json.loads(ws.recv(timeout=20))
        said = json.loads(ws.recv(timeout=20))
    assert named["type"] == "state" and named["table"]["seats"][0]["name"] == "Anna"
    assert said["type"] == "chat" and said["entries"][-1]["text"] == "hi"
    assert [json.loads(p)["type"] for p in writes] == ["state", "state", "chat"]  # all written by ``Wire``
