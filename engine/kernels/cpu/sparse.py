"""NumPy CPU kernels of the SparseTensor ops under tf.feature_column and the sparse embedding
lookups: SparseFillEmptyRows (and its Grad), SparseReshape, and the SparseSegment reductions
(Sum, Mean, SqrtN, their WithNumSegments forms, their dense Grad and sparse GradV2 ops), and
SparseToDense, with TensorFlow's error texts and check order (segment_reduction_ops_impl.h,
reshape_util.cc, sparse_fill_empty_rows_op.cc, sparse_to_dense_op.cc)."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str


def _shape(array):
    return shape_str(np.shape(array)).replace(", ", ",")


def _check_rank(ctx, label, array, rank, where=""):
    """TensorFlow's error for `array` (`label`) not a matrix (rank 2) or a vector (rank 1)."""
    if array.ndim != rank:
        raise invalid(ctx, f"{label} should be a {'matrix' if rank == 2 else 'vector'} but "
                           f"received shape {_shape(array)}{where}")


# -- SparseToDense ---------------------------------------------------------------------------

@register("SparseToDense")
def sparse_to_dense(ctx, sparse_indices, output_shape, sparse_values, default_value):
    """The dense tensor of `output_shape` holding `sparse_values` (one, or one per index) at
    `sparse_indices` (a scalar, a vector of 1-D indices or a matrix), `default_value`
    elsewhere; with validate_indices the indices must be in bounds, sorted and distinct."""
    indices, shape = np.asarray(sparse_indices), np.asarray(output_shape)
    values, default = np.asarray(sparse_values), np.asarray(default_value)
    if indices.ndim > 2:
        raise invalid(ctx, f"sparse_indices should be a scalar, vector, or matrix, got shape "
                           f"{_shape(indices)}")
    num_elems = indices.shape[0] if indices.ndim > 0 else 1
    num_dims = indices.shape[1] if indices.ndim > 1 else 1
    if shape.ndim != 1:
        raise invalid(ctx, f"output_shape must be rank 1, got shape {_shape(shape)}")
    if shape.size != num_dims:
        raise invalid(ctx, f"output_shape has incorrect number of elements: {shape.size} "
                           f"should be: {num_dims}")
    if not (values.ndim == 0 or (values.ndim == 1 and values.size == num_elems)):
        raise invalid(ctx, f"sparse_values has incorrect shape {_shape(values)}, should be [] "
                           f"or [{num_elems}]")
    if default.ndim != 0:
        raise invalid(ctx, "default_value should be a scalar.")
    dims = [int(d) for d in shape.tolist()]
    for d in dims:
        if d < 0:
            raise invalid(ctx, f"Dimension {d} must be >= 0")
    coords = indices.reshape(num_elems, num_dims).astype(np.int64)
    dense = np.full(dims, default, dtype=values.dtype)
    shown = ",".join(str(d) for d in dims)
    if ctx.attr("validate_indices", True) and num_elems:
        # index by index, bounds before order: the first index failing either
        outside = ((coords < 0) | (coords >= np.array(dims, np.int64))).any(axis=1)
        strides = np.array([int(np.prod(dims[i + 1:])) for i in range(num_dims)], np.int64)
        linear = np.where(outside[:, None], 0, coords) @ strides  # row-major order, valid ones
        step = np.r_[1, np.diff(linear)]
        unordered = ~outside & np.r_[False, ~outside[:-1]] & (step <= 0)
        failing = np.flatnonzero(outside | unordered)
        if failing.size:
            n = failing[0]
            text = ",".join(str(int(i)) for i in coords[n])
            if outside[n]:
                raise invalid(ctx, f"indices[{n}] = [{text}] is out of bounds: need 0 <= index "
                                   f"< [{shown}]")
            if step[n] < 0:
                raise invalid(ctx, f"indices[{n}] = [{text}] is out of order. Many sparse "
                                   "ops require sorted indices.\n    Use `tf.sparse.reorder` "
                                   "to create a correctly ordered copy.\n\n")
            raise invalid(ctx, f"indices[{n}] = [{text}] is repeated")
    elif num_elems and ((coords < 0) | (coords >= np.array(dims))).any():
        raise invalid(ctx, f"Indices are not valid (out of bounds).  Shape: [{shown}]")
    if num_elems:
        dense[tuple(coords.T)] = values
    return dense


