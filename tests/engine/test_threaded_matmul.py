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
@pytest.mark.parametrize("count", [2, 3, 4])
def test_row_blocks_give_the_unsplit_bits(budget, monkeypatch, dtype, transpose_a,
                                          transpose_b, count):
    pieces = budget(count)
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


def test_bert_sized_products_are_split_and_exact(budget):
    pieces = budget(2)
    rng = np.random.default_rng(3)
    for m, k, n in [(1024, 768, 768), (1024, 768, 3072), (1024, 3072, 768)]:
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = (rng.standard_normal((k, n), dtype=np.float32) * 0.02).astype(np.float32)
        np.testing.assert_array_equal(threaded_matmul.matmul(a, b), np.matmul(a, b))
    assert pieces == [2, 2, 2]  # one a thread: each packs all of b


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("count", [2, 3])
def test_an_epilogue_runs_on_each_row_block_once(budget, monkeypatch, dtype, count):
    budget(count)
    monkeypatch.setattr(threaded_matmul, "MIN_MACS", 1)
    rng = np.random.default_rng(4)
    for m, k, n in [(1024, 256, 96), (1001, 200, 130), (97, 250, 120)]:
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
@pytest.mark.parametrize("count", [2, 3])
def test_fused_matmul_by_row_blocks_gives_the_whole_products_bits(
        budget, monkeypatch, dtype, activation, transpose_a, transpose_b, count):
    pieces = budget(count)
    monkeypatch.setattr(threaded_matmul, "MIN_MACS", 1)
    rng = np.random.default_rng(12)
    ops = ["BiasAdd"] + ([activation] if activation else [])
    kernel = fused_contraction.fused_mat_mul
    for m, k, n in [(1024, 96, 256), (1001, 130, 200), (97, 200, 128)]:
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


def test_a_batch_of_one_splits_over_the_next_axis(budget):
    pieces = budget(2)
    rng = np.random.default_rng(8)
    for dtype in (np.float32, np.float64):
        # one sequence's attention: [1, heads, positions, depth], views of transposed tensors
        q = rng.standard_normal((1, 256, 12, 64)).astype(dtype).transpose(0, 2, 1, 3)
        k = rng.standard_normal((1, 256, 12, 64)).astype(dtype).transpose(0, 2, 3, 1)
        got = threaded_matmul.batch_matmul(q, k)
        expected = np.matmul(q, k)
        assert got.shape == expected.shape == (1, 12, 256, 256)
        np.testing.assert_array_equal(got, expected)
        scores = rng.standard_normal((1, 1, 12, 256, 256)).astype(dtype)
        values = rng.standard_normal((1, 1, 12, 256, 64)).astype(dtype)
        np.testing.assert_array_equal(threaded_matmul.batch_matmul(scores, values),
                                      np.matmul(scores, values))
    assert pieces == [8, 8, 8, 8]  # 12 heads over 2 threads, at most 4 pieces a thread


def test_pieces_keep_clear_of_the_small_matrix_kernels(budget, monkeypatch):
    pieces = budget(16)
    monkeypatch.setattr(threaded_matmul, "MIN_MACS", 1)
    rng = np.random.default_rng(6)
    for m, k, n, most in [(960, 100, 100, 6), (1024, 768, 768, 16), (145, 160, 300, 3),
                          (480, 40, 50, 1), (190, 100, 100, 1), (190, 200, 100, 2)]:
        a, b = _matrices(rng, np.float32, m, k, n, False, False)
        blocks = []
        got, split = threaded_matmul.matmul_epilogue(a, b, lambda rows: blocks.append(len(rows)))
        np.testing.assert_array_equal(got, np.matmul(a, b))
        assert len(blocks) == (most if split else 0) and split == (most > 1)
        assert all(rows * k * n > threaded_matmul.SMALL_GEMM_MACS for rows in blocks)


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


_OTHER_KERNELS = """
import numpy as np
from engine.kernels.cpu import threaded_matmul
from engine.runtime import threads
threads.configure(0)
threaded_matmul.MIN_MACS = 1
rng = np.random.default_rng(2)
for count in (2, 3, 16):
    threads.budget = lambda: count
    for dtype in (np.float32, np.float64):
        # 960x100x100 in pieces of 96 rows or fewer would reach the small-matrix kernels
        for m, k, n in [(1024, 768, 768), (1001, 200, 130), (145, 160, 300), (960, 100, 100),
                        (480, 200, 100)]:
            for ta in (False, True):
                a = rng.standard_normal((k, m) if ta else (m, k)).astype(dtype)
                b = rng.standard_normal((k, n)).astype(dtype)
                a = a.T if ta else a
                bias = rng.standard_normal(n).astype(dtype)
                got, split = threaded_matmul.matmul_epilogue(
                    a, b, lambda rows: np.add(rows, bias, out=rows))
                expected = np.matmul(a, b)
                np.add(expected, bias, out=expected)
                assert split and np.array_equal(got, expected), (count, dtype, m, k, n, ta)
print("same bits")
"""


@pytest.mark.parametrize("coretype", ["Haswell", "SkylakeX"])
def test_row_blocks_keep_the_bits_on_other_blas_kernels(coretype):
    """OpenBLAS picks its kernels once, when loaded: each kernel set in a process of its own."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    needs = {"Haswell": "avx2", "SkylakeX": "avx512f"}[coretype]
    if f" {needs}" not in flags:
        pytest.skip(f"this CPU has no {needs}")
    env = dict(os.environ, OPENBLAS_CORETYPE=coretype)
    env.pop("OPENBLAS_L2_SIZE", None)
    done = subprocess.run([sys.executable, "-c", _OTHER_KERNELS], env=env, capture_output=True,
                          text=True, timeout=300, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0 and "same bits" in done.stdout, done.stderr[-2000:]
