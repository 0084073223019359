"""Many client WebSockets on one epoll: the lean instrument of ``benchmarks/serve.py`` (issue 32).

The benchmark's hundreds of seats stand in for browsers on other machines, but here they share the server's two
cores, so each message they read costs the server's tables processor time.  An asyncio protocol a connection
(the benchmark's client before) costs the event loop a handle, a context switch into it, ``_read_ready`` and
``data_received`` a message; the ``websockets`` library's client a task and a future besides.  Here every
seat's socket is in one epoll set of our own, and that set's descriptor is the only thing asyncio watches: when
any seat has bytes, one callback (:meth:`Hub.drain`) reads every ready socket with one ``recv`` and parses its
frames in a loop (RFC 6455, 5.2), handing each whole message to the seat as bytes.  Frames we send are masked
with a random key, as a client's must be, and written at once (one ``send``; what the kernel does not take
waits for ``EPOLLOUT``).  Pings are answered, a close is answered and the socket closed.  The opening
handshake (connect, the upgrade request, the ``101`` and its ``Sec-WebSocket-Accept``) uses asyncio's socket
calls: it happens once a connection.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import select
import socket
from collections.abc import Callable
from random import getrandbits

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455, 1.3
READ = select.EPOLLIN | select.EPOLLRDHUP
HEAD_LIMIT = 16384  # the handshake's answer, at most
RECV = 65536
"""Bytes asked of one ``recv``.  asyncio's transports ask 256 KiB: a buffer that size is a fresh ``mmap`` and
``munmap`` each call, 17 us a call against 3 us at 64 KiB (loopback, 400-byte messages, this machine)."""


def client_frame(payload: bytes, opcode: int = 1) -> bytes:
    """A client's frame (final, masked with a random key) of ``payload``; the XOR is done on one integer."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    elif size < 65536:
        head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
    mask = getrandbits(32).to_bytes(4, "little")
    masked = int.from_bytes(payload, "little") ^ int.from_bytes((mask * (size // 4 + 1))[:size], "little")
    return head + mask + masked.to_bytes(size, "little")


class Conn:
    """One client WebSocket, open: ``on_message(bytes)`` is called with each whole text or binary message."""

    __slots__ = ("hub", "sock", "fd", "on_message", "buffer", "parts", "out", "closed", "messages")

    def __init__(self, hub: Hub, sock: socket.socket, on_message: Callable[[bytes], None]) -> None:
        self.hub, self.sock, self.fd, self.on_message = hub, sock, sock.fileno(), on_message
        self.buffer = b""  # a frame's beginning, until the rest comes
        self.parts: list[bytes] = []  # a fragmented message's frames so far
        self.out = b""  # what the kernel did not take yet
        self.closed: asyncio.Future = hub.loop.create_future()
        self.messages = 0  # whole messages handed to ``on_message``

    def readable(self) -> None:
        try:
            data = self.sock.recv(RECV)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self.lost()
            return
        if not data:
            self.lost()
            return
        self.feed(data)

    def feed(self, data: bytes) -> None:
        """Parse the frames in what came (after what was left over): a server's frames are never masked."""
        if self.buffer:
            data, self.buffer = self.buffer + data, b""
        at, size = 0, len(data)
        while size - at >= 2:
            first, length, start = data[at], data[at + 1] & 0x7F, at + 2
            if length >= 126:
                wide = 2 if length == 126 else 8
                if size - start < wide:
                    break
                length, start = int.from_bytes(data[start:start + wide], "big"), start + wide
            end = start + length
            if end > size:
                break
            at = end
            if first == 0x81 and not self.parts:  # a whole text message in one frame: nearly every one
                self.messages += 1
                self.on_message(data[start:end])
            else:
                self.frame(first, data[start:end])
            if self.sock is None:  # (closed meanwhile)
                return
        if at < size:
            self.buffer = data[at:]

    def frame(self, first: int, payload: bytes) -> None:
        opcode = first & 0x0F
        if opcode in (0, 1, 2):  # (0: a continuation)
            self.parts.append(payload)
            if first & 0x80:  # the message's last frame
                message = self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)
                self.parts = []
                self.messages += 1
                self.on_message(message)
        elif opcode == 9:
            self.send(payload, 10)  # a ping: its pong
        elif opcode == 8:
            self.send(payload[:2], 8)
            self.lost()

    def send(self, payload: bytes, opcode: int = 1) -> None:
        """One frame, written now (what the kernel does not take is written when the socket can take it)."""
        if self.sock is None:
            return
        data = client_frame(payload, opcode)
        if self.out:
            self.out += data
            return
        try:
            sent = self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self.lost()
            return
        if sent < len(data):
            self.out = data[sent:]
            self.hub.epoll.modify(self.fd, READ | select.EPOLLOUT)

    def writable(self) -> None:
        try:
            sent = self.sock.send(self.out)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self.lost()
            return
        self.out = self.out[sent:]
        if not self.out:
            self.hub.epoll.modify(self.fd, READ)

    def close(self) -> None:
        """Say goodbye (a close frame, 1000) and close the socket."""
        if self.sock is not None:
            self.send((1000).to_bytes(2, "big"), 8)
            self.lost()

    def lost(self) -> None:
        if self.sock is None:
            return
        self.hub.forget(self)
        self.sock.close()
        self.sock = None
        if not self.closed.done():
            self.closed.set_result(None)


class Hub:
    """The client connections of one event loop, on one epoll set whose descriptor the loop watches."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.epoll = select.epoll()
        self.conns: dict[int, Conn] = {}
        self.loop.add_reader(self.epoll.fileno(), self.drain)

    def drain(self) -> None:
        """Every ready socket read once (level-triggered: one with more to read is ready again next time)."""
        conns = self.conns
        for fd, events in self.epoll.poll(0):
            conn = conns.get(fd)
            if conn is None:
                continue
            if events & select.EPOLLOUT:
                conn.writable()
            if events & ~select.EPOLLOUT and conn.sock is not None:
                conn.readable()

    async def connect(self, host: str, port: int, path: str, on_message: Callable[[bytes], None]) -> Conn:
        """A WebSocket to ``ws://host:port/path``, once the server said ``101`` with the right accept key."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # (as asyncio's transports set it)
        try:
            await self.loop.sock_connect(sock, (host, port))
            key = base64.b64encode(os.urandom(16))
            await self.loop.sock_sendall(sock, b"GET " + path.encode() + b" HTTP/1.1\r\nHost: " + host.encode()
                                         + b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                                         + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = await self.loop.sock_recv(sock, 4096)
                if not chunk or len(head) > HEAD_LIMIT:
                    raise ConnectionError("the connection closed before the upgrade")
                head += chunk
            head, rest = head.split(b"\r\n\r\n", 1)
            accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
            lines = head.split(b"\r\n")
            if not lines[0].startswith(b"HTTP/1.1 101") or \
                    not any(line.lower().startswith(b"sec-websocket-accept:") and line.split(b":", 1)[1].strip()
                            == accept for line in lines[1:]):
                raise ConnectionError(lines[0].decode("latin-1"))
        except BaseException:
            sock.close()
            raise
        conn = Conn(self, sock, on_message)
        self.conns[conn.fd] = conn
        self.epoll.register(conn.fd, READ)
        if rest:
            conn.feed(rest)
        return conn

    def forget(self, conn: Conn) -> None:
        if self.conns.pop(conn.fd, None) is not None:
            self.epoll.unregister(conn.fd)

    def close(self) -> None:
        for conn in list(self.conns.values()):
            conn.lost()
        self.loop.remove_reader(self.epoll.fileno())
        self.epoll.close()


def patch_into(view: dict, patch: dict) -> None:
    """``khrap.web.delta.apply`` done in place: the seat's view is its own, so nothing is copied (``apply``
    makes a new dict at every level it touches and a new list for the log and events each message, a cost a
    page's ``patch`` has too but that grows with the deal).  ``view`` becomes ``apply(view, patch)``."""
    put = patch.get("s")
    if put:
        view.update(put)
    sub = patch.get("p")
    if sub:
        for key, part in sub.items():
            patch_into(view[key], part)
    grown = patch.get("a")
    if grown:
        for key, items in grown.items():
            view[key].extend(items)
    gone = patch.get("x")
    if gone:
        for key in gone:
            del view[key]
