"""NumPy CPU kernels of the candidate samplers (TensorFlow's seeded streams bit for bit),
ComputeAccidentalHits and InTopKV2 (SparseToDense's kernel is in sparse.py).

A sampler's run reserves 2048 * num_sampled 32-bit words of its Philox stream (so each run
starts 512 * num_sampled blocks after the last), then reads words one at a time as
tsl's SimplePhilox does: RandDouble and Rand64 take two each.
"""

import math

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid
from engine.runtime.random_philox import uint64_to_double


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


def _expected_count(p, batch_size, num_tries):
    """RangeSampler's ExpectedCountHelper, in float32 as TensorFlow computes it."""
    if num_tries == batch_size:
        return np.float32(p * np.float32(batch_size))
    return -np.expm1(np.float32(num_tries) * np.log1p(-p))


def _sample(ctx, sampler, true_classes):
    num_true, num_sampled = ctx.attrs["num_true"], ctx.attrs["num_sampled"]
    unique = ctx.attrs["unique"]
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise invalid(ctx, f"true_classes must be a matrix with num_true={num_true} columns")
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


