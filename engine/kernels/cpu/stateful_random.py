"""CPU kernels of the ops behind tf.random.Generator (stateful_random_ops.cc,
random_binomial_op.cc): RngReadAndSkip, RngSkip, StatefulRandomBinomial, the V1 samplers
StatefulUniform, StatefulUniformInt, StatefulUniformFullInt, StatefulStandardNormalV2 and
StatefulTruncatedNormal, and NonDeterministicInts.

A generator's state is an int64 resource variable [counter low, counter high, key] (Philox).
A draw of n outputs takes the Philox stream at that key and counter (the stateless V2
samplers', kernels/cpu/stateless_random.py, bit for bit) and moves the stored counter on by
n * 256 blocks with Philox's own Skip, whose 32-bit carry drops a carry out of the second
word; ThreeFry, as on TensorFlow's CPU, is refused.
"""

import os

import numpy as np

from engine.framework.errors import NotFoundError, UnimplementedError
from engine.kernels import register
from engine.kernels.common import invalid, resource_handle
from engine.kernels.cpu import random_sampling
from engine.kernels.cpu.random import _shape
from engine.kernels.cpu.stateless_random import _FILLS, _ends_with, _int_in_range
from engine.kernels.cpu.state import _existing, _not_found
from engine.runtime.random_philox import PhiloxRandom
from engine.runtime.resources import locked

PHILOX, THREEFRY, AUTO_SELECT = 1, 2, 3
_MASK32, _MASK64 = 0xFFFFFFFF, (1 << 64) - 1
_STATE_SIZE = 3  # RNG_MAX_COUNTER_SIZE + RNG_KEY_SIZE


def philox_skip(counter, count):
    """PhiloxRandom::Skip(count) on a 128-bit counter: TensorFlow adds count's high word plus
    the low word's carry in 32 bits, so a carry out of 0xFFFFFFFF is lost.

    >>> hex(philox_skip(0xFFFFFFFF, 1))
    '0x100000000'
    >>> philox_skip(769, 2**64 - 256)  # 2**64 + 513 in full: the carry is dropped
    513
    """
    words = [(counter >> (32 * i)) & _MASK32 for i in range(4)]
    count_lo, count_hi = count & _MASK32, (count >> 32) & _MASK32
    words[0] = (words[0] + count_lo) & _MASK32
    if words[0] < count_lo:
        count_hi = (count_hi + 1) & _MASK32
    words[1] = (words[1] + count_hi) & _MASK32
    if words[1] < count_hi:
        words[2] = (words[2] + 1) & _MASK32
        if words[2] == 0:
            words[3] = (words[3] + 1) & _MASK32
    return sum(word << (32 * i) for i, word in enumerate(words))


def _state_buffer(ctx, resource):
    handle = resource_handle(resource)
    buffer = _existing(ctx, handle)
    if buffer is None:
        raise NotFoundError(ctx.node_def, None, _not_found(ctx, handle))
    state = buffer.value
    if state.dtype != np.int64:
        raise invalid(ctx, f"dtype of RNG state variable must be int64, not "
                           f"{_TYPE_NAMES.get(state.dtype.name, state.dtype.name)}")
    return buffer


_TYPE_NAMES = {"float32": "float", "float64": "double"}


def _check_philox_state(ctx, state, the=""):
    if state.ndim != 1:
        raise invalid(ctx, f"RNG state must have one and only one dimension, not {state.ndim}")
    if state.shape[0] < _STATE_SIZE:
        raise invalid(ctx, f"For {the}Philox algorithm, the size of state must be at least "
                           f"{_STATE_SIZE}; got {state.shape[0]}")


def _concrete_alg(ctx, alg):
    alg = int(alg)
    if alg == AUTO_SELECT:
        return PHILOX
    if alg == THREEFRY:
        raise UnimplementedError(ctx.node_def, None,
                                 "Non-XLA devices don't support the ThreeFry algorithm.")
    if alg != PHILOX:
        raise invalid(ctx, f"Unsupported algorithm id: {alg}")
    return alg


def _stream_of(state):
    """The Philox stream at a state's counter and key (GetPhiloxRandomFromCounterKeyMem)."""
    words = [int(w) & _MASK64 for w in state[:3]]
    counter, key = words[0] | (words[1] << 64), words[2]
    return PhiloxRandom.from_key_counter((key & _MASK32, key >> 32), counter)


