"""Gradient of RaggedTensorToTensor, ported from TensorFlow's ragged_conversion_ops.py: the
padded output's gradient goes back to the flat values it came from (IndexedSlices), and what
the default filled is summed into default_value's gradient."""

from engine.framework import dtypes
from engine.ops import array_ops, math_ops
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.indexed_slices import IndexedSlices, dense
from engine.ops.op_def_library import apply_op


def _rank_ignoring_leading_ones(value):
    """The rank of `value` less its leading dimensions of size 1 (static where known)."""
    dims = value.shape.as_list() if value.shape.ndims is not None else None
    if dims is not None:
        rank = len(dims)
        for dim in dims:
            if dim is None:
                break
            if dim != 1:
                return rank
            rank -= 1
        else:
            return rank
    shape = array_ops.shape(value)
    leading = math_ops.cumprod(math_ops.cast(math_ops.equal(shape, 1), dtypes.int32))
    return array_ops.rank(value) - math_ops.reduce_sum(leading)


@RegisterGradient("RaggedTensorToTensor")
def _ragged_tensor_to_tensor_grad(op, grad):
    grad = dense(grad)
    flat_values, default_value = op.inputs[1], op.inputs[2]
    partitions = list(op.inputs[3:])
    kinds = op.get_attr("row_partition_types")
    ragged_rank = sum(1 for kind in kinds if kind not in (b"FIRST_DIM_SIZE", "FIRST_DIM_SIZE"))
    flat_shape = array_ops.shape(flat_values)
    # indices[i...]: the flat value output[i...] came from, or -1 where the default filled it
    indices = apply_op("RaggedTensorToTensor",
                       shape=array_ops.shape(grad)[:1 + ragged_rank],
                       values=math_ops.range(flat_shape[0]),
                       default_value=-1, row_partition_tensors=partitions,
                       row_partition_types=kinds)
    mask = math_ops.not_equal(indices, -1)
    values_grad = IndexedSlices(values=array_ops.boolean_mask(grad, mask),
                                indices=array_ops.boolean_mask(indices, mask),
                                dense_shape=flat_shape)
    default_grads = array_ops.boolean_mask(grad, math_ops.logical_not(mask))
    reduce = math_ops.range(array_ops.rank(default_grads)
                            - _rank_ignoring_leading_ones(default_value))
    default_grad = array_ops.reshape(math_ops.reduce_sum(default_grads, axis=reduce),
                                     array_ops.shape(default_value))
    return [None, values_grad, default_grad] + [None] * len(partitions)
