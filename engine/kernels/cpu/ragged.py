"""CPU kernels of RaggedTensorToTensor (ragged_tensor_to_tensor_op.cc), what
RaggedTensor.to_tensor runs: TF2 models whose strings are split (tf.strings.split of a
vector, Keras TextVectorization) pad their ragged rows with it. The partitions are
ROW_SPLITS at every level, or FIRST_DIM_SIZE then VALUE_ROWIDS; `shape` is a scalar -1
(unknown) or one size a dimension, -1 where the rows decide it; rows longer than the shape
are cut, shorter ones padded with default_value. RaggedBincount (bincount_op.cc) counts each
ragged row, as Keras 3's TextVectorization counts the n-grams of each text. RaggedRange
(tf.ragged.range), RaggedGather (tf.gather of a RaggedTensor) and RaggedTensorToSparse
(RaggedTensor.to_sparse) take and give a RaggedTensor as its nested row splits and flat values."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu.segment import bincount


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
    starts, limits, deltas = np.broadcast_arrays(*(np.asarray(a) for a in (starts, limits, deltas)))
    if starts.ndim > 1:
        raise invalid(ctx, "starts must be a scalar or vector")
    dtype = np.asarray(starts).dtype
    if np.any(deltas == 0):
        raise invalid(ctx, "Requires delta != 0")
    rows = []
    for start, limit, delta in zip(starts.reshape(-1), limits.reshape(-1), deltas.reshape(-1)):
        if (delta > 0 and limit < start) or (delta < 0 and limit > start):
            size = 0
        elif np.issubdtype(dtype, np.integer):
            size = (abs(int(limit) - int(start)) + abs(int(delta)) - 1) // abs(int(delta))
        else:
            size = int(np.ceil(np.abs((limit - start) / delta)))
        rows.append(start + np.arange(size, dtype=dtype) * delta)
    split_dtype = np.dtype(ctx.output_dtypes[0].as_numpy_dtype)
    splits = np.concatenate([[0], np.cumsum([r.size for r in rows], dtype=np.int64)])
    values = np.concatenate(rows).astype(dtype) if rows else np.zeros(0, dtype)
    return splits.astype(split_dtype), values


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
    nested = [np.asarray(s, np.int64) for s in inputs[:-1]]
    values = np.asarray(inputs[-1])
    coords = np.stack(_coordinates(nested, values.shape[0]), axis=1) if values.shape[0] \
        else np.zeros((0, len(nested) + 1), np.int64)
    inner = values.shape[1:]
    if inner:
        inner_index = np.indices(inner).reshape(len(inner), -1).T
        per = inner_index.shape[0]
        coords = np.concatenate([np.repeat(coords, per, axis=0),
                                 np.tile(inner_index, (values.shape[0], 1))], axis=1)
    dense_shape = [nested[0].size - 1]
    dense_shape += [int(np.diff(s).max()) if s.size > 1 else 0 for s in nested]
    dense_shape += list(inner)
    return (coords.astype(np.int64), values.reshape(-1),
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
