"""The inputs TensorFlow's CPU Erf and Erfc are checked on, in float32, float64 and float16:
per function and dtype a range (outside it the result is a constant), a grid evenly spaced by
bit pattern over it (dense near zero) and one evenly spaced by value, and the special values.
Shared by tools/make_erf_fixtures.py (TensorFlow's outputs) and tests/engine/test_eigen_erf.py
(the engine's)."""

import hashlib

import numpy as np

# (name, dtype) -> the lowest and highest input of interest
RANGES = {("erf", "float32"): (-6.0, 6.0), ("erfc", "float32"): (-12.0, 12.0),
          ("erf", "float64"): (-7.0, 7.0), ("erfc", "float64"): (-30.0, 30.0)}
CASES = sorted(RANGES)
HALF_CASES = [("erf", "float16"), ("erfc", "float16")]  # computed through float32, as Eigen does
LANES = {"float32": 8, "float64": 4, "float16": 8}

SPECIALS = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.0000001, -1.0000001, 2.0, -2.0, 3.9, 4.0, 4.1,
            9.3, -9.3, 10.0, -10.0, 10.5, 11.0, -11.0, 12.0, 26.0, 26.5, 27.0, -27.0, 27.5, 28.0,
            30.0, 1e-40, -1e-40, 1e-39, 1.2e-38, -1.2e-38, 1e-30, 1e-20, 1e-10, 1e-310, -1e-310,
            1e-300, 1e300, -1e300, np.inf, -np.inf, np.nan]

SAMPLE_SIZE = 4096        # each grid's outputs the fixture holds
DIGEST_SIZE = 1 << 20     # each grid whose outputs it holds a digest of
SCALAR_SAMPLE_SIZE = 256  # each grid run one value at a time (Eigen's scalar path)
MIXED_SIZE = 23           # a tensor of whole packets and a tail (7 floats, 3 doubles)

_UNSIGNED = {"float32": np.uint32, "float64": np.uint64}


def _ordered(value, dtype):
    """A float's position in the order of floats, as an integer (sign and magnitude)."""
    bits = int(np.array(value, dtype).view(_UNSIGNED[dtype]))
    sign = 1 << (8 * np.dtype(dtype).itemsize - 1)
    return -(bits - sign) if bits & sign else bits


def _from_ordered(keys, dtype):
    keys = np.asarray(keys, np.int64)
    sign = np.uint64(1 << (8 * np.dtype(dtype).itemsize - 1))
    bits = np.where(keys < 0, (-keys).astype(np.uint64) | sign, keys.astype(np.uint64))
    return bits.astype(_UNSIGNED[dtype]).view(dtype)


def bit_grid(name, dtype, count):
    """`count` inputs of the range evenly spaced by bit pattern, ends included."""
    low, high = RANGES[name, dtype]
    keys = np.linspace(_ordered(low, dtype), _ordered(high, dtype), count)
    return _from_ordered(np.round(keys), dtype)


def value_grid(name, dtype, count):
    low, high = RANGES[name, dtype]
    return np.linspace(low, high, count).astype(dtype)


def specials(dtype):
    with np.errstate(over="ignore"):
        return np.array(SPECIALS, np.float64).astype(dtype)


def sample_inputs(name, dtype):
    """Both grids and the special values, padded to whole packets (all packet path)."""
    values = np.concatenate([bit_grid(name, dtype, SAMPLE_SIZE),
                             value_grid(name, dtype, SAMPLE_SIZE), specials(dtype)])
    return np.concatenate([values, np.zeros(-values.size % LANES[dtype], dtype)])


def dense_inputs(name, dtype):
    return np.concatenate([bit_grid(name, dtype, DIGEST_SIZE),
                           value_grid(name, dtype, DIGEST_SIZE)])


def scalar_inputs(name, dtype):
    return np.concatenate([bit_grid(name, dtype, SCALAR_SAMPLE_SIZE),
                           value_grid(name, dtype, SCALAR_SAMPLE_SIZE), specials(dtype)])


def mixed_inputs(name, dtype):
    return value_grid(name, dtype, MIXED_SIZE + 2)[1:-1][::-1].copy()


def half_inputs():
    return np.concatenate([np.linspace(-6, 6, 4093), specials(np.float16)]).astype(np.float16)


def digest(values):
    """sha256 of the values, every NaN counted as one (TensorFlow's NaN signs vary)."""
    values = np.asarray(values).copy()
    values[np.isnan(values)] = np.nan
    return hashlib.sha256(values.tobytes()).hexdigest()
