"""tf.ragged.row_splits_to_segment_ids and segment_ids_to_row_splits (segment_id_ops.py)."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.framework.tensor_util import constant_value
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.repeat_ops import repeat_with_axis
from engine.ops.op_def_library import apply_op
from engine.ops.segment_ops import bincount


def convert_to_int_tensor(tensor, name, dtype=dtypes.int32):
    """array_ops.convert_to_int_tensor: an integer tensor cast to `dtype` (always a Cast)."""
    tensor = convert_to_tensor(tensor, name=name, preferred_dtype=dtype)
    if not tensor.dtype.is_integer:
        raise TypeError(f"Argument `tensor` (name: {name}) must be of type integer. Received "
                        f"`tensor` = {tensor} of dtype: {tensor.dtype}")
    return apply_op("Cast", x=tensor, DstT=dtype)


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of each value: [0, 0, 1, 1, 1] for splits [0, 2, 5]."""
    with name_scope(name, "RaggedSplitsToSegmentIds", [splits]):
        splits = convert_to_tensor(splits, name="splits", preferred_dtype=dtypes.int64)
        if splits.dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError("splits must have dtype int32 or int64")
        splits.shape.assert_has_rank(1)
        if splits.shape.dims[0].value == 0:
            raise ValueError("Invalid row_splits: []")
        out_type = splits.dtype if out_type is None else dtypes.as_dtype(out_type)
        row_lengths = splits[1:] - splits[:-1]
        nrows = array_ops.shape(splits, out_type=out_type)[-1] - 1
        indices = math_ops.range(nrows)
        return repeat_with_axis(indices, repeats=row_lengths, axis=0)


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """Row splits of sorted segment ids: [0, 2, 5] for [0, 0, 1, 1, 1]."""
    if out_type is None:
        if isinstance(segment_ids, Tensor):
            out_type = segment_ids.dtype
        elif isinstance(num_segments, Tensor):
            out_type = num_segments.dtype
        else:
            out_type = dtypes.int64
    else:
        out_type = dtypes.as_dtype(out_type)
    with name_scope(name, "SegmentIdsToRaggedSplits", [segment_ids]):
        segment_ids = convert_to_int_tensor(segment_ids, "segment_ids", dtype=dtypes.int32)
        segment_ids.shape.assert_has_rank(1)
        if num_segments is not None:
            num_segments = convert_to_int_tensor(num_segments, "num_segments",
                                                  dtype=dtypes.int32)
            num_segments.shape.assert_has_rank(0)
        row_lengths = bincount(segment_ids, minlength=num_segments, maxlength=num_segments,
                               dtype=out_type)
        splits = array_ops.concat([[0], math_ops.cumsum(row_lengths)], axis=0)
        if num_segments is not None:
            const_num_segments = constant_value(num_segments)
            if const_num_segments is not None:
                splits.set_shape(TensorShape([int(const_num_segments) + 1]))
        return splits
