"""TensorFlow's Erf and Erfc (engine/kernels/cpu/eigen_erf.py, the reference) as numba functions
of one value: `packet_*` the packet path's lane, the same float32 and float64 operations in
the same order, written so a loop over them vectorises; `scalar_*` the scalar path of a
tensor's last elements (glibc's expf and exp through numba's math.exp). The loops are in
engine/kernels/compiled/eigen_arrays.py."""

import math

import numpy as np
import numba

from engine.kernels.compiled.eigen_numba import (_FLOAT32_BIAS, _FLOAT32_EXPONENT_MASK,
                                                 _FLOAT64_BIAS, _FLOAT64_MANTISSA_BITS,
                                                 _ONE, _RCP_INDEX_MASK, _RCP_TABLE_BITS, _ZERO,
                                                 _flush, _maximum, packet_exp, scalar_exp)
from engine.kernels.cpu import eigen_erf

_ERF_P, _ERF_Q = np.array(eigen_erf._ERF_P, np.float32), np.array(eigen_erf._ERF_Q, np.float32)
_ERF_X2_MAX = np.float32(16.0)
_ERFC_S = np.array(eigen_erf._ERFC_S, np.float32)
_ERFC_P = np.array(eigen_erf._ERFC_P, np.float32)
_ERFC_Q = np.array(eigen_erf._ERFC_Q, np.float32)
_ERFC_CLAMP, _TWO = np.float32(11.0), np.float32(2.0)
_VELTKAMP32, _VELTKAMP64 = np.float32(4097.0), np.float64(2 ** 27 + 1)

_TINY64 = np.float64(np.finfo(np.float64).tiny)
_ERF_S, _ERF_T = np.array(eigen_erf._ERF_S), np.array(eigen_erf._ERF_T)
_ERFC_P64, _ERFC_Q64 = np.array(eigen_erf._ERFC_P64), np.array(eigen_erf._ERFC_Q64)
_ERFC_CLAMP64 = np.float64(eigen_erf._ERFC_CLAMP64)
_EXP64_HI, _EXP64_LO = np.float64(eigen_erf._EXP64_HI), np.float64(eigen_erf._EXP64_LO)
_LOG2E64 = np.float64(eigen_erf._LOG2E64)
_LN2_C1, _LN2_C2 = np.float64(eigen_erf._LN2_C1), np.float64(eigen_erf._LN2_C2)
_EXP64_P, _EXP64_Q = np.array(eigen_erf._EXP64_P), np.array(eigen_erf._EXP64_Q)
_EXPONENT64_LIMIT = np.float64(1100.0)  # n of pexp_double lies in [-1075, 1024]


@numba.njit(inline="always", nogil=True)
def _polevl(x, coefficients):
    """Horner's rule from the highest coefficient, in x's type (Eigen's ppolevl)."""
    p = coefficients[0]
    for k in range(1, coefficients.shape[0]):
        p = p * x + coefficients[k]
    return p


@numba.njit(inline="always", nogil=True)
def _square_low(x, x2, veltkamp):
    """x * x - x2 exactly (twoprod_low from Veltkamp's halves, no FMA)."""
    gamma = x * veltkamp
    high = (x - gamma) + gamma
    low = x - high
    p = high * high - x2
    p = high * low + p
    p = low * high + p
    return low * low + p


@numba.njit(inline="always", nogil=True)
def erf_float32(x):
    x = _flush(x)
    x2 = _flush(x * x)
    x2 = x2 if x2 < _ERF_X2_MAX else _ERF_X2_MAX
    p = _flush(x * _polevl(x2, _ERF_P))
    r = _flush(p / _polevl(x2, _ERF_Q))
    r = _ONE if _ONE < r else r
    return -_ONE if r < -_ONE else r


@numba.njit(inline="always", nogil=True)
def _reciprocal_newton(a):
    """x86_reciprocal.reciprocal_newton of a positive normal value whose reciprocal is normal
    (Erfc's 1 / x^2, x^2 in [1, 121]; eigen_numba.packet_reciprocal takes any value): rcpps's
    guess from its table, one Newton step."""
    bits = np.float32(a).view(np.int32)
    exponent = ((bits >> 23) & _FLOAT32_EXPONENT_MASK) - _FLOAT32_BIAS
    guess = np.int32(_RCP_TABLE_BITS[(bits >> 11) & _RCP_INDEX_MASK]
                     - (exponent << 23)).view(np.float32)
    residual = _ONE - a * guess
    return guess * residual + guess if residual == residual else guess


@numba.njit(inline="always", nogil=True)
def _erfc_float32(x, e, q2):
    """generic_fast_erfc<float> given x, exp(-x^2) and 1 / x^2 as its path computes them."""
    x2 = _flush(x * x)
    small = x * _polevl(x2, _ERFC_S) + _ONE
    z = e - _flush(e * _square_low(x, x2, _VELTKAMP32))
    r = _polevl(q2, _ERFC_P) / (x * _polevl(q2, _ERFC_Q))
    large = _flush(_flush(z * r) + (_TWO if x < _ZERO else _ZERO))
    return large if _ONE < x2 else small


