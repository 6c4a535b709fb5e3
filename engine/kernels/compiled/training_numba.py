"""ApplyAdam compiled with numba: the update in one pass over the variable and its two slots.

NumPy's reference (engine/kernels/cpu/training.py) computes m, v and the variable in nine
array operations, each a pass over memory with a temporary, then copies the three results
into the variables' buffers; for a 3136x1024 float32 weight (the deep MNIST tutorial's first
dense layer) that took 12-15 ms a step here, most of it memory traffic. This does each
element's update in registers and writes it in place (a ref variable's buffer is updated in
place, as TensorFlow's ApplyAdam does), split over the intra-op threads. The operations and
their order are the reference's, in the variable's dtype, without fast-math: the same bits.
"""

import numba
import numpy as np

from engine.runtime import threads

JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")
_MIN_ITEMS_PER_PIECE = 1 << 16


@numba.njit(**JIT)
def _adam(var, m, v, grad, alpha, one_minus_beta1, one_minus_beta2, beta1, epsilon, nesterov,
          start, end):
    # over views of [start, end) indexed from 0, which LLVM vectorises (activation_numba.py)
    var, m, v, grad = var[start:end], m[start:end], v[start:end], grad[start:end]
    for i in range(end - start):
        g = grad[i]
        m_i = m[i] + (g - m[i]) * one_minus_beta1
        v_i = v[i] + (g * g - v[i]) * one_minus_beta2
        m[i] = m_i
        v[i] = v_i
        if nesterov:
            var[i] = var[i] - ((g * one_minus_beta1 + beta1 * m_i) * alpha) / (
                np.sqrt(v_i) + epsilon)
        else:
            var[i] = var[i] - (m_i * alpha) / (np.sqrt(v_i) + epsilon)


def adam_in_place(var, m, v, grad, alpha, one_minus_beta1, one_minus_beta2, beta1, epsilon,
                  nesterov):
    """var, m and v (contiguous arrays of one dtype and shape) updated in place; the scalars
    in their dtype, as the reference computes them."""
    flat = [a.reshape(-1) for a in (var, m, v, grad)]
    threads.parallel_for(
        lambda start, end: _adam(*flat, alpha, one_minus_beta1, one_minus_beta2, beta1,
                                 epsilon, nesterov, start, end),
        flat[0].shape[0], _MIN_ITEMS_PER_PIECE)


def warm():
    """Compile, or load from the on-disk cache, every kernel here (float32 and float64)."""
    for dtype in (np.float32, np.float64):
        arrays = [np.ones(2, dtype) for _ in range(4)]
        one = dtype(1)
        for nesterov in (False, True):
            adam_in_place(*arrays, one, one, one, one, one, nesterov)
