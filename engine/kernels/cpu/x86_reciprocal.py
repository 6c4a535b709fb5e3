"""x86's approximate float32 reciprocal (rcpps) and reciprocal square root (rsqrtps), as
TensorFlow's float32 Reciprocal, Rsqrt and Erfc meet them.

TensorFlow's Eigen is built with EIGEN_FAST_MATH, under which preciprocal and prsqrt of an
8-float packet are not a division: they take the rcpps or rsqrtps instruction's 12-bit guess
and refine it with one Newton step (Eigen/src/Core/arch/AVX/MathFunctions.h;
generic_reciprocal_newton_step and generic_rsqrt_newton_step in Core/MathFunctionsImpl.h),
which leaves the last bit to depend on the guess. The instructions are tables in the CPU, and
vendors' tables differ, so the bits are those of the CPU TensorFlow ran on. On AMD Zen 5,
where the fixtures were made (tools/capture_rcpps.py checks these models there on every
float32), rcpps of 1.m * 2**e reads the top 12 bits of m and gives a 12-bit mantissa in
[0.5, 1), times 2**-e; rsqrtps of 1.m * 2**(2k + p) (p = 0 or 1) reads p and the top 12 bits
of m and gives a 12-bit mantissa in [0.5, 1), times 2**-k. The tables are stored as the steps
between their entries. On a CPU with other tables (Intel's) TensorFlow's values differ from
these bits by an ulp for some arguments.

Outside the positive normals: both give an infinity of the input's sign for zeros and
denormals (treated as zeros), and a quiet NaN of a NaN's bits; rcpps gives a zero of the
input's sign for infinities and where the reciprocal is below the smallest normal (|x| >=
about 2**126); rsqrtps gives +0 for +inf and the default NaN for negative values (-inf too).

>>> float(rcpps(np.float32([3.0]))[0])
0.33331298828125
>>> x = np.linspace(1, 121, 1000, dtype=np.float32)  # where Erfc takes it
>>> float(np.mean(reciprocal_newton(x) != np.float32(1) / x))  # an ulp from the division
0.288
>>> float(rsqrt_newton(np.float32([2.0]))[0])
0.7071067690849304
"""

import base64
import zlib

import numpy as np

_RCP_STEPS = (
    "eNrNkgsOAiEMRKfF+5/ZGBblozs7aVFZAnm8KRCy7ua11fk2cSHeSb6QvDpbMj+mvhfCLvooWzJjPc/MX18R2UWv"
    "sole5bbQ+syF+Cib6KOM9bxnqj7MXrZkrzJWf4SGdF926rMZyR68fmjv1s48y1swrzakVGG6Ly7nsxn7Paa1gZ14"
    "Vm/J9RDreR7jIDI216tez7cnQbe8j5GcV/2ax9j/nBH0C6N/FT67mN+9H/LuU4eJjTC+7JFcf/wy/b+Tyvjxfrjm"
    "P26j+mg+u57xHTJDEAE=")
_RSQRT_STEPS = (
    "eNrdltsOwjAMQ938/0fzwGDrNXhJ0w7GlHo+TkU1iaT0/uCoouhk5JORt2o0/OszGbC/+KsreB/nGpUWxZ+t4cy3"
    "/exkMi2KP1vDmS99OdX129Usv1pD40+yWWf7mJxX67HOz+e+hjPv7Td4VGWgheSjNVg+5VdSNDbzzTz+68LdXHEe"
    "pdHzWT7aV3km3NDJmF+tv7I8jo4GyXv38+aRPfm8H6eO9lfwZMSko/fTde5Z62791Dw5WYviw3mShzPf+smoln0t"
    "JM9qTM73/E8RcvaUjWdhTmd/iVdzqOHsR/P4s3kWrK9MElbfynvnK714DkVwfsA35sH5fjRf5x2HlQdUoH7x88Fw"
    "rEHybB7B/bBZPytP93Ps/URdepi8N4Lz3nx0P2+/5o9159b8aH63/O77afcLGZQQAQ==")
_STEP_UNIT = 1 << 11  # a step is one unit of the 12-bit mantissa


def _table_bits(blob):
    steps = np.frombuffer(zlib.decompress(base64.b64decode(blob)), np.uint8)
    one = np.int64(np.float32(1.0).view(np.int32))
    return (one - np.cumsum(steps.astype(np.int64)) * _STEP_UNIT).astype(np.int32)


# rcpps of [1, 2) by the top 12 mantissa bits, as float32 bits
TABLE_BITS = _table_bits(_RCP_STEPS)
# rsqrtps of [1, 4) by the exponent's parity and the top 12 mantissa bits, as float32 bits
RSQRT_TABLE_BITS = _table_bits(_RSQRT_STEPS)
_MANTISSA_SHIFT = 23
_INDEX_SHIFT, _INDEX_MASK = 11, 0xFFF
_RSQRT_INDEX_MASK, _RSQRT_PARITY_BIT = 0x1FFF, 0x1000  # the bias is odd: parity flipped
_BIAS = 127
_MAGNITUDE, _SIGN = np.int32(0x7FFFFFFF), np.int32(-0x80000000)
_SMALLEST_NORMAL, _INF, _QUIET = np.int32(0x00800000), np.int32(0x7F800000), np.int32(0x00400000)
_DEFAULT_NAN = np.int32(-0x00400000)  # 0xFFC00000, x86's "real indefinite"
# Magnitudes up to 2**100 (bits): their reciprocals and the Newton step's terms stay normal
_ORDINARY_RECIPROCAL = np.int32(np.float32(2.0 ** 100).view(np.int32))
_F = np.float32
_TINY = _F(np.finfo(np.float32).tiny)


