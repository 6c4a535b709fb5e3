"""TensorFlow's float32 Atan2 packet path (engine/kernels/cpu/eigen_atan2.py, the reference) as
a numba loop: one lane of Eigen's patan2 per element, the same float32 operations in the same
order, every case computed and chosen by selects so the loop vectorises. rcpps is the table
of engine/kernels/cpu/x86_reciprocal.py, passed in (numba's cache of this file then depends on
nothing else). The tail, n % 8 elements, stays the reference's glibc atan2f.
"""

import numba
import numpy as np

JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")
_F = np.float32
_ZERO, _ONE, _TWO = _F(0), _F(1), _F(2)
_NEG_ZERO = _F(-0.0)
_TINY = _F(1.1754943508222875e-38)
_PI, _PI_OVER_TWO = _F(np.pi), _F(np.pi / 2)
_A0, _A1, _A2 = _F(1.12026982009410858154296875e-01), _F(7.296695709228515625e-01), \
    _F(8.109951019287109375e-01)
_B0, _B1, _B2, _B3 = _F(1.00917108356952667236328125e-02), _F(2.8318560123443603515625e-01), \
    _F(1.0), _F(8.109951019287109375e-01)
_RCP_ZERO = _F(2.0 ** 126)


@numba.njit(inline="always", nogil=True)
def _fl(x):
    return x * _ZERO if abs(x) < _TINY else x


@numba.njit(inline="always", nogil=True)
def _reciprocal(a, table):
    """preciprocal<Packet8f> of a > 1 (x86_reciprocal.reciprocal_newton; 0 from 2**126 up)."""
    safe = _TWO if a >= _RCP_ZERO else a
    bits = np.float32(safe).view(np.int32)
    exponent = ((bits >> 23) & 0xFF) - 127
    guess = np.int32(table[(bits >> 11) & 0xFFF] - (exponent << 23)).view(np.float32)
    residual = _ONE - safe * guess
    refined = guess * residual + guess if residual == residual else guess
    return _ZERO if a >= _RCP_ZERO else refined


@numba.njit(inline="always", nogil=True)
def _atan(a, table):
    abs_a = abs(a)
    large = _ONE < abs_a
    r = _reciprocal(abs_a if large else _TWO, table)
    r = r if large else abs_a
    r2 = _fl(r * r)
    p = (_A0 * r2 + _A1) * r2 + _A2
    q = ((_B0 * r2 + _B1) * r2 + _B2) * r2 + _B3
    p = _fl(r * _fl(p / q))
    result = _PI_OVER_TWO - p if large else p
    return -result if np.float32(a).view(np.int32) < 0 else result


@numba.njit(inline="always", nogil=True)
def packet_atan2(y_raw, x_raw, table):
    """One lane of Eigen's patan2<Packet8f> under FTZ/DAZ."""
    y, x = _fl(y_raw), _fl(x_raw)
    x_sign = np.float32(x).view(np.int32) < 0
    y_sign = np.float32(y).view(np.int32) < 0
    negative = x_sign != y_sign
    shift = _PI if x_sign else _ZERO
    shift = -shift if y_sign else shift
    arg = _fl(y / x)
    arg = (-_ONE if negative else _ONE) if abs(x) == abs(y) else arg
    arg = (_NEG_ZERO if negative else _ZERO) if (x_raw == _ZERO) & (y_raw == _ZERO) else arg
    return _fl(_atan(arg, table) + shift)


@numba.njit(**JIT)
def _packets(y, x, out, end, table):
    for i in range(end):
        out[i] = packet_atan2(y[i], x[i], table)


def atan2_float32(y, x, scalar, table):
    """atan2(y, x) of broadcast float32 arrays of one shape: the packet lanes on all but the
    last n % 8 elements (flat), `scalar` (the reference's atan2f) on those."""
    shape = y.shape
    y = np.ascontiguousarray(y, np.float32).reshape(-1)
    x = np.ascontiguousarray(x, np.float32).reshape(-1)
    out = np.empty(y.size, np.float32)
    end = y.size - y.size % 8
    _packets(y, x, out, end, np.ascontiguousarray(table, np.int32))
    if end < y.size:
        out[end:] = scalar(y[end:], x[end:])
    return out.reshape(shape)


def warm():
    """Compile, or load from the on-disk cache, the loop."""
    v = np.array([0.5, 2.0, -2.0, 0.0, np.inf, np.nan, 3.0, 1.0], np.float32)
    _packets(v, v[::-1].copy(), np.empty(8, np.float32), 8, np.zeros(4096, np.int32))
