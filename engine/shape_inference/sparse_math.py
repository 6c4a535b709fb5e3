"""Shape functions of tf.sparse's arithmetic and serialization ops
(engine/kernels/cpu/sparse_math.py, sparse_serialize.py), as TensorFlow's sparse_ops.cc and
math_ops.cc give them."""

from engine.shape_inference.dims import _dims, merge, merge_dim
from engine.shape_inference.partial_values import _ints


def _dim(info, at):
    dims = _dims(info)
    return None if dims is None else dims[at]


def sparse_add(attrs, inputs):
    """[?, rank], [?], a_shape's shape."""
    a_shape = _dims(inputs[2])
    rank = a_shape[0] if a_shape else None
    return [None, rank], [None], [rank]


def sparse_add_grad(attrs, inputs):
    return [_dim(inputs[1], 0)], [_dim(inputs[2], 0)]


def sparse_tensor_dense_add(attrs, inputs):
    return _dims(inputs[3])


def sparse_dense_cwise(attrs, inputs):
    return _dims(inputs[1])


def sparse_concat(attrs, inputs):
    """Row counts summed, index columns and shape vectors merged."""
    n = len(inputs) // 3
    rows, columns, shape = 0, None, None
    for k in range(n):
        indices, values, shape_k = _dims(inputs[k]), _dims(inputs[k + n]), _dims(inputs[k + 2 * n])
        count = merge_dim(indices[0] if indices else None, values[0] if values else None)
        rows = None if rows is None or count is None else rows + count
        columns = merge_dim(columns, indices[1] if indices else None)
        shape = merge(shape, shape_k)
    return [rows, columns], [rows], shape


def sparse_sparse_min_or_max(attrs, inputs):
    return [None, None], [None]


def _reduced(attrs, inputs):
    shape, axes = _ints(inputs[2]), _ints(inputs[3])
    if shape is None or axes is None or not shape:
        return None
    ndims = len(shape)
    reduced = {(a + ndims) % ndims for a in axes}
    if attrs.get("keep_dims", False):
        return [1 if d in reduced else shape[d] for d in range(ndims)]
    return [shape[d] for d in range(ndims) if d not in reduced]


def sparse_reduce(attrs, inputs):
    return _reduced(attrs, inputs)


def sparse_reduce_sparse(attrs, inputs):
    return None, None, None


def sparse_softmax(attrs, inputs):
    return _dims(inputs[1])


def sparse_split(attrs, inputs):
    num = attrs["num_split"]
    shape = _dims(inputs[3])
    rank = shape[0] if shape else None
    return tuple([[None, rank]] * num + [[None]] * num + [[rank]] * num)


def serialize_sparse(attrs, inputs):
    return [3]


def serialize_many_sparse(attrs, inputs):
    return [None, 3]


def deserialize_many_sparse(attrs, inputs):
    return [None, None], [None], [None]


def sparse_mat_mul(attrs, inputs):
    a, b = _dims(inputs[0]), _dims(inputs[1])
    if a is None or b is None:
        return [None, None]
    rows = a[1] if attrs.get("transpose_a") else a[0]
    columns = b[0] if attrs.get("transpose_b") else b[1]
    return [rows, columns]


def dense_count_sparse_output(attrs, inputs):
    values = _dims(inputs[0])
    rank = None if values is None else len(values)
    return [None, rank], [None], [rank]


def sparse_count_sparse_output(attrs, inputs):
    shape = _dims(inputs[2])
    rank = shape[0] if shape else None
    return [None, rank], [None], [rank]


SHAPE_FUNCTIONS = {
    "SparseAdd": sparse_add, "SparseAddGrad": sparse_add_grad,
    "SparseTensorDenseAdd": sparse_tensor_dense_add,
    "SparseDenseCwiseAdd": sparse_dense_cwise, "SparseDenseCwiseMul": sparse_dense_cwise,
    "SparseDenseCwiseDiv": sparse_dense_cwise,
    "SparseConcat": sparse_concat,
    "SparseSparseMaximum": sparse_sparse_min_or_max,
    "SparseSparseMinimum": sparse_sparse_min_or_max,
    "SparseReduceSum": sparse_reduce, "SparseReduceMax": sparse_reduce,
    "SparseReduceSumSparse": sparse_reduce_sparse, "SparseReduceMaxSparse": sparse_reduce_sparse,
    "SparseSoftmax": sparse_softmax, "SparseSplit": sparse_split,
    "SerializeSparse": serialize_sparse, "SerializeManySparse": serialize_many_sparse,
    "DeserializeManySparse": deserialize_many_sparse, "SparseMatMul": sparse_mat_mul,
    "DenseCountSparseOutput": dense_count_sparse_output,
    "SparseCountSparseOutput": sparse_count_sparse_output,
}
