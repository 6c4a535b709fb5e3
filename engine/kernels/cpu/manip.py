"""CPU kernels of Roll, Bitcast, LowerBound, UpperBound, HistogramFixedWidth,
UniqueWithCounts and SparseTensorDenseMatMul, as TensorFlow's kernels compute them (errors in
TensorFlow's words, checked against TensorFlow 2.21: tests/fixtures/mathops/)."""

import numpy as np

from engine.framework import dtypes
from engine.kernels import register
from engine.kernels.common import invalid, shape_str


@register("Roll")
def roll(ctx, x, shift, axis):
    x, shift, axis = np.asarray(x), np.asarray(shift), np.asarray(axis)
    if x.ndim < 1:
        raise invalid(ctx, "input must be 1-D or higher")
    if shift.ndim > 1:
        raise invalid(ctx, "shift must be a scalar or a 1-D vector. Found: "
                           f"{shape_str(shift.shape)}")
    if axis.ndim > 1:
        raise invalid(ctx, "axis must be a scalar or a 1-D vector. Found: "
                           f"{shape_str(axis.shape)}")
    if shift.shape != axis.shape:
        raise invalid(ctx, "shift and axis must have the same size")
    totals = [0] * x.ndim
    for s, a in zip(shift.reshape(-1).tolist(), axis.reshape(-1).tolist()):
        dim = a + x.ndim if a < 0 else a
        if not 0 <= dim < x.ndim:
            raise invalid(ctx, f"axis {a} is out of range")
        totals[dim] += s
    axes = [d for d in range(x.ndim) if x.shape[d] and totals[d] % x.shape[d]]
    if not axes:
        return x.copy()
    return np.roll(x, [totals[d] for d in axes], axes)


