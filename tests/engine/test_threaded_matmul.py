"""Large MatMul and BatchMatMul split over the intra-op threads: the unsplit call's bits, any
budget and pieces a thread, both operands transposed or not; _FusedMatMul's bias and
activation applied to each row block as it is made: the unsplit kernel's bits
(engine/kernels/cpu/threaded_matmul.py, fused_contraction.py)."""

import threading

import numpy as np
import pytest

import engine as tf
from engine.framework import dtypes, errors
from engine.kernels.context import KernelContext
from engine.kernels.cpu import fused_contraction, math, threaded_matmul
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime import threads
from engine.runtime.resources import ResourceMgr


class _FixedPace:
    """threaded_matmul._pace with the pieces a thread the test sets, whatever the timings."""

    def __init__(self):
        self.spread = 1
        self.observed = 0

    def pieces_per_thread(self):
        return self.spread

    def observe(self, began, finished):
        self.observed += 1


@pytest.fixture
def budget(monkeypatch):
    """Set the thread budget as a default session does (BLAS held to one thread), and the
    pieces a thread (`set_budget(count, spread)`), and see how many pieces each product was
    cut into."""
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
    pace = _FixedPace()
    monkeypatch.setattr(threaded_matmul, "_pace", pace)

    def set_budget(count, spread=1):
        monkeypatch.setattr(threads, "budget", lambda: count)
        pace.spread = spread
        return pieces

    yield set_budget


