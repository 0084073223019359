"""Where an event loop's long turns go: a benchmark-only probe of issue 32's tail (nothing in ``khrap`` uses it).

An asyncio loop runs in turns: it asks the selector what is ready, then runs the callbacks that were ready.
The table's sockets write what a turn made at the start of the next turn (``khrap.web.wire``), so a message
read in a turn waits for the whole turn before its updates leave, and one that arrives meanwhile waits for
it too: a turn's length is what a long pause costs every table.  The probe times every turn (from the
selector's answer to the next question to it: wall clock and the thread's processor time) and, inside it, the
pieces named in ``SERVER`` (exclusive time: a piece's time without the pieces inside it), and keeps

- a histogram of the turns' lengths and the time spent in each piece over all turns;
- every turn longer than ``STALL`` (5 ms): its wall and processor time, its pieces, how many messages it read
  and how many pieces ran (e.g. two deals settled in one turn).

Run the server under it: ``python benchmarks/loop_probe.py OUT -m khrap.cli serve ...`` (``serve.py --probe``
does); ``SIGUSR1`` starts the count afresh (when the measure starts), ``SIGUSR2`` writes it to ``OUT`` as JSON.
The collector's passes are timed through ``gc.callbacks``; with ``KHRAP_PROBE_COLLECTOR=on`` in its environment
the server leaves Python's collector as it comes (automatic, default thresholds, nothing frozen), to see what
``keep_collections_short`` is worth.  ``install_turns`` alone (no pieces) times a
client's loop the same way, in its own process.
"""

from __future__ import annotations

import gc
import importlib.machinery
import importlib.util
import json
import os
import runpy
import selectors
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

STALL = 0.005
EDGES_MS = (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500)
"""The histogram's upper bounds, in ms (the last bucket is everything longer)."""


class Probe:
    """The turns' lengths and, within them, each piece's exclusive time (a stack of the pieces running)."""

    def __init__(self) -> None:
        self.reset()
        self.stack: list[list] = []  # [piece, started, time of the pieces inside it, the same in CPU time]
        self.pending: list[Callable[[], Any]] = []  # asked for by a signal inside a piece: done when it ends
        self.turn_started: tuple[float, float] | None = None  # (wall, thread CPU) when the selector answered

    def reset(self) -> None:
        self.histogram = [0] * (len(EDGES_MS) + 1)
        self.totals: dict[str, float] = {}  # piece -> seconds over all turns
        self.cpu_totals: dict[str, float] = {}  # piece -> the thread's processor seconds over all turns
        self.turn_pieces: dict[str, float] = {}
        self.turn_counts: dict[str, int] = {}
        self.stalls: list[dict] = []
        self.counts: dict[str, int] = {}  # piece -> times it ran
        self.longest: dict[str, tuple[float, float]] = {}  # piece -> its longest run: (wall, own processor time)
        self.turns = 0
        self.busy = 0.0  # seconds in turns
        self.since = time.perf_counter()

    # ------------------------------------------------------------ pieces
    def enter(self, piece: str) -> None:
        self.stack.append([piece, time.perf_counter(), 0.0, time.thread_time(), 0.0])

    def leave(self, rename: str | None = None) -> None:
        piece, started, inner, cpu_started, cpu_inner = self.stack.pop()
        spent, cpu = time.perf_counter() - started, time.thread_time() - cpu_started
        if rename is not None:
            piece = rename
        own = spent - inner
        self.cpu_totals[piece] = self.cpu_totals.get(piece, 0.0) + cpu - cpu_inner
        self.turn_pieces[piece] = self.turn_pieces.get(piece, 0.0) + own
        self.turn_counts[piece] = self.turn_counts.get(piece, 0) + 1
        self.counts[piece] = self.counts.get(piece, 0) + 1
        if spent > self.longest.get(piece, (0.0, 0.0))[0]:
            self.longest[piece] = (spent, cpu - cpu_inner)
        if self.stack:
            self.stack[-1][2] += spent
            self.stack[-1][4] += cpu
        elif self.pending:
            done, self.pending = self.pending, []
            for job in done:
                job()

    def between_pieces(self, job: Callable[[], Any]) -> None:
        """Do ``job`` now if no piece is running, else as soon as the outermost one ends: a signal (a reset, a
        report) comes between any two bytecodes, and a report made between an action's apply and its write
        would count the one and not the other."""
        if self.stack:
            self.pending.append(job)
        else:
            job()

    def wrap(self, owner: Any, name: str, piece: str, rename: Callable[..., str | None] | None = None) -> None:
        """Time ``owner.name`` as ``piece`` (or as what ``rename(result, *args)`` says after it returns)."""
        inner = getattr(owner, name)
        probe = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            probe.enter(piece)
            result = None
            try:
                result = inner(*args, **kwargs)
                return result
            finally:
                probe.leave(rename(result, *args) if rename is not None else None)

        timed.__name__ = getattr(inner, "__name__", name)
        setattr(owner, name, timed)

    def on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.enter(f"gc gen {info.get('generation')}")
        elif self.stack and self.stack[-1][0].startswith("gc gen"):
            self.leave()

    # ------------------------------------------------------------ turns
    def selected(self) -> None:
        self.turn_started = (time.perf_counter(), time.thread_time())
        self.turn_pieces, self.turn_counts = {}, {}

    def selecting(self) -> None:
        if self.turn_started is None:
            return
        wall0, cpu0 = self.turn_started
        self.turn_started = None
        wall, cpu = time.perf_counter() - wall0, time.thread_time() - cpu0
        self.turns += 1
        self.busy += wall
        ms = wall * 1000
        self.histogram[next((i for i, edge in enumerate(EDGES_MS) if ms <= edge), len(EDGES_MS))] += 1
        named = sum(self.turn_pieces.values())
        for piece, spent in self.turn_pieces.items():
            self.totals[piece] = self.totals.get(piece, 0.0) + spent
        self.totals["(the rest: loop, protocol)"] = self.totals.get("(the rest: loop, protocol)", 0.0) + wall - named
        if wall > STALL:
            self.stalls.append({
                "wall_ms": round(ms, 2), "cpu_ms": round(cpu * 1000, 2),
                "pieces_ms": {p: round(s * 1000, 2) for p, s in sorted(self.turn_pieces.items(), key=lambda x: -x[1])},
                "counts": dict(self.turn_counts)})

    def report(self) -> dict:
        elapsed = time.perf_counter() - self.since
        return {"seconds": round(elapsed, 2), "turns": self.turns, "busy_share": round(self.busy / elapsed, 3),
                "histogram_ms": {f"<={e}" if i < len(EDGES_MS) else f">{EDGES_MS[-1]}": n
                                 for i, (e, n) in enumerate(zip((*EDGES_MS, EDGES_MS[-1]), self.histogram,
                                                                strict=True))},
                "totals_ms": {p: round(s * 1000, 1) for p, s in sorted(self.totals.items(), key=lambda x: -x[1])},
                "cpu_totals_ms": {p: round(s * 1000, 1) for p, s in
                                  sorted(self.cpu_totals.items(), key=lambda x: -x[1])},
                "counts": dict(self.counts),
                "longest_ms": {p: (round(w * 1000, 2), round(c * 1000, 2)) for p, (w, c) in self.longest.items()},
                "stalls": self.stalls}


