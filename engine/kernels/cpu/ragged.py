"""CPU kernels of RaggedTensorToTensor (ragged_tensor_to_tensor_op.cc), what
RaggedTensor.to_tensor runs: TF2 models whose strings are split (tf.strings.split of a
vector, Keras TextVectorization) pad their ragged rows with it. The partitions are
ROW_SPLITS at every level, or FIRST_DIM_SIZE then VALUE_ROWIDS; `shape` is a scalar -1
(unknown) or one size a dimension, -1 where the rows decide it; rows longer than the shape
are cut, shorter ones padded with default_value. RaggedBincount (bincount_op.cc) counts each
ragged row, as Keras 3's TextVectorization counts the n-grams of each text. RaggedRange
(tf.ragged.range), RaggedGather (tf.gather of a RaggedTensor) and RaggedTensorToSparse
(RaggedTensor.to_sparse) take and give a RaggedTensor as its nested row splits and flat values;
RaggedFillEmptyRows gives an empty row the default value, its gradient routes grad_values back."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu.segment import bincount


def _splits_to_rowids(splits):
    splits = np.asarray(splits, np.int64)
    return np.repeat(np.arange(splits.size - 1), np.diff(splits))


def _as_text(kind):
    return kind.decode() if isinstance(kind, bytes) else str(kind)


def _row_splits(ctx, kinds, partitions, nvals):
    """Each ragged level's row splits, top level first."""
    if kinds[0] == "ROW_SPLITS":
        splits = [np.asarray(p, np.int64).reshape(-1) for p in partitions]
    elif kinds[0] == "FIRST_DIM_SIZE" and all(k == "VALUE_ROWIDS" for k in kinds[1:]):
        nrows = int(np.asarray(partitions[0]))
        splits = []
        for rowids in partitions[1:]:
            rowids = np.asarray(rowids, np.int64).reshape(-1)
            if rowids.size and rowids.max() >= nrows:
                raise invalid(ctx, f"Got next_value_rowid={rowids.max()} which is not less "
                                   f"than {nrows}")
            if rowids.size and (rowids.min() < 0 or np.any(np.diff(rowids) < 0)):
                raise invalid(ctx, "value_rowids must be sorted and non-negative")
            splits.append(np.concatenate([[0], np.cumsum(np.bincount(rowids, minlength=nrows))]))
            nrows = rowids.size
    else:
        raise invalid(ctx, f"Invalid row_partition_types: {kinds}")
    for level, split in enumerate(splits):
        if split.size == 0 or split[0] != 0:
            raise invalid(ctx, "First value of ragged splits must be 0.")
        if np.any(np.diff(split) < 0):
            raise invalid(ctx, "Ragged splits must be non-decreasing.")
        size = splits[level + 1].size - 1 if level + 1 < len(splits) else nvals
        if split[-1] != size:
            raise invalid(ctx, "Final value of ragged splits must match the length the "
                               "corresponding ragged values.")
    return splits


def _coordinates(splits, nvals):
    """[row, position at each ragged level...] of each flat value, top level first."""
    index = np.arange(nvals)
    coords = []
    for split in reversed(splits):  # each value's place in its row, its row one level up
        parent = np.repeat(np.arange(split.size - 1), np.diff(split))[index]
        coords.append(index - split[parent])
        index = parent
    coords.append(index)
    coords.reverse()
    return coords


@register("RaggedTensorToTensor")
def ragged_tensor_to_tensor(ctx, shape, values, default_value, *partitions):
    kinds = [_as_text(k) for k in ctx.attr("row_partition_types")]
    values = np.asarray(values)
    splits = _row_splits(ctx, kinds, partitions, values.shape[0])
    ragged_rank = len(splits)
    natural = [splits[0].size - 1]
    natural += [int(np.diff(s).max()) if s.size > 1 else 0 for s in splits]
    natural += list(values.shape[1:])
    shape = np.asarray(shape)
    shape = np.full(len(natural), -1) if shape.ndim == 0 else shape.reshape(-1)
    if shape.size != len(natural):
        raise invalid(ctx, f"rt_input.shape and shape=[{','.join(map(str, shape.tolist()))}] "
                           "are incompatible: "
                           f"rt_input.rank = {len(natural)} but shape.rank = {shape.size}")
    out_shape = [n if s < 0 else int(s) for n, s in zip(natural, shape.tolist())]
    inner = tuple(out_shape[ragged_rank + 1:])
    if inner != values.shape[1:]:
        raise invalid(ctx, f"shape {out_shape} does not fit the values' inner dimensions "
                           f"{list(values.shape[1:])}")
    result = np.empty(out_shape, values.dtype)
    result[...] = np.broadcast_to(np.asarray(default_value, values.dtype),
                                  inner) if np.ndim(default_value) else default_value
    coords = _coordinates(splits, values.shape[0])
    keep = np.ones(values.shape[0], bool)
    for coord, size in zip(coords, out_shape):
        keep &= coord < size
    result[tuple(c[keep] for c in coords)] = values[keep]
    return result


