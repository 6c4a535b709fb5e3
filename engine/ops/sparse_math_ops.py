"""tf.sparse's arithmetic as TensorFlow 2.21's sparse_ops.py builds it in TF 1.x: add,
concat, maximum, minimum, the reductions, softmax, split, to_indicator, transpose, from_dense,
eye, expand_dims, reset_shape, bincount; tf.serialize_sparse and its many/deserialize forms;
tf.sparse.mask of IndexedSlices and tf.sparse_matmul. Gradients in sparse_math_grad.py."""

import numbers

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.deprecation import deprecated_argument_lookup
from engine.framework.graph import get_default_graph
from engine.framework.sparse_tensor import SparseTensor, SparseTensorValue
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape, unknown_shape
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, check_ops, math_ops
from engine.ops.cast import cast
from engine.ops.constant_op import constant
from engine.ops.control_flow.ops import with_dependencies
from engine.ops.convert import convert_to_tensor
from engine.ops.distributions import broadcast_static_shape
from engine.ops.fill_ops import fill, ones, ones_like, zeros, zeros_like
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import rank as _rank, shape as _shape
from engine.ops.sparse_ops import (convert_to_sparse_tensor, sparse_reorder,
                                   sparse_tensor_to_dense)


def _convert_to_sparse_tensors(sp_inputs):
    if isinstance(sp_inputs, list):
        return [convert_to_sparse_tensor(sp_input) for sp_input in sp_inputs]
    if isinstance(sp_inputs, tuple):
        return (convert_to_sparse_tensor(sp_input) for sp_input in sp_inputs)
    raise TypeError("Inputs must be a list or tuple.")


def _make_int64_tensor(value, name):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return convert_to_tensor(value, name=name, dtype=dtypes.int64)
    if not isinstance(value, Tensor):
        raise TypeError("{} must be an integer value".format(name))
    if value.dtype == dtypes.int64:
        return value
    return cast(value, dtypes.int64)


def from_dense(tensor, name=None):
    """tf.sparse.from_dense: the non-zero entries of a dense tensor."""
    with name_scope(name, "dense_to_sparse"):
        tensor = convert_to_tensor(tensor)
        indices = array_ops.where_v2(math_ops.not_equal(tensor, zeros_like(tensor)))
        values = array_ops.gather_nd(tensor, indices)
        shape = _shape(tensor, out_type=dtypes.int64)
        return SparseTensor(indices, values, shape)


def sparse_expand_dims(sp_input, axis=None, name=None):
    """tf.sparse.expand_dims: a dimension of size 1 inserted at `axis` (-1: last)."""
    rank = sp_input.dense_shape.get_shape()[0]
    rank = getattr(rank, "value", rank)
    if rank is None:
        rank = _shape(sp_input.dense_shape)[0]
    axis = -1 if axis is None else axis
    with name_scope(name, "expand_dims", [sp_input]):
        if isinstance(axis, numbers.Integral):
            axis = convert_to_tensor(axis, name="axis", dtype=dtypes.int32)
        elif not isinstance(axis, Tensor):
            raise TypeError("axis must be an integer value in range [-rank(sp_input) - 1, "
                            "rank(sp_input)]")
        axis = array_ops.where_v2(axis >= 0, axis, axis + rank + 1)
        column_size = _shape(sp_input.indices)[0]
        new_index = zeros([column_size, 1], dtype=dtypes.int64)
        indices_before = array_ops.slice(sp_input.indices, [0, 0], [-1, axis])
        indices_after = array_ops.slice(sp_input.indices, [0, axis], [-1, -1])
        indices = array_ops.concat([indices_before, new_index, indices_after], axis=1)
        shape_before = array_ops.slice(sp_input.dense_shape, [0], [axis])
        shape_after = array_ops.slice(sp_input.dense_shape, [axis], [-1])
        new_shape = convert_to_tensor([1], name="new_shape", dtype=dtypes.int64)
        shape = array_ops.concat([shape_before, new_shape, shape_after], axis=0)
        return SparseTensor(indices=indices, values=sp_input.values, dense_shape=shape)


