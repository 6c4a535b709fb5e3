"""NumPy CPU kernels of tf.sparse's reductions and softmax: SparseReduceSum and
SparseReduceMax (dense and +Sparse outputs) and SparseSoftmax, the entries ordered and grouped
as TensorFlow's kernels reorder them, float32 sums and exps on Eigen's paths: TensorFlow's bits
(sparse_reduce_op.cc, sparse_softmax_op.cc)."""

import numpy as np

from engine.framework.errors import InternalError
from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu import eigen_reduce
from engine.kernels.cpu.sparse import _shape
from engine.kernels.cpu.sparse_math import _row_major, _rows_match

def _reduce(ctx, indices, values, shape, axes):
    """(output dims with keep_dims' ones, kept dims, group keys [groups, kept], group starts,
    the values in group order): the entries sorted as TensorFlow's kernel reorders them (by
    the kept dimensions, then the reduced ones) and grouped by their kept indices."""
    indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(shape)
    if indices.ndim != 2:
        raise invalid(ctx, f"Input indices should be a matrix but received shape "
                           f"{_shape(indices)}")
    _rows_match(ctx, indices, values)
    rank = shape.size
    reduced = set()
    for axis in np.asarray(axes).reshape(-1).tolist():
        if not -rank <= axis < rank:
            raise invalid(ctx, f"Invalid reduction dimension {axis}, for input with {rank} "
                               "dimensions.")
        reduced.add(axis % rank)
    kept = [d for d in range(rank) if d not in reduced]
    dims = shape.tolist()
    keep_dims_shape = [1 if d in reduced else dims[d] for d in range(rank)]
    indices = indices.astype(np.int64).reshape(-1, rank)
    reorder = kept + sorted(reduced)
    order = (np.lexsort(indices[:, reorder].T[::-1]) if indices.shape[0] and reorder
             else np.arange(indices.shape[0]))
    keys = indices[order][:, kept]
    if keys.shape[0]:
        starts = np.flatnonzero(np.r_[True, (keys[1:] != keys[:-1]).any(axis=1)])
    else:
        starts = np.zeros(0, np.int64)
    return keep_dims_shape, kept, keys[starts], starts, values[order]


def _group_sums(values, starts):
    """Each group's sum as Eigen's reducer adds a 1-D tensor: from 0 in order where a group
    is shorter than a packet, its packet order for longer float32 groups."""
    if not starts.size:
        return np.zeros(0, values.dtype)
    ends = np.r_[starts[1:], values.size]
    if values.dtype == np.float32 and (ends - starts).max() >= eigen_reduce.PACKET:
        return np.array([_sum(values[a:b]) for a, b in zip(starts, ends)], values.dtype)
    with np.errstate(all="ignore"):
        return (np.add.reduceat(values, starts) + np.zeros((), values.dtype)).astype(
            values.dtype)


def _group_maxima(values, starts):
    if not starts.size:
        return np.zeros(0, values.dtype)
    return np.maximum.reduceat(values, starts)


def _sum(group):
    """Eigen's sum of a 1-D tensor: its packet order for float32, else in order."""
    if group.dtype == np.float32 and group.size:
        return eigen_reduce.row_sums(np.ascontiguousarray(group).reshape(1, -1))[0]
    total = np.zeros((), group.dtype)
    for v in group:
        total = total + v
    return total


def _exp(shifted):
    """Eigen's exp of a 1-D float32 expression: packets of 8, glibc's expf on the tail."""
    if shifted.dtype != np.float32:
        return np.exp(shifted)
    packets = np.arange(shifted.size) < shifted.size // eigen_reduce.PACKET * eigen_reduce.PACKET
    return eigen_reduce._exp_on_paths(shifted, packets)


def _dense_reduction(reduce_groups):
    def kernel(ctx, input_indices, input_values, input_shape, reduction_axes):
        values = np.asarray(input_values)
        full_shape, kept, keys, starts, ordered = _reduce(ctx, input_indices, values,
                                                          input_shape, reduction_axes)
        kept_shape = [full_shape[d] for d in kept]
        out = np.zeros(kept_shape, values.dtype)
        strides = np.array([int(np.prod(kept_shape[i + 1:])) for i in range(len(kept))],
                           np.int64)
        flat = keys @ strides if len(kept) else np.zeros(keys.shape[0], np.int64)
        outside = (flat < 0) | (flat >= out.size)
        if outside.any():
            raise InternalError(getattr(ctx, "node_def", None), None,
                                f"Obtained a write index of {flat[outside.argmax()]} which is "
                                f"outside of bounds of [0, {out.size})")
        out.reshape(-1)[flat] = reduce_groups(ordered, starts)
        if ctx.attr("keep_dims", False):
            out = out.reshape(full_shape)
        return out
    return kernel


def _sparse_reduction(reduce_groups):
    def kernel(ctx, input_indices, input_values, input_shape, reduction_axes):
        values = np.asarray(input_values)
        full_shape, kept, keys, starts, ordered = _reduce(ctx, input_indices, values,
                                                          input_shape, reduction_axes)
        keep = ctx.attr("keep_dims", False)
        out_shape = full_shape if keep else [full_shape[d] for d in kept]
        if keep:
            rows = np.zeros((keys.shape[0], len(full_shape)), np.int64)
            rows[:, kept] = keys
        else:
            rows = keys
        return (rows.reshape(keys.shape[0], len(out_shape)),
                reduce_groups(ordered, starts).astype(values.dtype),
                np.array(out_shape, np.int64))
    return kernel


for _name, _operation in (("Sum", _group_sums), ("Max", _group_maxima)):
    register(f"SparseReduce{_name}")(_dense_reduction(_operation))
    register(f"SparseReduce{_name}Sparse")(_sparse_reduction(_operation))


@register("SparseSoftmax")
def sparse_softmax(ctx, sp_indices, sp_values, sp_shape):
    """The softmax of each innermost row's entries, written in row-major order of the
    entries (TensorFlow's kernel sorts a copy and writes its values in that order, whatever
    the input's order)."""
    indices, values, shape = (np.asarray(x) for x in (sp_indices, sp_values, sp_shape))
    if indices.ndim != 2:
        raise invalid(ctx, "Input sp_indices should be a matrix but received shape: "
                           f"{_shape(indices)}")
    if values.ndim != 1 or shape.ndim != 1:
        raise invalid(ctx, "Inputs sp_values and sp_shape should be vectors but received "
                           f"shapes: {_shape(values)} and {_shape(shape)}")
    if shape.size < 2:
        raise invalid(ctx, f"Input should have rank >= 2, but received shape: "
                           f"{' '.join(map(str, shape.tolist()))}")
    _rows_match(ctx, indices, values)
    order = _row_major(indices)
    sorted_indices, sorted_values = indices[order], values[order]
    out = np.empty_like(values)
    start = 0
    rows = sorted_indices[:, :-1].tolist()
    while start < len(rows):
        end = start + 1
        while end < len(rows) and rows[end] == rows[start]:
            end += 1
        group = sorted_values[start:end]
        e = _exp(group - group.max())
        out[start:end] = e * (np.ones((), values.dtype) / _sum(e))
        start = end
    return out
