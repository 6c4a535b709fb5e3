"""NumPy CPU kernels of the segment ops (SegmentSum/Mean/Max/Min/Prod over sorted ids,
UnsortedSegmentMax/Min/Prod) and DenseBincount, with TensorFlow's empty-segment values and
error texts (Unique's kernel is in sparse_training.py)."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str


def _lowest(dtype):
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    return np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max


def _sorted_segments(ctx, data, segment_ids):
    data, ids = np.asarray(data), np.asarray(segment_ids)
    if ids.ndim != 1:
        raise invalid(ctx, f"segment_ids should be a vector.")
    if data.ndim < 1 or data.shape[0] != ids.size:
        raise invalid(ctx, f"segment_ids should be the same size as dimension 0 of input.")
    count = int(ids[-1]) + 1 if ids.size else 0
    if ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0):
        raise invalid(ctx, "segment ids are not increasing")
    return data, ids, count


def _segment_reduce(ctx, data, segment_ids, reduce, empty):
    data, ids, count = _sorted_segments(ctx, data, segment_ids)
    out = np.full((count,) + data.shape[1:], empty, data.dtype)
    for segment in np.unique(ids):
        out[segment] = reduce(data[ids == segment], axis=0)
    return out


@register("SegmentSum")
def segment_sum(ctx, data, segment_ids):
    return _segment_reduce(ctx, data, segment_ids, np.sum, 0)


@register("SegmentMean")
def segment_mean(ctx, data, segment_ids):
    return _segment_reduce(ctx, data, segment_ids, np.mean, 0)


@register("SegmentProd")
def segment_prod(ctx, data, segment_ids):
    return _segment_reduce(ctx, data, segment_ids, np.prod, 1)


@register("SegmentMax")
def segment_max(ctx, data, segment_ids):
    return _segment_reduce(ctx, data, segment_ids, np.max, 0)


@register("SegmentMin")
def segment_min(ctx, data, segment_ids):
    return _segment_reduce(ctx, data, segment_ids, np.min, 0)


def _unsorted(ctx, data, segment_ids, num_segments, ufunc, empty):
    data, ids = np.asarray(data), np.asarray(segment_ids)
    if data.shape[:ids.ndim] != ids.shape:
        raise invalid(ctx, f"data.shape = {shape_str(data.shape)} does not start with "
                           f"segment_ids.shape = {shape_str(ids.shape)}")
    count = int(num_segments)
    out = np.full((count,) + data.shape[ids.ndim:], empty, data.dtype)
    flat_ids = ids.reshape(-1)
    flat = data.reshape((flat_ids.size,) + data.shape[ids.ndim:])
    for position, segment in enumerate(flat_ids):
        if segment >= count:
            raise invalid(ctx, f"segment_ids[{position}] = {segment} is out of range "
                               f"[0, {count})")
    keep = flat_ids >= 0
    ufunc.at(out, flat_ids[keep], flat[keep])
    return out


@register("UnsortedSegmentMax")
def unsorted_segment_max(ctx, data, segment_ids, num_segments):
    return _unsorted(ctx, data, segment_ids, num_segments, np.maximum,
                     _lowest(np.asarray(data).dtype))


@register("UnsortedSegmentMin")
def unsorted_segment_min(ctx, data, segment_ids, num_segments):
    return _unsorted(ctx, data, segment_ids, num_segments, np.minimum,
                     _highest(np.asarray(data).dtype))


@register("UnsortedSegmentProd")
def unsorted_segment_prod(ctx, data, segment_ids, num_segments):
    return _unsorted(ctx, data, segment_ids, num_segments, np.multiply, 1)


@register("DenseBincount")
def dense_bincount(ctx, values, size, weights):
    """Counts of a vector, or of each row of a matrix ([rows, size]: Keras 3's
    IntegerLookup/StringLookup count, multi_hot and tf_idf modes count each example)."""
    values, weights = np.asarray(values), np.asarray(weights)
    size = int(size)
    if size < 0:
        raise invalid(ctx, f"size ({size}) must be non-negative")
    if values.size and values.min() < 0:
        raise invalid(ctx, f"Input arr must be non-negative!")
    out_dtype = weights.dtype if weights.size else np.dtype(ctx.output_dtypes[0].as_numpy_dtype)
    binary = ctx.attr("binary_output", False)
    if values.ndim == 2:
        out = np.zeros((values.shape[0], size), out_dtype)
        for row in range(values.shape[0]):
            out[row] = bincount(values[row], size, weights[row] if weights.size else weights,
                                binary, out_dtype)
        return out
    return bincount(values.reshape(-1), size, weights.reshape(-1), binary, out_dtype)


def bincount(flat, size, weights, binary, out_dtype):
    """One vector's counts of 0..size-1 (values past size dropped), weighted when `weights`
    is not empty, 1 for each value present when `binary`."""
    keep = flat < size
    if binary:
        out = np.zeros(size, out_dtype)
        out[flat[keep]] = 1
        return out
    if weights.size:
        out = np.zeros(size, out_dtype)
        np.add.at(out, flat[keep], weights[keep])
        return out
    return np.bincount(flat[keep], minlength=size)[:size].astype(out_dtype)
