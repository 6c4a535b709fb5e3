"""Fill in a fused chain: a Fill node, or a large constant of one value (a folded tf.ones([n])),
is read as its scalar by the compiled loop, and the graph computes what it did."""

import numpy as np
import pytest

import engine as tf
from engine.kernels.context import KernelContext
from engine.kernels.cpu import fused as cpu_fused
from engine.kernels.fused_chain import FUSED_OP
from engine.optimizer import remapping
from engine.proto import rewriter_config_pb2
from engine.runtime.resources import ResourceMgr
from tests.engine.test_remapping import _run

pytest.importorskip("numba")


class _Context:
    rewrite_options = rewriter_config_pb2.RewriterConfig(
        remapping=rewriter_config_pb2.RewriterConfig.ON)

    def __init__(self, *preserved):
        self.preserved = set(preserved)

    def is_preserved(self, name):
        return name in self.preserved


def _ops(node):
    return [s.decode() for s in node.attr["fused_ops"].list.s]


def test_a_large_constant_of_one_value_becomes_a_fill_step():
    n = remapping.SPLAT_MIN_ELEMENTS + 5
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [n], name="x")
        tf.multiply(x, tf.constant(np.full(n, 2.5, np.float32)), name="splat")
        tf.add(x, tf.constant(np.arange(n, dtype=np.float32)), name="varied")
        tf.add(x, tf.constant(np.full(n, np.nan, np.float32)), name="nan")
        shared = tf.constant(np.full(n, 3.0, np.float32), name="shared")
        tf.add(tf.abs(x), shared, name="shared_a")
        tf.add(tf.negative(x), shared, name="shared_b")
        y = tf.placeholder(tf.float32, [8], name="y")
        tf.subtract(tf.abs(y), tf.constant(np.full(8, 1.0, np.float32)), name="small")
    graph_def = graph.as_graph_def()
    fetches = ["splat:0", "varied:0", "nan:0", "shared_a:0", "shared_b:0"]
    result, _ = remapping.optimize(graph_def, _Context("x", "y"))
    by_name = {n.name: n for n in result.node}
    assert _ops(by_name["splat"]) == ["Fill", "Mul"]
    assert _ops(by_name["shared_a"]) == ["Abs", "AddV2"]  # a constant read twice: an input
    assert _ops(by_name["small"]) == ["Abs", "Sub"]  # too small to be worth a Fill
    big = [node.name for node in result.node if node.op == "Const"
           and node.attr["value"].tensor.tensor_shape.dim
           and node.attr["value"].tensor.tensor_shape.dim[0].size == n]
    assert sorted(big) == ["Const_1", "Const_2", "shared"]  # varied, NaN, read twice: kept
    feeds = {"x:0": np.linspace(-3, 3, n, dtype=np.float32), "y:0": np.arange(8, dtype=np.float32)}
    for got, expected in zip(_run(result, fetches + ["small:0"], feeds),
                             _run(graph_def, fetches + ["small:0"], feeds)):
        np.testing.assert_array_equal(got, expected)


def test_a_fill_node_joins_and_keeps_its_errors():
    graph = tf.Graph()
    with graph.as_default():
        dims = tf.placeholder(tf.int32, [None], name="dims")
        value = tf.placeholder(tf.float32, None, name="value")
        out = tf.sqrt(tf.fill(dims, value) * 4.0, name="out")
    graph_def = graph.as_graph_def()
    result, _ = remapping.optimize(graph_def, _Context("dims", "value", "out"))
    node, = [n for n in result.node if n.op == FUSED_OP]
    assert _ops(node) == ["Fill", "Mul", "Sqrt"]
    feeds = {"dims:0": [3, 5000], "value:0": 2.25}
    np.testing.assert_array_equal(_run(result, "out:0", feeds), _run(graph_def, "out:0", feeds))
    for bad, why in (({"dims:0": [3, -1], "value:0": 1.0}, "Dimension -1 must be >= 0"),
                     ({"dims:0": [3], "value:0": [1.0, 2.0]}, "value must be a scalar")):
        for g in (result, graph_def):  # the Fill kernel's words (the node: the fused one)
            with pytest.raises(tf.errors.InvalidArgumentError, match=why):
                _run(g, "out:0", bad)
    ctx = KernelContext(node, [tf.float32], ResourceMgr())
    plan = cpu_fused.plan_of(ctx)
    inputs = [np.array([70, 300], np.int32) if name == "dims" else
              np.float32(6.25) if name == "value" else np.float32(4.0) for name in node.input]
    got = cpu_fused.run_compiled(plan, inputs, wait=True, ctx=ctx)
    assert got is not None and got.shape == (70, 300)
    np.testing.assert_array_equal(got, cpu_fused.run_reference(plan, inputs, ctx=ctx))
