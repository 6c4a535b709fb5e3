"""Cluster graphs run on Dask: the ps programs of tests/programs on a LocalCluster whose
workers are the tasks (1 ps, 2 workers), against what the same programs computed on a local
TensorFlow 2.21 cluster of tf.train.Servers (tests/fixtures/cluster/answers.json and
in_graph_partition_*.pbtxt, written by tools/make_cluster_fixtures.py)."""

import json
import re
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

import engine as tf
from engine.framework import errors
from engine.proto import graph_pb2

pytest.importorskip("distributed")

from engine.cluster import connection, local  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "cluster"
ANSWERS = json.loads((FIXTURES / "answers.json").read_text())
sys.path.insert(0, str(REPO / "tests" / "programs"))

import ps_between_graph  # noqa: E402
import ps_in_graph  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    """One in-process cluster (threads) for the module: Dask workers are slow to start."""
    with local.local_cluster({"ps": 1, "worker": 2}) as spec_cluster:
        yield spec_cluster


def as_lists(steps):
    return json.loads(json.dumps(steps))


def test_in_graph_replication_computes_tensorflows_values(cluster):
    graph = tf.Graph()
    with graph.as_default():
        g = ps_in_graph.build()
        with tf.Session(cluster.scheduler_address) as sess:
            ours = ps_in_graph.steps(sess, g)
    theirs = ANSWERS["in_graph"]["steps"]
    assert len(ours) == len(theirs) == ps_in_graph.STEPS
    for (losses, w, b), (their_losses, their_w, their_b) in zip(as_lists(ours), theirs):
        np.testing.assert_allclose(losses, their_losses, rtol=1e-6)
        np.testing.assert_allclose(w, their_w, rtol=1e-6)
        np.testing.assert_allclose(b, their_b, rtol=1e-6)


def test_between_graph_replication_through_grpc_targets(cluster):
    """Each worker its own graph and session (target grpc://<its address>), variables on
    the ps shared by both, updates asynchronous: TensorFlow's losses, steps and values."""
    spec = local.cluster_spec(connection.client_for(cluster.scheduler_address))
    graphs = [ps_between_graph.build(spec, i) for i in range(2)]
    sessions = [tf.Session("grpc://" + spec.task_address("worker", i), graph=g["graph"])
                for i, g in enumerate(graphs)]
    try:
        assert [s._connection.master for s in sessions] == \
            ["/job:worker/task:0", "/job:worker/task:1"]
        ours = as_lists(ps_between_graph.steps(sessions, graphs))
    finally:
        for sess in sessions:
            sess.close()
    theirs = ANSWERS["between_graph"]["steps"]
    assert len(ours) == len(theirs) == 2 * ps_between_graph.STEPS
    for row, their_row in zip(ours, theirs):
        assert row[0] == their_row[0] and row[2] == their_row[2]  # worker, global step
        np.testing.assert_allclose(row[1], their_row[1], rtol=1e-6)
        np.testing.assert_allclose(row[3], their_row[3], rtol=1e-6)
        np.testing.assert_allclose(row[4], their_row[4], rtol=1e-6)


def cross_task_transfers(partition_graphs, graph_nodes):
    """{(what is sent, send task device, recv task device)}: a graph node by name, or
    `feed:<tensor>` for a fed value that the client's task passes on."""
    out = set()
    for partition in partition_graphs:
        for node in partition.node:
            if node.op != "_Send":
                continue
            source = node.input[0].split(":")[0]
            if source.startswith("_arg_"):  # the engine's _arg_<tensor>_<output>_<index>
                source = "feed:" + source[len("_arg_"):].rsplit("_", 2)[0]
            elif source.startswith("_recv_"):  # TensorFlow's master: _recv_<tensor>_<output>
                source = "feed:" + source[len("_recv_"):].rsplit("_", 1)[0]
            out.add((source, node.attr["send_device"].s.decode(),
                     node.attr["recv_device"].s.decode()))
    return out


