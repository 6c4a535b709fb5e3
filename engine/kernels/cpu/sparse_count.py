"""NumPy CPU kernels of DenseCountSparseOutput and SparseCountSparseOutput (tf.sparse.bincount):
each batch row's counts (or summed weights, or ones) of its non-negative values as a
SparseTensor, with TensorFlow's checks and sizes (count_ops.cc)."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu.sparse import _shape


def _output_size(max_seen, maxlength, minlength):
    return maxlength if maxlength > 0 else max(max_seen + 1, minlength)


def _count(ctx, batches, data, weights, num_batches, is_1d):
    """The sparse output of per-batch counts of `data` (batch ids in `batches`): each
    (batch, value) pair's count, summed weights (added in input order) or one, pairs sorted."""
    minlength, maxlength = ctx.attr("minlength", -1), ctx.attr("maxlength", -1)
    binary = ctx.attr("binary_output", False)
    out_dtype = weights.dtype
    data = data.astype(np.int64)
    if (data < 0).any():
        raise invalid(ctx, "Input values must all be non-negative")
    counted = data < maxlength if maxlength > 0 else np.ones(data.shape, np.bool_)
    max_value = int(data[counted].max()) if counted.any() else 0
    size = _output_size(max_value, maxlength, minlength)
    pairs = batches[counted].astype(np.int64) * (max_value + 1) + data[counted]
    keys, inverse = np.unique(pairs, return_inverse=True)
    if binary:
        values = np.ones(keys.size, out_dtype)
    else:
        values = np.zeros(keys.size, out_dtype)
        added = weights[counted] if weights.size else np.ones(inverse.size, out_dtype)
        np.add.at(values, inverse.reshape(-1), added)
    batch_of, value_of = np.divmod(keys, max_value + 1)
    indices = value_of[:, None] if is_1d else np.stack([batch_of, value_of], axis=1)
    shape = [size] if is_1d else [num_batches, size]
    return (indices.astype(np.int64).reshape(-1, 1 if is_1d else 2), values,
            np.array(shape, np.int64))


@register("DenseCountSparseOutput")
def dense_count_sparse_output(ctx, values, weights):
    data, weights = np.asarray(values), np.asarray(weights)
    if data.ndim not in (1, 2):
        raise invalid(ctx, f"Input must be a 1 or 2-dimensional tensor. Got: {_shape(data)}")
    if weights.size and weights.shape != data.shape:
        raise invalid(ctx, f"Weights and data must have the same shape. Weight shape: "
                           f"{_shape(weights)}; data shape: {_shape(data)}")
    is_1d = data.ndim == 1
    num_batches = 1 if is_1d else data.shape[0]
    width = data.size // num_batches if num_batches else 0
    batches = np.repeat(np.arange(num_batches), width)
    return _count(ctx, batches, data.reshape(-1), weights.reshape(-1), num_batches, is_1d)


@register("SparseCountSparseOutput")
def sparse_count_sparse_output(ctx, indices, values, dense_shape, weights):
    indices, data = np.asarray(indices), np.asarray(values)
    shape, weights = np.asarray(dense_shape), np.asarray(weights)
    if weights.size and weights.shape != data.shape:
        raise invalid(ctx, f"Weights and values must have the same shape. Weight shape: "
                           f"{_shape(weights)}; values shape: {_shape(data)}")
    if shape.size != indices.shape[1]:
        raise invalid(ctx, "Number of dimensions must match second dimension of indices.Got "
                           f"{shape.size} dimensions, indices shape: {_shape(indices)}")
    dims = shape.tolist()
    outside = (indices < 0) | (indices >= np.array(dims, np.int64))
    if outside.any():
        n, d = (int(x) for x in np.argwhere(outside)[0])  # the first in row-major order
        raise invalid(ctx, f"Invalid index value at {n}: dimension {d} has value "
                           f"{indices[n, d]} which is not in [0, {dims[d]}) (as given by dense "
                           f"shape Tensor<type: int64 shape: [{len(dims)}] values: "
                           f"{' '.join(map(str, dims))}>")
    is_1d = shape.size == 1
    num_batches = 1 if is_1d else dims[0]
    batches = np.zeros(data.size, np.int64) if is_1d else indices[:, 0]
    return _count(ctx, batches, data, weights, num_batches, is_1d)
