"""Gradients of the ragged ops, ported from TensorFlow's ragged_conversion_ops.py and
ragged_gather_ops.py. RaggedTensorToTensor: the padded output's gradient goes back to the flat
values it came from (IndexedSlices), and what the default filled is summed into
default_value's gradient; RaggedGather: the gathered values' to the positions they came from;
RaggedTensorToSparse: the sparse values' to the flat values."""

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


@RegisterGradient("RaggedGather")
def _ragged_gather_grad(op, *grads):
    """The gathered values' gradient, as IndexedSlices of the params' flat values at the
    positions each gathered row's values came from."""
    splits, values, indices = list(op.inputs[:-2]), op.inputs[-2], op.inputs[-1]
    combined = splits[0]
    for row_splits in splits[1:]:
        combined = array_ops.gather(row_splits, combined)
    flat = array_ops.reshape(indices, [-1])
    _, positions = apply_op("RaggedRange", starts=array_ops.gather(combined, flat),
                            limits=array_ops.gather(combined[1:], flat),
                            deltas=math_ops.cast(1, combined.dtype),
                            Tsplits=dtypes.int64)
    values_grad = IndexedSlices(values=grads[-1], indices=positions,
                                dense_shape=array_ops.shape(values))
    return [None] * len(splits) + [values_grad, None]


@RegisterGradient("RaggedTensorToSparse")
def _ragged_tensor_to_sparse_grad(op, unused_indices_grad, values_grad, unused_shape_grad):
    splits, values = op.inputs[:-1], op.inputs[-1]
    return [None] * len(splits) + [array_ops.reshape(values_grad, array_ops.shape(values))]
