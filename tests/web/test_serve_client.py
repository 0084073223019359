"""The serve benchmark's lean WebSocket client (``benchmarks/ws_client.py``) reads every message it is sent,
whole and in order, whatever the frames' sizes and however TCP cuts them; its frames are masked as RFC 6455
says; and its in-place patch makes the view ``khrap.web.delta.apply`` makes."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from khrap.web.delta import diff
from tests.conftest import examples
from tests.web.test_delta import VIEWS, changed

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from ws_client import Hub, client_frame, patch_into  # noqa: E402

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def accept_of(key: bytes) -> bytes:
    return base64.b64encode(hashlib.sha1(key + GUID).digest())


def test_the_accept_key_is_the_rfc_one() -> None:  # (RFC 6455, 1.3: the handshake's own example)
    assert accept_of(b"dGhlIHNhbXBsZSBub25jZQ==") == b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="


def server_frame(payload: bytes, opcode: int = 1, final: bool = True) -> bytes:
    """A server's frame written by hand from RFC 6455, 5.2 (7-bit, 16-bit and 64-bit lengths)."""
    first = bytes([(0x80 if final else 0) | opcode])
    n = len(payload)
    if n <= 125:
        return first + bytes([n]) + payload
    if n <= 0xFFFF:
        return first + bytes([126, n >> 8, n & 0xFF]) + payload
    return first + bytes([127]) + n.to_bytes(8, "big") + payload


def unmask(data: bytes) -> tuple[int, bytes, int]:
    """A client's frame read by hand: (first byte, payload, its length in bytes); it must be masked."""
    assert data[1] & 0x80, "a client's frame must be masked"
    n, at = data[1] & 0x7F, 2
    if n == 126:
        n, at = int.from_bytes(data[2:4], "big"), 4
    mask, at = data[at:at + 4], at + 4
    return data[0], bytes(b ^ mask[i % 4] for i, b in enumerate(data[at:at + n])), at + n


MESSAGES = [b"", b"{}", b"a" * 125, b"b" * 126, "é♥".encode() * 100, b"c" * 65535, b"d" * 65536, b"e" * 70001]


async def exchange(chunk: int) -> tuple[list[bytes], int, list[tuple[int, bytes]]]:
    """A server that sends MESSAGES (and a fragmented one with a ping inside it) cut into ``chunk``-byte writes;
    what the client got, its count, and the frames the server read back (the pong, the client's message)."""
    read_back: list[tuple[int, bytes]] = []
    done = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        key = next(line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")
                   if line.lower().startswith(b"sec-websocket-key:"))
        writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: " + accept_of(key) + b"\r\n\r\n")
        out = b"".join(server_frame(m) for m in MESSAGES)
        out += server_frame(b"one ", 1, final=False) + server_frame(b"ping!", 9) + server_frame(b"two ", 0, False)
        out += server_frame(b"three", 0) + server_frame(b"last")
        for at in range(0, len(out), chunk):
            writer.write(out[at:at + chunk])
            await writer.drain()
            await asyncio.sleep(0)
        data = b""
        while len(read_back) < 2:
            data += await reader.read(4096)
            while len(data) >= 2 and len(data) >= unmask(data)[2]:
                first, payload, used = unmask(data)
                read_back.append((first, payload))
                data = data[used:]
        done.set()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    got: list[bytes] = []
    hub = Hub()
    conn = await hub.connect("127.0.0.1", port, "/ws", got.append)
    async with asyncio.timeout(60):  # (a client that loses a message would wait here for ever)
        while len(got) < len(MESSAGES) + 2:
            await asyncio.sleep(0.01)
    conn.send(b'{"type": "next"}')
    await asyncio.wait_for(done.wait(), 60)
    count = conn.messages
    hub.close()
    server.close()
    return got, count, read_back


def test_every_message_is_read_whole_and_in_order_however_tcp_cuts_it() -> None:
    for chunk in (1 << 20, 4093, 7):
        got, count, read_back = asyncio.run(exchange(chunk))
        assert got == [*MESSAGES, b"one two three", b"last"], chunk
        assert count == len(MESSAGES) + 2
        assert read_back == [(0x8A, b"ping!"), (0x81, b'{"type": "next"}')]  # the pong, then our message


def test_client_frames_are_masked_and_sized() -> None:
    for payload in (b"", b"x", b"y" * 125, b"z" * 126, b"w" * 4000):
        first, body, used = unmask(client_frame(payload))
        assert (first, body, used) == (0x81, payload, len(client_frame(payload)))


@pytest.mark.large
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_in_place_patch_makes_the_view_apply_makes(data: st.DataObject) -> None:
    views = [data.draw(VIEWS)]
    for _ in range(3):  # successive updates: a list set by one patch may grow by the next
        new = data.draw(changed(views[-1]))
        views.append(new if isinstance(new, dict) else {})
    held = json.loads(json.dumps(views[0]))
    for old, new in zip(views, views[1:], strict=False):
        patch_into(held, json.loads(json.dumps(diff(old, new))))  # (as the client gets it: decoded text)
        assert held == new
