"""GPU kernels: elementwise math, comparisons, logic, AddN, Select, ClipByValue, Cast.

The CPU tables of engine/kernels/cpu/math.py are the GPU's too: a NumPy ufunc there becomes
CuPy's function of the same name, a helper gets `xp=cupy`. So both devices run one formula
and raise one error text. Erf and Erfc have no GPU kernel: CuPy has them only in
cupyx.scipy.special (not in its core API), so they soft-place to the CPU.

Cast from float to int differs: a GPU's conversion saturates (NaN to 0) where the CPU's x86
one gives the "integer indefinite" value, so the GPU Cast converts only in-range values and
builds x86's answers for the rest (`x86_float_to_int`), as the CPU kernel (and the fixtures
of TensorFlow's CPU kernel) have them.
"""

import functools

import numpy as np

from engine.framework import op_families
from engine.kernels import register_table
from engine.kernels.cpu import math as cpu_math

NO_GPU_KERNEL = frozenset({"Erf", "Erfc"})


def _on(xp, fn):
    """The CPU table's `fn` for the array module `xp`."""
    if isinstance(fn, np.ufunc):
        return getattr(xp, fn.__name__)
    return functools.partial(fn, xp=xp)


def _unary(fn):
    def kernel(ctx, x):
        return fn(x)
    return kernel


def _binary(fn):
    cpu_kernel = cpu_math._binary(fn)

    def kernel(ctx, x, y):
        # Shapes first: CuPy's broadcasting error is not TensorFlow's.
        try:
            np.broadcast_shapes(x.shape, y.shape)
        except ValueError:
            raise cpu_math.incompatible_shapes(ctx, x, y) from None
        return cpu_kernel(ctx, x, y)
    return kernel


def _truncate_to(xp, t, bits):
    """x86's cvttss2si/cvttsd2si into a signed `bits`-bit int: NaN and overflow give its
    lowest value; `t` is already truncated toward zero."""
    signed = np.dtype(f"int{bits}")
    limit = t.dtype.type(2.0 ** (bits - 1))
    valid = (t >= -limit) & (t < limit)  # False for NaN
    converted = xp.where(valid, t, t.dtype.type(0)).astype(signed)
    return xp.where(valid, converted, signed.type(np.iinfo(signed).min))


def x86_float_to_int(xp, x, dtype):
    """trunc(x).astype(dtype) as NumPy computes it on x86 (the CPU Cast), for any device."""
    dtype = np.dtype(dtype)
    t = xp.trunc(x)
    bits = dtype.itemsize * 8
    if bits < 32:  # through int32, then wrapped to the narrow type
        return _truncate_to(xp, t, 32).astype(dtype)
    if dtype == np.uint32 and x.dtype == np.float16:  # half goes through int64
        return _truncate_to(xp, t, 64).astype(dtype)
    if dtype.kind == "i":
        return _truncate_to(xp, t, bits)
    # Unsigned 32/64: values from 2**(bits-1) up are converted shifted down, the top bit set back.
    half = t.dtype.type(2.0 ** (bits - 1))
    high = t >= half
    shifted = _truncate_to(xp, xp.where(high, t - half, t), bits).view(dtype)
    top_bit = dtype.type(1 << (bits - 1))
    return xp.where(high, shifted ^ top_bit, shifted)


def _cast(xp):
    cpu_cast = functools.partial(cpu_math.cast, xp=xp)

    def cast(ctx, x):
        dtype = np.dtype(ctx.attrs["DstT"].as_numpy_dtype)
        if x.dtype.kind == "f" and dtype.kind in "iu":
            return x86_float_to_int(xp, x, dtype)
        return cpu_cast(ctx, x)
    return cast


def register_all(xp):
    register_table({op: _unary(_on(xp, cpu_math.UNARY[op]))
                    for op in op_families.UNARY - NO_GPU_KERNEL}, "GPU")
    register_table({op: _binary(_on(xp, cpu_math.BINARY[op])) for op in op_families.BINARY},
                   "GPU")
    register_table({
        "LeakyRelu": functools.partial(cpu_math.leaky_relu, xp=xp),
        "ClipByValue": functools.partial(cpu_math.clip_by_value, xp=xp),
        "AddN": functools.partial(cpu_math.add_n, xp=xp),
        "Select": functools.partial(cpu_math.select, xp=xp),
        "SelectV2": functools.partial(cpu_math.select_v2, xp=xp),
        "Cast": _cast(xp),
    }, "GPU")
