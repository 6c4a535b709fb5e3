"""NumPy CPU kernels of the candidate samplers (TensorFlow's seeded streams bit for bit),
ComputeAccidentalHits and InTopKV2 (SparseToDense's kernel is in sparse.py).

A sampler's run reserves 2048 * num_sampled 32-bit words of its Philox stream (so each run
starts 512 * num_sampled blocks after the last), then reads words one at a time as
tsl's SimplePhilox does: RandDouble and Rand64 take two each.
"""

import math
import weakref

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid
from engine.lib_io import file_io
from engine.runtime.random_philox import uint32_to_float, uint64_to_double


class SimplePhilox:
    """32-bit words of a PhiloxRandom, in order, made a chunk of blocks at a time."""

    _CHUNK = 64

    def __init__(self, generator):
        self._generator, self._words, self._next = generator, np.zeros(0, np.uint32), 0

    def _word(self):
        if self._next == len(self._words):
            self._words, self._next = self._generator.next_blocks(self._CHUNK).reshape(-1), 0
        word = self._words[self._next]
        self._next += 1
        return word

    def rand_double(self):
        x0, x1 = self._word(), self._word()
        return float(uint64_to_double(np.array([x0]), np.array([x1]))[0])

    def rand64(self):
        lo, hi = int(self._word()), int(self._word())
        return lo | hi << 32

    def rand32(self):
        return int(self._word())

    def rand_float(self):
        return float(uint32_to_float(np.array([self._word()], np.uint32))[0])

    def uniform(self, n):
        """tsl's ExactUniformInt / UnbiasedUniform: a power of two masked, else words below
        2^32 mod n rejected and the rest taken mod n."""
        if n & (n - 1) == 0:
            return self.rand32() & (n - 1)
        reject = ((2 ** 32 - 1) % n + 1) % n
        while True:
            word = self.rand32()
            if word >= reject:
                return word % n


class LogUniformSampler:
    def __init__(self, range_max):
        self.range, self.log_range = range_max, math.log1p(range_max)

    def sample(self, rnd):
        return (int(math.exp(rnd.rand_double() * self.log_range)) - 1) % self.range

    def probability(self, value):
        return np.float32(math.log((value + 2.0) / (value + 1.0)) / self.log_range)


class UniformSampler:
    def __init__(self, range_max):
        self.range = range_max

    def sample(self, rnd):
        return rnd.rand64() % self.range

    def probability(self, value):
        return np.float32(1.0 / self.range)


class AllSampler:
    """Every class once: sample i is class i, each expected once."""

    def __init__(self, range_max):
        self.range = range_max


class DistributionSampler:
    """tsl's DistributionSampler: Walker's alias table over float weights, paired as its
    constructor pairs them (the last short bucket with the last long one)."""

    def __init__(self, weights):
        n = len(weights)
        total = 0.0
        for w in weights:
            total += float(w)
        scaled = [float(np.float32(w)) * n / total for w in weights]
        self.alt = [-1] * n
        high = [i for i in range(n) if scaled[i] >= 1.0]
        low = [i for i in range(n) if scaled[i] < 1.0]
        while high and low:
            small, large = low.pop(), high.pop()
            self.alt[small] = large
            scaled[large] = scaled[large] - (1.0 - scaled[small])
            (low if scaled[large] < 1.0 else high).append(large)
        self.prob = [np.float32(p) for p in scaled]
        for i in high + low:
            self.prob[i], self.alt[i] = np.float32(1.0), i

    def sample(self, rnd):
        r = np.float32(rnd.rand_float())
        index = rnd.uniform(len(self.prob))
        return index if r < self.prob[index] else self.alt[index]


class FixedUnigramSampler:
    """Classes drawn by weight (unigram ** distortion) with reserved ids of weight 0, the
    shard's own ids only; P(class) = weight / total weight in float32."""

    def __init__(self, range_max, unigrams, distortion, num_reserved_ids, num_shards, shard):
        self.range = range_max
        weights = [np.float32(0.0) for i in range(num_reserved_ids) if i % num_shards == shard]
        total = np.float32(0.0)
        for word_id, w in enumerate(unigrams, start=len(weights)):
            if word_id % num_shards == shard:
                w = np.float32(math.pow(np.float32(w), np.float32(distortion)))
                total = np.float32(total + w)
                weights.append(w)
        self.weights, self.total = weights, total
        self.sampler = DistributionSampler(weights) if weights else None

    def sample(self, rnd):
        return self.sampler.sample(rnd)

    def probability(self, value):
        if value < 0 or value >= len(self.weights):
            return np.float32(0.0)
        return np.float32(self.weights[value] / self.total)


class LearnedUnigramSampler:
    """tsl's UnigramSampler: every class starts at weight 1 and each run adds 1 to the
    weight of each true class it saw; draws are an unbiased uniform over the total weight,
    walked through the cumulative weights (WeightedPicker)."""

    def __init__(self, range_max):
        self.range = range_max
        self.weights = np.ones(range_max, np.int64)

    def sample(self, rnd):
        position = rnd.uniform(int(self.weights.sum()))
        return int(np.searchsorted(np.cumsum(self.weights), position, side="right"))

    def probability(self, value):
        if value < 0 or value >= self.range:
            return np.float32(0.0)
        return np.float32(np.float32(self.weights[value]) / np.float32(self.weights.sum()))

    def update(self, values):
        for value in values:
            self.weights[value] += 1


def _expected_count(p, batch_size, num_tries):
    """RangeSampler's ExpectedCountHelper, in float32 as TensorFlow computes it."""
    if num_tries == batch_size:
        return np.float32(p * np.float32(batch_size))
    return -np.expm1(np.float32(num_tries) * np.log1p(-p))


