"""Shape functions of the ragged ops (engine/kernels/cpu/ragged.py),
as TensorFlow's (ragged_conversion_ops.cc, bincount_ops.cc). RaggedTensorToTensor: the rank
is the ragged rank plus the values' rank; the shape tensor's known sizes (which win: rows are
cut or padded to them), the values' inner dimensions and the row splits' length (rows + 1)
fill in what they know."""

from engine.shape_inference.dims import _dims
from engine.shape_inference.partial_values import _ints


def ragged_tensor_to_tensor(attrs, inputs):
    kinds = [k.decode() if isinstance(k, bytes) else str(k)
             for k in attrs.get("row_partition_types", ())]
    ragged_rank = len(kinds) - (1 if kinds and kinds[0] == "FIRST_DIM_SIZE" else 0)
    values = _dims(inputs[1])
    if values is None:
        return None
    dims = [None] * (ragged_rank + 1) + values[1:]
    if kinds and kinds[0] == "ROW_SPLITS":
        splits = _dims(inputs[3])
        if splits and splits[0] is not None:
            dims[0] = splits[0] - 1
    wanted = _ints(inputs[0])
    if wanted is not None and len(wanted) == len(dims):
        dims = [d if w < 0 else w for d, w in zip(dims, wanted)]  # a given size cuts or pads
    return dims


def ragged_bincount(attrs, inputs):
    """[rows, size]: one row a split less than the splits."""
    splits, size = _dims(inputs[0]), _ints(inputs[2])
    rows = splits[0] - 1 if splits and splits[0] is not None else None
    return [rows, size[0] if size else None]


def ragged_range(attrs, inputs):
    """Splits: one more than the ranges (the longest of the broadcast inputs); values: [?]."""
    sizes = [_dims(info) for info in inputs]
    rows = None
    if all(d is not None for d in sizes):
        vectors = [d[0] for d in sizes if d]
        rows = vectors[0] if vectors and all(v is not None for v in vectors) else (
            1 if not vectors else None)
    return [None if rows is None else rows + 1], [None]


def ragged_gather(attrs, inputs):
    """Each output level's splits a vector, the values the params' values' inner shape."""
    levels = int(attrs.get("OUTPUT_RAGGED_RANK", 0))
    values = _dims(inputs[-2])
    return tuple([[None]] * levels + [None if values is None else [None] + values[1:]])


def ragged_tensor_to_sparse(attrs, inputs):
    """[?, rank] indices, [?] values, [rank] dense shape (rank: ragged rank + values' rank)."""
    values = _dims(inputs[-1])
    rank = None if values is None else int(attrs.get("RAGGED_RANK", 0)) + len(values)
    return [None, rank], [None], [rank]


def ragged_cross(attrs, inputs):
    """Values [?], row splits [?] (one more than the rows)."""
    return [None], [None]


SHAPE_FUNCTIONS = {"RaggedTensorToTensor": ragged_tensor_to_tensor, "RaggedCross": ragged_cross,
                   "RaggedBincount": ragged_bincount, "RaggedRange": ragged_range,
                   "RaggedGather": ragged_gather, "RaggedTensorToSparse": ragged_tensor_to_sparse}
