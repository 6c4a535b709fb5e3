"""TensorFlow's float32 sin and cos (engine/kernels/cpu/eigen_trig.py, the reference) as numba
functions of one value.

`sin_small` and `cos_small` are psincos_float's packet path for a value below its Payne-Hanek
threshold (or not finite): branch-free float arithmetic a loop vectorises. `sin_huge` and
`cos_huge` say which values take the Payne-Hanek reduction, and `packet_sin` and `packet_cos`
are the whole packet path of one value, the reduction included (its 64-bit integer products
and table reads, in a branch): the unfused loops (engine/kernels/compiled/eigen_arrays.py)
run the small lane over a tensor's packets and then the whole lane over the few huge values.
`scalar_sin` and `scalar_cos` are the scalar path: math.sin and math.cos of a float32 are the
C library's sinf and cosf, as in TensorFlow.
"""

import math

import numpy as np
import numba

from engine.kernels.compiled.eigen_numba import _FLOAT32_SIGN, _TINY, _ZERO, _flush
from engine.kernels.cpu import eigen_trig

_TWO_OVER_PI = eigen_trig._TWO_OVER_PI
_ROUNDING_MAGIC = eigen_trig._ROUNDING_MAGIC
_PIO2_0, _PIO2_1, _PIO2_2, _PIO2_3 = eigen_trig._PIO2
_SIN_HUGE, _COS_HUGE = eigen_trig._HUGE[True], eigen_trig._HUGE[False]
_COS_P0, _COS_P1, _COS_P2, _COS_P3, _COS_P4 = eigen_trig._COS_POLY
_SIN_P0, _SIN_P1, _SIN_P2 = eigen_trig._SIN_POLY
_INF = np.float32(np.inf)
_TWO_OVER_PI_BITS = eigen_trig._TWO_OVER_PI_BITS.copy()
_PIO2_62 = np.float64(eigen_trig._PIO2_62)
_U3, _U7, _U23, _U32, _U62 = (np.uint64(3), np.uint64(7), np.uint64(23), np.uint64(32),
                              np.uint64(62))
_U118, _U_HALF62 = np.uint64(118), np.uint64(1 << 61)
_U_MANTISSA, _U_IMPLICIT, _U_LOW32 = (np.uint64(0x007FFFFF), np.uint64(0x00800000),
                                      np.uint64(0xFFFFFFFF))
_I1, _I30 = np.int32(1), np.int32(30)


@numba.njit(inline="always", nogil=True)
def _reduce(x_in):
    """|x| - y * pi/2 in four multiply-adds (no FMA), and y's bits (its quadrant)."""
    x = abs(_flush(x_in))
    y_round = x * _TWO_OVER_PI + _ROUNDING_MAGIC
    y = y_round - _ROUNDING_MAGIC
    x = y * _PIO2_0 + x
    x = y * _PIO2_1 + x
    x = y * _PIO2_2 + x
    x = y * _PIO2_3 + x
    return x, np.float32(y_round).view(np.int32)


@numba.njit(inline="always", nogil=True)
def _reduce_huge(value):
    """eigen_trig.trig_reduce_huge of one finite float32 of 2**14 or more: (r, quadrant)."""
    xi = np.uint64(np.float32(value).view(np.uint32))
    e = (xi >> _U23) - _U118
    xi = ((xi & _U_MANTISSA) | _U_IMPLICIT) << (e & _U7)
    i = np.int64(e >> _U3)
    p = xi * _TWO_OVER_PI_BITS[i + 7]
    p = xi * _TWO_OVER_PI_BITS[i + 3] + (p >> _U32)
    p = (((xi * _TWO_OVER_PI_BITS[i - 1]) & _U_LOW32) << _U32) + p
    q = (p + _U_HALF62) >> _U62
    p = p - (q << _U62)
    return np.float32(np.float64(np.int64(p)) * _PIO2_62), np.int32(q)


@numba.njit(inline="always", nogil=True)
def _polynomials(x_in, x, y_int, sine):
    """sin or cos of x_in from its reduction x and quadrant y_int."""
    if sine:
        sign = np.int32(np.float32(_flush(x_in)).view(np.int32) ^ np.int32(y_int << _I30))
    else:
        sign = np.int32(np.int32(y_int + _I1) << _I30)
    sign = np.int32(sign & _FLOAT32_SIGN)
    even = np.int32(y_int & _I1) == 0
    x2 = x * x
    y1 = (((_COS_P0 * x2 + _COS_P1) * x2 + _COS_P2) * x2 + _COS_P3) * x2 + _COS_P4
    y2 = ((_SIN_P0 * x2 + _SIN_P1) * x2 + _SIN_P2) * x2
    y2 = y2 * x + x
    if sine:
        y = y2 if even else y1
    else:
        y = y1 if even else y2
    return np.int32(np.float32(y).view(np.int32) ^ sign).view(np.float32)


@numba.njit(inline="always", nogil=True)
def sin_small(x):
    r, q = _reduce(x)
    return _polynomials(x, r, q, True)


@numba.njit(inline="always", nogil=True)
def cos_small(x):
    r, q = _reduce(x)
    return _polynomials(x, r, q, False)


@numba.njit(inline="always", nogil=True)
def sin_huge(x):
    """Whether packet_sin takes the Payne-Hanek reduction for x."""
    return _SIN_HUGE <= abs(x) < _INF


@numba.njit(inline="always", nogil=True)
def cos_huge(x):
    return _COS_HUGE <= abs(x) < _INF


@numba.njit(inline="always", nogil=True)
def packet_sin(x):
    if sin_huge(x):
        r, q = _reduce_huge(abs(x))
        return _polynomials(x, r, q, True)
    return sin_small(x)


@numba.njit(inline="always", nogil=True)
def packet_cos(x):
    if cos_huge(x):
        r, q = _reduce_huge(abs(x))
        return _polynomials(x, r, q, False)
    return cos_small(x)


@numba.njit(inline="always", nogil=True)
def scalar_sin(x):
    if x != _ZERO and abs(x) < _TINY:
        return x  # glibc returns a tiny argument as it is
    return _flush(np.float32(math.sin(x)))


@numba.njit(inline="always", nogil=True)
def scalar_cos(x):
    return _flush(np.float32(math.cos(_flush(x))))


# What a generated file takes of this module: its constants, then these functions.
FUNCTIONS = ("_reduce", "_reduce_huge", "_polynomials", "sin_small", "cos_small", "sin_huge",
             "cos_huge", "packet_sin", "packet_cos", "scalar_sin", "scalar_cos")
