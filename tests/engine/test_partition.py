"""Partition graphs as TensorFlow 2.21 cuts them, and runs across devices that compute TF's
values: tests/fixtures/runs/two_cpu.* is a real FULL_TRACE RunMetadata of
tests/fixtures/graphs/two_cpu.pb on two logical CPUs."""

import json
import threading
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.proto import config_pb2, graph_pb2

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"
TRANSFER_ATTRS = ("_dst", "_src", "client_terminated", "recv_device", "send_device",
                  "send_device_incarnation", "tensor_name")


def tf_run_metadata():
    return config_pb2.RunMetadata.FromString((FIXTURES / "runs" / "two_cpu.pb").read_bytes())


def run_two_cpu_fixture():
    """The fixture's GraphDef, imported and run with its manifest's config, feeds, fetches."""
    manifest = json.loads((FIXTURES / "graphs" / "two_cpu.json").read_text())
    graph_def = graph_pb2.GraphDef.FromString((FIXTURES / "graphs" / "two_cpu.pb").read_bytes())
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    feeds = {name: np.load(FIXTURES / "graphs" / spec["npy"])
             for name, spec in manifest["feeds"].items()}
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE, output_partition_graphs=True)
    metadata = tf.RunMetadata()
    with tf.Session(graph=graph, config=tf.ConfigProto(**manifest["config"])) as sess:
        values = sess.run(manifest["fetches"], feeds, options=options, run_metadata=metadata)
    return manifest, values, metadata


def by_device(graphs):
    return {g.node[0].device: g for g in graphs}


def transfers(graph_def):
    return {n.name: (n.op, {k: n.attr[k] for k in TRANSFER_ATTRS})
            for n in graph_def.node if n.op in ("_Send", "_Recv")}


def test_partition_structure_equals_tensorflows():
    _, _, ours = run_two_cpu_fixture()
    theirs = by_device(tf_run_metadata().partition_graphs)
    ours = by_device(ours.partition_graphs)
    assert set(ours) == set(theirs) == {CPU0, CPU1}
    for device, their_graph in theirs.items():
        graph = ours[device]
        # The same nodes, in the same order, on each device.
        assert [(n.name, n.op, n.device) for n in graph.node] == \
            [(n.name, n.op, n.device) for n in their_graph.node]
        # The same _Send/_Recv pairs with TensorFlow's attrs (tensor_name edge ids included).
        assert transfers(graph) == transfers(their_graph)
        for node, their_node in zip(graph.node, their_graph.node):
            # Grappler put Mul's constant first; the inputs are the same set.
            assert sorted(node.input) == sorted(their_node.input), node.name
            if node.op == "_Send":
                assert node.attr["T"] == their_node.attr["T"]
            if node.op == "_Recv":
                assert node.attr["tensor_type"] == their_node.attr["tensor_type"]
            if node.op in ("_Arg", "_Retval"):
                assert node.attr["index"] == their_node.attr["index"]


def test_two_cpu_values_and_step_stats_match_tensorflow():
    manifest, values, metadata = run_two_cpu_fixture()
    expected = np.load(FIXTURES / "graphs" / manifest["values"])
    for name, value in zip(manifest["fetches"], values):
        np.testing.assert_allclose(value, expected[name.replace(":", "__")], rtol=1e-6)
    theirs = {d.device: [(s.node_name, s.timeline_label) for s in d.node_stats]
              for d in tf_run_metadata().step_stats.dev_stats}
    ours = {d.device: [(s.node_name, s.timeline_label) for s in d.node_stats]
            for d in metadata.step_stats.dev_stats}
    assert set(ours) == set(theirs)
    for device in theirs:
        # TF's collector leaves _Send/_Recv out; _SOURCE first on every device.
        assert {n for n, _ in ours[device]} == {n for n, _ in theirs[device]}, device
        assert ours[device][0][0] == "_SOURCE"
    labels = dict(ours[CPU0])
    assert labels["_retval_total_0_1"] == "_retval_total_0_1 = _Retval(total/_5)"
    assert labels["product"] == "product = MatMul(_arg_a_0_0, b)"
    assert len({s.thread_id for d in metadata.step_stats.dev_stats for s in d.node_stats}) == 2


