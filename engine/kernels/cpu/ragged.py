"""CPU kernels of the ragged ops (core/kernels/ragged_*.cc): RaggedTensorToTensor,
RaggedTensorToSparse, RaggedRange, RaggedGather, RaggedFillEmptyRows(Grad), RaggedCross."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid


def _splits_to_rowids(splits):
    splits = np.asarray(splits, np.int64)
    return np.repeat(np.arange(splits.size - 1), np.diff(splits))


def _nested_splits(ctx, partitions):
    """(nrows, [(rowids, splits)] per level) from the op's row partition tensors."""
    types = [t.decode() if isinstance(t, bytes) else t for t in ctx.attr("row_partition_types")]
    tensors = [np.asarray(t, np.int64) for t in partitions]
    levels = []
    if types[0] == "FIRST_DIM_SIZE":
        nrows = int(tensors[0])
        types, tensors = types[1:], tensors[1:]
    else:
        nrows = tensors[0].size - 1
    parent_count = nrows
    for kind, tensor in zip(types, tensors):
        if kind == "ROW_SPLITS":
            if tensor.size == 0 or tensor[0] != 0 or np.any(np.diff(tensor) < 0):
                raise invalid(ctx, "Invalid row split size.")
            levels.append(_splits_to_rowids(tensor))
            parent_count = int(tensor[-1])
        elif kind == "VALUE_ROWIDS":
            levels.append(tensor)
            parent_count = tensor.size
        else:
            raise invalid(ctx, f"Unsupported partition type: {kind}")
    return nrows, levels


def _bounding_dims(nrows, levels):
    dims = [nrows]
    for rowids in levels:
        dims.append(int(np.bincount(rowids).max()) if rowids.size else 0)
    return dims


@register("RaggedTensorToTensor")
def ragged_tensor_to_tensor(ctx, shape, values, default_value, *partitions):
    values = np.asarray(values)
    nrows, levels = _nested_splits(ctx, partitions)
    dims = _bounding_dims(nrows, levels)
    inner = list(values.shape[1:])
    shape = np.asarray(shape)
    if shape.ndim == 1:
        given = [int(d) for d in shape]
        full = dims + inner
        if len(given) != len(full):
            raise invalid(ctx, f"rt_input.shape and shape={given} are incompatible")
        dims = [f if g < 0 else g for g, f in zip(given[:len(dims)], dims)]
        for g, f in zip(given[len(dims):], inner):
            if g >= 0 and g != f:
                raise invalid(ctx, "Values' inner shape does not match the requested shape")
    positions = np.where(np.arange(nrows) < dims[0], np.arange(nrows), -1)
    for level, rowids in enumerate(levels):
        width = dims[level + 1]
        starts = np.searchsorted(rowids, rowids, side="left")
        columns = np.arange(rowids.size) - starts
        parent = positions[rowids] if rowids.size else np.zeros(0, np.int64)
        positions = np.where((parent >= 0) & (columns < width), parent * width + columns, -1)
    out = np.empty([int(np.prod(dims, dtype=np.int64))] + inner, values.dtype)
    out[...] = np.asarray(default_value, values.dtype)
    keep = positions >= 0
    out[positions[keep]] = values[:positions.size][keep]
    return out.reshape(dims + inner)


@register("RaggedTensorToSparse")
def ragged_tensor_to_sparse(ctx, *inputs):
    splits, values = [np.asarray(s, np.int64) for s in inputs[:-1]], np.asarray(inputs[-1])
    for level, s in enumerate(splits):
        if s.size == 0:
            raise invalid(ctx, "ragged splits may not be empty.")
        if s[0] != 0:
            raise invalid(ctx, "First value of ragged splits must be 0.")
        if np.any(np.diff(s) < 0):
            raise invalid(ctx, "Ragged splits should be non decreasing.")
        expected = splits[level + 1].size - 1 if level + 1 < len(splits) else values.shape[0]
        if s[-1] != expected:
            raise invalid(ctx, "Final value of ragged splits must match the length the "
                               "corresponding ragged values.")
    prefix = np.arange(splits[0].size - 1, dtype=np.int64)[:, None]
    for s in splits:
        rowids = _splits_to_rowids(s)
        columns = np.arange(rowids.size) - s[rowids]
        prefix = np.concatenate([prefix[rowids], columns[:, None]], axis=1)
    inner = values.shape[1:]
    inner_index = np.indices(inner).reshape(len(inner), -1).T if inner else np.zeros((1, 0))
    count = max(int(np.prod(inner, dtype=np.int64)), 0) if inner else 1
    indices = np.concatenate([np.repeat(prefix, count, axis=0),
                              np.tile(inner_index, (prefix.shape[0], 1))], axis=1)
    dense_shape = [splits[0].size - 1] + [
        int(np.diff(s).max()) if s.size > 1 else 0 for s in splits] + list(inner)
    return (indices.astype(np.int64), values.reshape(-1),
            np.array(dense_shape, np.int64))


