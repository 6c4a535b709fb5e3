"""CPU kernels of the set operations behind tf.sets (set_kernels.cc): DenseToDenseSetOperation,
DenseToSparseSetOperation, SparseToSparseSetOperation and SetSize. A set is the values along
the last dimension of one group (the leading indices); results are SparseTensors of each
group's values in sorted order, shaped [group shape..., largest set]."""


import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str

_OPERATIONS = {
    "a-b": lambda a, b: a - b, "b-a": lambda a, b: b - a,
    "intersection": lambda a, b: a & b, "union": lambda a, b: a | b,
}


def _dense_groups(ctx, values):
    values = np.asarray(values)
    if values.ndim < 2:
        raise invalid(ctx, f"Invalid rank {values.ndim}.")
    groups = {}
    for index in np.ndindex(values.shape[:-1]):
        groups[index] = set(values[index].tolist())
    return list(values.shape[:-1]), groups


def _sparse_groups(ctx, indices, values, shape, validate):
    indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(shape)
    if shape.size < 2:
        raise invalid(ctx, f"Invalid rank {shape.size}.")
    groups = {}
    previous = None
    for row, value in zip(indices.tolist(), values.tolist()):
        if validate:
            if any(not 0 <= i < d for i, d in zip(row, shape.tolist())):
                raise invalid(ctx, f"Invalid indices {_index_text(row)}, out of bounds "
                                   f"{shape_str(shape.tolist())}.")
            if previous is not None and row <= previous:
                raise invalid(ctx, f"Indices {_index_text(row)} out of order: previous "
                                   f"{_index_text(previous)}.")
            previous = row
        groups.setdefault(tuple(row[:-1]), set()).add(value)
    return [int(d) for d in shape.tolist()[:-1]], groups


def _index_text(row):
    return "[" + ",".join(str(i) for i in row) + "]"


def _result(ctx, group_shape, groups_a, groups_b, operation, dtype):
    combine = _OPERATIONS.get(operation)
    if combine is None:
        raise invalid(ctx, f"Invalid set_operation {operation}.")
    keys = sorted(set(groups_a) | set(groups_b))
    rows, values, widest = [], [], 0
    for key in keys:
        result = sorted(combine(groups_a.get(key, set()), groups_b.get(key, set())))
        widest = max(widest, len(result))
        for j, value in enumerate(result):
            rows.append(list(key) + [j])
            values.append(value)
    indices = np.array(rows, np.int64).reshape(-1, len(group_shape) + 1)
    out = np.empty(len(values), dtype=object) if dtype == object else \
        np.array(values, dtype).reshape(-1)
    if dtype == object:
        out[:] = values
    return indices, out, np.array(group_shape + [widest], np.int64)


def _operation(ctx):
    operation = ctx.attrs["set_operation"]
    return operation.decode() if isinstance(operation, bytes) else operation


def _check_groups(ctx, shape_a, shape_b, what="Shape"):
    if len(shape_a) != len(shape_b):
        raise invalid(ctx, f"Mismatched rank, set1 {len(shape_a) + 1}, set2 "
                           f"{len(shape_b) + 1}.")


@register("DenseToDenseSetOperation")
def dense_to_dense(ctx, set1, set2):
    shape_a, groups_a = _dense_groups(ctx, set1)
    shape_b, groups_b = _dense_groups(ctx, set2)
    _check_groups(ctx, shape_a, shape_b)
    if shape_a != shape_b:
        raise invalid(ctx, f"Shapes {shape_str(np.shape(set1))} vs {shape_str(np.shape(set2))}"
                           " do not match in all but the last dimension.")
    return _result(ctx, shape_a, groups_a, groups_b, _operation(ctx), np.asarray(set1).dtype)


@register("DenseToSparseSetOperation")
def dense_to_sparse(ctx, set1, indices2, values2, shape2):
    shape_a, groups_a = _dense_groups(ctx, set1)
    shape_b, groups_b = _sparse_groups(ctx, indices2, values2, shape2,
                                       ctx.attrs.get("validate_indices", True))
    _check_groups(ctx, shape_a, shape_b)
    group_shape = [max(a, b) for a, b in zip(shape_a, shape_b)]
    return _result(ctx, group_shape, groups_a, groups_b, _operation(ctx),
                   np.asarray(set1).dtype)


@register("SparseToSparseSetOperation")
def sparse_to_sparse(ctx, indices1, values1, shape1, indices2, values2, shape2):
    validate = ctx.attrs.get("validate_indices", True)
    shape_a, groups_a = _sparse_groups(ctx, indices1, values1, shape1, validate)
    shape_b, groups_b = _sparse_groups(ctx, indices2, values2, shape2, validate)
    _check_groups(ctx, shape_a, shape_b)
    group_shape = [max(a, b) for a, b in zip(shape_a, shape_b)]
    return _result(ctx, group_shape, groups_a, groups_b, _operation(ctx),
                   np.asarray(values1).dtype)


@register("SetSize")
def set_size(ctx, indices, values, shape):
    group_shape, groups = _sparse_groups(ctx, indices, values, shape,
                                         ctx.attrs.get("validate_indices", True))
    out = np.zeros(group_shape, np.int32)
    for key, members in groups.items():
        out[key] = len(members)
    return out


