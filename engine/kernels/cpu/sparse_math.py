"""NumPy CPU kernels of tf.sparse's arithmetic: SparseAdd (and SparseAddGrad),
SparseTensorDenseAdd, SparseDenseCwiseAdd/Mul/Div, SparseConcat, SparseSparseMaximum and
Minimum, SparseSplit and SparseMatMul, with TensorFlow's error texts and check order
(sparse_add_op.cc, sparse_concat_op.cc, sparse_split_op.cc, sparse_sparse_binary_op_shared.cc,
sparse_dense_binary_op_shared.cc, sparse_tensor_dense_add_op.cc); the reductions and softmax
are in sparse_reduce.py."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu.sparse import _shape


def _tensor_checks(ctx, indices, values, shape):
    """SparseTensor::Create's checks (indices a matrix, values a vector, ranks agreeing)."""
    if indices.ndim != 2:
        raise invalid(ctx, f"Sparse indices must be rank 2 but is rank {indices.ndim}")
    if values.ndim != 1:
        raise invalid(ctx, f"Sparse values must be rank 1 but is rank {values.ndim}")
    if indices.shape[0] != values.shape[0]:
        raise invalid(ctx, f"Number of elements in indices ({indices.shape[0]}) and values "
                           f"({values.shape[0]}) do not match")
    if indices.shape[1] != shape.size:
        raise invalid(ctx, f"Index rank ({indices.shape[1]}) and shape rank ({shape.size}) do "
                           "not match")


def _rows_match(ctx, indices, values):
    if indices.shape[0] != values.shape[0]:
        raise invalid(ctx, "indices and values rows (indexing dimension) must match. (indices "
                           f"= {indices.shape[0]}, values = {values.shape[0]})")


def _row_major(indices):
    """A stable row-major order of index rows (SparseTensor::Reorder's)."""
    if indices.shape[0] == 0 or indices.shape[1] == 0:
        return np.arange(indices.shape[0])
    return np.lexsort(indices.T[::-1])


def walk_steps(a_indices, b_indices):
    """The union merge TensorFlow's SparseAdd and the sparse-sparse binary ops walk: both
    inputs read in their order, the smaller index (lexicographically) taken first, equal
    indices together; (a's entry, b's entry) per step, -1 where a side is absent."""
    steps = []
    i = j = 0
    a_rows, b_rows = a_indices.tolist(), b_indices.tolist()
    while i < len(a_rows) and j < len(b_rows):
        if a_rows[i] < b_rows[j]:
            steps.append((i, -1))
            i += 1
        elif a_rows[i] > b_rows[j]:
            steps.append((-1, j))
            j += 1
        else:
            steps.append((i, j))
            i += 1
            j += 1
    steps.extend((k, -1) for k in range(i, len(a_rows)))
    steps.extend((-1, k) for k in range(j, len(b_rows)))
    return np.array(steps, np.int64).reshape(-1, 2)


def _row_keys(rows):
    """Integers ordered as the rows are lexicographically: the rows read as mixed-radix
    numbers where they fit in int64 (no negative index), else their ranks."""
    low, high = rows.min(axis=0), rows.max(axis=0)
    radix = (high + 1).astype(object)
    if (low >= 0).all() and np.prod(radix) < 2 ** 62:
        strides = np.ones(rows.shape[1], np.int64)
        for d in range(rows.shape[1] - 2, -1, -1):
            strides[d] = strides[d + 1] * int(radix[d + 1])
        return rows @ strides
    return np.unique(rows, axis=0, return_inverse=True)[1].reshape(-1)


