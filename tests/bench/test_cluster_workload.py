"""bench/cluster.py: runs on a small local cluster, and says why where Dask is missing."""

import builtins

import pytest

import bench
from bench import cluster as cluster_bench


def test_skipped_with_the_reason_without_dask(monkeypatch):
    real_import = builtins.__import__

    def without_distributed(name, *args, **kwargs):
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError("No module named 'distributed'")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", without_distributed)
    with pytest.raises(bench.Skipped, match="Dask distributed is not installed"):
        cluster_bench.run()


@pytest.mark.slow
def test_both_measurements_on_a_small_cluster(monkeypatch):
    pytest.importorskip("distributed")
    import engine as tf
    from engine.cluster import connection, local
    monkeypatch.setattr(cluster_bench, "TENSOR_BYTES", 4 * 1000 * 1000)
    assert "bench.cluster" in bench.WORKLOADS
    with local.local_cluster({"ps": 1, "worker": 2}) as cluster:
        local_s, cluster_s = cluster_bench.step_overhead(tf, cluster, steps=2)
        engine_s, dask_s = cluster_bench.transfer(
            tf, cluster, connection.client_for(cluster.scheduler_address), repeats=1)
    assert 0 < local_s < cluster_s
    assert engine_s > 0 and dask_s > 0