@register("RaggedRange")
def ragged_range(ctx, starts, limits, deltas):
    starts, limits, deltas = (np.asarray(x) for x in (starts, limits, deltas))
    for name, x in (("starts", starts), ("limits", limits), ("deltas", deltas)):
        if x.ndim > 1:
            raise invalid(ctx, f"{name} must be a scalar or vector")
    sizes = [x.size for x in (starts, limits, deltas) if x.ndim == 1]
    if any(s != sizes[0] for s in sizes):
        raise invalid(ctx, "starts, limits, and deltas must have the same shape")
    nrows = sizes[0] if sizes else 1
    starts, limits, deltas = (np.broadcast_to(x.reshape(-1), (nrows,)) for x in
                              (starts, limits, deltas))
    dtype = starts.dtype
    splits_dtype = ctx.attrs["Tsplits"].as_numpy_dtype
    lengths = []
    for start, limit, delta in zip(starts.tolist(), limits.tolist(), deltas.tolist()):
        if delta == 0:
            raise invalid(ctx, "Requires delta != 0")
        if (delta > 0 and limit < start) or (delta < 0 and limit > start):
            lengths.append(0)
        elif np.issubdtype(dtype, np.integer):
            lengths.append((abs(limit - start) + abs(delta) - 1) // abs(delta))
        else:
            lengths.append(int(np.ceil(np.abs((dtype.type(limit) - dtype.type(start))
                                              / dtype.type(delta)))))
    splits = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(splits_dtype)
    out = [np.asarray(start, dtype) + np.arange(n).astype(dtype) * np.asarray(delta, dtype)
           for start, delta, n in zip(starts, deltas, lengths)]
    values = np.concatenate(out).astype(dtype) if out else np.zeros(0, dtype)
    return splits, values


@register("RaggedGather")
def ragged_gather(ctx, *inputs):
    splits = [np.asarray(s) for s in inputs[:-2]]
    values, indices = np.asarray(inputs[-2]), np.asarray(inputs[-1])
    splits_dtype = splits[0].dtype
    nrows = splits[0].size - 1
    flat = indices.reshape(-1).astype(np.int64)
    for i in flat.tolist():
        if not 0 <= i < nrows:
            raise invalid(ctx, f"indices[{list(flat).index(i)}] = {i} is not in [0, {nrows})")
    out_splits = []
    ranges = [(int(splits[0][i]), int(splits[0][i + 1])) for i in flat]
    level_splits = [0]
    for start, end in ranges:
        level_splits.append(level_splits[-1] + end - start)
    out_splits.append(np.array(level_splits, splits_dtype))
    for s in splits[1:]:
        next_ranges, level_splits = [], [0]
        for start, end in ranges:
            for row in range(start, end):
                level_splits.append(level_splits[-1] + int(s[row + 1] - s[row]))
            next_ranges.append((int(s[start]), int(s[end])))
        out_splits.append(np.array(level_splits, splits_dtype))
        ranges = next_ranges
    pieces = [values[start:end] for start, end in ranges]
    out_values = (np.concatenate(pieces) if pieces
                  else np.zeros((0,) + values.shape[1:], values.dtype))
    # the dimensions of a many-dimensional `indices` become uniform outer splits
    for size in reversed(indices.shape[1:]):
        count = out_splits[0].size - 1
        out_splits.insert(0, np.arange(0, count + 1, size, dtype=splits_dtype))
    return (*out_splits, out_values)


@register("RaggedFillEmptyRows")
def ragged_fill_empty_rows(ctx, value_rowids, values, nrows, default_value):
    rowids, values = np.asarray(value_rowids, np.int64), np.asarray(values)
    default = np.asarray(default_value)
    if default.ndim != 0:
        raise invalid(ctx, f"default_value must be a scalar, saw: {_shape(default)}")
    if rowids.ndim != 1:
        raise invalid(ctx, f"value_rowids must be a vector, saw: {_shape(rowids)}")
    if values.ndim != 1:
        raise invalid(ctx, f"values must be a vector, saw: {_shape(values)}")
    if rowids.shape[0] != values.shape[0]:
        raise invalid(ctx, f"The length of `values` ({values.shape[0]}) must match the first "
                           f"dimension of `value_rowids` ({rowids.shape[0]}).")
    n = int(np.asarray(nrows))
    for i, row in enumerate(rowids.tolist()):
        if row < 0:
            raise invalid(ctx, f"indices({i}, 0) is invalid: {row} < 0")
        if row >= n:
            raise invalid(ctx, f"indices({i}, 0) is invalid: {row} >= {n}")
    counts = np.bincount(rowids, minlength=n)[:n] if n else np.zeros(0, np.int64)
    empty = counts == 0
    out_rowids = np.sort(np.concatenate([rowids, np.flatnonzero(empty)]), kind="stable")
    out_values = np.empty(out_rowids.size, values.dtype)
    reverse = np.empty(rowids.size, np.int64)
    # each row's values in order; an empty row gets the default
    offsets = np.concatenate([[0], np.cumsum(np.maximum(counts, 1))])
    out_values[offsets[:-1][empty]] = default
    starts = np.concatenate([[0], np.cumsum(counts)])
    if rowids.size:
        within = np.arange(rowids.size) - starts[rowids]
        reverse[:] = offsets[rowids] + within
        out_values[reverse] = values
    return out_rowids.astype(np.int64), out_values, empty, reverse


@register("RaggedFillEmptyRowsGrad")
def ragged_fill_empty_rows_grad(ctx, reverse_index_map, grad_values):
    reverse, grad = np.asarray(reverse_index_map, np.int64), np.asarray(grad_values)
    if reverse.ndim != 1:
        raise invalid(ctx, f"reverse_index_map must be a vector, saw: {_shape(reverse)}")
    if grad.ndim != 1:
        raise invalid(ctx, f"grad_values must be a vector, saw: {_shape(grad)}")
    d_values = grad[reverse]
    used = np.zeros(grad.size, bool)
    used[reverse] = True
    d_default = grad[~used].sum(dtype=grad.dtype)
    return d_values, np.asarray(d_default, grad.dtype)


def _shape(array):
    return "[" + ",".join(str(d) for d in np.shape(array)) + "]"


@register("RaggedCross")
def ragged_cross(ctx, *inputs):
    """The crosses of each row's features, in `input_order` (R ragged, S sparse, D dense),
    hashed as SparseCross hashes them or joined with "_X_"."""
    from engine.kernels.cpu.sparse import fingerprint_cat64, _M64
    from engine.kernels.cpu.string_hash import fingerprint64
    order = ctx.attr("input_order")
    order = order.decode() if isinstance(order, bytes) else order
    n_ragged = len(ctx.attr("ragged_values_types") or [])
    n_sparse = int(ctx.attr("Nsparse"))
    n_dense = len(ctx.attr("dense_types") or [])
    pos = 0

    def take(count):
        nonlocal pos
        part = [np.asarray(x) for x in inputs[pos:pos + count]]
        pos += count
        return part
    ragged_values, ragged_splits = take(n_ragged), take(n_ragged)
    sparse_indices, sparse_values, sparse_shapes = take(n_sparse), take(n_sparse), take(n_sparse)
    dense = take(n_dense)
    hashed = bool(ctx.attr("hashed_output"))
    num_buckets, hash_key = ctx.attr("num_buckets", 0), ctx.attr("hash_key", 0) & _M64

    def feature(value):
        if isinstance(value, (bytes, str, np.bytes_, np.str_)):
            data = value if isinstance(value, bytes) else str(value).encode()
            return fingerprint64(data) if hashed else data
        return int(value) & _M64 if hashed else str(int(value)).encode()

    if ragged_splits:
        batch = ragged_splits[0].size - 1
    elif sparse_shapes:
        batch = int(sparse_shapes[0][0])
    else:
        batch = dense[0].shape[0]
    columns = []
    counters = {"R": 0, "S": 0, "D": 0}
    for kind in order:
        i = counters[kind]
        counters[kind] += 1
        if kind == "R":
            s, v = ragged_splits[i], list(ragged_values[i])
            columns.append([[feature(x) for x in v[s[r]:s[r + 1]]] for r in range(batch)])
        elif kind == "S":
            rows = [[] for _ in range(batch)]
            for (row, _), x in zip(sparse_indices[i].tolist(), list(sparse_values[i])):
                rows[row].append(feature(x))
            columns.append(rows)
        else:
            columns.append([[feature(x) for x in list(dense[i][r])] for r in range(batch)])
    out_values, splits = [], [0]
    for row in range(batch):
        crosses = [[]]
        for column in columns:
            crosses = [c + [f] for c in crosses for f in column[row]]
        for cross in crosses:
            if hashed:
                value = hash_key
                for f in cross:
                    value = fingerprint_cat64(value, f)
                out_values.append(value % num_buckets if num_buckets > 0
                                  else value % ((1 << 63) - 1))
            else:
                out_values.append(b"_X_".join(cross))
        splits.append(len(out_values))
    out_type = ctx.attrs["out_values_type"].as_numpy_dtype
    if hashed:
        values = np.array(out_values, np.uint64).astype(np.int64)
    else:
        values = np.empty(len(out_values), object)
        values[:] = out_values
    return values.astype(out_type) if hashed else values, \
        np.array(splits, ctx.attrs["out_row_splits_type"].as_numpy_dtype)
