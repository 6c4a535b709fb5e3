"""TensorFlow's float32 exp, log, log1p, expm1, tanh, sigmoid, softplus, rsqrt and reciprocal
(engine/kernels/cpu/eigen_float32.py and x86_reciprocal.py, the reference) as numba functions
of one value.

`packet_*` is Eigen's packet path for one lane: the same float32 operations in the same order
(numba, without fastmath, neither fuses a multiply-add nor reorders). They read and build
float bits with `.view` and take no branch a compiler cannot turn into a select, so a loop
over them vectorises (engine/kernels/compiled/eigen_arrays.py: the unfused kernels' loops).
`scalar_*` is Eigen's scalar path, the last n % 8 elements of a tensor: math.exp, math.log,
math.log1p and math.expm1 of a float32 are the C library's expf, logf, log1pf and expm1f
there, as in TensorFlow. Rsqrt's and Reciprocal's packet lanes read x86's rsqrtps and rcpps
from the captured tables (x86_reciprocal.py) by a lookup LLVM vectorises as a gather. Fused chains and the
unfused loops are generated files that hold these functions' source (`source_of`), as fused
chains hold Philox's, so numba's on-disk cache of each depends on nothing else.
"""

import math

import numpy as np
import numba

from engine.kernels.compiled.numba_source import constants_source, functions_source
# (PACKET: fused_numba reads it here)
from engine.kernels.cpu.eigen_float32 import PACKET, SOFTPLUS_THRESHOLD  # noqa: F401
from engine.kernels.cpu.x86_reciprocal import RSQRT_TABLE_BITS, TABLE_BITS

_TINY = np.float32(1.1754943508222875e-38)
_ZERO, _HALF, _ONE = np.float32(0.0), np.float32(0.5), np.float32(1.0)
_NAN, _INF = np.float32(np.nan), np.float32(np.inf)
_EXP_HI, _EXP_LO = np.float32(88.723), np.float32(-104.0)
_LOG2E = np.float32(1.44269504088896341)
_LN2_HI, _LN2_LO = np.float32(-0.693359375), np.float32(2.12194440e-4)
_EXP_P6, _EXP_P5 = np.float32(1.37449637986719608306884765625e-3), \
    np.float32(8.36894474923610687255859375e-3)
_EXP_P4, _EXP_P3 = np.float32(4.166965186595916748046875e-2), \
    np.float32(0.16666518151760101318359375)
_EXP_P2 = np.float32(0.49999988079071044921875)
_SQRT_HALF, _LN2 = np.float32(0.707106781186547524), np.float32(0.693147180559945309417)
_LOG_P0, _LOG_P1, _LOG_P2 = np.float32(0.18256296349849254), \
    np.float32(1.0000000190281063), np.float32(1.0000000190281136)
_LOG_Q0, _LOG_Q1, _LOG_Q2 = np.float32(0.049616247954120038), \
    np.float32(0.59923249590823520), np.float32(1.4999999999999927)
_LOGF_OF_DENORMAL = np.float32(-103.97207641601562)
_TANH_CLAMP = np.float32(7.90738964080810547)
_TANH_P0, _TANH_P1, _TANH_P2, _TANH_P3 = np.float32(1.394553628e-8), \
    np.float32(2.102733560e-5), np.float32(3.520756727e-3), np.float32(1.340216100e-1)
_TANH_Q0, _TANH_Q1, _TANH_Q2, _TANH_Q3 = np.float32(8.015776984e-7), \
    np.float32(3.326951409e-4), np.float32(2.597254514e-2), np.float32(4.673548340e-1)
_LOGISTIC_HI = np.float32(16.6355324)
_LOGISTIC_P5, _LOGISTIC_P4 = np.float32(8.33471305668354034423828125e-3), \
    np.float32(4.1898667812347412109375e-2)
_LOGISTIC_P3, _LOGISTIC_P2 = np.float32(0.16666877269744873046875), \
    np.float32(0.49999141693115234375)
