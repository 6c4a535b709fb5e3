"""CPU kernels of Multinomial, RandomGamma, RandomGammaGrad and RandomPoissonV2: TensorFlow's
samplers over its Philox streams (engine/runtime/random_philox.py), draw for draw.

- Multinomial (multinomial_op.cc): a run reserves batch * ceil4(num_samples) * 2 outputs of
  256 blocks; rows are split in shards as TensorFlow's Shard splits them over its worker
  threads (work_sharder.cc, Eigen's parallelFor block size: `shards`), each shard's stream
  skipped to start_row * (num_samples + 3) / 4 blocks and read word by word
  (SimplePhilox::RandDouble, two words a draw); a row's unnormalised CDF is exp(logit - max)
  in double over its finite logits, a draw its upper bound.
- RandomGamma (random_op.cc): Marsaglia and Tsang's transformation-rejection in double, each
  output on its own stream skipped to 256 * output blocks, normals (Box-Muller, two a block)
  and uniforms (two doubles a block) taken last first, as TensorFlow's buffers give them; alpha
  == 1 is -log1p(-u).
- RandomPoissonV2 (random_poisson_op.cc): Knuth's product of uniforms below rate 10,
  Hormann's transformed rejection above, in double.
The arithmetic is Python's floats and glibc's double functions (math.log, sqrt, sin, cos,
pow, log1p; lgamma through ctypes), as TensorFlow calls them.
"""

import math

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu import special_functions as sf
from engine.runtime import random_philox, threads

RESERVED = random_philox.RESERVED_SAMPLES_PER_OUTPUT
_TWO_PI = 2 * math.pi


def _double(x0, x1):
    """Uint64ToDouble: 52 mantissa bits from two words, in [0, 1)."""
    bits = ((int(x0) & 0xFFFFF) << 32) | int(x1)
    return float(np.uint64(bits | (1023 << 52)).view(np.float64)) - 1.0


class _Stream:
    """Philox blocks from `generator` skipped by `start` blocks, fetched a few at a time."""

    __slots__ = ("generator", "next", "cache")

    def __init__(self, generator, start):
        self.generator, self.next, self.cache = generator, start, []

    def block(self):
        if not self.cache:
            offsets = np.arange(self.next, self.next + 4, dtype=np.uint64)
            self.cache = self.generator.blocks_at(offsets).tolist()[::-1]
            self.next += 4
        return self.cache.pop()

    def uniform_pair(self):
        """UniformDistribution<PhiloxRandom, double>: two doubles from one block."""
        w = self.block()
        return _double(w[0], w[1]), _double(w[2], w[3])

    def normal_pair(self):
        """NormalDistribution<PhiloxRandom, double>: BoxMullerDouble of one block."""
        w = self.block()
        u1 = max(_double(w[0], w[1]), 1.0e-7)
        v1 = _TWO_PI * _double(w[2], w[3])
        u2 = math.sqrt(-2.0 * math.log(u1))
        return math.sin(v1) * u2, math.cos(v1) * u2


class _Buffered:
    """A distribution's results taken last first (TensorFlow's `remaining` counters)."""

    __slots__ = ("draw", "values")

    def __init__(self, draw):
        self.draw, self.values = draw, []

    def __call__(self):
        if not self.values:
            self.values = list(self.draw())
        return self.values.pop()


# -- sharding as TensorFlow's Shard over Eigen's parallelFor --

_MIN_BLOCK_COST = 40000.0  # Eigen's TensorCostModel kTaskSize


