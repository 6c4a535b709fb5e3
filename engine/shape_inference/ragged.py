"""Shape functions of the ragged ops (TensorFlow's core/ops/ragged_*_ops.cc)."""

from engine.shape_inference.dims import _dims
from engine.shape_inference.partial_values import _ints


def _vector(length=None):
    return [length]


def ragged_tensor_to_tensor(attrs, inputs):
    """The `shape` input where it is a constant (-1 unknown), else rank only."""
    types = [t.decode() if isinstance(t, bytes) else t
             for t in attrs.get("row_partition_types", [])]
    ragged_rank = len(types) - (1 if types and types[0] == "FIRST_DIM_SIZE" else 0)
    values = _dims(inputs[1])
    target = _ints(inputs[0])
    if values is None:
        return None
    rank = ragged_rank + len(values)
    if target is not None and isinstance(target, list) and len(target) == rank:
        out = [None if d < 0 else d for d in target]
    else:
        out = [None] * rank
    return [o if o is not None else (values[i - ragged_rank] if i > ragged_rank else None)
            for i, o in enumerate(out)]


def ragged_tensor_to_sparse(attrs, inputs):
    values = _dims(inputs[-1])
    rank = None if values is None else len(values) + len(inputs) - 1
    return ([None, rank], [None], [rank])


def ragged_range(attrs, inputs):
    sizes = [d[0] for d in (_dims(x) for x in inputs) if d]
    rows = sizes[0] if sizes else (1 if all(_dims(x) == [] for x in inputs) else None)
    return ([None if rows is None else rows + 1], [None])


def ragged_gather(attrs, inputs):
    out_rank = int(attrs.get("OUTPUT_RAGGED_RANK", 1))
    values = _dims(inputs[-2])
    return tuple([[None]] * out_rank + [None if values is None else [None] + values[1:]])


def ragged_fill_empty_rows(attrs, inputs):
    # TensorFlow's shape function leaves empty_row_indicator's length unknown
    return ([None], [None], [None], _dims(inputs[0]))


def ragged_fill_empty_rows_grad(attrs, inputs):
    return (_dims(inputs[0]), [])


def ragged_cross(attrs, inputs):
    """Row splits of one more than the batch: a ragged input's splits or a dense one's rows."""
    order = attrs.get("input_order", b"")
    order = order.decode() if isinstance(order, bytes) else order
    n_ragged = order.count("R")
    n_sparse = order.count("S")
    if n_ragged:
        splits = _dims(inputs[n_ragged])
        return ([None], splits if splits is not None else [None])
    dense = inputs[2 * n_ragged + 3 * n_sparse:]
    for info in dense:
        dims = _dims(info)
        if dims and dims[0] is not None:
            return ([None], [dims[0] + 1])
    return ([None], [None])


def ragged_bincount(attrs, inputs):
    """[rows, size]: one row a split less than the splits."""
    splits, size = _dims(inputs[0]), _ints(inputs[2])
    rows = splits[0] - 1 if splits and splits[0] is not None else None
    return [rows, size[0] if size else None]


SHAPE_FUNCTIONS = {
    "RaggedTensorToTensor": ragged_tensor_to_tensor,
    "RaggedTensorToSparse": ragged_tensor_to_sparse,
    "RaggedRange": ragged_range, "RaggedGather": ragged_gather,
    "RaggedFillEmptyRows": ragged_fill_empty_rows,
    "RaggedFillEmptyRowsGrad": ragged_fill_empty_rows_grad,
    "RaggedCross": ragged_cross,
    "RaggedBincount": ragged_bincount,
}
