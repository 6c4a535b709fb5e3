"""CPU kernels of the stateless random ops: TensorFlow's samplers over the Philox stream a seed
(or a key, counter and algorithm) names, bit for bit (stateless_random_ops.cc,
stateless_random_ops_v2.cc, stateless_random_gamma_op.cc, random_binomial_op.cc).

A seed [s0, s1] (int32 values sign-extended to 64 bits) becomes a stream through GenerateKey
(random_philox.stateless_stream); the V2 ops take that stream as a uint64 key [1] and counter
[2] (StatelessRandomGetKeyCounter's outputs) and an algorithm, of which the CPU has Philox (1)
and auto-select (3, Philox). Every draw starts at the stream's counter: the samplers are the
stateful ops' (engine.runtime.random_philox, kernels/cpu/random_sampling.py), given the
stream instead of a node's reserved generator.
"""

import numpy as np

from engine.kernels import register, register_table
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu import random_sampling, shuffle
from engine.kernels.cpu.random import _shape
from engine.runtime import random_philox
from engine.runtime.random_philox import PhiloxRandom

PHILOX, THREEFRY, AUTO_SELECT = 1, 2, 3
_MASK32 = 0xFFFFFFFF


# -- streams from seeds, keys and counters --

def seed_stream(ctx, seed):
    """GenerateKey's stream of a [2] int32 or int64 seed, after TensorFlow's shape check."""
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise invalid(ctx, f"seed must have shape [2], not {shape_str(seed.shape)}")
    return random_philox.stateless_stream(int(seed[0]), int(seed[1]))


def key_counter_stream(ctx, key, counter, alg):
    """The stream of a V2 op's key, counter and alg inputs, checked in TensorFlow's order
    (GetKeyCounterAlgFromInputs: alg's rank, the key, the counter against a length that is
    the algorithm's id, then the algorithm). TensorFlow reads a Philox counter of one word
    past its end; the engine asks for the two words Philox uses."""
    key, counter, alg = np.asarray(key), np.asarray(counter), np.asarray(alg)
    if alg.ndim != 0:
        raise invalid(ctx, f"input 3 (0-based) must have shape [], not {shape_str(alg.shape)}")
    if key.shape != (1,):
        raise invalid(ctx, f"key must have shape [1], not {shape_str(key.shape)}. "
                           "(Note that batched keys are not supported yet.)")
    algorithm = int(alg)
    if algorithm == AUTO_SELECT:
        algorithm = PHILOX
    needed = 2 if algorithm == PHILOX and counter.ndim == 1 and counter.shape[0] == 1 \
        else algorithm
    if counter.ndim != 1 or counter.shape[0] < needed:
        raise invalid(ctx, f"counter must be a vector with length at least {needed}; got "
                           f"shape: {shape_str(counter.shape)}. (Note that batched counters "
                           "are not supported yet.)")
    if algorithm != PHILOX:
        raise invalid(ctx, f"Unsupported algorithm id: {algorithm}")
    k = int(key[0])
    low, high = int(counter[0]), int(counter[1])
    return PhiloxRandom.from_key_counter((k & _MASK32, k >> 32), low | (high << 64))


def _key_counter_outputs(stream):
    """WriteKeyToMem / WriteCounterToMem: key [1] and counter [2] as uint64."""
    key = np.array([stream.key[0] | (stream.key[1] << 32)], np.uint64)
    counter = np.array([stream.counter & ((1 << 64) - 1), stream.counter >> 64], np.uint64)
    return key, counter


@register("StatelessRandomGetKeyCounter")
def get_key_counter(ctx, seed):
    return _key_counter_outputs(seed_stream(ctx, seed))


@register("StatelessRandomGetKeyCounterAlg")
def get_key_counter_alg(ctx, seed):
    return (*_key_counter_outputs(seed_stream(ctx, seed)), np.array(PHILOX, np.int32))


@register("StatelessRandomGetAlg")
def get_alg(ctx):
    return np.array(PHILOX, np.int32)


# -- uniform, normal, truncated normal, integers --

