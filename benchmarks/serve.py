"""K tables of bots playing over WebSockets on loopback: actions per second, and the latency from an
action to every seat's update (p50, p99), for K = 1, 10, 100.

    python benchmarks/serve.py                       # K = 1, 10, 100; 10 s each, at most 20,000 actions each
    python benchmarks/serve.py --tables 1 10 --seconds 5 --json
    python benchmarks/serve.py --tables 1000 --think 5 --seconds 60   # 1,000 tables at a person's pace
    python benchmarks/serve.py --idle 2000           # memory per idle table (created, nobody connected)

``--think S``: a seat waits a random 0.5 S to 1.5 S before each action, as a person thinks (0: at once, as
fast as the server answers).  Tables are created before the clock starts, as a table is made long before its
play.  ``--idle N`` creates N tables nobody connects to and reports the server's memory per table.  Each seat
asks for updates that carry what changed (a whole view first, then patches it applies, as the page does);
``--whole`` makes every update a whole view, as every update was before.  ``--servers N`` starts N servers,
each its own process and database, and puts table i on server i mod N: what sharding the tables by table over
N processes gives, before the cost of whatever routes a connection to its table's process.  Each row also
says each server's own p99 (``p99_ms_by_server``) and, from Linux's schedstat, the share of the time each
server's event loop and then the client's was ready to run but waited for a processor (``waiting``): on two
cores, two servers and the clients are three processes that want them, and every message one of them has to
handle waits that long.

The server is `khrap serve` in its own process on 127.0.0.1 (a fresh SQLite file in a temporary folder,
bots' delay 0, a high per-connection rate so the limit does not pace the benchmark).  Every seat of a
4-player Khrap table is a WebSocket client here that picks a random legal action from its own view;
the latency of an action is the time from sending it until all four seats have a view that shows it
(each seat patches its view with every ``delta`` and reads the step from it, as the page does).
Each K runs for at most --seconds and --max-actions; only loopback is ever used.

The clients stand in for browsers on other machines, so they are lean, as a load generator is (wrk): every
seat's socket is in one epoll set of their own (``benchmarks/ws_client.py``), whose one descriptor the event
loop watches, so a burst of messages to many seats costs one callback and, a seat, one ``recv`` of 64 KiB and
a loop over its frames (no asyncio handle, task, future or queue a message; asyncio's transports ``recv`` 256
KiB, a fresh ``mmap`` each call).  The client's collector is off while it measures.  At 100 busy tables the
clients' processor time an action fell from 260-370 us (an asyncio protocol a seat) to 125-170 (issue 32;
the ``websockets`` library's client took 450-590).  A seat still reads every message it is sent, decodes it
whole (orjson) and patches its view with every ``delta`` (``ws_client.patch_into``: the page's ``apply`` done
in place, tested against it), and acts only on the view it holds: it must, to know the step and its turn.
``messages`` counts the messages the seats decoded while measuring, ``missed`` the patches whose base was not
the view the seat held (0: none lost).  Where uvloop is installed the asyncio part runs on it.

Where the tail comes from (issue 32): ``p50_first_ms``/``p99_first_ms`` are the latencies to the first of the
four seats' views (against the last: what the client's own reading of the other three adds), ``deal_ends`` and
``p50_deal_end_ms`` the actions that settled a deal (settlement, the deal's records) and their median.
``--probe FILE`` runs each server under ``benchmarks/loop_probe.py`` and times the client's loop the same way:
every event-loop turn's length (wall and processor time), the time of each piece of the server's work in them
(reading frames, the action, SQLite, the broadcast, the writes, dealing, the collector's passes, archiving, the
rate buckets...) and its longest run, and every turn over 5 ms with what ran in it; a summary is printed and
the whole to FILE.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from ws_client import Conn, Hub, patch_into  # (the lean client: benchmarks/ws_client.py)

HOST = "127.0.0.1"


try:
    from orjson import dumps, loads
except ImportError:  # (the web extra brings orjson)
    loads = json.loads

    def dumps(value: object) -> bytes:
        return json.dumps(value).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int, probe: Path | None = None, collector: bool = False) -> subprocess.Popen:
    """``khrap serve`` on ``port``; with ``probe``, under ``loop_probe.py`` (its report written there), and with
    ``collector`` Python's collector left automatic there (``loop_probe.py``)."""
    under = [str(Path(__file__).with_name("loop_probe.py")), str(probe)] if probe is not None else []
    env = {**os.environ, "KHRAP_PROBE_COLLECTOR": "on"} if collector else None
    proc = subprocess.Popen([sys.executable, *under, "-m", "khrap.cli", "serve", "--host", HOST, "--port", str(port),
                             "--db", str(db), "--bot-delay", "0", "--takeover", "1000000000", "--rate", "100000",
                             "--post-rate", "100000", "--creates", "100000000", "--per-address", "1000000"],
                            stdout=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def archived_table(db: Path, deals: int) -> str:
    """A finished table of ``deals`` deals in a new database ``db`` (4 seats, the easy bot's moves): a server
    started on it loads it (replays its game) each time its record is asked for.  Its spectator's token."""
    from khrap.variant.catalog import builtin
    from khrap.web.store import Store
    from khrap.web.table import Table

    store = Store(db)
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=1_000_000, base_stake=1,
                         bots={}, deals=deals)
    store.add(table)
    while not table.finished:
        table.start_deal()
        store.started(table)
        while table.in_deal:
            seat = table.session.to_act
            table.apply(seat, table.bot_action(seat, "easy"))
            store.acted(table)
    store.close()
    return table.spectator_token