_SOFTPLUS_THRESHOLD = np.float32(SOFTPLUS_THRESHOLD)
# exp's and sigmoid's m lies in [-151, 129]; clamped to this, any m (even from a NaN) makes a
# power of two the float64 exponent field can hold
_POWER_LIMIT = np.float32(200.0)
_FLOAT64_BIAS, _FLOAT64_MANTISSA_BITS = np.int64(1023), np.int64(52)
_FLOAT32_HALF_BITS, _FLOAT32_MANTISSA = np.int32(0x3F000000), np.int32(0x007FFFFF)
# x86's rcpps and rsqrtps (engine/kernels/cpu/x86_reciprocal.py): tables and bit fields
_RCP_TABLE_BITS, _RSQRT_TABLE_BITS = TABLE_BITS.copy(), RSQRT_TABLE_BITS.copy()
_RCP_INDEX_MASK, _RSQRT_INDEX_MASK, _RSQRT_PARITY_BIT = np.int32(0xFFF), np.int32(0x1FFF), \
    np.int32(0x1000)
_ZERO_BITS = np.int32(0)
_FLOAT32_EXPONENT_MASK, _FLOAT32_BIAS = np.int32(0xFF), np.int32(127)
_FLOAT32_MAGNITUDE, _FLOAT32_SIGN = np.int32(0x7FFFFFFF), np.int32(-0x80000000)
_FLOAT32_SMALLEST_NORMAL, _FLOAT32_INF = np.int32(0x00800000), np.int32(0x7F800000)
_FLOAT32_QUIET, _FLOAT32_DEFAULT_NAN = np.int32(0x00400000), np.int32(-0x00400000)
_MINUS_HALF, _MINUS_ONE = np.float32(-0.5), np.float32(-1.0)


@numba.njit(inline="always", nogil=True)
def _flush(x):
    """Denormals to signed zeros (TensorFlow's FTZ/DAZ)."""
    return x * _ZERO if abs(x) < _TINY else x


@numba.njit(inline="always", nogil=True)
def _times_power_of_two(y, m):
    """y * 2**m rounded once to float32 (m integral; a NaN m comes with a NaN y): exact in
    float64, then one rounding, as np.ldexp. 2**m is made from its bits (Eigen's pldexp)."""
    m = m if m > -_POWER_LIMIT else -_POWER_LIMIT
    m = m if m < _POWER_LIMIT else _POWER_LIMIT
    power = np.int64((np.int64(m) + _FLOAT64_BIAS) << _FLOAT64_MANTISSA_BITS).view(np.float64)
    return np.float32(np.float64(y) * power)


@numba.njit(inline="always", nogil=True)
def _maximum(a, b):
    """np.maximum: NaN if either is."""
    return a if (a >= b or a != a) else b


@numba.njit(inline="always", nogil=True)
def packet_exp(x):
    c = _EXP_HI if x > _EXP_HI else x
    m = np.floor(c * _LOG2E + _HALF)
    r = m * _LN2_HI + c
    r = m * _LN2_LO + r
    r2 = r * r
    p_even = r2 * _EXP_P6 + _EXP_P4
    p_odd = r2 * _EXP_P5 + _EXP_P3
    p_even = r2 * p_even + _EXP_P2
    y = r * p_odd + p_even
    y = r2 * y + (r + _ONE)
    y = _maximum(_times_power_of_two(y, m), x)  # x itself for +inf (and NaN)
    return _ZERO if x < _EXP_LO else _flush(y)


@numba.njit(inline="always", nogil=True)
def scalar_exp(x):
    return _flush(np.float32(math.exp(_flush(x))))


@numba.njit(inline="always", nogil=True)
def packet_log(x):
    x = _flush(x)
    bits = np.float32(x).view(np.int32)
    e = np.float32((bits >> 23) - 126)  # frexp's exponent of a positive normal x
    m = np.int32((bits & _FLOAT32_MANTISSA) | _FLOAT32_HALF_BITS).view(np.float32)
    below = m < _SQRT_HALF
    shifted = m - _ONE
    e = e - _ONE if below else e
    m = shifted + m if below else shifted + _ZERO
    p = ((_LOG_P0 * m + _LOG_P1) * m + _LOG_P2) * m
    q = ((_LOG_Q0 * m + _LOG_Q1) * m + _LOG_Q2) * m + _ONE
    y = e * _LN2 + p / q
    y = x if x == _INF else y
    y = _NAN if (x < _ZERO or x != x) else y
    return -_INF if x == _ZERO else y


