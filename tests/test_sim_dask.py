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
    local = simulate(spec, workers=1, keep_records=True)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        done = []
        remote = simulate_on_dask(spec, client, keep_records=True, progress=done.append)
    assert remote.workers == 2
    assert sum(done) == 60 and len(done) == 4
    assert remote.records == local.records
    assert remote.stats == local.stats