def _skipped(state, outputs):
    """The state with its counter moved on by `outputs` * 256 blocks (UpdateMemWithPhilox:
    the product in 64 bits, as TensorFlow's int64)."""
    words = [int(w) & _MASK64 for w in state[:3]]
    counter = philox_skip(words[0] | (words[1] << 64), (outputs * 256) & _MASK64)
    new = state.copy()
    new[0] = np.uint64(counter & _MASK64).view(np.int64)
    new[1] = np.uint64((counter >> 64) & _MASK64).view(np.int64)
    return new


def _read_and_skip(ctx, resource, alg, outputs, the="the "):
    """The state before, after moving the stored counter on by `outputs` draws."""
    buffer = _state_buffer(ctx, resource)
    with locked([buffer]):
        state = buffer.value
        _concrete_alg(ctx, alg)
        _check_philox_state(ctx, state, the)
        buffer.value = _skipped(state, outputs)
    return state


@register("RngReadAndSkip")
def rng_read_and_skip(ctx, resource, alg, delta):
    state = _read_and_skip(ctx, resource, alg, int(delta))
    return state[:_STATE_SIZE].copy()


@register("RngSkip")
def rng_skip(ctx, resource, algorithm, delta):
    _read_and_skip(ctx, resource, algorithm, int(delta) & _MASK64)


def _v1_sampler(fill):
    """StatefulUniform, ...: the draws of the stateless V2 op at the variable's key and
    counter, the counter moved on by the outputs (UpdateVariableAndFill)."""
    def kernel(ctx, resource, algorithm, shape, *parameters):
        dims = _shape(ctx, shape)
        count = int(np.prod(dims, dtype=np.int64))
        state = _read_and_skip(ctx, resource, algorithm, count, the="")
        if count == 0:
            return np.zeros(dims, ctx.attrs["dtype"].as_numpy_dtype)
        return fill(ctx, dims, _stream_of(state), *parameters)
    return kernel


for _op, _fill in (("StatefulUniform", _FILLS["Uniform"]),
                   ("StatefulStandardNormalV2", _FILLS["Normal"]),
                   ("StatefulTruncatedNormal", _FILLS["TruncatedNormal"]),
                   ("StatefulUniformFullInt", _FILLS["FullInt"]),
                   ("StatefulUniformInt", _int_in_range)):
    register(_op)(_v1_sampler(_fill))


@register("StatefulRandomBinomial")
def stateful_random_binomial(ctx, resource, algorithm, shape, counts, probs):
    """Binomial draws from the variable's stream; the counter moves on by
    batches * 2 * 100 * (samples per batch + 3) / 4 outputs (random_binomial_op.cc)."""
    counts, probs = np.asarray(counts), np.asarray(probs)
    try:
        batch_shape = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise invalid(ctx, "counts and probs must have compatible batch dimensions: "
                           f"{counts.shape} vs. {probs.shape}") from None
    dims = [int(d) for d in np.asarray(shape).reshape(-1).tolist()]
    _ends_with(ctx, dims, batch_shape)
    out = np.zeros(dims, ctx.attrs["dtype"].as_numpy_dtype)
    if int(algorithm) != PHILOX:
        raise invalid(ctx, f"Unsupported algorithm id: {int(algorithm)}")
    batches = int(np.prod(batch_shape, dtype=np.int64))
    samples_per_batch = out.size // batches if batches else 0
    reserved = batches * 2 * 100 * (samples_per_batch + 3) // 4
    buffer = _state_buffer(ctx, resource)
    with locked([buffer]):
        state = buffer.value
        _check_philox_state(ctx, state)
        buffer.value = _skipped(state, reserved)
    if out.size == 0:
        return out
    random_sampling.binomial_fill(_stream_of(state),
                                  np.broadcast_to(counts, batch_shape).reshape(-1),
                                  np.broadcast_to(probs, batch_shape).reshape(-1),
                                  out.reshape(-1))
    return out


@register("NonDeterministicInts")
def non_deterministic_ints(ctx, shape):
    """Integers from the OS's entropy, different every run (TensorFlow's uses std::random
    device): values no fixture can hold, only their dtype and shape."""
    dims = _shape(ctx, shape)
    dtype = np.dtype(ctx.attrs["dtype"].as_numpy_dtype)
    count = int(np.prod(dims, dtype=np.int64))
    raw = np.frombuffer(os.urandom(count * 8), np.uint64)
    if dtype.kind in "iu":
        return raw.astype(np.uint64).view(np.int64).astype(dtype).reshape(dims)
    return raw.astype(dtype).reshape(dims)