def _bits(a):
    return np.asarray(a, np.float32).view(np.int32)


def _all_within(bits, low, high):
    """Whether every bit pattern lies in [low, high) (as int32, both nonnegative)."""
    return bool(((bits - low).view(np.uint32) < np.uint32(high - low)).all())


def _rcpps(bits):
    """(rcpps's bits, whether every input is a normal of magnitude below 2**100)."""
    magnitude = bits & _MAGNITUDE
    exponent = (magnitude >> _MANTISSA_SHIFT) - _BIAS
    with np.errstate(over="ignore"):
        guess = TABLE_BITS[(bits >> _INDEX_SHIFT) & _INDEX_MASK] - (exponent << _MANTISSA_SHIFT)
    ordinary = _all_within(magnitude, _SMALLEST_NORMAL, _ORDINARY_RECIPROCAL)
    if not ordinary:
        guess = np.where(guess < _SMALLEST_NORMAL, np.int32(0), guess)  # a tiny result is 0
        guess = np.where(magnitude < _SMALLEST_NORMAL, _INF, guess)  # zeros and denormals
        guess = np.where(magnitude == _INF, np.int32(0), guess)
        guess = np.where(magnitude > _INF, magnitude | _QUIET, guess)
    return (guess | (bits & _SIGN)).astype(np.int32, copy=False), ordinary


def _rsqrtps(bits):
    """(rsqrtps's bits, whether every input is a positive normal)."""
    index = ((bits >> _INDEX_SHIFT) & _RSQRT_INDEX_MASK) ^ _RSQRT_PARITY_BIT
    half_exponent = ((bits >> _MANTISSA_SHIFT) - _BIAS) >> 1
    guess = RSQRT_TABLE_BITS[index] - (half_exponent << _MANTISSA_SHIFT)
    ordinary = _all_within(bits, _SMALLEST_NORMAL, _INF)
    if not ordinary:
        magnitude = bits & _MAGNITUDE
        guess = np.where(magnitude < _SMALLEST_NORMAL, _INF | (bits & _SIGN), guess)
        guess = np.where(magnitude == _INF, np.int32(0), guess)
        guess = np.where((bits < 0) & (magnitude >= _SMALLEST_NORMAL), _DEFAULT_NAN, guess)
        guess = np.where(magnitude > _INF, bits | _QUIET, guess)
    return guess.astype(np.int32, copy=False), ordinary


def rcpps(a):
    """rcpps of float32 values (the instruction's bits, NaN payloads included)."""
    return _rcpps(_bits(a))[0].view(np.float32)


def rsqrtps(a):
    """rsqrtps of float32 values (the instruction's bits, NaN payloads included)."""
    return _rsqrtps(_bits(a))[0].view(np.float32)


def _flush(x):
    """Denormals to signed zeros (TensorFlow's FTZ/DAZ)."""
    tiny = np.abs(x) < _TINY
    return np.where(tiny, np.copysign(_F(0), x), x) if tiny.any() else x


def reciprocal_newton(a):
    """Eigen's preciprocal of a float32 packet without FMA, under FTZ/DAZ: x = rcpps(a), then
    x * (1 - a * x) + x, every operation rounded (x itself where 1 - a * x is NaN: a zero,
    an infinity or a NaN)."""
    a = np.asarray(a, np.float32)
    guess, ordinary = _rcpps(a.view(np.int32))
    x = guess.view(np.float32)
    if ordinary:  # (nothing to flush, no NaN)
        return x * (_F(1) - a * x) + x
    a = _flush(a)
    with np.errstate(all="ignore"):
        residual = _F(1) - a * x
        # x * residual is denormal where x is near the smallest normal (|a| near 2**126)
        return np.where(residual == residual, _flush(_flush(x * residual) + x), x)


def rsqrt_newton(a):
    """Eigen's prsqrt of a float32 packet without FMA, under FTZ/DAZ: x = rsqrtps(a), then
    h = (a * x) * x - 1 and x + (x * -0.5) * h, every operation rounded (x itself where that
    is NaN: a zero, +inf, a negative value or a NaN). Every intermediate of a positive normal
    a is normal, so none is flushed."""
    a = np.asarray(a, np.float32)
    guess, ordinary = _rsqrtps(a.view(np.int32))
    x = guess.view(np.float32)
    if ordinary:
        return (x * _F(-0.5)) * ((a * x) * x + _F(-1)) + x
    a = _flush(a)
    with np.errstate(all="ignore"):
        r2 = a * x
        half_r = x * _F(-0.5)
        h = r2 * x + _F(-1)
        y = half_r * h + x
        return np.where(np.isnan(y), x, y)
