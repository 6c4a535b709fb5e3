"""Sum over a tensor's leading axes compiled with numba, in TensorFlow's order of additions.

A bias gradient written as `Sum(dy, [0, 1, 2])` (a conv layer's `conv + b`, not BiasAdd)
reduces an NHWC tensor to its channels. NumPy's np.sum does it as an outer loop over the rows
and an inner loop over the channels: per row a call of its add loop over 8-64 values, so
32x16x16x8 float32 took 0.27-0.54 ms here where TensorFlow takes 0.004 (a traced conv-net
step, 2026-11-28, `diff --stats`).

The values are TensorFlow's, Eigen's reduction preserving the inner dimension
(engine/kernels/cpu/eigen_reduce.outer_sums, the reference): the columns before `split`
(those Eigen computes in packets) keep four running sums, of rows 0, 4, 8, ..., 1, 5, 9, ...
and so on, the other three added to the first in turn, then the rows past the last multiple
of 4; the columns from `split` on add their rows one after another. Four rows go into one
pass over the columns. A large sum is split over the intra-op threads by columns, which keeps
each column's order; every function here releases the GIL.
"""

import numba
import numpy as np

from engine.runtime import threads

JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")
# A piece of work handed to another thread reads at least this many elements (one read each:
# as BiasAddGrad's, compiled/pool_numba.py).
_MIN_ITEMS_PER_PIECE = 1 << 20


@numba.njit(**JIT)
def _running_sums(x, out, start, end, split):
    """out[start:end] = the sum of x[:, start:end] down the rows in Eigen's order (see the
    module's doc): four running sums for the columns before `split`, one for the others."""
    rows = x.shape[0]
    whole = rows - rows % 4
    four_end = min(max(split, start), end)
    width = four_end - start
    if width > 0:
        s0 = np.zeros(width, x.dtype)
        s1 = np.zeros(width, x.dtype)
        s2 = np.zeros(width, x.dtype)
        s3 = np.zeros(width, x.dtype)
        for r in range(0, whole, 4):
            r0, r1 = x[r, start:four_end], x[r + 1, start:four_end]
            r2, r3 = x[r + 2, start:four_end], x[r + 3, start:four_end]
            for ch in range(width):
                s0[ch] += r0[ch]
                s1[ch] += r1[ch]
                s2[ch] += r2[ch]
                s3[ch] += r3[ch]
        for ch in range(width):
            s0[ch] = ((s0[ch] + s1[ch]) + s2[ch]) + s3[ch]
        for r in range(whole, rows):
            row = x[r, start:four_end]
            for ch in range(width):
                s0[ch] += row[ch]
        out[start:four_end] = s0
    first = max(four_end, start)
    width = end - first
    if width <= 0:
        return
    sums = out[first:end]
    for ch in range(width):
        sums[ch] = 0
    r = 0
    while r + 4 <= rows:
        r0, r1 = x[r, first:end], x[r + 1, first:end]
        r2, r3 = x[r + 2, first:end], x[r + 3, first:end]
        for ch in range(width):
            sums[ch] = (((sums[ch] + r0[ch]) + r1[ch]) + r2[ch]) + r3[ch]
        r += 4
    for r in range(r, rows):
        row = x[r, first:end]
        for ch in range(width):
            sums[ch] += row[ch]


@numba.njit(**JIT)
def _has_tiny(bits, magnitude, safe):
    """Whether a value is nonzero and below `safe` in magnitude, read from the values' bits
    (`magnitude`: the mask that drops the sign; `safe`: the bits of the bound): the bits
    less one, unsigned, are below safe - 1 exactly then (zero wraps to the largest)."""
    one = bits.dtype.type(1)
    lowest = magnitude
    for i in range(bits.shape[0]):
        v = (bits[i] & magnitude) - one
        lowest = v if v < lowest else lowest
    return lowest < safe - one


_FLOAT_BITS = {np.dtype(np.float32): (np.uint32, 0x7FFFFFFF, 2.0 ** -103),
               np.dtype(np.float64): (np.uint64, 0x7FFFFFFFFFFFFFFF, 2.0 ** -970)}