def test_in_graph_partitions_cross_tasks_as_tensorflows(cluster):
    """Partition graphs per task, and the tensors that cross tasks (_Send/_Recv with
    TensorFlow's task device names) are TensorFlow's."""
    graph = tf.Graph()
    with graph.as_default():
        g = ps_in_graph.build()
        with tf.Session(cluster.scheduler_address) as sess:
            sess.run(g["init"])
            metadata = tf.RunMetadata()
            sess.run(g["train"], ps_in_graph.feeds(g),
                     options=tf.RunOptions(output_partition_graphs=True),
                     run_metadata=metadata)
    theirs = [text_format.Parse(p.read_text(), graph_pb2.GraphDef())
              for p in sorted(FIXTURES.glob("in_graph_partition_*.pbtxt"))]
    names = {op.name for op in graph.get_operations()}
    devices = {p.node[0].device for p in metadata.partition_graphs}
    assert devices == {p.node[0].device for p in theirs}
    assert len(devices) == 3
    ours_sent = cross_task_transfers(metadata.partition_graphs, names)
    theirs_sent = cross_task_transfers(theirs, names)
    assert len(theirs_sent) == 10
    assert ours_sent == theirs_sent
    for partition in metadata.partition_graphs:
        for node in partition.node:
            assert node.device == partition.node[0].device


# What TensorFlow's Grappler changed in its partitions, which the engine's session does not:
# truediv by a constant became Mul by a folded reciprocal, and of two equal constants one was
# kept (its name an input of the other's consumers); commutative inputs were sorted.
GRAPPLER_KEPT = {f"tower_{i}/gradients/tower_{i}/add_grad/Sum/reduction_indices":
                 f"tower_{i}/gradients/tower_{i}/loss_grad/Const" for i in range(2)}
# The two averages divide by 2.0: each becomes a multiply by a reciprocal constant, and CSE
# keeps one of the two equal constants: TensorFlow truediv_1's (its passes left that node
# first), the engine truediv's (the order of nodes is not reproduced).
GRAPPLER_KEPT["ConstantFolding/truediv_recip"] = "ConstantFolding/truediv_1_recip"


def without_edge_number(name):
    """`w/read_S28` -> `w/read` (a master numbers its _Send/_Recv by every graph it cut)."""
    return re.sub(r"_S\d+$", "", name)


def partition_table(partition):
    """(name, op) -> (device, sorted inputs, transfer attrs) of a partition graph."""
    out = {}
    for node in partition.node:
        name = GRAPPLER_KEPT.get(node.name, without_edge_number(node.name))
        inputs = sorted(GRAPPLER_KEPT.get(n, without_edge_number(n))
                        for n in (i.split(":")[0] for i in node.input))
        attrs = {key: node.attr[key].SerializeToString() for key in
                 ("send_device", "recv_device", "client_terminated", "T", "tensor_type")
                 if key in node.attr}
        if "tensor_name" in node.attr:
            attrs["tensor_name"] = re.sub(r"^edge_\d+_", "edge_",
                                          node.attr["tensor_name"].s.decode())
        out[name, node.op] = (node.device, inputs, attrs)
    return out


def traced_train_step(cluster):
    graph = tf.Graph()
    with graph.as_default():
        g = ps_in_graph.build()
        with tf.Session(cluster.scheduler_address) as sess:
            sess.run(g["init"])
            metadata = tf.RunMetadata()
            before = time.time_ns() // 1000
            sess.run(g["train"], ps_in_graph.feeds(g),
                     options=tf.RunOptions(output_partition_graphs=True,
                                           trace_level=tf.RunOptions.FULL_TRACE),
                     run_metadata=metadata)
            after = time.time_ns() // 1000
    return metadata, before, after


def test_in_graph_partition_graphs_are_tensorflows(cluster, optimizer_on):
    """Node by node: names (client feeds as a master's client-terminated `_recv_<tensor>_0`,
    _Send/_Recv `<tensor>_S<n>`), ops, devices, inputs, and the _Send/_Recv attrs that name
    the tasks, against TensorFlow's partition graphs."""
    metadata, _, _ = traced_train_step(cluster)
    theirs = [text_format.Parse(p.read_text(), graph_pb2.GraphDef())
              for p in sorted(FIXTURES.glob("in_graph_partition_*.pbtxt"))]
    ours = sorted(metadata.partition_graphs, key=lambda p: p.node[0].device)
    assert [p.node[0].device for p in ours] == [p.node[0].device for p in theirs]
    for our_partition, their_partition in zip(ours, theirs):
        our_table, their_table = partition_table(our_partition), partition_table(their_partition)
        assert sorted(our_table) == sorted(their_table)
        for key in their_table:
            assert our_table[key] == their_table[key], key
    transfers = sum(n.op in ("_Send", "_Recv") for p in ours for n in p.node)
    assert transfers == 24  # 10 tensors cross tasks, 2 feeds come from the client


