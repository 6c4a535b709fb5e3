"""x86's approximate float32 reciprocal (rcpps), as TensorFlow's float32 Erfc meets it.

TensorFlow's Eigen is built with EIGEN_FAST_MATH, under which preciprocal of an 8-float
packet is not a division: it takes the rcpps instruction's 12-bit guess and refines it with
one Newton step (Eigen/src/Core/arch/AVX/MathFunctions.h, generic_reciprocal_newton_step),
which leaves the last bit to depend on the guess. rcpps is a table in the CPU, and vendors'
tables differ, so the bits are those of the CPU TensorFlow ran on. On AMD Zen 5, where the
fixtures were made (tools/capture_rcpps.py checks this model there on every float32 of
[2**-10, 2**10)), rcpps of 1.m * 2**e reads the top 12 bits of m and gives a 12-bit
mantissa in [0.5, 1), times 2**-e. The table is stored as the steps between its entries.
On a CPU with another table (Intel's) TensorFlow's Erfc differs from these bits by an ulp
for some arguments above 1 in magnitude.

>>> float(rcpps(np.float32([3.0]))[0])
0.33331298828125
>>> x = np.linspace(1, 121, 1000, dtype=np.float32)  # where Erfc takes it
>>> float(np.mean(reciprocal_newton(x) != np.float32(1) / x))  # an ulp from the division
0.288
"""

import base64
import zlib

import numpy as np

_STEPS = (
    "eNrNkgsOAiEMRKfF+5/ZGBblozs7aVFZAnm8KRCy7ua11fk2cSHeSb6QvDpbMj+mvhfCLvooWzJjPc/MX18R2UWv"
    "sole5bbQ+syF+Cib6KOM9bxnqj7MXrZkrzJWf4SGdF926rMZyR68fmjv1s48y1swrzakVGG6Ly7nsxn7Paa1gZ14"
    "Vm/J9RDreR7jIDI216tez7cnQbe8j5GcV/2ax9j/nBH0C6N/FT67mN+9H/LuU4eJjTC+7JFcf/wy/b+Tyvjxfrjm"
    "P26j+mg+u57xHTJDEAE=")
_STEP_UNIT = 1 << 11  # a step is one unit of the 12-bit mantissa


def _table_bits():
    steps = np.frombuffer(zlib.decompress(base64.b64decode(_STEPS)), np.uint8)
    one = np.int64(np.float32(1.0).view(np.int32))
    return (one - np.cumsum(steps.astype(np.int64)) * _STEP_UNIT).astype(np.int32)


TABLE_BITS = _table_bits()  # rcpps of [1, 2) by the top 12 mantissa bits, as float32 bits
_MANTISSA_SHIFT = 23
_INDEX_SHIFT, _INDEX_MASK = 11, 0xFFF
_EXPONENT_MASK, _BIAS = 0xFF, 127


def rcpps(a):
    """rcpps of positive normal float32 values whose reciprocals are normal."""
    bits = np.asarray(a, np.float32).view(np.int32)
    exponent = ((bits >> _MANTISSA_SHIFT) & _EXPONENT_MASK) - _BIAS
    guess = TABLE_BITS[(bits >> _INDEX_SHIFT) & _INDEX_MASK] - (exponent << _MANTISSA_SHIFT)
    return guess.astype(np.int32).view(np.float32)


def reciprocal_newton(a):
    """Eigen's preciprocal of a float32 packet without FMA: x = rcpps(a), then
    x * (1 - a * x) + x, every operation rounded (x itself where 1 - a * x is NaN)."""
    a = np.asarray(a, np.float32)
    x = rcpps(a)
    with np.errstate(all="ignore"):
        residual = np.float32(1) - a * x
        return np.where(residual == residual, x * residual + x, x)
