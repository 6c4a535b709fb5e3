"""The histogram's bucket folding against a plain per-bucket loop of the test's own, on inputs
spread over TensorFlow's whole range of edges (the TF-written bytes are checked in
test_tf1_snippets' histogram_summaries)."""

import bisect
import sys

import numpy as np
import pytest

from engine.summary.histogram_buckets import BUCKET_LIMITS, histogram_proto

LIMITS = BUCKET_LIMITS.tolist()


def folded_by_hand(values):
    """(limits, counts) as EncodeToProto(preserve_zero_buckets=false) writes them: one value
    at a time into its bucket, then each run of empty buckets as one, at the run's last limit."""
    counts = [0.0] * len(LIMITS)
    for value in values:
        counts[min(bisect.bisect_right(LIMITS, value), len(LIMITS) - 1)] += 1.0
    limits_out, counts_out = [], []
    for limit, count in zip(LIMITS, counts):
        if count == 0.0 and counts_out and counts_out[-1] == 0.0:
            limits_out[-1] = limit  # the run of empty buckets grows to this one
        else:
            limits_out.append(limit)
            counts_out.append(count)
    return limits_out, counts_out


def spread(rng, size):
    return rng.standard_normal(size) * 10.0 ** rng.uniform(-15, 22, size)


@pytest.mark.parametrize("seed", range(12))
def test_buckets_fold_as_a_loop_over_them(seed):
    rng = np.random.default_rng(seed)
    values = spread(rng, int(rng.integers(0, 300)))
    proto = histogram_proto(values)
    assert (list(proto.bucket_limit), list(proto.bucket)) == folded_by_hand(values.tolist())
    assert proto.num == len(values) and sum(proto.bucket) == len(values)


def test_values_on_the_edges_and_at_the_ends():
    values = LIMITS[1:-1] + [0.0, -0.0, 1e-300, -sys.float_info.max, sys.float_info.max]
    proto = histogram_proto(values)
    assert (list(proto.bucket_limit), list(proto.bucket)) == folded_by_hand(values)


def test_no_values_is_one_empty_run():
    proto = histogram_proto([])
    assert list(proto.bucket) == [0.0] and list(proto.bucket_limit) == [LIMITS[-1]]
    assert (proto.min, proto.max) == (sys.float_info.max, -sys.float_info.max)