@register("RaggedBincount")
def ragged_bincount(ctx, splits, values, size, weights):
    splits, values, weights = (np.asarray(a) for a in (splits, values, weights))
    size = int(size)
    if size < 0:
        raise invalid(ctx, f"size ({size}) must be non-negative")
    if values.size and values.min() < 0:
        raise invalid(ctx, "Input arr must be non-negative!")
    if splits.size == 0 or splits[0] != 0:
        raise invalid(ctx, "Splits must start with 0, not with "
                           f"{splits[0] if splits.size else 'nothing'}")
    if splits[-1] != values.size:
        raise invalid(ctx, f"Splits must end with the number of values, got {splits[-1]} "
                           f"instead of {values.size}")
    out_dtype = weights.dtype if weights.size else np.dtype(ctx.output_dtypes[0].as_numpy_dtype)
    binary = ctx.attr("binary_output", False)
    out = np.zeros((splits.size - 1, size), out_dtype)
    for row, (start, end) in enumerate(zip(splits[:-1], splits[1:])):
        out[row] = bincount(values[start:end], size,
                            weights[start:end] if weights.size else weights, binary, out_dtype)
    return out


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
    nested = [np.asarray(s) for s in inputs[:-2]]
    values, indices = np.asarray(inputs[-2]), np.asarray(inputs[-1])
    nrows = nested[0].size - 1
    flat = indices.reshape(-1).astype(np.int64)
    for i, index in enumerate(flat.tolist()):
        if not 0 <= index < nrows:
            raise invalid(ctx, f"indices[{i}] = {index} is not in [0, {nrows})")
    splits_dtype = nested[0].dtype
    # indices of rank k > 1 add k - 1 uniform levels above the gathered rows
    leading, rows = [], 1
    for level, dim in enumerate(indices.shape[:-1]):
        rows *= dim
        leading.append(np.arange(rows + 1, dtype=np.int64) * indices.shape[level + 1])
    elements = flat
    gathered = []
    for split in nested:
        lengths = split[elements + 1] - split[elements]
        gathered.append(np.concatenate([[0], np.cumsum(lengths)]))
        starts = split[elements]
        elements = (np.concatenate([np.arange(a, a + n) for a, n in zip(starts, lengths)])
                    if elements.size else np.zeros(0, np.int64)).astype(np.int64)
    if indices.ndim == 0:  # one row: its levels, less the top one
        gathered = gathered[1:]
    splits = [s.astype(splits_dtype) for s in leading + gathered]
    return (*splits, values[elements])


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


@register("RaggedCross")
def ragged_cross(ctx, *inputs):
    """tf.ragged.cross and cross_hashed: each row's crosses of its ragged, sparse and dense
    features, the inputs taken in input_order ("R", "S", "D" each), as SparseCross crosses."""
    from engine.kernels.cpu.sparse import _M64, cross_feature, cross_rows, cross_values
    n_ragged = len(ctx.attr("ragged_values_types") or ())
    n_sparse = int(ctx.attr("Nsparse", 0))
    ragged_values, ragged_splits = inputs[:n_ragged], inputs[n_ragged:2 * n_ragged]
    at = 2 * n_ragged
    sparse_indices = inputs[at:at + n_sparse]
    sparse_values = inputs[at + n_sparse:at + 2 * n_sparse]
    sparse_shapes = inputs[at + 2 * n_sparse:at + 3 * n_sparse]
    dense = inputs[at + 3 * n_sparse:]
    hashed = bool(ctx.attr("hashed_output", False))
    order = ctx.attr("input_order")
    order = order.decode() if isinstance(order, bytes) else str(order)

    def items(array):
        array = np.asarray(array)
        return list(array) if array.dtype == object else array.tolist()

    batches, columns = [], []
    ragged_at = sparse_at = dense_at = 0
    for kind in order:
        if kind == "R":
            splits = np.asarray(ragged_splits[ragged_at]).astype(np.int64)
            values = items(ragged_values[ragged_at])
            ragged_at += 1
            batches.append(splits.size - 1)
            columns.append([[cross_feature(v, hashed) for v in values[a:b]]
                            for a, b in zip(splits[:-1], splits[1:])])
        elif kind == "S":
            index = np.asarray(sparse_indices[sparse_at]).reshape(-1, 2)
            values = items(sparse_values[sparse_at])
            batch = int(np.asarray(sparse_shapes[sparse_at])[0])
            sparse_at += 1
            batches.append(batch)
            rows = [[] for _ in range(batch)]
            for (row, _), value in zip(index.tolist(), values):
                rows[row].append(cross_feature(value, hashed))
            columns.append(rows)
        else:
            array = np.asarray(dense[dense_at])
            dense_at += 1
            batches.append(array.shape[0])
            columns.append([[cross_feature(v, hashed) for v in items(array[row])]
                            for row in range(array.shape[0])])
    batch = batches[0] if batches else 0
    if any(b != batch for b in batches):
        other = next(b for b in batches if b != batch)
        raise invalid(ctx, f"Expected batch size {batch} got {other}")
    crosses = cross_rows(columns, batch, hashed, b"_X_", int(ctx.attr("num_buckets", 0)),
                         int(ctx.attr("hash_key", 0)) & _M64)
    split_dtype = np.dtype(ctx.output_dtypes[1].as_numpy_dtype)
    splits = np.concatenate([[0], np.cumsum([len(v) for v in crosses])]).astype(split_dtype)
    return cross_values([v for values in crosses for v in values], hashed), splits


# RaggedFillEmptyRows and its gradient (tf.ragged_fill_empty_rows; branch ragged).
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
