"""What a run's processes cost beside their deals (issue 29: the analysis's process tree on its default two
workers): the workers fork from the command's own process on Linux (``khrap.sim.pool.process_context``), not
from a fork server that starts two processes more and has each worker import again; the command's process draws
its progress bar twice a second while it waits, not ten times."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from khrap.sim.pool import process_context

ROOT = Path(__file__).parents[1]
MUST_BEAT = str(ROOT / "docs" / "house-rules" / "khrap-must-beat.yaml")

# Run in a fresh interpreter: the test runner's own threads (pytest-xdist's) would rightly keep it from forking.
SCRIPT = """
import json, os, sys
import khrap.sim.pool as pool
from khrap.sim.paired import PairedSpec, simulate_paired
from khrap.sim.runner import SimSpec
from khrap.variant.catalog import load_variant

pool.MARK = "worked out here"  # something this process has that a fresh interpreter would not
pspec = PairedSpec.make([SimSpec.make(load_variant(ref), 4, "random", 7, 40, 10) for ref in ("khrap", sys.argv[1])])
me = os.getpid()


def children():
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    text = stat.read()
            except OSError:
                continue
            if int(text[text.rindex(")") + 2:].split()[1]) == me:
                found.add(int(entry))
    return found


ASK = "(__import__('os').getpid(), getattr(__import__('khrap.sim.pool').sim.pool, 'MARK', None))"
with pool.LocalWorkers(2) as workers:
    answers = [workers._pool.submit(eval, ASK).result() for _ in range(6)]
    started = sorted(workers._pool._processes)
    kids = sorted(children())
    two = simulate_paired(pspec, pool=workers)
one = simulate_paired(pspec, 1)
print(json.dumps({"workers": started, "children": kids, "answers": answers,
                  "same": [r.stats for r in one.results] == [r.stats for r in two.results]
                  and one.differences(1) == two.differences(1)}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_workers_are_forks_of_the_command_and_nothing_else_starts() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", SCRIPT, MUST_BEAT], capture_output=True, text=True, env=env,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    # the two workers are this process's only children: no fork server, no resource tracker beside them
    assert len(got["workers"]) == 2
    assert got["children"] == got["workers"]
    # each worker is a copy of the process that started it: what it had worked out is there, nothing to redo
    assert {pid for pid, _ in got["answers"]} <= set(got["workers"])
    assert {mark for _, mark in got["answers"]} == {"worked out here"}
    assert got["same"]  # the same numbers as on one worker


def test_a_process_running_other_threads_is_not_forked() -> None:
    """A fork copies only the thread that forks: a lock another thread holds would stay held in the worker."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert process_context().get_start_method() != "fork"
    finally:
        stop.set()
        other.join()


class _Terminal(io.StringIO):
    """A stand-in for a terminal on stderr that counts the progress bar's drawings (each ends in a flush)."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn = 0

    def isatty(self) -> bool:
        return True

    def flush(self) -> None:
        self.drawn += 1


def test_the_progress_bar_is_not_drawn_more_than_twice_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the workers play, the command's own process draws the bar and waits: at rich's default ten drawings
    a second it spent about 17 ms of CPU a second on them."""
    from khrap.sim.cli import _progress

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with _progress([("khrap + H", 2000)]) as (advance,):
        advance(100)
        drawn = terminal.drawn
        time.sleep(2.0)
        drawn = terminal.drawn - drawn
    assert 1 <= drawn <= 5  # about 4 in two seconds (2 a second); 20 at rich's default
