"""RandomUniform as a fused chain's source: the compiled loop draws TensorFlow's Philox words
in registers, and every run gives what the unfused graph gives, bit for bit, run after run
(each random node keeps its own stream, found by its name)."""

import numpy as np
import pytest

import engine as tf
from engine.kernels import compiled
from engine.kernels.cpu import fused as cpu_fused
from engine.kernels.fused_chain import FUSED_OP, Chain
from engine.proto import rewriter_config_pb2

pytest.importorskip("numba")


# these tests are about the remapping pass
pytestmark = pytest.mark.usefixtures("optimizer_on")


def _sessions(graph):
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.remapping = rewriter_config_pb2.RewriterConfig.ON
    return tf.Session(graph=graph), tf.Session(graph=graph, config=config)


def _fused_nodes(sess, fetches, feeds=None):
    metadata = tf.RunMetadata()
    sess.run(fetches, feeds, options=tf.RunOptions(output_partition_graphs=True),
             run_metadata=metadata)
    return [n for g in metadata.partition_graphs for n in g.node if n.op == FUSED_OP]


def _pi(size, device=None):
    graph = tf.Graph()
    with graph.as_default(), tf.device(device):
        tf.set_random_seed(1234)
        x = tf.random_uniform([size], seed=1, name="x")
        y = tf.random_uniform([size], seed=2, name="y")
        r = tf.sqrt(tf.add(tf.multiply(x, x), tf.multiply(y, y)))
        inside = tf.less_equal(r, tf.ones([size]))
        hits = tf.reduce_sum(tf.cast(inside, tf.int32), name="hits")
    return graph, hits


@pytest.mark.parametrize("size", [1, 3, 4, 2047, 4096 * 5 + 3, 100003])
def test_fused_random_chain_equals_the_unfused_graph_run_after_run(size):
    compiled.module("fused", wait=True)
    graph, hits = _pi(size)
    plain, fused = _sessions(graph)
    nodes = _fused_nodes(fused, hits)
    assert any(node.attr["fused_random"].list.s == [b"x/RandomUniform", b"y/RandomUniform"]
               for node in nodes)
    plain.run(hits)  # (the fused session drew once above)
    expected = [plain.run(hits) for _ in range(4)]
    got = [fused.run(hits) for _ in range(4)]
    assert got == expected
    if size > 1000:  # each run draws new values: the streams move on
        assert len(set(expected)) > 1


@pytest.mark.parametrize("size", [4096 * 3 + 1, 4096 * 4])
def test_the_compiled_loop_and_the_reference_draw_the_same_values(size):
    from engine.kernels.context import KernelContext
    from engine.runtime.resources import ResourceMgr
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(3)
        a = tf.random_uniform([size], seed=7, name="a")
        scale = tf.placeholder(tf.float32, [], name="scale")
        out = tf.add(tf.multiply(a, scale), 1.0, name="out")
    _, fused = _sessions(graph)
    node, = _fused_nodes(fused, out.name, {scale: 1.0})
    ops = [s.decode() for s in node.attr["fused_ops"].list.s]
    assert ops[0] == "RandomUniform" and ops[-2:] == ["Mul", "AddV2"], ops
    assert list(node.attr["fused_seeds"].list.i) == [3, 7]  # (graph seed, op seed)
    compiled_ctx = KernelContext(node, [tf.float32], ResourceMgr())
    reference_ctx = KernelContext(node, [tf.float32], ResourceMgr())
    plan = cpu_fused.plan_of(compiled_ctx)
    assert plan.chain.random_steps == [0] and plan.chain.shape_inputs == {0}
    for value in (2.0, -0.5, 3.0):  # three runs: each moves both sessions' streams alike
        inputs = [np.array([size], np.int32) if name.startswith("a/") else
                  np.float32(value) if name == "scale" else np.float32(1.0)
                  for name in node.input]
        got = cpu_fused.run_compiled(plan, inputs, wait=True, ctx=compiled_ctx)
        assert got is not None, "the compiled loop did not run"
        np.testing.assert_array_equal(got, cpu_fused.run_reference(plan, inputs,
                                                                   ctx=reference_ctx))


def test_a_fetched_or_shared_random_value_stays_a_node_of_its_own():
    graph = tf.Graph()
    with graph.as_default():
        tf.random_uniform([50000], seed=1, name="a")
        a = graph.get_tensor_by_name("a/RandomUniform:0")  # fetched below
        tf.random_uniform([50000], seed=2, name="b")
        b = graph.get_tensor_by_name("b/RandomUniform:0")
        shared = tf.add(tf.multiply(b, 2.0), 1.0) + tf.negative(b)  # b read twice
        out = tf.multiply(a, 3.0, name="out")
        c = tf.multiply(tf.random_uniform([50000], seed=3, name="c"), 5.0, name="c5")
    fetches = [out, a, shared, c]
    plain, fused = _sessions(graph)
    drawn = [s for n in _fused_nodes(fused, fetches) for s in n.attr["fused_random"].list.s]
    assert drawn == [b"c/RandomUniform"]  # a is fetched, b has two readers
    plain.run(fetches)
    for _ in range(2):
        for x, y in zip(fused.run(fetches), plain.run(fetches)):
            np.testing.assert_array_equal(x, y)