def sparse_eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """tf.sparse.eye: ones on the diagonal of a [num_rows, num_columns] SparseTensor."""
    with name_scope(name, "eye", [num_rows, num_columns]):
        num_rows = _make_int64_tensor(num_rows, "num_rows")
        num_columns = num_rows if num_columns is None else _make_int64_tensor(
            num_columns, "num_columns")
        diag_size = math_ops.minimum(num_rows, num_columns)
        diag_range = math_ops.range(diag_size, dtype=dtypes.int64)
        return SparseTensor(indices=array_ops.stack([diag_range, diag_range], axis=1),
                            values=ones(diag_size, dtype=dtype),
                            dense_shape=[num_rows, num_columns])


def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
    """tf.sparse.concat (TF 1.x): the inputs side by side along `axis`; with
    expand_nonconcat_dim the other dimensions grow to the largest input's."""
    if expand_nonconcat_dims is not None:
        expand_nonconcat_dim = expand_nonconcat_dims
    axis = deprecated_argument_lookup("axis", axis, "concat_dim", concat_dim)
    sp_inputs = _convert_to_sparse_tensors(sp_inputs)
    if len(sp_inputs) == 1:
        return sp_inputs[0]
    inds = [sp_input.indices for sp_input in sp_inputs]
    vals = [sp_input.values for sp_input in sp_inputs]
    shapes = [sp_input.dense_shape for sp_input in sp_inputs]
    if expand_nonconcat_dim:
        max_shape = math_ops.reduce_max(
            array_ops.concat([array_ops.reshape(shape, [1, -1]) for shape in shapes], 0), 0)
        shapes = [array_ops.concat([max_shape[:axis],
                                    shape[-1:] if axis == -1 else shape[axis:axis + 1],
                                    [] if axis == -1 else max_shape[axis + 1:]], 0)
                  for shape in shapes]
    output_ind, output_val, output_shape = apply_op(
        "SparseConcat", indices=inds, values=vals, shapes=shapes, concat_dim=axis, name=name)
    input_shapes = [inp.shape for inp in sp_inputs]
    if all(shape.ndims is not None for shape in input_shapes):
        if expand_nonconcat_dim:
            static_output_shape = []
            for dim in range(input_shapes[0].ndims):
                sizes = [shape.as_list()[dim] for shape in input_shapes]
                static_output_shape.append(None if None in sizes else max(sizes))
        else:
            static_output_shape = input_shapes[0].as_list()
        sizes = [shape.as_list()[axis] for shape in input_shapes]
        static_output_shape[axis] = None if None in sizes else sum(sizes)
    else:
        static_output_shape = unknown_shape()
    if all(shape.is_fully_defined() for shape in input_shapes):
        output_shape = convert_to_tensor(static_output_shape, dtype=dtypes.int64)
        return SparseTensor(output_ind, output_val, output_shape)
    output = SparseTensor(output_ind, output_val, output_shape)
    output.set_shape(TensorShape(static_output_shape))
    return output


def _real(dtype):
    """A complex dtype's real part's dtype (the threshold's), else the dtype itself."""
    return {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}.get(
        dtype.base_dtype, dtype.base_dtype)


def sparse_add(a, b, threshold=None, thresh=None):
    """tf.sparse.add (TF 1.x): two SparseTensors summed into one (sums of magnitude below
    `threshold` dropped), or a SparseTensor and a dense tensor into a dense one."""
    threshold = deprecated_argument_lookup("threshold", threshold, "thresh", thresh)
    if threshold is None:
        threshold = 0
    sparse_classes = (SparseTensor, SparseTensorValue)
    if not any(isinstance(inp, sparse_classes) for inp in [a, b]):
        raise TypeError("At least one input should be SparseTensor; do you mean to use "
                        "tf.add()?")
    if all(isinstance(inp, sparse_classes) for inp in [a, b]):
        a = convert_to_sparse_tensor(a)
        b = convert_to_sparse_tensor(b)
        threshold = convert_to_tensor(threshold, dtype=_real(a.values.dtype),
                                      name="threshold")
        output_ind, output_val, output_shape = apply_op(
            "SparseAdd", a_indices=a.indices, a_values=a.values, a_shape=a.dense_shape,
            b_indices=b.indices, b_values=b.values, b_shape=b.dense_shape, thresh=threshold)
        a.get_shape().assert_is_compatible_with(b.get_shape())
        static_shape = broadcast_static_shape(a.get_shape(), b.get_shape())
        if static_shape.is_fully_defined():
            output_shape = static_shape.as_list()
        return SparseTensor(output_ind, output_val, output_shape)
    if isinstance(b, sparse_classes):
        a, b = b, a
    return apply_op("SparseTensorDenseAdd", a_indices=a.indices, a_values=a.values,
                    a_shape=a.dense_shape, b=b)


