"""An integer Sum ending a fused chain: the compiled loop adds the values up as it makes them
(nothing written out), and the fused graph gives the unfused graph's sums, exactly."""

import numpy as np
import pytest

import engine as tf
from engine.kernels.context import KernelContext
from engine.kernels.cpu import fused as cpu_fused
from engine.kernels.fused_chain import FUSED_OP, Chain
from engine.proto import rewriter_config_pb2
from engine.runtime.resources import ResourceMgr

pytest.importorskip("numba")


# these tests are about the remapping pass
pytestmark = pytest.mark.usefixtures("optimizer_on")


def _both(graph, fetches, feeds):
    """(fused nodes, the fused session's values, the unfused session's values)."""
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.remapping = rewriter_config_pb2.RewriterConfig.ON
    metadata = tf.RunMetadata()
    with tf.Session(graph=graph, config=config) as sess:
        got = sess.run(fetches, feeds, options=tf.RunOptions(output_partition_graphs=True),
                       run_metadata=metadata)
    with tf.Session(graph=graph) as sess:
        expected = sess.run(fetches, feeds)
    nodes = [n for g in metadata.partition_graphs for n in g.node if n.op == FUSED_OP]
    return nodes, got, expected


def _ops(node):
    return [s.decode() for s in node.attr["fused_ops"].list.s]


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_an_integer_sum_of_everything_ends_the_chain(dtype):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None, None], name="x")
        counts = tf.cast(tf.greater(tf.abs(x), 0.5), dtype)
        total = tf.reduce_sum(counts * 3 - 1, name="total")
        big = tf.reduce_sum(tf.cast(x * 1e9, dtype), name="big")  # wraps in int32, as TF's
        by_row = tf.reduce_sum(tf.cast(x, dtype) + 1, axis=1, name="by_row")
        kept = tf.reduce_sum(tf.cast(x, dtype) + 2, keepdims=True, name="kept")
        floats = tf.reduce_sum(tf.abs(x) * 2.0, name="floats")
    feeds = {x: np.random.default_rng(0).standard_normal((300, 70)).astype(np.float32)}
    nodes, got, expected = _both(graph, [total, big, by_row, kept, floats], feeds)
    by_name = {n.name: _ops(n) for n in nodes}
    assert by_name["total"][-1] == "Sum" and by_name["big"][-1] == "Sum"
    # keep_dims and a float sum stay Sum nodes after their chains; a sum over some axes may
    # end a chain (the axes are a run's input), whose kernel then runs the Sum op's own
    assert "kept" not in by_name and "floats" not in by_name
    for g, e in zip(got, expected):
        assert np.asarray(g).dtype == np.asarray(e).dtype
        np.testing.assert_array_equal(g, e)


def _sum_plan(shape_of_x, axes_values):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.int32, shape_of_x, name="x")
        axes = tf.placeholder(tf.int32, [None], name="axes")
        tf.reduce_sum(tf.abs(x) + 1, axis=axes, name="s")
    node = None
    from engine.optimizer import remapping

    class Context:
        rewrite_options = rewriter_config_pb2.RewriterConfig(
            remapping=rewriter_config_pb2.RewriterConfig.ON)

        def is_preserved(self, name):
            return name in ("x", "axes", "s")

    result, _ = remapping.optimize(graph.as_graph_def(), Context())
    node, = [n for n in result.node if n.op == FUSED_OP]
    return node


@pytest.mark.parametrize("axes", [[0, 1], [1, 0], [-1, 0], [0], [0, 0], [2, 0], []])
def test_the_compiled_sum_serves_only_a_sum_of_everything(axes):
    node = _sum_plan([None, None], axes)
    assert _ops(node) == ["Abs", "AddV2", "Sum"]
    ctx = KernelContext(node, [tf.int32], ResourceMgr())
    plan = cpu_fused.plan_of(ctx)
    x = np.arange(-50000, 50000, dtype=np.int32).reshape(400, 250)
    values = {"x": x, "axes": np.array(axes, np.int32)}
    inputs = [values.get(name, np.int32(1)) for name in node.input]  # add/y: the 1
    got = cpu_fused.run_compiled(plan, inputs, wait=True, ctx=ctx)
    everything = sorted(a % 2 for a in axes) == [0, 1]
    assert (got is not None) == everything
    if everything:
        assert got.shape == () and got.dtype == np.int32
        assert got == np.sum(np.abs(x) + 1, dtype=np.int32)
    else:
        try:  # the Sum kernel's own answer or error, as unfused
            reference = cpu_fused.run_reference(plan, inputs, ctx=ctx)
        except tf.errors.InvalidArgumentError:
            return
        named = tuple(sorted({a % 2 for a in axes}))  # TF's bitmap: a repeated axis once
        np.testing.assert_array_equal(reference, np.sum(np.abs(x) + 1, axis=named,
                                                        dtype=np.int32))


def test_axes_computed_by_elementwise_ops_stay_outside_the_chain():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.int32, [None], name="x")
        axis = tf.placeholder(tf.int32, [], name="axis")
        total = tf.reduce_sum(tf.abs(x) * 2, axis=tf.abs(axis) - 1, name="total")
    nodes, got, expected = _both(graph, total, {x: np.arange(-9, 9, dtype=np.int32), axis: 1})
    summing = [n for n in nodes if _ops(n)[-1] == "Sum"]
    assert summing and all("Sub" not in _ops(n) for n in summing)
    assert got == expected == 162


def test_a_chain_ending_in_a_sum_decodes_and_checks_its_operands():
    chain = Chain(["Abs", "Sum"], ["i0", "t0,i1"], ["int32", "int32"])
    assert chain.reduces and chain.axes_input == 1 and chain.side_inputs == {1}
    with pytest.raises(ValueError, match="only end a chain"):
        Chain(["Sum", "Abs"], ["i0,i1", "t0"], ["int32", "int32"])
    with pytest.raises(ValueError, match="axes input"):
        Chain(["Abs", "Sum"], ["i0", "t0,t0"], ["int32", "int32"])
    with pytest.raises(ValueError, match="read as a value"):
        Chain(["Add", "Sum"], ["i0,i1", "t0,i1"], ["int32", "int32"])


def test_the_fused_sum_has_the_sums_static_shape():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [5, 7], name="x")
        tf.reduce_sum(tf.cast(tf.abs(x) > 1.0, tf.int32), name="hits")
    from engine.optimizer import remapping

    class Context:
        rewrite_options = rewriter_config_pb2.RewriterConfig(
            remapping=rewriter_config_pb2.RewriterConfig.ON)

        def is_preserved(self, name):
            return name in ("x", "hits")

    result, _ = remapping.optimize(graph.as_graph_def(), Context())
    imported = tf.Graph()
    with imported.as_default():
        tf.import_graph_def(result, name="")
    hits = imported.get_tensor_by_name("hits:0")
    assert hits.op.type == FUSED_OP and hits.shape.as_list() == []
