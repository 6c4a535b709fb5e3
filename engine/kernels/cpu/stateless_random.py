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