def test_full_trace_reports_every_task_as_tensorflow(cluster, optimizer_on):
    """Step stats per task device with TensorFlow's nodes (a RecvTensor for each tensor
    that came from another task, labelled as TensorFlow's), on the client's clock."""
    metadata, before, after = traced_train_step(cluster)
    theirs = ANSWERS["in_graph"]["trace"]
    ours = {}
    for dev_stats in metadata.step_stats.dev_stats:
        ours.setdefault(dev_stats.device, []).extend(
            GRAPPLER_KEPT.get(n.node_name, n.node_name) for n in dev_stats.node_stats)
        for stats in dev_stats.node_stats:
            assert before <= stats.all_start_micros <= after
    assert sorted(ours) == sorted(theirs)
    for device, names in theirs.items():
        expected = sorted(GRAPPLER_KEPT.get(n, n) for n in names)
        assert sorted(ours[device]) == expected, device

    def transfer(label):  # "[8B] [0.1Mb/s] edge_5_w/read from A to B" without rate and id
        size, _, rest = label.split(" ", 2)
        return size, re.sub(r"^edge_\d+_", "edge_", rest)
    for device, labels in ANSWERS["in_graph"]["trace_transfers"].items():
        our_labels = [n.timeline_label for d in metadata.step_stats.dev_stats
                      if d.device == device for n in d.node_stats if n.node_name == "RecvTensor"]
        assert sorted(map(transfer, our_labels)) == sorted(map(transfer, labels)), device


def test_error_names_the_task(cluster):
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:worker/task:1"):
            x = tf.placeholder(tf.float32, [None], name="x")
            bad = tf.reshape(x, [2, 2], name="bad_reshape")
        with tf.Session(cluster.scheduler_address) as sess:
            with pytest.raises(errors.InvalidArgumentError) as caught:
                sess.run(bad, {x: [1.0, 2.0, 3.0]})
            assert "/job:worker/task:1" in str(caught.value)
            assert "bad_reshape" in str(caught.value)
            # The session stays usable after a failed step.
            np.testing.assert_array_equal(sess.run(bad, {x: [1.0, 2.0, 3.0, 4.0]}),
                                          [[1.0, 2.0], [3.0, 4.0]])


def test_a_missing_task_is_unavailable(cluster):
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:worker/task:7"):
            y = tf.constant(1.0) + 1.0
        with tf.Session(cluster.scheduler_address,
                        config=tf.ConfigProto(allow_soft_placement=False)) as sess:
            with pytest.raises(errors.InvalidArgumentError, match="task:7"):
                sess.run(y)


def test_steps_ask_the_scheduler_nothing(cluster, monkeypatch):
    """The tasks' workers are asked of the scheduler when the session starts, not per step:
    the client's copy of the scheduler's state may be stale (it had no workers once in 409
    calls under load), and a step needs nothing that changes between steps."""
    graph = tf.Graph()
    with graph.as_default():
        g = ps_in_graph.build()
        with tf.Session(cluster.scheduler_address) as sess:
            sess.run(g["init"])
            asked = []
            original = connection.Connection._scheduler_workers
            monkeypatch.setattr(connection.Connection, "_scheduler_workers",
                                lambda self: asked.append(1) or original(self))
            monkeypatch.setattr(type(sess._connection.client), "scheduler_info",
                                lambda *a, **k: asked.append("info") or {"workers": {}})
            for _ in range(50):
                sess.run(g["train"], ps_in_graph.feeds(g))
    assert asked == []