def sparse_dense_cwise_add(sp_t, dense_t):
    """The dense tensor (broadcast to the sparse one's shape) added at the sparse entries."""
    result = apply_op("SparseDenseCwiseAdd", sp_indices=sp_t.indices, sp_values=sp_t.values,
                      sp_shape=sp_t.dense_shape, dense=dense_t)
    return SparseTensor(sp_t.indices, result, sp_t.dense_shape)


class KeywordRequired:
    def __repr__(self):
        return "KeywordRequired()"


def sparse_split(keyword_required=KeywordRequired(), sp_input=None, num_split=None,
                 axis=None, name=None, split_dim=None):
    """tf.sparse.split (TF 1.x): `num_split` SparseTensors along `axis` (keywords only)."""
    if not isinstance(keyword_required, KeywordRequired):
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if axis is None:
        raise ValueError("axis is required")
    axis = deprecated_argument_lookup("axis", axis, "split_dim", split_dim)
    sp_input = convert_to_sparse_tensor(sp_input)
    outputs = apply_op("SparseSplit", split_dim=axis,
                       indices=sp_input.indices, values=sp_input.values,
                       shape=sp_input.dense_shape, num_split=num_split, name=name)
    output_inds = outputs[:num_split]
    output_vals = outputs[num_split:2 * num_split]
    output_shapes = outputs[2 * num_split:]
    return [SparseTensor(output_inds[i], output_vals[i], output_shapes[i])
            for i in range(num_split)]


def _reduction_dims(sp_input, axis):
    if axis is not None:
        return axis
    rank = sp_input.dense_shape.shape.as_list()[0] if \
        sp_input.dense_shape.shape.is_fully_defined() else None
    if rank:
        return constant(np.arange(rank, dtype=np.int32))
    return math_ops.range(0, _rank(sp_input))