def merge_steps(a_indices, b_indices):
    """walk_steps's [steps, 2] (a's entry, b's entry; -1 where absent): on whole arrays where both
    inputs are in strictly increasing order (the walk is then the sorted union), else by the
    walk itself (TensorFlow's order for unsorted input)."""
    na, nb = a_indices.shape[0], b_indices.shape[0]
    if na == 0 or nb == 0 or a_indices.shape[1] == 0:
        return walk_steps(a_indices, b_indices)
    keys = _row_keys(np.concatenate([a_indices, b_indices]).astype(np.int64))
    a_keys, b_keys = keys[:na], keys[na:]
    if (np.diff(a_keys) <= 0).any() or (np.diff(b_keys) <= 0).any():
        return walk_steps(a_indices, b_indices)
    union = np.concatenate([a_keys, b_keys])
    union.sort(kind="stable")  # two sorted runs: a merge
    union = union[np.r_[True, union[1:] != union[:-1]]]
    steps = np.full((union.size, 2), -1, np.int64)
    steps[np.searchsorted(union, a_keys), 0] = np.arange(na)
    steps[np.searchsorted(union, b_keys), 1] = np.arange(nb)
    return steps


def _merged_indices(a_indices, b_indices, steps):
    rank = a_indices.shape[1]
    from_a = steps[:, 0] >= 0
    rows = np.empty((steps.shape[0], rank), np.int64)
    rows[from_a] = a_indices[steps[from_a, 0]]
    rows[~from_a] = b_indices[steps[~from_a, 1]]
    return rows


def _merged_values(a_values, b_values, steps):
    """Each step's a and b values, zero where the side is absent."""
    i, j = steps[:, 0], steps[:, 1]
    zero = np.zeros((), a_values.dtype)
    a = np.where(i >= 0, a_values[np.maximum(i, 0)], zero) if a_values.size else \
        np.zeros(steps.shape[0], a_values.dtype)
    b = np.where(j >= 0, b_values[np.maximum(j, 0)], zero) if b_values.size else \
        np.zeros(steps.shape[0], a_values.dtype)
    return a.astype(a_values.dtype), b.astype(a_values.dtype)


