"""Shape functions of the linear-algebra, diagonal, segment, Unique, DenseBincount, GatherNd
and ScatterNd ops (TensorFlow's linalg_ops.cc, array_ops.cc, math_ops.cc)."""

import re

import numpy as np

from engine.shape_inference.dims import ShapeError, _dims, broadcast, merge, merge_dim
from engine.shape_inference.partial_values import _from_value, _ints


def square_matrix(attrs, inputs):
    """MatrixInverse, Cholesky: the input's shape, whose last two dims must match."""
    dims = _dims(inputs[0])
    if dims is None:
        return None
    if len(dims) < 2:
        raise ShapeError(f"Shape must be at least rank 2 but is rank {len(dims)}")
    side = merge_dim(dims[-2], dims[-1])
    return dims[:-2] + [side, side]


def matrix_determinant(attrs, inputs):
    dims = square_matrix(attrs, inputs)
    return None if dims is None else dims[:-2]


def lu(attrs, inputs):
    """Lu: the square input's shape, and its shape without the last dimension."""
    dims = square_matrix(attrs, inputs)
    return (None, None) if dims is None else (dims, dims[:-1])


def _at_least_matrix(inputs, index=0):
    dims = _dims(inputs[index])
    if dims is not None and len(dims) < 2:
        raise ShapeError(f"Shape must be at least rank 2 but is rank {len(dims)}")
    return dims


def self_adjoint_eig_v2(attrs, inputs):
    dims = square_matrix(attrs, inputs)
    if dims is None:
        return (None, None) if attrs.get("compute_v", True) else (None, [0])
    return dims[:-1], dims if attrs.get("compute_v", True) else [0]


def eig(attrs, inputs):
    """As SelfAdjointEigV2, but v is a scalar without compute_v (TensorFlow's EigOp)."""
    e, v = self_adjoint_eig_v2(attrs, inputs)
    return e, v if attrs.get("compute_v", True) else []


def _smaller(a, b):
    return None if a is None or b is None else min(a, b)


def svd(attrs, inputs):
    dims = _at_least_matrix(inputs)
    if dims is None:
        return None, None, None
    batch, rows, cols = dims[:-2], dims[-2], dims[-1]
    p = _smaller(rows, cols)
    if not attrs.get("compute_uv", True):
        return batch + [p], [0], [0]
    full = attrs.get("full_matrices", False)
    return (batch + [p], batch + [rows, rows if full else p],
            batch + [cols, cols if full else p])


def qr(attrs, inputs):
    dims = _at_least_matrix(inputs)
    if dims is None:
        return None, None
    batch, rows, cols = dims[:-2], dims[-2], dims[-1]
    side = rows if attrs.get("full_matrices", False) else _smaller(rows, cols)
    return batch + [rows, side], batch + [side, cols]


def matrix_solve(attrs, inputs):
    """[..., M, M] and [..., M, K]: the solution's [..., M, K]."""
    matrix, rhs = square_matrix(attrs, inputs), _at_least_matrix(inputs, 1)
    if matrix is None or rhs is None:
        return None
    if len(matrix) != len(rhs):
        raise ShapeError(f"Shapes must be equal rank, but are {len(matrix)} and {len(rhs)}")
    batch = [merge_dim(a, b) for a, b in zip(matrix[:-2], rhs[:-2])]
    return batch + [merge_dim(matrix[-1], rhs[-2]), rhs[-1]]


def matrix_triangular_solve(attrs, inputs):
    """Batch dimensions broadcast; [..., M, M] and [..., M, K] give [..., M, K]."""
    matrix, rhs = square_matrix(attrs, inputs), _at_least_matrix(inputs, 1)
    if matrix is None or rhs is None:
        return None
    return broadcast(matrix[:-2], rhs[:-2]) + [merge_dim(matrix[-1], rhs[-2]), rhs[-1]]


