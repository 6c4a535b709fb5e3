"""TensorFlow's float32 exp, log, tanh and sigmoid (engine/kernels/cpu/eigen_float32.py, the
reference) as numba scalar functions, for the loops of fused chains.

`packet_*` is Eigen's packet path for one lane: the same float32 operations in the same order
(numba, without fastmath, neither fuses a multiply-add nor reorders). `scalar_*` is Eigen's
scalar path, the last n % 8 elements of a tensor: math.exp and math.log of a float32 are
the C library's expf and logf there, as in TensorFlow. fused_numba writes these functions'
source into each chain's file that uses them (`source_of`), as it does Philox's, so numba's
on-disk cache of that file depends on nothing else.
"""

import inspect
import math

import numpy as np
import numba

from engine.kernels.cpu.eigen_float32 import PACKET  # noqa: F401 (fused_numba reads it here)

_TINY = np.float32(1.1754943508222875e-38)
_ZERO, _HALF, _ONE = np.float32(0.0), np.float32(0.5), np.float32(1.0)
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


@numba.njit(inline="always", nogil=True)
def _flush(x):
    """Denormals to signed zeros (TensorFlow's FTZ/DAZ)."""
    return x * _ZERO if abs(x) < _TINY else x


# 2**k for k in [-_POW2_OFFSET, _POW2_OFFSET): exp's and sigmoid's m lies in [-151, 129]
_POW2_OFFSET = 160
_POW2 = np.ldexp(1.0, np.arange(-_POW2_OFFSET, _POW2_OFFSET))


@numba.njit(inline="always", nogil=True)
def _times_power_of_two(y, m):
    """y * 2**m rounded once to float32 (NaN m: y is NaN too): exact in float64, then one
    rounding, as Eigen's pldexp (a table lookup, where math.ldexp is a library call)."""
    if m != m:
        return y
    return np.float32(np.float64(y) * _POW2[int(m) + _POW2_OFFSET])


@numba.njit(inline="always", nogil=True)
def packet_exp(x):
    if x != x:
        return x
    c = min(x, _EXP_HI)
    m = np.floor(c * _LOG2E + _HALF)
    r = m * _LN2_HI + c
    r = m * _LN2_LO + r
    r2 = r * r
    p_even = r2 * _EXP_P6 + _EXP_P4
    p_odd = r2 * _EXP_P5 + _EXP_P3
    p_even = r2 * p_even + _EXP_P2
    y = r * p_odd + p_even
    y = r2 * y + (r + _ONE)
    y = max(_times_power_of_two(y, m), x)
    if x < _EXP_LO:
        return _ZERO
    return _flush(y)


@numba.njit(inline="always", nogil=True)
def scalar_exp(x):
    return _flush(np.float32(math.exp(_flush(x))))


@numba.njit(inline="always", nogil=True)
def packet_log(x):
    x = _flush(x)
    if x != x or x < _ZERO:
        return np.float32(np.nan)
    if x == _ZERO:
        return np.float32(-np.inf)
    if x == np.float32(np.inf):
        return x
    mantissa, exponent = math.frexp(np.float64(x))
    m, e = np.float32(mantissa), np.float32(exponent)
    below = m < _SQRT_HALF
    shifted = m - _ONE
    if below:
        e = e - _ONE
        m = shifted + m
    else:
        m = shifted + _ZERO
    p = ((_LOG_P0 * m + _LOG_P1) * m + _LOG_P2) * m
    q = ((_LOG_Q0 * m + _LOG_Q1) * m + _LOG_Q2) * m + _ONE
    return e * _LN2 + p / q


@numba.njit(inline="always", nogil=True)
def scalar_log(x):
    if x != _ZERO and abs(x) < _TINY:
        return _LOGF_OF_DENORMAL if x > _ZERO else np.float32(np.nan)
    return _flush(np.float32(math.log(x)))


@numba.njit(inline="always", nogil=True)
def tanh_float(x):
    """Eigen's ptanh_float: one formula on both paths."""
    x = _flush(x)
    if x != x:
        return x
    x = max(min(x, _TANH_CLAMP), -_TANH_CLAMP)
    x2 = _flush(x * x)
    x3 = _flush(x2 * x)
    p = ((_TANH_P0 * x2 + _TANH_P1) * x2 + _TANH_P2) * x2 + _TANH_P3
    q = (((_TANH_Q0 * x2 + _TANH_Q1) * x2 + _TANH_Q2) * x2 + _TANH_Q3) * x2 + _ONE
    return _flush((x3 * p + x) / q)


@numba.njit(inline="always", nogil=True)
def packet_sigmoid(x):
    x = _flush(x)
    if x != x:
        return x
    if x < _EXP_LO:
        return _ZERO
    half = min(x, _LOGISTIC_HI) * _HALF
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
    return _flush(e / (_ONE + e))


@numba.njit(inline="always", nogil=True)
def scalar_sigmoid(x):
    if x != x:
        return x
    e = scalar_exp(min(_flush(x), _LOGISTIC_HI))
    return _flush(e / (_ONE + e))


# What source_of writes into a chain's file: the constants, then the functions.
_FUNCTIONS = ("_flush", "_times_power_of_two", "packet_exp", "scalar_exp", "packet_log",
              "scalar_log", "tanh_float", "packet_sigmoid", "scalar_sigmoid")


def source_of():
    """This module's constants and functions as source text, for a generated file that
    imports numpy, numba and math."""
    constants = [f"{name} = np.float32({float(value)!r})" for name, value in globals().items()
                 if name.startswith("_") and isinstance(value, np.float32)]
    constants += [f"_POW2_OFFSET = {_POW2_OFFSET}",
                  "_POW2 = np.ldexp(1.0, np.arange(-_POW2_OFFSET, _POW2_OFFSET))"]
    functions = [inspect.getsource(globals()[name].py_func) for name in _FUNCTIONS]
    return "\n".join(constants) + "\n\n\n" + "\n\n".join(functions) + "\n\n"
