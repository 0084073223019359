"""uvicorn's WebSocket protocol with a direct path for the table's sockets (issue 32's capacity).

Through ASGI, each message in or out of a WebSocket costs several coroutines and a task switch: a message in
is queued by the protocol, reading is paused (the socket taken out of the selector) until the handler's task
wakes and takes it, then resumed; a message out goes through Starlette's and uvicorn's ``send`` coroutines and
a writer task per connection.  At 100 busy tables that machinery was about a third of the server's processor
time.  :class:`Wire` is uvicorn's own sans-I/O protocol (the handshake, pings, the closing handshake, the frame
size limit, everything else unchanged) that also offers the ASGI app, in the scope's extension
``"khrap.wire"``, a direct path once the socket is accepted:

- ``on_message``: set by the app, it is called with each whole message (text as ``str``, binary as ``bytes``)
  as soon as its last frame is parsed, inside ``data_received``: no queue, no task, reading never paused;
- :meth:`Wire.write_text`: a text frame is added to the connection's outgoing bytes, and all of them are
  written at once (one ``write``, one system call) once the event loop's current turn is over, so a
  broadcast's messages leave together and a reader wakes once for many;
- :meth:`Wire.close_with`: the closing handshake with a code and reason, after what is waiting is written;
- ``before_write``: set by the app, it is called before the frames of a turn are written (once a turn for all
  the connections that share it): the server's store commits the turn's actions there, so nobody is sent an
  update before what it shows is stored.

The transport's write buffer is the only queue: ``stalled_since`` says since when it has been over the
transport's high-water mark (its client is not reading), and the app drops such a client (``abort``).
Without the extension (Starlette's test client, another server) the app uses the ASGI calls as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

EXTENSION = "khrap.wire"
"""The scope's extension by which the app finds a connection's :class:`Wire`."""

_WAITING: dict[Any, list[Wire]] = {}
"""Per event loop, the connections with frames waiting for the end of its turn: one callback a turn flushes
them all (a broadcast to four seats made four callbacks, a handle each, before)."""


def _flush_waiting(loop: Any) -> None:
    done = None
    for wire in _WAITING.pop(loop, ()):
        before = wire.before_write
        if before is not None and before is not done:  # (the app's one hook: once a turn, not once a connection)
            before()
            done = before
        wire.flush()


def frame(payload: bytes, opcode: int = 1) -> bytes:
    """A server's frame (unmasked, final) of ``payload``: text by default (RFC 6455, 5.2)."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, size))
    elif size < 65536:
        head = bytes((0x80 | opcode, 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 127)) + size.to_bytes(8, "big")
    return head + payload


class Wire(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, with a direct path for messages in and out (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_message: Callable[[str | bytes], None] | None = None
        self.out: list[bytes] = []  # frames waiting for the end of the loop's turn
        self.stalled_since: float | None = None  # when the write buffer went over its high-water mark
        self.before_write: Callable[[], None] | None = None  # set by the app: run before frames are written

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None and self.handshake_initiated and not self.close_sent:  # (an upgrade that goes on)
            scope["extensions"][EXTENSION] = self

    # ------------------------------------------------------------ in
    def send_receive_event_to_app(self) -> None:
        handler = self.on_message
        if handler is None or self.close_sent:  # before the app took the direct path, or closing: as uvicorn
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.curr_msg_data_type == "text":
            try:
                text = bytes(data).decode()
            except UnicodeDecodeError:  # (as uvicorn: the connection is closed, 1007)
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
            handler(text)
        else:
            handler(bytes(data))

    # ------------------------------------------------------------ out
    @property
    def open(self) -> bool:
        return not (self.close_sent or self.disconnected or self.transport.is_closing())

    def write_text(self, payload: bytes) -> None:
        """A text message, written with the others of this turn (nothing once the connection is closing)."""
        if not self.open:
            return
        if not self.out:
            waiting = _WAITING.get(self.loop)
            if waiting is None:
                waiting = _WAITING[self.loop] = []
                self.loop.call_soon(_flush_waiting, self.loop)
            waiting.append(self)
        self.out.append(frame(payload))

    def flush(self) -> None:
        """Write every frame waiting, in one ``write``."""
        out, self.out = self.out, []
        if out and self.open:
            self.transport.write(out[0] if len(out) == 1 else b"".join(out))

    def buffered(self) -> int:
        """Bytes written and not yet taken by the client (and those waiting for the turn's end)."""
        return self.transport.get_write_buffer_size() + sum(map(len, self.out))

    def close_with(self, code: int, reason: str) -> None:
        """The closing handshake (``code``, ``reason``), after what is waiting; as uvicorn's ASGI close."""
        if self.out and self.before_write is not None:
            self.before_write()
        self.flush()
        if not self.open:
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        self.conn.send_close(code, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)

    def abort(self) -> None:
        """Drop the connection at once, its unsent bytes with it (a client that does not read)."""
        self.out = []
        self.transport.abort()

    def pause_writing(self) -> None:
        super().pause_writing()
        self.stalled_since = self.loop.time()

    def resume_writing(self) -> None:
        super().resume_writing()
        self.stalled_since = None


__all__ = ["EXTENSION", "Wire", "frame"]