@numba.njit(inline="always", nogil=True)
def scalar_log(x):
    if x != _ZERO and abs(x) < _TINY:
        return _LOGF_OF_DENORMAL if x > _ZERO else _NAN
    return _flush(np.float32(math.log(x)))


@numba.njit(inline="always", nogil=True)
def packet_log1p(x):
    x = _flush(x)
    u = x + _ONE
    log_u = packet_log(u)
    keep_x = (u == _ONE) | (u == log_u)
    return x if keep_x else x * (log_u / (u - _ONE))


@numba.njit(inline="always", nogil=True)
def scalar_log1p(x):
    if x != _ZERO and abs(x) < _TINY:
        return x  # glibc returns a tiny argument as it is
    return _flush(np.float32(math.log1p(x)))


@numba.njit(inline="always", nogil=True)
def packet_expm1(x):
    u = packet_exp(x)
    u_minus_1 = u - _ONE
    log_u = packet_log(u)
    y = u if log_u == u else u_minus_1 * (_flush(x) / log_u)
    y = -_ONE if u_minus_1 == -_ONE else y
    return x if u == _ONE else y


@numba.njit(inline="always", nogil=True)
def scalar_expm1(x):
    return _flush(np.float32(math.expm1(_flush(x))))


@numba.njit(inline="always", nogil=True)
def tanh_float(x):
    """Eigen's ptanh_float: one formula on both paths."""
    x = _flush(x)
    c = _TANH_CLAMP if x > _TANH_CLAMP else x
    c = -_TANH_CLAMP if c < -_TANH_CLAMP else c
    x2 = _flush(c * c)
    x3 = _flush(x2 * c)
    p = ((_TANH_P0 * x2 + _TANH_P1) * x2 + _TANH_P2) * x2 + _TANH_P3
    q = (((_TANH_Q0 * x2 + _TANH_Q1) * x2 + _TANH_Q2) * x2 + _TANH_Q3) * x2 + _ONE
    return _flush((x3 * p + c) / q)


@numba.njit(inline="always", nogil=True)
def packet_sigmoid(x):
    x = _flush(x)
    half = (_LOGISTIC_HI if x > _LOGISTIC_HI else x) * _HALF
    m = np.floor(half * _LOG2E + _HALF)
    r = m * _LN2_HI + half
    r = m * _LN2_LO + r
    r2 = r * r
    p_even = r2 * _LOGISTIC_P4 + _LOGISTIC_P2
    p_odd = r2 * _LOGISTIC_P5 + _LOGISTIC_P3
    p = r * p_odd + p_even
    p = r2 * p + (r + _ONE)
    e = _times_power_of_two(p, m)
    e = _flush(e * e)
    return _ZERO if x < _EXP_LO else _flush(e / (_ONE + e))


@numba.njit(inline="always", nogil=True)
def scalar_sigmoid(x):
    if x != x:
        return x
    e = scalar_exp(min(_flush(x), _LOGISTIC_HI))
    return _flush(e / (_ONE + e))


@numba.njit(inline="always", nogil=True)
def packet_softplus(x):
    """TensorFlow's Softplus functor on the packet path: x, exp(x) or log1p(exp(x))."""
    x = _flush(x)
    e = packet_exp(x)
    y = e if x < _SOFTPLUS_THRESHOLD else packet_log1p(e)
    return x if x > -_SOFTPLUS_THRESHOLD else y


@numba.njit(inline="always", nogil=True)
def scalar_softplus(x):
    x = _flush(x)
    e = scalar_exp(x)
    if x > -_SOFTPLUS_THRESHOLD:
        return x
    return e if x < _SOFTPLUS_THRESHOLD else scalar_log1p(e)


