"""tf.sort and tf.argsort as TensorFlow's sort_ops builds them: one TopKV2 over the sorted axis
(moved last by a Transpose where it is not), ascending orders through a negation."""

import numpy as np

from engine.framework.default_graph import name_scope
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.segment_ops import top_k


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`values` sorted along `axis` (its dtype and shape)."""
    with name_scope(name, "sort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The int32 indices that sort `values` along `axis`; equal values keep their order (TopKV2
    sorts stably whatever `stable` says, as in TensorFlow)."""
    del stable
    with name_scope(name, "argsort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=True)


def _sort_or_argsort(values, axis, direction, return_argsort):
    if direction not in _SORT_IMPL:
        valid_directions = ", ".join(sorted(_SORT_IMPL))
        raise ValueError(f"Argument `direction` should be one of {valid_directions}. "
                         f"Received: direction={direction}")
    axis = convert_to_tensor(axis, name="axis")
    axis_static = constant_value(axis)
    if axis.shape.ndims not in (None, 0) or axis_static is None:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis}.")
    values = convert_to_tensor(values, name="values")
    return _SORT_IMPL[direction](values, int(axis_static), return_argsort)


def _descending_sort(values, axis, return_argsort=False):
    k = array_ops.shape(values)[axis]
    rank = array_ops.rank(values)
    static_rank = values.shape.ndims
    if axis == -1 or axis + 1 == values.get_shape().ndims:
        top_k_input, transposition = values, None
    else:
        if axis < 0:
            axis += static_rank or rank
        if static_rank is not None:
            transposition = constant(
                np.r_[np.arange(axis), [static_rank - 1], np.arange(axis + 1, static_rank - 1),
                      [axis]], name="transposition")
        else:
            from engine.ops.math_ops import range as range_
            from engine.ops.state_ops import tensor_scatter_nd_update
            transposition = tensor_scatter_nd_update(range_(rank), [[axis], [rank - 1]],
                                                     [rank - 1, axis])
        top_k_input = array_ops.transpose(values, transposition)
    values, indices = top_k(top_k_input, k)
    result = indices if return_argsort else values
    if transposition is not None:
        result = array_ops.transpose(result, transposition)
    return result


def _ascending_sort(values, axis, return_argsort=False):
    dtype = values.dtype
    if dtype.is_unsigned:
        offset = dtype.max
        result = _descending_sort(offset - values, axis, return_argsort)
        return result if return_argsort else offset - result
    if dtype.is_integer:
        result = _descending_sort(-values - 1, axis, return_argsort)
        return result if return_argsort else -result - 1
    result = _descending_sort(-values, axis, return_argsort)
    return result if return_argsort else -result


_SORT_IMPL = {"ASCENDING": _ascending_sort, "DESCENDING": _descending_sort}
