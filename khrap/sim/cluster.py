"""Running a spec's chunks on a Dask distributed cluster (the optional `dask` extra).

A task plays a few consecutive chunks (``play_chunks``): about eight tasks per
worker thread the cluster has when the run starts, as on one machine, since a
chunk of random deals is a few milliseconds of work, less than a task's round
trip.  A run of fewer than eight chunks per thread still goes one chunk per
task.  The spec carries the resolved variant, so a worker needs khrap
installed but none of the variant files.  Results are merged in chunk order, as on one machine, so a cluster
gives the same numbers as ``--workers 1``.

    from distributed import Client
    result = simulate_on_dask(spec, Client("tcp://scheduler:8786"))
"""

from __future__ import annotations

import time
from typing import Any

from khrap.sim.pool import batch_size, play_chunks
from khrap.sim.runner import ChunkResult, Progress, SimResult, SimSpec, merge

CONNECT_SECONDS = 10
"""How long a connection to a --scheduler address may take before the command gives up."""
MISSING = "the Dask backend needs the `dask` extra: pip install 'khrap[dask]'"


def connect(target: Any, workers: int | None = None) -> tuple[Any, Any]:
    """(client, cluster we started or None) for an address, "local", or a ready Client."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - depends on the environment
        raise RuntimeError(MISSING) from None
    if isinstance(target, Client):
        return target, None
    if target == "local":
        from khrap.sim.pool import default_workers

        cluster = LocalCluster(n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                               dashboard_address=None)
        return Client(cluster), cluster
    if not isinstance(target, str) or "://" not in target and ":" not in target:
        raise RuntimeError(f"--scheduler {target!r:.60}: give a Dask scheduler address (tcp://host:8786) or `local`")
    try:  # a closed port or a server that is not Dask: one message after a bounded wait, not a hang
        return Client(target, timeout=CONNECT_SECONDS), None
    except Exception as err:  # noqa: BLE001  (distributed raises OSError, TimeoutError, ValueError, TypeError...)
        reason = " ".join(str(err).split())[:200] or type(err).__name__
        raise RuntimeError(f"--scheduler {target!r:.60}: no Dask scheduler answered within "
                           f"{CONNECT_SECONDS} s ({reason})") from None


def run_chunks_on_dask(
    spec: SimSpec, client: Any, keep_records: bool = False, progress: Progress | None = None
) -> tuple[list[ChunkResult], int]:
    """Every chunk's result (any order) and the number of Dask workers."""
    from distributed import as_completed

    client.wait_for_workers(1)  # a task needs a worker anyway; then count every one that is there
    threads = client.nthreads()  # worker -> threads: every worker, whatever the scheduler lists by default
    indexes = [index for index, _ in spec.chunks()]
    size = batch_size(len(indexes), sum(threads.values()))
    futures = [client.submit(play_chunks, spec, indexes[i:i + size], keep_records, pure=False)
               for i in range(0, len(indexes), size)]
    results: list[ChunkResult] = []
    for future in as_completed(futures):
        for result in future.result():
            results.append(result)
            if progress:
                progress(result.deals)
    return results, min(len(threads), len(futures))


def simulate_on_dask(
    spec: SimSpec, target: Any = "local", *, workers: int | None = None, keep_records: bool = False,
    progress: Progress | None = None,
) -> SimResult:
    """Play ``spec`` on a Dask cluster: a scheduler address (``tcp://host:8786``), a ``Client``,
    or ``"local"`` for a LocalCluster of ``workers`` processes on this machine (started and stopped here)."""
    client, cluster = connect(target, workers)
    try:
        started = time.perf_counter()
        results, used = run_chunks_on_dask(spec, client, keep_records, progress)
        return merge(spec, results, time.perf_counter() - started, used)
    finally:
        if cluster is not None:
            client.close()
            cluster.close()


__all__ = ["MISSING", "connect", "run_chunks_on_dask", "simulate_on_dask"]
