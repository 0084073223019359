"""Nothing shown is lost: ``kill -9`` a server at a random moment while its tables play, then check that every
action any seat had been shown is in the database (issue 32: a turn's moves are committed together, before any
update of the turn is written; docs/serve.md, "Seventh pass").

    python benchmarks/kill_probe.py --rounds 8          # six tables of two players and two bots each, a round

Each round starts ``khrap serve`` on a new file, seats two connections at each table (they press "next deal" and
act at their turn, answering the step they were shown), kills the server 2 to 6 s in, and counts each table's
stored actions against the most any of its seats was shown (a view's ``table.step`` is ``DEALS:ACTIONS``); then
starts the server once more on the file.  Exit 1 if any round lost an action.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db: Path, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "khrap.cli", "serve", "--port", str(port), "--db", str(db),
                             "--bot-delay", "0", "--takeover", "600", "--rate", "1000"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def play(port: int, token: str, me: int, tid: str, shown: dict, lock: threading.Lock, stop: threading.Event) -> None:
    """One seat: whole views, "next deal" once a deal, a random legal action at its turn; the most actions seen."""
    pressed = None
    try:
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
            while not stop.is_set():
                try:
                    message = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    continue
                if message["type"] != "state":
                    continue
                table = message["table"]
                with lock:
                    shown[tid] = max(shown.get(tid, 0), int(table["step"].split(":")[1]))
                if not table["in_deal"]:
                    if pressed != table["step"]:
                        ws.send(json.dumps({"type": "next"}))
                        pressed = table["step"]
                elif message["obs"]["to_act"] == me and message["legal"]:
                    ws.send(json.dumps({"type": "act", "action": random.choice(message["legal"])["text"],
                                        "step": table["step"]}))
    except Exception:  # (the server was killed)
        pass


def one_round(tables: int) -> tuple[int, int, list]:
    """(actions shown, stored, [(table, shown, stored)] for every table that lost some)."""
    db, port = Path(tempfile.mkdtemp(prefix="kill_probe")) / "khrap.sqlite", free_port()
    server = start(db, port)
    shown: dict[str, int] = {}
    lock, stop, seats, ids = threading.Lock(), threading.Event(), [], []
    for _ in range(tables):
        body = json.dumps({"variant": "khrap", "players": 4, "bots": {"2": "rule", "3": "rule"}, "deals": 50})
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", body.encode(),
                                         {"Content-Type": "application/json"})
        made = json.load(urllib.request.urlopen(request, timeout=20))
        ids.append(made["table"])
        for i in range(2):
            token = made["seats"][i]["link"].split("#", 1)[1]
            seat = threading.Thread(target=play, args=(port, token, i, made["table"], shown, lock, stop), daemon=True)
            seat.start()
            seats.append(seat)
    time.sleep(random.uniform(2, 6))
    os.kill(server.pid, signal.SIGKILL)
    server.wait(10)
    with lock:
        seen = dict(shown)
    stop.set()
    for seat in seats:
        seat.join(5)
    conn = sqlite3.connect(db)
    stored = {t: conn.execute("SELECT count(*) FROM actions WHERE table_id = ?", (t,)).fetchone()[0] for t in ids}
    conn.close()
    start(db, port).kill()  # (and it starts again on the file)
    lost = [(t, seen.get(t, 0), stored[t]) for t in ids if stored[t] < seen.get(t, 0)]
    return sum(seen.values()), sum(stored.values()), lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--tables", type=int, default=6)
    args = parser.parse_args()
    if not 1 <= args.rounds <= 1000 or not 1 <= args.tables <= 100:
        parser.error("--rounds from 1 to 1000, --tables from 1 to 100")
    failed = False
    for k in range(args.rounds):
        seen, stored, lost = one_round(args.tables)
        print(f"round {k + 1}: {seen} actions shown, {stored} stored; lost: {lost or 'none'}", flush=True)
        failed = failed or bool(lost)
    print("an action shown was lost" if failed else "every action shown was stored")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
