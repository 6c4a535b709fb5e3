"""Gradients of the segment ops, TopKV2, GatherNd and ScatterNd, ported from TensorFlow's
math_grad.py, nn_grad.py and array_grad.py."""

from engine.framework import dtypes
from engine.ops import array_ops, math_ops, segment_ops
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.op_def_library import apply_op
from engine.ops.indexed_slices import IndexedSlices


@RegisterGradient("SegmentSum")
def _segment_sum_grad(op, grad):
    return array_ops.gather(grad, op.inputs[1]), None


@RegisterGradient("SegmentMean")
def _segment_mean_grad(op, grad):
    data_rank = array_ops.rank(op.inputs[0])
    segment_ids_shape = array_ops.shape(op.inputs[1])
    remaining_shape = array_ops.ones(array_ops.expand_dims(data_rank - 1, 0),
                                     dtype=segment_ids_shape.dtype)
    ones_shape = array_ops.concat([segment_ids_shape, remaining_shape], 0)
    ones = array_ops.ones(ones_shape, dtype=grad.dtype)
    scaled_grad = math_ops.divide(grad, segment_ops.segment_sum(ones, op.inputs[1]))
    return array_ops.gather(scaled_grad, op.inputs[1]), None


def _segment_min_or_max_grad(op, grad):
    zeros = array_ops.zeros_like(op.inputs[0], dtype=op.inputs[0].dtype)
    gathered_outputs = array_ops.gather(op.outputs[0], op.inputs[1])
    is_selected = math_ops.equal(op.inputs[0], gathered_outputs)
    num_selected = segment_ops.segment_sum(math_ops.cast(is_selected, grad.dtype),
                                           op.inputs[1])
    weighted_grads = math_ops.divide(grad, num_selected)
    gathered_grads = array_ops.gather(weighted_grads, op.inputs[1])
    return array_ops.where_v2(is_selected, gathered_grads, zeros), None


RegisterGradient("SegmentMax")(_segment_min_or_max_grad)
RegisterGradient("SegmentMin")(_segment_min_or_max_grad)


def _gather_drop_negatives(params, ids, zero_clipped_indices=None, is_positive=None):
    if zero_clipped_indices is None:
        zero_clipped_indices = math_ops.maximum(ids, array_ops.zeros_like(ids))
    gathered = array_ops.gather(params, zero_clipped_indices)
    if is_positive is None:
        is_positive = math_ops.greater_equal(ids, 0)
        is_positive_shape = array_ops.shape(is_positive)
        broadcastable_shape = array_ops.concat(
            [is_positive_shape,
             array_ops.ones([array_ops.rank(gathered) - array_ops.rank(is_positive)],
                            dtype=is_positive_shape.dtype)], axis=0)
        is_positive = array_ops.reshape(is_positive, broadcastable_shape)
        is_positive = is_positive & array_ops.ones_like(gathered, dtype=dtypes.bool)
    zero_slice = array_ops.zeros_like(gathered)
    return (array_ops.where_v2(is_positive, gathered, zero_slice), zero_clipped_indices,
            is_positive)


@RegisterGradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, grad):
    return _gather_drop_negatives(grad, op.inputs[1])[0], None, None


def _unsorted_segment_min_or_max_grad(op, grad):
    gathered_outputs, zero_clipped_indices, is_positive = _gather_drop_negatives(
        op.outputs[0], op.inputs[1])
    is_selected = math_ops.equal(op.inputs[0], gathered_outputs)
    is_selected = math_ops.logical_and(is_selected, is_positive)
    num_selected = segment_ops.unsorted_segment_sum(
        math_ops.cast(is_selected, grad.dtype), op.inputs[1], op.inputs[2])
    weighted_grads = math_ops.divide(grad, num_selected)
    gathered_grads, _, _ = _gather_drop_negatives(weighted_grads, None, zero_clipped_indices,
                                                  is_positive)
    zeros = array_ops.zeros_like(gathered_grads)
    return array_ops.where_v2(is_selected, gathered_grads, zeros), None, None


RegisterGradient("UnsortedSegmentMax")(_unsorted_segment_min_or_max_grad)
RegisterGradient("UnsortedSegmentMin")(_unsorted_segment_min_or_max_grad)


# The products' gradients divide each segment's product by the element, which a zero
# forbids: a segment with one zero sends the product of its other elements to the zero (and
# nothing to the rest), one with two or more zeros sends nothing.

@RegisterGradient("SegmentProd")
def _segment_prod_grad(op, grad):
    data, segment_ids = op.inputs
    is_zero = math_ops.equal(data, 0)
    num_zeros = apply_op("SegmentSum", data=math_ops.cast(is_zero, dtype=dtypes.int32),
                         segment_ids=segment_ids)
    grad = array_ops.where_v2(math_ops.greater(num_zeros, 1), array_ops.zeros_like(grad), grad)
    non_zero_data = array_ops.where_v2(is_zero, array_ops.ones_like(data), data)
    non_zero_prod = apply_op("SegmentProd", data=non_zero_data, segment_ids=segment_ids)
    gathered_prod = array_ops.gather(op.outputs[0], segment_ids)
    gathered_non_zero_prod = array_ops.gather(non_zero_prod, segment_ids)
    prod_divided_by_el = gathered_prod / non_zero_data
    partial_derivative = array_ops.where_v2(is_zero, gathered_non_zero_prod,
                                            prod_divided_by_el)
    gathered_grad = array_ops.gather(grad, segment_ids)
    return gathered_grad * partial_derivative, None


