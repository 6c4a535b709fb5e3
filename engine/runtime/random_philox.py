"""TensorFlow's Philox4x32-10 generator and its samplers, vectorised with NumPy.

Seeded random ops (RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt)
give TensorFlow's values bit for bit: the key and counter come from (seed, seed2) as
GuardedPhiloxRandom sets them, every run reserves 256 128-bit samples per output element
(ReserveRandomOutputs(n, 256)), and the distributions turn 32-bit words into floats as
tsl/lib/random/random_distributions.h does.

The rounds and the samplers take the array module `xp` (NumPy by default): given CuPy they
run on the GPU with uint32/uint64 arithmetic and give the same words, as TensorFlow's GPU
Philox gives the CPU's values (normals may differ in the last ulp of log/sin/cos).

On the CPU, streams of FAST_MIN_BLOCKS blocks or more come from the compiled kernels of
engine/kernels/compiled/philox_numba.py (the same words, split over the intra-op threads)
once those have loaded; this NumPy code is the reference they are tested against.

>>> [hex(w) for w in PhiloxRandom(0, 0).next_blocks(1)[0]]  # Random123's known answer
['0x6627e8d5', '0xe169c58d', '0xbc57ac4c', '0x9b00dbd8']
"""

import functools
import os
import weakref

import numpy as np

from engine.kernels import compiled
from engine.kernels.compiled.warm_cache import note_cold_fallback

_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_M0, _M1 = 0xD2511F53, 0xCD9E8D57
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
RESERVED_SAMPLES_PER_OUTPUT = 256
# Below this many blocks a stream is cheaper in NumPy than a compiled call plus its threads.
FAST_MIN_BLOCKS = 1 << 10
# numba is loaded for Philox (compiled/__init__.py: it costs the caller while it loads) for a
# stream of 2^16 blocks (256k float32) or more, or at the 32nd stream of FAST_MIN_BLOCKS or
# more: a model's initializers alone (a few tensors of thousands of values) do not load it.
_DEMAND = compiled.Demand(large=1 << 16, often=32)


def _fast(blocks, xp):
    """The compiled Philox module when it serves a stream of `blocks` blocks, else None."""
    if xp is not np or blocks < FAST_MIN_BLOCKS:
        return None
    module = compiled.loaded("philox")
    if module is not None or not _DEMAND.worth_loading(blocks):
        return module
    module = compiled.module("philox")
    if module is None and compiled.enabled():
        note_cold_fallback(4 * blocks)
    return module


_M0_64, _M1_64, _LOW32, _SHIFT32 = np.uint64(_M0), np.uint64(_M1), np.uint64(_MASK32), np.uint64(32)


@functools.lru_cache(maxsize=256)
def _round_keys(key):
    """The ten rounds' (k0, k1) as NumPy uint64 scalars, made once per key."""
    k0, k1 = key
    keys = []
    for _ in range(10):
        keys.append((np.uint64(k0), np.uint64(k1)))
        k0, k1 = (k0 + _W0) & _MASK32, (k1 + _W1) & _MASK32
    return keys


def philox_blocks(key, counters, xp=np):
    """Philox4x32-10 of each 128-bit counter (given as four uint64 word arrays): (n, 4) uint32."""
    c0, c1, c2, c3 = counters
    for k0, k1 in _round_keys(key):
        p0 = c0 * _M0_64
        p1 = c2 * _M1_64
        c0, c1, c2, c3 = ((p1 >> _SHIFT32) ^ c1 ^ k0, p1 & _LOW32,
                          (p0 >> _SHIFT32) ^ c3 ^ k1, p0 & _LOW32)
    return xp.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


def _counter_words(start, offsets, xp=np):
    """The four 32-bit words of `start + offsets` (128-bit arithmetic), as uint64 arrays."""
    offsets = xp.asarray(offsets, np.uint64)
    low64 = start & _MASK64
    high64 = start >> 64
    # Add in 32-bit pieces so no uint64 overflow goes unnoticed.
    w0 = (offsets & np.uint64(_MASK32)) + np.uint64(low64 & _MASK32)
    w1 = (offsets >> np.uint64(32)) + np.uint64(low64 >> 32) + (w0 >> np.uint64(32))
    w2 = np.uint64(high64 & _MASK32) + (w1 >> np.uint64(32))
    w3 = (np.uint64(high64 >> 32) + (w2 >> np.uint64(32))) & np.uint64(_MASK32)
    mask = np.uint64(_MASK32)
    return w0 & mask, w1 & mask, w2 & mask, w3


