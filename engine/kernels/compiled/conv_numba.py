"""Conv2D and its two backprops compiled with numba: im2col a few pixels at a time, then dots.

Each works on NHWC arrays the CPU kernels (engine/kernels/cpu/nn.py, grad.py) have already
checked and padded. The forward pass packs the windows of PIXELS_PER_BLOCK output pixels into
a small buffer that stays in the first-level cache (a row per pixel: its window's taps and
channels, as im2col lays them out) and multiplies it by the filter, transposed once per call,
with `dots`; NumPy's reference makes the whole im2col matrix (80 MB for a 128x14x14x32 input
and a 5x5 filter) and hands it to BLAS. Measured on this machine (2026-11-28, one thread, CPU
time) that convolution took 13-14 ms here, 29-44 ms in NumPy and 14-15.5 ms in TensorFlow
2.21. The filter gradient is the same product with the sum over pixels: blocks of
FILTER_PIXELS pixels packed and turned (pixels along the rows), one partial filter gradient
per piece of work, added in piece order so a run's result does not depend on thread timing.
The input gradient is the forward convolution of the output gradient (spread by the strides,
padded) with the filter turned half a turn and its channel axes swapped. Windows too short
for dot products (one input channel) go to BLAS a block at a time.

Work is split over the intra-op threads (engine.runtime.threads.parallel_for); every
function here releases the GIL. `dots` lives here, not in a module of its own, because
numba's on-disk cache notices a change to a function's own file only.
"""

import numba
import numpy as np

from engine.runtime import threads

PIXELS_PER_BLOCK = 24
SUM_CHUNK = 1024
FILTER_PIXELS = 256
# Windows shorter than this (taps x channels: 25 for a 5x5 filter over one channel) are too
# short for dot products across vector lanes; their im2col blocks go to BLAS instead, which
# multiplies a tall, thin matrix well (a 100352x25 by 25x32 product: 1.9 ms on one thread).
SHORT_WINDOW = 64
BLAS_PIXELS = 4096
# A piece of work handed to another thread: at least this many multiply-adds (about 0.1 ms).
_MIN_MACS_PER_PIECE = 1 << 23
# Reassociation (the order of a sum's terms) is the only fast-math liberty taken: the values
# are NumPy's reference to rounding.
JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy",
           fastmath={"reassoc", "contract"})


