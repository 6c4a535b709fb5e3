"""DepthwiseConv2dNative and its two backprops compiled with numba, on NHWC arrays.

A depthwise convolution multiplies each input channel by its own `multiplier` filters: no
sum across channels, so no matrix product to hand to BLAS, and little work per value read.
NumPy's reference (engine/kernels/cpu/nn_extra.py) runs an einsum over a six-dimensional
window view (forward, filter gradient) or one pass over the padded gradient per tap (input
gradient). Here each output pixel's taps are summed with its channels (and multipliers) as
the vectorised inner loop: out[c * M + m] += x[c] * f[tap, c, m] (a whole row at a time
where the row lines up, below). The filter gradient keeps one partial gradient per piece of
work, added in piece order (the same sum whatever the threads did); the input gradient splits
by image, whose windows may overlap.

Sums run in another order than the reference's einsum: the values are its to rounding.
`geometry` is (filter rows, cols, stride rows, cols, out rows, cols, padding top, left).
The padding is never made: the forward pass and the input gradient skip the taps over it
(zeros times finite weights add nothing; the caller pads the input itself where a weight is
infinite or NaN), the filter gradient adds zero times the gradient there (an infinite
gradient there still gives NaN); the same bits as over a padded copy, which cost 0.2 ms of
the 1.2-1.5 of each op at 32x28x28x64 3x3 (and the input gradient a cropped copy besides).
Work is split over the intra-op threads; every function here releases the GIL.
"""

import numba
import numpy as np

from engine.runtime import threads


JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy",
           fastmath={"reassoc", "contract"})
_MIN_MACS_PER_PIECE = 1 << 20


# With one filter per channel and a column stride of 1 (MobileNet's stride-1 layers), an
# output row and the input row under a tap line up value for value: out_row[q] += in_row[kj * c
# + q] * tiled[q], where `tiled` is the tap's weights repeated once per output column. Those
# three-stream loops are what LLVM vectorises; the general loops (a channel multiplier, a
# column stride) go pixel by pixel and channel by channel. Measured on this machine (2026-11-28,
# 32x28x28x64, 3x3, one thread, CPU time), the general loops took 21, 11 and 21 ms for the
# forward pass and the two gradients, TensorFlow 4.6, 4.8 and 2.1.


@numba.njit(**JIT)
def _tiled(taps, columns):
    """Each tap's weights (one row of `taps`) repeated `columns` times."""
    out = np.empty((taps.shape[0], columns * taps.shape[1]), taps.dtype)
    for t in range(taps.shape[0]):
        for j in range(columns):
            out[t, j * taps.shape[1]:(j + 1) * taps.shape[1]] = taps[t]
    return out