def test_in_graph_replication_across_processes():
    """The one test with worker processes: tensors cross process boundaries, and a task
    whose process dies gives UnavailableError naming it."""
    with local.local_cluster({"ps": 1, "worker": 1}, processes=True,
                             threads_per_task=1) as procs:
        graph = tf.Graph()
        with graph.as_default():
            g = ps_in_graph.build(workers=1)
            with tf.Session(procs.scheduler_address) as sess:
                sess.run(g["init"])
                feeds = {g["towers"][0][0]: ps_in_graph.X[0], g["towers"][0][1]: ps_in_graph.Y[0]}
                loss, _ = sess.run([g["towers"][0][2], g["train"]], feeds)
                np.testing.assert_allclose(loss, 0.66, rtol=1e-6)  # step one of tower 0
                w = sess.run(g["w"])
                client = connection.client_for(procs.scheduler_address)
                ps_address = next(a for a, w in client.scheduler_info()["workers"].items()
                                  if w["name"] == "/job:ps/task:0")
                client.run(_exit_process, workers=[ps_address], on_error="ignore")
                with pytest.raises(errors.UnavailableError, match="/job:ps/task:0"):
                    sess.run([g["towers"][0][2], g["train"]], feeds)
        assert w.shape == (2, 1)


def _exit_process():
    import os
    os._exit(1)


def test_a_task_that_dies_mid_run_is_unavailable_until_it_is_back():
    """The ps's process dies while a step waits on it: UnavailableError naming the task (as
    TensorFlow's); its Nanny starts a new worker for the task, and the same session runs
    again once that worker is there (its variables initialized anew, as a restarted ps's)."""
    with local.local_cluster({"ps": 1, "worker": 1}, processes=True,
                             threads_per_task=1) as procs:
        client = connection.client_for(procs.scheduler_address)
        graph = tf.Graph()
        with graph.as_default():
            with tf.device("/job:ps/task:0"):
                v = tf.Variable(1.0, name="v")
                queue = tf.FIFOQueue(1, tf.float32, name="never_filled")
                waiting = queue.dequeue() + v
            with tf.device("/job:worker/task:0"):
                out = waiting * 2.0
                doubled = v * 2.0
            with tf.Session(procs.scheduler_address) as sess:
                sess.run(v.initializer)
                ps_before = ps_address(client)
                killer = threading.Timer(0.5, client.run, (_exit_process,),
                                         {"workers": [ps_before], "on_error": "ignore"})
                killer.start()
                started = time.monotonic()
                with pytest.raises(errors.UnavailableError, match="/job:ps/task:0"):
                    sess.run(out)
                killer.join()
                assert time.monotonic() - started < 20
                deadline = time.monotonic() + 30
                while ps_address(client) in (None, ps_before):
                    assert time.monotonic() < deadline, "the Nanny did not restart the ps"
                    time.sleep(0.1)
                sess.run(v.initializer)
                assert sess.run(doubled) == 2.0


def ps_address(client):
    return next((a for a, w in client.scheduler_info(n_workers=-1)["workers"].items()
                 if w["name"] == "/job:ps/task:0"), None)


def test_tensors_of_every_kind_cross_tasks_as_they_are(cluster):
    """What crosses tasks is packed into one message (engine/cluster/wire.py): small numeric
    arrays inline, one-byte dtypes among them; strings, and arrays too large to copy, as
    Dask's frames. Each comes back as it left, through a worker task and to the client."""
    values = {
        "bool": np.array([True, False, True]),
        "int8": np.array([[1, -2]], np.int8),
        "uint8": np.array(7, np.uint8),
        "float16": np.array([0.5, -1.25], np.float16),
        "complex64": np.array([1 + 2j], np.complex64),
        "int64": np.array([], np.int64).reshape(0, 2),
        "string": np.array([b"a", b"bc"], object),
        "large": np.arange(512 * 512, dtype=np.float32).reshape(512, 512),  # 1 MiB
    }
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:ps/task:0"):
            fed = {name: tf.placeholder(tf.as_dtype(value.dtype) if name != "string"
                                        else tf.string, value.shape)
                   for name, value in values.items()}
            on_ps = {name: tf.identity(t) for name, t in fed.items()}
        with tf.device("/job:worker/task:1"):
            on_worker = {name: tf.identity(t) for name, t in on_ps.items()}
        with tf.Session(cluster.scheduler_address) as sess:
            got = sess.run(on_worker, {fed[name]: v for name, v in values.items()})
    for name, value in values.items():
        assert got[name].dtype == value.dtype, name
        np.testing.assert_array_equal(got[name], value, err_msg=name)