# -- SparseFillEmptyRows ----------------------------------------------------------------------

@register("SparseFillEmptyRows")
def sparse_fill_empty_rows(ctx, indices, values, dense_shape, default_value):
    """Each row of the dense shape with no entry gets one, (row, 0, ...) = default_value; the
    entries come out grouped by row, a row's in their input order (TensorFlow's counting
    pass, which takes unsorted input too), with the input -> output map."""
    indices, values = np.asarray(indices), np.asarray(values)
    dense_shape, default_value = np.asarray(dense_shape), np.asarray(default_value)
    if dense_shape.ndim != 1:
        raise invalid(ctx, f"dense_shape must be a vector, saw: {_shape(dense_shape)}")
    if indices.ndim != 2:
        raise invalid(ctx, f"indices must be a matrix, saw: {_shape(indices)}")
    if values.ndim != 1:
        raise invalid(ctx, f"values must be a vector, saw: {_shape(values)}")
    if default_value.ndim != 0:
        raise invalid(ctx, f"default_value must be a scalar, saw: {_shape(default_value)}")
    n = indices.shape[0]
    if values.shape[0] != n:
        raise invalid(ctx, f"The length of `values` ({values.shape[0]}) must match the first "
                           f"dimension of `indices` ({n}).")
    if dense_shape.size == 0:
        raise invalid(ctx, "Dense shape cannot be empty.")
    dense_rows = int(dense_shape[0])
    rank = indices.shape[1]
    if dense_rows == 0:
        if n:
            raise invalid(ctx, f"Received SparseTensor with dense_shape[0] = 0 but "
                               f"indices.shape[0] = {n}")
        return (np.zeros((0, rank), np.int64), values[:0], np.zeros(0, np.bool_),
                np.zeros(0, np.int64))
    rows = indices[:, 0].astype(np.int64) if n else np.zeros(0, np.int64)
    bad = np.flatnonzero((rows < 0) | (rows >= dense_rows))
    if bad.size:
        raise invalid(ctx, f"indices({bad[0]}, 0) is invalid: {rows[bad[0]]} >= {dense_rows}")
    counts = np.bincount(rows, minlength=dense_rows)
    empty = counts == 0
    per_row = np.maximum(counts, 1)
    starts = np.concatenate([[0], np.cumsum(per_row)[:-1]]).astype(np.int64)
    total = int(per_row.sum())
    out_indices = np.zeros((total, rank), np.int64)
    out_values = np.full(total, default_value, values.dtype)
    empty_rows = np.flatnonzero(empty)
    out_indices[starts[empty_rows], 0] = empty_rows
    order = np.argsort(rows, kind="stable")
    # the k-th entry of a row goes to the row's start + k
    rank_in_row = np.arange(n) - np.concatenate([[0], np.cumsum(counts)[:-1]])[rows[order]]
    positions = starts[rows[order]] + rank_in_row
    out_indices[positions] = indices[order]
    out_values[positions] = values[order]
    reverse = np.empty(n, np.int64)
    reverse[order] = positions
    return out_indices, out_values, empty, reverse


@register("SparseFillEmptyRowsGrad")
def sparse_fill_empty_rows_grad(ctx, reverse_index_map, grad_values):
    """d_values: the output gradient at each input entry's place; d_default_value: the sum
    over the filled entries."""
    reverse, grad = np.asarray(reverse_index_map), np.asarray(grad_values)
    if reverse.ndim != 1:
        raise invalid(ctx, f"reverse_index_map must be a vector, saw: {_shape(reverse)}")
    if grad.ndim != 1:
        raise invalid(ctx, f"grad_values must be a vector, saw: {_shape(grad)}")
    size = grad.shape[0]
    outside = np.flatnonzero((reverse < 0) | (reverse >= size))
    if outside.size:
        raise invalid(ctx, f"Elements in reverse index must be in [0, {size}) but got "
                           f"{reverse[outside[0]]}")
    d_values = grad[reverse]
    visited = np.zeros(size, np.bool_)
    visited[reverse] = True
    return d_values, np.asarray(grad[~visited].sum(dtype=grad.dtype), grad.dtype)


