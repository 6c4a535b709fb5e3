"""TensorFlow's float32 Pow on the CPU, bit for bit.

TensorFlow's Pow is Eigen's scalar_pow_op (functor::pow, tensorflow/core/kernels/cwise_ops.h):
on packets of 8 floats it is generic_pow (Eigen/src/Core/arch/Default/
GenericPacketMathFunctions.h in the TensorFlow 2.21 wheel's include/): log2(|x|) in double-word
arithmetic (accurate_log2<float>, Dekker's products without FMA), times y in double words,
split into an integer n and a fraction r, exp2(r) from Eigen's pexp, scaled by 2**n; then
the special cases of std::pow (zeros, infinities, NaN, negative bases, y == 1, huge |y|)
by selects. The last n % 8 elements take the scalar path, std::pow (glibc's powf). As the
other float functions (engine/kernels/cpu/eigen_float32.py) it runs under FTZ/DAZ: a
denormal reads as zero, a denormal result is zero, but pow(x, 1) hands x back by a select,
denormal or not.

tools/make_pow_fixtures.py compares these with TensorFlow and writes the sample
tests/engine/test_eigen_pow.py compares.
"""

import numpy as np

from engine.kernels import compiled

from engine.kernels.cpu.eigen_float32 import (LOAD_AT_ONCE, LOAD_WHEN_OFTEN, _flush,
                                              c_float_function, loaded_or_worth_loading,
                                              _polevl, packet_exp, packets_and_tail)

_F = np.float32
_SQRT_HALF = _F(0.70710678118654752440)
_TINY = _F(np.finfo(np.float32).tiny)
_SPLIT = _F(4097)  # Veltkamp's 2**12 + 1 for float
_PREV_HALF = np.array([0x3EFFFFFF], np.uint32).view(np.float32)[0]
_LN2 = _F(0.693147180559945309417)
_HUGE_EXPONENT = _F(128) * _LN2 / _F(np.finfo(np.float32).eps)
_TINY_Y = _F(2.0 ** -20)  # |y| at least this: no step below makes a denormal (checked below)


def _halves(c):
    hi = _F(c)
    return hi, _F(c - float(hi))


_C0 = _halves(1.442695041742110273474963832995854318141937255859375e+00)
_C1 = _halves(-7.2134751588268664068692714863573201000690460205078125e-01)
_LOG2_POLY = [_F(9.7010828554630279541015625e-02), _F(-1.6896486282348632812500000e-01),
              _F(1.7200836539268493652343750e-01), _F(-1.7892272770404815673828125e-01),
              _F(2.0505344867706298828125000e-01), _F(-2.4046677350997924804687500e-01),
              _F(2.8857553005218505859375000e-01), _F(-3.6067414283752441406250000e-01),
              _F(4.8089790344238281250000000e-01)]


class _Arith:
    """float32 products as the packet instructions round them; `flush` makes zero of
    denormal products (FTZ), needed only where y is tiny."""

    def __init__(self, flush):
        self.mul = (lambda a, b: _flush(a * b)) if flush else (lambda a, b: a * b)

    def split(self, x):
        gamma = self.mul(_SPLIT, x)
        hi = (x - gamma) + gamma
        return hi, x - hi

    def two_prod(self, x, y):
        """Dekker's product without FMA: x * y = hi + lo exactly."""
        mul = self.mul
        x_hi, x_lo = self.split(x)
        y_hi, y_lo = self.split(y)
        hi = mul(x, y)
        lo = mul(x_hi, y_hi) - hi
        lo = mul(x_hi, y_lo) + lo
        lo = mul(x_lo, y_hi) + lo
        lo = mul(x_lo, y_lo) + lo
        return hi, lo

    def dw_times(self, x_hi, x_lo, y):
        c_hi, c_lo1 = self.two_prod(x_hi, y)
        c_lo2 = self.mul(x_lo, y)
        t_hi, t_lo1 = _fast_two_sum(c_hi, c_lo2)
        return _fast_two_sum(t_hi, t_lo1 + c_lo1)


def _fast_two_sum(x, y):
    s = x + y
    return s, y - (s - x)


def _dw_plus(x_hi, x_lo, y_hi, y_lo):
    r_hi, r_lo = _fast_two_sum(x_hi, y_hi)
    return _fast_two_sum(r_hi, (y_lo + r_lo) + x_lo)


def _round(a):
    """Eigen's pround<Packet8f>: half away from zero, as a + copysign(0.49999997, a)
    truncated."""
    return np.trunc(a + np.copysign(_PREV_HALF, a))


def _accurate_log2(z, arith):
    x = z - _F(1)
    p = _polevl(x, _LOG2_POLY)
    p_hi, p_lo = arith.two_prod(x, p)
    p_hi, p_lo = _dw_plus(*_C1, p_hi, p_lo)
    p_hi, p_lo = arith.dw_times(p_hi, p_lo, x)
    p_hi, p_lo = _dw_plus(*_C0, p_hi, p_lo)
    return arith.dw_times(p_hi, p_lo, x)


def _exp2(x, arith):
    """generic_exp2: pexp(hi) * (1 + lo), hi + lo = ln(2) * x."""
    x = np.clip(x, _F(-151), _F(129))
    p_hi, p_lo = arith.two_prod(np.full_like(x, _LN2), x)
    return packet_exp(p_hi) * (_F(1) + p_lo)


