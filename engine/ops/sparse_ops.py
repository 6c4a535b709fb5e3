"""tf.sparse's ops the feature columns and the sparse embedding lookups build on, as
TensorFlow's sparse_ops.py writes them: sparse_reshape, sparse_fill_empty_rows, sparse_retain,
sparse_tensor_to_dense; and the gradient of SparseFillEmptyRows (sparse_grad.py)."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.sparse_tensor import SparseTensor, SparseTensorValue
from engine.framework.tensor_shape import TensorShape
from engine.framework.tensor_util import constant_value, constant_value_as_shape
from engine.ops import array_ops
from engine.ops.cast import cast
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.fill_ops import zeros
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.op_def_library import apply_op


def convert_to_sparse_tensor(sp_input):
    """A SparseTensor as itself, a SparseTensorValue as constants; anything else TypeError."""
    if isinstance(sp_input, SparseTensorValue):
        return SparseTensor(sp_input.indices, sp_input.values, sp_input.dense_shape)
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    return sp_input


def sparse_reshape(sp_input, shape, name=None):
    """tf.sparse.reshape: the same entries in a dense shape of as many elements; a static
    target shape (the input's shape known) is checked and becomes a constant, as TF does."""
    sp_input = convert_to_sparse_tensor(sp_input)
    shape = cast(shape, dtype=dtypes.int64)
    with name_scope(name, "SparseReshape", [sp_input]) as name:
        reshaped_ind, reshaped_shape = apply_op("SparseReshape", input_indices=sp_input.indices,
                                                input_shape=sp_input.dense_shape,
                                                new_shape=shape, name=name)
        const = constant_value_as_shape(shape)
        const = const.as_list() if const.ndims is not None else None
        if const is not None and sp_input.shape.is_fully_defined():
            by_user = constant_value(shape)
            if by_user is not None and sum(d == -1 for d in by_user) > 1:
                raise ValueError("At most one dimension can be inferred (-1). Found: %s"
                                 % by_user)
            original = list(const)
            in_size = np.prod(sp_input.shape.as_list())
            implied = sum(dim is None for dim in const)
            if implied == 1 and 0 not in const:
                at = original.index(None)
                const[at] = int(in_size // np.prod(original[:at] + original[at + 1:]))
            if implied == 0 or (implied == 1 and 0 not in const):
                size = np.prod(const)
                if size != in_size:
                    raise ValueError("Cannot reshape a tensor with %d elements to shape %s "
                                     "(%d elements)." % (in_size, original, size))
                reshaped_shape = constant(const, dtype=dtypes.int64)
        return SparseTensor(reshaped_ind, array_ops.identity(sp_input.values), reshaped_shape)


def sparse_fill_empty_rows(sp_input, default_value, name=None):
    """tf.sparse.fill_empty_rows: (the filled SparseTensor, which rows were empty)."""
    sp_input = convert_to_sparse_tensor(sp_input)
    with name_scope(name, "SparseFillEmptyRows", [sp_input]):
        default_value = convert_to_tensor(default_value, dtype=sp_input.values.dtype)
        indices, values, empty_row_indicator, _ = apply_op(
            "SparseFillEmptyRows", indices=sp_input.indices, values=sp_input.values,
            dense_shape=sp_input.dense_shape, default_value=default_value)
        return SparseTensor(indices, values, sp_input.dense_shape), empty_row_indicator


def sparse_retain(sp_input, to_retain):
    """tf.sparse.retain: the entries where the boolean vector `to_retain` is true."""
    sp_input = convert_to_sparse_tensor(sp_input)
    to_retain = convert_to_tensor(to_retain)
    retain_shape = to_retain.get_shape()
    retain_shape.assert_has_rank(1)
    values_shape = sp_input.values.get_shape()
    if values_shape.ndims is not None:
        values_shape[:1].assert_is_compatible_with(TensorShape(retain_shape.as_list()[:1]))
    where_true = array_ops.reshape(array_ops.where_v2(to_retain), [-1])
    new_indices = array_ops.gather(sp_input.indices, where_true)
    new_values = array_ops.gather(sp_input.values, where_true)
    return SparseTensor(new_indices, new_values, array_ops.identity(sp_input.dense_shape))


def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """tf.sparse.to_dense: a SparseToDense of the three parts."""
    sp_input = convert_to_sparse_tensor(sp_input)
    if default_value is None:
        default_value = zeros([], dtype=sp_input.dtype)
    return apply_op("SparseToDense", sparse_indices=sp_input.indices,
                    output_shape=sp_input.dense_shape, sparse_values=sp_input.values,
                    default_value=default_value, validate_indices=validate_indices, name=name)


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0,
                    validate_indices=True, name=None):
    """tf.sparse_to_dense (TF 1.x): a dense tensor of `output_shape` with `sparse_values` at
    `sparse_indices`, `default_value` elsewhere."""
    return apply_op("SparseToDense", sparse_indices=sparse_indices, output_shape=output_shape,
                    sparse_values=sparse_values, default_value=default_value,
                    validate_indices=validate_indices, name=name)


@RegisterGradient("SparseFillEmptyRows")
def _sparse_fill_empty_rows_grad(op, unused_grad_indices, output_grad_values,
                                 unused_grad_empty_row_indicator,
                                 unused_grad_reverse_index_map):
    d_values, d_default_value = apply_op("SparseFillEmptyRowsGrad",
                                         reverse_index_map=op.outputs[3],
                                         grad_values=output_grad_values)
    return [None, d_values, None, d_default_value]


_DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _sparse_cross_internal(inputs, hashed_output=False, num_buckets=0, hash_key=None,
                           name=None):
    from engine.framework.tensor import Tensor
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    if not all(isinstance(i, (SparseTensor, Tensor)) for i in inputs):
        raise TypeError("All inputs must be SparseTensors")
    sparse_inputs = [i for i in inputs if isinstance(i, SparseTensor)]
    dense_inputs = [i for i in inputs if not isinstance(i, SparseTensor)]
    indices = [sp_input.indices for sp_input in sparse_inputs]
    values = [sp_input.values for sp_input in sparse_inputs]
    shapes = [sp_input.dense_shape for sp_input in sparse_inputs]
    out_type = dtypes.int64 if hashed_output else dtypes.string
    internal_type = dtypes.string
    for i in range(len(values)):
        if values[i].dtype != dtypes.string:
            values[i] = cast(values[i], dtypes.int64)
            internal_type = dtypes.int64
    for i in range(len(dense_inputs)):
        if dense_inputs[i].dtype != dtypes.string:
            dense_inputs[i] = cast(dense_inputs[i], dtypes.int64)
            internal_type = dtypes.int64
    indices_out, values_out, shape_out = apply_op(
        "SparseCross", indices=indices, values=values, shapes=shapes,
        dense_inputs=dense_inputs, hashed_output=hashed_output, num_buckets=num_buckets,
        hash_key=hash_key or _DEFAULT_HASH_KEY, out_type=out_type,
        internal_type=internal_type, name=name)
    return SparseTensor(indices_out, values_out, shape_out)


def sparse_cross(inputs, name=None, separator=None):
    """tf.sparse.cross: the string crosses of the rows of sparse and dense inputs, joined by
    `separator` ("_X_"), through SparseCrossV2 as TensorFlow 2.21 builds it."""
    from engine.framework.tensor import Tensor
    if separator is None:
        separator = "_X_"
    separator = convert_to_tensor(separator, dtypes.string)
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    if not all(isinstance(i, (SparseTensor, Tensor)) for i in inputs):
        raise TypeError("All inputs must be Tensor or SparseTensor.")
    sparse_inputs = [i for i in inputs if isinstance(i, SparseTensor)]
    dense_inputs = [i for i in inputs if not isinstance(i, SparseTensor)]
    values = [sp.values if sp.values.dtype == dtypes.string else cast(sp.values, dtypes.int64)
              for sp in sparse_inputs]
    dense_inputs = [d if d.dtype == dtypes.string else cast(d, dtypes.int64)
                    for d in dense_inputs]
    indices_out, values_out, shape_out = apply_op(
        "SparseCrossV2", indices=[sp.indices for sp in sparse_inputs], values=values,
        shapes=[sp.dense_shape for sp in sparse_inputs], dense_inputs=dense_inputs,
        sep=separator, name=name)
    return SparseTensor(indices_out, values_out, shape_out)


def sparse_cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """tf.sparse.cross_hashed: the crosses hashed into `num_buckets` (0: any int64)."""
    return _sparse_cross_internal(inputs=inputs, hashed_output=True, num_buckets=num_buckets,
                                  hash_key=hash_key, name=name)


def sparse_reorder(sp_input, name=None):
    """tf.sparse.reorder: the entries in row-major order."""
    sp_input = convert_to_sparse_tensor(sp_input)
    indices, values = apply_op("SparseReorder", input_indices=sp_input.indices,
                               input_values=sp_input.values, input_shape=sp_input.dense_shape,
                               name=name)
    if sp_input.get_shape().is_fully_defined():
        return SparseTensor(indices, values, sp_input.get_shape().as_list())
    return SparseTensor(indices, values, array_ops.identity(sp_input.dense_shape))


def sparse_slice(sp_input, start, size, name=None):
    """tf.sparse.slice: the entries in [start, start + size), indices from 0."""
    sp_input = convert_to_sparse_tensor(sp_input)
    start = convert_to_tensor(start, dtypes.int64)
    size = convert_to_tensor(size, dtypes.int64)
    with name_scope(name, "SparseSlice", [sp_input]) as name:
        indices, values, shape = apply_op("SparseSlice", indices=sp_input.indices,
                                          values=sp_input.values, shape=sp_input.dense_shape,
                                          start=start, size=size, name=name)
        return SparseTensor(indices, values, shape)


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """tf.sparse.merge (TF 1.x): ids and values of the same entries as one SparseTensor whose
    last dimension is the id (one SparseTensor of ids and one vocab_size)."""
    if isinstance(sp_ids, (SparseTensor, SparseTensorValue)):
        sp_ids, vocab_size = [sp_ids], [vocab_size]
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    with name_scope(name, "SparseMerge", [sp_ids, sp_values]):
        sp_ids = [convert_to_sparse_tensor(s) for s in sp_ids]
        sp_values = convert_to_sparse_tensor(sp_values)
        ids = []
        for sp_ids_dim in sp_ids:
            ids_dim = sp_ids_dim.values
            if sp_ids_dim.dtype != dtypes.int64:
                ids_dim = cast(ids_dim, dtypes.int64)
            ids.append(array_ops.expand_dims(ids_dim, axis=1))
        vocab_size = [cast(x, dtypes.int64) for x in vocab_size]
        new_indices = array_ops.concat([sp_ids[0].indices[:, :-1]] + ids, 1)
        new_shape = array_ops.concat([sp_ids[0].dense_shape[:-1], vocab_size], 0)
        result = SparseTensor(new_indices, sp_values.values, new_shape)
        if already_sorted:
            return result
        sorted_result = sparse_reorder(result)
        return SparseTensor(sorted_result.indices, sorted_result.values, new_shape)


@RegisterGradient("SparseReorder")
def _sparse_reorder_grad(op, unused_output_indices_grad, output_values_grad):
    from engine.ops.math_ops import range as _range
    from engine.ops.shape_ops import shape
    input_indices, input_shape = op.inputs[0], op.inputs[2]
    num_entries = shape(input_indices)[0]
    entry_indices = _range(num_entries)
    sp_ordered = sparse_reorder(SparseTensor(input_indices, entry_indices, input_shape))
    inverted_permutation = apply_op("InvertPermutation", x=sp_ordered.values)
    return (None, array_ops.gather(output_values_grad, inverted_permutation), None)


@RegisterGradient("SparseSlice")
def _sparse_slice_grad(op, *grads):
    val_grad = apply_op("SparseSliceGrad", backprop_val_grad=grads[1],
                        input_indices=op.inputs[0], input_start=op.inputs[3],
                        output_indices=op.outputs[0])
    val_grad.set_shape(op.inputs[1].get_shape())
    return (None, val_grad, None, None, None)
