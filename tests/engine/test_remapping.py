"""The remapping pass: elementwise chains become one _FusedElementwise node each, and the
graph computes what it did (run both ways)."""

import numpy as np
import pytest

import engine as tf
from engine.kernels import compiled
from engine.kernels.fused_chain import FUSED_OP, MAX_STEPS

pytest.importorskip("engine.optimizer.report")
from engine.optimizer import remapping  # noqa: E402



# these tests are about the remapping pass
pytestmark = pytest.mark.usefixtures("optimizer_on")


class _Context:
    def __init__(self, *preserved):
        self.preserved = set(preserved)
        self.rewrite_options = tf.RewriterConfig(remapping=tf.RewriterConfig.ON) \
            if hasattr(tf, "RewriterConfig") else _on()

    def is_preserved(self, name):
        return name in self.preserved


def _on():
    from engine.proto import rewriter_config_pb2
    return rewriter_config_pb2.RewriterConfig(remapping=rewriter_config_pb2.RewriterConfig.ON)


def test_small_chains_are_not_fused_by_default():
    context = _Context("x", "y", "hits")
    context.rewrite_options.remapping = context.rewrite_options.DEFAULT
    graph_def = _pi_graph(10)
    result, report = remapping.optimize(graph_def, context)
    assert report.fused == 0 and result == graph_def
    assert report.changes == [f"left 1 chain unfused: fewer than "
                              f"{remapping.DEFAULT_MIN_ELEMENTS:,} elements known, or on a GPU "
                              "(remapping ON fuses every chain)"]


def test_nothing_is_fused_when_remapping_is_off():
    context = _Context("x", "y", "hits")
    context.rewrite_options.remapping = context.rewrite_options.OFF
    graph_def = _pi_graph(remapping.DEFAULT_MIN_ELEMENTS)
    result, report = remapping.optimize(graph_def, context)
    assert report.fused == 0 and report.changes == [] and result == graph_def


def test_a_session_fuses_when_remapping_is_on():
    from engine.proto import rewriter_config_pb2
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.remapping = rewriter_config_pb2.RewriterConfig.ON
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        y = tf.sqrt(tf.abs(x) * 2.0 + 1.0, name="y")
    feeds = {x: np.arange(-3, 3, dtype=np.float32)}
    with tf.Session(graph=graph, config=config) as sess:
        options = tf.RunOptions(output_partition_graphs=True)
        metadata = tf.RunMetadata()
        got = sess.run(y, feeds, options=options, run_metadata=metadata)
    ops = {n.op for g in metadata.partition_graphs for n in g.node}
    assert FUSED_OP in ops and "Sqrt" not in ops
    with tf.Session(graph=graph) as sess:  # the default: TensorFlow's graphs, unfused
        np.testing.assert_array_equal(sess.run(y, feeds), got)


def _run(graph_def, fetch, feeds):
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    with tf.Session(graph=graph) as sess:
        return sess.run(fetch, feeds)


def _pi_graph(size):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        y = tf.placeholder(tf.float32, [None], name="y")
        r = tf.sqrt(tf.add(tf.multiply(x, x), tf.multiply(y, y)), name="r")
        inside = tf.less_equal(r, tf.ones([size]), name="inside")
        tf.reduce_sum(tf.cast(inside, tf.int32, name="hits_each"), name="hits")
    return graph.as_graph_def()


def test_a_chain_becomes_one_node_named_as_its_last():
    graph_def = _pi_graph(1000)
    result, report = remapping.optimize(graph_def, _Context("x", "y", "hits"))
    fused = [node for node in result.node if node.op == FUSED_OP]
    assert [node.name for node in fused] == ["hits"]  # the integer Sum ends the chain
    # tf.ones([1000]) is a Fill, read as its scalar inside the loop
    assert [s.decode() for s in fused[0].attr["fused_ops"].list.s] == [
        "Mul", "Mul", "AddV2", "Sqrt", "Fill", "LessEqual", "Cast", "Sum"]
    assert report.fused == 8
    assert len(result.node) == len(graph_def.node) - 7
    rng = np.random.default_rng(0)
    feeds = {"x:0": rng.random(1000, np.float32), "y:0": rng.random(1000, np.float32)}
    compiled.module("fused", wait=True)
    for _ in range(2):  # the reference, then (once compiled) the compiled loop
        assert _run(result, "hits:0", feeds) == _run(graph_def, "hits:0", feeds)


