"""NumPy CPU kernels of StatelessRandomGetKeyCounter and StatelessRandomNormalV2: a seed
scrambled into a Philox key and counter, and normals drawn from that stream (Box-Muller on
consecutive words), bit for bit as TensorFlow's stateless random ops."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.runtime import random_philox

_SCRAMBLE_KEY = (0x3EC8F720, 0x02461E29)
_PHILOX, _AUTO_SELECT = 1, 3
_MASK32 = (1 << 32) - 1


@register("StatelessRandomGetKeyCounter")
def get_key_counter(ctx, seed):
    """The seed's two 64-bit halves as a counter, one Philox block under a fixed key: its
    first two words the key, its last two the counter's high half."""
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise invalid(ctx, f"seed must have shape [2], not {shape_str(seed.shape)}")
    seed0, seed1 = (int(v) & ((1 << 64) - 1) for v in seed.astype(np.int64))
    words = [np.array([w], np.uint64) for w in (seed0 & _MASK32, seed0 >> 32,
                                                 seed1 & _MASK32, seed1 >> 32)]
    mix = [int(w) for w in random_philox.philox_blocks(_SCRAMBLE_KEY, words)[0]]
    key = np.array([mix[0] | (mix[1] << 32)], np.uint64)
    counter = np.array([0, mix[2] | (mix[3] << 32)], np.uint64)
    return key, counter


def _generator(ctx, key, counter, alg):
    if int(alg) not in (_PHILOX, _AUTO_SELECT):
        raise invalid(ctx, f"Unsupported algorithm id: {int(alg)}")
    key, counter = int(np.asarray(key).reshape(-1)[0]), np.asarray(counter).reshape(-1)
    generator = random_philox.PhiloxRandom.__new__(random_philox.PhiloxRandom)
    generator.key = (key & _MASK32, key >> 32)
    generator.counter = int(counter[0]) | (int(counter[1]) << 64)
    return generator


@register("StatelessRandomNormalV2")
def stateless_random_normal_v2(ctx, shape, key, counter, alg):
    shape = [int(d) for d in np.asarray(shape).reshape(-1)]
    dtype = ctx.attrs["dtype"].as_numpy_dtype
    count = int(np.prod(shape))
    if count == 0:
        return np.zeros(shape, dtype)
    values = random_philox.normal(_generator(ctx, key, counter, alg), count, dtype)
    return np.asarray(values, dtype).reshape(shape)