def test_random_ops_on_a_gpu_are_not_fused():
    from engine.kernels.cuda.backend import simulated_gpus
    with simulated_gpus(1):
        graph, hits = _pi(4096, device="/device:GPU:0")
        plain, fused = _sessions(graph)
        assert all(not n.attr["fused_random"].list.s for n in _fused_nodes(fused, hits))
        plain.run(hits)  # (the fused session drew once above)
        assert fused.run(hits) == plain.run(hits)


def test_a_bad_shape_raises_the_random_ops_own_error():
    graph = tf.Graph()
    with graph.as_default():
        shape = tf.placeholder(tf.int32, [None], name="shape")
        out = tf.multiply(tf.random_uniform(shape, seed=1, name="r"), 2.0, name="out")
    plain, fused = _sessions(graph)
    for sess in (plain, fused):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -2 must be >= 0"):
            sess.run(out, {shape: [3, -2]})


def test_fused_random_attrs_must_pair_names_and_seeds():
    from engine.kernels.context import KernelContext
    graph, hits = _pi(64)
    _, fused = _sessions(graph)
    node, = [n for n in _fused_nodes(fused, hits) if n.attr["fused_random"].list.s]
    del node.attr["fused_seeds"].list.i[-1]
    with pytest.raises(ValueError, match="seed and a seed2"):
        cpu_fused.plan_of(KernelContext(node, [tf.int32], None))


@pytest.mark.parametrize("size", [4096 * 4 + 3, 4096 * 8])
def test_a_summing_random_chain_compiled_equals_its_reference(size):
    """The pi graph's chain (two streams, a Fill of the folded ones, the int32 Sum), compiled
    with a last block cut short, against the step-by-step reference, three runs each."""
    from engine.kernels.context import KernelContext
    from engine.optimizer import rules
    from engine.runtime.resources import ResourceMgr
    graph, hits = _pi(size)
    _, fused = _sessions(graph)
    metadata = tf.RunMetadata()
    fused.run(hits, options=tf.RunOptions(output_partition_graphs=True), run_metadata=metadata)
    nodes = {n.name: n for g in metadata.partition_graphs for n in g.node}
    node = nodes["hits"]
    assert node.op == FUSED_OP
    ops = [s.decode() for s in node.attr["fused_ops"].list.s]
    assert ops.count("RandomUniform") == 2 and "Fill" in ops and ops[-1] == "Sum"
    inputs = [rules.constant_value(nodes[name]) for name in node.input]
    compiled_ctx = KernelContext(node, [tf.int32], ResourceMgr())
    reference_ctx = KernelContext(node, [tf.int32], ResourceMgr())
    plan = cpu_fused.plan_of(compiled_ctx)
    for _ in range(3):
        got = cpu_fused.run_compiled(plan, inputs, wait=True, ctx=compiled_ctx)
        assert got is not None and got.shape == () and got.dtype == np.int32
        assert got == cpu_fused.run_reference(plan, inputs, ctx=reference_ctx)


def test_a_random_chain_reading_a_full_array_compiled_equals_its_reference():
    from engine.kernels.context import KernelContext
    from engine.runtime.resources import ResourceMgr
    size = 4096 * 5 + 2
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [size], name="x")
        out = tf.subtract(tf.random_uniform([size], seed=5, name="r") * 2.0, x, name="out")
    feed = np.linspace(-1, 1, size, dtype=np.float32)
    _, fused = _sessions(graph)
    node, = _fused_nodes(fused, out.name, {x: feed})
    compiled_ctx = KernelContext(node, [tf.float32], ResourceMgr())
    reference_ctx = KernelContext(node, [tf.float32], ResourceMgr())
    plan = cpu_fused.plan_of(compiled_ctx)
    assert list(node.input) == ["r/shape", "mul/y", "_arg_x_0_0"]  # (x arrives as an _Arg)
    inputs = [np.array([size], np.int32), np.float32(2.0), feed]
    for _ in range(2):
        got = cpu_fused.run_compiled(plan, inputs, wait=True, ctx=compiled_ctx)
        assert got is not None and got.shape == (size,)
        np.testing.assert_array_equal(got, cpu_fused.run_reference(plan, inputs,
                                                                   ctx=reference_ctx))