# -- SparseReshape ----------------------------------------------------------------------------

@register("SparseReshape")
def sparse_reshape(ctx, input_indices, input_shape, new_shape):
    """The entries' coordinates in the new shape (row-major, as a dense reshape), at most one
    -1 in new_shape inferred."""
    indices, shape = np.asarray(input_indices), np.asarray(input_shape)
    target = np.asarray(new_shape)
    if indices.ndim != 2:
        raise invalid(ctx, "Input must be a matrix.")
    if shape.ndim != 1:
        raise invalid(ctx, "Input shape must be a vector.")
    _check_rank(ctx, "Target shape", target, 1)
    if indices.shape[1] != shape.size:
        raise invalid(ctx, "Input tensor rank must match input shape length.")
    dense_size = int(np.prod(shape, dtype=np.int64))
    output = [int(d) for d in target.tolist()]
    unknown, product = -1, 1
    for i, size in enumerate(output):
        if size == -1:
            if unknown != -1:
                raise invalid(ctx, f"only one output dimension may be -1, not both {unknown} "
                                   f"and {i}")
            unknown = i
        else:
            if size < 0:
                raise invalid(ctx, f"size {i} must be non-negative, not {size}")
            product *= size
    shown = ",".join(str(1 if d == -1 else d) for d in output)
    given = ",".join(str(int(d)) for d in shape.tolist())
    if unknown != -1:
        if product > 0:
            missing = dense_size // product
            if product * missing != dense_size:
                raise invalid(ctx, f"Input to reshape is a SparseTensor with {dense_size} dense "
                                   f"values, but the requested shape requires a multiple of "
                                   f"{product}. input_shape=[{given}] output_shape=[{shown}]")
        else:
            missing = 0
        output[unknown] = missing
    elif product != dense_size:
        raise invalid(ctx, f"Input to reshape is a tensor with {dense_size} dense values, but "
                           f"the requested shape has {product}. input_shape=[{given}] "
                           f"output_shape=[{shown}]")
    out_shape = np.array(output, np.int64)
    if indices.shape[0] == 0:
        return np.zeros((0, len(output)), np.int64), out_shape
    in_strides = _strides(shape.astype(np.int64))
    flat = indices.astype(np.int64) @ in_strides
    out_strides = _strides(out_shape)
    out = np.empty((indices.shape[0], len(output)), np.int64)
    for j, stride in enumerate(out_strides.tolist()):
        out[:, j] = flat // stride
        flat = flat - out[:, j] * stride
    return out, out_shape


def _strides(shape):
    strides = np.ones(len(shape), np.int64)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


# -- SparseSegmentSum / Mean / SqrtN ----------------------------------------------------------

def _check_segment_runs(ctx, ids, chosen, rows, data_rows):
    """TensorFlow's checks, run by run of equal segment ids in order: the next run's id
    smaller, this run's id out of [0, rows), then an index of this run out of the data."""
    n = ids.size
    if not n:
        return
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    segments = ids[starts]
    decreasing = np.r_[segments[:-1] > segments[1:], False]
    out_of_range = (segments < 0) | (segments >= rows)
    bad = np.flatnonzero((chosen < 0) | (chosen >= data_rows))
    run_failing = np.flatnonzero(decreasing | out_of_range)
    first_run = run_failing[0] if run_failing.size else len(starts)
    bad_run = np.searchsorted(starts, bad[0], side="right") - 1 if bad.size else len(starts)
    if first_run == len(starts) and bad_run == len(starts):
        return
    if first_run <= bad_run:
        if decreasing[first_run]:
            raise invalid(ctx, "segment ids are not increasing")
        raise invalid(ctx, f"Segment id {segments[first_run]} out of range [0, {rows}), "
                           "possibly because 'segment_ids' input is not sorted.")
    raise invalid(ctx, f"Bad: indices[{bad[0]}] == {chosen[bad[0]]} out of range "
                       f"[0, {data_rows})")