def _pow_positive(x, y, arith):
    """generic_pow_impl for x = |x|, no denormals."""
    m, e = np.frexp(x)
    e = e.astype(np.float32)
    low = m < _SQRT_HALF
    m = np.where(low, _F(2) * m, m)
    e = np.where(low, e - _F(1), e)
    rx_hi, rx_lo = _accurate_log2(m, arith)
    f1_hi, f1_lo = arith.two_prod(e, y)
    f2_hi, f2_lo = arith.dw_times(rx_hi, rx_lo, y)
    f_hi, f_lo = _dw_plus(f1_hi, f1_lo, f2_hi, f2_lo)
    n = _round(f_hi)
    r = (f_hi - n) + f_lo
    n_r = _round(r)
    r = r - n_r
    n = n + n_r
    e_r = _exp2(r, arith)
    # pldexp and pldexp_fast agree wherever a packet may take either; both are exact
    # but for overflow and FTZ's zero
    n = np.clip(np.nan_to_num(n), -278, 278).astype(np.int32)
    return _flush(np.ldexp(e_r, n))


def packet_pow(x, y):
    """Eigen's generic_pow<Packet8f> lane by lane."""
    x_raw = np.asarray(x, _F)
    x, y = _flush(x_raw), _flush(np.asarray(y, _F))
    x, y = np.broadcast_arrays(x, y)
    x_raw = np.broadcast_to(x_raw, x.shape)
    with np.errstate(all="ignore"):
        y_abs = np.abs(y)
        tiny_y = ((y_abs < _TINY_Y) & (y_abs != 0)).any()
        x_abs = np.abs(x)
        pow_ = _pow_positive(x_abs, y, _Arith(flush=bool(tiny_y)))
        x_negative = x < 0
        x_zero = x == 0
        y_abs_inf = y_abs == np.inf
        y_negative = y < 0
        y_int = (np.floor(y) == y) & ~y_abs_inf
        y_half = y * _F(0.5)
        y_odd_int = y_int & ~(_round(y_half) == y_half)
        nan, inf, zero, one = _F(np.nan), _F(np.inf), _F(0), _F(1)
        pow_ = np.where(x_negative & ~y_int, nan, pow_)
        pow_ = np.where(x_zero, np.where(y_negative, inf, zero), pow_)
        pow_ = np.where(np.signbit(x) & y_odd_int, -pow_, pow_)
        inf_y = np.where((y_negative & x_zero) | (y_negative ^ (one < x_abs)), inf, zero)
        inf_y = np.where(x == _F(-1), one, inf_y)
        pow_ = np.where(_HUGE_EXPONENT <= y_abs, inf_y, pow_)
        pos_inf = np.where(y_negative, zero, inf)
        neg_inf = np.where(y_odd_int, -pos_inf, pos_inf)
        pow_ = np.where(x_abs == inf, np.where(x_negative, neg_inf, pos_inf), pow_)
        pow_ = np.where(np.isnan(x) | np.isnan(y), nan, pow_)
        pow_ = np.where(y == one, x_raw, np.where((x == one) | (y == 0), one, pow_))
    return pow_.astype(_F, copy=False)


_POWF = c_float_function("powf", 2)


def scalar_pow(x, y):
    """std::pow(float, float): glibc's powf, one element at a time, under FTZ/DAZ.

    glibc's powf reads its arguments' bits before any arithmetic: a denormal y is no zero to
    it (pow(-2, y) is NaN, pow(NaN, y) NaN) though y * log2(x) is 0 under DAZ; so y goes in as
    it is, and this process (without DAZ) gets the same 1 from exp2 of a denormal. A denormal
    x it scales by 2**23 to normalize, which DAZ makes zero: the bits that follow are those
    of 2**-150, so pow(x, y) is 2**(-150 * y) rounded (`_powf_of_denormal`)."""
    x, y = np.broadcast_arrays(np.asarray(x, _F), np.asarray(y, _F))
    fx, fy = x.reshape(-1), y.reshape(-1)
    with np.errstate(all="ignore"):
        if _POWF is None:
            out = np.power(_flush(fx).astype(np.float64), _flush(fy).astype(np.float64))
            out = out.astype(_F)
        else:
            out = np.array([_POWF(float(a), float(b)) for a, b in zip(fx, fy)], _F)
        denormal = (np.abs(fx) < _TINY) & (fx != 0) & np.isfinite(fy)
        if denormal.any():
            out = np.where(denormal, _powf_of_denormal(fx, fy), out)
    return _flush(out).reshape(x.shape)


def _powf_of_denormal(x, y):
    """powf of a denormal x and a finite y under DAZ: the sign from y's bits (a denormal y is
    no integer), the magnitude 2**(-150 * y), y * -150 read under DAZ."""
    value = np.exp2(-150.0 * _flush(y).astype(np.float64)).astype(_F)
    y64 = y.astype(np.float64)
    integer = np.floor(y64) == y64
    odd = integer & (np.fmod(y64, 2.0) != 0)
    value = np.where((x < 0) & odd, -value, value)
    return np.where((x < 0) & ~integer, _F(np.nan), value)


def pow_float32(x, y):
    """tf.pow of float32 tensors on the CPU, bit for bit: x and y broadcast, then Eigen's
    packets over the flat result and its scalar path on the last n % 8 (TensorFlow's
    same-shape, scalar and broadcasting forms all measured so)."""
    x, y = np.broadcast_arrays(x, y)
    loops = _compiled(x.size)
    if loops is not None:
        return loops.pow_float32(x, y, scalar_pow)
    return _POW(x, y)


_POW = packets_and_tail(packet_pow, scalar_pow)
_DEMAND = compiled.Demand(large=LOAD_AT_ONCE, often=LOAD_WHEN_OFTEN)


def _compiled(size):
    """engine/kernels/compiled/eigen_pow_numba.py when loaded or worth loading, else None."""
    return loaded_or_worth_loading("pow", size, _DEMAND)