class Records:
    """Ask for an archived table's record every ``every`` seconds while the tables play: each answer's time."""

    def __init__(self, port: int, token: str, every: float = 1.0) -> None:
        self.url, self.every, self.times = f"http://{HOST}:{port}/record/{token}", every, []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.wait(self.every):
            started = time.perf_counter()
            with urllib.request.urlopen(self.url, timeout=60) as answer:
                answer.read()
            self.times.append(round((time.perf_counter() - started) * 1000, 1))


def rss_mb(pid: int) -> float | None:
    """The server's resident memory (Linux), after the tables measured so far (they stay open)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def cpu_seconds(pid: int) -> float | None:
    """The processor time (user and system) process ``pid`` used so far (Linux), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited(pid: int) -> float | None:
    """Seconds the main thread of process ``pid`` (an event loop) has spent ready to run but waiting for a
    processor (Linux's schedstat): what the cores' sharing adds to every message it had to handle."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def servers_cpu(pids: tuple[int, ...]) -> float | None:
    times = [cpu_seconds(pid) for pid in pids]
    return None if not times or None in times else sum(times)


def create_table(port: int) -> list[str]:
    body = json.dumps({"variant": "khrap", "players": 4, "bots": {}, "deals": 500, "stacks": 1_000_000}).encode()
    request = urllib.request.Request(f"http://{HOST}:{port}/api/tables", body, {"Content-Type": "application/json"})
    answer = json.load(urllib.request.urlopen(request, timeout=30))
    return [s["link"].split("#", 1)[1] for s in answer["seats"]]


class TableRun:
    """One table's four seats; measures each action until every seat has seen it."""

    def __init__(self, port: int, tokens: list[str], rng: random.Random, think: float = 0.0,
                 deltas: bool = True) -> None:
        self.port = port  # the server that holds this table
        self.tokens = tokens
        self.deltas = deltas
        self.think = think
        self.rng = rng
        self.pending: dict[tuple[int, int], tuple[float, set[int]]] = {}  # step before: (sent at, seats to see it)
        self.latencies: list[float] = []
        self.first: list[float] = []  # from an action sent to the first of the four seats' views that shows it
        self.ending: list[float] = []  # the latencies of the actions that ended a deal (settled it)
        self.actions = 0
        self.ready_sent: set[tuple[int, str]] = set()
        self.views: list[dict | None] = [None] * 4  # the view each seat holds (patched by each ``delta``, as the page)
        self.sockets: list[Conn | None] = [None] * 4
        self.missed = 0  # patches whose base was not the view held (over TCP never: a fault of the client)
        self.step_text, self.step = "", (0, 0)  # the last step read, and as numbers (four seats read each)
        self.stop: asyncio.Event | None = None
        self.budget: list[int] = [0]

    async def seat(self, hub: Hub, seat: int, stop: asyncio.Event, budget: list[int], gate: asyncio.Semaphore,
                   opened: list[int]) -> None:
        self.stop, self.budget = stop, budget
        # A few connections open at a time (people do not all arrive in the same second; 4,000 at once
        # overflow the listen queue and the client's open timeout, and the tables they sit at never start).
        async with gate:
            try:
                async with asyncio.timeout(120):
                    ws = await hub.connect(HOST, self.port, "/ws", lambda raw: self.take(seat, raw))
                self.sockets[seat] = ws
                ws.send(dumps({"type": "hello", "token": self.tokens[seat], "deltas": self.deltas}))
            except Exception:
                opened[1] += 1  # counted as failed: the table it sits at never starts
                raise
        opened[0] += 1
        try:
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait([stopped, ws.closed], return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
        finally:
            ws.close()

    def take(self, seat: int, raw: bytes) -> None:
        """A message to ``seat``: its view patched (or replaced), the latencies it completes, its next move."""
        message = loads(raw)  # the client's own cost, as a page's: decode, patch
        view = self.views[seat]
        kind = message["type"]
        if kind == "delta":
            if view is None or message["base"] != view["n"]:
                self.missed += 1
                self.sockets[seat].send(b'{"type": "full"}')  # (over TCP no update is lost: never here)
                return
            patch_into(view, message["d"])
        elif kind == "state":
            view = self.views[seat] = message
        else:
            return
        table = view["table"]
        if table["step"] != self.step_text:
            self.step_text = table["step"]
            self.step = tuple(map(int, self.step_text.split(":")))
        step, now = self.step, time.perf_counter()
        for before, (sent, waiting) in list(self.pending.items()):
            if step > before:  # this seat now sees the action sent at ``before``
                if len(waiting) == 4 and sent != float("inf"):
                    self.first.append(now - sent)
                waiting.discard(seat)
                if not waiting and sent != float("inf"):  # (inf: an action still being thought over)
                    self.latencies.append(now - sent)
                    if not table["in_deal"]:
                        self.ending.append(now - sent)
                    del self.pending[before]
        if self.stop.is_set():
            return
        if not table["in_deal"]:
            if (seat, step) not in self.ready_sent and not table["finished"]:
                self.ready_sent.add((seat, step))
                self.sockets[seat].send(b'{"type": "next"}')
        elif view["obs"]["to_act"] == seat and view["legal"] and step not in self.pending:
            if self.budget[0] <= 0:
                self.stop.set()
                return
            self.budget[0] -= 1
            text = dumps({"type": "act", "action": self.rng.choice(view["legal"])["text"], "step": table["step"]})
            if self.think:  # (the action counts from when it is sent)
                delay = self.think * (0.5 + self.rng.random())
                asyncio.get_running_loop().call_later(delay, self.act, seat, step, text)
                self.pending[step] = (float("inf"), {0, 1, 2, 3})  # (no second action meanwhile)
            else:
                self.act(seat, step, text)

    def act(self, seat: int, step: tuple[int, int], text: bytes) -> None:
        if self.stop.is_set():
            self.pending.pop(step, None)
            return
        self.pending[step] = (time.perf_counter(), {0, 1, 2, 3})
        self.actions += 1
        self.sockets[seat].send(text)


async def run_k(ports: list[int], k: int, seconds: float, max_actions: int, think: float = 0.0,
                deltas: bool = True, server_pids: tuple[int, ...] = (), probes: list[Path] | None = None,
                records: Records | None = None) -> dict:
    tables = [TableRun(ports[i % len(ports)], create_table(ports[i % len(ports)]), random.Random(i), think, deltas)
              for i in range(k)]
    stop = asyncio.Event()
    budget = [10**12]  # no limit while the seats sit down (the tables seated first play on meanwhile)
    gate, opened = asyncio.Semaphore(32), [0, 0]  # connections opened, failed
    hub = Hub()
    tasks = [asyncio.create_task(t.seat(hub, s, stop, budget, gate, opened))
             for t in tables for s in range(4)]
    said = time.monotonic()
    while sum(opened) < 4 * k:  # the measure starts once every seat has sat down (or failed to)
        await asyncio.sleep(0.5)
        if time.monotonic() - said > 10:
            said = time.monotonic()
            print(f"K={k}: {opened[0]} of {4 * k} seats connected, {opened[1]} failed", file=sys.stderr, flush=True)
    for t in tables:
        t.latencies.clear()
        t.first.clear()
        t.ending.clear()
        t.actions = 0
    messages = sum(c.messages for t in tables for c in t.sockets if c is not None)
    budget[0] = max_actions
    gc.collect()
    # No collector passes while measuring: they would count as the server's latency, and their cost as the
    # client's (the seats make no cycles; what asyncio leaves is collected after the run).
    gc.disable()
    started = time.perf_counter()
    # processor time an action costs, the server's and this client's: what the load of a shared machine
    # does not change much (the rate and the latency are what the processors left over make of it)
    cpu = (servers_cpu(server_pids), time.process_time())
    waits = [waited(pid) for pid in (*server_pids, os.getpid())]
    if probes is not None:  # the servers' and the client's loop probes count from now (``loop_probe.py``)
        probe_start(server_pids)
    if records is not None:
        records.thread.start()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    stop.set()
    elapsed = time.perf_counter() - started
    if records is not None:
        records.stop.set()
        await asyncio.to_thread(records.thread.join, 60)
    server_cpu = servers_cpu(server_pids)
    server_cpu = None if server_cpu is None or cpu[0] is None else server_cpu - cpu[0]
    client_cpu = time.process_time() - cpu[1]
    waits = [None if w is None or w0 is None else round((w - w0) / elapsed, 3)
             for w0, w in zip(waits, [waited(pid) for pid in (*server_pids, os.getpid())], strict=True)]
    probed = probe_read(server_pids, probes) if probes is not None else None  # (after the processor times)
    messages = sum(c.messages for t in tables for c in t.sockets if c is not None) - messages
    results = await asyncio.gather(*tasks, return_exceptions=True)
    hub.close()
    gc.enable()
    failed = sum(isinstance(r, Exception) for r in results)
    if failed:
        print(f"{failed} connections failed, e.g. {next(r for r in results if isinstance(r, Exception))!r}",
              file=sys.stderr)
    latencies = sorted(x for t in tables for x in t.latencies)
    first = sorted(x for t in tables for x in t.first)
    ending = sorted(x for t in tables for x in t.ending)
    shards = [sorted(x for t in tables if t.port == port for x in t.latencies) for port in ports]
    actions = sum(t.actions for t in tables)
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else [float("nan")] * 99
    q1 = statistics.quantiles(first, n=100) if len(first) >= 2 else [float("nan")] * 99

    def per(seconds: float | None) -> int | None:
        return None if seconds is None or not actions else round(seconds / actions * 1e6)

    return {"tables": k, "connections": 4 * k, "seconds": round(elapsed, 2), "actions": actions,
            "server_cpu_us": per(server_cpu), "client_cpu_us": per(client_cpu),
            "actions_per_s": round(actions / elapsed, 1), "p50_ms": round(q[49] * 1000, 2),
            "p99_ms": round(q[98] * 1000, 2), "think_s": think,
            # to the first of the four seats' views: the rest of the latency is the client reading the others
            "p50_first_ms": round(q1[49] * 1000, 2), "p99_first_ms": round(q1[98] * 1000, 2),
            # the actions that settled a deal: their share, and their median against all the actions'
            "deal_ends": len(ending), "p50_deal_end_ms": round(ending[len(ending) // 2] * 1000, 2) if ending else None,
            "failed_connections": failed, "deltas": deltas,
            "messages": messages, "missed": sum(t.missed for t in tables),
            "p99_ms_by_server": [round(statistics.quantiles(x, n=100)[98] * 1000, 2) if len(x) >= 2 else None
                                 for x in shards],
            # the share of the time each server's event loop, then the client's, waited for a processor
            "waiting": waits, **({"probe": probed} if probed is not None else {}),
            **({"record_ms": records.times} if records is not None else {})}


CLIENT_PROBE = None  # the client's own loop probe (``--probe``): its turns are timed as the servers' are


def probe_start(pids: tuple[int, ...]) -> None:
    for pid in pids:
        os.kill(pid, signal.SIGUSR1)
    if CLIENT_PROBE is not None:
        CLIENT_PROBE.reset()


def probe_read(pids: tuple[int, ...], paths: list[Path]) -> dict:
    """Each server's probe report (asked for with SIGUSR2, read once written) and the client's."""
    for pid, path in zip(pids, paths, strict=True):
        path.unlink(missing_ok=True)
        os.kill(pid, signal.SIGUSR2)
    reports = []
    for path in paths:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError):
                reports.append(json.loads(path.read_text()))
                break
            time.sleep(0.05)
        else:
            reports.append(None)
    return {"servers": reports, "client": CLIENT_PROBE.report() if CLIENT_PROBE is not None else None}


def idle_tables(port: int, pid: int, n: int) -> dict:
    """The server's memory before and after ``n`` new tables nobody connects to, per table."""
    before = rss_mb(pid)
    for _ in range(n):
        create_table(port)
    time.sleep(1.0)
    after = rss_mb(pid)
    per = None if before is None or after is None else round((after - before) * 1024 / n, 1)
    return {"idle_tables": n, "rss_before_mb": before, "rss_after_mb": after, "kb_per_table": per}


def run(main):
    """``asyncio.run`` on uvloop's event loop where it is installed (its loop's work a message is libuv's, in C:
    the clients' share of the two cores), else on asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 10, 100], help="the K to measure")
    parser.add_argument("--seconds", type=float, default=10.0, help="time limit per K")
    parser.add_argument("--max-actions", type=int, default=20_000, help="action limit per K")
    parser.add_argument("--think", type=float, default=0.0, help="a seat's mean seconds before each action")
    parser.add_argument("--idle", type=int, default=0, help="measure memory per table over this many idle tables")
    parser.add_argument("--whole", action="store_true", help="every update a whole view (no patches), as before")
    parser.add_argument("--servers", type=int, default=1,
                        help="servers (each its own process and database), the tables spread over them by number")
    parser.add_argument("--probe", type=Path, metavar="FILE",
                        help="time the event loops' turns (servers and client, benchmarks/loop_probe.py) while "
                             "measuring; their reports, the pauses over 5 ms and what ran in them, go to FILE")
    parser.add_argument("--collector", action="store_true",
                        help="with --probe: the servers leave the collector automatic (what its settings are worth)")
    parser.add_argument("--records", type=int, default=0, metavar="DEALS",
                        help="the first server also holds a finished table of DEALS deals whose record is asked for "
                             "once a second while the tables play (each time its game is replayed)")
    parser.add_argument("--port", type=int, default=0,
                        help="the first server's port, the next ones after it (default: free ports the system picks)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if any(k < 1 or k > 1000 for k in args.tables) or not 0 < args.seconds <= 600:
        parser.error("K from 1 to 1000 tables, --seconds from 0 to 600")
    if not 0 <= args.think <= 60 or not 0 <= args.idle <= 10_000:
        parser.error("--think from 0 to 60 seconds, --idle from 0 to 10000 tables")
    if not 1 <= args.servers <= 16:
        parser.error("--servers from 1 to 16")
    if args.port and not 1024 <= args.port <= 65535 - args.servers:
        parser.error("--port from 1024 to 65535 (the servers take it and the next ports)")
    if args.collector and not args.probe:
        parser.error("--collector goes with --probe")
    if not 0 <= args.records <= 500:
        parser.error("--records from 0 to 500 deals")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        ports = [args.port + i if args.port else free_port() for i in range(args.servers)]
        servers: list[subprocess.Popen] = []
        try:
            probes = [Path(folder) / f"probe{i}.json" for i in range(args.servers)] if args.probe else None
            if args.probe:
                global CLIENT_PROBE
                import loop_probe
                CLIENT_PROBE = loop_probe.Probe()
                loop_probe.install_turns(CLIENT_PROBE)
            archived = archived_table(Path(folder) / "bench0.sqlite", args.records) if args.records else None
            for i, port in enumerate(ports):  # (each its own database: the shards share nothing)
                servers.append(start_server(Path(folder) / f"bench{i}.sqlite", port,
                                            probes[i] if probes else None, args.collector))
            pids = tuple(server.pid for server in servers)
            if args.idle:
                rows.append(idle_tables(ports[0], pids[0], args.idle))
                if not args.json:
                    r = rows[-1]
                    print(f"{args.idle} idle tables: server {r['rss_before_mb']} -> {r['rss_after_mb']} MB, "
                          f"{r['kb_per_table']} KB a table", flush=True)
            for k in args.tables if not args.idle else ():
                records = Records(ports[0], archived) if archived else None
                rows.append(run(run_k(ports, k, args.seconds, args.max_actions, args.think, not args.whole, pids,
                                      probes, records)))
                sizes = [rss_mb(pid) for pid in pids]
                rows[-1]["server_rss_mb"] = None if None in sizes else round(sum(sizes), 1)
                rows[-1]["servers"] = len(pids)
                if not args.json:
                    r = rows[-1]
                    print(f"K={r['tables']:<4} {r['actions']:>6} actions in {r['seconds']:>6.2f} s: "
                          f"{r['actions_per_s']:>7.1f} actions/s, p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms, "
                          f"server {r['server_rss_mb']} MB; CPU an action: server {r['server_cpu_us']} us, "
                          f"client {r['client_cpu_us']} us", flush=True)
                    if "probe" in r:
                        print_probe(r["probe"])
                    if "record_ms" in r:
                        print(f"  the archived table's record, ms an answer: {r['record_ms']}")
        finally:
            for server in servers:
                server.kill()
                server.wait(10)
    if args.probe:
        args.probe.write_text(json.dumps(rows, indent=1))
    if args.json:
        print(json.dumps([{k: v for k, v in r.items() if k != "probe"} for r in rows], indent=2))


def print_probe(probe: dict) -> None:
    """Each loop's turns: how many, the share of the time busy, the histogram, the longest pieces."""
    for name, report in [*((f"server {i}", r) for i, r in enumerate(probe["servers"])), ("client", probe["client"])]:
        if report is None:
            print(f"  {name}: no probe report")
            continue
        stalls = report["stalls"]
        print(f"  {name}: {report['turns']} turns, busy {report['busy_share']:.0%}; turns by length (ms) "
              f"{report['histogram_ms']}; {len(stalls)} over 5 ms "
              f"(CPU/wall in them {sum(x['cpu_ms'] for x in stalls) / max(1, sum(x['wall_ms'] for x in stalls)):.2f})")
        top = list(report["totals_ms"].items())[:8]
        print("    time by piece (ms): " + ", ".join(f"{p} {ms:g}" for p, ms in top))


if __name__ == "__main__":
    main()