def _sparse_reducer(op_type, sparse_output):
    def reducer(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
        keepdims = deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
        axis = deprecated_argument_lookup("axis", axis, "reduction_axes", reduction_axes)
        if keepdims is None:
            keepdims = False
        result = apply_op(op_type, input_indices=sp_input.indices,
                          input_values=sp_input.values, input_shape=sp_input.dense_shape,
                          reduction_axes=_reduction_dims(sp_input, axis), keep_dims=keepdims)
        return SparseTensor(*result) if sparse_output else result
    return reducer


sparse_reduce_max = _sparse_reducer("SparseReduceMax", False)
sparse_reduce_max.__name__ = "sparse_reduce_max"
sparse_reduce_max.__doc__ = ("tf.sparse.reduce_max (TF 1.x): the largest explicit entry of "
                             "each group (0 where a group has none), a dense tensor.")
sparse_reduce_max_sparse = _sparse_reducer("SparseReduceMaxSparse", True)
sparse_reduce_max_sparse.__name__ = "sparse_reduce_max_sparse"
sparse_reduce_max_sparse.__doc__ = "tf.sparse.reduce_max_sparse: reduce_max as a SparseTensor."
sparse_reduce_sum = _sparse_reducer("SparseReduceSum", False)
sparse_reduce_sum.__name__ = "sparse_reduce_sum"
sparse_reduce_sum.__doc__ = "tf.sparse.reduce_sum (TF 1.x): sums over `axis`, dense."
sparse_reduce_sum_sparse = _sparse_reducer("SparseReduceSumSparse", True)
sparse_reduce_sum_sparse.__name__ = "sparse_reduce_sum_sparse"
sparse_reduce_sum_sparse.__doc__ = "tf.sparse.reduce_sum_sparse: reduce_sum as a SparseTensor."


def sparse_merge_impl(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """sparse_ops.sparse_merge_impl: ids and values as one SparseTensor whose last dimension
    is the id."""
    if isinstance(sp_ids, (SparseTensorValue, SparseTensor)):
        sp_ids = [sp_ids]
        if not (isinstance(vocab_size, Tensor) or isinstance(vocab_size, numbers.Integral)):
            raise TypeError("vocab_size has to be a Tensor or Python int. Found %s"
                            % type(vocab_size))
        vocab_size = [vocab_size]
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    with name_scope(name, "SparseMerge", [sp_ids, sp_values]):
        sp_ids = [convert_to_sparse_tensor(sp_ids_dim) for sp_ids_dim in sp_ids]
        sp_values = convert_to_sparse_tensor(sp_values)
        ids = []
        for sp_ids_dim in sp_ids:
            ids_dim = sp_ids_dim.values
            if sp_ids_dim.dtype != dtypes.int64:
                ids_dim = cast(ids_dim, dtypes.int64)
            ids += [array_ops.expand_dims(ids_dim, axis=1)]
        vocab_size = [cast(x, dtypes.int64) for x in vocab_size]
        indices_columns_to_preserve = sp_ids[0].indices[:, :-1]
        new_indices = array_ops.concat([indices_columns_to_preserve] + ids, 1)
        new_shape = array_ops.concat([sp_ids[0].dense_shape[:-1], vocab_size], 0)
        result = SparseTensor(new_indices, sp_values.values, new_shape)
        if already_sorted:
            return result
        sorted_result = sparse_reorder(result)
        return SparseTensor(sorted_result.indices, sorted_result.values, new_shape)


def sparse_to_indicator(sp_input, vocab_size, name=None):
    """tf.sparse.to_indicator: a dense bool tensor one longer in rank, True at each id."""
    sp_input = convert_to_sparse_tensor(sp_input)
    with name_scope(name, "SparseToIndicator", [sp_input]) as name:
        num_entries = _shape(sp_input.indices)[0]
        new_values = fill(array_ops.expand_dims(num_entries, 0), True)
        sp_values = SparseTensor(sp_input.indices, new_values, sp_input.dense_shape)
        sp_new = sparse_merge_impl(sp_input, sp_values, vocab_size, name)
        return sparse_tensor_to_dense(sp_new, default_value=False, validate_indices=False,
                                      name=name)


def sparse_reset_shape(sp_input, new_shape=None):
    """tf.sparse.reset_shape: the same entries in `new_shape` (checked not smaller), or in
    the tightest shape holding them."""
    sp_input = convert_to_sparse_tensor(sp_input)
    in_indices = array_ops.identity(sp_input.indices)
    in_values = array_ops.identity(sp_input.values)
    in_shape = array_ops.identity(sp_input.dense_shape)
    if new_shape is None:
        dim_low_bound = math_ops.reduce_max(in_indices, axis=0)
        output_shape_tensor = math_ops.maximum(constant(0, dtype=dtypes.int64),
                                               math_ops.add(dim_low_bound, ones_like(in_shape)))
    else:
        output_shape_tensor = convert_to_tensor(new_shape)
        output_shape_tensor.get_shape().assert_has_rank(1)
        output_shape_tensor = cast(output_shape_tensor, dtypes.int64)
        if output_shape_tensor.get_shape().ndims is not None:
            output_shape_tensor.get_shape().dims[0].assert_is_compatible_with(
                in_shape.get_shape().dims[0])
        output_shape_tensor_const = constant_value(output_shape_tensor)
        if output_shape_tensor_const is not None and sp_input.get_shape().is_fully_defined():
            in_shape_const = np.array(sp_input.get_shape().as_list())
            if not np.all(in_shape_const <= output_shape_tensor_const):
                raise ValueError("Requested new_shape should have dimension sizes >= "
                                 "sp_input.shape.  Found new_shape (%s), sp_input.shape (%s)."
                                 % (in_shape_const, output_shape_tensor_const))
            output_shape_tensor = output_shape_tensor_const
        else:
            output_shape_tensor = with_dependencies(
                [check_ops.assert_equal(_shape(in_shape), _shape(output_shape_tensor))],
                output_shape_tensor)
            output_shape_tensor = with_dependencies(
                [check_ops.assert_less_equal(in_shape, output_shape_tensor)],
                output_shape_tensor)
    return SparseTensor(in_indices, in_values, output_shape_tensor)


def sparse_softmax(sp_input, name=None):
    """tf.sparse.softmax: the softmax of each innermost row's explicit entries."""
    with name_scope(name, "SparseSoftmax", [sp_input.indices, sp_input.values]):
        out_vals = apply_op("SparseSoftmax", sp_indices=sp_input.indices,
                            sp_values=sp_input.values, sp_shape=sp_input.dense_shape)
        return SparseTensor(sp_input.indices, out_vals, sp_input.dense_shape)


def _sparse_min_or_max(op_type, scope):
    def fn(sp_a, sp_b, name=None):
        with name_scope(name, scope, [sp_a.indices, sp_a.values, sp_b.indices,
                                      sp_b.values]) as name:
            out_indices, out_values = apply_op(
                op_type, a_indices=sp_a.indices, a_values=sp_a.values, a_shape=sp_a.dense_shape,
                b_indices=sp_b.indices, b_values=sp_b.values, b_shape=sp_b.dense_shape,
                name=name)
        return SparseTensor(out_indices, out_values, sp_a.dense_shape)
    return fn


sparse_maximum = _sparse_min_or_max("SparseSparseMaximum", "SparseSparseMaximum")
sparse_maximum.__name__ = "sparse_maximum"
sparse_maximum.__doc__ = "tf.sparse.maximum: the element-wise max (absent entries are 0)."
sparse_minimum = _sparse_min_or_max("SparseSparseMinimum", "SparseSparseMinimum")
sparse_minimum.__name__ = "sparse_minimum"
sparse_minimum.__doc__ = "tf.sparse.minimum: the element-wise min (absent entries are 0)."


def sparse_transpose(sp_input, perm=None, name=None):
    """tf.sparse.transpose: the dimensions permuted (reversed by default), reordered."""
    with name_scope(name, "SparseTranspose", [sp_input]):
        if perm is None:
            if sp_input.shape.ndims is not None:
                rank = sp_input.shape.ndims
                perm = rank - 1 - np.arange(0, rank, 1)
            else:
                rank = _rank(sp_input)
                perm = rank - 1 - math_ops.range(0, rank, 1)
        indices = sp_input.indices
        transposed_indices = array_ops.transpose(
            array_ops.gather(array_ops.transpose(indices), perm))
        perm_ = constant_value(convert_to_tensor(perm))
        if perm_ is not None and sp_input.get_shape().is_fully_defined():
            old_shape_ = sp_input.get_shape().as_list()
            transposed_dense_shape = list(old_shape_)
            for i, p in enumerate(perm_):
                transposed_dense_shape[i] = old_shape_[p]
        else:
            transposed_dense_shape = array_ops.gather(sp_input.dense_shape, perm)
        transposed_st = SparseTensor(transposed_indices, sp_input.values,
                                     transposed_dense_shape)
        return sparse_reorder(transposed_st)


def serialize_sparse(sp_input, name=None, out_type=dtypes.string):
    """tf.serialize_sparse: [indices, values, shape] as three serialized TensorProtos."""
    sp_input = convert_to_sparse_tensor(sp_input)
    return apply_op("SerializeSparse", sparse_indices=sp_input.indices,
                    sparse_values=sp_input.values, sparse_shape=sp_input.dense_shape,
                    name=name, out_type=out_type)


def serialize_many_sparse(sp_input, name=None, out_type=dtypes.string):
    """tf.serialize_many_sparse: each minibatch entry serialized, an [N, 3] matrix."""
    sp_input = convert_to_sparse_tensor(sp_input)
    return apply_op("SerializeManySparse", sparse_indices=sp_input.indices,
                    sparse_values=sp_input.values, sparse_shape=sp_input.dense_shape,
                    name=name, out_type=out_type)


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """tf.deserialize_many_sparse: serialized SparseTensors stacked into one."""
    output_indices, output_values, output_shape = apply_op(
        "DeserializeManySparse", serialized_sparse=serialized_sparse, dtype=dtype, name=name)
    output_indices.set_shape([None, rank])
    output_shape.set_shape([rank])
    return SparseTensor(output_indices, output_values, output_shape)


def sparse_mask(a, mask_indices, name=None):
    """tf.sparse.mask: the slices of IndexedSlices `a` whose indices are not in
    `mask_indices`."""
    with name_scope(name, "sparse_mask", [a, mask_indices]) as name:
        indices = a.indices
        out_indices, to_gather = apply_op("ListDiff", x=indices, y=mask_indices,
                                          out_idx=dtypes.int32)
        out_values = array_ops.gather(a.values, to_gather, name=name)
        return IndexedSlices(out_values, out_indices, a.dense_shape)


def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False,
                  b_is_sparse=False, name=None):
    """tf.sparse_matmul: a float32 matrix product whose inputs may be marked mostly zero."""
    return apply_op("SparseMatMul", a=a, b=b, transpose_a=transpose_a,
                    transpose_b=transpose_b, a_is_sparse=a_is_sparse,
                    b_is_sparse=b_is_sparse, name=name)


def _validate_sparse_weights(values, weights, dtype=None):
    if weights is None:
        return constant([], dtype=dtype or values.values.dtype)
    if not isinstance(weights, SparseTensor):
        raise ValueError("Argument `weights` must be a SparseTensor if `values` is a "
                         f"SparseTensor. Received weights={weights} of type: "
                         f"{type(weights).__name__}")
    checks = []
    if weights.dense_shape is not values.dense_shape:
        checks.append(check_ops.assert_equal(
            weights.dense_shape, values.dense_shape,
            message="'weights' and 'values' must have the same dense shape."))
    if weights.indices is not values.indices:
        checks.append(check_ops.assert_equal(
            weights.indices, values.indices,
            message="'weights' and 'values' must have the same indices."))
    if checks:
        with get_default_graph().control_dependencies(checks):
            return array_ops.identity(weights.values)
    return weights.values


def sparse_bincount(values, weights=None, axis=0, minlength=None, maxlength=None,
                    binary_output=False, name=None):
    """tf.sparse.bincount: the counts (or summed weights, or ones) of each value, over all
    values (axis 0) or per row (axis -1), as a SparseTensor."""
    with name_scope(name, "count", [values, weights]):
        if not isinstance(values, SparseTensor):
            values = convert_to_tensor(values, name="values")
        if weights is not None and not isinstance(weights, (SparseTensor, IndexedSlices)):
            weights = convert_to_tensor(weights, name="weights")
        if weights is not None and binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                             "Please specify only one.")
        if axis is None:
            axis = 0
        if axis not in [0, -1]:
            raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                             "currently supported.")
        minlength_value = minlength if minlength is not None else -1
        maxlength_value = maxlength if maxlength is not None else -1
        if axis == 0:
            if isinstance(values, SparseTensor):
                if weights is not None:
                    weights = _validate_sparse_weights(values, weights)
                values = values.values
            else:
                if weights is not None:
                    weights = array_ops.reshape(weights, [-1])
                values = array_ops.reshape(values, [-1])
        if isinstance(values, SparseTensor):
            weights = _validate_sparse_weights(values, weights)
            c_ind, c_val, c_shape = apply_op(
                "SparseCountSparseOutput", indices=values.indices, values=values.values,
                dense_shape=values.dense_shape, weights=weights, minlength=minlength_value,
                maxlength=maxlength_value, binary_output=binary_output)
        else:
            if weights is None:
                weights = constant([], dtype=values.dtype)
            elif not isinstance(weights, Tensor):
                raise ValueError("Argument `weights` must be a tf.Tensor if `values` is a "
                                 f"tf.Tensor. Received weights={weights} of type: "
                                 f"{type(weights).__name__}")
            c_ind, c_val, c_shape = apply_op(
                "DenseCountSparseOutput", values=values, weights=weights,
                minlength=minlength_value, maxlength=maxlength_value,
                binary_output=binary_output)
        return SparseTensor(c_ind, c_val, c_shape)