@register("SparseAdd")
def sparse_add(ctx, a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    """The union of both inputs' entries, equal indices summed; a sum whose magnitude is below
    `thresh` is dropped (entries of one side alone are kept whatever their size)."""
    a_indices, b_indices = np.asarray(a_indices), np.asarray(b_indices)
    a_values, b_values = np.asarray(a_values), np.asarray(b_values)
    a_shape, b_shape, thresh = np.asarray(a_shape), np.asarray(b_shape), np.asarray(thresh)
    if a_indices.ndim != 2 or b_indices.ndim != 2:
        raise invalid(ctx, "Input indices should be matrices but received shapes: "
                           f"{_shape(a_indices)} and {_shape(b_indices)}")
    if a_values.ndim != 1 or b_values.ndim != 1:
        raise invalid(ctx, "Input values should be vectors but received shapes: "
                           f"{_shape(a_values)} and {_shape(b_values)}")
    if a_values.shape[0] != a_indices.shape[0] or b_values.shape[0] != b_indices.shape[0]:
        raise invalid(ctx, f"Expected {a_indices.shape[0]} and {b_indices.shape[0]} non-empty "
                           f"input values, got {a_values.shape[0]} and {b_values.shape[0]}")
    if a_shape.ndim != 1 or b_shape.ndim != 1:
        raise invalid(ctx, "Input shapes should be a vector but received shapes "
                           f"{_shape(a_shape)} and {_shape(b_shape)}")
    if a_shape.size != b_shape.size:
        raise invalid(ctx, "Operands do not have the same ranks; got shapes: "
                           f"{' '.join(map(str, a_shape.tolist()))} and "
                           f"{' '.join(map(str, b_shape.tolist()))}")
    for d, (x, y) in enumerate(zip(a_shape.tolist(), b_shape.tolist())):
        if x != y:
            raise invalid(ctx, f"Operands' shapes do not match: got {x} and {y} for "
                               f"dimension {d}")
    if thresh.ndim != 0:
        raise invalid(ctx, f"The magnitude threshold must be a scalar: got shape "
                           f"{_shape(thresh)}")
    steps = merge_steps(a_indices, b_indices)
    a, b = _merged_values(a_values, b_values, steps)
    summed = (steps[:, 0] >= 0) & (steps[:, 1] >= 0)
    values = np.where(summed, a + b, np.where(steps[:, 0] >= 0, a, b)).astype(a_values.dtype)
    kept = ~summed | (thresh <= np.abs(values))
    steps = steps[kept]
    return (_merged_indices(a_indices, b_indices, steps), values[kept],
            a_shape.astype(np.int64))


@register("SparseAddGrad")
def sparse_add_grad(ctx, backprop_val_grad, a_indices, b_indices, sum_indices):
    """Each sum entry's gradient back to the a and b entries it came from (zero where an
    entry was dropped by the threshold)."""
    grad = np.asarray(backprop_val_grad)
    a_indices, b_indices = np.asarray(a_indices), np.asarray(b_indices)
    sum_indices = np.asarray(sum_indices)
    if a_indices.ndim != 2 or b_indices.ndim != 2 or sum_indices.ndim != 2:
        raise invalid(ctx, "Input indices should be matrices but received shapes: "
                           f"{_shape(a_indices)} and {_shape(b_indices)} and "
                           f"{_shape(sum_indices)}")
    if grad.ndim != 1:
        raise invalid(ctx, "Input backprop_val_grad should be a vector but received shape: "
                           f"{_shape(grad)}")
    if not (a_indices.shape[1] == b_indices.shape[1] == sum_indices.shape[1]):
        raise invalid(ctx, "The densified operands should have the same ndims; for A, B, sum "
                           f"got: {a_indices.shape[1]}, {b_indices.shape[1]}, "
                           f"{sum_indices.shape[1]}")
    if grad.shape[0] != sum_indices.shape[0]:
        raise invalid(ctx, "# elements of backprop_val_grad and # rows of sum_indices should "
                           f"match (#nnz of sum): got {grad.shape[0]} and "
                           f"{sum_indices.shape[0]}")
    a_grad = np.zeros(a_indices.shape[0], grad.dtype)
    b_grad = np.zeros(b_indices.shape[0], grad.dtype)
    steps = merge_steps(a_indices, b_indices)
    merged = _merged_indices(a_indices, b_indices, steps)
    found = _positions(merged, sum_indices.astype(np.int64))
    for side, out in ((0, a_grad), (1, b_grad)):
        picked = (found >= 0) & (steps[:, side] >= 0)
        out[steps[picked, side]] = grad[found[picked]]
    return a_grad, b_grad


def _positions(rows, table):
    """For each of `rows`, the position of an equal row of `table` (the last of repeats), or
    -1."""
    if not rows.shape[0] or not table.shape[0]:
        return np.full(rows.shape[0], -1, np.int64)
    keys = _row_keys(np.concatenate([rows, table]))
    row_keys, table_keys = keys[:rows.shape[0]], keys[rows.shape[0]:]
    order = np.argsort(table_keys, kind="stable")
    sorted_keys = table_keys[order]
    at = np.searchsorted(sorted_keys, row_keys, side="right") - 1
    hit = (at >= 0) & (sorted_keys[np.maximum(at, 0)] == row_keys)
    return np.where(hit, order[np.maximum(at, 0)], -1)


@register("SparseTensorDenseAdd")
def sparse_tensor_dense_add(ctx, a_indices, a_values, a_shape, b):
    """The dense `b` with the sparse entries added at their indices (repeats add twice)."""
    a_indices, a_values = np.asarray(a_indices), np.asarray(a_values)
    a_shape, b = np.asarray(a_shape), np.asarray(b)
    if a_indices.ndim != 2:
        raise invalid(ctx, "Input a_indices should be a matrix but received shape: "
                           f"{_shape(a_indices)}")
    if a_values.ndim != 1 or a_shape.ndim != 1:
        raise invalid(ctx, "Inputs a_values and a_shape should be vectors but received "
                           f"shapes: {_shape(a_values)} and {_shape(a_shape)}")
    if a_values.shape[0] != a_indices.shape[0]:
        raise invalid(ctx, f"Dimensions {a_values.shape[0]} and {a_indices.shape[0]} are not "
                           "compatible")
    if a_shape.size != b.ndim:
        raise invalid(ctx, "Two operands have different ranks; received: "
                           f"{a_shape.size} and {b.ndim}")
    for d, (x, y) in enumerate(zip(a_shape.tolist(), b.shape)):
        if x != y:
            raise invalid(ctx, f"Dimension {d} does not equal (no broadcasting is supported): "
                               f"sparse side {x} vs dense side {y}")
    out = b.copy()
    if a_indices.shape[0] == 0:
        return out
    outside = (a_indices < 0) | (a_indices >= np.array(b.shape, np.int64))
    if outside.any():
        n, d = (int(x) for x in np.argwhere(outside)[0])  # the first in row-major order
        raise invalid(ctx, f"Sparse tensor has an invalid index on dimension {d}: "
                           f"a_indices({n},{d}) = {a_indices[n, d]}, dense tensor shape: "
                           f"{' '.join(map(str, b.shape))}")
    np.add.at(out, tuple(a_indices.T), a_values)
    return out


def _cwise(operation):
    def kernel(ctx, sp_indices, sp_values, sp_shape, dense):
        indices, values = np.asarray(sp_indices), np.asarray(sp_values)
        shape, dense = np.asarray(sp_shape), np.asarray(dense)
        if indices.ndim != 2:
            raise invalid(ctx, "Input sp_indices should be a matrix but received shape: "
                               f"{_shape(indices)}")
        if values.ndim != 1 or shape.ndim != 1:
            raise invalid(ctx, "Inputs sp_values and sp_shape should be vectors but received "
                               f"shapes: {_shape(values)} and {_shape(shape)}")
        dims = shape.tolist()
        ok = dense.ndim <= len(dims) and all(
            d in (1, s) for d, s in zip(dense.shape[::-1], dims[::-1]))
        if not ok:
            raise invalid(ctx, "SparseDenseBinaryOpShared broadcasts dense to sparse only; "
                               f"got incompatible shapes: [{','.join(map(str, dims))}] vs. "
                               f"{_shape(dense)}")
        full = np.broadcast_to(dense, dims)
        picked = full[tuple(indices.T)] if indices.shape[0] else np.zeros(0, dense.dtype)
        return operation(values, picked).astype(values.dtype)
    return kernel


for _name, _operation in (("Add", np.add), ("Mul", np.multiply), ("Div", np.divide)):
    register(f"SparseDenseCwise{_name}")(_cwise(_operation))


@register("SparseConcat")
def sparse_concat(ctx, *inputs):
    """The inputs side by side along concat_dim, the output in row-major order."""
    n = len(inputs) // 3
    indices = [np.asarray(x) for x in inputs[:n]]
    values = [np.asarray(x) for x in inputs[n:2 * n]]
    shapes = [np.asarray(x) for x in inputs[2 * n:]]
    for k, x in enumerate(indices):
        if x.ndim != 2:
            raise invalid(ctx, "Input indices should be a matrix but received shape "
                               f"{_shape(x)} at position {k}")
    for k, x in enumerate(values):
        if x.ndim != 1:
            raise invalid(ctx, "Input values should be a vector but received shape "
                               f"{_shape(x)} at position {k}")
    for k, x in enumerate(shapes):
        if x.ndim != 1:
            raise invalid(ctx, "Input shapes should be a vector but received shape "
                               f"{_shape(x)} at position {k}")
    rank = shapes[0].size
    concat_dim = ctx.attr("concat_dim")
    if not -rank <= concat_dim < rank:
        raise invalid(ctx, f"Concat dimension must be in range [{-rank}, {rank}), got "
                           f"{concat_dim}")
    concat_dim %= rank
    first = shapes[0].tolist()
    for k, shape in enumerate(shapes[1:], 1):
        if shape.size != rank:
            raise invalid(ctx, f"Ranks of all input tensors must match: expected {rank} but "
                               f"got {shape.size} at position {k}")
        for d, (x, y) in enumerate(zip(first, shape.tolist())):
            if d != concat_dim and x != y:
                raise invalid(ctx, f"Input shapes must match: expected {x} for dimension {d} "
                                   f"but got {y} at position {k}")
    for x, v in zip(indices, values):
        _rows_match(ctx, x, v)
    out_shape = list(first)
    out_shape[concat_dim] = sum(int(s[concat_dim]) for s in shapes)
    pieces, offset = [], 0
    for x, s in zip(indices, shapes):
        moved = x.astype(np.int64).copy()
        moved[:, concat_dim] += offset
        pieces.append(moved)
        offset += int(s[concat_dim])
    all_indices = np.concatenate(pieces).reshape(-1, rank)
    all_values = np.concatenate(values)
    order = _row_major(all_indices)
    return all_indices[order], all_values[order], np.array(out_shape, np.int64)


def _sparse_sparse(pick):
    def kernel(ctx, a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        a_indices, a_values = np.asarray(a_indices), np.asarray(a_values)
        b_indices, b_values = np.asarray(b_indices), np.asarray(b_values)
        a_shape, b_shape = np.asarray(a_shape), np.asarray(b_shape)
        _tensor_checks(ctx, a_indices, a_values, a_shape)
        _tensor_checks(ctx, b_indices, b_values, b_shape)
        for d, (x, y) in enumerate(zip(a_shape.tolist(), b_shape.tolist())):
            if x != y:
                raise invalid(ctx, f"Operands' shapes do not match: got {x} and {y} for "
                                   f"dimension {d}")
        steps = merge_steps(a_indices, b_indices)
        a, b = _merged_values(a_values, b_values, steps)
        return (_merged_indices(a_indices, b_indices, steps),
                pick(a, b).astype(a_values.dtype))
    return kernel


register("SparseSparseMaximum")(_sparse_sparse(np.maximum))
register("SparseSparseMinimum")(_sparse_sparse(np.minimum))


@register("SparseSplit")
def sparse_split(ctx, split_dim, indices, values, shape):
    """num_split pieces along split_dim, the first (size % num_split) one longer; each keeps
    its entries in the input's order, moved to start at 0."""
    split_dim, indices = np.asarray(split_dim), np.asarray(indices)
    values, shape = np.asarray(values), np.asarray(shape)
    if split_dim.ndim != 0:
        raise invalid(ctx, f"Input axis should be a scalar but received shape "
                           f"{_shape(split_dim)}")
    if indices.ndim != 2:
        raise invalid(ctx, f"Input indices should be a matrix but received shape "
                           f"{_shape(indices)}")
    if values.ndim != 1:
        raise invalid(ctx, f"Input values should be a vector but received shape "
                           f"{_shape(values)}")
    if shape.ndim != 1:
        raise invalid(ctx, f"Input shape should be a vector but received shape "
                           f"{_shape(shape)}")
    rank = shape.size
    axis = int(split_dim)
    if not -rank <= axis < rank:
        raise invalid(ctx, f"Input axis should be in range [{-rank}, {rank}), got {axis}")
    axis %= rank
    num = ctx.attr("num_split")
    size = int(shape[axis])
    if not 1 <= num <= size:
        raise invalid(ctx, "Input num_split should be between 1 and the splitting dimension "
                           f"size ({size}), got {num}")
    _tensor_checks(ctx, indices, values, shape)
    base, extra = divmod(size, num)
    bounds = [0]
    for k in range(num):
        bounds.append(bounds[-1] + base + (1 if k < extra else 0))
    out_indices, out_values, out_shapes = [], [], []
    column = indices[:, axis]
    for k in range(num):
        inside = (column >= bounds[k]) & (column < bounds[k + 1])
        moved = indices[inside].astype(np.int64)
        moved[:, axis] -= bounds[k]
        piece_shape = shape.astype(np.int64).copy()
        piece_shape[axis] = bounds[k + 1] - bounds[k]
        out_indices.append(moved.reshape(-1, rank))
        out_values.append(values[inside])
        out_shapes.append(piece_shape)
    return (*out_indices, *out_values, *out_shapes)


@register("SparseMatMul")
def sparse_mat_mul(ctx, a, b):
    """a @ b in float32 (the a_is_sparse / b_is_sparse hints change TensorFlow's algorithm,
    not the product)."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    if ctx.attr("transpose_a", False):
        a = a.T
    if ctx.attr("transpose_b", False):
        b = b.T
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise invalid(ctx, f"Matrix size incompatible: a: {_shape(a)}, b: {_shape(b)}")
    return np.matmul(a, b)
