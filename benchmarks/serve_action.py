"""What an action costs, in-process: the server's ``Host.receive`` for an ``act`` (apply, store, a view per
seat, its encoding) and each seat's client taking the update (decode, patch), in processor time, with
updates as patches (the page's way) and as whole views (``--whole``, as before).  No sockets: the socket's
own cost is ``benchmarks/serve.py``'s.

    python benchmarks/serve_action.py                 # 40 tables, 4,000 actions, patches then whole views
    python benchmarks/serve_action.py --actions 20000 --json
    python benchmarks/serve_action.py --tables 1000 --actions 20000 --whole --collector   # the collector's share
    valgrind --tool=cachegrind python benchmarks/serve_action.py --tables 10 --actions 1200 --no-clients \
        --db /tmp/t.sqlite --whole   # the server's instructions (minus a run of 200: docs/serve.md, fifth pass)

``--collector`` leaves Python's cyclic collector on during the measure, as it was at ``khrap serve`` before
issue 32 turned it off there (``khrap.web.app.keep_collections_short``), and reports its processor time an
action and its longest pass (its passes walk the views kept as the bases of the next patches: their cost
grows with the heap, so with the tables in memory).  Without it the collector is off, as at ``khrap serve``.

Every seat of a 4-player Khrap table is a connection that takes each message as text; the tables play
random legal actions (seeded) and deal after deal; a table's evening grows as it would at ``khrap serve``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time

try:
    from orjson import loads
except ImportError:  # (the web extra brings orjson)
    loads = json.loads

from khrap.variant.catalog import builtin
from khrap.web.delta import apply
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table


class Seat:
    """A connection that keeps the messages it is sent, as the server's sockets take them: a broadcast's as UTF-8
    bytes (``send_json``), the others as text (the client's work is measured apart)."""

    def __init__(self) -> None:
        self.texts: list[str | bytes] = []

    def send(self, message: dict) -> None:
        raise AssertionError("every message goes encoded here")

    def send_text(self, text: str) -> None:
        self.texts.append(text)

    def send_json(self, data: bytes) -> None:
        self.texts.append(data)

    def close(self, reason: str) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0  # a second a reading: the rate limit never refuses
        return self.now


def _seeds(i: int):
    """Deal seeds from a generator of the table's own (the same deals in every run: instruction counts compare)."""
    made = random.Random(1000 + i)
    return lambda: made.getrandbits(256).to_bytes(32, "big").hex()


def run(tables: int, actions: int, deltas: bool, collector: bool = False, decode: bool = True,
        db: str = ":memory:", spectators: int = 0) -> dict:
    """``db``: the store's file (as ``khrap serve`` keeps it: WAL, a commit an action), in memory by default.
    ``spectators``: connections watching each table besides its four seats (the same language).
    ``decode`` False: the seats keep what they are sent and nothing more (the server's work alone, as
    instruction counts under ``valgrind --tool=cachegrind`` want it: ``--no-clients``)."""
    host = Host(Store(db), takeover_seconds=1e12, clock=Clock())
    rng = random.Random(1)
    seated = []
    for i in range(tables):
        table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=1_000_000,
                             base_stake=1, bots={}, deals=500, session_seed=i,
                             seed_source=_seeds(i))
        host.add(table)
        conns = [Seat() for _ in range(4 + spectators)]
        clients = [host.connect(c) for c in conns]
        for seat, client in enumerate(clients):
            token = table.seats[seat].token if seat < 4 else table.spectator_token
            host.receive(client, json.dumps({"type": "hello", "token": token, "deltas": deltas}))
        seated.append((table, conns, clients[:4], [None] * len(conns)))
    passes: list[float] = []
    began = [0.0]

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = time.process_time()
        else:
            passes.append(time.process_time() - began[0])

    gc.collect()
    gc.freeze()  # what was made before the measure (the tables, the first views), as ``khrap serve`` freezes it
    if collector:
        gc.callbacks.append(timed)
    else:
        gc.disable()
    try:
        server, client, done, sent, sent_bytes = _play(seated, host, rng, actions, decode)
    finally:
        if collector:
            gc.callbacks.remove(timed)
        gc.enable()
        gc.unfreeze()
    return {"updates": "patches" if deltas else "whole views", "tables": tables, "actions": done,
            "server_us": round(server / done * 1e6), "clients_us": round(client / done * 1e6),
            "bytes_per_update": round(sent_bytes / max(1, sent)), "collector": collector,
            "collector_us": round(sum(passes) / done * 1e6), "collector_max_ms": round(max(passes, default=0) * 1e3, 1)}


def _play(seated: list, host: Host, rng: random.Random, actions: int,
          decode: bool = True) -> tuple[float, float, int, int, int]:
    """Random legal actions at each table in turn until ``actions``: (server's seconds, clients' seconds,
    actions, updates sent, their bytes)."""
    server = client = 0.0
    done = sent = sent_bytes = 0
    while done < actions:
        for table, conns, clients, views in seated:
            started = time.process_time()
            if table.in_deal:
                seat = table.session.to_act
                action = rng.choice(table.session.legal_actions())
                host.receive(clients[seat], json.dumps({"type": "act", "action": str(action), "step": table.step}))
                done += 1
                measured = True
            else:
                for c in clients:
                    host.receive(c, '{"type": "next"}')
                measured = False
            middle = time.process_time()
            for seat, conn in enumerate(conns):  # each seat's client takes what it was sent
                for text in conn.texts:
                    if measured:
                        sent += 1
                        sent_bytes += len(text) if isinstance(text, bytes) else len(text.encode())
                    if not decode:
                        continue
                    message = loads(text)
                    if message["type"] == "delta":
                        views[seat] = apply(views[seat], message["d"])
                    elif message["type"] == "state":
                        views[seat] = message
                conn.texts.clear()
            ended = time.process_time()
            if measured:
                server += middle - started
                client += ended - middle
    return server, client, done, sent, sent_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--actions", type=int, default=4000)
    parser.add_argument("--whole", action="store_true", help="whole views only")
    parser.add_argument("--collector", action="store_true", help="the cyclic collector on, as before issue 32")
    parser.add_argument("--no-clients", action="store_true",
                        help="the seats only keep what they are sent (the server's work alone)")
    parser.add_argument("--db", default=":memory:", help="the store's file (a new one), in memory by default")
    parser.add_argument("--spectators", type=int, default=0, help="connections watching each table (0 to 100)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.tables <= 1000 or not 1 <= args.actions <= 1_000_000 or not 0 <= args.spectators <= 100:
        parser.error("--tables from 1 to 1000, --actions from 1 to 1,000,000, --spectators from 0 to 100")
    rows = [run(args.tables, args.actions, deltas, args.collector, not args.no_clients,
                args.db if args.db == ":memory:" else f"{args.db}.{deltas:d}", args.spectators)
            for deltas in ((False,) if args.whole else (True, False))]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        print(f"{r['updates']:>11}: an action costs the server {r['server_us']} us and its four clients "
              f"{r['clients_us']} us (an update {r['bytes_per_update']} bytes; {r['actions']} actions, "
              f"{r['tables']} tables)" + (f"; the collector {r['collector_us']} us an action (server and clients), "
                                          f"its longest pass {r['collector_max_ms']} ms" if r["collector"] else ""))


if __name__ == "__main__":
    main()
