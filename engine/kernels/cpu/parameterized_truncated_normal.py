"""StatelessParameterizedTruncatedNormal: TensorFlow's TruncatedNormalFunctorV2
(parameterized_truncated_normal_op.cc) draw for draw over a seed's Philox stream.

Per output, in the parameters' type: bounds normalised by mean and stddev (flipped when only
the upper one is finite or it lies below the mean); a normal rejection sampler when the
interval holds the mean and reaches 1.3 standard deviations on one side, a uniform one when
the interval is narrower than the exponential sampler's cutoff, else an exponential one.
Outputs are cut in shards as TensorFlow's Shard cuts them over its threads (each shard's
stream skipped to start * 2000 / k blocks, k the uniform's values a block) and drawn one after
another from that stream. float32 arithmetic is NumPy's float32 scalars with glibc's expf and
logf; half is float arithmetic rounded to half after each step, as Eigen's half; double uses
Python's floats and glibc's exp and log.
"""

import math

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu.random_sampling import _Stream, shards
from engine.kernels.cpu.stateless_random import seed_stream
from engine.runtime import random_philox, threads

_MAX_ITERATIONS = 1000


def _internal(ctx, message):
    return errors.InternalError(getattr(ctx, "node_def", None), None, message)
# Shard's cost of an output (batchInitCost + 2 uniformRejectionSamplingCost of Eigen's costs
# of the type), read off where TensorFlow's first piece ends for 1100-2500 outputs on two
# threads; only tensors of about a thousand outputs or more are cut.
_OUTPUT_COST = {np.dtype(np.float16): 215, np.dtype(np.float32): 187,
                np.dtype(np.float64): 257}


class _Float:
    """A parameter type's arithmetic: its scalar type and glibc's exp, log and sqrt."""

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)
        self.t = self.dtype.type
        self.per_block = 2 if self.dtype == np.float64 else 4

    def exp(self, x):
        if self.dtype == np.float64:
            return math.exp(x)
        return self.t(random_philox.libm().expf(float(x)))

    def log(self, x):
        if self.dtype == np.float64:
            return math.log(x) if x > 0 else -math.inf
        return self.t(random_philox.libm().logf(float(x)))

    def sqrt(self, x):
        return math.sqrt(x) if self.dtype == np.float64 else self.t(np.sqrt(np.float32(x)))

    def uniform(self, stream):
        """UniformDistribution<PhiloxRandom, T> of the next block."""
        words = stream.block()
        if self.dtype == np.float64:
            return [float(d) for d in random_philox.uint64_to_double(
                np.array(words[0::2], np.uint32), np.array(words[1::2], np.uint32))]
        words = np.array(words, np.uint32)
        if self.dtype == np.float16:
            return [self.t(v) for v in random_philox.uint16_to_half(words)]
        return [self.t(v) for v in random_philox.uint32_to_float(words)]

    def normal(self, stream):
        """NormalDistribution<PhiloxRandom, T> of the next block."""
        if self.dtype == np.float64:
            return list(stream.normal_pair())
        w = np.array(stream.block(), np.uint32)
        f0, f1 = random_philox.box_muller_float(w[[0, 2]], w[[1, 3]])
        return [self.t(v) for v in (f0[0], f1[0], f0[1], f1[1])]


