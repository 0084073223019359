"""Shared by the web table's tests: a live server on loopback in a thread, the system Chromium,
and deterministic deal seeds (so a browser test plays the same deal every time)."""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

BROWSERS = ("chromium", "chromium-browser")


def fixed_seeds(label: str) -> Callable[[], str]:
    """Deal seeds from a counter: SHA-256 of LABEL:n for n = 0, 1, ... (for tests: real seeds are random)."""
    counter = itertools.count()
    return lambda: hashlib.sha256(f"{label}:{next(counter)}".encode()).hexdigest()


def who_deal(leave: bool = False):
    """Seed "who", played to its end: Anna (seat 0, the dealer) and Boris (seat 1, first to speak) each make their
    first call themselves (Boris says khrap), then rule bots act for every seat; with ``leave`` Boris leaves the
    table after his call (his seat goes to a bot).  Read by the log's tests of who made each move (``by``)."""
    from khrap.variant.catalog import builtin
    from khrap.web.table import Table

    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1,
                         bots={2: "rule", 3: "rule"}, deals=1, seed_source=fixed_seeds("who"), session_seed=7)
    table.seats[0].name, table.seats[1].name = "Anna", "Boris"
    table.start_deal()
    spoke: set[int] = set()
    while table.in_deal:
        seat = table.session.to_act
        person = seat in (0, 1) and seat not in spoke
        table.apply(seat, "khrap" if person and seat == 1 else table.bot_action(seat, "rule"),
                    by="human" if person else "bot")
        spoke.add(seat)
        if leave and seat == 1 and table.seats[1].human:
            table.reseat(1, "left")
    return table


def chromium() -> str:
    """The system Chromium (Debian's package); in CI (KHRAP_CI=1) a missing browser fails the test."""
    for name in ("/usr/bin/chromium", *BROWSERS):
        found = shutil.which(name)
        if found:
            return found
    message = "no Chromium on this machine (Debian: apt-get install -y chromium); the browser test needs it"
    if os.environ.get("KHRAP_CI"):
        pytest.fail(message)
    pytest.skip(message)


class LiveServer:
    """``khrap serve``'s app under uvicorn in a thread, on a free loopback port."""

    def __init__(self, db: Path, loop: str | None = None, **kwargs) -> None:
        import uvicorn

        from khrap.web.app import create_app, uvicorn_options

        kwargs.setdefault("first_dealer", lambda players: 0)  # seat 0 deals first: the tests' fixed deals
        self.app = create_app(db, **kwargs)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        options = {**uvicorn_options(), **({"loop": loop} if loop else {})}  # as ``serve``'s (``loop``: another)
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off", **options)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    @property
    def host(self):
        return self.app.state.host

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    servers: list[LiveServer] = []

    def start(**kwargs) -> LiveServer:
        server = LiveServer(tmp_path / "tables.sqlite", **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
