"""TensorFlow's float32 Pow packet path (engine/kernels/cpu/eigen_pow.py, the reference) as a
numba loop: one lane of Eigen's generic_pow per element, the same float32 operations in the
same order (numba without fastmath neither fuses a multiply-add nor reorders), every product
flushed to zero where denormal (FTZ; the reference flushes them only where y is tiny, the one
case a product can be denormal). The tail, n % 8 elements, stays the reference's glibc powf.
Self-contained (its own exp lane) so numba's on-disk cache of it depends on this file alone.
"""

import math

import numba
import numpy as np

JIT = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")
_F = np.float32
_ZERO, _HALF, _ONE, _TWO = _F(0), _F(0.5), _F(1), _F(2)
_NAN, _INF = _F(np.nan), _F(np.inf)
_TINY = _F(1.1754943508222875e-38)
_SQRT_HALF = _F(0.70710678118654752440)
_SPLIT = _F(4097)
_PREV_HALF = np.array([0x3EFFFFFF], np.uint32).view(np.float32)[0]
_LN2 = _F(0.693147180559945309417)
_HUGE_EXPONENT = _F(128) * _LN2 / _F(np.finfo(np.float32).eps)
_C0_HI = _F(1.442695041742110273474963832995854318141937255859375e+00)
_C0_LO = _F(1.442695041742110273474963832995854318141937255859375e+00 - float(_C0_HI))
_C1_HI = _F(-7.2134751588268664068692714863573201000690460205078125e-01)
_C1_LO = _F(-7.2134751588268664068692714863573201000690460205078125e-01 - float(_C1_HI))
_P0, _P1, _P2 = _F(9.7010828554630279541015625e-02), _F(-1.6896486282348632812500000e-01), \
    _F(1.7200836539268493652343750e-01)
_P3, _P4, _P5 = _F(-1.7892272770404815673828125e-01), _F(2.0505344867706298828125000e-01), \
    _F(-2.4046677350997924804687500e-01)
_P6, _P7, _P8 = _F(2.8857553005218505859375000e-01), _F(-3.6067414283752441406250000e-01), \
    _F(4.8089790344238281250000000e-01)
_EXP_HI, _EXP_LO = _F(88.723), _F(-104.0)
_LOG2E = _F(1.44269504088896341)
_LN2_HI, _LN2_LO = _F(-0.693359375), _F(2.12194440e-4)
_EXP_P6, _EXP_P5 = _F(1.37449637986719608306884765625e-3), _F(8.36894474923610687255859375e-3)
_EXP_P4, _EXP_P3 = _F(4.166965186595916748046875e-2), _F(0.16666518151760101318359375)
_EXP_P2 = _F(0.49999988079071044921875)
_EXP2_LO, _EXP2_HI = _F(-151), _F(129)
_LDEXP_LIMIT = _F(278)


@numba.njit(inline="always", nogil=True)
def _fl(x):
    return x * _ZERO if abs(x) < _TINY else x


@numba.njit(inline="always", nogil=True)
def _mul(a, b):
    return _fl(a * b)


@numba.njit(inline="always", nogil=True)
def _split(x):
    gamma = _mul(_SPLIT, x)
    hi = (x - gamma) + gamma
    return hi, x - hi


@numba.njit(inline="always", nogil=True)
def _two_prod(x, y):
    x_hi, x_lo = _split(x)
    y_hi, y_lo = _split(y)
    hi = _mul(x, y)
    lo = _mul(x_hi, y_hi) - hi
    lo = _mul(x_hi, y_lo) + lo
    lo = _mul(x_lo, y_hi) + lo
    lo = _mul(x_lo, y_lo) + lo
    return hi, lo


@numba.njit(inline="always", nogil=True)
def _fast_two_sum(x, y):
    s = x + y
    return s, y - (s - x)


@numba.njit(inline="always", nogil=True)
def _dw_times(x_hi, x_lo, y):
    c_hi, c_lo1 = _two_prod(x_hi, y)
    c_lo2 = _mul(x_lo, y)
    t_hi, t_lo1 = _fast_two_sum(c_hi, c_lo2)
    return _fast_two_sum(t_hi, t_lo1 + c_lo1)


@numba.njit(inline="always", nogil=True)
def _dw_plus(x_hi, x_lo, y_hi, y_lo):
    r_hi, r_lo = _fast_two_sum(x_hi, y_hi)
    return _fast_two_sum(r_hi, (y_lo + r_lo) + x_lo)


_BIG = _F(2 ** 23)  # at and above it, every float32 is an integer


@numba.njit(inline="always", nogil=True)
def _trunc(a):
    return _F(np.int32(a)) if abs(a) < _BIG else a  # (a zero's sign is never read)


@numba.njit(inline="always", nogil=True)
def _round(a):
    return _trunc(a + (-_PREV_HALF if a < _ZERO else _PREV_HALF))


@numba.njit(inline="always", nogil=True)
def _times_power_of_two(y, m):
    m = m if m > -_LDEXP_LIMIT else -_LDEXP_LIMIT
    m = m if m < _LDEXP_LIMIT else _LDEXP_LIMIT
    power = np.int64((np.int64(m) + np.int64(1023)) << np.int64(52)).view(np.float64)
    return np.float32(np.float64(y) * power)


