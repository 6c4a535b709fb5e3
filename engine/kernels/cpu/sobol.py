"""SobolSample's CPU kernel (core/kernels/sobol_op.cc): points of the Sobol sequence with the
Joe-Kuo direction numbers (new-joe-kuo-6.21201, 21200 dimensions), skipping the all-zero
first point, as TensorFlow computes them: integers built by Gray-code XORs of the direction
numbers shifted to the digits the last point needs, times 2^-digits in the output's type.

The direction numbers are stored as each dimension's recurrence (sobol_directions.npz, made
by tools/extract_sobol_directions.py from the header TensorFlow ships) and regenerated for
the dimensions a node asks for.
"""

import functools
import math
from pathlib import Path

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid

MAX_DIM = 21200
DIGITS = 31
_DATA = Path(__file__).with_name("sobol_directions.npz")


def regenerate(degrees, coefficients, initial, dims):
    """The first `dims` rows of the [21200, 31] table of m_j (row 0 all ones): each row's
    first s numbers, then m_i = 2^s m_{i-s} ^ m_{i-s} ^ XOR_k 2^k c_k m_{i-k}."""
    table = np.ones((dims, DIGITS), np.int64)
    rows = dims - 1
    if rows <= 0:
        return table
    s = degrees[:rows].astype(np.int64)
    a = coefficients[:rows].astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(s)[:-1]])
    m = np.zeros((rows, DIGITS), np.int64)
    for i in range(int(s.max())):
        has = i < s
        m[has, i] = initial[offsets[has] + i]
    row_index = np.arange(rows)
    for i in range(1, DIGITS):
        later = i >= s
        if not later.any():
            continue
        back = np.where(later, i - s, 0)
        value = m[row_index, back]
        value = (value << s) ^ value
        for k in range(1, min(i, int(s.max()))):
            use = later & (k < s) & (((a >> np.maximum(s - 1 - k, 0)) & 1) == 1)
            value = np.where(use, value ^ (m[:, i - k] << k), value)
        m[:, i] = np.where(later, value, m[:, i])
    table[1:] = m
    return table


def unpack_initial(degrees, packed):
    """Each dimension's first s numbers from their packed bits: m_i odd, its i upper bits."""
    widths = np.concatenate([np.arange(s) for s in degrees]).astype(np.int64)
    bits = np.unpackbits(packed, bitorder="little")[:int(widths.sum())].astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(widths)[:-1]])
    values = np.zeros(widths.size, np.int64)
    for b in range(int(widths.max())):
        has = b < widths
        values[has] |= bits[starts[has] + b] << b
    return (values << 1) | 1


@functools.lru_cache(maxsize=8)
def _direction_table(dims):
    data = np.load(_DATA)
    degrees = data["degrees"]
    initial = unpack_initial(degrees, data["initial_bits"])
    return regenerate(degrees, data["coefficients"], initial, dims)


def _num_binary_digits(n):
    """static_cast<int>(std::log(n) / std::log(2) + 1), double rounding included."""
    return int(math.log(n) / math.log(2) + 1)


def _rightmost_zero_bit(n):
    k = 0
    while n & 1:
        n >>= 1
        k += 1
    return k


def sobol_points(dim, num_results, skip, dtype):
    """[num_results, dim] points from point skip + 1 of the sequence."""
    digits = _num_binary_digits(skip + num_results + 1)
    shifts = np.arange(digits - 1, -1, -1, dtype=np.int64)
    directions = _direction_table(dim)[:, :digits] << shifts
    if skip > 0:
        index = skip + 1
        gray = index ^ (index >> 1)
        point = np.zeros(dim, np.int64)
        for k in range(_num_binary_digits(index)):
            if (gray >> k) & 1:
                point ^= directions[:, k]
    else:
        point = directions[:, 0].copy()
    integers = np.empty((num_results, dim), np.int64)
    integers[0] = point
    for i in range(1, num_results):
        point ^= directions[:, _rightmost_zero_bit(i + skip)]
        integers[i] = point
    scale = dtype(1.0 / (1 << digits))
    return integers.astype(np.int32).astype(dtype) * scale


@register("SobolSample")
def sobol_sample(ctx, dim, num_results, skip):
    for name, value in (("dim", dim), ("num_results", num_results), ("skip", skip)):
        if np.ndim(value) != 0:
            raise invalid(ctx, f"{name} must be a scalar")
    dim, num_results, skip = int(dim), int(num_results), int(skip)
    if dim < 1:
        raise invalid(ctx, "dim must be at least one")
    if dim > MAX_DIM:
        raise invalid(ctx, f"dim must be at most {MAX_DIM}")
    if num_results < 1:
        raise invalid(ctx, "num_results must be at least one")
    if skip < 0:
        raise invalid(ctx, "skip must be non-negative")
    if num_results >= 2**31 - 1 - skip:
        raise invalid(ctx, f"num_results+skip must be less than {2**31 - 1}")
    return sobol_points(dim, num_results, skip, ctx.attrs["dtype"].as_numpy_dtype)
