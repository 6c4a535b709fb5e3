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
values. A batched product is one BLAS call per matrix either way. tests/engine/
test_threaded_matmul.py checks both against the unsplit call.
"""

import numpy as np

from engine.runtime import threads

# A multiple of every microkernel's row block measured (OpenBLAS sgemm/dgemm: 4, 8, 16, 24).
ROW_GRANULE = 48
# Below this many multiply-adds a product stays one call: handing pieces to threads costs
# tens of microseconds on a busy machine (bench.bert_signature; a 1024x768x768 product is 600M).
MIN_MACS = 1 << 24
_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _split_worth_it(a, b, macs):
    # NumPy calls syrk for a matrix times its own transpose, gemv for a vector: a piece would
    # call gemm instead, with other sums; those stay one call.
    return (macs >= MIN_MACS and a.dtype == b.dtype and a.dtype in _DTYPES
            and min(a.shape[-1], b.shape[-1]) > 1 and not np.may_share_memory(a, b)
            and threads.budget() > 1 and threads.blas_threads() == 1)


def matmul(a, b):
    """np.matmul(a, b) of two matrices (views welcome), split by rows when that pays."""
    rows, inner = a.shape
    columns = b.shape[1]
    if rows < 2 * ROW_GRANULE or not _split_worth_it(a, b, rows * inner * columns):
        return np.matmul(a, b)
    out = np.empty((rows, columns), a.dtype)
    # A block of one row would be a vector times a matrix, which NumPy hands to gemv (other
    # sums): a lone last row joins the block before it.
    granules = max(1, rows // ROW_GRANULE if rows % ROW_GRANULE == 1 else -(-rows // ROW_GRANULE))

    def block(first, last):
        start, stop = first * ROW_GRANULE, rows if last == granules else last * ROW_GRANULE
        np.matmul(a[start:stop], b, out=out[start:stop])

    # Two pieces a thread: each piece packs all of b again, so fewer pieces pay where the
    # threads get their cores, and two still let one thread take over a stalled one's half.
    threads.parallel_for(block, granules, min_per_piece=max(1, granules // (2 * threads.budget())))
    return out


def batch_matmul(x, y):
    """np.matmul(x, y) of stacks of matrices of one batch shape (views welcome), split over
    the first batch axis when that pays; other stacks (broadcast batches) are one call."""
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
