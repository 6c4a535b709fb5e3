"""TensorFlow's float32 Atan2 on the CPU, bit for bit.

TensorFlow's Atan2 is Eigen's scalar_atan2_op (functor::atan2, cwise_ops.h): on packets of 8
floats patan2 (Eigen/src/Core/GenericPacketMath.h in the TensorFlow 2.21 wheel's include/):
y / x (+-1 where |x| == |y|, a signed zero where both are zero), Eigen's generic_atan of it
(a [2/3] rational function on [0, 1], pi/2 less it of the reciprocal beyond, the reciprocal
EIGEN_FAST_MATH's rcpps and a Newton step: engine/kernels/cpu/x86_reciprocal.py), plus 0 or pi
with y's sign by x's sign bit. The last n % 8 elements take std::atan2 (glibc's atan2f). Both
under FTZ/DAZ (engine/kernels/cpu/eigen_float32.py).

tools/make_atan2_fixtures.py compares these with TensorFlow and writes the sample
tests/engine/test_eigen_atan2.py compares.
"""

import numpy as np

from engine.kernels import compiled

from engine.kernels.cpu.eigen_float32 import (LOAD_AT_ONCE, LOAD_WHEN_OFTEN, _flush,
                                              c_float_function, loaded_or_worth_loading,
                                              _is_denormal, _polevl, packets_and_tail)
from engine.kernels.cpu.x86_reciprocal import TABLE_BITS, reciprocal_newton

_F = np.float32
_PI = _F(np.pi)
_PI_OVER_TWO = _F(np.pi / 2)
_ALPHA = [_F(1.12026982009410858154296875e-01), _F(7.296695709228515625e-01),
          _F(8.109951019287109375e-01)]
_BETA = [_F(1.00917108356952667236328125e-02), _F(2.8318560123443603515625e-01), _F(1.0),
         _F(8.109951019287109375e-01)]
_RCP_ZERO = _F(2.0 ** 126)  # rcpps gives 0 from here up (its result would be denormal)


def _reciprocal(a):
    """preciprocal<Packet8f> of a > 1 (inf included)."""
    big = a >= _RCP_ZERO
    safe = np.where(big, _F(2), a)
    return np.where(big, _F(0), reciprocal_newton(safe))


def packet_atan(x):
    """Eigen's generic_atan<Packet8f>."""
    with np.errstate(all="ignore"):
        abs_x = np.abs(x)
        large = _F(1) < abs_x
        r = np.where(large, _reciprocal(np.where(large, abs_x, _F(2))), abs_x)
        r2 = _flush(r * r)
        p = _flush(r * _flush(_polevl(r2, _ALPHA) / _polevl(r2, _BETA)))
        result = np.where(large, _PI_OVER_TWO - p, p)
        return np.where(np.signbit(x), -result, result)  # pxor with x's sign


def packet_atan2(y, x):
    """Eigen's patan2<Packet8f> lane by lane."""
    y_raw, x_raw = np.broadcast_arrays(np.asarray(y, _F), np.asarray(x, _F))
    y, x = _flush(y_raw), _flush(x_raw)
    with np.errstate(all="ignore"):
        result_negative = np.signbit(y) ^ np.signbit(x)
        shift = np.copysign(np.where(np.signbit(x), _PI, _F(0)), y)
        arg = _flush(y / x)
        arg = np.where(np.abs(x) == np.abs(y), np.where(result_negative, _F(-1), _F(1)), arg)
        # pcmp_eq(por(x, y), 0) as the compiler emits it: on the bits, so two denormals
        # (zeros to |x| == |y| under DAZ) are no zeros here (measured: atan2 of two is +-pi/4)
        zeros = (x_raw == 0) & (y_raw == 0)
        arg = np.where(zeros, np.where(result_negative, _F(-0.0), _F(0)), arg)
        return _flush(packet_atan(arg) + shift)


_ATAN2F, _ATANF = c_float_function("atan2f", 2), c_float_function("atanf", 1)


def scalar_atan2(y, x):
    """std::atan2(float, float): glibc's atan2f, one element at a time, under FTZ/DAZ.

    glibc 2.36's atan2f (fdlibm's e_atan2f.c) branches on its arguments' bits, then divides:
    where a denormal meets arithmetic (`_atan2f_of_denormals`) DAZ reads it as zero."""
    y, x = np.broadcast_arrays(np.asarray(y, _F), np.asarray(x, _F))
    fy, fx = y.reshape(-1), x.reshape(-1)
    with np.errstate(all="ignore"):
        if _ATAN2F is None:
            out = np.arctan2(_flush(fy).astype(np.float64), _flush(fx).astype(np.float64))
            return _flush(out.astype(_F)).reshape(y.shape)
        out = _flush(np.array([_ATAN2F(float(a), float(b)) for a, b in zip(fy, fx)], _F))
        denormal = (_is_denormal(fy) | _is_denormal(fx)) & np.isfinite(fy) & np.isfinite(fx) \
            & (fy != 0) & (fx != 0)
        if denormal.any():
            out[denormal] = _atan2f_of_denormals(fy[denormal], fx[denormal])
    return out.reshape(y.shape)


def _bits(u):
    return np.array([u], np.uint32).view(_F)[0]


_FD_PI_O_2, _FD_PI, _FD_PI_LO = _bits(0x3FC90FDB), _bits(0x40490FDB), _bits(0xB3BBBD2E)


def _atan2f_of_denormals(y, x):
    """fdlibm's atan2f past its zero and infinity branches, a denormal among y and x."""
    hx, hy = x.view(np.int32), y.view(np.int32)
    ix, iy = hx & 0x7FFFFFFF, hy & 0x7FFFFFFF
    k = (iy - ix) >> 23
    q = np.abs(_flush(_flush(y) / _flush(x)))
    z = np.array([_ATANF(float(v)) for v in q], _F)
    z = np.where(k > 60, _FD_PI_O_2 + _F(0.5) * _FD_PI_LO, np.where((hx < 0) & (k < -60), _F(0), z))
    m = (y < 0).astype(np.int32) | (2 * (x < 0)).astype(np.int32)
    out = np.select([m == 0, m == 1, m == 2], [z, -z, _FD_PI - (z - _FD_PI_LO)],
                    (z - _FD_PI_LO) - _FD_PI)
    return np.where(x == _F(1), y, out)  # x == 1: atanf(y), which hands a tiny y back


_ATAN2 = packets_and_tail(packet_atan2, scalar_atan2)


def atan2_float32(y, x):
    """tf.atan2 of float32 tensors on the CPU, bit for bit: broadcast, then Eigen's packets
    over the flat result and its scalar path on the last n % 8."""
    y, x = np.broadcast_arrays(y, x)
    loops = _compiled(y.size)
    if loops is not None:
        return loops.atan2_float32(y, x, scalar_atan2, TABLE_BITS)
    return _ATAN2(y, x)


_DEMAND = compiled.Demand(large=LOAD_AT_ONCE, often=LOAD_WHEN_OFTEN)


def _compiled(size):
    """engine/kernels/compiled/eigen_atan2_numba.py when loaded or worth loading, else None."""
    return loaded_or_worth_loading("atan2", size, _DEMAND)
