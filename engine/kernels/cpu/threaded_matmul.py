"""Large matrix products split over the intra-op threads, each piece one single-threaded BLAS call.

NumPy's BLAS is held to one thread (engine/runtime/threads.py), so a large MatMul would use one
core where TensorFlow uses its whole intra-op pool. Here a product of at least MIN_MACS
multiply-adds is cut into row blocks that `threads.parallel_for` hands to its threads, each
block `np.matmul(a[rows], b, out=out[rows])` (NumPy releases the GIL inside BLAS); a batched
product of as many is cut over its batch. Pieces are taken as threads come free, so on a busy
machine the caller does them alone at the unsplit call's speed.

The values are the unsplit call's, bit for bit. A BLAS microkernel computes a block of rows
of C at a time, and the rows of a last, partial block go through another kernel whose sums
round differently (OpenBLAS's Haswell sgemm: blocks of 24 rows; SkylakeX's: 16). A row block
that starts at a multiple of ROW_GRANULE rows starts where the unsplit call starts a
microkernel block, so every row goes through the same kernel, its sums in the same order:
measured on OpenBLAS 0.3.31's Haswell and SkylakeX kernels (float32 and float64, either
operand transposed), while a cut at half of 1024 rows changed 0.6% of a Haswell product's
values. And every piece keeps more than SMALL_GEMM_MACS multiply-adds: OpenBLAS's SkylakeX
kernels send a product of at most 100^3 to their small-matrix kernels, which round other
sums (a 960x100x100 product in pieces of 48 or 96 rows: 3.4% of its values changed, float32
and float64; none in pieces of 192). A batched product is one BLAS call per matrix either
way. tests/engine/test_threaded_matmul.py checks both against the unsplit call, on the
Haswell and the SkylakeX kernels.

What does not keep the bits (OpenBLAS 0.3.31, measured on AMD Zen 5, 2 cores, 2026-11-28):
- OpenBLAS's own threads (openblas_set_num_threads(2) around the call): on the Haswell kernels
  3% to 70% of a float32 product's values differ from one thread's (1024x768x3072: 4.4%),
  float64 too; on SkylakeX the BERT shapes kept their bits but 1000x999x1003 changed 75% of
  them. Its helper threads also spin after each call, on the cores the intra-op threads
  need (a row split right after a 2-thread call ran at one core's speed).
- Column blocks (b[:, cols]): Haswell's sgemm rounds columns differently once the product
  is narrower (1.4% to 4.7% of a 1024x768x3072 product's values, wherever the cut, from 4
  to 512 columns), so a piece cannot share a's packing that way.

How many pieces: one a thread. Each piece packs all of b again (OpenBLAS's own threads share
one packing), about 0.4 ms of one core for b of 768x3072 float32, 0.06 ms for 768x768, which
is all a split costs beyond the threads' start. Measured on a quiet 2-core Zen 5 (SkylakeX
kernels, 8 alternating runs): 1024x768x3072 float32 in 2 pieces 10.4-10.8 ms (OpenBLAS's own
2 threads 10.5 ms, one thread 19.6 ms), in 4 pieces 11.6-12.5 ms, in 3 pieces 14.1-15.3 ms
(one thread does two); 1024x768x768 2.6 ms in 2, 2.9 ms in 4 (own 2 threads 2.5 ms). Smaller
pieces did not pay beside other processes either (medians of 40 alternating runs with one
busy process beside them: 31.0 ms in 2 pieces, 33.0 in 4, 34.5 in 6, one thread 39.6; with
two: 42.2, 44.7, 44.4, 52.2), as the scheduler shares the cores out evenly, and a piece no
thread has started yet is still the caller's to take.

A fused BiasAdd (engine/kernels/cpu/fused_contraction.py) is added by `matmul_epilogue` to
each row block right after the block's product, while the block is in the core's cache,
rather than in a second pass over the whole product: the same elementwise op on the same
values, so the same bits. Quiet 2-core Zen 5, medians of 10-22 alternating runs: 1024x768x3072
float32 with its bias 11.2 ms against 11.5 ms for the product and a split second pass (the
product alone 10.9 ms); 1024x3072x768 10.57 against 10.72 ms (10.53 ms).
"""

import numpy as np

from engine.runtime import threads

