"""How long `khrap serve` takes to start on a database of N archived (finished) tables.

    python benchmarks/serve_start.py                 # N = 0 and 10,000
    python benchmarks/serve_start.py --tables 0 1000 --json

One three-player Frap table is played to its end in-process (bots on every seat, through the host's
protocol), and its stored rows are copied N times under new ids and tokens (SQL, no replay), so the
database holds N finished tables with whole deals of actions.  The time is from starting the server
process until its port accepts a connection, for an empty database and for N tables: the difference is
what the tables cost at start (the server reads their tokens, never their games).
"""

from __future__ import annotations

import argparse
import json
import secrets
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOST = "127.0.0.1"


class _Quiet:
    """A connection that takes every message and keeps none."""

    def send(self, message: dict) -> None:
        pass

    def close(self, reason: str) -> None:
        pass


def finished_table(db: Path) -> str:
    """One finished table in ``db``, its one person's seat played by a bot through the host; its id."""
    from khrap.variant.catalog import builtin
    from khrap.web.host import Host
    from khrap.web.store import Store
    from khrap.web.table import Table

    store = Store(db)
    # A second a reading: the per-connection rate limit never refuses (compiled, this loop outran it and the
    # seat's actions were refused with "slow down", so the table never finished).
    ticks = iter(range(1, 10**9))
    host = Host(store, takeover_seconds=1e12, clock=lambda: float(next(ticks)))
    table = Table.create(builtin("frap"), name="frap", source=None, players=3, stacks=100, base_stake=1,
                         bots={1: "easy", 2: "easy"}, deals=2)
    host.add(table)
    client = host.connect(_Quiet())
    host.receive(client, json.dumps({"type": "hello", "token": table.seats[0].token, "lang": "en"}))
    for _ in range(10_000):
        if table.finished:
            break
        if not table.in_deal:
            host.receive(client, json.dumps({"type": "next"}))
        elif host.automated(table) is not None:
            host.step(table)
        else:
            host.receive(client, json.dumps({"type": "act", "action": table.bot_action(0, "easy"),
                                             "step": table.step}))
    if not table.finished:
        raise SystemExit("the sample table did not finish")
    store.db.close()
    return table.id


def copy_rows(db: Path, tid: str, n: int) -> None:
    """``n`` copies of table ``tid``'s rows, each under a new id and new tokens."""
    con = sqlite3.connect(db)
    with con:
        setup, spectator, created = con.execute("SELECT setup, spectator, created FROM tables WHERE id = ?",
                                                (tid,)).fetchone()
        seats = con.execute("SELECT seat, human, bot FROM seats WHERE table_id = ?", (tid,)).fetchall()
        deals = con.execute("SELECT number, seed, commitment, started, decks FROM deals WHERE table_id = ?",
                            (tid,)).fetchall()
        actions = con.execute("SELECT n, seat, text, by FROM actions WHERE table_id = ?", (tid,)).fetchall()
        for _ in range(n):
            new = secrets.token_urlsafe(9)
            con.execute("INSERT INTO tables VALUES (?, ?, ?, ?)", (new, setup, secrets.token_urlsafe(24), created))
            con.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                            [(new, s, h, b, secrets.token_urlsafe(24)) for s, h, b in seats])
            con.executemany("INSERT INTO deals VALUES (?, ?, ?, ?, ?, ?)", [(new, *d) for d in deals])
            con.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", [(new, *a) for a in actions])
    con.close()


def start_seconds(db: Path) -> float:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "khrap.cli", "serve", "--host", HOST, "--port", str(port),
                             "--db", str(db)], stdout=subprocess.DEVNULL)
    try:
        while time.perf_counter() - started < 120:
            try:
                with socket.create_connection((HOST, port), timeout=0.05):
                    return time.perf_counter() - started
            except OSError:
                time.sleep(0.01)
        raise SystemExit("the server did not start in 120 s")
    finally:
        proc.kill()
        proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[0, 10_000], help="archived tables")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if any(not 0 <= n <= 100_000 for n in args.tables):
        parser.error("from 0 to 100000 tables")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        sample = Path(folder) / "sample.sqlite"
        tid = finished_table(sample)
        for n in args.tables:
            db = Path(folder) / f"start-{n}.sqlite"  # N = 0: a new, empty database
            if n:
                db.write_bytes(sample.read_bytes())
                copy_rows(db, tid, n - 1)  # the sample is one of the N
            seconds = min(start_seconds(db) for _ in range(3))
            rows.append({"archived_tables": n, "start_s": round(seconds, 3),
                         "db_mb": round(db.stat().st_size / 2**20, 1)})
            if not args.json:
                print(f"{n:>6} archived tables ({rows[-1]['db_mb']} MB): started in {seconds:.2f} s", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