def _sample(arith, stream, count, mean, stddev, minval, maxval, ctx):
    """`count` draws for one batch member, from `stream` where the previous left off."""
    t = arith.t
    if not (stddev > 0 and minval < maxval and (np.isfinite(minval) or np.isfinite(maxval))):
        raise invalid(ctx, "Invalid parameters")
    if (np.isinf(minval) and minval < 0) or maxval < mean:
        minval, maxval, stddev = maxval, minval, t(-stddev)
    norm_min = t((minval - mean) / stddev)
    norm_max = t((maxval - mean) / stddev)
    sqrt_factor = arith.sqrt(t(norm_min * norm_min + t(4)))
    cutoff = t(t(t(2) * arith.exp(t(t(0.5) + t(norm_min * t(norm_min - sqrt_factor)) / t(4))))
               / t(norm_min + sqrt_factor))
    diff = t(norm_max - norm_min)
    inside = t(1.3)
    out = []
    iterations = 0
    if (norm_min < -inside and norm_max >= 0) or (norm_max > inside and norm_min <= 0):
        while len(out) < count:
            for value in arith.normal(stream):
                if norm_min <= value <= norm_max:
                    out.append(t(t(value * stddev) + mean))
                    if len(out) >= count:
                        break
                    iterations = 0
                else:
                    iterations += 1
                    if iterations > _MAX_ITERATIONS:
                        raise _internal(ctx, "TruncatedNormal randn rejection sampler failed "
                                             "to accept a sample.")
    elif diff < cutoff:
        plus_factor = t(0) if norm_min < 0 else t(norm_min * norm_min)
        while len(out) < count:
            z = [t(t(r * diff) + norm_min) for r in arith.uniform(stream)]
            g = [t(t(plus_factor - t(zi * zi)) / t(2)) for zi in z]
            u = arith.uniform(stream)
            for zi, gi, ui in zip(z, g, u):
                accept = ui <= arith.exp(gi)
                if accept or iterations + 1 >= _MAX_ITERATIONS:
                    if not accept:
                        raise _internal(ctx, "TruncatedNormal uniform rejection sampler "
                                             "failed to  accept a sample.")
                    out.append(t(t(zi * stddev) + mean))
                    if len(out) >= count:
                        break
                    iterations = 0
                else:
                    iterations += 1
    else:
        alpha = t(t(norm_min + arith.sqrt(t(norm_min * norm_min + t(4)))) / t(2))
        while len(out) < count:
            rand = arith.uniform(stream)
            for i in range(0, len(rand), 2):
                z = t(t(-arith.log(rand[i]) / alpha) + norm_min)
                x = t(alpha - z) if norm_min < alpha else t(norm_min - alpha)
                g = arith.exp(t(t(-x * x) / t(2)))
                accept = rand[i + 1] <= g and z < norm_max
                if accept or iterations + 1 >= _MAX_ITERATIONS:
                    if not accept:
                        raise _internal(ctx, "TruncatedNormal exponential distribution "
                                             "rejection sampler failed to accept a sample.")
                    out.append(t(t(z * stddev) + mean))
                    if len(out) >= count:
                        break
                    iterations = 0
                else:
                    iterations += 1
    return out


def _fill(ctx, generator, arith, params, per_batch, batches, flat):
    """TruncatedNormalFunctorV2's shards: outputs [start, limit) from one stream each."""
    means, stddevs, minvals, maxvals = params
    total = per_batch * batches
    for start, limit in shards(total, _OUTPUT_COST[arith.dtype], threads.budget()):
        skip = (start * 2 * _MAX_ITERATIONS + arith.per_block - 1) // arith.per_block
        stream = _Stream(generator, skip)
        output = start
        while output < limit:
            batch = output // per_batch
            first = output % per_batch
            count = min(per_batch - first, limit - output)
            draws = _sample(arith, stream, count, means[batch], stddevs[batch],
                            minvals[batch], maxvals[batch], ctx)
            for k, value in enumerate(draws):
                flat[(first + k) * batches + batch] = value
            output += count


@register("StatelessParameterizedTruncatedNormal")
def stateless_parameterized_truncated_normal(ctx, shape, seed, means, stddevs, minvals,
                                             maxvals):
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise invalid(ctx, f"seed must have shape [2], not {shape_str(seed.shape)}")
    params = [np.asarray(p) for p in (means, stddevs, minvals, maxvals)]
    try:
        batch_shape = np.broadcast_shapes(*(p.shape for p in params))
    except ValueError:
        raise invalid(ctx, "means, stddevs, minvals, maxvals must have compatible batch "
                           "dimensions: " + " vs. ".join(shape_str(p.shape) for p in params)
                      ) from None
    shape = np.asarray(shape)
    if shape.ndim != 1:
        raise invalid(ctx, f"Input shape should be a vector, got shape: {shape_str(shape.shape)}")
    dims = [int(d) for d in shape.tolist()]
    tail = list(batch_shape)
    if len(tail) > len(dims) or (tail and dims[len(dims) - len(tail):] != tail):
        raise invalid(ctx, "Shape passed in must end with broadcasted shape.")
    arith = _Float(params[0].dtype)
    out = np.zeros(dims, arith.dtype)
    if out.size == 0:
        return out
    batches = int(np.prod(tail, dtype=np.int64))
    flat_params = [np.broadcast_to(p, batch_shape).reshape(-1).tolist() for p in params]
    flat_params = [[arith.t(v) for v in p] for p in flat_params]
    _fill(ctx, seed_stream(ctx, seed), arith, flat_params, out.size // batches, batches,
          out.reshape(-1))
    return out
