"""Elementwise work after a _FusedMatMul run on the product's rows as they are made
(engine/runtime/epilogue_steps.py): the values are those of the product's step and the chain's
step one after the other, bit for bit, at one thread (one piece) and two (row blocks); a
product something else reads, or fetched, runs as before."""

import numpy as np
import pytest

import engine as tf
from engine.runtime import chain_steps, epilogue_steps

pytest.importorskip("numba")


@pytest.fixture
def chained(monkeypatch):
    """The (value, ran) results of the fused products run so (compiled loops wait for)."""
    monkeypatch.setattr(chain_steps, "WAIT", True)
    results = []
    original = epilogue_steps.fused_mat_mul_then

    def counting(*args):
        done = original(*args)
        if done is not None:
            results.append(done[1])
        return done

    monkeypatch.setattr(epilogue_steps, "fused_mat_mul_then", counting)
    return results


def _dense(x, units, seed, inputs=None):
    rng = np.random.default_rng(seed)
    inputs = inputs or int(x.shape[-1])
    w = tf.constant((rng.standard_normal((inputs, units)) * 0.1).astype(np.float32))
    b = tf.constant((rng.standard_normal(units) * 0.1).astype(np.float32))
    return tf.nn.bias_add(tf.matmul(x, w), b)


def _residual_gelu(fetch_product=False):
    x = tf.placeholder(tf.float32, [None, 256], name="x")
    h = tf.placeholder(tf.float32, [None, 256], name="h")
    inner = _dense(x, 512, 1)
    gelu = 0.5 * inner * tf.math.erfc(-inner * 0.7071067811865476)
    out = _dense(gelu, 256, 2) + h
    return [x, h], [out, inner] if fetch_product else [out]


def _run(build, feeds, enabled, monkeypatch, threads):
    monkeypatch.setattr(epilogue_steps, "ENABLED", enabled)
    graph = tf.Graph()
    with graph.as_default():
        placeholders, fetches = build()
        config = tf.ConfigProto(intra_op_parallelism_threads=threads)
        with tf.Session(graph=graph, config=config) as sess:
            return sess.run(fetches, dict(zip(placeholders, feeds)))


def _same_bits(got, expected):
    for a, b in zip(got, expected):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


def _inputs(rows):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((rows, 256)) * 2).astype(np.float32)
    x[3, :5] = [np.nan, np.inf, -np.inf, 0.0, 1e-40]
    return [x, rng.standard_normal((rows, 256)).astype(np.float32)]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("rows", [1027, 300])
def test_a_gelu_and_a_residual_add_on_the_rows_give_the_steps_bits(chained, monkeypatch,
                                                                   threads, rows):
    feeds = _inputs(rows)
    got = _run(_residual_gelu, feeds, True, monkeypatch, threads)
    assert chained and all(chained), "no product ran its chain on its rows"
    chained.clear()
    _same_bits(got, _run(_residual_gelu, feeds, False, monkeypatch, threads))
    assert not chained


def test_a_fetched_product_runs_as_before(chained, monkeypatch):
    feeds = _inputs(300)
    got = _run(lambda: _residual_gelu(fetch_product=True), feeds, True, monkeypatch, 2)
    assert len(chained) == 1  # the second product's residual add only
    _same_bits(got, _run(lambda: _residual_gelu(fetch_product=True), feeds, False,
                         monkeypatch, 2))


def test_a_small_product_takes_the_steps(chained, monkeypatch):
    feeds = _inputs(8)  # 8 x 512: below the size from which a chain's loop runs
    got = _run(_residual_gelu, feeds, True, monkeypatch, 2)
    assert chained == [False, False]
    _same_bits(got, _run(_residual_gelu, feeds, False, monkeypatch, 2))


def test_a_bad_product_is_named_by_its_node(monkeypatch):
    monkeypatch.setattr(epilogue_steps, "ENABLED", True)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None, None], name="x")
        out = _dense(x, 64, 3, inputs=256) + 1.0
        with tf.Session(graph=graph) as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="MatMul|BiasAdd"):
                sess.run(out, {x: np.ones((128, 7), np.float32)})


def test_a_bad_chain_after_a_product_is_named_by_its_own_node(monkeypatch):
    monkeypatch.setattr(epilogue_steps, "ENABLED", True)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None, 256], name="x")
        h = tf.placeholder(tf.float32, [None, None], name="h")
        out = tf.add(_dense(x, 64, 4), h, name="residual")
        with tf.Session(graph=graph) as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as raised:
                sess.run(out, {x: np.ones((300, 256), np.float32),
                               h: np.ones((300, 32), np.float32)})
    assert raised.value.node_def.name == "residual"
