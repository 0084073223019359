"""What an action costs as an evening goes, in-process: ``serve_action``'s host, T tables of four seats on patches
playing D deals each in turn (random legal actions, seeded), and after each round of deals the server's processor
time an action over that round and its resident memory (Linux).  The collector is off, as at ``khrap serve``.

    python benchmarks/serve_evening.py --tables 100 --deals 30 --db /tmp/evening.sqlite

A table's memory over an evening (issue 32, docs/serve.md's fifteenth pass): at main before the pass the resident
memory grew some 34 KB a table and deal, and the time an action a fifth over 30 deals with the instructions flat.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
from pathlib import Path

from serve_action import Clock, Seat, _seeds

from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run(tables: int, deals: int, db: str):
    """One row a round of deals: the deal, the server's microseconds an action in it, the memory after it."""
    host = Host(Store(db), takeover_seconds=1e12, clock=Clock())
    rng = random.Random(1)
    seated = []
    for i in range(tables):
        table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=1_000_000, base_stake=1,
                             bots={}, deals=500, session_seed=i, seed_source=_seeds(i))
        host.add(table)
        conns = [Seat() for _ in range(4)]
        clients = [host.connect(c) for c in conns]
        for seat, client in enumerate(clients):
            host.receive(client, json.dumps({"type": "hello", "token": table.seats[seat].token, "deltas": True}))
        seated.append((table, conns, clients))
    gc.collect()
    gc.freeze()
    gc.disable()
    for deal in range(1, deals + 1):
        spent, actions = 0.0, 0
        for table, conns, clients in seated:
            for client in clients:
                host.receive(client, '{"type": "next"}')
            while table.in_deal:
                seat = table.session.to_act
                message = json.dumps({"type": "act", "action": str(rng.choice(table.session.legal_actions())),
                                      "step": table.step})
                began = time.process_time()
                host.receive(clients[seat], message)
                spent += time.process_time() - began
                actions += 1
            for conn in conns:
                conn.texts.clear()
        yield {"deal": deal, "server_us": round(spent / actions * 1e6), "rss_mb": round(rss_mb(), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--db", default=":memory:", help="the store's file (a new one), in memory by default")
    args = parser.parse_args()
    if not 1 <= args.tables <= 1000 or not 1 <= args.deals <= 500:
        parser.error("--tables from 1 to 1000, --deals from 1 to 500")
    for row in run(args.tables, args.deals, args.db):
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