@numba.njit(inline="always", nogil=True)
def _columns(kj, sw, left, w, ow):
    """[lo, hi): the output columns whose tap kj reads inside the unpadded input's w columns
    (column j reads j * sw + kj - left)."""
    lo = max(0, -((kj - left) // sw))
    last = w - 1 + left - kj
    hi = min(ow, last // sw + 1) if last >= 0 else 0
    return lo, max(lo, hi)


@numba.njit(**JIT)
def _forward(x, f, geometry, out, start, end):
    """Output rows [start, end) of the input `x`, unpadded: a tap over the padding adds
    nothing (its zeros times finite weights), so it is skipped, not read."""
    kh, kw, sh, sw, oh, ow, top, left = geometry
    h, w, c, m = x.shape[1], x.shape[2], f.shape[2], f.shape[3]
    taps = f.reshape(kh * kw, c * m)
    lined_up = m == 1 and sw == 1
    tiled = _tiled(taps, ow) if lined_up else taps
    for row in range(start, end):
        n, i = divmod(row, oh)
        results = out[n, i].reshape(-1)
        results[:] = 0
        for ki in range(kh):
            r = i * sh + ki - top
            if r < 0 or r >= h:
                continue
            inputs = x[n, r].reshape(-1)
            for kj in range(kw):
                lo, hi = _columns(kj, sw, left, w, ow)
                if lined_up:
                    shift = (kj - left) * c
                    xs = inputs[lo * c + shift:hi * c + shift]
                    ws, rs = tiled[ki * kw + kj, lo * c:hi * c], results[lo * c:hi * c]
                    for q in range((hi - lo) * c):
                        rs[q] += xs[q] * ws[q]
                    continue
                weights = taps[ki * kw + kj]
                for j in range(lo, hi):
                    o = results[j * c * m:(j + 1) * c * m]
                    col = j * sw + kj - left
                    xs = inputs[col * c:(col + 1) * c]
                    for ch in range(c):
                        for k in range(m):
                            o[ch * m + k] += xs[ch] * weights[ch * m + k]


@numba.njit(**JIT)
def _filter_gradient(x, dy, geometry, grad, start, end):
    """grad[tap, c * M + m] += the sum over output rows [start, end) of x * dy, `x`
    unpadded: a position over the padding adds zero times its gradient, as over a padded
    copy (the same bits: an infinite or NaN gradient there still gives NaN), without one."""
    kh, kw, sh, sw, oh, ow, top, left = geometry
    h, w, c = x.shape[1], x.shape[2], x.shape[3]
    m = grad.shape[1] // c
    zero = x.dtype.type(0)
    lined_up = m == 1 and sw == 1
    # lined up: per tap, a row-long sum (ow * c), folded into the tap's c sums at the end
    sums = np.zeros((kh * kw, ow * c if lined_up else 1), grad.dtype)
    for row in range(start, end):
        n, i = divmod(row, oh)
        g = dy[n, i].reshape(-1)
        for ki in range(kh):
            r = i * sh + ki - top
            inside = 0 <= r < h
            inputs = x[n, min(max(r, 0), h - 1)].reshape(-1)
            for kj in range(kw):
                lo, hi = _columns(kj, sw, left, w, ow)
                if not inside:
                    lo = hi = ow
                if lined_up:
                    total = sums[ki * kw + kj]
                    for q in range(lo * c):
                        total[q] += zero * g[q]
                    shift = (kj - left) * c
                    xs = inputs[lo * c + shift:hi * c + shift]
                    gs, ts = g[lo * c:hi * c], total[lo * c:hi * c]
                    for q in range((hi - lo) * c):
                        ts[q] += xs[q] * gs[q]
                    for q in range(hi * c, ow * c):
                        total[q] += zero * g[q]
                    continue
                line = grad[ki * kw + kj]
                for j in range(ow):
                    col = j * sw + kj - left
                    for ch in range(c):
                        value = inputs[col * c + ch] if lo <= j < hi else zero
                        for k in range(m):
                            line[ch * m + k] += value * g[(j * c + ch) * m + k]
    if lined_up:
        for t in range(kh * kw):
            for j in range(ow):
                for ch in range(c):
                    grad[t, ch] += sums[t, j * c + ch]


@numba.njit(**JIT)
def _input_gradient(dy, f, geometry, dx, start, end):
    """Images [start, end) of the input's gradient `dx`, unpadded: what a tap would send to
    the padding is never computed (the padded gradient's border was cropped away)."""
    kh, kw, sh, sw, oh, ow, top, left = geometry
    h, w, c, m = dx.shape[1], dx.shape[2], f.shape[2], f.shape[3]
    taps = f.reshape(kh * kw, c * m)
    lined_up = m == 1 and sw == 1
    tiled = _tiled(taps, ow) if lined_up else taps
    zero = dy.dtype.type(0)
    for n in range(start, end):
        dx[n] = 0
        for i in range(oh):
            g = dy[n, i].reshape(-1)
            for ki in range(kh):
                r = i * sh + ki - top
                if r < 0 or r >= h:
                    continue
                targets = dx[n, r].reshape(-1)
                for kj in range(kw):
                    lo, hi = _columns(kj, sw, left, w, ow)
                    if lined_up:
                        shift = (kj - left) * c
                        target = targets[lo * c + shift:hi * c + shift]
                        gs, ws = g[lo * c:hi * c], tiled[ki * kw + kj, lo * c:hi * c]
                        for q in range((hi - lo) * c):
                            target[q] += gs[q] * ws[q]
                        continue
                    weights = taps[ki * kw + kj]
                    for j in range(lo, hi):
                        col = j * sw + kj - left
                        target = targets[col * c:(col + 1) * c]
                        for ch in range(c):
                            total = zero
                            for k in range(m):
                                total += g[(j * c + ch) * m + k] * weights[ch * m + k]
                            target[ch] += total


def _geometry(filter_hw, stride, out_hw, corner=(0, 0)):
    """(filter rows, cols, stride rows, cols, out rows, cols, padding top, left)."""
    return np.array([*filter_hw, *stride, *out_hw, *corner], np.int64)


def _pieces(total, macs_each):
    return max(1, _MIN_MACS_PER_PIECE // max(1, macs_each))


def depthwise_conv2d(x, filters, stride, out_hw, corner=(0, 0)):
    """DepthwiseConv2dNative of the NHWC `x`, padded by `corner` (top, left) rows and
    columns of zeros before it (and as many after as out_hw needs), with `filters`
    [kh, kw, c, m]; the padding is never made (the caller pads `x` itself where its filter
    has an infinity or NaN, which times the padding's zeros gives NaN)."""
    x, filters = np.ascontiguousarray(x), np.ascontiguousarray(filters)
    kh, kw, c, m = filters.shape
    out = np.empty((x.shape[0], *out_hw, c * m), x.dtype)
    geometry = _geometry((kh, kw), stride, out_hw, corner)
    rows = x.shape[0] * out_hw[0]
    threads.parallel_for(lambda start, end: _forward(x, filters, geometry, out, start, end),
                         rows, _pieces(rows, out_hw[1] * kh * kw * c * m))
    return out


def depthwise_filter_gradient(x, dy, filter_shape, stride, corner=(0, 0)):
    """DepthwiseConv2dNativeBackpropFilter over the NHWC input `x`, padded by `corner`
    (top, left) in the forward pass."""
    xp, dy = np.ascontiguousarray(x), np.ascontiguousarray(dy)
    kh, kw, c, m = filter_shape
    geometry = _geometry((kh, kw), stride, dy.shape[1:3], corner)
    rows = dy.shape[0] * dy.shape[1]
    partials = {}

    def piece(start, end):
        grad = np.zeros((kh * kw, c * m), xp.dtype)
        _filter_gradient(xp, dy, geometry, grad, start, end)
        partials[start] = grad

    threads.parallel_for(piece, rows, _pieces(rows, dy.shape[2] * kh * kw * c * m))
    total = None
    for start in sorted(partials):
        total = partials[start] if total is None else total + partials[start]
    return total.reshape(kh, kw, c, m)


def depthwise_input_gradient(dy, filters, input_shape, stride, corner):
    """DepthwiseConv2dNativeBackpropInput: the gradient of the NHWC input of `input_shape`,
    padded by `corner` (top, left) in the forward pass."""
    dy, filters = np.ascontiguousarray(dy), np.ascontiguousarray(filters)
    kh, kw, c, m = filters.shape
    dx = np.empty(input_shape, dy.dtype)
    geometry = _geometry((kh, kw), stride, dy.shape[1:3], corner)
    images = dy.shape[0]
    threads.parallel_for(
        lambda start, end: _input_gradient(dy, filters, geometry, dx, start, end),
        images, _pieces(images, dy[0].size * kh * kw))
    return dx


def warm():
    """Compile, or load from the on-disk cache, every kernel here (float32 and float64)."""
    for dtype in (np.float32, np.float64):
        x = np.ones((1, 3, 3, 2), dtype)
        f = np.ones((2, 2, 2, 2), dtype)
        y = depthwise_conv2d(x, f, (1, 1), (2, 2))
        depthwise_filter_gradient(x, y, f.shape, (1, 1))
        depthwise_input_gradient(y, f, x.shape, (1, 1), (0, 0))