@RegisterGradient("UnsortedSegmentProd")
def _unsorted_segment_prod_grad(op, grad):
    # UnsortedSegmentSum leaves out the negative ids; _gather_drop_negatives gives them 0.
    is_zero = math_ops.equal(op.inputs[0], 0)
    num_zeros = apply_op("UnsortedSegmentSum", data=math_ops.cast(is_zero, dtype=dtypes.int32),
                         segment_ids=op.inputs[1], num_segments=op.inputs[2])
    grad = array_ops.where_v2(math_ops.greater(num_zeros, 1), array_ops.zeros_like(grad), grad)
    non_zero_data = array_ops.where_v2(is_zero, array_ops.ones_like(op.inputs[0]),
                                       op.inputs[0])
    non_zero_prod = apply_op("UnsortedSegmentProd", data=non_zero_data,
                             segment_ids=op.inputs[1], num_segments=op.inputs[2])
    zero_clipped_indices = math_ops.maximum(op.inputs[1], array_ops.zeros_like(op.inputs[1]))
    gathered_prod = array_ops.gather(op.outputs[0], zero_clipped_indices)
    gathered_non_zero_prod = array_ops.gather(non_zero_prod, zero_clipped_indices)
    prod_divided_by_el = gathered_prod / op.inputs[0]  # inf or nan where 0: not chosen
    partial_derivative = array_ops.where_v2(is_zero, gathered_non_zero_prod,
                                            prod_divided_by_el)
    gathered_grad = _gather_drop_negatives(grad, op.inputs[1], zero_clipped_indices)[0]
    return gathered_grad * partial_derivative, None, None


@RegisterGradient("TopKV2")
def _top_k_grad(op, grad, _):
    in_shape = array_ops.shape(op.inputs[0])
    ind_shape = array_ops.shape(op.outputs[1])
    ind_lastdim = array_ops.gather(math_ops.cast(ind_shape, dtypes.int64),
                                   array_ops.size(ind_shape) - 1)
    ind_2d = array_ops.reshape(op.outputs[1], array_ops.stack([-1, ind_lastdim]))
    in_lastdim = array_ops.gather(math_ops.cast(in_shape, dtypes.int64),
                                  array_ops.size(in_shape) - 1)
    outerdim = array_ops.shape(ind_2d)[0]
    ind = array_ops.reshape(
        ind_2d + math_ops.cast(array_ops.expand_dims(
            math_ops.range(0, math_ops.cast(outerdim, dtypes.int64) * in_lastdim,
                           in_lastdim), -1), dtypes.int32), [-1])
    return [array_ops.reshape(
        segment_ops.scatter_nd(array_ops.expand_dims(ind, -1), array_ops.reshape(grad, [-1]),
                               [math_ops.reduce_prod(in_shape)]), in_shape),
            array_ops.zeros([], dtype=dtypes.int32)]


@RegisterGradient("GatherNd")
def _gather_nd_grad(op, grad):
    ref, indices = op.inputs[0], op.inputs[1]
    ref_shape = array_ops.shape(ref, out_type=indices.dtype)
    if indices.shape.ndims == 2 and indices.shape.as_list()[-1] == 1:
        ref_grad = IndexedSlices(grad, array_ops.squeeze(indices, axis=-1), ref_shape)
    else:
        ref_grad = segment_ops.scatter_nd(indices, grad, ref_shape)
    return [ref_grad, None]


@RegisterGradient("ScatterNd")
def _scatter_nd_grad(op, grad):
    return [None, array_ops.gather_nd(grad, op.inputs[0]), None]


def _sparse_segment_reduce_grad(op, grad, kind):
    """SparseSegment{Sum,Mean,SqrtN}[WithNumSegments]: the dense gradient of the data through
    the Grad op, or with sparse_gradient (tf.nn.embedding_lookup_sparse's fast path) the rows
    that were read, as IndexedSlices through the GradV2 op."""
    extra = (None,) * (len(op.inputs) - 1)
    if op.get_attr("sparse_gradient"):
        data_shape = array_ops.shape(op.inputs[0])
        values, unique = apply_op(f"SparseSegment{kind}GradV2", grad=grad, indices=op.inputs[1],
                                  segment_ids=op.inputs[2], dense_output_dim0=data_shape[0])
        return (IndexedSlices(values, unique, data_shape),) + extra
    dim0 = array_ops.shape(op.inputs[0])[0]
    return (apply_op(f"SparseSegment{kind}Grad", grad=grad, indices=op.inputs[1],
                     segment_ids=op.inputs[2], output_dim0=dim0),) + extra


for _kind in ("Sum", "Mean", "SqrtN"):
    for _op in (f"SparseSegment{_kind}", f"SparseSegment{_kind}WithNumSegments"):
        RegisterGradient(_op)(lambda op, grad, _kind=_kind:
                              _sparse_segment_reduce_grad(op, grad, _kind))