def matrix_solve_ls(attrs, inputs):
    matrix, rhs = _at_least_matrix(inputs), _at_least_matrix(inputs, 1)
    if matrix is None or rhs is None:
        return None
    batch = [merge_dim(a, b) for a, b in zip(matrix[:-2], rhs[:-2])]
    merge_dim(matrix[-2], rhs[-2])
    return batch + [matrix[-1], rhs[-1]]


def log_matrix_determinant(attrs, inputs):
    dims = square_matrix(attrs, inputs)
    return (None, None) if dims is None else (dims[:-2], dims[:-2])


def cross(attrs, inputs):
    a, b = _dims(inputs[0]), _dims(inputs[1])
    if a is not None and b is not None and len(a) != len(b):
        raise ShapeError(f"Shapes must be equal rank, but are {len(a)} and {len(b)}")
    dims = a if b is None else b if a is None else [merge_dim(x, y) for x, y in zip(a, b)]
    if dims is not None:
        if not dims:
            raise ShapeError("Shape must be at least rank 1 but is rank 0")
        if dims[-1] is not None and dims[-1] != 3:
            raise ShapeError(f"Dimension must be 3 but is {dims[-1]}")
    return dims


def _split_ellipsis(labels, dims):
    """(dims before "...", the ellipsis dims, dims after) of one input."""
    if "..." not in labels:
        if len(labels) != len(dims):
            raise ShapeError(f"Expected input {labels} to have rank {len(labels)} but got "
                             f"{len(dims)}")
        return list(zip(labels, dims)), []
    before, after = labels.split("...")
    middle = len(dims) - len(before) - len(after)
    if middle < 0:
        raise ShapeError(f"Expected input {labels} to have rank at least "
                         f"{len(before) + len(after)} but got {len(dims)}")
    named = list(zip(before, dims[:len(before)])) + list(zip(after, dims[len(dims) -
                                                                          len(after):]))
    return named, dims[len(before):len(before) + middle]


def einsum(attrs, inputs):
    """The output's dims by label, the ellipsis broadcast; unknown rank when an input's is."""
    equation = attrs.get("equation", "")
    equation = equation.decode() if isinstance(equation, bytes) else equation
    shapes = [_dims(i) for i in inputs]
    if "->" not in equation or any(s is None for s in shapes):
        return None
    left, output = equation.split("->")
    sizes, ellipsis = {}, []
    for labels, dims in zip(left.split(","), shapes):
        named, middle = _split_ellipsis(labels, dims)
        for label, dim in named:
            if sizes.get(label) in (None, 1):
                sizes[label] = dim if sizes.get(label) is None or dim is not None else 1
            elif dim is not None and dim != 1 and dim != sizes[label]:
                raise ShapeError(f"Dimensions must be equal, but are {sizes[label]} and {dim}")
        ellipsis = broadcast(ellipsis, middle)
    before, _, after = output.partition("...")
    out = [sizes.get(label) for label in before]
    if "..." in output:
        out += ellipsis
    return out + [sizes.get(label) for label in after]


def diag(attrs, inputs):
    dims = _dims(inputs[0])
    return None if dims is None else dims + dims


def diag_part(attrs, inputs):
    dims = _dims(inputs[0])
    if dims is None:
        return None
    if len(dims) % 2:
        raise ShapeError(f"Input must have even rank <= 6, input rank is {len(dims)}")
    half = len(dims) // 2
    return [merge_dim(a, b) for a, b in zip(dims[:half], dims[half:])]


def _band(inputs, index):
    k = _ints(inputs[index])
    if k is None:
        return None
    return (k[0], k[0]) if len(k) == 1 else (k[0], k[1])


def matrix_diag_v3(attrs, inputs):
    dims, band = _dims(inputs[0]), _band(inputs, 1)
    rows, cols = _ints(inputs[2]), _ints(inputs[3])
    if dims is None or band is None or rows is None or cols is None:
        return None
    lower, upper = band
    batch = dims[:-1] if lower == upper else dims[:-2]
    max_len = dims[-1]
    if max_len is None:
        return batch + [None, None]
    min_rows, min_cols = max_len - min(upper, 0), max_len + max(lower, 0)
    rows, cols = rows[0], cols[0]
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    elif rows == -1:
        rows = min_rows
    elif cols == -1:
        cols = min_cols
    return batch + [rows, cols]


