"""Large MatMul and BatchMatMul split over the intra-op threads: the unsplit call's bits, any
budget, both operands transposed or not (engine/kernels/cpu/threaded_matmul.py)."""

import threading

import numpy as np
import pytest

import engine as tf
from engine.kernels.cpu import threaded_matmul
from engine.runtime import threads


@pytest.fixture
def budget(monkeypatch):
    """Set the thread budget as a default session does (BLAS held to one thread), and see
    how many pieces each product was cut into."""
    pieces = []
    run_pieces = threads.parallel_for
    test_thread = threading.current_thread()

    def counting(fn, total, min_per_piece=1 << 13):
        if threading.current_thread() is not test_thread:
            # a compiled module warming up in the background (engine/kernels/compiled)
            return run_pieces(fn, total, min_per_piece)
        calls = []
        run_pieces(lambda start, end: (calls.append((start, end)), fn(start, end)), total,
                   min_per_piece)
        pieces.append(len(calls))

    monkeypatch.setattr(threads, "parallel_for", counting)
    threads.configure(0)  # BLAS held to one thread: both sides of every comparison use it

    def set_budget(count):
        monkeypatch.setattr(threads, "budget", lambda: count)
        return pieces

    yield set_budget


def _matrices(rng, dtype, m, k, n, transpose_a, transpose_b):
    a = rng.standard_normal((k, m) if transpose_a else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if transpose_b else (k, n)).astype(dtype)
    return (a.T if transpose_a else a), (b.T if transpose_b else b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("transpose_a,transpose_b", [(False, False), (True, False),
                                                     (False, True), (True, True)])
@pytest.mark.parametrize("count", [2, 3])
def test_row_blocks_give_the_unsplit_bits(budget, monkeypatch, dtype, transpose_a,
                                          transpose_b, count):
    pieces = budget(count)
    monkeypatch.setattr(threaded_matmul, "MIN_MACS", 1)
    rng = np.random.default_rng(7)
    # Row counts that are and are not multiples of the granule; one row past a granule
    # (joined to the block before it: alone it would go to gemv).
    for m, k, n in [(1024, 256, 96), (1001, 200, 130), (97, 1500, 120), (49, 300, 64)]:
        a, b = _matrices(rng, dtype, m, k, n, transpose_a, transpose_b)
        expected = np.matmul(a, b)
        got = threaded_matmul.matmul(a, b)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
    assert pieces and min(pieces) >= 2


def test_bert_sized_products_are_split_and_exact(budget):
    pieces = budget(2)
    rng = np.random.default_rng(3)
    for m, k, n in [(1024, 768, 768), (1024, 768, 3072), (1024, 3072, 768)]:
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = (rng.standard_normal((k, n), dtype=np.float32) * 0.02).astype(np.float32)
        np.testing.assert_array_equal(threaded_matmul.matmul(a, b), np.matmul(a, b))
    assert pieces == [4, 4, 4]


def test_batches_split_over_the_first_axis(budget):
    pieces = budget(2)
    rng = np.random.default_rng(5)
    # Attention's shapes: [batch, heads, positions, depth] views of transposed tensors.
    q = rng.standard_normal((8, 128, 12, 64), dtype=np.float32).transpose(0, 2, 1, 3)
    k = rng.standard_normal((8, 128, 12, 64), dtype=np.float32).transpose(0, 2, 1, 3)
    for keys in (np.swapaxes(k, -1, -2), np.ascontiguousarray(np.swapaxes(k, -1, -2))):
        np.testing.assert_array_equal(threaded_matmul.batch_matmul(q, keys),
                                      np.matmul(q, keys))
    assert pieces == [8, 8]


def test_small_shared_or_mixed_products_stay_one_call(budget):
    pieces = budget(2)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1024, 1024), dtype=np.float32)
    np.testing.assert_array_equal(threaded_matmul.matmul(x, x.T), np.matmul(x, x.T))  # syrk
    small = rng.standard_normal((64, 64), dtype=np.float32)
    threaded_matmul.matmul(small, small.copy())
    tall = rng.standard_normal((1 << 16, 1024), dtype=np.float32)
    threaded_matmul.matmul(tall, rng.standard_normal((1024, 1), dtype=np.float32))  # gemv
    threaded_matmul.matmul(x, x[:, :1].astype(np.float64))  # mixed dtypes
    ints = np.ones((1024, 1024), np.int64)
    threaded_matmul.matmul(ints, ints.copy())
    threaded_matmul.batch_matmul(rng.standard_normal((2, 8, 8)), rng.standard_normal((1, 8, 8)))
    assert pieces == []


def test_a_session_naming_threads_leaves_the_splitting_to_blas(budget):
    pieces = budget(2)
    threads.configure(2)  # intra_op_parallelism_threads: BLAS gets the budget itself
    try:
        x = np.ones((1024, 1024), np.float32)
        threaded_matmul.matmul(x, x.copy())
    finally:
        threads.configure(0)
    assert pieces == []


def test_matmul_op_runs_split_and_matches_numpy(budget):
    pieces = budget(2)
    rng = np.random.default_rng(9)
    a = rng.standard_normal((768, 512), dtype=np.float32)
    b = rng.standard_normal((512, 1024), dtype=np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        product = tf.matmul(tf.constant(a), tf.constant(b), transpose_b=False)
        batched = tf.matmul(tf.constant(a.reshape(6, 128, 512)),
                            tf.constant(b.reshape(2, 512, 512)[:1].repeat(6, axis=0)))
        got, got_batched = sess.run([product, batched])
    np.testing.assert_array_equal(got, np.matmul(a, b))
    np.testing.assert_array_equal(got_batched, np.matmul(
        a.reshape(6, 128, 512), b.reshape(2, 512, 512)[:1].repeat(6, axis=0)))
    assert len(pieces) == 2
