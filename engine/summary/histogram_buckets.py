"""TensorFlow's summary histogram: its fixed bucket edges and the HistogramProto it writes.

The edges are TensorFlow's (lib/histogram): 0, then +-1e-12 growing by 10% up to 1e20, then
+-DBL_MAX. A value v counts in the first bucket whose limit is greater than v; runs of empty
buckets fold into one, as TensorFlow's EncodeToProto(preserve_zero_buckets=false) does.

>>> h = histogram_proto([0.0, 1.0, 1.0])
>>> h.min, h.max, h.num, h.sum, h.sum_squares
(0.0, 1.0, 3.0, 2.0, 2.0)
>>> list(h.bucket), len(h.bucket_limit)
([0.0, 1.0, 0.0, 2.0, 0.0], 5)
"""

import sys

import numpy as np

from engine.proto import histogram_pb2

DBL_MAX = sys.float_info.max


def _default_bucket_limits():
    positive, value = [], 1.0e-12
    while value < 1.0e20:
        positive.append(value)
        value *= 1.1  # in doubles, one multiplication at a time, as TensorFlow's loop
    positive.append(DBL_MAX)
    return np.array([-v for v in reversed(positive)] + [0.0] + positive)


BUCKET_LIMITS = _default_bucket_limits()


def histogram_proto(values):
    """The HistogramProto of finite `values` (converted to double, summed in order)."""
    values = np.asarray(values, dtype=np.float64).reshape(-1)
    # A value at DBL_MAX itself lands past the last limit; TensorFlow's edges end there.
    bucket = np.minimum(np.searchsorted(BUCKET_LIMITS, values, side="right"), _LAST)
    counts = np.bincount(bucket, minlength=len(BUCKET_LIMITS)).astype(np.float64)
    keep = _kept_buckets(counts > 0.0)
    with np.errstate(over="ignore"):  # squares past DBL_MAX are inf, as in TensorFlow's doubles
        squares = values * values
    return histogram_pb2.HistogramProto(
        min=float(values.min()) if values.size else DBL_MAX,
        max=float(values.max()) if values.size else -DBL_MAX,
        num=float(values.size),
        # TensorFlow adds one value at a time; cumsum keeps that order (np.sum is pairwise).
        sum=float(np.cumsum(values)[-1]) if values.size else 0.0,
        sum_squares=float(np.cumsum(squares)[-1]) if values.size else 0.0,
        bucket_limit=BUCKET_LIMITS[keep].tolist(), bucket=counts[keep].tolist())


_LAST = len(BUCKET_LIMITS) - 1


def _kept_buckets(filled):
    """Which buckets the proto lists: every filled one, and of each run of empty ones only
    the last (its limit closes the run), as EncodeToProto(preserve_zero_buckets=false).

    >>> _kept_buckets(np.array([False, False, True, False, True, False, False])).tolist()
    [False, True, True, True, True, False, True]
    """
    keep = filled.copy()
    keep[:-1] |= filled[1:]  # an empty bucket right before a filled one ends its run
    keep[-1] = True
    return keep
