"""MaxPool, AvgPool, their gradients and BiasAddGrad compiled with numba, on NHWC arrays.

NumPy's references (engine/kernels/cpu/nn.py, grad.py) pad the input, take a strided view of
every window and reduce it: a copy of the padded input, a reduction over a six-dimensional
view, and for MaxPoolGrad an argmax over a moved axis and np.add.at. Here each window is read
in place, clipped to the input (padding never materialised), with the channels as the
vectorised inner loop. Measured on this machine (2026-11-28, one thread, a 128x28x28x32
input, 2x2 windows, stride 2): MaxPool 8.4 ms in NumPy, 1.25 ms in TensorFlow 2.21;
MaxPoolGrad 35 ms in NumPy, 16 ms in TensorFlow.

Semantics are TensorFlow's CPU kernels', which the references share for every input without
NaN: a max pool's window is its valid elements (padding is -inf); its gradient goes to the
first maximum in row-major window order (the first valid element, replaced only by a strictly
greater one, as SpatialMaxPoolWithArgMaxHelper); an average pool divides by the count of
valid elements. MaxPool propagates NaN as np.max does. Gradients from overlapping windows add
in window order, as the references' np.add.at does.

`geometry` is (window rows, cols, stride rows, cols, pad top, pad left, out rows, cols).
Work is split over the intra-op threads by output rows (forward) or by image (gradients,
whose windows may overlap); every function here releases the GIL.
"""

import numba
import numpy as np

from engine.runtime import threads

JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")
_MIN_ITEMS_PER_PIECE = 1 << 16
_SUM_BLOCK = 64  # BiasAddGrad's rows summed in the input's dtype before a float64 total


@numba.njit(**JIT)
def _clip(start, size, limit):
    return max(start, 0), min(start + size, limit)


@numba.njit(inline="always")
def _larger(a, b):
    """Max pooling's step: `a` where greater, and NaN wins and stays. `|` (not `or`): a
    select LLVM vectorises."""
    return a if (a > b) | (a != a) else b


@numba.njit(**JIT)
def _max_pool_2x2_row(x, n, h0, lowest, geometry, out_row):
    """An output row of 2x2 windows, each window's four inputs taken in row-major order into
    one running maximum per channel held in a register (the row-at-a-time loop below stores
    and reloads it per input: 2-5x slower for 2x2 windows, measured 2026-11-28)."""
    _, h, w, c = x.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    for j in range(ow):
        w0, w1 = _clip(j * sw - pl, kw, w)
        o = out_row[j]
        if w1 - w0 == 2:
            v0, v1, v2, v3 = x[n, h0, w0], x[n, h0, w0 + 1], x[n, h0 + 1, w0], x[n, h0 + 1, w0 + 1]
            for ch in range(c):
                o[ch] = _larger(v3[ch], _larger(v2[ch], _larger(v1[ch], _larger(v0[ch], lowest))))
        else:  # clipped by the padding: one column, or none
            for ch in range(c):
                o[ch] = lowest
            for y in range(h0, h0 + 2):
                for z in range(w0, w1):
                    v = x[n, y, z]
                    for ch in range(c):
                        o[ch] = _larger(v[ch], o[ch])


@numba.njit(**JIT)
def _max_pool(x, geometry, lowest, out, start, end):
    _, h, w, c = x.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    for row in range(start, end):
        n, i = divmod(row, oh)
        h0, h1 = _clip(i * sh - pt, kh, h)
        if kh == 2 and kw == 2 and h1 - h0 == 2:
            _max_pool_2x2_row(x, n, h0, lowest, geometry, out[n, i])
            continue
        results = out[n, i].reshape(-1)  # the output row, (ow, c) flat
        for q in range(results.shape[0]):
            results[q] = lowest
        for y in range(h0, h1):  # a window row of every output of the row at once
            inputs = x[n, y].reshape(-1)
            for j in range(ow):
                w0, w1 = _clip(j * sw - pl, kw, w)
                o = results[j * c:(j + 1) * c]
                for z in range(w0, w1):
                    v = inputs[z * c:(z + 1) * c]
                    for ch in range(c):
                        a, b = v[ch], o[ch]
                        # NaN wins and stays; `|` (not `or`): a select LLVM vectorises
                        o[ch] = a if (a > b) | (a != a) else b


