"""Remapping left on DEFAULT: large CPU chains fused, the rest left as TensorFlow's graph;
and the static sizes that decide it (engine/optimizer/static_size.py)."""

import numpy as np
import pytest

import engine as tf
from engine.kernels import compiled
from engine.kernels.fused_chain import FUSED_OP
from engine.optimizer import remapping
from engine.optimizer.static_size import StaticSizes
from engine.proto import rewriter_config_pb2

LARGE = remapping.DEFAULT_MIN_ELEMENTS


# about the optimizer's default
pytestmark = pytest.mark.usefixtures("optimizer_on")


def _partition_ops(graph, fetch, feeds=None, remapping_mode=None):
    """The fetched value and the ops of the partition graphs of one run."""
    config = tf.ConfigProto()
    if remapping_mode is not None:
        config.graph_options.rewrite_options.remapping = remapping_mode
    with tf.Session(graph=graph, config=config) as sess:
        metadata = tf.RunMetadata()
        value = sess.run(fetch, feeds, options=tf.RunOptions(output_partition_graphs=True),
                         run_metadata=metadata)
    return value, [n.op for g in metadata.partition_graphs for n in g.node]


def _pi(size, shape=None):
    """hits = sum(x*x + y*y <= 1): x random, y fed (of `shape`, else [size]); with a shape
    given x is fed too, of that shape."""
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(7)
        y = tf.placeholder(tf.float32, shape if shape is not None else [size], name="y")
        x = (tf.random_uniform([size], seed=1) if shape is None
             else tf.placeholder(tf.float32, shape, name="x"))
        hits = tf.reduce_sum(tf.cast(x * x + y * y <= 1.0, tf.int32), name="hits")
    return graph, hits, y


def test_a_large_chain_is_fused_by_default_and_gives_the_unfused_values():
    graph, hits, y = _pi(LARGE)
    feeds = {y: np.random.default_rng(0).random(LARGE, np.float32)}
    compiled.module("fused", wait=True)
    fused_value, fused_ops = _partition_ops(graph, hits, feeds)
    assert FUSED_OP in fused_ops and "RandomUniform" not in fused_ops
    plain_value, plain_ops = _partition_ops(graph, hits, feeds, rewriter_config_pb2.RewriterConfig.OFF)
    assert FUSED_OP not in plain_ops and "RandomUniform" in plain_ops
    assert fused_value == plain_value


@pytest.mark.parametrize("size, shape", [(LARGE - 1, None), (LARGE, [None])],
                         ids=["one-element-short", "fed-shape-unknown"])
def test_small_or_unknown_chains_keep_tensorflows_graph(size, shape):
    graph, hits, y = _pi(size, shape)
    feeds = {op.outputs[0]: np.zeros(size, np.float32) for op in graph.get_operations()
             if op.type == "Placeholder"}
    value, ops = _partition_ops(graph, hits, feeds)
    assert FUSED_OP not in ops and {"Square", "LessEqual", "Sum"} <= set(ops)  # x*x: Square
    assert value == size  # every point of x*x + 0 is inside (x is below 1, or 0)


def test_remapping_on_fuses_a_small_chain():
    graph, hits, y = _pi(8)
    _, ops = _partition_ops(graph, hits, {y: np.zeros(8, np.float32)},
                            rewriter_config_pb2.RewriterConfig.ON)
    assert FUSED_OP in ops


def test_gpu_chains_are_fused_only_when_asked():
    graph, _, _ = _pi(LARGE)
    graph_def = graph.as_graph_def()
    for node in graph_def.node:
        node.device = "/device:GPU:0"

    class Context:
        rewrite_options = rewriter_config_pb2.RewriterConfig()
        passes = frozenset()

        @staticmethod
        def is_preserved(name):
            return name in ("y", "hits")

    result, report = remapping.optimize(graph_def, Context())
    assert report.fused == 0 and result == graph_def and "on a GPU" in report.changes[0]


def _sizes(graph):
    return StaticSizes({n.name: n for n in graph.as_graph_def().node})


def test_static_sizes_from_shapes_constants_and_shape_inputs():
    graph = tf.Graph()
    with graph.as_default():
        a = tf.placeholder(tf.float32, [3, 4], name="a")
        b = tf.placeholder(tf.float32, [None, 4], name="b")
        tf.constant(np.zeros([5, 6], np.float32), name="c")
        tf.random_uniform([7, 8], name="r")
        tf.fill([2, 9], 1.0, name="f")
        tf.add(a, tf.constant(1.0), name="broadcast")  # [3, 4] + scalar
        tf.add(b, tf.constant([1.0, 2.0, 3.0, 4.0]), name="lower_bound")  # at least 4
        tf.identity(a, name="same")
        tf.matmul(a, tf.ones([4, 2]), name="not_elementwise")
        tf.Variable(tf.zeros([10]), name="v")
    sizes = _sizes(graph)
    assert [sizes.elements(n) for n in ("a", "b", "c", "r/RandomUniform", "f", "broadcast",
                                        "lower_bound", "same", "not_elementwise", "v")] == [
        12, None, 30, 56, 18, 12, 4, 12, None, 10]
    assert sizes.elements("no_such_node") is None


def test_static_sizes_read_output_shapes_and_survive_cycles_and_long_chains():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        total = x
        for _ in range(5000):  # deeper than Python's recursion limit
            total = total + 1.0
        tf.identity(total, name="end")
    graph_def = graph.as_graph_def()
    nodes = {n.name: n for n in graph_def.node}
    assert StaticSizes(nodes).elements("end") == 1  # a lower bound: the scalar 1.0's
    nodes["x"].attr["_output_shapes"].list.shape.add().dim.add(size=LARGE)
    assert StaticSizes(nodes).elements("end") == LARGE
    # a loop: a <- b <- a (as NextIteration closes one); unknown, and it ends
    loop = tf.Graph().as_graph_def()
    first, second = loop.node.add(name="a", op="Add"), loop.node.add(name="b", op="Add")
    first.input.extend(["b", "b"])
    second.input.extend(["a", "a"])
    assert StaticSizes({n.name: n for n in loop.node}).elements("a") is None
