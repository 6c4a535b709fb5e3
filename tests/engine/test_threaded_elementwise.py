"""Large elementwise ops and Softmax split over the intra-op threads: the unsplit NumPy call's
values, dtype and layout, bit for bit (engine/kernels/cpu/threaded_elementwise.py)."""

import threading
import warnings

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu import nn, threaded_elementwise
from engine.runtime import threads

UFUNCS = [np.add, np.subtract, np.multiply, np.divide]


@pytest.fixture
def pieces(monkeypatch):
    """A budget of two threads, and how many pieces each call on this thread was cut into."""
    counts = []
    run_pieces = threads.parallel_for
    test_thread = threading.current_thread()

    def counting(fn, total, min_per_piece=1 << 13):
        if threading.current_thread() is not test_thread:  # a compiled module warming up
            return run_pieces(fn, total, min_per_piece)
        calls = []
        run_pieces(lambda start, end: (calls.append((start, end)), fn(start, end)), total,
                   min_per_piece)
        counts.append(len(calls))

    monkeypatch.setattr(threads, "parallel_for", counting)
    monkeypatch.setattr(threads, "budget", lambda: 2)
    return counts


def _same(got, expected):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    np.testing.assert_array_equal(got, expected)


def _softmax_reference(logits):
    exp = np.exp(logits - np.max(logits, axis=-1, keepdims=True))
    return exp / np.sum(exp, axis=-1, keepdims=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ufunc", UFUNCS)
def test_bert_sized_operands_split_with_the_unsplit_bits(pieces, dtype, ufunc):
    rng = np.random.default_rng(2)
    # GELU's product by a scalar, a bias, layer norm's [8, 128, 1] statistics, the mask's bias
    cases = [((1024, 3072), ()), ((1024, 3072), (3072,)), ((8, 128, 768), (8, 128, 1)),
             ((8, 12, 128, 128), (8, 1, 1, 128)), ((8, 128, 768), (8, 128, 768))]
    for big, small in cases:
        x = rng.standard_normal(big).astype(dtype)
        y = (rng.standard_normal(small) + 2.0).astype(dtype)
        if not small:
            y = dtype(y)  # a NumPy scalar, as a Const's 0-d value may be
        _same(threaded_elementwise.ufunc_call(ufunc, x, y), ufunc(x, y))
        _same(threaded_elementwise.ufunc_call(ufunc, y, x), ufunc(y, x))
    assert len(pieces) == 2 * len(cases) and min(pieces) >= 2


def test_negation_and_in_place_bias_split(pieces):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1024, 3072), dtype=np.float32)
    _same(threaded_elementwise.ufunc_call(np.negative, x), np.negative(x))
    bias = rng.standard_normal(3072, dtype=np.float32)
    expected = x + bias
    assert threaded_elementwise.ufunc_call(np.add, x, bias, out=x) is x
    _same(x, expected)
    assert len(pieces) == 2


def test_tiny_shapes_split_at_a_tiny_threshold(pieces, monkeypatch):
    monkeypatch.setattr(threaded_elementwise, "MIN_ELEMENTS", 4)
    rng = np.random.default_rng(6)
    for shape, other in [((5, 7), (7,)), ((9,), ()), ((3, 2, 5), (3, 1, 5)), ((2, 1), (2, 1))]:
        x = rng.standard_normal(shape)
        y = rng.standard_normal(other)
        for ufunc in UFUNCS:
            _same(threaded_elementwise.ufunc_call(ufunc, x, y), ufunc(x, y))
    logits = rng.standard_normal((7, 3)).astype(np.float32)
    _same(threaded_elementwise.rows(nn._softmax_rows, logits), _softmax_reference(logits))
    assert pieces and min(pieces) >= 2


def test_what_is_not_split_is_numpys_own_call(pieces):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((1024, 3072), dtype=np.float32)
    transposed = x.T  # laid out column by column: NumPy keeps that layout
    _same(threaded_elementwise.ufunc_call(np.multiply, transposed, np.float32(2)),
          np.multiply(transposed, np.float32(2)))
    wider = rng.standard_normal(3072)  # float64: the result is float64 too
    _same(threaded_elementwise.ufunc_call(np.add, x, wider), np.add(x, wider))
    ints = np.arange(1 << 20, dtype=np.int64).reshape(1024, -1)
    _same(threaded_elementwise.ufunc_call(np.multiply, ints, ints), ints * ints)
    small = x[:8, :8].copy()
    _same(threaded_elementwise.ufunc_call(np.add, small, small), small + small)
    _same(threaded_elementwise.ufunc_call(np.maximum, x, x), np.maximum(x, x))  # not listed
    wide = rng.standard_normal((1, 1 << 20), dtype=np.float32)  # one row: nothing to cut
    _same(threaded_elementwise.ufunc_call(np.add, wide, wide), wide + wide)
    with pytest.raises(ValueError):
        threaded_elementwise.ufunc_call(np.add, x, x[:, :5].copy())
    assert threaded_elementwise.rows(nn._softmax_rows, transposed) is None
    assert pieces == []


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_rows_give_the_unsplit_bits(pieces, dtype):
    rng = np.random.default_rng(10)
    scores = (rng.standard_normal((8, 12, 128, 128)) * 4).astype(dtype)
    scores[..., 112:] += dtype(-10000.0)  # the attention mask's padding
    _same(threaded_elementwise.rows(nn._softmax_rows, scores), _softmax_reference(scores))
    odd = rng.standard_normal((6001, 97)).astype(dtype)  # rows that do not divide evenly
    _same(threaded_elementwise.rows(nn._softmax_rows, odd), _softmax_reference(odd))
    assert len(pieces) == 2 and min(pieces) >= 2


def test_ops_run_split_in_a_session(pieces):
    rng = np.random.default_rng(12)
    x = rng.standard_normal((1024, 3072), dtype=np.float32)
    # (float64: float32 Softmax is TensorFlow's, compiled, test_reduce_order.py)
    scores = rng.standard_normal((8, 12, 128, 128), dtype=np.float64)
    with tf.Graph().as_default(), tf.Session() as sess:
        product = tf.constant(x) * 0.5
        negated = -tf.constant(x)
        softmax = tf.nn.softmax(tf.constant(scores))
        got = sess.run([product, negated, softmax])
    _same(got[0], x * np.float32(0.5))
    _same(got[1], -x)
    _same(got[2], _softmax_reference(scores))
    assert len(pieces) >= 3


def test_pieces_keep_the_callers_floating_point_error_state(pieces):
    # A session runs its kernels under np.errstate(all="ignore"): an overflow in a piece on a
    # pool thread must be as silent as in the one unsplit call, and raise where that would.
    huge = np.full((1024, 3072), 3e38, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="ignore"):
            got = threaded_elementwise.ufunc_call(np.multiply, huge, np.float32(10))
        assert np.isinf(got).all()
        with np.errstate(over="raise"), pytest.raises(FloatingPointError):
            threaded_elementwise.ufunc_call(np.multiply, huge, np.float32(10))
    assert pieces and min(pieces) >= 2  # (the raising call's count is never noted)