def shards(total, cost_per_unit, num_threads):
    """[(start, limit)] as TensorFlow's Shard(num_threads, ..., total, cost_per_unit) cuts the
    work: one piece where Eigen's cost model finds one thread enough, else parallelFor's
    blocks (CalculateParallelForBlock)."""
    if total <= 0:
        return []
    total_cost = float(total) * float(cost_per_unit)
    wanted = int((total_cost - 100000.0) / 100000.0 + 0.9)
    if num_threads <= 1 or total == 1 or min(num_threads, max(1, wanted)) == 1:
        return [(0, total)]
    block_size_f = 1.0 / (float(cost_per_unit) / _MIN_BLOCK_COST)
    block_size = min(total, max(-(-total // (4 * num_threads)), int(block_size_f)))
    max_block_size = min(total, 2 * block_size)
    block_count = -(-total // block_size)
    max_efficiency = block_count / (-(-block_count // num_threads) * num_threads)
    previous = block_count
    while max_efficiency < 1.0 and previous > 1:
        coarser_size = -(-total // (previous - 1))
        if coarser_size > max_block_size:
            break
        coarser_count = -(-total // coarser_size)
        previous = coarser_count
        efficiency = coarser_count / (-(-coarser_count // num_threads) * num_threads)
        if efficiency + 0.01 >= max_efficiency:
            block_size, block_count = coarser_size, coarser_count
            max_efficiency = max(max_efficiency, efficiency)
    return [(start, min(start + block_size, total)) for start in range(0, total, block_size)]


# -- Multinomial --

@register("Multinomial")
def multinomial(ctx, logits, num_samples):
    return multinomial_draws(ctx, logits, num_samples, ctx.rng().reserve_random_outputs)


def multinomial_draws(ctx, logits, num_samples, generator_for):
    """Multinomial's checks and draws; `generator_for(reserved outputs)` gives the stream (the
    node's reservation, or a stateless op's seed stream)."""
    logits, num_samples = np.asarray(logits), np.asarray(num_samples)
    if logits.ndim != 2:
        raise invalid(ctx, f"logits should be a matrix, got shape {shape_str(logits.shape)}")
    if num_samples.ndim != 0:
        raise invalid(ctx, "num_samples should be a scalar, got shape "
                           f"{shape_str(num_samples.shape)}")
    samples = int(num_samples)
    if samples < 0:
        raise invalid(ctx, f"num_samples should be non-negative, got {samples}")
    batch, classes = logits.shape
    if classes <= 0:
        raise invalid(ctx, f"num_classes should be positive, got {classes}")
    out = np.zeros((batch, samples), ctx.attrs["output_dtype"].as_numpy_dtype)
    if out.size == 0:
        return out
    reserved = batch * ((samples + 3) // 4 * 4) * 2
    generator = generator_for(reserved)
    cost = int(50 * (samples * math.log(classes) / math.log(2) + classes))
    wide = logits.astype(np.float64)
    finite = np.isfinite(logits)
    for start, limit in shards(batch, cost, threads.budget()):
        words_needed = 2 * samples * (limit - start)
        first = start * (samples + 3) // 4
        blocks = generator.blocks_at(np.arange(first, first + -(-words_needed // 4),
                                               dtype=np.uint64))
        words = blocks.reshape(-1)[:words_needed].reshape(limit - start, samples, 2)
        hi = (words[..., 0].astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)
        draws = (hi | words[..., 1].astype(np.uint64) | np.uint64(1023 << 52)) \
            .view(np.float64) - 1.0
        for row in range(start, limit):
            kept = finite[row]
            top = wide[row][kept].max() if kept.any() else np.finfo(logits.dtype).min
            with np.errstate(all="ignore"):
                cdf = np.exp(wide[row] - float(top))
            total = 0.0
            running = np.empty(classes)
            for j in range(classes):
                if kept[j]:
                    total += float(cdf[j])
                running[j] = total
            out[row] = np.searchsorted(running, draws[row - start] * total, side="right")
    return out


# -- RandomGamma, RandomGammaGrad --

def shape_vector(ctx, shape):
    shape = np.asarray(shape)
    if shape.ndim != 1 or shape.dtype not in (np.int32, np.int64):
        raise invalid(ctx, "shape must be a vector of {int32,int64}, got shape: "
                           f"{_debug_string(shape)}")
    return [int(d) for d in shape.tolist()]


def _debug_string(tensor):
    from engine.framework import dtypes
    dtype = dtypes.as_dtype(tensor.dtype).name
    return f"Tensor<type: {dtype} shape: {shape_str(tensor.shape)} values: " \
           + " ".join(str(v) for v in tensor.reshape(-1)[:10].tolist()) + ">"


def _gamma_sample(stream, alpha):
    if alpha == 1.0:
        u = _Buffered(stream.uniform_pair)()
        return -math.log1p(-u)
    normal, uniform = _Buffered(stream.normal_pair), _Buffered(stream.uniform_pair)
    less_than_one = alpha < 1
    d = alpha + (2.0 / 3 if less_than_one else -1.0 / 3)
    c = 1.0 / 3 / math.sqrt(d)
    while True:
        x = normal()
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or \
                math.log(u) < 0.5 * x * x + d * (1 - v + math.log(v)):
            result = d * v
            if less_than_one:
                result *= math.pow(uniform(), 1 / alpha)
            return result


@register("RandomGamma")
def random_gamma(ctx, shape, alpha):
    dims = shape_vector(ctx, shape)
    alpha = np.asarray(alpha)
    per_alpha = int(np.prod(dims, dtype=np.int64))
    out = np.zeros(dims + list(alpha.shape), alpha.dtype)
    if out.size == 0:
        return out
    generator = ctx.rng().reserve_random_outputs(per_alpha * alpha.size)
    gamma_fill(generator, alpha, per_alpha, out.reshape(-1))
    return out


def gamma_fill(generator, alpha, per_alpha, flat):
    """flat[sample * alphas + alpha_index] = a Gamma(alpha) draw, output alpha_index *
    per_alpha + sample on its own stream at 256 blocks an output."""
    alphas = alpha.reshape(-1).astype(np.float64).tolist()
    for alpha_index, a in enumerate(alphas):
        for sample in range(per_alpha):
            output = alpha_index * per_alpha + sample
            stream = _Stream(generator, RESERVED * output)
            flat[sample * len(alphas) + alpha_index] = _gamma_sample(stream, a)


@register("RandomGammaGrad")
def random_gamma_grad(ctx, alpha, sample):
    alpha, sample = np.broadcast_arrays(np.asarray(alpha), np.asarray(sample))
    return sf.elementwise(sf.gamma_sample_der_alpha, alpha, sample)


# -- RandomPoissonV2 --

_HIGHEST = {np.dtype(np.float16): 65504.0, np.dtype(np.float32): float(np.finfo(np.float32).max),
            np.dtype(np.float64): float(np.finfo(np.float64).max),
            np.dtype(np.int32): float(np.iinfo(np.int32).max),
            np.dtype(np.int64): float(np.iinfo(np.int64).max)}


def _poisson_knuth(stream, exp_neg_rate, highest):
    uniform = _Buffered(stream.uniform_pair)
    product, x = 1.0, 0.0
    while True:
        product = product * uniform()
        if product <= exp_neg_rate and x <= highest:
            return x
        x += 1


def _poisson_hormann(stream, rate, log_rate, a, b, inv_alpha, highest):
    uniform = _Buffered(stream.uniform_pair)
    while True:
        u = uniform() - 0.5
        v = uniform()
        u_shifted = 0.5 - abs(u)
        with np.errstate(all="ignore"):
            k = math.floor((2 * a / u_shifted + b) * u + rate + 0.43) if u_shifted else \
                math.inf
        if k > highest:
            continue
        if u_shifted >= 0.07 and v <= 0.9277 - 3.6224 / (b - 2):
            return k
        if k < 0 or (u_shifted < 0.013 and v > u_shifted):
            continue
        s = math.log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -rate + k * log_rate - sf.lgamma(sf.F64, k + 1)
        if s <= t:
            return k


@register("RandomPoissonV2")
def random_poisson_v2(ctx, shape, rate):
    dims = [int(d) for d in np.asarray(shape).reshape(-1).tolist()]
    rate = np.asarray(rate)
    out_dtype = np.dtype(ctx.attrs["dtype"].as_numpy_dtype)
    per_rate = int(np.prod(dims, dtype=np.int64))
    out = np.zeros(dims + list(rate.shape), out_dtype)
    if per_rate == 0 or out.size == 0:
        return out
    generator = ctx.rng().reserve_random_outputs(per_rate * rate.size)
    poisson_fill(generator, rate, per_rate, out.reshape(-1))
    return out


def poisson_fill(generator, rate, per_rate, flat):
    """flat[sample * rates + rate_index] = a Poisson(rate) draw, each output on its own
    stream at 256 blocks an output (PoissonFunctor)."""
    highest = _HIGHEST[flat.dtype]
    rates = rate.reshape(-1).astype(np.float64).tolist()
    for rate_index, r in enumerate(rates):
        if r < 10:
            exp_neg_rate = math.exp(-r)
        else:
            log_rate = math.log(r)
            b = 0.931 + 2.53 * math.sqrt(r)
            a = -0.059 + 0.02483 * b
            inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        for sample in range(per_rate):
            stream = _Stream(generator, RESERVED * (rate_index * per_rate + sample))
            if r < 10:
                value = _poisson_knuth(stream, exp_neg_rate, highest)
            else:
                value = _poisson_hormann(stream, r, log_rate, a, b, inv_alpha, highest)
            flat[sample * len(rates) + rate_index] = value


# -- binomial (random_binomial_op.cc's RandomBinomialFunctor) --

_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287)


def _log(x):
    """glibc's log, with log(0) = -inf as C gives it."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _stirling_approx_tail(k):
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _binomial_inversion(stream, count, prob):
    uniform = _Buffered(stream.uniform_pair)
    geom_sum, num_geom = 0.0, 0
    log1p_q = math.log1p(-prob)
    while True:
        ratio = _log(uniform()) / log1p_q
        geom = math.ceil(ratio) if math.isfinite(ratio) else ratio
        geom_sum += geom
        if geom_sum > count:
            return num_geom
        num_geom += 1


def _btrs(stream, count, prob):
    """Hormann's transformed rejection with pairs of uniforms (btrs)."""
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    uniform = _Buffered(stream.uniform_pair)
    while True:
        u = uniform()
        v = uniform()
        u = u - 0.5
        us = 0.5 - abs(u)
        if us == 0:  # C's k is -inf here: rejected
            continue
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or k > count:
            continue
        v = _log(v * alpha / (a / (us * us) + b))
        upperbound = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
                      + (count + 1) * math.log((count - m + 1) / (count - k + 1))
                      + (k + 0.5) * math.log(r * (count - k + 1) / (k + 1))
                      + _stirling_approx_tail(m) + _stirling_approx_tail(count - m)
                      - _stirling_approx_tail(k) - _stirling_approx_tail(count - k))
        if v <= upperbound:
            return k


def _binomial_sample(generator, output, count, prob):
    """One draw for counts and probs of the parameters' type (their products and 1 - p in
    that type, as TensorFlow's comparisons)."""
    dtype = type(prob)
    dcount = float(count)
    if dcount <= 0.0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return dcount
    if prob <= dtype(0.5):
        flip, p = False, prob
    elif prob > dtype(0.5):
        flip, p = True, dtype(dtype(1) - prob)
    else:
        return math.nan
    with np.errstate(over="ignore"):
        large = count * p >= dtype(10)
    if large:
        draw = _btrs(_Stream(generator, RESERVED * output), dcount, float(p))
    else:
        draw = _binomial_inversion(_Stream(generator, 42 * output), dcount, float(p))
    return dcount - draw if flip else draw


def binomial_fill(generator, counts, probs, flat):
    """flat[sample * batches + batch] = a Binomial(counts[batch], probs[batch]) draw, output
    batch * samples_per_batch + sample on its own stream (256 blocks an output for BTRS, 42
    for inversion)."""
    batches = counts.size
    per_batch = flat.size // batches
    for batch in range(batches):
        count, prob = counts[batch], probs[batch]
        for sample in range(per_batch):
            flat[sample * batches + batch] = _binomial_sample(
                generator, batch * per_batch + sample, count, prob)