def _check_true_classes(ctx, true_classes, num_true, range_max):
    """BaseCandidateSamplerOp's checks of true_classes [batch, num_true] in [0, range)."""
    if true_classes.ndim != 2:
        raise invalid(ctx, "true_classes must be a matrix")
    if true_classes.shape[1] != num_true:
        raise invalid(ctx, "true_classes must have num_true columns, expected: "
                           f"{true_classes.shape[1]} was: {num_true}")
    for value in true_classes.reshape(-1):
        if not 0 <= value < range_max:
            raise invalid(ctx, f"`true_candidate` out of range [0, {range_max}), received "
                               f"{value}")


def _sample(ctx, sampler, true_classes):
    num_true, num_sampled = ctx.attrs["num_true"], ctx.attrs["num_sampled"]
    unique = ctx.attrs["unique"]
    _check_true_classes(ctx, true_classes, num_true, sampler.range)
    if unique and num_sampled > sampler.range:
        raise invalid(ctx, "Sampler's range is too small.")
    rnd = SimplePhilox(ctx.rng().reserve_random_outputs((2048 * num_sampled + 3) // 4, 1))
    if unique:
        picked, used, num_tries = [], set(), 0
        while len(picked) < num_sampled:
            num_tries += 1
            value = sampler.sample(rnd)
            if value not in used:
                used.add(value)
                picked.append(value)
    else:
        picked = [sampler.sample(rnd) for _ in range(num_sampled)]
        num_tries = num_sampled
    sampled_count = [_expected_count(sampler.probability(v), num_sampled, num_tries)
                     for v in picked]
    true_count = [_expected_count(sampler.probability(int(v)), num_sampled, num_tries)
                  for v in true_classes.reshape(-1)]
    return (np.array(picked, np.int64),
            np.array(true_count, np.float32).reshape(true_classes.shape),
            np.array(sampled_count, np.float32))


def _sample_all(ctx, true_classes):
    num_true, num_sampled = ctx.attrs["num_true"], ctx.attrs["num_sampled"]
    _check_true_classes(ctx, true_classes, num_true, num_sampled)
    ctx.rng().reserve_random_outputs((2048 * num_sampled + 3) // 4, 1)
    return (np.arange(num_sampled, dtype=np.int64), np.ones(true_classes.shape, np.float32),
            np.ones(num_sampled, np.float32))


@register("AllCandidateSampler")
def all_candidate_sampler(ctx, true_classes):
    return _sample_all(ctx, true_classes)


def _unigrams(ctx):
    vocab_file = ctx.attr("vocab_file", b"")
    if not vocab_file:
        return list(ctx.attr("unigrams") or [])
    path = vocab_file.decode() if isinstance(vocab_file, bytes) else vocab_file
    unigrams = []
    # One "word,count" line a class; the count is the last column.
    for line in file_io.read_file(path, _VOCAB_LIMIT, ctx.node_def).decode().splitlines():
        if line:
            try:
                unigrams.append(float(line.split(",")[-1]))
            except ValueError:
                raise invalid(ctx, f"Wrong vocabulary format at line: {line}") from None
    return unigrams


_VOCAB_LIMIT = 64 << 20


@register("FixedUnigramCandidateSampler")
def fixed_unigram_candidate_sampler(ctx, true_classes):
    unigrams = _unigrams(ctx)
    sampler = FixedUnigramSampler(
        ctx.attr("range_max"), unigrams, ctx.attr("distortion", 1.0),
        ctx.attr("num_reserved_ids", 0), ctx.attr("num_shards", 1), ctx.attr("shard", 0))
    if len(sampler.weights) != sampler.range:
        raise invalid(ctx, f"range is {sampler.range} must be equal to weights size  "
                           f"{len(sampler.weights)}")
    return _sample(ctx, sampler, true_classes)


# Each LearnedUnigramCandidateSampler node's learned weights, per session (as TensorFlow's
# kernel keeps its sampler).
_LEARNED = weakref.WeakKeyDictionary()


@register("LearnedUnigramCandidateSampler")
def learned_unigram_candidate_sampler(ctx, true_classes):
    by_node = _LEARNED.setdefault(ctx.resources, {})
    sampler = by_node.get(ctx.name)
    if sampler is None:
        sampler = by_node[ctx.name] = LearnedUnigramSampler(ctx.attr("range_max"))
    result = _sample(ctx, sampler, true_classes)
    sampler.update(int(v) for v in true_classes.reshape(-1))
    return result


@register("LogUniformCandidateSampler")
def log_uniform_candidate_sampler(ctx, true_classes):
    return _sample(ctx, LogUniformSampler(ctx.attrs["range_max"]), true_classes)


@register("UniformCandidateSampler")
def uniform_candidate_sampler(ctx, true_classes):
    return _sample(ctx, UniformSampler(ctx.attrs["range_max"]), true_classes)


@register("ComputeAccidentalHits")
def compute_accidental_hits(ctx, true_classes, sampled_candidates):
    """(row, position in sampled_candidates, -FLT_MAX) for each true class that was also
    sampled; a candidate sampled twice counts at its last position, as TensorFlow's map."""
    position = {int(c): i for i, c in enumerate(sampled_candidates)}
    hits = [(row, position[int(c)]) for row, classes in enumerate(true_classes)
            for c in classes if int(c) in position]
    rows = np.array([h[0] for h in hits], np.int32)
    ids = np.array([h[1] for h in hits], np.int64)
    return rows, ids, np.full(len(hits), -np.finfo(np.float32).max, np.float32)