def _segment_reduction(kind, with_num_segments):
    def kernel(ctx, data, indices, segment_ids, num_segments=None):
        data, indices = np.asarray(data), np.asarray(indices)
        segment_ids = np.asarray(segment_ids)
        if indices.ndim != 1:
            raise invalid(ctx, "indices should be a vector.")
        if segment_ids.ndim != 1:
            raise invalid(ctx, "segment_ids should be a vector.")
        n = indices.size
        if n != segment_ids.size:
            raise invalid(ctx, "segment_ids and indices should have same size.")
        if with_num_segments:
            num_segments = np.asarray(num_segments)
            if num_segments.ndim != 0:
                raise invalid(ctx, f"num_segments should be a scalar, not shape "
                                   f"{_shape(num_segments)}")
            rows = int(num_segments)
            if n and int(segment_ids[-1]) >= rows:
                raise invalid(ctx, "segment ids must be < num_segments")
        else:
            rows = int(segment_ids[-1]) + 1 if n else 0
        if rows < 0:
            raise invalid(ctx, "segment ids must be >= 0")
        if data.ndim < 1:
            raise invalid(ctx, "Shape must be at least rank 1")
        ids, chosen = segment_ids.astype(np.int64), indices.astype(np.int64)
        _check_segment_runs(ctx, ids, chosen, rows, data.shape[0])
        out = np.zeros((rows,) + data.shape[1:], data.dtype)
        if n:
            np.add.at(out, ids, data[chosen])  # each segment's rows in order, as TF adds
            if kind != "sum":
                counts = np.bincount(ids, minlength=rows)[:, None].astype(data.dtype)
                scale = counts if kind == "mean" else np.sqrt(counts)
                scale[counts == 0] = 1
                out = (out.reshape(rows, -1) / scale).reshape(out.shape).astype(data.dtype)
        return out
    if with_num_segments:
        return kernel
    return lambda ctx, data, indices, segment_ids: kernel(ctx, data, indices, segment_ids)


for _kind, _name in (("sum", "Sum"), ("mean", "Mean"), ("sqrtn", "SqrtN")):
    register(f"SparseSegment{_name}")(_segment_reduction(_kind, False))
    register(f"SparseSegment{_name}WithNumSegments")(_segment_reduction(_kind, True))


def _grad_inputs(ctx, grad, indices, segment_ids, dense_output_dim0):
    grad, indices = np.asarray(grad), np.asarray(indices)
    segment_ids, dim0 = np.asarray(segment_ids), np.asarray(dense_output_dim0)
    if indices.ndim != 1:
        raise invalid(ctx, "indices should be a vector.")
    if segment_ids.ndim != 1:
        raise invalid(ctx, "segment_ids should be a vector.")
    if dim0.ndim != 0:
        raise invalid(ctx, "dense_output_dim0 should be a scalar.")
    if indices.size != segment_ids.size:
        raise invalid(ctx, "segment_ids and indices should have same size.")
    segments = grad.shape[0] if grad.ndim else 0
    if indices.size and int(segment_ids[-1]) + 1 > segments:
        raise invalid(ctx, "Invalid number of segments")
    outside = np.flatnonzero((segment_ids < 0) | (segment_ids >= segments))
    if outside.size:
        raise invalid(ctx, f"Segment id {segment_ids[outside[0]]} out of range "
                           f"[0, {segments}).")
    return grad, indices.astype(np.int64), segment_ids.astype(np.int64), int(dim0), segments


def _check_grad_indices(ctx, indices, dim0):
    outside = np.flatnonzero((indices < 0) | (indices >= dim0))
    if outside.size:
        raise invalid(ctx, f"Index {indices[outside[0]]} out of range [0, {dim0}).")