@numba.njit(inline="always", nogil=True)
def _exp(x):
    """Eigen's pexp_float (engine/kernels/cpu/eigen_float32.py packet_exp), x finite."""
    c = _EXP_HI if x > _EXP_HI else x
    m = _F(np.floor(np.float64(c * _LOG2E + _HALF)))
    r = m * _LN2_HI + c
    r = m * _LN2_LO + r
    r2 = r * r
    p_even = r2 * _EXP_P6 + _EXP_P4
    p_odd = r2 * _EXP_P5 + _EXP_P3
    p_even = r2 * p_even + _EXP_P2
    y = r * p_odd + p_even
    y = r2 * y + (r + _ONE)
    y = _times_power_of_two(y, m)
    y = y if y >= x else x
    return _ZERO if x < _EXP_LO else _fl(y)


@numba.njit(inline="always", nogil=True)
def _pow_positive(x, y):
    bits = np.float32(x).view(np.int32)
    exponent = (bits >> 23) & 0xFF
    if x == _ZERO or exponent == 0xFF:
        m, e = x, _ZERO
    else:
        m = np.int32((bits & np.int32(-2139095041)) | np.int32(0x3F000000)).view(np.float32)
        e = _F(exponent - 126)
    if m < _SQRT_HALF:
        m, e = _TWO * m, e - _ONE
    z = m - _ONE
    p = _P0
    p = p * z + _P1
    p = p * z + _P2
    p = p * z + _P3
    p = p * z + _P4
    p = p * z + _P5
    p = p * z + _P6
    p = p * z + _P7
    p = p * z + _P8
    p_hi, p_lo = _two_prod(z, p)
    p_hi, p_lo = _dw_plus(_C1_HI, _C1_LO, p_hi, p_lo)
    p_hi, p_lo = _dw_times(p_hi, p_lo, z)
    p_hi, p_lo = _dw_plus(_C0_HI, _C0_LO, p_hi, p_lo)
    rx_hi, rx_lo = _dw_times(p_hi, p_lo, z)
    f1_hi, f1_lo = _two_prod(e, y)
    f2_hi, f2_lo = _dw_times(rx_hi, rx_lo, y)
    f_hi, f_lo = _dw_plus(f1_hi, f1_lo, f2_hi, f2_lo)
    n = _round(f_hi)
    r = (f_hi - n) + f_lo
    n_r = _round(r)
    r = r - n_r
    n = n + n_r
    n = n if n == n else _ZERO  # (NaN only where a special case decides, as in the reference)
    r = _EXP2_HI if r > _EXP2_HI else r
    r = _EXP2_LO if r < _EXP2_LO else r
    l_hi, l_lo = _two_prod(_LN2, r)
    e_r = _exp(l_hi) * (_ONE + l_lo)
    return _fl(_times_power_of_two(e_r, n))


@numba.njit(inline="always", nogil=True)
def packet_pow(x_raw, y_raw):
    """One lane of Eigen's generic_pow<Packet8f> under FTZ/DAZ: every case computed, then
    chosen by selects in generic_pow's order (no branch, so the loop vectorises)."""
    x, y = _fl(x_raw), _fl(y_raw)
    x_abs, y_abs = abs(x), abs(y)
    pow_ = _pow_positive(x_abs, y)
    x_negative, x_zero = x < _ZERO, x == _ZERO
    y_negative = y < _ZERO
    y_int = (_F(np.floor(np.float64(y))) == y) & (y_abs != _INF)
    half = y * _HALF
    y_odd = y_int & (_round(half) != half)
    pow_ = _NAN if x_negative & (not y_int) else pow_
    pow_ = (_INF if y_negative else _ZERO) if x_zero else pow_
    pow_ = -pow_ if (np.float32(x).view(np.int32) < 0) & y_odd else pow_
    inf_y = _INF if (y_negative & x_zero) | (y_negative != (_ONE < x_abs)) else _ZERO
    inf_y = _ONE if x == -_ONE else inf_y
    pow_ = inf_y if _HUGE_EXPONENT <= y_abs else pow_
    pos_inf = _ZERO if y_negative else _INF
    neg_inf = -pos_inf if y_odd else pos_inf
    pow_ = (neg_inf if x_negative else pos_inf) if x_abs == _INF else pow_
    pow_ = _NAN if (x != x) | (y != y) else pow_
    return x_raw if y == _ONE else (_ONE if (x == _ONE) | (y == _ZERO) else pow_)


@numba.njit(**JIT)
def _packets(x, y, out, end):
    for i in range(end):
        out[i] = packet_pow(x[i], y[i])


def pow_float32(x, y, scalar):
    """x ** y of broadcast float32 arrays of one shape: the packet lanes on all but the last
    n % 8 elements (flat), `scalar` (the reference's powf) on those."""
    shape = x.shape
    x = np.ascontiguousarray(x, np.float32).reshape(-1)
    y = np.ascontiguousarray(y, np.float32).reshape(-1)
    out = np.empty(x.size, np.float32)
    end = x.size - x.size % 8
    _packets(x, y, out, end)
    if end < x.size:
        out[end:] = scalar(x[end:], y[end:])
    return out.reshape(shape)


def warm():
    """Compile, or load from the on-disk cache, the loop."""
    x = np.array([0.5, 2.0, -2.0, 0.0, np.inf, np.nan, 3.0, 1.0], np.float32)
    _packets(x, x[::-1].copy(), np.empty(8, np.float32), 8)
