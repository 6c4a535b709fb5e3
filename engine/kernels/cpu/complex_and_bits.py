"""Elementwise kernels of complex numbers' parts (Complex, Real, Imag, Conj, Angle, ComplexAbs)
and of integers' bits (BitwiseAnd, BitwiseOr, BitwiseXor, Invert, LeftShift, RightShift).

Each takes the array module as `xp` (NumPy here, CuPy for engine/kernels/cuda/math.py). The
shifts are TensorFlow's left_shift_op and right_shift_op (core/kernels/cwise_ops.h): the shift
is clamped to [0, bits - 1] (a negative one shifts by nothing, one of the width or more by
bits - 1), a left shift is done on the unsigned type (no overflow), a right shift of a signed
integer is arithmetic.

>>> import numpy as np
>>> left_shift(np.int8([1, 1, -1]), np.int8([7, 9, -3]))
array([-128, -128,   -1], dtype=int8)
>>> right_shift(np.int32([-16, 16]), np.int32([40, 2]))
array([-1,  4], dtype=int32)
"""

import ctypes

import numpy as np

_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


def complex_(real, imag, xp=np):
    """Complex(real, imag): the parts broadcast, each copied as it is (no arithmetic, so an
    infinite or NaN part stays what it was)."""
    shape = np.broadcast_shapes(real.shape, imag.shape)
    parts = xp.stack([xp.broadcast_to(real, shape), xp.broadcast_to(imag, shape)], axis=-1)
    return xp.ascontiguousarray(parts).view(_COMPLEX_OF[np.dtype(real.dtype)]).reshape(shape)


def real(x, xp=np):
    return xp.ascontiguousarray(xp.real(x))


def imag(x, xp=np):
    return xp.ascontiguousarray(xp.imag(x))


def conj(x, xp=np):
    return xp.conj(x)


def _libm_pair(name):
    """glibc's float (`name`f) and double (`name`) function of two arguments, or None."""
    def load(symbol, ctype):
        try:
            function = getattr(ctypes.CDLL("libm.so.6"), symbol)
        except (OSError, AttributeError):
            return None
        function.restype, function.argtypes = ctype, [ctype, ctype]
        return function
    return {np.dtype(np.complex64): load(name + "f", ctypes.c_float),
            np.dtype(np.complex128): load(name, ctypes.c_double)}


_ATAN2, _HYPOT = _libm_pair("atan2"), _libm_pair("hypot")


def _of_parts(table, reverse, stand_in):
    """TensorFlow's std::arg / std::abs of complex<float|double>: glibc's atan2(im, re) and
    hypot(re, im) element by element (NumPy's own differ by an ulp at times)."""
    def apply(x, xp=np):
        function = table.get(np.dtype(x.dtype)) if xp is np else None
        if function is None:
            return stand_in(xp)(x)
        pairs = zip(x.imag.reshape(-1).tolist(), x.real.reshape(-1).tolist()) if reverse \
            else zip(x.real.reshape(-1).tolist(), x.imag.reshape(-1).tolist())
        return np.array([function(a, b) for a, b in pairs], x.real.dtype).reshape(x.shape)
    return apply


angle = _of_parts(_ATAN2, True, lambda xp: xp.angle)
complex_abs = _of_parts(_HYPOT, False, lambda xp: xp.abs)


def invert(x, xp=np):
    return xp.invert(x)


def _clamped_shift(x, y, xp):
    bits = np.dtype(x.dtype).itemsize * 8
    return xp.clip(y, 0, bits - 1).astype(x.dtype, copy=False)


def left_shift(x, y, xp=np):
    unsigned = np.dtype(f"uint{np.dtype(x.dtype).itemsize * 8}")
    shift = _clamped_shift(x, y, xp).astype(unsigned)
    return xp.left_shift(x.astype(unsigned), shift).astype(x.dtype)


def right_shift(x, y, xp=np):
    return xp.right_shift(x, _clamped_shift(x, y, xp))