def _scaled_rows(kind, grad, segment_ids, segments):
    """Each entry's row of `grad`, scaled as the forward op scaled it (in double, as
    TensorFlow's scaling vector, then cast to the element type)."""
    rows = grad[segment_ids]
    if kind == "sum":
        return rows
    counts = np.maximum(np.bincount(segment_ids, minlength=segments).astype(np.float64), 1.0)
    scale = 1.0 / (counts if kind == "mean" else np.sqrt(counts))
    return rows * scale[segment_ids].astype(grad.dtype).reshape((-1,) + (1,) * (grad.ndim - 1))


def _dense_grad(kind):
    def kernel(ctx, grad, indices, segment_ids, dense_output_dim0):
        grad, indices, segment_ids, dim0, segments = _grad_inputs(
            ctx, grad, indices, segment_ids, dense_output_dim0)
        _check_grad_indices(ctx, indices, dim0)
        out = np.zeros((dim0,) + grad.shape[1:], grad.dtype)
        np.add.at(out, indices, _scaled_rows(kind, grad, segment_ids, segments))
        return out
    return kernel


def _sparse_grad(kind):
    def kernel(ctx, grad, indices, segment_ids, dense_output_dim0):
        grad, indices64, segment_ids, dim0, segments = _grad_inputs(
            ctx, grad, indices, segment_ids, dense_output_dim0)
        _check_grad_indices(ctx, indices64, dim0)
        unique, position = np.unique(indices64, return_inverse=True)
        out = np.zeros((unique.size,) + grad.shape[1:], grad.dtype)
        np.add.at(out, position.reshape(-1), _scaled_rows(kind, grad, segment_ids, segments))
        return out, unique.astype(np.asarray(indices).dtype)
    return kernel


for _kind, _name in (("sum", "Sum"), ("mean", "Mean"), ("sqrtn", "SqrtN")):
    register(f"SparseSegment{_name}Grad")(_dense_grad(_kind))
    register(f"SparseSegment{_name}GradV2")(_sparse_grad(_kind))


# -- SparseCross ------------------------------------------------------------------------------

_KMUL = 0xc6a4a7935bd1e995
_M64 = (1 << 64) - 1


def fingerprint_cat64(fp1, fp2):
    """FingerprintCat64 (tensorflow/core/platform/fingerprint.h) on 64-bit ints."""
    result = (fp1 ^ _KMUL) & _M64
    mixed = (fp2 * _KMUL) & _M64
    result ^= ((mixed ^ (mixed >> 47)) * _KMUL) & _M64
    result = (result * _KMUL) & _M64
    result = (((result ^ (result >> 47)) * _KMUL) & _M64)
    return result ^ (result >> 47)


@register("SparseCross")
def sparse_cross(ctx, *inputs):
    """The crosses of each row's features across the sparse then the dense inputs (the last
    input varying fastest), hashed (FingerprintCat64 of Fingerprint64s from hash_key, mod
    num_buckets) or joined with "_X_"."""
    return _cross(ctx, inputs, ctx.attr("hashed_output"), b"_X_")


@register("SparseCrossV2")
def sparse_cross_v2(ctx, *inputs):
    """SparseCross's string crosses joined by the scalar `sep` (tf.sparse.cross)."""
    sep = np.asarray(inputs[-1])
    if sep.ndim != 0:
        # Tensor::DebugString: the first three values, "..." after them
        items = [v.decode(errors="replace") if isinstance(v, bytes) else str(v)
                 for v in sep.reshape(-1)]
        shown = " ".join(items[:3]) + ("..." if len(items) > 3 else "")
        raise invalid(ctx, f"Input separator should be a scalar. Received: Tensor<type: "
                           f"string shape: {_shape(sep)} values: {shown}>")
    sep = sep.item()
    return _cross(ctx, inputs[:-1], False, sep if isinstance(sep, bytes) else sep.encode())