@numba.njit(**JIT)
def dots(a, rows, b, cols, start, stop, out, row0, accumulate, zero):
    """out[row0 + i, j] = (or +=) the dot product of a[i, start:stop] and b[j, start:stop],
    for i < rows and j < cols; `zero` is 0 in their dtype.

    A matrix product whose operands both lie along the sum, as an im2col block and a
    transposed filter do. Six rows of `a` and four of `b` at a time: 24 running sums that
    LLVM keeps in 24 vector registers (AVX-512: 16 float32 lanes each), ten loads per 24
    fused multiply-adds, each sum reduced across its lanes once at the end of its block.
    Measured on this machine's AMD EPYC (float32, one thread, a 25088x800 by 800x64 product,
    CPU time): 6x4 blocks ran at 150-162 GFLOP/s, 8x3 at 147-151, 8x2 at 126-129, 12x2 at
    110-117; NumPy's OpenBLAS, which takes this CPU for a Haswell and runs its AVX2 kernels,
    at 50-100. Callers keep stop - start to about a thousand, so that the six rows of `a`
    and four of `b` stay in the first-level cache."""
    i = 0
    while i + 6 <= rows:
        # 1-D views of the summed range: indexed from 0, LLVM sees unit strides (an index
        # offset by `start` made it gather lane by lane)
        a0, a1, a2 = a[i, start:stop], a[i + 1, start:stop], a[i + 2, start:stop]
        a3, a4, a5 = a[i + 3, start:stop], a[i + 4, start:stop], a[i + 5, start:stop]
        j = 0
        while j + 4 <= cols:
            b0, b1 = b[j, start:stop], b[j + 1, start:stop]
            b2, b3 = b[j + 2, start:stop], b[j + 3, start:stop]
            s00 = s01 = s02 = s03 = s10 = s11 = s12 = s13 = zero
            s20 = s21 = s22 = s23 = s30 = s31 = s32 = s33 = zero
            s40 = s41 = s42 = s43 = s50 = s51 = s52 = s53 = zero
            for t in range(stop - start):
                y0, y1, y2, y3 = b0[t], b1[t], b2[t], b3[t]
                x = a0[t]
                s00 += x * y0; s01 += x * y1; s02 += x * y2; s03 += x * y3  # noqa: E702
                x = a1[t]
                s10 += x * y0; s11 += x * y1; s12 += x * y2; s13 += x * y3  # noqa: E702
                x = a2[t]
                s20 += x * y0; s21 += x * y1; s22 += x * y2; s23 += x * y3  # noqa: E702
                x = a3[t]
                s30 += x * y0; s31 += x * y1; s32 += x * y2; s33 += x * y3  # noqa: E702
                x = a4[t]
                s40 += x * y0; s41 += x * y1; s42 += x * y2; s43 += x * y3  # noqa: E702
                x = a5[t]
                s50 += x * y0; s51 += x * y1; s52 += x * y2; s53 += x * y3  # noqa: E702
            _store4(out, row0 + i, j, s00, s01, s02, s03, accumulate)
            _store4(out, row0 + i + 1, j, s10, s11, s12, s13, accumulate)
            _store4(out, row0 + i + 2, j, s20, s21, s22, s23, accumulate)
            _store4(out, row0 + i + 3, j, s30, s31, s32, s33, accumulate)
            _store4(out, row0 + i + 4, j, s40, s41, s42, s43, accumulate)
            _store4(out, row0 + i + 5, j, s50, s51, s52, s53, accumulate)
            j += 4
        while j < cols:
            bj = b[j, start:stop]
            s0 = s1 = s2 = s3 = s4 = s5 = zero
            for t in range(stop - start):
                y = bj[t]
                s0 += a0[t] * y; s1 += a1[t] * y; s2 += a2[t] * y  # noqa: E702
                s3 += a3[t] * y; s4 += a4[t] * y; s5 += a5[t] * y  # noqa: E702
            _store1(out, row0 + i, j, s0, accumulate)
            _store1(out, row0 + i + 1, j, s1, accumulate)
            _store1(out, row0 + i + 2, j, s2, accumulate)
            _store1(out, row0 + i + 3, j, s3, accumulate)
            _store1(out, row0 + i + 4, j, s4, accumulate)
            _store1(out, row0 + i + 5, j, s5, accumulate)
            j += 1
        i += 6
    while i < rows:
        ai = a[i, start:stop]
        for j in range(cols):
            bj = b[j, start:stop]
            s = zero
            for t in range(stop - start):
                s += ai[t] * bj[t]
            _store1(out, row0 + i, j, s, accumulate)
        i += 1


@numba.njit(inline="always", nogil=True)
def _store4(out, row, j, s0, s1, s2, s3, accumulate):
    if accumulate:
        out[row, j] += s0
        out[row, j + 1] += s1
        out[row, j + 2] += s2
        out[row, j + 3] += s3
    else:
        out[row, j] = s0
        out[row, j + 1] = s1
        out[row, j + 2] = s2
        out[row, j + 3] = s3


@numba.njit(inline="always", nogil=True)
def _store1(out, row, j, s, accumulate):
    if accumulate:
        out[row, j] += s
    else:
        out[row, j] = s




@numba.njit(inline="always", nogil=True, boundscheck=False)
def _copy(source, target, count):
    # an element loop over the two views: five times faster here than the slice assignment
    # `target[:] = source`, which numba copies through its generic strided path
    for q in range(count):
        target[q] = source[q]


@numba.njit(**JIT)
def _pack_windows(xf, hp, wp, c, geometry, p, count, a):
    """a[i] = the window of output pixel p + i, taps then channels (im2col's row)."""
    kh, kw, sh, sw, dh, dw, oh, ow = geometry
    run = kw * c
    n, rest = divmod(p, oh * ow)
    row, col = divmod(rest, ow)
    for i in range(count):
        dst = a[i]
        for ki in range(kh):
            base = ((n * hp + row * sh + ki * dh) * wp + col * sw) * c
            if dw == 1:  # the window's row is one contiguous run of kw * c values
                _copy(xf[base:base + run], dst[ki * run:(ki + 1) * run], run)
            else:
                for kj in range(kw):
                    at = base + kj * dw * c
                    _copy(xf[at:at + c], dst[ki * run + kj * c:ki * run + (kj + 1) * c], c)
        col += 1
        if col == ow:
            col = 0
            row += 1
            if row == oh:
                row = 0
                n += 1