def leading_sum(x, count, split):
    """The sum of the C-contiguous `x` over its first `count` axes (a tensor of the others),
    the flat columns before `split` with four running sums (the module's doc); None where a
    value is nonzero and small enough to make a denormal (float32 below 2**-103, float64
    below 2**-970), whose sums TensorFlow's FTZ/DAZ flushes: the reference does those."""
    unsigned, magnitude, safe = _FLOAT_BITS[x.dtype]
    if _has_tiny(x.reshape(-1).view(unsigned), unsigned(magnitude),
                 np.array(safe, x.dtype).view(unsigned)):
        return None
    rows = x.reshape(int(np.prod(x.shape[:count], dtype=np.int64)), -1)
    out = np.empty(rows.shape[1], x.dtype)
    columns = rows.shape[1]
    if rows.size < 2 * _MIN_ITEMS_PER_PIECE:  # one piece: no threads' bookkeeping
        _running_sums(rows, out, 0, columns, split)
    else:
        threads.parallel_for(lambda start, end: _running_sums(rows, out, start, end, split),
                             columns, max(1, _MIN_ITEMS_PER_PIECE // rows.shape[0]))
    return out.reshape(x.shape[count:])


_LANES = 16  # one AVX-512 register of float32: the running maxima of a row


@numba.njit(inline="always", nogil=True, boundscheck=False, error_model="numpy")
def _row_max(row, lanes):
    """np.max of a row (NaN if it has one), in _LANES running maxima: selects LLVM
    vectorises. Only a zero maximum's sign may differ from np.max's."""
    n = row.shape[0]
    full = n - n % _LANES
    m = row[0]
    if full:
        for k in range(_LANES):
            lanes[k] = row[k]
        for j in range(_LANES, full, _LANES):
            for k in range(_LANES):
                v = row[j + k]
                a = lanes[k]
                lanes[k] = v if (v > a or v != v) else a
        half = _LANES // 2
        while half:
            for k in range(half):
                v = lanes[k + half]
                a = lanes[k]
                lanes[k] = v if (v > a or v != v) else a
            half //= 2
        m = lanes[0]
    for j in range(full, n):
        v = row[j]
        m = v if (v > m or v != v) else m
    return m


@numba.njit(**JIT)
def shifted_rows(x, out):
    """out = x - max(x, axis=-1, keepdims=True) for 2-D C-contiguous x and out (two arrays:
    over one, shift_rows): the first step of a softmax (engine/kernels/cpu/nn.py), each row
    less its maximum while it is in cache. Only a zero maximum's sign may differ from
    np.max's, which leaves no trace in a softmax (x - (+0) and x - (-0) differ only in a
    zero's sign, and exp of either zero is 1). NumPy's max along rows of 128 float32 is a
    loop call per row: its max and subtract of [12288, 128] took 1.2 ms, this 0.44
    (2026-11-28)."""
    lanes = np.empty(_LANES, x.dtype)
    for r in range(x.shape[0]):
        row, target = x[r], out[r]
        m = _row_max(row, lanes)
        for j in range(row.shape[0]):
            target[j] = row[j] - m


@numba.njit(**JIT)
def shift_rows(x):
    """shifted_rows(x, x), a loop over one array (with two that are one, LLVM's overlap check
    runs the scalar loop)."""
    lanes = np.empty(_LANES, x.dtype)
    for r in range(x.shape[0]):
        row = x[r]
        m = _row_max(row, lanes)
        for j in range(row.shape[0]):
            row[j] = row[j] - m


def warm():
    """Compile, or load from the on-disk cache, every kernel here (float32 and float64)."""
    for dtype in (np.float32, np.float64):
        leading_sum(np.arange(24, dtype=dtype).reshape(3, 4, 2), 2, 0)
        rows = np.arange(40, dtype=dtype).reshape(2, 20)
        shifted_rows(rows, np.empty_like(rows))
        shift_rows(rows)
