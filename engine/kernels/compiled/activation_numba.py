"""Relu, ReluGrad and SquaredDifference compiled with numba: one pass, no temporaries, over the
intra-op threads; and the check for denormal results the FTZ flush of products and quotients
makes (engine/kernels/cpu/eigen_float32.py flush_floats).

NumPy's references (engine/kernels/cpu/math.py relu: np.maximum(x, 0); cpu/grad.py
ReluGrad: g * (f > 0), a boolean temporary and a multiply) took 1.0 and 1.3 ms for a
128x28x28x32 float32 tensor here (TensorFlow 2.21: 0.64 and 1.0); these take 0.4 and 1.0.
The expressions are the references' element by element, so the values are the same bits
(NaN and -0.0 included: np.maximum(x, 0) keeps NaN and gives 0.0 for -0.0; g times 1 or 0).
"""

import numba
import numpy as np

from engine.runtime import threads

JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")
# One read (two for ReluGrad) and one write an element: a tensor of up to 2M elements stays
# on one thread, which in bench.conv_ops ran 1.25-1.6M-element Relu and ReluGrad faster than
# 2-4 pieces on two (docs/ARCHITECTURE.md, "NumPy kernels split over the intra-op threads").
_MIN_ITEMS_PER_PIECE = 1 << 20
# ReluGrad reads two values an element: a 1.6M-element one splits in two (bench.conv_ops'
# 128x14x14x64 at two threads, medians of 20 alternating samples: 0.185 ms split against
# 0.194 whole, 2026-11-28); Relu of the same split ran slower (0.137 against 0.125 ms).
_MIN_GRAD_ITEMS_PER_PIECE = 3 << 18


# Each loop runs over views of [start, end) indexed from 0: indexed from `start`, LLVM
# did not vectorise it (a relu of 3.2M values took 3.5 ms; over views, 0.4).

@numba.njit(**JIT)
def _relu(x, out, start, end):
    zero = x.dtype.type(0)
    x, out = x[start:end], out[start:end]
    for i in range(end - start):
        v = x[i]
        out[i] = v if (v > zero) | (v != v) else zero


@numba.njit(**JIT)
def _relu_grad(g, f, out, start, end):
    zero, one = g.dtype.type(0), g.dtype.type(1)
    g, f, out = g[start:end], f[start:end], out[start:end]
    for i in range(end - start):
        out[i] = g[i] * (one if f[i] > zero else zero)


def relu(x):
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty_like(flat)
    threads.parallel_for(lambda start, end: _relu(flat, out, start, end), flat.shape[0],
                         _MIN_ITEMS_PER_PIECE)
    return out.reshape(x.shape)


def relu_grad(gradients, features):
    """ReluGrad of same-shaped, same-dtype arrays."""
    g = np.ascontiguousarray(gradients).reshape(-1)
    f = np.ascontiguousarray(features).reshape(-1)
    out = np.empty_like(g)
    threads.parallel_for(lambda start, end: _relu_grad(g, f, out, start, end), g.shape[0],
                         _MIN_GRAD_ITEMS_PER_PIECE)
    return out.reshape(gradients.shape)


# SquaredDifference as math.py computes it (np.subtract, then np.square of the difference:
# two correctly rounded operations), in one pass: x - y rounded, then its square rounded,
# element by element, so the same bits. A layer norm's (x - mean)^2 of 1024x768 float32 took
# 0.41 ms of CPU in NumPy's two passes (2026-11-28, load 4). Over one array where the result
# goes into x (forwarding): with two that are one, LLVM's overlap check runs the scalar loop.

@numba.njit(**JIT)
def _difference_squared(x, y, out, start, end):
    x, y, out = x[start:end], y[start:end], out[start:end]
    for i in range(end - start):
        d = x[i] - y[i]
        out[i] = d * d


@numba.njit(**JIT)
def _difference_squared_over(x, y, start, end):
    x, y = x[start:end], y[start:end]
    for i in range(end - start):
        d = x[i] - y[i]
        x[i] = d * d


@numba.njit(**JIT)
def _row_difference_squared(x, y, out, start, end):
    """Rows start..end of a 2-D x less the one value y[r] of their row, squared."""
    for r in range(start, end):
        row, target, m = x[r], out[r], y[r]
        for j in range(row.shape[0]):
            d = row[j] - m
            target[j] = d * d


@numba.njit(**JIT)
def _row_difference_squared_over(x, y, start, end):
    for r in range(start, end):
        row, m = x[r], y[r]
        for j in range(row.shape[0]):
            d = row[j] - m
            row[j] = d * d


def squared_difference(x, y, over=False):
    """(x - y)^2 of a C-contiguous x and a y of its shape (C-contiguous) or of one value per
    row of its last axis (x.shape[:-1] + (1,)), one dtype, written over x where `over`; else
    None (the caller computes it with NumPy)."""
    if not (x.ndim and x.size and y.dtype == x.dtype and x.flags.c_contiguous
            and y.flags.c_contiguous):
        return None
    if y.shape == x.shape:
        flat, other = x.reshape(-1), y.reshape(-1)
        rows, per_row = flat.shape[0], 1
        if not over:
            result = np.empty(x.shape, x.dtype)
            into = result.reshape(flat.shape)
            loop = lambda start, end: _difference_squared(flat, other, into, start, end)  # noqa: E731
        else:
            result = x
            loop = lambda start, end: _difference_squared_over(flat, other, start, end)  # noqa: E731
    elif y.shape == x.shape[:-1] + (1,):
        flat, other = x.reshape(-1, x.shape[-1]), y.reshape(-1)
        rows, per_row = flat.shape[0], flat.shape[1]
        if not over:
            result = np.empty(x.shape, x.dtype)
            into = result.reshape(flat.shape)
            loop = lambda start, end: _row_difference_squared(flat, other, into, start, end)  # noqa: E731
        else:
            result = x
            loop = lambda start, end: _row_difference_squared_over(flat, other, start, end)  # noqa: E731
    else:
        return None
    threads.parallel_for(loop, rows, max(1, _MIN_ITEMS_PER_PIECE // per_row))
    return result  # (x's shape, owning its memory: the next op may write over it)


@numba.njit(**JIT)
def _count_denormals(x, smallest):
    count = 0
    for i in range(x.shape[0]):
        v = x[i]
        count += (v != 0) & (abs(v) < smallest)
    return count


def has_denormal(x, smallest):
    """Whether the C-contiguous float array x holds a nonzero value below `smallest` (the
    smallest normal of its dtype) in magnitude: one read, no temporaries (NumPy's
    np.abs(x) < smallest and any() took 0.44 ms for 2^20 float32 values, this 0.17 ms,
    and 3.8 against 0.5 us for 100 values)."""
    return _count_denormals(x.reshape(-1), x.dtype.type(smallest)) > 0


def warm():
    """Compile, or load from the on-disk cache, every kernel here (float32 and float64)."""
    for dtype in (np.float32, np.float64):
        x = np.linspace(-1, 1, 4).astype(dtype)
        has_denormal(x, np.finfo(dtype).tiny)
        relu_grad(relu(x), x)
        rows, mean = x.reshape(2, 2), x[:2].reshape(2, 1)
        for y in (rows, mean):
            squared_difference(rows, y)
            squared_difference(rows.copy(), y, over=True)