def matrix_diag_part_v3(attrs, inputs):
    dims, band = _dims(inputs[0]), _band(inputs, 1)
    if dims is None or band is None:
        return None
    lower, upper = band
    rows, cols = dims[-2], dims[-1]
    if rows is None or cols is None:
        max_len = None
    else:
        max_len = min(rows + min(0, upper), cols - max(0, lower))
    batch = dims[:-2]
    return batch + [max_len] if lower == upper else batch + [upper - lower + 1, max_len]


def segment(attrs, inputs):
    """Sorted segment reductions: as many rows as the last id says, unknown statically."""
    dims = _dims(inputs[0])
    return None if dims is None else [None] + dims[1:]


def unsorted_segment(attrs, inputs):
    """UnsortedSegment*: num_segments rows, then the data's dims past the ids' rank."""
    data, ids, count = _dims(inputs[0]), _dims(inputs[1]), _ints(inputs[2])
    if data is None or ids is None:
        return None
    return [count[0] if count else None] + data[len(ids):]


def unique(attrs, inputs):
    dims = _dims(inputs[0])
    if dims is not None and len(dims) != 1:
        raise ShapeError(f"Shape must be rank 1 but is rank {len(dims)}")
    return ([None], dims)


def dense_bincount(attrs, inputs):
    size = _ints(inputs[1])
    dims = _dims(inputs[0])
    count = size[0] if size else None
    if dims is not None and len(dims) == 2:
        return [dims[0], count]
    return [count]


def gather_nd(attrs, inputs):
    params, indices = _dims(inputs[0]), _dims(inputs[1])
    if params is None or indices is None or indices[-1] is None:
        return None
    if indices[-1] > len(params):
        raise ShapeError(f"indices.shape[-1] must be <= params.rank, but saw indices shape: "
                         f"{_shape_text(indices)} and params shape: {_shape_text(params)}")
    return indices[:-1] + params[indices[-1]:]


def _shape_text(dims):
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def scatter_nd(attrs, inputs):
    """The `shape` input as a shape, indices and updates checked against it as TensorFlow's
    ScatterNdShapeHelper does. TensorFlow runs the function first without the shape's value
    (each size unknown: a refusal then names no computed input) and again with it (a refusal
    then ends with the partial shape it read)."""
    indices, updates = _dims(inputs[0]), _dims(inputs[1])
    known = _from_value(inputs[2])
    rank = None if known is None else len(known)
    _check_scatter_nd(indices, updates, None if rank is None else [None] * rank)
    if known is not None and any(d is not None for d in known):
        try:
            _check_scatter_nd(indices, updates, known)
        except ShapeError as error:
            error.partial_shapes = {2: known}
            raise
    return known


def _check_scatter_nd(indices, updates, output):
    def text(dims):
        return "?" if dims is None else "[" + ",".join("?" if d is None else str(d)
                                                       for d in dims) + "]"

    if output is not None and all(d is not None for d in output) and \
            int(np.prod(output)) == 0 and (
                (indices is not None and all(d is not None for d in indices)
                 and int(np.prod(indices)) > 0)
                or (updates is not None and all(d is not None for d in updates)
                    and int(np.prod(updates)) > 0)):
        raise ShapeError("Indices and updates specified for empty input")
    if indices is None or updates is None or not indices or indices[-1] is None:
        return
    outer, depth = len(indices) - 1, indices[-1]
    try:
        merge(indices[:outer], updates[:outer])
    except ShapeError as error:
        raise ShapeError(f"Dimensions [0,{outer}) of indices[shape={text(indices)}] = "
                         f"{text(indices[:outer])} must match dimensions [0,{outer}) of "
                         f"updates[shape={text(updates)}] = {text(updates[:outer])}: "
                         f"{error}") from None
    if output is None:
        return
    try:
        merge(output[depth:], updates[outer:])
    except ShapeError as error:
        raise ShapeError(f"Dimensions [{depth},{len(output)}) of input[shape={text(output)}] = "
                         f"{text(output[depth:])} must match dimensions [{outer},"
                         f"{len(updates)}) of updates[shape={text(updates)}] = "
                         f"{text(updates[outer:])}: {error}") from None