@numba.njit(**JIT)
def _max_pool_grad(x, dy, geometry, dx, start, end):
    _, h, w, c = x.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    best = np.empty(c, x.dtype)
    at_y = np.empty(c, np.int64)
    at_z = np.empty(c, np.int64)
    for n in range(start, end):
        for i in range(oh):
            h0, h1 = _clip(i * sh - pt, kh, h)
            for j in range(ow):
                w0, w1 = _clip(j * sw - pl, kw, w)
                if h0 >= h1 or w0 >= w1:
                    continue
                best[:] = x[n, h0, w0]
                at_y[:] = h0
                at_z[:] = w0
                for y in range(h0, h1):
                    for z in range(w0, w1):
                        v = x[n, y, z]
                        for ch in range(c):
                            greater = v[ch] > best[ch]
                            best[ch] = v[ch] if greater else best[ch]
                            at_y[ch] = y if greater else at_y[ch]
                            at_z[ch] = z if greater else at_z[ch]
                g = dy[n, i, j]
                for ch in range(c):
                    dx[n, at_y[ch], at_z[ch], ch] += g[ch]


@numba.njit(**JIT)
def _avg_pool(x, geometry, out, start, end):
    _, h, w, c = x.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    for row in range(start, end):
        n, i = divmod(row, oh)
        h0, h1 = _clip(i * sh - pt, kh, h)
        for j in range(ow):
            w0, w1 = _clip(j * sw - pl, kw, w)
            o = out[n, i, j]
            o[:] = 0
            for y in range(h0, h1):
                for z in range(w0, w1):
                    o += x[n, y, z]
            o /= x.dtype.type((h1 - h0) * (w1 - w0))


@numba.njit(**JIT)
def _avg_pool_grad(dy, geometry, dx, start, end):
    _, h, w, c = dx.shape
    kh, kw, sh, sw, pt, pl, oh, ow = geometry
    for n in range(start, end):
        dx[n] = 0
        for i in range(oh):
            h0, h1 = _clip(i * sh - pt, kh, h)
            for j in range(ow):
                w0, w1 = _clip(j * sw - pl, kw, w)
                share = dy[n, i, j] / dy.dtype.type((h1 - h0) * (w1 - w0))
                for y in range(h0, h1):
                    for z in range(w0, w1):
                        dx[n, y, z] += share


@numba.njit(**JIT)
def _column_sums(x, start, end, sums):
    """sums += the sum of rows [start, end) of the 2-D `x`: each block of _SUM_BLOCK rows
    summed in x's dtype (all the vector lanes of float32), the blocks in sums' (float64).

    Each channel adds its block's rows in row order; four rows go into one pass over the
    channels, (((s + r0) + r1) + r2) + r3, the same sums as row by row, with a quarter of the
    loads and stores of the running sums (measured 2026-11-28: 10-35% faster on 50-128 x
    14x14x64 and 28x28x32, the same bits)."""
    channels = x.shape[1]
    block = np.empty(channels, x.dtype)
    for first in range(start, end, _SUM_BLOCK):
        last = min(end, first + _SUM_BLOCK)
        block[:] = x[first]
        r = first + 1
        while r + 4 <= last:
            r0, r1, r2, r3 = x[r], x[r + 1], x[r + 2], x[r + 3]
            for ch in range(channels):
                block[ch] = (((block[ch] + r0[ch]) + r1[ch]) + r2[ch]) + r3[ch]
            r += 4
        for r in range(r, last):
            row = x[r]
            for ch in range(channels):
                block[ch] += row[ch]
        for ch in range(channels):
            sums[ch] += block[ch]


def _geometry(window, stride, pads, out_hw):
    return np.array([*window, *stride, pads[0][0], pads[1][0], *out_hw], np.int64)