# _rcpps and _rsqrtps keep every integer step in int32 (np.int32 around each: numba widens
# int32 operands to int64, and LLVM then gathered the table with 64-bit indices, eight lanes
# a gather: measured on 2**20 values, Rsqrt's loop took 0.78 ms so, 0.39 in int32).
@numba.njit(inline="always", nogil=True)
def _rcpps(a):
    """x86_reciprocal.rcpps of one value."""
    bits = np.float32(a).view(np.int32)
    magnitude = np.int32(bits & _FLOAT32_MAGNITUDE)
    exponent = np.int32(np.int32(magnitude >> 23) - _FLOAT32_BIAS)
    index = np.int32(np.int32(bits >> 11) & _RCP_INDEX_MASK)
    guess = np.int32(_RCP_TABLE_BITS[index] - np.int32(exponent << 23))
    normal = _ZERO_BITS if guess < _FLOAT32_SMALLEST_NORMAL else guess  # a tiny result is 0
    zero = _FLOAT32_INF if magnitude < _FLOAT32_SMALLEST_NORMAL else normal
    inf = _ZERO_BITS if magnitude == _FLOAT32_INF else zero
    nan = np.int32(magnitude | _FLOAT32_QUIET) if magnitude > _FLOAT32_INF else inf
    return np.int32(nan | np.int32(bits & _FLOAT32_SIGN)).view(np.float32)


@numba.njit(inline="always", nogil=True)
def _rsqrtps(a):
    """x86_reciprocal.rsqrtps of one value."""
    bits = np.float32(a).view(np.int32)
    magnitude = np.int32(bits & _FLOAT32_MAGNITUDE)
    # the exponent's parity (flipped by the odd bias) and the top 12 mantissa bits
    index = np.int32(np.int32(np.int32(bits >> 11) & _RSQRT_INDEX_MASK) ^ _RSQRT_PARITY_BIT)
    half_exponent = np.int32(np.int32(np.int32(bits >> 23) - _FLOAT32_BIAS) >> 1)
    guess = np.int32(_RSQRT_TABLE_BITS[index] - np.int32(half_exponent << 23))
    zero = (np.int32(_FLOAT32_INF | np.int32(bits & _FLOAT32_SIGN))
            if magnitude < _FLOAT32_SMALLEST_NORMAL else guess)
    inf = _ZERO_BITS if bits == _FLOAT32_INF else zero
    below_zero = (bits < _ZERO_BITS) & (magnitude >= _FLOAT32_SMALLEST_NORMAL)
    negative = _FLOAT32_DEFAULT_NAN if below_zero else inf
    nan = np.int32(bits | _FLOAT32_QUIET) if magnitude > _FLOAT32_INF else negative
    return np.int32(nan).view(np.float32)


@numba.njit(inline="always", nogil=True)
def packet_reciprocal(a):
    """Eigen's preciprocal under EIGEN_FAST_MATH: rcpps, one Newton step (no FMA), x itself
    where 1 - a * x is NaN. Unflushed, a denormal a (x infinite) makes y NaN, where 1 - a * x
    is NaN for the others that take x (zeros, infinities, NaN): one select on y serves all."""
    x = _rcpps(a)
    residual = _ONE - a * x
    y = _flush(_flush(x * residual) + x)
    return x if y != y else y


@numba.njit(inline="always", nogil=True)
def scalar_reciprocal(a):
    return _flush(_ONE / _flush(a))


@numba.njit(inline="always", nogil=True)
def packet_rsqrt(a):
    """Eigen's prsqrt under EIGEN_FAST_MATH: rsqrtps, one Newton step (no FMA). A denormal a
    needs no flush: rsqrtps reads it as zero, and the step's infinities make NaN or x itself."""
    x = _rsqrtps(a)
    r2 = a * x
    half_r = x * _MINUS_HALF
    h = r2 * x + _MINUS_ONE
    y = half_r * h + x
    return x if y != y else y


@numba.njit(inline="always", nogil=True)
def scalar_rsqrt(a):
    return _ONE / np.sqrt(_flush(a))


# What source_of writes into a generated file: the constants, then these functions.
FUNCTIONS = ("_flush", "_times_power_of_two", "_maximum", "packet_exp", "scalar_exp",
              "packet_log", "scalar_log", "packet_log1p", "scalar_log1p", "packet_expm1",
              "scalar_expm1", "tanh_float", "packet_sigmoid", "scalar_sigmoid",
              "packet_softplus", "scalar_softplus", "_rcpps", "_rsqrtps", "packet_reciprocal",
              "scalar_reciprocal", "packet_rsqrt", "scalar_rsqrt")


def source_of():
    """This module's constants and functions as source text, for a generated file that
    imports numpy, numba and math."""
    return ("\n".join(constants_source(globals())) + "\n\n\n"
            + functions_source(globals(), FUNCTIONS) + "\n\n")
