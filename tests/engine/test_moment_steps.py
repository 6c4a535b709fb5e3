"""tf.nn.moments over the last axis as one compiled step (engine/runtime/moment_steps.py): the
mean and variance, and what reads them, have the bits of Mean, SquaredDifference and Mean run
one after another; groups that cannot run so (the squares fetched, no keep_dims) run as before,
and a traced run still shows the three nodes."""

import numpy as np
import pytest

import engine as tf
from engine.kernels import compiled
from engine.kernels.compiled import eigen_reduce_numba
from engine.runtime import chain_steps

pytest.importorskip("numba")


@pytest.fixture
def moments_calls(monkeypatch):
    """The row counts of the compiled moments calls made (the module loaded first)."""
    if compiled.module("eigen_reduce", wait=True) is None:
        pytest.skip(f"eigen_reduce not compiled: {compiled.why_not('eigen_reduce')}")
    calls = []
    original = eigen_reduce_numba.moments

    def counting(x):
        calls.append(x.shape)
        return original(x)

    monkeypatch.setattr(eigen_reduce_numba, "moments", counting)
    return calls


def _moments_graph(shape, swapped=False, keepdims=True, fetch_squares=False):
    def build():
        x = tf.placeholder(tf.float32, [None] + list(shape[1:]), name="x")
        mean = tf.reduce_mean(x, axis=-1, keepdims=keepdims, name="mean")
        if not keepdims:
            mean = tf.expand_dims(mean, -1)
        squares = tf.squared_difference(mean, x) if swapped else tf.squared_difference(x, mean)
        variance = tf.reduce_mean(squares, axis=-1, keepdims=True, name="variance")
        gamma = tf.constant(np.linspace(0.5, 1.5, shape[-1], dtype=np.float32))
        normed = (x - mean) * tf.math.rsqrt(variance + 1e-12) * gamma + 0.125
        fetches = [normed, mean, variance] + ([squares] if fetch_squares else [])
        return x, fetches
    return build


def _run(build, x, enabled, monkeypatch, trace=False):
    monkeypatch.setattr(chain_steps, "ENABLED", enabled)
    graph = tf.Graph()
    with graph.as_default():
        placeholder, fetches = build()
        with tf.Session(graph=graph) as sess:
            if not trace:
                return sess.run(fetches, {placeholder: x})
            metadata = tf.RunMetadata()
            sess.run(fetches, {placeholder: x},
                     options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                     run_metadata=metadata)
            return [stats.node_name for device in metadata.step_stats.dev_stats
                    for stats in device.node_stats]


def _same_bits(got, expected):
    for a, b in zip(got, expected):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


def _values(shape, seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    flat = x.reshape(-1, shape[-1])
    flat[1] = rng.standard_normal(shape[-1]).astype(np.float32) * np.float32(2.0 ** -120)
    flat[2, 3] = np.nan
    flat[3, 0] = np.inf
    flat[5] = 7.0  # a constant row: its squares are zeros
    return x


@pytest.mark.parametrize("shape", [(2049, 96), (7, 5, 768), (6, 1000), (9, 5)])
@pytest.mark.parametrize("swapped", [False, True])
def test_moments_give_the_three_nodes_bits(moments_calls, monkeypatch, shape, swapped):
    x = _values(shape, 3)
    build = _moments_graph(shape, swapped=swapped)
    got = _run(build, x, True, monkeypatch)
    assert moments_calls, "the moments step did not run compiled"
    _same_bits(got, _run(build, x, False, monkeypatch))


def test_fetched_squares_or_no_keep_dims_run_as_before(moments_calls, monkeypatch):
    x = _values((64, 40), 4)
    for build in (_moments_graph(x.shape, fetch_squares=True),
                  _moments_graph(x.shape, keepdims=False)):
        got = _run(build, x, True, monkeypatch)
        _same_bits(got, _run(build, x, False, monkeypatch))
    assert not moments_calls


def test_a_traced_run_shows_the_three_nodes(moments_calls, monkeypatch):
    x = _values((64, 40), 5)
    names = _run(_moments_graph(x.shape), x, True, monkeypatch, trace=True)
    assert {"mean", "SquaredDifference", "variance"} <= set(names)
    assert not moments_calls


def test_a_training_step_groups_its_moments_and_keeps_its_values(moments_calls, monkeypatch):
    # the Mean's gradient takes the Shape of the squares: a stand-in of that shape serves it
    def build():
        x = tf.placeholder(tf.float32, [None, 48], name="x")
        w = tf.Variable(np.linspace(-1, 1, 48 * 48, dtype=np.float32).reshape(48, 48))
        h = tf.matmul(x, w)
        mean, variance = tf.nn.moments(h, axes=[-1], keep_dims=True)
        loss = tf.reduce_sum(tf.square((h - mean) * tf.math.rsqrt(variance + 1e-6)))
        step = tf.train.GradientDescentOptimizer(1e-3).minimize(loss)
        return x, [loss, step, w]

    x = _values((512, 48), 6)
    x[~np.isfinite(x)] = 0.0

    def train(enabled):
        monkeypatch.setattr(chain_steps, "ENABLED", enabled)
        graph = tf.Graph()
        with graph.as_default():
            placeholder, (loss, step, w) = build()
            with tf.Session(graph=graph) as sess:
                sess.run(tf.global_variables_initializer())
                losses = [sess.run([loss, step], {placeholder: x})[0] for _ in range(3)]
                return [np.array(losses)] + [sess.run(w)]

    got = train(True)
    assert moments_calls, "the training step's moments did not run compiled"
    _same_bits(got, train(False))