class PhiloxRandom:
    """A Philox4x32-10 stream: a 64-bit key and a 128-bit counter (tsl::random::PhiloxRandom)."""

    __slots__ = ("key", "counter")

    def __init__(self, seed_lo, seed_hi=0):
        seed_lo &= _MASK64
        seed_hi &= _MASK64
        self.key = (seed_lo & _MASK32, seed_lo >> 32)
        self.counter = seed_hi << 64  # counter words 2 and 3 hold seed_hi

    @classmethod
    def from_key_counter(cls, key, counter):
        """The stream of a given key (two 32-bit words) and 128-bit counter, as
        PhiloxRandom(counter, key) of the stateless ops."""
        stream = cls.__new__(cls)
        stream.key, stream.counter = (key[0] & _MASK32, key[1] & _MASK32), counter & _MASK128
        return stream

    def copy(self):
        other = PhiloxRandom.__new__(PhiloxRandom)
        other.key, other.counter = self.key, self.counter
        return other

    def skip(self, count):
        """Advance by `count` 128-bit blocks."""
        self.counter = (self.counter + count) & _MASK128

    def blocks_at(self, offsets, xp=np):
        """The outputs at counter + each offset, without moving: (len(offsets), 4) uint32."""
        return philox_blocks(self.key, _counter_words(self.counter, offsets, xp), xp)

    def next_blocks(self, n, xp=np):
        """The next `n` outputs (each four uint32), advancing the counter past them."""
        fast = _fast(n, xp)
        if fast is not None:
            result = fast.blocks(self.key, self.counter, n)
        else:
            result = self.blocks_at(xp.arange(n, dtype=np.uint64), xp)
        self.skip(n)
        return result


def stateless_stream(seed0, seed1):
    """The stream of a stateless op's seed pair (GenerateKey of stateless_random_ops.cc): the
    seeds, as the counter under a fixed key, scrambled into a key and the counter's high
    words.

    >>> stream = stateless_stream(1, 2)
    >>> [hex(w) for w in stream.key], hex(stream.counter)
    (['0x6d2f7fba', '0x908502c9'], '0xf7734320619cb60b0000000000000000')
    """
    scramble = PhiloxRandom.from_key_counter(
        (0x3EC8F720, 0x02461E29), (seed0 & _MASK64) | ((seed1 & _MASK64) << 64))
    mix = [int(w) for w in scramble.blocks_at(np.zeros(1, np.uint64))[0]]
    return PhiloxRandom.from_key_counter((mix[0], mix[1]), (mix[2] | (mix[3] << 32)) << 64)


class GuardedPhiloxRandom:
    """A random op's generator: seeded from (seed, seed2), or from the OS when both are 0."""

    __slots__ = ("generator",)

    def __init__(self, seed, seed2):
        if seed == 0 and seed2 == 0:
            seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
        self.generator = PhiloxRandom(seed, seed2)

    def reserve_random_outputs(self, output_count, multiplier=RESERVED_SAMPLES_PER_OUTPUT):
        """A generator for this run's outputs; the stream moves on by count * multiplier."""
        local = self.generator.copy()
        self.generator.skip(output_count * multiplier)
        return local


# --- distributions (random_distributions.h) ---

def uint32_to_float(x):
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1)


