"""A fused node remembers, per input signature (shapes, dtypes, side inputs' values), how its
compiled loop is called: runs with other shapes, other axes or broadcasts that only the
reference serves must each still give the op-by-op values."""

import numpy as np
import pytest

import engine as tf
from engine.kernels import compiled
from engine.proto import rewriter_config_pb2

BIG = 1 << 15  # compiled at once (COMPILE_MIN_SIZE), below it after 64 runs


pytestmark = pytest.mark.usefixtures("optimizer_on")


def _session(graph):
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.remapping = rewriter_config_pb2.RewriterConfig.ON
    return tf.Session(graph=graph, config=config)


def _compiled_twice(sess, fetch, feed):
    """The value of a run, then of a run once the chain's kernel is compiled; both returned."""
    first = sess.run(fetch, feed)
    fused = compiled.module("fused", wait=True)
    if fused is not None:
        fused.wait_idle()
    return first, sess.run(fetch, feed)


def test_one_node_fed_several_shapes():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, None, name="x")
        y = tf.sqrt(x * x + 1.0) - x
    rng = np.random.default_rng(3)
    with _session(graph) as sess:
        for shape in [(BIG,), (3,), (BIG // 4, 4), (), (BIG,), (0,)]:
            value = rng.random(shape, np.float32) if shape else np.float32(0.5)
            expected = np.sqrt(value * value + np.float32(1)) - value
            for got in _compiled_twice(sess, y, {x: value}):
                assert got.shape == np.shape(expected)
                np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_a_fed_reduction_axis_and_a_partial_broadcast():
    graph = tf.Graph()
    with graph.as_default():
        a = tf.placeholder(tf.int32, [None, None], name="a")
        b = tf.placeholder(tf.int32, [None, None], name="b")
        axes = tf.placeholder(tf.int32, [None], name="axes")
        total = tf.reduce_sum(a * 2 + b, axes)
    rng = np.random.default_rng(4)
    left = rng.integers(-9, 9, (BIG // 8, 8), dtype=np.int32)
    with _session(graph) as sess:
        for right, named in [(left, [0, 1]), (left, [1]), (left, [1, 0]),
                             (left[:1], [0, 1]), (left[:, :1], [0, 1]), (left, [0, 1])]:
            expected = np.sum(left * 2 + right, axis=tuple(named))
            for got in _compiled_twice(sess, total, {a: left, b: right, axes: named}):
                np.testing.assert_array_equal(got, expected)


def test_side_inputs_of_one_shape_but_other_values():
    graph = tf.Graph()
    with graph.as_default():
        a = tf.placeholder(tf.int32, [None, None], name="a")
        axes = tf.placeholder(tf.int32, [2], name="axes")
        total = tf.reduce_sum(a * 2 + 1, axes)
        dims = tf.placeholder(tf.int32, [1], name="dims")
        hits = tf.reduce_sum(tf.cast(tf.random_uniform(dims, seed=5) * 2.0 < 1.0, tf.int32))
    left = np.ones((BIG // 8, 8), np.int32)
    with _session(graph) as sess:
        for got in _compiled_twice(sess, total, {a: left, axes: [0, 1]}):
            assert got == 3 * left.size
        with pytest.raises(tf.errors.InvalidArgumentError):  # the same shape of axes, repeated
            sess.run(total, {a: left, axes: [1, 1]})
        for size in (BIG, BIG // 2):
            for got in _compiled_twice(sess, hits, {dims: [size]}):
                assert 0.4 * size < got < 0.6 * size
            assert got <= size
    with tf.Session(graph=graph) as sess:  # unfused: the same stream, so the same counts
        assert [sess.run(hits, {dims: [size]}) for size in (BIG, BIG, BIG // 2, BIG // 2)] \
            == _fused_counts(graph, hits, dims)


def _fused_counts(graph, hits, dims):
    with _session(graph) as sess:
        return [value for size in (BIG, BIG // 2) for value in
                _compiled_twice(sess, hits, {dims: [size]})]


@pytest.mark.parametrize("named, message", [
    ([1, 1], "Invalid reduction arguments: Axes contains duplicate dimension: 1"),
    ([-1, 1], "Invalid reduction arguments: Axes contains duplicate dimension: 1"),
    ([0, 2], "Invalid reduction dimension (2 for input with 2 dimension(s)"),
])
def test_reduction_axes_errors_are_tensorflows(named, message):
    """TensorFlow 2.21 printed these for reduce_sum of a [3, 2] value (unfused: the Sum
    kernel's own check, which a fused chain falls back to)."""
    graph = tf.Graph()
    with graph.as_default():
        a = tf.placeholder(tf.int32, [None, None])
        axes = tf.placeholder(tf.int32, [2])
        total = tf.reduce_sum(a, axes)
    with tf.Session(graph=graph) as sess, pytest.raises(tf.errors.InvalidArgumentError) as raised:
        sess.run(total, {a: np.ones((3, 2), np.int32), axes: named})
    assert message in raised.value.message
