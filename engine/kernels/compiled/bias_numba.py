"""BiasAdd compiled with numba: one pass over the value, split over the intra-op threads.

NumPy's reference (engine/kernels/cpu/nn.py: value + bias, broadcast) runs on one thread; at
TensorFlow's default thread count its Eigen kernel runs on every core, and on this 2-core
machine the reference took 1.2-1.5x TensorFlow's wall time on the CNN programs' tensors
(BENCHMARKS.md, bench.conv_ops, 2026-11-28). Each element is the same one addition
value + bias[channel], so the values are the reference's (infinities, -0.0 and NaN where NaN;
a NaN plus a NaN may carry either one's sign, as LLVM may order an addition's operands).

The value is seen as [outer, channels, inner]: channels last (NHWC) is inner == 1, channels
first (NCHW) is outer == batch. Work is split by `outer` rows; every function here releases
the GIL.
"""

import numba
import numpy as np

from engine.runtime import threads


JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")
# One read and one write an element, as Relu (compiled/activation_numba.py), so a piece handed
# to another thread must be large to pay for the handing; the channel loop costs a little more
# than Relu's, so a 1.6M-element tensor splits in two, a 1.25M one stays whole. bench.conv_ops'
# BiasAdd 128x14x14x64 at two threads, medians of 20 samples in alternating order: 0.183 ms
# split against 0.196 whole (2026-11-28, quiet); the 1.25M-element rows alike either way.
_MIN_ITEMS_PER_PIECE = 3 << 18


@numba.njit(**JIT)
def _channels_last(x, bias, out, start, end):
    channels = bias.shape[0]
    for row in range(start, end):
        values, results = x[row], out[row]
        for ch in range(channels):
            results[ch] = values[ch] + bias[ch]


@numba.njit(**JIT)
def _channels_first(x, bias, out, start, end):
    channels, inner = x.shape[1], x.shape[2]
    for row in range(start, end):
        for ch in range(channels):
            b = bias[ch]
            values, results = x[row, ch], out[row, ch]
            for i in range(inner):
                results[i] = values[i] + b


def bias_add(value, bias, axis):
    """value + bias along `axis` (value's channel axis), bias of value's dtype."""
    x = np.ascontiguousarray(value)
    channels = x.shape[axis]
    outer = int(np.prod(x.shape[:axis], dtype=np.int64))
    inner = x.size // max(1, outer * channels)
    out = np.empty_like(x)
    min_rows = max(1, _MIN_ITEMS_PER_PIECE // max(1, channels * inner))
    if inner == 1:
        rows, results = x.reshape(outer, channels), out.reshape(outer, channels)
        threads.parallel_for(lambda start, end: _channels_last(rows, bias, results, start, end),
                             outer, min_rows)
    else:
        rows, results = x.reshape(outer, channels, inner), out.reshape(outer, channels, inner)
        threads.parallel_for(lambda start, end: _channels_first(rows, bias, results, start, end),
                             outer, min_rows)
    return out


def warm():
    """Compile, or load from the on-disk cache, every kernel here (float32 and float64)."""
    for dtype in (np.float32, np.float64):
        x = np.arange(12, dtype=dtype).reshape(1, 2, 3, 2)
        bias_add(x, np.ones(2, dtype), 3)
        bias_add(x, np.ones(2, dtype), 1)