@numba.njit(inline="always", nogil=True)
def _erfc_clamp(x):
    x = _flush(x)
    x = -_ERFC_CLAMP if x < -_ERFC_CLAMP else x
    return _ERFC_CLAMP if _ERFC_CLAMP < x else x


@numba.njit(inline="always", nogil=True)
def packet_erfc_float32(x):
    x = _erfc_clamp(x)
    x2 = _flush(x * x)
    return _erfc_float32(x, packet_exp(-x2), _reciprocal_newton(x2))


# packet_erfc_float32 in three parts, for three passes over a block (ERFC_PASSES): exp(-x^2),
# then 1 / x^2, then the rest, each value's operations those of packet_erfc_float32.
# The three passes, as source for the generated loops (engine/kernels/compiled/eigen_arrays.py,
# fused_numba.py): `n` values of `xs` into `outs`, through block-sized temporaries e and q that
# the loop allocates. In one pass the loop needed more than AVX-512's 32 registers and spilled
# its constants: 3M float32 took 7.4 ms on one thread, in three passes over blocks of 2,048
# (their temporaries in L1) 5.5 (2026-11-28, load 3.7). Each pass is a loop over one
# contiguous array, which vectorises; one value at a time through packet_erfc_float32 by
# index, as a fused chain's loop went, took 33 ns a value (a GELU with 1% of its values past
# |x| = 1: 2.7 ms against 1.7 for 3M values on one thread).
ERFC_PASSES = """{pad}es, qs = e[:{n}], q[:{n}]
{pad}for j in range({n}):
{pad}    es[j] = erfc_exp_float32({xs}[j])
{pad}for j in range({n}):
{pad}    qs[j] = erfc_reciprocal_float32({xs}[j])
{pad}for j in range({n}):
{pad}    {outs}[j] = erfc_rest_float32({xs}[j], es[j], qs[j])
"""


@numba.njit(inline="always", nogil=True)
def erfc_exp_float32(x):
    x = _erfc_clamp(x)
    return packet_exp(-_flush(x * x))


@numba.njit(inline="always", nogil=True)
def erfc_reciprocal_float32(x):
    x = _erfc_clamp(x)
    return _reciprocal_newton(_flush(x * x))


@numba.njit(inline="always", nogil=True)
def erfc_rest_float32(x, e, q2):
    return _erfc_float32(_erfc_clamp(x), e, q2)


# Eigen's packets take the large-|x| branch only where some lane needs it (the early return
# of generic_fast_erfc and generic_fast_erf<double>: `if (!predux_any(x_abs_gt_one_mask))
# return erfc_small;`). The loops of engine/kernels/compiled/eigen_arrays.py do the same per
# value with these lanes: a value's small branch is the packet lane's small value, bit for
# bit, and a value that needs the large branch goes through the packet lane itself.
@numba.njit(inline="always", nogil=True)
def erfc_small_float32(x):
    x = _erfc_clamp(x)
    return x * _polevl(_flush(x * x), _ERFC_S) + _ONE


@numba.njit(inline="always", nogil=True)
def erfc_large_float32(x):
    """Whether packet_erfc_float32 takes the large branch for x: 1 < x*x of x clamped to
    [-11, 11] and flushed, which is |x| > 1 for every float32 (all 2^32 of them compared,
    2026-11-28: the square rounds to 1 only from |x| < 1, clamping keeps |x| > 1, and a NaN
    or a flushed subnormal fails both). The clamp, flush and square cost a GELU's 3M values
    0.33 ms of a thread; the comparison 0.06."""
    return abs(x) > _ONE


@numba.njit(inline="always", nogil=True)
def scalar_erfc_float32(x):
    x = _erfc_clamp(x)
    x2 = _flush(x * x)
    return _erfc_float32(x, scalar_exp(-x2), _ONE / x2)


@numba.njit(inline="always", nogil=True)
def _flush64(x):
    return x * 0.0 if abs(x) < _TINY64 else x


@numba.njit(inline="always", nogil=True)
def _power_of_two64(k):
    return np.int64((k + _FLOAT64_BIAS) << _FLOAT64_MANTISSA_BITS).view(np.float64)


@numba.njit(inline="always", nogil=True)
def _ldexp64(y, n):
    """y * 2**n rounded once (np.ldexp), n integral: two powers of two, the first exact."""
    n = n if n > -_EXPONENT64_LIMIT else -_EXPONENT64_LIMIT
    n = n if n < _EXPONENT64_LIMIT else _EXPONENT64_LIMIT
    k = np.int64(n)
    half = k >> 1
    return (y * _power_of_two64(half)) * _power_of_two64(k - half)


