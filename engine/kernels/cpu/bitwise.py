"""CPU kernels of the bitwise ops (bitwise_ops.cc, cwise_op_*shift.cc): and, or, xor of
integers, and shifts whose count TensorFlow clamps to [0, bits - 1] (a left shift of the value
as unsigned, a right shift arithmetic for signed types)."""

import numpy as np

from engine.kernels import register_table


def _shift_count(x, y):
    bits = 8 * np.dtype(x.dtype).itemsize
    return np.clip(np.asarray(y).astype(np.int64), 0, bits - 1)


def left_shift(ctx, x, y):
    x = np.asarray(x)
    unsigned = x.dtype.str.replace("i", "u")
    shifted = np.left_shift(x.view(unsigned), _shift_count(x, y).astype(unsigned))
    return np.asarray(shifted, unsigned).view(x.dtype)


def right_shift(ctx, x, y):
    x = np.asarray(x)
    return np.right_shift(x, _shift_count(x, y).astype(x.dtype)).astype(x.dtype, copy=False)


def _elementwise(function):
    def kernel(ctx, x, y):
        return function(np.asarray(x), np.asarray(y))
    kernel.__name__ = function.__name__
    return kernel


register_table({
    "BitwiseAnd": _elementwise(np.bitwise_and), "BitwiseOr": _elementwise(np.bitwise_or),
    "BitwiseXor": _elementwise(np.bitwise_xor), "LeftShift": left_shift,
    "RightShift": right_shift,
})
