"""Nothing lost: ``kill -9`` the server in the middle of a deal, start it again on the same database,
and the table resumes with the same state and the same next legal actions."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ws_client = pytest.importorskip("websockets.sync.client", reason="the web extra is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db: Path, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "khrap.cli", "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0",
         "--takeover", "600"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


class Seat:
    """One seat's connection: the latest view it was sent."""

    def __init__(self, port: int, token: str) -> None:
        self.ws = ws_client.connect(f"ws://127.0.0.1:{port}/ws").__enter__()  # closed by the test
        self.ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        self.view = self.wait(lambda v: True)

    def wait(self, ready, timeout: float = 10.0) -> dict:
        """Read messages until a view satisfies ``ready`` (views come in order: the last is the table now)."""
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            assert message["type"] != "refused", message
            if message["type"] == "state":
                self.view = message
                if ready(message):
                    return message

    def settle(self) -> dict:
        """The view once no more messages come for a moment."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0.5))
            except TimeoutError:
                return self.view
            if message["type"] == "state":
                self.view = message


def comparable(view: dict) -> dict:
    """A view without who is connected now and the update's number (which a restart changes)."""
    table = {k: v for k, v in view["table"].items() if k != "seats"}
    return {**{k: v for k, v in view.items() if k != "n"}, "table": table}


def test_a_killed_server_resumes_the_deal_exactly(tmp_path: Path) -> None:
    db, port = tmp_path / "tables.sqlite", free_port()
    server = start(db, port)
    try:
        body = json.dumps({"variant": "khrap", "players": 4, "bots": {"2": "rule", "3": "rule"}, "deals": 3}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", body,
                                         {"Content-Type": "application/json"})
        created = json.load(urllib.request.urlopen(request, timeout=10))
        tokens = [s["link"].split("#", 1)[1] for s in created["seats"][:2]]
        seats = [Seat(port, token) for token in tokens]
        for seat in seats:
            seat.ws.send(json.dumps({"type": "next"}))
        acted = 0
        for _ in range(500):  # people's actions, bots' in between; stop in a deal with a person to act
            views = [seat.settle() for seat in seats]
            table = views[0]["table"]
            if table["in_deal"] and views[0]["obs"]["to_act"] in (0, 1) and acted >= 5 and table["deals_completed"]:
                break
            if not table["in_deal"]:
                for seat in seats:
                    seat.ws.send(json.dumps({"type": "next"}))
                continue
            for i, view in enumerate(views):
                if view["obs"]["to_act"] == i and view["legal"]:
                    choice = view["legal"][acted % len(view["legal"])]["text"]
                    seats[i].ws.send(json.dumps({"type": "act", "action": choice,
                                                          "step": view["table"]["step"]}))
                    acted += 1
        before = [comparable(seat.settle()) for seat in seats]
        assert before[0]["table"]["in_deal"], "the kill comes in the middle of a deal"
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        for seat in seats:
            seat.ws.close()

        server = start(db, port)
        again = [Seat(port, token) for token in tokens]
        after = [comparable(seat.settle()) for seat in again]
        assert after == before
        to_act = after[0]["obs"]["to_act"]
        assert after[to_act]["legal"] == before[to_act]["legal"] and after[to_act]["legal"]
        for seat in again:
            seat.ws.close()
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(10)
