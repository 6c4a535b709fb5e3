"""Gradients of the ragged ops (ragged_conversion_ops.py, ragged_tensor.py,
ragged_array_ops.py, ragged_gather_ops.py): to_tensor's back to the flat values
(IndexedSlices) and the default value, to_sparse's values reshaped, RaggedGather's rows back
to the params' values, RaggedFillEmptyRows' through RaggedFillEmptyRowsGrad."""

from engine.framework import dtypes
from engine.ops import array_ops, math_ops
from engine.ops.gradient_registry import RegisterGradient, no_gradient
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op

no_gradient("RaggedRange")


@RegisterGradient("RaggedTensorToTensor")
def _ragged_tensor_to_tensor_grad(op, grad):
    flat_values = op.inputs[1]
    default_value = op.inputs[2]
    row_partition_tensors = list(op.inputs[3:])
    row_partition_types = op.get_attr("row_partition_types")
    flat_value_shape = array_ops.shape(flat_values)
    ragged_rank = sum(1 for kind in row_partition_types
                      if kind not in (b"FIRST_DIM_SIZE", "FIRST_DIM_SIZE"))
    indices = apply_op("RaggedTensorToTensor", shape=array_ops.shape(grad)[:1 + ragged_rank],
                       values=math_ops.range(flat_value_shape[0]), default_value=-1,
                       row_partition_types=row_partition_types,
                       row_partition_tensors=row_partition_tensors)
    mask = math_ops.not_equal(indices, -1)
    values_grad = IndexedSlices(values=array_ops.boolean_mask(grad, mask),
                                indices=array_ops.boolean_mask(indices, mask),
                                dense_shape=flat_value_shape)
    default_grads = array_ops.boolean_mask(grad, ~mask)
    dims_to_reduce = math_ops.range(array_ops.rank(default_grads)
                                    - _rank_ignoring_leading_ones(default_value))
    default_grad = math_ops.reduce_sum(default_grads, axis=dims_to_reduce)
    default_grad = array_ops.reshape(default_grad, array_ops.shape(default_value))
    return [None, values_grad, default_grad] + [None for _ in row_partition_tensors]


def _rank_ignoring_leading_ones(value):
    if value.shape.rank is not None:
        ndims = value.shape.rank
        for dim in value.shape.dims:
            if dim.value == 1:
                ndims -= 1
            elif dim.value is None:
                ndims = None
                break
            else:
                break
        if ndims is not None:
            return ndims
    shape = array_ops.shape(value)
    dim_is_one = math_ops.cast(math_ops.equal(shape, 1), dtypes.int32)
    leading_ones = math_ops.cumprod(dim_is_one)
    return array_ops.rank(value) - math_ops.reduce_sum(leading_ones)


@RegisterGradient("RaggedTensorToSparse")
def _ragged_tensor_to_sparse_grad(op, unused_indices_grad, sparse_values_grad,
                                  unused_shape_grad):
    nested_row_splits = op.inputs[:-1]
    flat_values_shape = array_ops.shape(op.inputs[-1])
    return [None] * len(nested_row_splits) + [
        array_ops.reshape(sparse_values_grad, flat_values_shape)]


@RegisterGradient("RaggedFillEmptyRows")
def _ragged_fill_empty_rows_grad(op, unused_grad_output_indices, output_grad_values,
                                 unused_grad_empty_row_indicator, unused_grad_reverse_index_map):
    d_values, d_default_value = apply_op("RaggedFillEmptyRowsGrad",
                                         reverse_index_map=op.outputs[3],
                                         grad_values=output_grad_values)
    return [None, d_values, None, d_default_value]


@RegisterGradient("RaggedGather")
def _ragged_gather_grad(op, *grads):
    from engine.ops.ragged.ragged_ops import range as ragged_range
    param_nested_splits = op.inputs[:-2]
    param_inner_values = op.inputs[-2]
    indices = op.inputs[-1]
    combined_splits = param_nested_splits[0]
    for row_splits in param_nested_splits[1:]:
        combined_splits = array_ops.gather(row_splits, combined_splits)
    flat_indices = array_ops.reshape(indices, [-1])
    grad_indices = ragged_range(array_ops.gather(combined_splits, flat_indices),
                                array_ops.gather(combined_splits[1:], flat_indices)).values
    values_grad = IndexedSlices(values=grads[-1], indices=grad_indices,
                                dense_shape=array_ops.shape(param_inner_values))
    return [None for _ in param_nested_splits] + [values_grad, None]