def _cross(ctx, inputs, hashed, separator):
    n = ctx.attr("N")
    indices, values, shapes = inputs[:n], inputs[n:2 * n], inputs[2 * n:3 * n]
    dense = inputs[3 * n:]
    indices = [np.asarray(i) for i in indices]
    values = [np.asarray(v) for v in values]
    shapes = [np.asarray(s) for s in shapes]
    dense = [np.asarray(d) for d in dense]
    for i, index in enumerate(indices):
        _check_rank(ctx, "Input indices", index, 2, f" at position {i}")
        if index.shape[1] != 2:
            raise invalid(ctx, f"Expected D2 of index to be 2 got {index.shape[1]} at "
                               f"position {i}")
    for i, value in enumerate(values):
        _check_rank(ctx, "Input values", value, 1, f" at position {i}")
        if indices[i].shape[0] != value.shape[0]:
            raise invalid(ctx, f"Expected size of values to be {indices[i].shape[0]} got "
                               f"{value.shape[0]} at position {i}")
    for i, shape in enumerate(shapes):
        _check_rank(ctx, "Input shapes", shape, 1, f" at position {i}")
        if shape.size != 2:
            raise invalid(ctx, f"shape should imply a 2D tensor, but got {_shape(shape)} at "
                               f"position {i}")
    for i, d in enumerate(dense):
        _check_rank(ctx, "Dense inputs", d, 2, f" at position {i}")
    batch = int(shapes[0][0]) if shapes else dense[0].shape[0]
    for i, shape in enumerate(shapes):
        if int(shape[0]) != batch:
            raise invalid(ctx, f"Expected batch size {batch} got {int(shape[0])} at "
                               f"position {i}")
    for i, d in enumerate(dense):
        if d.shape[0] != batch:
            raise invalid(ctx, f"Expected batch size {batch} got {d.shape[0]} at dense "
                               f"tensor {i}")
    num_buckets, hash_key = ctx.attr("num_buckets", 0), ctx.attr("hash_key", 0) & _M64
    columns = []  # per column, per row: its features
    for index, value in zip(indices, values):
        rows = [[] for _ in range(batch)]
        for (row, _), item in zip(index.tolist(), value.tolist() if value.dtype != object
                                  else list(value)):
            rows[row].append(cross_feature(item, hashed))
        columns.append(rows)
    for d in dense:
        columns.append([[cross_feature(item, hashed) for item in (
            d[row].tolist() if d.dtype != object else list(d[row]))] for row in range(batch)])
    crosses = cross_rows(columns, batch, hashed, separator, num_buckets, hash_key)
    out_indices = np.array([(row, k) for row, values in enumerate(crosses)
                            for k in range(len(values))], np.int64).reshape(-1, 2)
    widest = max((len(values) for values in crosses), default=0)
    return (out_indices, cross_values([v for values in crosses for v in values], hashed),
            np.array([batch, widest], np.int64))


def cross_feature(value, hashed):
    """A feature as crossed: its Fingerprint64 (strings) or its bits (integers) when hashed,
    else its bytes (integers in decimal)."""
    from engine.kernels.cpu.string_hash import fingerprint64
    if isinstance(value, (bytes, str, np.bytes_, np.str_)):
        data = value if isinstance(value, bytes) else str(value).encode()
        return fingerprint64(data) if hashed else data
    return int(value) & _M64 if hashed else str(int(value)).encode()


def cross_rows(columns, batch, hashed, separator, num_buckets, hash_key):
    """Each row's crosses of one feature a column (the last column varying fastest; none
    where a column is empty): FingerprintCat64s from hash_key mod num_buckets, or the
    features joined by `separator`."""
    result = []
    for row in range(batch):
        crosses = [[]]
        for column in columns:
            crosses = [c + [f] for c in crosses for f in column[row]]
        if any(not column[row] for column in columns):
            crosses = []
        values = []
        for cross in crosses:
            if hashed:
                value = hash_key
                for f in cross:
                    value = fingerprint_cat64(value, f)
                values.append(value % num_buckets if num_buckets > 0
                              else value % ((1 << 63) - 1))
            else:
                values.append(separator.join(cross))
        result.append(values)
    return result