@numba.njit(inline="always", nogil=True)
def packet_exp_float64(x):
    c = _EXP64_HI if x > _EXP64_HI else x
    n = np.floor(_LOG2E64 * c + 0.5)
    g = c - n * _LN2_C1
    g = g - n * _LN2_C2
    g2 = g * g
    p = _polevl(g2, _EXP64_P) * g
    y = 2.0 * (p / (_polevl(g2, _EXP64_Q) - p)) + 1.0
    y = _maximum(_ldexp64(y, n), x)
    return 0.0 if x < _EXP64_LO else _flush64(y)


@numba.njit(inline="always", nogil=True)
def scalar_exp_float64(x):
    """glibc's exp (numba's math.exp of a float64 calls it), under FTZ/DAZ."""
    return _flush64(math.exp(_flush64(x)))


@numba.njit(inline="always", nogil=True)
def _erfc_float64_large(x, x2, e):
    """erfc for 1 < |x| <= 28 given e = exp(-x^2) as its path computes it."""
    z = e - _flush64(e * _square_low(x, x2, _VELTKAMP64))
    q2 = 1.0 / x2
    r = _polevl(q2, _ERFC_P64) / (x * _polevl(q2, _ERFC_Q64))
    return _flush64(_flush64(z * r) + (2.0 if x < 0.0 else 0.0))


@numba.njit(inline="always", nogil=True)
def _erf_float64(x, e):
    """generic_fast_erf<double> of a flushed x given e = exp(-x^2) as its path computes it."""
    x2 = _flush64(x * x)
    small = _flush64(x * (_polevl(x2, _ERF_S) / _polevl(x2, _ERF_T)))
    large = 1.0 - _erfc_float64_large(x, x2, e)
    return large if 1.0 < x2 else small


@numba.njit(inline="always", nogil=True)
def packet_erf_float64(x):
    x = _flush64(x)
    return _erf_float64(x, packet_exp_float64(-_flush64(x * x)))


@numba.njit(inline="always", nogil=True)
def scalar_erf_float64(x):
    x = _flush64(x)
    return _erf_float64(x, scalar_exp_float64(-_flush64(x * x)))


@numba.njit(inline="always", nogil=True)
def _erfc_float64(x, e):
    """generic_fast_erfc<double> of a clamped x given e = exp(-x^2) as its path computes it."""
    x2 = _flush64(x * x)
    small = 1.0 - _flush64(x * (_polevl(x2, _ERF_S) / _polevl(x2, _ERF_T)))
    large = _erfc_float64_large(x, x2, e)
    return large if 1.0 < x2 else small


@numba.njit(inline="always", nogil=True)
def _erfc_clamp64(x):
    x = _flush64(x)
    x = -_ERFC_CLAMP64 if x < -_ERFC_CLAMP64 else x
    return _ERFC_CLAMP64 if x > _ERFC_CLAMP64 else x


@numba.njit(inline="always", nogil=True)
def packet_erfc_float64(x):
    x = _erfc_clamp64(x)
    return _erfc_float64(x, packet_exp_float64(-_flush64(x * x)))


@numba.njit(inline="always", nogil=True)
def scalar_erfc_float64(x):
    x = _erfc_clamp64(x)
    return _erfc_float64(x, scalar_exp_float64(-_flush64(x * x)))


@numba.njit(inline="always", nogil=True)
def _erf_over_x_float64(x2):
    return _polevl(x2, _ERF_S) / _polevl(x2, _ERF_T)


@numba.njit(inline="always", nogil=True)
def erf_small_float64(x):
    x = _flush64(x)
    return _flush64(x * _erf_over_x_float64(_flush64(x * x)))


@numba.njit(inline="always", nogil=True)
def erf_large_float64(x):
    """Whether packet_erf_float64 takes the large branch for x."""
    x = _flush64(x)
    return 1.0 < _flush64(x * x)


@numba.njit(inline="always", nogil=True)
def erfc_small_float64(x):
    x = _erfc_clamp64(x)
    return 1.0 - _flush64(x * _erf_over_x_float64(_flush64(x * x)))


@numba.njit(inline="always", nogil=True)
def erfc_large_float64(x):
    """Whether packet_erfc_float64 takes the large branch for x."""
    x = _erfc_clamp64(x)
    return 1.0 < _flush64(x * x)


# What a generated file takes of this module: its constants, then these functions.
FUNCTIONS = ("_polevl", "_square_low", "erf_float32", "_reciprocal_newton", "_erfc_float32",
             "_erfc_clamp", "packet_erfc_float32", "erfc_exp_float32",
             "erfc_reciprocal_float32", "erfc_rest_float32", "scalar_erfc_float32", "_flush64",
             "_power_of_two64", "_ldexp64", "packet_exp_float64", "scalar_exp_float64",
             "_erfc_float64_large", "_erf_float64", "packet_erf_float64", "scalar_erf_float64",
             "_erfc_float64", "_erfc_clamp64", "packet_erfc_float64", "scalar_erfc_float64",
             "erfc_small_float32", "erfc_large_float32", "_erf_over_x_float64",
             "erf_small_float64", "erf_large_float64", "erfc_small_float64",
             "erfc_large_float64")