def _matrices(rng, dtype, m, k, n, transpose_a, transpose_b):
    a = rng.standard_normal((k, m) if transpose_a else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if transpose_b else (k, n)).astype(dtype)
    return (a.T if transpose_a else a), (b.T if transpose_b else b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("transpose_a,transpose_b", [(False, False), (True, False),
                                                     (False, True), (True, True)])
@pytest.mark.parametrize("count,spread", [(2, 1), (2, 2), (3, 1), (3, 2)])
def test_row_blocks_give_the_unsplit_bits(budget, monkeypatch, dtype, transpose_a,
                                          transpose_b, count, spread):
    pieces = budget(count, spread)
    monkeypatch.setattr(threaded_matmul, "MIN_MACS", 1)
    rng = np.random.default_rng(7)
    # Row counts that are and are not multiples of the granule; one row past a granule
    # (joined to the block before it: alone it would go to gemv).
    for m, k, n in [(1024, 256, 96), (1001, 200, 130), (97, 1500, 120), (145, 64, 300),
                    (49, 300, 64)]:
        a, b = _matrices(rng, dtype, m, k, n, transpose_a, transpose_b)
        expected = np.matmul(a, b)
        got = threaded_matmul.matmul(a, b)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
    assert pieces and min(pieces) >= 2


@pytest.mark.parametrize("spread", [1, 2])
def test_bert_sized_products_are_split_and_exact(budget, spread):
    pieces = budget(2, spread)
    rng = np.random.default_rng(3)
    for m, k, n in [(1024, 768, 768), (1024, 768, 3072), (1024, 3072, 768)]:
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = (rng.standard_normal((k, n), dtype=np.float32) * 0.02).astype(np.float32)
        np.testing.assert_array_equal(threaded_matmul.matmul(a, b), np.matmul(a, b))
    assert pieces == [2 * spread] * 3


def test_a_thread_takes_one_piece_until_one_falls_behind(monkeypatch):
    pace = threaded_matmul._Pace()
    assert pace.pieces_per_thread() == 1
    pace.observe(0.0, {1: 10.0, 2: 10.5})  # 5% apart: kept pace
    assert pace.pieces_per_thread() == 1
    pace.observe(0.0, {1: 10.0})  # the caller did every piece: nothing learnt
    assert pace.pieces_per_thread() == 1
    pace.observe(0.0, {1: 6.0, 2: 10.0})  # one thread idle 40% of the product's time
    assert pace.pieces_per_thread() == threaded_matmul.SPREAD_BEHIND
    for _ in range(threaded_matmul.STRAGGLE_SPAN - 1):
        pace.observe(0.0, {1: 10.0, 2: 10.0})
        assert pace.pieces_per_thread() == threaded_matmul.SPREAD_BEHIND
    pace.observe(0.0, {1: 10.0, 2: 10.0})
    assert pace.pieces_per_thread() == 1


def test_a_product_reports_its_threads_pace(budget):
    budget(2)
    pace = threaded_matmul._pace
    x = np.ones((1024, 1024), np.float32)
    threaded_matmul.matmul(x, x.copy())
    assert pace.observed == 1
    threaded_matmul.matmul(x[:64], x.copy())  # not split
    assert pace.observed == 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("count,spread", [(2, 1), (2, 2), (3, 1)])
def test_an_epilogue_runs_on_each_row_block_once(budget, monkeypatch, dtype, count, spread):
    budget(count, spread)
    monkeypatch.setattr(threaded_matmul, "MIN_MACS", 1)
    rng = np.random.default_rng(4)
    for m, k, n in [(1024, 256, 96), (1001, 200, 130), (97, 150, 120)]:
        a, b = _matrices(rng, dtype, m, k, n, False, True)
        bias = rng.standard_normal(n).astype(dtype)
        blocks = []

        def add_bias(rows):
            blocks.append(rows.shape[0])
            np.add(rows, bias, out=rows)

        got, split = threaded_matmul.matmul_epilogue(a, b, add_bias)
        expected = np.matmul(a, b)
        np.add(expected, bias, out=expected)
        assert split and sum(blocks) == m and len(blocks) >= 2
        np.testing.assert_array_equal(got, expected)
    small, called = np.ones((64, 64), dtype), len(blocks)
    got, split = threaded_matmul.matmul_epilogue(small, small.copy(), add_bias)
    assert not split and len(blocks) == called  # not split: the epilogue is the caller's
    np.testing.assert_array_equal(got, np.matmul(small, small))


def _fused(dtype, fused_ops, transpose_a=False, transpose_b=False, alpha=None):
    node = NodeDef(name="fused", op="_FusedMatMul")
    node.attr["T"].type = dtypes.as_dtype(dtype).as_datatype_enum
    node.attr["fused_ops"].list.s.extend(op.encode() for op in fused_ops)
    node.attr["transpose_a"].b = transpose_a
    node.attr["transpose_b"].b = transpose_b
    if alpha is not None:
        node.attr["leakyrelu_alpha"].f = alpha
    return KernelContext(node, [dtypes.as_dtype(dtype)], ResourceMgr())


WHOLE_ACTIVATIONS = {None: lambda x: x, "Relu": math.relu, "Relu6": math.relu6,
                     "Elu": math.elu,
                     "LeakyRelu": lambda x: np.where(x > 0, x, x * x.dtype.type(0.25))}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("activation", [None, "Relu", "Relu6", "Elu", "LeakyRelu"])
@pytest.mark.parametrize("transpose_a,transpose_b", [(False, False), (True, True)])
@pytest.mark.parametrize("count,spread", [(2, 1), (3, 2)])
def test_fused_matmul_by_row_blocks_gives_the_whole_products_bits(
        budget, monkeypatch, dtype, activation, transpose_a, transpose_b, count, spread):
    pieces = budget(count, spread)
    monkeypatch.setattr(threaded_matmul, "MIN_MACS", 1)
    rng = np.random.default_rng(12)
    ops = ["BiasAdd"] + ([activation] if activation else [])
    kernel = fused_contraction.fused_mat_mul
    for m, k, n in [(1024, 96, 256), (1001, 130, 200), (97, 120, 64)]:
        a = rng.standard_normal((k, m) if transpose_a else (m, k)).astype(dtype)
        b = rng.standard_normal((n, k) if transpose_b else (k, n)).astype(dtype) * 3
        bias = rng.standard_normal(n).astype(dtype)
        bias[:5] = [np.nan, np.inf, -np.inf, -0.0, 1e30]
        ctx = _fused(dtype, ops, transpose_a, transpose_b, 0.25 if activation == "LeakyRelu"
                     else None)
        before = len(pieces)
        with np.errstate(all="ignore"):  # as in a session (Elu's expm1 of 1e30 overflows)
            got = kernel(ctx, a, b, bias)
            assert len(pieces) == before + 1  # split, the bias added block by block
            product = np.matmul(a.T if transpose_a else a, b.T if transpose_b else b)
            expected = WHOLE_ACTIVATIONS[activation](product + bias)
            monkeypatch.setattr(threads, "budget", lambda: 1)  # the whole product's path
            whole = kernel(ctx, a, b, bias)
            monkeypatch.setattr(threads, "budget", lambda: count)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(whole, got)


def test_fused_matmul_errors_are_the_unsplit_kernels(budget, monkeypatch):
    budget(2)
    monkeypatch.setattr(threaded_matmul, "MIN_MACS", 1)
    a, b = np.ones((256, 64), np.float32), np.ones((64, 32), np.float32)
    with pytest.raises(errors.InvalidArgumentError, match="as many biases"):
        fused_contraction.fused_mat_mul(_fused(np.float32, ["BiasAdd"]), a, b,
                                        np.ones(31, np.float32))
    with pytest.raises(errors.InvalidArgumentError, match="Unsupported fusion"):
        fused_contraction.fused_mat_mul(_fused(np.float32, ["BiasAdd", "Tanh"]), a, b,
                                        np.ones(32, np.float32))
    with pytest.raises(errors.UnimplementedError):
        fused_contraction.fused_mat_mul(_fused(np.float32, ["Relu"]), a, b,
                                        np.ones(32, np.float32))
    with pytest.raises(errors.InvalidArgumentError, match="size-incompatible"):
        fused_contraction.fused_mat_mul(_fused(np.float32, ["BiasAdd"]), a, b.T,
                                        np.ones(32, np.float32))
    # a float64 bias on a float32 product: promoted over the whole product, as before
    got = fused_contraction.fused_mat_mul(_fused(np.float32, ["BiasAdd"]), a, b,
                                          np.full(32, 0.5))
    assert got.dtype == np.float64 and np.all(got == 64.5)


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
