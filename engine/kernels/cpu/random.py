"""NumPy CPU kernels: seeded random ops, bit-for-bit TensorFlow's Philox streams.

ctx.rng() is the node's GuardedPhiloxRandom (engine.runtime.random_philox); each run reserves
256 blocks per output element, so run k of a session gives TensorFlow's run k. The kernels
take the array module as keyword `xp`: engine/kernels/cuda/random.py runs them with xp=cupy,
drawing the same counters from the same node generator, so a GPU gives the CPU's values.
"""

import numpy as np

from engine.runtime import random_philox
from engine.kernels import register_table
from engine.kernels.common import invalid, shape_str


def _shape(ctx, shape):
    dims = np.asarray(shape).reshape(-1).tolist()
    if np.ndim(shape) > 1:
        raise invalid(ctx, f"shape must be a vector of {{int32,int64}}, got shape "
                           f"{shape_str(np.shape(shape))}")
    if any(d < 0 for d in dims):
        raise invalid(ctx, f"Dimension {min(dims)} must be >= 0")
    return dims


def _sampler(draw):
    def kernel(ctx, shape, xp=np):
        dims = _shape(ctx, shape)
        count = int(np.prod(dims, dtype=np.int64))
        dtype = ctx.attrs["dtype"].as_numpy_dtype
        generator = ctx.rng().reserve_random_outputs(count)
        return draw(generator, count, dtype, xp).reshape(dims)
    kernel.__name__ = draw.__name__
    return kernel


def random_uniform_int(ctx, shape, minval, maxval, xp=np):
    dims = _shape(ctx, shape)
    for name, bound in (("minval", minval), ("maxval", maxval)):
        if np.ndim(bound) != 0:
            raise invalid(ctx, f"{name} must be 0-D, got shape {shape_str(np.shape(bound))}")
    count = int(np.prod(dims, dtype=np.int64))
    lo, hi = int(minval), int(maxval)
    if count == 0:
        return xp.zeros(dims, minval.dtype)
    if lo >= hi:
        raise invalid(ctx, f"Need minval < maxval, got {lo} >= {hi}")
    generator = ctx.rng().reserve_random_outputs(count)
    return random_philox.uniform_int(generator, count, lo, hi, minval.dtype, xp).reshape(dims)


KERNELS = {
    "RandomUniform": _sampler(random_philox.uniform),
    "RandomStandardNormal": _sampler(random_philox.normal),
    "TruncatedNormal": _sampler(random_philox.truncated_normal),
    "RandomUniformInt": random_uniform_int,
}
# TensorFlow's GPU kernels take these in host memory: the shape, and RandomUniformInt's bounds.
HOST_INPUTS = {"RandomUniform": (0,), "RandomStandardNormal": (0,), "TruncatedNormal": (0,),
               "RandomUniformInt": (0, 1, 2)}

register_table(KERNELS)