def cross_values(values, hashed):
    """The crosses as an int64 or a string (object) vector."""
    if hashed:
        return np.array(values, np.uint64).astype(np.int64)
    return np.array(values + [b""], dtype=object)[:-1]


# -- SparseReorder, SparseSlice ---------------------------------------------------------------

@register("SparseReorder")
def sparse_reorder(ctx, input_indices, input_values, input_shape):
    """The entries in row-major order of their indices (a stable sort; indices out of the
    shape are sorted too, as TensorFlow's kernel does not check them)."""
    indices, values = np.asarray(input_indices), np.asarray(input_values)
    shape = np.asarray(input_shape)
    # SparseTensor::Create's checks
    if indices.ndim != 2:
        raise invalid(ctx, f"Sparse indices must be rank 2 but is rank {indices.ndim}")
    if values.ndim != 1:
        raise invalid(ctx, f"Sparse values must be rank 1 but is rank {values.ndim}")
    _check_rank(ctx, "Input shape", shape, 1)
    if indices.shape[0] != values.shape[0]:
        raise invalid(ctx, f"Number of elements in indices ({indices.shape[0]}) and values "
                           f"({values.shape[0]}) do not match")
    if indices.shape[1] != shape.size:
        raise invalid(ctx, f"Index rank ({indices.shape[1]}) and shape rank ({shape.size}) do "
                           "not match")
    order = np.lexsort(indices.T[::-1]) if indices.size else np.arange(indices.shape[0])
    return indices[order].astype(np.int64), values[order]


@register("SparseSlice")
def sparse_slice(ctx, indices, values, shape, start, size):
    """The entries inside [start, start + size), moved to start at 0; the output shape is
    the size clipped to the input's shape."""
    indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(shape)
    start, size = np.asarray(start), np.asarray(size)
    _check_rank(ctx, "Input indices", indices, 2)
    _check_rank(ctx, "Input values", values, 1)
    _check_rank(ctx, "Input shape", shape, 1)
    _check_rank(ctx, "Input start", start, 1)
    _check_rank(ctx, "Input size", size, 1)
    rank = shape.size
    if start.size != rank:
        raise invalid(ctx, f"Expected start to be a vector of length {rank} but got length "
                           f"{start.size}")
    if size.size != rank:
        raise invalid(ctx, f"Expected size to be a vector of length {rank} but got length "
                           f"{size.size}")
    shape, start, size = (a.astype(np.int64) for a in (shape, start, size))
    out_shape = np.maximum(np.minimum(start + size, shape) - start, 0)
    end = start + out_shape
    inside = ((indices >= start) & (indices < end)).all(axis=1) if indices.size else \
        np.zeros(indices.shape[0], np.bool_)
    return ((indices[inside] - start).astype(np.int64).reshape(-1, rank), values[inside],
            out_shape)


@register("SparseSliceGrad")
def sparse_slice_grad(ctx, backprop_val_grad, input_indices, input_start, output_indices):
    """The sliced entries' gradients back at their input entries (zeros elsewhere)."""
    grad, indices = np.asarray(backprop_val_grad), np.asarray(input_indices)
    start, out_indices = np.asarray(input_start), np.asarray(output_indices)
    if indices.ndim != 2 or out_indices.ndim != 2 or grad.ndim != 1 or start.ndim != 1:
        raise invalid(ctx, f"Input indices should be a matrix but received shape "
                           f"{_shape(indices)}" if indices.ndim != 2 else
                           "Input backprop_val_grad, output_indices or input_start has the "
                           "wrong rank")
    if out_indices.shape[0] != grad.shape[0]:
        raise invalid(ctx, f"backprop_val_grad and output_indices must have the same number "
                           f"of elements; got {grad.shape[0]} and {out_indices.shape[0]}")
    out = np.zeros(indices.shape[0], grad.dtype)
    wanted = {tuple(row): i for i, row in enumerate((out_indices + start).tolist())}
    for i, row in enumerate(indices.tolist()):
        j = wanted.get(tuple(row))
        if j is not None:
            out[i] = grad[j]
    return out