def uniform_full_int(stream, count, dtype):
    """UniformFullIntDistribution: a word a value (32 bits) or two, low word first (64)."""
    dtype = np.dtype(dtype)
    if dtype.itemsize == 8:
        words = stream.next_blocks(-(-count // 2)).reshape(-1, 2).astype(np.uint64)
        return (words[:, 0] | (words[:, 1] << np.uint64(32)))[:count].view(dtype)
    return stream.next_blocks(-(-count // 4)).reshape(-1)[:count].view(dtype)


# The fills: (ctx, dims, stream, *parameters) -> output, for a non-empty output.

def _float_sampler(draw):
    def fill(ctx, dims, stream):
        dtype = ctx.attrs["dtype"].as_numpy_dtype
        count = int(np.prod(dims, dtype=np.int64))
        return draw(stream, count, dtype).astype(dtype, copy=False).reshape(dims)
    return fill


def _full_int(ctx, dims, stream):
    count = int(np.prod(dims, dtype=np.int64))
    return uniform_full_int(stream, count, ctx.attrs["dtype"].as_numpy_dtype).reshape(dims)


def _int_in_range(ctx, dims, stream, minval, maxval):
    minval, maxval = np.asarray(minval), np.asarray(maxval)
    count = int(np.prod(dims, dtype=np.int64))
    for name, bound in (("minval", minval), ("maxval", maxval)):
        if bound.ndim != 0:
            raise invalid(ctx, f"{name} must be 0-D, got shape {shape_str(bound.shape)}")
    lo, hi = int(minval), int(maxval)
    if lo >= hi:
        raise invalid(ctx, f"Need minval < maxval, got {lo} >= {hi}")
    return random_philox.uniform_int(stream, count, lo, hi, minval.dtype).reshape(dims)


_FILLS = {"Uniform": _float_sampler(random_philox.uniform),
          "Normal": _float_sampler(random_philox.normal),
          "TruncatedNormal": _float_sampler(random_philox.truncated_normal),
          "FullInt": _full_int}


def _seeded(fill):
    """A V1 op (shape, seed, ...): the shape checked, then the seed; an empty output draws
    nothing (StatelessRandomOpBase)."""
    def kernel(ctx, shape, seed, *parameters):
        dims = _shape(ctx, shape)
        stream = seed_stream(ctx, seed)
        if int(np.prod(dims, dtype=np.int64)) == 0:
            return np.zeros(dims, ctx.attrs["dtype"].as_numpy_dtype)
        return fill(ctx, dims, stream, *parameters)
    return kernel


def _keyed(fill):
    """A V2 op (shape, key, counter, alg, ...): key, counter and alg checked, then the shape
    (StatelessRandomOpBaseWithKeyCounter)."""
    def kernel(ctx, shape, key, counter, alg, *parameters):
        stream = key_counter_stream(ctx, key, counter, alg)
        dims = _shape(ctx, shape)
        if int(np.prod(dims, dtype=np.int64)) == 0:
            return np.zeros(dims, ctx.attrs["dtype"].as_numpy_dtype)
        return fill(ctx, dims, stream, *parameters)
    return kernel


def _ends_with(ctx, dims, parameter_shape):
    tail = list(parameter_shape)
    if len(tail) > len(dims) or (tail and list(dims[len(dims) - len(tail):]) != tail):
        raise invalid(ctx, "Shape passed in must end with broadcasted shape.")


def _gamma(ctx, dims, stream, alpha):
    """StatelessRandomGammaV2/V3: samples [..., alpha's shape], per output a stream skipped to
    256 * output blocks, as RandomGamma."""
    alpha = np.asarray(alpha)
    _ends_with(ctx, dims, alpha.shape)
    if alpha.size == 0:
        raise invalid(ctx, f"Input alpha should have non-zero element count, got: {alpha.size}")
    out = np.zeros(dims, alpha.dtype)
    random_sampling.gamma_fill(stream, alpha, out.size // alpha.size, out.reshape(-1))
    return out


def _poisson(ctx, dims, stream, lam):
    lam = np.asarray(lam)
    _ends_with(ctx, dims, lam.shape)
    out = np.zeros(dims, ctx.attrs["dtype"].as_numpy_dtype)
    random_sampling.poisson_fill(stream, lam, out.size // max(lam.size, 1), out.reshape(-1))
    return out


register_table({
    "StatelessRandomUniform": _seeded(_FILLS["Uniform"]),
    "StatelessRandomNormal": _seeded(_FILLS["Normal"]),
    "StatelessTruncatedNormal": _seeded(_FILLS["TruncatedNormal"]),
    "StatelessRandomUniformFullInt": _seeded(_FILLS["FullInt"]),
    "StatelessRandomUniformInt": _seeded(_int_in_range),
    "StatelessRandomUniformV2": _keyed(_FILLS["Uniform"]),
    "StatelessRandomNormalV2": _keyed(_FILLS["Normal"]),
    "StatelessTruncatedNormalV2": _keyed(_FILLS["TruncatedNormal"]),
    "StatelessRandomUniformFullIntV2": _keyed(_FILLS["FullInt"]),
    "StatelessRandomUniformIntV2": _keyed(_int_in_range),
    "StatelessRandomGammaV2": _seeded(_gamma),
    "StatelessRandomGammaV3": _keyed(_gamma),
    "StatelessRandomPoisson": _seeded(_poisson),
})


# -- categorical, gamma, Poisson, binomial, shuffle --

@register("StatelessMultinomial")
def stateless_multinomial(ctx, logits, num_samples, seed):
    return random_sampling.multinomial_draws(ctx, logits, num_samples,
                                             lambda reserved: seed_stream(ctx, seed))


@register("StatelessRandomBinomial")
def stateless_random_binomial(ctx, shape, seed, counts, probs):
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise invalid(ctx, f"seed must have shape [2], not {shape_str(seed.shape)}")
    counts, probs = np.asarray(counts), np.asarray(probs)
    try:
        batch_shape = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise invalid(ctx, "counts and probs must have compatible batch dimensions: "
                           f"{shape_str(counts.shape)} vs. {shape_str(probs.shape)}") from None
    shape = np.asarray(shape)
    if shape.ndim != 1:
        raise invalid(ctx, f"Input shape should be a vector, got shape: {shape_str(shape.shape)}")
    dims = [int(d) for d in shape.tolist()]
    _ends_with(ctx, dims, batch_shape)
    out = np.zeros(dims, ctx.attrs["dtype"].as_numpy_dtype)
    if out.size == 0:
        return out
    stream = random_philox.stateless_stream(int(seed[0]), int(seed[1]))
    random_sampling.binomial_fill(stream, np.broadcast_to(counts, batch_shape).reshape(-1),
                  np.broadcast_to(probs, batch_shape).reshape(-1), out.reshape(-1))
    return out


@register("StatelessShuffle")
def stateless_shuffle(ctx, value, key, counter, alg):
    stream = key_counter_stream(ctx, key, counter, alg)
    return shuffle.shuffle_rows(np.asarray(value), stream)



# -- RandomIndexShuffle (random_index_shuffle.cc): a Simon-cipher Feistel permutation --

def _simon_round_keys(key, rounds, width):
    """The Simon key schedule in `width`-bit words from a three-word key."""
    mask = (1 << width) - 1
    constant, z = 0xFFFFFFFC & mask, 0x7369F885192C0EF5 & mask
    keys = [k & mask for k in key]
    for i in range(3, rounds):
        previous = keys[i - 1]
        keys.append(constant ^ (z & 1) ^ keys[i - 3] ^ _rotate_right(previous, 3, width)
                    ^ _rotate_right(previous, 4, width))
        z >>= 1
    return keys


def _rotate_left(x, r, width):
    return ((x << r) | (x >> (width - r))) & ((1 << width) - 1)


def _rotate_right(x, r, width):
    return ((x >> r) | (x << (width - r))) & ((1 << width) - 1)


def _simon_encrypt(value, keys, width):
    mask = (1 << width) - 1
    left, right = (value >> width) & mask, value & mask
    for i in range(0, len(keys), 2):
        left ^= (_rotate_left(right, 1, width) & _rotate_left(right, 8, width)) \
            ^ _rotate_left(right, 2, width)
        left ^= keys[i]
        right ^= (_rotate_left(left, 1, width) & _rotate_left(left, 8, width)) \
            ^ _rotate_left(left, 2, width)
        right ^= keys[i + 1]
    return (left << width) | right


def index_shuffle(index, key, max_index, rounds):
    """index's position in the permutation of [0, max_index] that `key` names: the cipher
    over the smallest even block of at least 16 bits holding max_index, walked until the
    value falls in range."""
    if max_index == 0:
        return 0
    bits = int(np.ceil(np.log2(np.float64(max_index))))
    block = max(bits + bits % 2, 16)
    block = block if block <= 62 else 64
    keys = _simon_round_keys(key, rounds, block // 2)
    new_index = index
    while True:
        new_index = _simon_encrypt(new_index, keys, block // 2)
        if new_index <= max_index:
            return new_index


@register("RandomIndexShuffle")
def random_index_shuffle(ctx, index, seed, max_index):
    index, seed, max_index = np.asarray(index), np.asarray(seed), np.asarray(max_index)
    all_scalar = index.ndim == 0 and seed.ndim == 1 and max_index.ndim == 0
    count = max(index.size, max_index.size, seed.size // 3)
    if not (index.ndim == 0 or (index.ndim == 1 and index.shape[0] == count)):
        raise invalid(ctx, "Index bust be a scalar or vector.")
    if not (seed.shape == (3,) or (seed.ndim == 2 and seed.shape == (count, 3))):
        raise invalid(ctx, f"Seed must be a vector of size [3] or a matrix of size [{count}, 3] "
                           f"but got {shape_str(seed.shape)}.")
    if not (max_index.ndim == 0 or (max_index.ndim == 1 and max_index.shape[0] == count)):
        raise invalid(ctx, "Maxval must be a scalar or a vector of the same size as index but "
                           f"got {shape_str(max_index.shape)}")
    dtype = index.dtype
    bits = 8 * dtype.itemsize
    rows = seed.reshape(-1, 3).astype(np.int64).tolist() if seed.dtype != np.uint64 \
        else seed.reshape(-1, 3).tolist()
    indices = np.broadcast_to(index, (count,)).tolist()
    limits = np.broadcast_to(max_index, (count,)).tolist()
    rounds = int(ctx.attrs.get("rounds", 4))
    out = np.empty(count, dtype)
    for i in range(count):
        key = [int(w) & _MASK32 for w in rows[0 if seed.ndim == 1 else i]]
        shuffled = index_shuffle(indices[i] % (1 << 64), key, limits[i] % (1 << 64), rounds)
        out[i] = np.array(shuffled % (1 << bits), np.uint64).astype(dtype)
    return out.reshape(()) if all_scalar else out
