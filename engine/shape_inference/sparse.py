"""Shape functions of the SparseTensor ops of engine/kernels/cpu/sparse.py, as TensorFlow's
(core/ops/sparse_ops.cc, math_ops.cc) give them."""

from engine.shape_inference.dims import ShapeError, _dims
from engine.shape_inference.partial_values import _from_value, _ints


def _first(dims):
    return dims[0] if dims else None


def sparse_fill_empty_rows(attrs, inputs):
    """[?, rank], [?], [dense_shape[0]], [N]."""
    indices, values, shape = _dims(inputs[0]), _dims(inputs[1]), _dims(inputs[2])
    n = _first(indices)
    if n is None and values:
        n = values[0]
    known = _from_value(inputs[2]) if shape is not None else None
    return [None, _first(shape)], [None], [_first(known)], [n]


def sparse_fill_empty_rows_grad(attrs, inputs):
    return [_first(_dims(inputs[0]))], []


def sparse_reshape(attrs, inputs):
    """[N, len(new_shape)], [len(new_shape)]."""
    rank = _first(_dims(inputs[2]))
    return [_first(_dims(inputs[0])), rank], [rank]


def _rows_then(data, rows):
    dims = _dims(data)
    return None if dims is None else [rows] + dims[1:]


def sparse_segment(attrs, inputs):
    """As many rows as the last segment id says (unknown), or num_segments."""
    if len(inputs) == 4:
        count = _ints(inputs[3])
        return _rows_then(inputs[0], count[0] if count else None)
    return _rows_then(inputs[0], None)


def sparse_segment_grad(attrs, inputs):
    count = _ints(inputs[3])
    return _rows_then(inputs[0], count[0] if count else None)


def sparse_segment_grad_v2(attrs, inputs):
    return _rows_then(inputs[0], None), [None]


def sparse_cross(attrs, inputs):
    """[?, 2], [?], [2]."""
    return [None, 2], [None], [2]


def sparse_reorder(attrs, inputs):
    """The input's indices and values shapes."""
    return _dims(inputs[0]), _dims(inputs[1])


def sparse_slice(attrs, inputs):
    """[?, rank], [?], [rank] (rank from the input's shape vector)."""
    rank = _first(_dims(inputs[2]))
    return [None, rank], [None], [rank]


def sparse_slice_grad(attrs, inputs):
    return [_first(_dims(inputs[1]))]


def edit_distance(attrs, inputs):
    """EditDistance: max(hypothesis_shape, truth_shape) without the last dim, where both
    shapes' values are known; else unknown."""
    for indices, values, shape in (inputs[:3], inputs[3:]):
        for info, rank, what in ((indices, 2, "indices"), (values, 1, "values"),
                                 (shape, 1, "shape")):
            dims = _dims(info)
            if dims is not None and len(dims) != rank:
                raise ShapeError(f"Shape must be rank {rank} but is rank {len(dims)}")
    hypothesis, truth = _ints(inputs[2]), _ints(inputs[5])
    if hypothesis is None or truth is None:
        return None
    if len(hypothesis) != len(truth):
        raise ShapeError("Num elements of hypothesis_shape does not match truth_shape: "
                         f"{len(hypothesis)} vs. {len(truth)}")
    return [max(h, t) for h, t in zip(hypothesis[:-1], truth[:-1])]


SHAPE_FUNCTIONS = {
    "EditDistance": edit_distance,
    "SparseReorder": sparse_reorder, "SparseSlice": sparse_slice,
    "SparseSliceGrad": sparse_slice_grad,
    "SparseCross": sparse_cross, "SparseCrossV2": sparse_cross,
    "SparseFillEmptyRows": sparse_fill_empty_rows,
    "SparseFillEmptyRowsGrad": sparse_fill_empty_rows_grad,
    "SparseReshape": sparse_reshape,
    **{f"SparseSegment{kind}": sparse_segment for kind in ("Sum", "Mean", "SqrtN")},
    **{f"SparseSegment{kind}WithNumSegments": sparse_segment
       for kind in ("Sum", "Mean", "SqrtN")},
    **{f"SparseSegment{kind}Grad": sparse_segment_grad for kind in ("Sum", "Mean", "SqrtN")},
    **{f"SparseSegment{kind}GradV2": sparse_segment_grad_v2
       for kind in ("Sum", "Mean", "SqrtN")},
}
