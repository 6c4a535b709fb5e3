"""tf.train.Server on Dask: a between-graph program as TensorFlow users run it (a ps process
that server.join()s, workers with their own Servers and MonitoredTrainingSession(master=
server.target)), against what the same program computed on TensorFlow 2.21's servers
(tests/fixtures/cluster/answers.json, written by tools/make_cluster_fixtures.py)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.framework import errors

pytest.importorskip("distributed")

import dask  # noqa: E402

from engine.cluster import connection, local, task_worker  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ANSWERS = json.loads((REPO / "tests" / "fixtures" / "cluster" / "answers.json").read_text())
sys.path.insert(0, str(REPO / "tests" / "programs"))

import ps_between_graph  # noqa: E402

pytestmark = pytest.mark.slow

PS_PROCESS = textwrap.dedent("""
    import sys
    import engine as tf
    cluster = tf.train.ClusterSpec({"ps": [sys.argv[1]], "worker": sys.argv[2:]})
    server = tf.train.Server(cluster, job_name="ps", task_index=0)
    print("serving", flush=True)
    server.join()
""")


@pytest.fixture
def scheduler():
    """A Dask scheduler without workers, named in Dask's configuration as a user's
    DASK_SCHEDULER_ADDRESS names it: the Servers bring the workers."""
    with local.local_cluster({}) as cluster, \
            dask.config.set({"scheduler-address": cluster.scheduler_address}):
        yield cluster.scheduler_address


def test_between_graph_program_with_a_ps_process_and_monitored_sessions(scheduler):
    spec = {"ps": [f"localhost:{task_worker.free_port()}"],
            "worker": [f"localhost:{task_worker.free_port()}" for _ in range(2)]}
    ps = subprocess.Popen([sys.executable, "-c", PS_PROCESS, *spec["ps"], *spec["worker"]],
                          env={**os.environ, "PYTHONPATH": str(REPO),
                               "DASK_SCHEDULER_ADDRESS": scheduler},
                          stdout=subprocess.PIPE, text=True)
    servers, sessions = [], []
    try:
        assert ps.stdout.readline().strip() == "serving"
        cluster = tf.train.ClusterSpec(spec)
        servers = [tf.train.Server(cluster, job_name="worker", task_index=i) for i in range(2)]
        assert servers[1].target == "grpc://" + spec["worker"][1]
        graphs = [ps_between_graph.build(cluster, i) for i in range(2)]
        for i, (server, g) in enumerate(zip(servers, graphs)):
            with g["graph"].as_default():  # the chief first: it initializes the ps variables
                sessions.append(tf.train.MonitoredTrainingSession(master=server.target,
                                                                  is_chief=i == 0))
        assert [s._sess._connection.master for s in sessions] == \
            ["/job:worker/task:0", "/job:worker/task:1"]
        ours = []
        for _ in range(ps_between_graph.STEPS):
            for i, (sess, g) in enumerate(zip(sessions, graphs)):
                loss, _ = sess.run([g["loss"], g["train"]], {g["x"]: ps_between_graph.X[i],
                                                            g["y"]: ps_between_graph.Y[i]})
                step, w, b = sess.run([g["global_step"], g["w"], g["b"]])
                ours.append((i, float(loss), int(step), w.tolist(), b.tolist()))
        theirs = ANSWERS["between_graph"]["steps"]
        assert len(ours) == len(theirs)
        for row, their_row in zip(ours, theirs):
            assert row[0] == their_row[0] and row[2] == their_row[2]
            np.testing.assert_allclose(row[1], their_row[1], rtol=1e-6)
            np.testing.assert_allclose(row[3], their_row[3], rtol=1e-6)
            np.testing.assert_allclose(row[4], their_row[4], rtol=1e-6)
    finally:
        for sess in sessions:
            sess.close()
        for server in servers:
            server.stop()
        ps.kill()
        ps.wait(timeout=30)


def test_a_non_chief_waits_for_the_chief_and_gives_up_as_tensorflow(scheduler):
    spec = {"worker": [f"localhost:{task_worker.free_port()}"]}
    server = tf.train.Server(tf.train.ClusterSpec(spec), job_name="worker", task_index=0)
    try:
        with tf.Graph().as_default():
            tf.Variable(1.0, name="never_initialized")
            # TensorFlow's words, its "%d" of 0.3 included.
            with pytest.raises(errors.DeadlineExceededError,
                               match=r"^Session was not ready after waiting 0 secs\.$"):
                tf.train.MonitoredTrainingSession(master=server.target, is_chief=False,
                                                  max_wait_secs=0.3)
    finally:
        server.stop()


def test_a_server_joins_the_worker_already_serving_its_task():
    with local.local_cluster({"ps": 1, "worker": 1}) as cluster:
        spec = local.cluster_spec(connection.client_for(cluster.scheduler_address))
        server = tf.train.Server(spec, job_name="ps", task_index=0)
        assert isinstance(server._worker, task_worker.JoinedWorker)
        with tf.Graph().as_default():
            with tf.device("/job:ps/task:0"):
                total = tf.constant(2.0) * 3.0
            with tf.Session(server.target) as sess:
                assert sess.run(total) == 6.0
        server.stop()
        with pytest.raises(errors.UnavailableError, match="is /job:ps/task:0.*not "
                                                          "/job:worker/task:0"):
            swapped = {"worker": [spec.task_address("ps", 0)]}
            tf.train.Server(tf.train.ClusterSpec(swapped), job_name="worker", task_index=0)


def test_a_task_waits_for_the_task_that_runs_the_scheduler_as_tensorflow_waits():
    """No scheduler configured: worker 0 looks for the ps, whose process runs the cluster's
    scheduler; a session on it waits (operation_timeout_in_ms bounds the wait here)."""
    spec = {"ps": [f"localhost:{task_worker.free_port()}"],
            "worker": [f"localhost:{task_worker.free_port()}"]}
    with dask.config.set({"scheduler-address": None}):
        server = tf.train.Server(tf.train.ClusterSpec(spec), job_name="worker", task_index=0)
    try:
        assert task_worker.scheduler_task(tf.train.ClusterSpec(spec)) == "/job:ps/task:0"
        with tf.Graph().as_default():
            with pytest.raises(errors.DeadlineExceededError, match="/job:worker/task:0 is not "
                                                                   "running yet"):
                tf.Session(server.target,
                           config=tf.ConfigProto(operation_timeout_in_ms=300))
    finally:
        server.stop()


def test_create_local_server_runs_a_session():
    with dask.config.set({"scheduler-address": None}):
        server = tf.train.Server.create_local_server()
    try:
        with tf.Graph().as_default():
            x = tf.placeholder(tf.float32, [2])
            with tf.Session(server.target) as sess:
                np.testing.assert_array_equal(sess.run(x * 2.0, {x: [1.0, 2.5]}), [2.0, 5.0])
    finally:
        server.stop()