@numba.njit(**JIT)
def _forward(xp, ft, geometry, out, start, end):
    _, hp, wp, c = xp.shape
    xf = xp.reshape(-1)
    length = ft.shape[1]
    a = np.empty((PIXELS_PER_BLOCK, length), xp.dtype)
    zero = xp.dtype.type(0)
    chunks = -(-length // SUM_CHUNK)
    chunk = -(-length // chunks)
    chunk += -chunk % 16  # whole vectors
    p = start
    while p < end:
        count = min(PIXELS_PER_BLOCK, end - p)
        _pack_windows(xf, hp, wp, c, geometry, p, count, a)
        for t in range(0, length, chunk):
            dots(a, count, ft, ft.shape[0], t, min(length, t + chunk), out, p, t > 0, zero)
        p += count


@numba.njit(**JIT)
def _pack_block(xp, geometry, start, end, a):
    """a[:end - start] = the windows of output pixels [start, end) (im2col's rows)."""
    _, hp, wp, c = xp.shape
    _pack_windows(xp.reshape(-1), hp, wp, c, geometry, start, end - start, a)


@numba.njit(**JIT)
def _filter_gradient(xp, dy, geometry, grad, start, end):
    """grad[tap-channel, k] += the sum over pixels [start, end) of window * dy."""
    _, hp, wp, c = xp.shape
    xf = xp.reshape(-1)
    length, k = grad.shape
    a = np.empty((FILTER_PIXELS, length), xp.dtype)
    # rows a little longer than the block: a power-of-two row length would send the
    # transposes' column writes to the same few cache sets
    cols = np.empty((length, FILTER_PIXELS + 16), xp.dtype)
    dyt = np.empty((k, FILTER_PIXELS + 16), xp.dtype)
    zero = xp.dtype.type(0)
    p = start
    while p < end:
        count = min(FILTER_PIXELS, end - p)
        _pack_windows(xf, hp, wp, c, geometry, p, count, a)
        _transpose(a, count, length, cols)
        _transpose(dy[p:p + count], count, k, dyt)
        dots(cols, length, dyt, k, 0, count, grad, 0, True, zero)
        p += count


@numba.njit(inline="always", nogil=True, boundscheck=False)
def _transpose(source, rows, cols, target):
    """target[:cols, :rows] = source[:rows, :cols].T, eight source rows at a time: each
    target line gets eight neighbouring values at once (measured: 3.8 ms for 256x800 x 98,
    where 16x16 tiles indexed two-dimensionally took 12.5 and numpy's copy 6.2)."""
    i = 0
    while i + 8 <= rows:
        s0, s1, s2, s3 = source[i], source[i + 1], source[i + 2], source[i + 3]
        s4, s5, s6, s7 = source[i + 4], source[i + 5], source[i + 6], source[i + 7]
        for j in range(cols):
            line = target[j]
            line[i], line[i + 1], line[i + 2], line[i + 3] = s0[j], s1[j], s2[j], s3[j]
            line[i + 4], line[i + 5], line[i + 6], line[i + 7] = s4[j], s5[j], s6[j], s7[j]
        i += 8
    while i < rows:
        line = source[i]
        for j in range(cols):
            target[j, i] = line[j]
        i += 1


def _geometry(filter_hw, stride, dilation, out_hw):
    return np.array([*filter_hw, *stride, *dilation, *out_hw], np.int64)


def _pixels_per_piece(macs_per_pixel):
    return max(1, _MIN_MACS_PER_PIECE // max(1, macs_per_pixel))


def conv2d(xp, filters, stride, dilation, out_hw):
    """Conv2D of the padded NHWC `xp` with `filters` [kh, kw, c, k]: [n, oh, ow, k]."""
    xp = np.ascontiguousarray(xp)
    kh, kw, c, k = filters.shape
    pixels = xp.shape[0] * out_hw[0] * out_hw[1]
    out = np.empty((pixels, k), xp.dtype)
    geometry = _geometry((kh, kw), stride, dilation, out_hw)
    if kh * kw * c < SHORT_WINDOW:
        matrix = np.ascontiguousarray(filters.reshape(kh * kw * c, k))

        def piece(start, end):
            a = np.empty((min(BLAS_PIXELS, end - start), kh * kw * c), xp.dtype)
            for first in range(start, end, BLAS_PIXELS):
                last = min(end, first + BLAS_PIXELS)
                _pack_block(xp, geometry, first, last, a)
                np.matmul(a[:last - first], matrix, out=out[first:last])
    else:
        ft = np.ascontiguousarray(filters.reshape(kh * kw * c, k).T)

        def piece(start, end):
            _forward(xp, ft, geometry, out, start, end)
    threads.parallel_for(piece, pixels, _pixels_per_piece(kh * kw * c * k))
    return out.reshape(xp.shape[0], out_hw[0], out_hw[1], k)


def conv2d_backprop_filter(xp, dy, filter_shape, stride, dilation):
    """Conv2DBackpropFilter over the padded NHWC input `xp`: the filter's gradient."""
    xp = np.ascontiguousarray(xp)
    kh, kw, c, k = filter_shape
    out_hw = dy.shape[1:3]
    pixels = dy.shape[0] * out_hw[0] * out_hw[1]
    dy = np.ascontiguousarray(dy.reshape(pixels, k))
    geometry = _geometry((kh, kw), stride, dilation, out_hw)
    partials = {}

    def piece(start, end):
        grad = np.zeros((kh * kw * c, k), xp.dtype)
        _filter_gradient(xp, dy, geometry, grad, start, end)
        partials[start] = grad

    threads.parallel_for(piece, pixels, _pixels_per_piece(kh * kw * c * k))
    total = None
    for start in sorted(partials):
        total = partials[start] if total is None else total + partials[start]
    return total.reshape(kh, kw, c, k)


def conv2d_backprop_input(dy, filters, input_hw, pads, stride, dilation):
    """Conv2DBackpropInput: the gradient [n, h, w, c] of the input of height and width
    `input_hw`, padded by `pads` ((top, bottom), (left, right)) in the forward pass."""
    n, oh, ow, k = dy.shape
    kh, kw, c, _ = filters.shape
    spread = dy
    if stride != (1, 1):
        spread = np.zeros((n, (oh - 1) * stride[0] + 1, (ow - 1) * stride[1] + 1, k), dy.dtype)
        spread[:, ::stride[0], ::stride[1]] = dy
    # Output pixel i of the forward pass read input rows i * s - top + t * d; the input's
    # gradient at row h sums over taps t the spread gradient at h + top - t * d, which is a
    # forward convolution of the spread gradient padded by (kh - 1) * d - top above, with
    # the taps reversed.
    padding = []
    for axis, (before, _) in enumerate(pads):
        reach = (filters.shape[axis] - 1) * dilation[axis]
        low = reach - before
        high = input_hw[axis] + reach - low - spread.shape[1 + axis]
        padding.append((low, high))
    spread = _pad_or_crop(spread, padding)
    flipped = np.ascontiguousarray(filters[::-1, ::-1].transpose(0, 1, 3, 2))
    return conv2d(spread, flipped, (1, 1), dilation, input_hw)


def _pad_or_crop(x, padding):
    """x with rows and columns added (zeros) or taken away at each end, per `padding`."""
    crop = tuple(slice(max(0, -low), x.shape[1 + axis] - max(0, -high))
                 for axis, (low, high) in enumerate(padding))
    x = x[:, crop[0], crop[1], :]
    widths = [(max(0, low), max(0, high)) for low, high in padding]
    if any(map(any, widths)):
        x = np.pad(x, ((0, 0), *widths, (0, 0)))
    return x


def warm():
    """Compile, or load from the on-disk cache, every kernel here (float32 and float64)."""
    for dtype in (np.float32, np.float64):
        x = np.ones((1, 3, 3, 2), dtype)
        f = np.ones((2, 2, 2, 3), dtype)
        conv2d(x, f, (1, 1), (1, 1), (2, 2))
        conv2d(x, f, (1, 1), (1, 2), (2, 1))
        conv2d_backprop_filter(x, np.ones((1, 2, 2, 3), dtype), f.shape, (1, 1), (1, 1))
