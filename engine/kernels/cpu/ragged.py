"""CPU kernels of RaggedTensorToTensor (ragged_tensor_to_tensor_op.cc), what
RaggedTensor.to_tensor runs: TF2 models whose strings are split (tf.strings.split of a
vector, Keras TextVectorization) pad their ragged rows with it. The partitions are
ROW_SPLITS at every level, or FIRST_DIM_SIZE then VALUE_ROWIDS; `shape` is a scalar -1
(unknown) or one size a dimension, -1 where the rows decide it; rows longer than the shape
are cut, shorter ones padded with default_value. RaggedBincount (bincount_op.cc) counts each
ragged row, as Keras 3's TextVectorization counts the n-grams of each text."""

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
    # each element's position in its row, and its row's index one level up, bottom level first
    index = np.arange(values.shape[0])
    coords = []
    for split in reversed(splits):
        parent = np.repeat(np.arange(split.size - 1), np.diff(split))[index]
        coords.append(index - split[parent])
        index = parent
    coords.append(index)
    coords.reverse()
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