def test_control_edge_across_devices_sends_a_dummy_as_tensorflow():
    """TF 2.21's partition of this graph has these nodes (x's control edge to y becomes
    x/ctrl/_4 -> x/_5 -> x/_6 -> x/_7 -> ^y). Its edge ids differ (see partition.edge_ids)."""
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/cpu:0"):
            a = tf.placeholder(tf.float32, shape=[2], name="a")
            x = tf.sin(a, name="x")
        with tf.device("/cpu:1"):
            with tf.control_dependencies([x]):
                y = tf.cos(a, name="y")
            z = tf.tanh(x, name="z")
            w = tf.exp(x, name="w")
            q = tf.add(z, w, name="q")
        with tf.device("/cpu:0"):
            r = tf.negative(q, name="r")
    options = tf.RunOptions(output_partition_graphs=True)
    metadata = tf.RunMetadata()
    feed = np.array([0.5, 1.0], np.float32)
    with tf.Session(graph=graph, config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
        got_y, got_r = sess.run([y, r], {a: feed}, options=options, run_metadata=metadata)
    np.testing.assert_allclose(got_y, np.cos(feed), rtol=1e-6)
    np.testing.assert_allclose(got_r, -(np.tanh(np.sin(feed)) + np.exp(np.sin(feed))), rtol=1e-6)
    graphs = by_device(metadata.partition_graphs)
    assert {(n.name, n.op) for n in graphs[CPU0].node} == {
        ("q/_9", "_Recv"), ("r", "Neg"), ("_arg_a_0_0", "_Arg"), ("x", "Sin"),
        ("x/_0", "_Send"), ("_arg_a_0_0/_2", "_Send"), ("x/ctrl/_4", "Const"),
        ("x/_5", "_Send"), ("_retval_r_0_0", "_Retval"), ("y/_11", "_Recv"),
        ("_retval_y_0_1", "_Retval")}
    assert {(n.name, n.op) for n in graphs[CPU1].node} == {
        ("x/_1", "_Recv"), ("w", "Exp"), ("z", "Tanh"), ("_arg_a_0_0/_3", "_Recv"),
        ("x/_6", "_Recv"), ("x/_7", "Identity"), ("y", "Cos"), ("q", "AddV2"),
        ("q/_8", "_Send"), ("y/_10", "_Send")}
    nodes = {n.name: n for g in graphs.values() for n in g.node}
    assert list(nodes["x/ctrl/_4"].input) == ["^x"]
    assert list(nodes["x/_5"].input) == ["x/ctrl/_4"]
    assert list(nodes["y"].input) == ["_arg_a_0_0/_3", "^x/_7"]
    assert list(nodes["_arg_a_0_0/_2"].input) == ["_arg_a_0_0"]


def test_send_recv_names_count_on_across_runs():
    """TF's edge_name_counter_ is the session's: a second signature continues it."""
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/cpu:1"):
            a = tf.constant(2.0, name="a")
        b = tf.square(a, name="b")
    options = tf.RunOptions(output_partition_graphs=True)
    with tf.Session(graph=graph, config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
        first, second = tf.RunMetadata(), tf.RunMetadata()
        assert sess.run(b, options=options, run_metadata=first) == 4.0
        assert sess.run(a, options=options, run_metadata=second) == 2.0
    names = lambda m: sorted(n.name for g in m.partition_graphs for n in g.node  # noqa: E731
                             if n.op in ("_Send", "_Recv"))
    assert names(first) == ["a/_0", "a/_1"]
    assert names(second) == ["a/_2", "a/_3"]


def run_with_timeout(fn, seconds=20):
    result, failure = [], []

    def target():
        try:
            result.append(fn())
        except BaseException as error:  # noqa: BLE001
            failure.append(error)
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "deadlock: the run did not finish"
    if failure:
        raise failure[0]
    return result[0]


def test_tensors_cross_both_ways_without_deadlock():
    graph = tf.Graph()
    with graph.as_default():
        value = tf.constant(1.0, name="v0")
        for i in range(6):  # a chain bouncing between the two CPUs
            with tf.device(f"/cpu:{(i + 1) % 2}"):
                value = tf.add(value, float(i), name=f"hop{i}")
        with tf.device("/cpu:1"):
            left = tf.constant(10.0, name="left")
        with tf.device("/cpu:0"):
            right = tf.constant(20.0, name="right")
        with tf.device("/cpu:0"):
            crossed_a = tf.negative(left, name="crossed_a")   # cpu:1 -> cpu:0
        with tf.device("/cpu:1"):
            crossed_b = tf.negative(right, name="crossed_b")  # cpu:0 -> cpu:1
    with tf.Session(graph=graph, config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
        for _ in range(20):
            got = run_with_timeout(lambda: sess.run([value, crossed_a, crossed_b]))
            assert got == [16.0, -10.0, -20.0]
        traced = run_with_timeout(lambda: sess.run(
            [value, crossed_b], options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
            run_metadata=tf.RunMetadata()))
        assert traced == [16.0, -20.0]


def test_concurrent_session_runs_each_get_their_rendezvous():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, shape=[], name="x")
        with tf.device("/cpu:1"):
            y = tf.multiply(x, 3.0, name="y")
        z = tf.add(y, 1.0, name="z")
    with tf.Session(graph=graph, config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
        results = {}

        def worker(i):
            results[i] = [sess.run(z, {x: float(i + k)}) for k in range(30)]
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert all(results[i] == [3.0 * (i + k) + 1.0 for k in range(30)] for i in range(4))


def test_a_failing_partition_stops_the_others():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, shape=None, name="x")
        with tf.device("/cpu:1"):
            bad = tf.reshape(x, [3], name="bad")
        out = tf.identity(bad, name="out")
    with tf.Session(graph=graph, config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="bad"):
            run_with_timeout(lambda: sess.run(out, {x: [1.0, 2.0]}))
        assert run_with_timeout(lambda: list(sess.run(out, {x: [1.0, 2.0, 3.0]}))) == \
            [1.0, 2.0, 3.0]


def test_variable_on_another_device():
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/cpu:1"):
            v = tf.Variable([1.0, 2.0], name="v", use_resource=False)
        with tf.device("/cpu:0"):
            delta = tf.constant([0.5, 0.5], name="delta")
            step = tf.assign_add(v, delta, name="step")
            total = tf.reduce_sum(v, name="total")
    with tf.Session(graph=graph, config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
        sess.run(v.initializer)
        sess.run(step)
        assert sess.run(total) == 4.0