def test_kept_nodes_and_shared_values_stay_outside():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.int32, [None], name="x")
        a = tf.multiply(x, 3, name="a")          # read twice: stays a node of its own
        b = tf.add(a, 1, name="b")
        c = tf.subtract(b, a, name="c")
        d = tf.negative(c, name="d")             # fetched below: kept, yet it may end a chain
        tf.abs(d, name="e")
    graph_def = graph.as_graph_def()
    result, _ = remapping.optimize(graph_def, _Context("x", "d", "e"))
    by_name = {node.name: node for node in result.node}
    assert by_name["a"].op == "Mul" and by_name["e"].op == "Abs"
    assert by_name["d"].op == FUSED_OP and "b" not in by_name and "c" not in by_name
    feeds = {"x:0": np.array([1, -7, 2**30], np.int32)}
    for fetch in ("d:0", "e:0"):
        np.testing.assert_array_equal(_run(result, fetch, feeds), _run(graph_def, fetch, feeds))


def test_gpu_nodes_control_edges_and_other_attrs():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        with tf.device("/device:GPU:0"):
            g = tf.exp(tf.negative(x), name="g")
        n = tf.negative(x, name="n")
        with tf.control_dependencies([g.op]):
            m = tf.exp(n, name="m")
        tf.nn.leaky_relu(tf.abs(m, name="p"), alpha=0.3, name="q")  # LeakyRelu has alpha
    graph_def = graph.as_graph_def()
    result, _ = remapping.optimize(graph_def, _Context("x", "q"))
    by_name = {node.name: node for node in result.node}
    # a GPU chain fuses too (CuPy's kernel) and stays on its device
    assert by_name["g"].op == FUSED_OP and by_name["g"].device == "/device:GPU:0"
    assert by_name["q"].op == "LeakyRelu"
    assert by_name["p"].op == FUSED_OP and "^g" in by_name["p"].input


def test_long_chains_are_cut():
    graph = tf.Graph()
    with graph.as_default():
        y = x = tf.placeholder(tf.float64, [4], name="x")
        for i in range(MAX_STEPS * 2 + 5):
            y = tf.add(y, np.float64(i), name=f"add{i}")
    graph_def = graph.as_graph_def()
    result, report = remapping.optimize(graph_def, _Context("x", y.op.name))
    fused = [node for node in result.node if node.op == FUSED_OP]
    assert len(fused) == 3 and report.fused == MAX_STEPS * 2 + 5
    assert all(len(node.attr["fused_ops"].list.s) <= MAX_STEPS for node in fused)
    feeds = {"x:0": np.arange(4.0)}
    np.testing.assert_array_equal(_run(result, y.name, feeds), _run(graph_def, y.name, feeds))


def test_logical_ops_and_casts_keep_their_nodes_valid():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        flag = tf.placeholder(tf.bool, [None], name="flag")
        both = tf.logical_and(tf.less(x, 0.5), flag)
        tf.cast(tf.logical_not(both), tf.int64, name="out")
    graph_def = graph.as_graph_def()
    result, report = remapping.optimize(graph_def, _Context("x", "flag", "out"))
    (fused,) = [node for node in result.node if node.op == FUSED_OP]
    assert report.fused == 4 and set(fused.attr) == {
        "Tin", "T", "fused_ops", "fused_args", "fused_types"}
    assert [n for n in result.node if n.name != "out"] == [
        n for n in graph_def.node if n.name in ("x", "flag", "Less/y")]  # untouched
    feeds = {"x:0": np.array([0.1, 0.9, 0.3], np.float32), "flag:0": [True, True, False]}
    np.testing.assert_array_equal(_run(result, "out:0", feeds), _run(graph_def, "out:0", feeds))