def tridiagonal_mat_mul(attrs, inputs):
    """TridiagonalMatMul: rhs's shape; each diagonal [..., 1, M] with rhs [..., M, N], the
    batch shapes equal (TensorFlow merges them: no broadcasting)."""
    shapes = [_dims(info) for info in inputs[:4]]
    for dims in shapes:
        if dims is not None and len(dims) < 2:
            raise ShapeError(f"Shape must be at least rank 2 but is rank {len(dims)}")
    batch = None
    for dims in shapes:
        batch = merge(batch, None if dims is None else dims[:-2])
    diagonal = None
    for dims in shapes[:3]:
        diagonal = merge(diagonal, dims)
    rhs = shapes[3]
    if diagonal is not None:
        if rhs is not None:
            merge_dim(diagonal[-1], rhs[-2])
        merge_dim(diagonal[-2], 1)
    return rhs


def tridiagonal_solve(attrs, inputs):
    """TridiagonalSolve: rhs's shape; diagonals [..., 3, M] with rhs [..., M, K]."""
    diagonals, rhs = _dims(inputs[0]), _dims(inputs[1])
    if diagonals is not None:
        if len(diagonals) < 2:
            raise ShapeError(f"Shape must be at least rank 2 but is rank {len(diagonals)}")
        merge_dim(diagonals[-2], 3)
        if rhs is not None:
            if len(rhs) != len(diagonals):
                raise ShapeError(f"Shape must be rank {len(diagonals)} but is rank "
                                 f"{len(rhs)}")
            merge_dim(diagonals[-1], rhs[-2])
    return rhs


SHAPE_FUNCTIONS = {
    "MatrixSquareRoot": square_matrix, "MatrixLogarithm": square_matrix,
    "TridiagonalMatMul": tridiagonal_mat_mul, "TridiagonalSolve": tridiagonal_solve,
    "MatrixInverse": square_matrix, "Cholesky": square_matrix, "Lu": lu,
    "MatrixDeterminant": matrix_determinant, "Einsum": einsum, "Diag": diag,
    "SelfAdjointEigV2": self_adjoint_eig_v2, "Eig": eig, "Svd": svd, "Qr": qr, "MatrixSolve": matrix_solve,
    "MatrixTriangularSolve": matrix_triangular_solve, "MatrixSolveLs": matrix_solve_ls,
    "LogMatrixDeterminant": log_matrix_determinant, "Cross": cross,
    "DiagPart": diag_part, "MatrixDiagV3": matrix_diag_v3,
    "MatrixDiagPartV3": matrix_diag_part_v3,
    "MatrixSetDiagV3": lambda attrs, inputs: _dims(inputs[0]),
    "MatrixBandPart": lambda attrs, inputs: _dims(inputs[0]),
    **{op: segment for op in ("SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin",
                              "SegmentProd")},
    "Unique": unique, "DenseBincount": dense_bincount, "GatherNd": gather_nd,
    "ScatterNd": scatter_nd,
    # Queues (kernels/cpu/queues.py): a scalar handle, size and closed flag; what a dequeue
    # returns is unknown to TensorFlow's shape functions (the Python wrapper sets it).
    **{op: (lambda attrs, inputs: []) for op in ("FIFOQueueV2", "RandomShuffleQueueV2",
                                                  "PaddingFIFOQueueV2", "PriorityQueueV2",
                                                  "QueueSizeV2", "QueueIsClosedV2")},
    **{op: (lambda attrs, inputs: None) for op in ("QueueDequeueV2", "QueueDequeueManyV2",
                                                    "QueueDequeueUpToV2")},
    "CountUpTo": lambda attrs, inputs: _dims(inputs[0]),
    **{op: unsorted_segment for op in ("UnsortedSegmentMax", "UnsortedSegmentMin",
                                       "UnsortedSegmentProd")},
}