def _split(total, items_each, piece):
    threads.parallel_for(piece, total, max(1, _MIN_ITEMS_PER_PIECE // max(1, items_each)))


def max_pool(x, window, stride, pads, out_hw, lowest):
    """MaxPool of the NHWC `x` (unpadded; `pads` ((top, bottom), (left, right)))."""
    x = np.ascontiguousarray(x)
    out = np.empty((x.shape[0], *out_hw, x.shape[3]), x.dtype)
    geometry = _geometry(window, stride, pads, out_hw)
    lowest = x.dtype.type(lowest)
    _split(x.shape[0] * out_hw[0], out_hw[1] * x.shape[3] * window[0] * window[1],
           lambda start, end: _max_pool(x, geometry, lowest, out, start, end))
    return out


def max_pool_grad(x, dy, window, stride, pads):
    """MaxPoolGrad: dy [n, oh, ow, c] sent to each window's first maximum in `x`."""
    x, dy = np.ascontiguousarray(x), np.ascontiguousarray(dy)
    dx = np.zeros(x.shape, dy.dtype)
    geometry = _geometry(window, stride, pads, dy.shape[1:3])
    _split(x.shape[0], dy[0].size * window[0] * window[1],
           lambda start, end: _max_pool_grad(x, dy, geometry, dx, start, end))
    return dx


def avg_pool(x, window, stride, pads, out_hw):
    x = np.ascontiguousarray(x)
    out = np.empty((x.shape[0], *out_hw, x.shape[3]), x.dtype)
    geometry = _geometry(window, stride, pads, out_hw)
    _split(x.shape[0] * out_hw[0], out_hw[1] * x.shape[3] * window[0] * window[1],
           lambda start, end: _avg_pool(x, geometry, out, start, end))
    return out


def avg_pool_grad(dy, input_shape, window, stride, pads):
    """AvgPoolGrad: each window's dy shared among its valid elements."""
    dy = np.ascontiguousarray(dy)
    dx = np.empty(input_shape, dy.dtype)
    geometry = _geometry(window, stride, pads, dy.shape[1:3])
    _split(dy.shape[0], dy[0].size * window[0] * window[1],
           lambda start, end: _avg_pool_grad(dy, geometry, dx, start, end))
    return dx


# BiasAddGrad reads each element once: a second thread pays only for a large tensor. Measured
# 2026-11-28 (2 cores, load 3-4): 50x14x14x64 float32 (627k elements) summed in 0.04 ms on one
# thread and took 0.08-0.10 ms split in eight pieces over two.
_BIAS_MIN_ITEMS_PER_PIECE = 1 << 20


def bias_add_grad(dy):
    """BiasAddGrad of a channels-last `dy`: the sum over every axis but the last, in blocks
    of _SUM_BLOCK rows added in float64 (as exact as TensorFlow's float32 tree, or more).
    Pieces start on a block, so every block is the same whatever the threads."""
    rows = np.ascontiguousarray(dy).reshape(-1, dy.shape[-1])
    count, channels = rows.shape
    blocks = -(-count // _SUM_BLOCK)
    min_blocks = max(1, _BIAS_MIN_ITEMS_PER_PIECE // (_SUM_BLOCK * max(1, channels)))
    if blocks < 2 * min_blocks or threads.budget() == 1:  # one piece: no threads' bookkeeping
        total = np.zeros(channels, np.float64)
        _column_sums(rows, 0, count, total)
        return total.astype(dy.dtype)
    partials = {}

    def piece(start, end):
        sums = np.zeros(channels, np.float64)
        _column_sums(rows, start * _SUM_BLOCK, min(count, end * _SUM_BLOCK), sums)
        partials[start] = sums

    threads.parallel_for(piece, blocks, min_blocks)
    total = np.zeros(channels, np.float64)
    for start in sorted(partials):  # in piece order: the same sum whatever the threads did
        total += partials[start]
    return total.astype(dy.dtype)


def warm():
    """Compile, or load from the on-disk cache, every kernel here (float32 and float64)."""
    for dtype in (np.float32, np.float64):
        x = np.arange(18, dtype=dtype).reshape(1, 3, 3, 2)
        pads = ((0, 1), (0, 1))
        pooled = max_pool(x, (2, 2), (2, 2), pads, (2, 2), -np.inf)
        max_pool_grad(x, pooled, (2, 2), (2, 2), pads)
        avg_pool_grad(avg_pool(x, (2, 2), (2, 2), pads, (2, 2)), x.shape, (2, 2), (2, 2), pads)
        bias_add_grad(x)
