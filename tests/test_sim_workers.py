"""How a run's worker processes start (``khrap.sim.pool.process_context``): on Linux, forks of the command's own
process, so that two workers cost what their deals cost and not a fork server, a resource tracker and each
worker's imports besides (issue 29: the analysis's process tree on its default two workers)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
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
