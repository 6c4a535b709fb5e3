"""Cluster graphs on Dask (engine/cluster): what running on tasks costs.

- Per-step overhead: the in-graph ps training step (tests/programs/ps_in_graph.py, 1 ps +
  2 workers) on a local cluster of worker processes, against the same graph in one process
  (soft placement puts it all on this process's CPU).
- A 100 MB float32 tensor crossing tasks (a variable on /job:ps/task:0 summed on
  /job:worker/task:0), against a plain Dask transfer of the same array between the same two
  workers (an identity task on the ps makes a new key each time, so the array moves again,
  then np.sum on the worker). Target: within 1.5x.
"""

import statistics
import sys
import time
from pathlib import Path

import numpy as np

from bench import Skipped

STEPS = 30
TRANSFER_REPEATS = 7
TENSOR_BYTES = 100 * 1000 * 1000
TARGET = 1.5


def _step_seconds(sess, fetches, feeds, steps):
    sess.run(fetches, feeds)  # the first step registers the partitions on the tasks
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        sess.run(fetches, feeds)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def step_overhead(tf, cluster, steps=STEPS):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "programs"))
    import ps_in_graph
    graph = tf.Graph()
    with graph.as_default():
        g = ps_in_graph.build()
        fetches = [[t[2] for t in g["towers"]], g["train"]]
        feeds = ps_in_graph.feeds(g)
        with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
            sess.run(g["init"])
            local_s = _step_seconds(sess, fetches, feeds, steps)
        with tf.Session(cluster.scheduler_address) as sess:
            sess.run(g["init"])
            cluster_s = _step_seconds(sess, fetches, feeds, steps)
    return local_s, cluster_s


def _identity(array):
    return array


def transfer(tf, cluster, client, repeats=TRANSFER_REPEATS):
    """(engine seconds, plain Dask seconds): medians, the two interleaved."""
    workers = {w["name"]: a for a, w in client.scheduler_info(n_workers=-1)["workers"].items()}
    ps, worker = workers["/job:ps/task:0"], workers["/job:worker/task:0"]
    size = TENSOR_BYTES // 4
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:ps/task:0"):
            big = tf.Variable(tf.ones([size]), name="big")
        with tf.device("/job:worker/task:0"):
            total = tf.reduce_sum(big)
        sess = tf.Session(cluster.scheduler_address)
        sess.run(big.initializer)
        sess.run(total)
    on_ps = client.submit(np.ones, size, np.float32, workers=[ps], pure=False)
    client.submit(np.sum, client.submit(_identity, on_ps, workers=[ps], pure=False),
                  workers=[worker], pure=False).result()
    engine, dask = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        sess.run(total)
        engine.append(time.perf_counter() - start)
        start = time.perf_counter()
        moved = client.submit(_identity, on_ps, workers=[ps], pure=False)
        client.submit(np.sum, moved, workers=[worker], pure=False).result()
        dask.append(time.perf_counter() - start)
        del moved
    sess.close()
    return statistics.median(engine), statistics.median(dask)


def run(steps=STEPS, repeats=TRANSFER_REPEATS):
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise Skipped("Dask distributed is not installed "
                      "(pip install 'graph-inspector[cluster]')") from None
    import engine as tf
    from engine.cluster import connection, local
    with local.local_cluster({"ps": 1, "worker": 2}, processes=True,
                             threads_per_task=2) as cluster:
        client = connection.client_for(cluster.scheduler_address)  # closed with the cluster
        local_s, cluster_s = step_overhead(tf, cluster, steps)
        engine_s, dask_s = transfer(tf, cluster, client, repeats)
    ratio = engine_s / dask_s
    return {"step_one_process_ms": round(local_s * 1e3, 2),
            "step_local_cluster_ms": round(cluster_s * 1e3, 2),
            "overhead_per_step_ms": round((cluster_s - local_s) * 1e3, 2),
            "tensor_mb": TENSOR_BYTES // 10**6,
            "engine_transfer_s": round(engine_s, 3), "dask_transfer_s": round(dask_s, 3),
            "target": f"≤ {TARGET}x", "met": ratio <= TARGET, "steps": steps,
            "repeats": repeats,
            "row": "100 MB tensor across tasks (local cluster, worker processes) vs plain Dask",
            "value": f"{ratio:.2f}x", "tensorflow": ""}


if __name__ == "__main__":
    print(run())