# A multiple of every microkernel's row block measured (OpenBLAS sgemm/dgemm: 4, 8, 16, 24).
ROW_GRANULE = 48
# Below this many multiply-adds a product stays one call: handing pieces to threads costs
# tens of microseconds on a busy machine (bench.bert_signature; a 1024x768x768 product is 600M).
MIN_MACS = 1 << 24
# OpenBLAS's small-matrix kernels (SkylakeX sgemm and dgemm, 0.3.31) take a product of at most
# this many multiply-adds: a piece has more, so that it goes where its whole product goes.
SMALL_GEMM_MACS = 100 ** 3
_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _split_worth_it(a, b, macs):
    # NumPy calls syrk for a matrix times its own transpose, gemv for a vector: a piece would
    # call gemm instead, with other sums; those stay one call.
    return (macs >= MIN_MACS and a.dtype == b.dtype and a.dtype in _DTYPES
            and min(a.shape[-1], b.shape[-1]) > 1 and not np.may_share_memory(a, b)
            and threads.budget() > 1 and threads.blas_threads() == 1)


def matmul(a, b):
    """np.matmul(a, b) of two matrices (views welcome), split by rows when that pays."""
    return matmul_epilogue(a, b, None)[0]


def matmul_epilogue(a, b, epilogue, out=None, then=None):
    """(np.matmul(a, b), split) of two matrices, split by rows when that pays; where it is
    split and `epilogue` is given, epilogue(rows) runs on each row block of the product (a
    view, to change in place) right after the block's product, on the thread that made it,
    and then then(start, stop) (the block's first row and the row after its last), where
    given. Where it is not split (`split` False) the caller applies both to the whole. `out`:
    a C-contiguous array of the product's shape and dtype to write it into."""
    rows, inner = a.shape
    columns = b.shape[1]
    if rows < 2 * ROW_GRANULE or not _split_worth_it(a, b, rows * inner * columns):
        return np.matmul(a, b, out=out), False
    if out is None:
        out = np.empty((rows, columns), a.dtype)
    # A block of one row would be a vector times a matrix, which NumPy hands to gemv (other
    # sums): a lone last row joins the block before it.
    granules = max(1, rows // ROW_GRANULE if rows % ROW_GRANULE == 1 else -(-rows // ROW_GRANULE))
    pieces = min(granules, threads.budget())
    while True:
        bounds = [granules * i // pieces * ROW_GRANULE for i in range(pieces)] + [rows]
        smallest = min(stop - start for start, stop in zip(bounds, bounds[1:]))
        if smallest * inner * columns > SMALL_GEMM_MACS:
            break
        pieces -= 1
        if pieces == 1:
            return np.matmul(a, b, out=out), False

    def block(first, last):
        for piece in range(first, last):
            start, stop = bounds[piece], bounds[piece + 1]
            np.matmul(a[start:stop], b, out=out[start:stop])
            if epilogue is not None:
                epilogue(out[start:stop])
            if then is not None:
                then(start, stop)

    threads.parallel_for(block, pieces, min_per_piece=1)
    return out, True


def batch_matmul(x, y):
    """np.matmul(x, y) of stacks of matrices of one batch shape (views welcome), split over
    the first batch axis longer than 1 when that pays (attention's [1, heads, ...] of one
    sequence over its heads); other stacks (broadcast batches) are one call. Each matrix is
    one BLAS call either way. 2-core Zen 5: BERT's [8, 12, 128, 64] @ [8, 12, 64, 128]
    0.71 ms split against 1.18 ms; one sequence's [1, 12, 256, 64] @ [1, 12, 64, 256] 0.37 ms
    against 0.50 ms when it was one call (512 positions: 1.21 against 1.89 ms)."""
    if x.ndim > 3 and x.shape[0] == 1 and y.ndim == x.ndim and y.shape[0] == 1:
        return batch_matmul(x[0], y[0])[np.newaxis]
    if (x.ndim >= 3 and x.flags.c_contiguous and all(d == 1 for d in y.shape[:-2])
            and y.ndim <= x.ndim):
        # One matrix for the whole stack (a Dense layer, an attention projection, on a
        # [batch, tokens, features] input): one product of the stack's rows, as one call
        # (split by rows) rather than one call per matrix (NumPy's broadcast loop). A small
        # Keras encoder's four [32, 64, 256] @ [256, 256] projections: 1.4 ms each so.
        rows = matmul(x.reshape(-1, x.shape[-1]), y.reshape(y.shape[-2:]))
        return rows.reshape(x.shape[:-1] + y.shape[-1:])
    if x.ndim < 3 or x.shape[:-2] != y.shape[:-2] or x.shape[0] < 2:
        return np.matmul(x, y)
    macs = int(np.prod(x.shape, dtype=np.int64)) * y.shape[-1]
    if not _split_worth_it(x, y, macs):
        return np.matmul(x, y)
    out = np.empty(x.shape[:-1] + y.shape[-1:], x.dtype)

    def block(first, last):  # slices of the first axis keep the matrices' own strides
        np.matmul(x[first:last], y[first:last], out=out[first:last])

    threads.parallel_for(block, x.shape[0], min_per_piece=1)
    return out