def install_turns(probe: Probe) -> None:
    """Time every turn of every selector event loop of this process (asyncio's loop asks its selector once a
    turn; the pause between the selector's answer and the next question is the turn's work)."""
    cls = selectors.DefaultSelector
    inner = cls.select

    def select(self: Any, timeout: float | None = None) -> Any:
        probe.selecting()
        try:
            return inner(self, timeout)
        finally:
            probe.selected()

    cls.select = select


def _act_path_as_python(acting: Any) -> Any:
    """The act path (``khrap.web.acting``) as Python: compiled, it calls ``Table.apply`` and its broadcast natively,
    past the wraps, so under the probe it runs from its source (beside the extension module in the wheel), which
    calls them through their attributes; a probed compiled server is that much slower (docs/serve.md)."""
    if not str(acting.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
        return acting
    source = Path(acting.__file__).with_name("acting.py")
    spec = importlib.util.spec_from_file_location("khrap.web.acting_probed", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def install_server(probe: Probe) -> None:
    """The server's pieces (imported here, before the server starts; nothing of them changes but the timing)."""
    from khrap.web import app, host, store, table, wire

    def apply_kind(result: Any, tab: Any, *args: Any) -> str:
        return "apply" if tab.in_deal else "apply (deal over: settlement)"

    def broadcast_kind(result: Any, hst: Any, tab: Any, *args: Any) -> str:
        return "broadcast" if tab.in_deal else "broadcast (between deals)"

    probe.wrap(host.Host, "receive", "receive (decode, dispatch)")
    acting = host.acting = _act_path_as_python(host.acting)
    probe.wrap(acting, "broadcast", "broadcast", broadcast_kind)  # (every broadcast: the host's door and an action's)
    probe.wrap(host.Host, "unload", "unload (archive)")
    probe.wrap(host.Host, "expire", "expire")
    probe.wrap(host.Host, "send_view", "send_view")
    probe.wrap(table.Table, "apply", "apply", apply_kind)
    probe.wrap(table.Table, "start_deal", "start_deal (dealing)")
    probe.wrap(table.Table, "bot_action", "bot_action")
    probe.wrap(store.Store, "acted", "sqlite: action")
    probe.wrap(store.Store, "started", "sqlite: deal started")
    probe.wrap(store.Store, "commit", "sqlite: the turn's commit")  # (the actions and deals begun of a turn)
    probe.wrap(store.Store, "add", "sqlite: table added")
    probe.wrap(store.Store, "load", "sqlite: table loaded")
    probe.wrap(wire.Wire, "flush", "write (flush)")
    probe.wrap(wire.Wire, "data_received", "read (frames)")
    probe.wrap(app.Buckets, "allow", "rate buckets")
    probe.wrap(gc, "freeze", "gc.freeze")
    probe.wrap(app, "_memory", "memory read (/proc)")
    gc.callbacks.append(probe.on_gc)
    if os.environ.get("KHRAP_PROBE_COLLECTOR") == "on":
        app.FREEZE_SECONDS = 0  # (``serve`` then starts no ``keep_collections_short``)


def main() -> None:
    out, argv = sys.argv[1], sys.argv[2:]
    if len(argv) < 2 or argv[0] != "-m":
        raise SystemExit("usage: loop_probe.py OUT -m MODULE ARGS...")
    probe = Probe()
    install_turns(probe)
    install_server(probe)

    def dump(*_: Any) -> None:
        with open(out, "w") as f:
            json.dump(probe.report(), f)

    signal.signal(signal.SIGUSR1, lambda *_: probe.between_pieces(probe.reset))
    signal.signal(signal.SIGUSR2, lambda *_: probe.between_pieces(dump))
    sys.argv = [argv[1], *argv[2:]]
    runpy.run_module(argv[1], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