@register("Bitcast")
def bitcast(ctx, x):
    x = np.ascontiguousarray(x)
    out = ctx.attrs["type"].as_numpy_dtype
    in_size, out_size = x.dtype.itemsize, np.dtype(out).itemsize
    if in_size < out_size:
        ratio = out_size // in_size
        if x.ndim == 0 or x.shape[-1] != ratio:
            raise invalid(ctx, f"Cannot bitcast from {_type_enum(x.dtype)} to "
                               f"{_type_enum(out)}")
        return x.view(out).reshape(x.shape[:-1])
    if in_size > out_size:
        return x.reshape(x.shape + (1,)).view(out).reshape(
            x.shape + (in_size // out_size,))
    return x.view(out).reshape(x.shape)


def _type_enum(dtype):
    return dtypes.as_dtype(np.dtype(dtype)).as_datatype_enum


def _bound(side):
    def kernel(ctx, sorted_inputs, values):
        sorted_inputs, values = np.asarray(sorted_inputs), np.asarray(values)
        if sorted_inputs.shape[0] != values.shape[0]:
            raise invalid(ctx, "Leading dim_size of both tensors must match.")
        out_type = ctx.attrs["out_type"].as_numpy_dtype
        if values.size >= np.iinfo(np.int32).max:
            raise invalid(ctx, "values tensor size must less than INT_MAX")
        out = np.empty(values.shape, out_type)
        for row in range(values.shape[0]):
            out[row] = np.searchsorted(sorted_inputs[row], values[row], side=side)
        return out
    kernel.__name__ = f"{side}_bound"
    return kernel


@register("Bucketize")
def bucketize(ctx, value):
    """Each value's bucket: how many boundaries are <= it (std::upper_bound over the float
    boundaries; an integer input compared as float, a double against the boundaries widened,
    NaN past the last)."""
    value = np.asarray(value)
    boundaries = np.asarray(list(ctx.attrs.get("boundaries") or []), np.float32)
    if np.any(boundaries[1:] < boundaries[:-1]):
        raise invalid(ctx, "Expected sorted boundaries")
    compared = value.astype(np.float64 if value.dtype == np.float64 else np.float32)
    return np.searchsorted(boundaries.astype(compared.dtype), compared,
                           side="right").astype(np.int32)


register("LowerBound")(_bound("left"))
register("UpperBound")(_bound("right"))


@register("UnravelIndex")
def unravel_index(ctx, indices, dims):
    """Flat indices as coordinates in an array of shape `dims`: [len(dims)] for a scalar,
    [len(dims), n] for n indices; C++'s truncating / and % (a negative index is not refused,
    as TensorFlow's kernel lets it through)."""
    indices, dims = np.asarray(indices), np.asarray(dims)
    if indices.ndim > 1:
        raise invalid(ctx, f'The indices can only be scalar or vector, got '
                           f'"{shape_str(indices.shape).replace(", ", ",")}"')
    if dims.ndim != 1:
        raise invalid(ctx, f'The indices can only be 1-D, got '
                           f'"{shape_str(dims.shape).replace(", ", ",")}"')
    zero = np.flatnonzero(dims == 0)
    if zero.size:
        raise invalid(ctx, f"Input dims cannot contain a dim of zero, but dims contains zero "
                           f"at index {zero[0]}")
    if (indices >= np.prod(dims, dtype=np.int64)).any():
        raise invalid(ctx, "index is out of bound as with dims")
    strides = np.concatenate([np.cumprod(dims[::-1])[::-1][1:], [1]]).astype(np.int64)
    flat = indices.astype(np.int64).reshape(-1)
    quotient = np.fix(flat[None, :] / strides[:, None]).astype(np.int64)
    out = np.fmod(quotient, dims.astype(np.int64)[:, None]).astype(indices.dtype)
    return out[:, 0] if indices.ndim == 0 else out


@register("HistogramFixedWidth")
def histogram_fixed_width(ctx, values, value_range, nbins):
    values, value_range = np.asarray(values), np.asarray(value_range)
    nbins = int(np.asarray(nbins).reshape(()))
    if value_range.shape != (2,):
        raise invalid(ctx, "value_range should be a vector of 2 elements, but got shape "
                           f"{shape_str(value_range.shape)}")
    if nbins <= 0:
        raise invalid(ctx, f"nbins should be a positive number, but got '{nbins}'")
    lo, hi = value_range.tolist()
    if not lo < hi:
        raise invalid(ctx, f"value_range should satisfy value_range[0] < value_range[1], "
                           f"but got '[{_number(lo)}, {_number(hi)}]'")
    # TensorFlow's functor: ((max(values, lo) - lo) as double / step), at most nbins - 1,
    # truncated to int32
    step = float(np.float64(hi - lo)) / float(nbins) if values.dtype.kind != "f" else \
        float(np.float64(value_range[1] - value_range[0])) / float(nbins)
    shifted = (np.maximum(values, value_range[0]) - value_range[0]).astype(np.float64)
    with np.errstate(all="ignore"):
        index = np.minimum(shifted / step, float(nbins - 1)).astype(np.int32)
    counts = np.bincount(index.reshape(-1), minlength=nbins)
    return counts.astype(ctx.attrs["dtype"].as_numpy_dtype)


def _number(value):
    return f"{value:g}" if isinstance(value, float) else str(value)


@register("UniqueWithCounts")
def unique_with_counts(ctx, x):
    x = np.asarray(x)
    if x.ndim != 1:
        raise invalid(ctx, "unique expects a 1D vector.")
    idx_type = ctx.attrs["out_idx"].as_numpy_dtype
    seen = {}
    idx = np.empty(x.shape, idx_type)
    keys = x.tolist()
    for i, key in enumerate(keys):
        idx[i] = seen.setdefault(key, len(seen))
    order = list(seen)
    counts = np.bincount(idx.astype(np.int64), minlength=len(order)).astype(idx_type)
    firsts = {}
    for i, key in enumerate(keys):
        firsts.setdefault(key, i)
    y = x[np.array([firsts[k] for k in order], np.int64)] if order else x[:0]
    return y, idx, counts


@register("SparseTensorDenseMatMul")
def sparse_tensor_dense_matmul(ctx, a_indices, a_values, a_shape, b):
    a_indices, a_values, b = np.asarray(a_indices), np.asarray(a_values), np.asarray(b)
    a_shape = np.asarray(a_shape)
    adjoint_a, adjoint_b = ctx.attrs.get("adjoint_a", False), ctx.attrs.get("adjoint_b", False)
    if a_shape.shape != (2,):
        raise invalid(ctx, "Tensor 'a_shape' is not a vector")
    if b.ndim != 2:
        raise invalid(ctx, "Tensor 'b' is not a matrix")
    if a_indices.ndim != 2 or (a_indices.size and a_indices.shape[1] != 2):
        raise invalid(ctx, "Tensor 'a_indices' is not a matrix")
    if a_values.ndim != 1:
        raise invalid(ctx, "Tensor 'a_values' is not a vector")
    if a_indices.shape[0] != a_values.shape[0]:
        raise invalid(ctx, f"Number of rows of a_indices does not match number of entries in "
                           f"a_values")
    if adjoint_b:
        b = np.conj(b.T)
    outer_left = int(a_shape[1] if adjoint_a else a_shape[0])
    inner_left = int(a_shape[0] if adjoint_a else a_shape[1])
    if inner_left != b.shape[0]:
        raise invalid(ctx, "Cannot multiply A and B because inner dimension does not match: "
                           f"{inner_left} vs. {b.shape[0]}.  Did you forget a transpose?  "
                           f"Dimensions of A: [{int(a_shape[0])}, {int(a_shape[1])}).  "
                           f"Dimensions of B: {shape_str(np.asarray(b).T.shape if adjoint_b else b.shape)}")
    out = np.zeros((outer_left, b.shape[1]), np.result_type(a_values, b))
    rows = a_indices[:, 1 if adjoint_a else 0].astype(np.int64)
    cols = a_indices[:, 0 if adjoint_a else 1].astype(np.int64)
    values = np.conj(a_values) if adjoint_a else a_values
    for name, column, found, limit in (("m", 1 if adjoint_a else 0, rows, outer_left),
                                       ("k", 0 if adjoint_a else 1, cols, inner_left)):
        wrong = np.flatnonzero((found < 0) | (found >= limit))
        if wrong.size:
            i = int(wrong[0])
            raise invalid(ctx, f"{name} ({found[i]}) from index[{i},{column}] out of bounds "
                               f"(>={limit})")
    # TensorFlow adds each entry's row of products in the order of the entries
    for i in range(values.shape[0]):
        out[rows[i]] += values[i] * b[cols[i]]
    return out
