"""The Dask backend, against a LocalCluster started here: the same numbers as one local worker."""

from __future__ import annotations

import pytest

from khrap.sim import SimSpec, simulate
from khrap.variant.catalog import load_variant

distributed = pytest.importorskip(
    "distributed", reason="the Dask backend is the `dask` extra: pip install 'khrap[dask]'")


def test_dask_cluster_gives_the_numbers_of_one_worker() -> None:
    from khrap.sim.cluster import simulate_on_dask

    spec = SimSpec.make(load_variant("khrap"), 4, "random", seed=9, deals=60, chunk=15)
    many = SimSpec.make(load_variant("khrap"), 4, "random", seed=9, deals=200, chunk=5)  # 40 chunks
    local, local_many = simulate(spec, workers=1, keep_records=True), simulate(many, workers=1)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        done = []
        remote = simulate_on_dask(spec, client, keep_records=True, progress=done.append)
        done_many = []
        with distributed.get_task_stream(client) as stream:
            remote_many = simulate_on_dask(many, client, progress=done_many.append)
    assert remote.workers == 2
    assert sum(done) == 60 and len(done) == 4  # 4 chunks on 2 workers: a task each
    assert remote.records == local.records
    assert remote.stats == local.stats
    # 40 chunks on 2 workers: 2 chunks a task (40 // (2 * 8)), 20 tasks; progress still counts each chunk
    assert len(stream.data) == 20
    assert sum(done_many) == 200 and len(done_many) == 40
    assert remote_many.stats == local_many.stats