def uint64_to_double(x0, x1):
    bits = ((x0.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | x1.astype(np.uint64)
    return (bits | np.uint64(1023 << 52)).view(np.float64) - 1.0


def uint16_to_half(x):
    bits = (x.astype(np.uint16) & np.uint16(0x3FF)) | np.uint16(15 << 10)
    return bits.view(np.float16) - np.float16(1)


def box_muller_float(x0, x1, xp=np):
    """Two float32 normals from two uint32 words each, as BoxMullerFloat: sqrt(-2 logf(u1))
    times sinf and cosf of 2 pi u2, glibc's float functions (TensorFlow's CPU calls them; they
    are not always correctly rounded, about 1 value in 100 each). On the CPU they are called:
    through the compiled kernel for long streams, through ctypes element by element
    otherwise; CuPy's are its own (a GPU's normals may differ in the last ulp)."""
    if xp is np:
        return _box_muller_glibc(np.asarray(x0).reshape(-1), np.asarray(x1).reshape(-1),
                                 np.shape(x0))
    u1 = xp.maximum(uint32_to_float(x0), np.float32(1.0e-7))
    v1 = (2.0 * np.pi * uint32_to_float(x1).astype(np.float64)).astype(np.float32)
    u2 = xp.sqrt(np.float32(-2.0) * xp.log(u1.astype(np.float64)).astype(np.float32))
    v1_64 = v1.astype(np.float64)
    return (xp.sin(v1_64).astype(np.float32) * u2, xp.cos(v1_64).astype(np.float32) * u2)


# Below this many pairs glibc's functions are called through ctypes (about 4 us a pair)
# rather than loading the compiled kernel (0.2 s and more the first time).
_GLIBC_CTYPES_MAX_PAIRS = 1 << 11


@functools.lru_cache(maxsize=1)
def libm():
    """glibc's libm with the float functions TensorFlow's samplers call (logf, sinf, cosf,
    expf) typed for ctypes."""
    import ctypes
    import ctypes.util
    library = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    for name in ("logf", "sinf", "cosf", "expf"):
        function = getattr(library, name)
        function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return library


def _box_muller_glibc(x0, x1, shape):
    """BoxMullerFloat of word pairs, glibc's float functions called compiled where the Philox
    kernels are loaded (or worth loading), else through ctypes."""
    module = compiled.loaded("philox")
    if module is None and x0.shape[0] > _GLIBC_CTYPES_MAX_PAIRS:
        module = compiled.module("philox")  # None while a cold cache compiles beside us
    if module is not None:
        f0, f1 = module.box_muller_f32(x0, x1)
        return f0.reshape(shape), f1.reshape(shape)
    u1 = np.maximum(uint32_to_float(x0), np.float32(1.0e-7))
    v1 = (2.0 * np.pi * uint32_to_float(x1).astype(np.float64)).astype(np.float32)
    glibc = libm()
    logs = np.array([glibc.logf(u) for u in u1.tolist()], np.float32)
    u2 = np.sqrt(np.float32(-2.0) * logs)
    angles = v1.tolist()
    sines = np.array([glibc.sinf(v) for v in angles], np.float32)
    cosines = np.array([glibc.cosf(v) for v in angles], np.float32)
    return (sines * u2).reshape(shape), (cosines * u2).reshape(shape)


def box_muller_double(x0, x1, x2, x3, xp=np):
    u1 = xp.maximum(uint64_to_double(x0, x1), 1.0e-7)
    v1 = 2 * np.pi * uint64_to_double(x2, x3)
    u2 = xp.sqrt(-2.0 * xp.log(u1))
    return xp.sin(v1) * u2, xp.cos(v1) * u2


def _words(generator, count, per_block, xp=np):
    """`count` groups' uint32 words: (ceil(count / per_block) blocks, 4)."""
    return generator.next_blocks(-(-count // per_block), xp)


def uniform(generator, count, dtype, xp=np):
    """RandomUniform's [0, 1) values of `dtype` (float16, float32 or float64)."""
    dtype = np.dtype(dtype)
    per_block = 2 if dtype == np.float64 else 4
    fast = _fast(-(-count // per_block), xp) if dtype != np.float16 else None
    if fast is not None:
        values = fast.uniform(generator.key, generator.counter, count, dtype)
        generator.skip(-(-count // per_block))
        return values
    if dtype == np.float64:
        words = _words(generator, count, 2, xp).reshape(-1, 2)
        return uint64_to_double(words[:, 0], words[:, 1])[:count]
    words = _words(generator, count, 4, xp).reshape(-1)[:count]
    if dtype == np.float16:
        return uint16_to_half(words)
    return uint32_to_float(words).astype(dtype, copy=False)


def uniform_int(generator, count, lo, hi, dtype, xp=np):
    """RandomUniformInt's values in [lo, hi): lo + word % (hi - lo), as TensorFlow."""
    dtype = np.dtype(dtype)
    if dtype == np.int64:
        words = _words(generator, count, 2, xp).reshape(-1, 2).astype(np.uint64)
        bits = words[:, 0] | (words[:, 1] << np.uint64(32))
        span = np.uint64((hi - lo) & _MASK64)
        return (np.uint64(lo & _MASK64) + bits[:count] % span).view(np.int64)
    words = _words(generator, count, 4, xp).reshape(-1)[:count]
    span = np.uint32((hi - lo) & _MASK32)
    return (np.uint32(lo & _MASK32) + words % span).view(np.int32)


def normal(generator, count, dtype, xp=np):
    """RandomStandardNormal's values: Box-Muller on consecutive words."""
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        words = _words(generator, count, 2, xp)
        d0, d1 = box_muller_double(words[:, 0], words[:, 1], words[:, 2], words[:, 3], xp)
        return xp.stack([d0, d1], axis=-1).reshape(-1)[:count]
    words = _words(generator, count, 4, xp).reshape(-1, 2)
    f0, f1 = box_muller_float(words[:, 0], words[:, 1], xp)
    return xp.stack([f0, f1], axis=-1).reshape(-1)[:count].astype(dtype, copy=False)


def _normals_from_blocks(blocks, double, xp=np):
    """Normals in the order TruncatedNormal draws them from a block stream: (groups, k)."""
    words = blocks.reshape(blocks.shape[0], -1)
    if double:
        d0, d1 = box_muller_double(words[:, 0::4], words[:, 1::4], words[:, 2::4],
                                   words[:, 3::4], xp)
        return xp.stack([d0, d1], axis=-1).reshape(words.shape[0], -1)
    f0, f1 = box_muller_float(words[:, 0::2], words[:, 1::2], xp)
    return xp.stack([f0, f1], axis=-1).reshape(words.shape[0], -1)


def _first_accepted(accepted, group_size, xp):
    """Per row, the column indices of the first `group_size` True values (0 where too few)."""
    rank = xp.cumsum(accepted, axis=1)
    return xp.stack([xp.argmax(accepted & (rank == k + 1), axis=1) for k in range(group_size)],
                    axis=1)


def truncated_normal(generator, count, dtype, xp=np):
    """TruncatedNormal: each output group restarts at group * 256 * group_size / 4 blocks and
    keeps the first normals with |x| < 2 (SingleSampleAdapter over the block stream)."""
    dtype = np.dtype(dtype)
    double = dtype == np.float64
    group_size = 2 if double else 4
    groups = -(-count // group_size)
    skip = group_size * RESERVED_SAMPLES_PER_OUTPUT // 4
    if groups == 0:
        return xp.zeros((0,), dtype)
    blocks_per_try = 4 if double else 2  # twice the normals a group needs
    starts = xp.arange(groups, dtype=np.uint64) * np.uint64(skip)
    offsets = (starts[:, None] + xp.arange(blocks_per_try, dtype=np.uint64)).reshape(-1)
    blocks = generator.blocks_at(offsets, xp).reshape(groups, blocks_per_try, 4)
    normals = _normals_from_blocks(blocks, double, xp)
    accepted = xp.abs(normals) < 2
    enough = accepted.sum(axis=1) >= group_size
    result = xp.take_along_axis(normals, _first_accepted(accepted, group_size, xp), axis=1)
    for g in xp.flatnonzero(~enough).tolist():  # rare: draw block by block until it fills
        kept, offset = normals[g, :0], g * skip
        while kept.shape[0] < group_size:
            block_normals = _normals_from_blocks(
                generator.blocks_at(xp.asarray([offset], np.uint64), xp), double, xp)[0]
            kept = xp.concatenate([kept, block_normals[xp.abs(block_normals) < 2]])
            offset += 1
        result[g] = kept[:group_size]
    return result.reshape(-1)[:count].astype(dtype, copy=False)


_SESSION_GENERATORS = weakref.WeakKeyDictionary()


def node_generator(ctx):
    """The GuardedPhiloxRandom of ctx's node in ctx's session, made from its seed attrs once."""
    by_node = _SESSION_GENERATORS.setdefault(ctx.resources, {})
    generator = by_node.get(ctx.name)
    if generator is None:
        generator = by_node[ctx.name] = GuardedPhiloxRandom(ctx.attrs.get("seed", 0),
                                                           ctx.attrs.get("seed2", 0))
    return generator
