"""TensorFlow's float32 sin and cos on the CPU, bit for bit.

TensorFlow 2.21's Sin and Cos kernels are Eigen's scalar_sin_op and scalar_cos_op, evaluated
as the other float functions (engine/kernels/cpu/eigen_float32.py): on 8-float packets Eigen's
psincos_float (Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h, EIGEN_FAST_MATH's
HasSin and HasCos), on the last n % 8 elements the C library's sinf and cosf, under FTZ/DAZ.
psincos_float, as built without FMA:
- y = round(|x| * 2/pi) (by adding and subtracting 1.5 * 2**23; its low bits are the
  quadrant), and r = |x| - y * pi/2 in four multiply-adds of a four-part pi/2, each rounded
  twice;
- where |x| is at least 25966 (sin) or 18838 (cos), and finite, r and the quadrant come from
  a Payne-Hanek reduction instead (trig_reduce_huge: 2/pi's bits in fixed point, r in double);
- a degree-8 polynomial of r for cos and a degree-7 one for sin, chosen by the quadrant's low
  bit, the sign by its second bit (and x's sign for sin).
float64 Sin and Cos (AVX without AVX2 has no double sin packet) and float16 keep NumPy's.

>>> float(sin(np.full(8, 1.0, np.float32))[0])  # a packet
0.8414709568023682
"""

import ctypes

import numpy as np

from engine.kernels.cpu import eigen_float32
from engine.kernels.cpu.eigen_float32 import _flush, _keep_denormal_inputs

_F = np.float32
_TWO_OVER_PI = _F(0.636619746685028076171875)
_ROUNDING_MAGIC = _F(12582912.0)  # 1.5 * 2**23
# pi/2 in four parts, without FMA (Eigen: 2 ulp up to the thresholds below)
_PIO2 = [_F(-1.5703125), _F(-0.000483989715576171875), _F(1.62865035235881805419921875e-07),
         _F(5.5644315544167710640977020375430583953857421875e-11)]
_HUGE = {True: _F(25966.0), False: _F(18838.0)}  # sin, cos: Payne-Hanek from there
_COS_POLY = [_F(2.4372266125283204019069671630859375e-05),
             _F(-0.00138865201734006404876708984375), _F(0.041666619479656219482421875),
             _F(-0.5), _F(1.0)]
_SIN_POLY = [_F(-0.0001959234114083702898469196984621021329076029360294342041015625),
             _F(0.0083326873655616851693794799871284340042620897293090820312500000),
             _F(-0.1666666203982298255503735617821803316473960876464843750000000000)]
_SIGN = np.int32(-0x80000000)

# 192 bits of 2/pi, each word starting a byte later (trig_reduce_huge's aligned reads)
_TWO_OVER_PI_BITS = np.array([
    0x00000028, 0x000028be, 0x0028be60, 0x28be60db, 0xbe60db93, 0x60db9391, 0xdb939105,
    0x9391054a, 0x91054a7f, 0x054a7f09, 0x4a7f09d5, 0x7f09d5f4, 0x09d5f47d, 0xd5f47d4d,
    0xf47d4d37, 0x7d4d3770, 0x4d377036, 0x377036d8, 0x7036d8a5, 0x36d8a566, 0xd8a5664f,
    0xa5664f10, 0x664f10e4, 0x4f10e410, 0x10e41000, 0xe4100000], np.uint64)
_PIO2_62 = 3.4061215800865545e-19  # pi/2 * 2**-62
_LOW32 = np.uint64(0xFFFFFFFF)


def trig_reduce_huge(values):
    """Eigen's trig_reduce_huge of finite float32 values of 2**14 or more:
    (r, quadrant), r = values - quadrant * pi/2 in [-pi/4, pi/4], rounded to float32."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    e = (bits >> np.uint64(23)) - np.uint64(118)
    xi = ((bits & np.uint64(0x007FFFFF)) | np.uint64(0x00800000)) << (e & np.uint64(7))
    i = (e >> np.uint64(3)).astype(np.int64)
    high, middle, low = (_TWO_OVER_PI_BITS[i - 1], _TWO_OVER_PI_BITS[i + 3],
                         _TWO_OVER_PI_BITS[i + 7])
    with np.errstate(over="ignore"):
        p = xi * low
        p = xi * middle + (p >> np.uint64(32))
        p = (((xi * high) & _LOW32) << np.uint64(32)) + p  # uint32 product, then shifted
        q = (p + (np.uint64(1) << np.uint64(61))) >> np.uint64(62)
        p = p - (q << np.uint64(62))
    r = (p.view(np.int64).astype(np.float64) * _PIO2_62).astype(np.float32)
    return r, q.astype(np.int32)


def _sincos(x, sine):
    """psincos_float<sine> of float32 values, every multiply-add rounded twice."""
    x_in = _flush(np.asarray(x, np.float32))  # DAZ: arithmetic reads a denormal as zero
    with np.errstate(all="ignore"):
        x = np.abs(x_in)
        y_round = x * _TWO_OVER_PI + _ROUNDING_MAGIC
        y_int = y_round.view(np.int32)
        y = y_round - _ROUNDING_MAGIC
        for c in _PIO2:
            x = y * c + x
        huge = (np.abs(x_in) >= _HUGE[sine]) & np.isfinite(x_in)
        if huge.any():
            x, y_int = x.copy(), y_int.copy()
            x[huge], y_int[huge] = trig_reduce_huge(np.abs(x_in[huge]))
        if sine:
            sign = (x_in.view(np.int32) ^ (y_int << 30)) & _SIGN
        else:
            sign = ((y_int + 1) << 30) & _SIGN
        even = (y_int & 1) == 0
        x2 = x * x
        y1 = _COS_POLY[0]
        for c in _COS_POLY[1:]:
            y1 = y1 * x2 + c
        y2 = _SIN_POLY[0]
        for c in _SIN_POLY[1:]:
            y2 = y2 * x2 + c
        y2 = (y2 * x2) * x + x
        y = np.where(even, y2, y1) if sine else np.where(even, y1, y2)
        return (y.view(np.int32) ^ sign).view(np.float32)


def packet_sin(x):
    return _sincos(x, True)


def packet_cos(x):
    return _sincos(x, False)


def _libm(name):
    try:
        function = getattr(ctypes.CDLL("libm.so.6"), name)
    except (OSError, AttributeError):
        return None
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return function


_SINF, _COSF = _libm("sinf"), _libm("cosf")


def _scalar(function, stand_in, keeps_tiny):
    """The C library's function over a tail (a few values), under FTZ/DAZ; without glibc,
    NumPy's float32 function stands in. `keeps_tiny`: glibc returns a tiny argument itself,
    by bits, so a denormal comes back as it came (sinf)."""
    def apply(x):
        x = np.asarray(x, np.float32)
        flushed = _flush(x)
        with np.errstate(all="ignore"):
            if function is None:
                y = _flush(stand_in(flushed))
            else:
                y = _flush(np.array([function(float(v)) for v in flushed.reshape(-1)],
                                    np.float32).reshape(x.shape))
        return _keep_denormal_inputs(x, y) if keeps_tiny else y
    return apply


scalar_sin = _scalar(_SINF, np.sin, keeps_tiny=True)
scalar_cos = _scalar(_COSF, np.cos, keeps_tiny=False)
sin = eigen_float32.packets_and_tail(packet_sin, scalar_sin, "sin")
cos = eigen_float32.packets_and_tail(packet_cos, scalar_cos, "cos")
