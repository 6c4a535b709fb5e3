"""The ragged reductions (ragged_math_ops.py's ragged_reduce_aggregate): unsorted segment
ops over value_rowids for axis 1, over ragged column ids for axis 0, recursing inward."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor_util import constant_value
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, check_ops, math_ops
from engine.ops.ragged.ragged_ops import (convert_to_tensor_or_ragged_tensor,
                                          match_row_splits_dtypes)
from engine.ops.ragged.ragged_ops import range as ragged_range
from engine.ops.ragged.ragged_tensor import RaggedTensor, is_ragged
from engine.ops.ragged.segment_ids import row_splits_to_segment_ids
from engine.ops.repeat_ops import get_positive_axis


def _segment_aggregate(unsorted_segment_op, data, segment_ids, num_segments, separator=None,
                       name=None):
    if not (is_ragged(data) or is_ragged(segment_ids)):
        if separator is not None:
            return unsorted_segment_op(data, segment_ids, num_segments, separator, name)
        return unsorted_segment_op(data, segment_ids, num_segments, name)
    with name_scope(name, "RaggedSegment", [data, segment_ids, num_segments]):
        data = convert_to_tensor_or_ragged_tensor(data, name="data")
        segment_ids = convert_to_tensor_or_ragged_tensor(segment_ids, name="segment_ids")
        data, segment_ids = match_row_splits_dtypes(data, segment_ids)
        if segment_ids.dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError("segment_ids must have dtype int32 or int64.")
        if is_ragged(segment_ids):
            if not is_ragged(data):
                raise ValueError("segment_ids.shape must be a prefix of data.shape, but "
                                 "segment_ids is ragged and data is not.")
            check_splits = check_ops.assert_equal(
                segment_ids.row_splits, data.row_splits,
                message="segment_ids.shape must be a prefix of data.shape")
            with get_default_graph().control_dependencies([check_splits]):
                return _segment_aggregate(unsorted_segment_op, data.values, segment_ids.values,
                                          num_segments, separator)
        data_row_lengths = data.row_splits[1:] - data.row_splits[:-1]
        output_row_lengths = math_ops.maximum(
            _unsorted("max")(data_row_lengths, segment_ids, num_segments), 0)
        output_splits = array_ops.concat([array_ops.zeros([1], output_row_lengths.dtype),
                                          math_ops.cumsum(output_row_lengths)], axis=0)
        start = array_ops.gather(output_splits, segment_ids)
        limit = start + data_row_lengths
        data_val_to_out_val_index = ragged_range(start, limit).values
        output_values = _segment_aggregate(unsorted_segment_op, data.values,
                                           data_val_to_out_val_index, output_splits[-1],
                                           separator)
        return RaggedTensor.from_row_splits(output_values, output_splits, validate=False)


def _unsorted(kind):
    """The unsorted segment op: unsorted_segment_<kind>, or `kind` itself if a function."""
    if callable(kind):
        return kind
    from engine.ops import segment_ops
    return getattr(segment_ops, "unsorted_segment_" + kind)


def reduce_aggregate(reduce_op, segment_kind, rt_input, axis, keepdims, separator=None,
                     name=None):
    maybe_separator = {} if separator is None else {"separator": separator}
    if not is_ragged(rt_input):
        return reduce_op(rt_input, axis, keepdims=keepdims, name=name, **maybe_separator)
    unsorted_segment_op = _unsorted(segment_kind)
    if hasattr(axis, "op"):
        axis = constant_value(axis)
        if axis is None:
            raise ValueError("axis must be known at graph construction time.")
        if hasattr(axis, "tolist"):
            axis = axis.tolist()
    if axis is None:
        result = reduce_op(rt_input.flat_values, None, keepdims=keepdims, name=name,
                           **maybe_separator)
        if keepdims:
            for _ in rt_input.shape[1:]:
                result = array_ops.expand_dims(result, axis=0)
        return result
    with name_scope(name, "RaggedReduce", [rt_input, axis]):
        if isinstance(axis, (tuple, list)):
            if not axis:
                return rt_input
            if len(axis) == 1:
                axis = axis[0]
            else:
                axis = sorted(get_positive_axis(a, rt_input.shape.ndims, "axis[%s]" % i,
                                                "rank(input_tensor)")
                              for i, a in enumerate(axis))
                inner = reduce_aggregate(reduce_op, segment_kind, rt_input, axis[-1], keepdims,
                                         separator)
                return reduce_aggregate(reduce_op, segment_kind, inner, axis[:-1], keepdims,
                                        separator)
        axis = get_positive_axis(axis, rt_input.shape.ndims, ndims_name="rank(input_tensor)")
        if axis == 0:
            row_lengths = rt_input.row_splits[1:] - rt_input.row_splits[:-1]
            num_segments = math_ops.maximum(math_ops.reduce_max(row_lengths), 0)
            segment_ids = ragged_range(row_lengths).values
            result = _segment_aggregate(unsorted_segment_op, rt_input.values, segment_ids,
                                        num_segments, separator)
            if keepdims:
                result = array_ops.expand_dims(result, axis=0)
            return result
        if axis == 1:
            num_segments = array_ops.shape(rt_input.row_splits)[0] - 1
            segment_ids = row_splits_to_segment_ids(rt_input.row_splits)
            result = _segment_aggregate(unsorted_segment_op, rt_input.values, segment_ids,
                                        num_segments, separator)
            if keepdims:
                result = array_ops.expand_dims(result, axis=1)
            return result
        return rt_input.with_values(reduce_aggregate(reduce_op, segment_kind, rt_input.values,
                                                     axis - 1, keepdims, separator))


def _reducer(reduce_op, segment_kind, default_name):
    def reduce(input_tensor, axis=None, keepdims=None, name=None):
        return reduce_aggregate(reduce_op, segment_kind, input_tensor, axis, keepdims,
                                name=name or default_name)
    return reduce


reduce_sum = _reducer(math_ops.reduce_sum, "sum", "RaggedReduceSum")
reduce_prod = _reducer(math_ops.reduce_prod, "prod", "RaggedReduceProd")
reduce_min = _reducer(math_ops.reduce_min, "min", "RaggedReduceMin")
reduce_max = _reducer(math_ops.reduce_max, "max", "RaggedReduceMax")


def reduce_mean(input_tensor, axis=None, keepdims=None, name=None):
    with name_scope(name, "RaggedReduceMean", [input_tensor, axis]):
        total = reduce_sum(input_tensor, axis, keepdims)
        if is_ragged(input_tensor):
            ones = RaggedTensor.from_nested_row_splits(
                array_ops.ones_like(input_tensor.flat_values), input_tensor.nested_row_splits,
                validate=False)
        else:
            ones = array_ops.ones_like(input_tensor)
        count = reduce_sum(ones, axis, keepdims)
        if is_ragged(total):
            return RaggedTensor.from_nested_row_splits(
                total.flat_values / count.flat_values, total.nested_row_splits,
                validate=False)
        return total / count


def _bool_reducer(inner, default_name):
    def reduce(input_tensor, axis=None, keepdims=None, name=None):
        with name_scope(name, default_name, [input_tensor, axis]):
            return math_ops.cast(inner(math_ops.cast(input_tensor, dtypes.int32), axis,
                                       keepdims), dtypes.bool)
    return reduce


reduce_all = _bool_reducer(reduce_prod, "RaggedReduceAll")
reduce_any = _bool_reducer(reduce_sum, "RaggedReduceAny")


def _segment_reducer(kind, default_name):
    def segment_reduce(data, segment_ids, num_segments, name=None):
        return _segment_aggregate(_unsorted(kind), data, segment_ids, num_segments,
                                  name=name or default_name)
    return segment_reduce


# tf.math.unsorted_segment_* of RaggedTensors (ragged_math_ops.segment_sum, ...)
SEGMENT_OPS = {f"unsorted_segment_{kind}": _segment_reducer(kind, f"RaggedSegment{title}")
               for kind, title in (("sum", "Sum"), ("prod", "Prod"), ("min", "Min"),
                                   ("max", "Max"))}
