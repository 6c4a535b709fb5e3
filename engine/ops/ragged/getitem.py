"""RaggedTensor.__getitem__ (ragged_getitem.py): rows by index or slice, columns of uniform
dimensions by index, column slices of ragged ones, with TensorFlow's nodes and checks."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.tensor import Tensor
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, check_ops, math_ops
from engine.ops.control_flow.cond import cond
from engine.ops.convert import convert_to_tensor
from engine.ops.ragged import ragged_array, ragged_ops
from engine.ops.ragged.ragged_tensor import RaggedTensor


def ragged_getitem(rt_input, key):
    scope_tensors = [rt_input] + list(_tensors_in_key_list(key))
    key = list(key) if isinstance(key, (list, tuple)) else [key]
    with name_scope(None, "RaggedGetItem", scope_tensors):
        return _ragged_getitem(rt_input, key)


def _ragged_getitem(rt_input, key_list):
    if not key_list:
        return rt_input
    row_key, inner_keys = key_list[0], key_list[1:]
    if row_key is Ellipsis:
        return _ragged_getitem(rt_input, _expand_ellipsis(key_list, rt_input.shape.ndims))
    if row_key is None:
        inner_rt = _ragged_getitem(rt_input, inner_keys)
        nsplits = inner_rt.row_splits.shape.dims[0].value
        if nsplits is None:
            nsplits = array_ops.shape(inner_rt.row_splits, out_type=inner_rt.row_splits.dtype)[0]
        return RaggedTensor.from_uniform_row_length(inner_rt, nsplits - 1, nrows=1,
                                                    validate=False)
    if isinstance(row_key, slice):
        sliced = _slice_ragged_row_dimension(rt_input, row_key)
        if rt_input.uniform_row_length is not None:
            sliced = RaggedTensor.from_uniform_row_length(
                sliced.values, rt_input.uniform_row_length, nrows=sliced.nrows())
        return _ragged_getitem_inner_dimensions(sliced, inner_keys)
    starts = rt_input.row_splits[:-1]
    limits = rt_input.row_splits[1:]
    row = rt_input.values[starts[row_key]:limits[row_key]]
    return row.__getitem__(inner_keys)


def _slice_ragged_row_dimension(rt_input, row_key):
    if row_key.start is None and row_key.stop is None and row_key.step is None:
        return rt_input
    new_starts = rt_input.row_splits[:-1][row_key]
    new_limits = rt_input.row_splits[1:][row_key]
    zero_pad = array_ops.zeros([1], rt_input.row_splits.dtype)
    if row_key.step is None or row_key.step == 1:
        new_splits = array_ops.concat(
            [zero_pad[array_ops.size(new_starts):], new_starts[:1], new_limits], axis=0)
        values_start = new_splits[0]
        values_limit = new_splits[-1]
        return RaggedTensor.from_row_splits(rt_input.values[values_start:values_limit],
                                            new_splits - values_start, validate=False)
    return _from_value_ranges(new_starts, new_limits, 1, rt_input.values)


def _ragged_getitem_inner_dimensions(rt_input, key_list):
    if not key_list:
        return rt_input
    if not isinstance(rt_input, RaggedTensor):
        return rt_input.__getitem__([slice(None, None, None)] + key_list)
    column_key = key_list[0]
    if column_key is Ellipsis:
        return _ragged_getitem_inner_dimensions(
            rt_input, _expand_ellipsis(key_list, rt_input.values.shape.ndims))
    if column_key is None:
        inner_rt = _ragged_getitem_inner_dimensions(rt_input, key_list[1:])
        nsplits = inner_rt.row_splits.shape.dims[0].value
        if nsplits is None:
            nsplits = array_ops.shape(inner_rt.row_splits, out_type=inner_rt.row_splits.dtype)[0]
        return RaggedTensor.from_uniform_row_length(inner_rt, 1, nrows=nsplits - 1,
                                                    validate=False)
    if isinstance(column_key, slice):
        if column_key.start is None and column_key.stop is None and column_key.step is None:
            return rt_input.with_values(
                _ragged_getitem_inner_dimensions(rt_input.values, key_list[1:]))
        if not (isinstance(column_key.start, (Tensor, int, type(None)))
                and isinstance(column_key.stop, (Tensor, int, type(None)))):
            raise TypeError("slice offsets must be integers or None")
        starts = rt_input.row_splits[:-1]
        limits = rt_input.row_splits[1:]
        step = 1 if column_key.step is None else column_key.step
        lower_bound = _if_ge_zero(step, lambda: starts, lambda: starts - 1)
        upper_bound = _if_ge_zero(step, lambda: limits, lambda: limits - 1)
        if column_key.start is None:
            inner_starts = _if_ge_zero(step, lambda: starts, lambda: limits - 1)
        else:
            start_offset = math_ops.cast(column_key.start, starts.dtype)
            inner_starts = _if_ge_zero(
                column_key.start,
                lambda: math_ops.minimum(starts + start_offset, upper_bound),
                lambda: math_ops.maximum(limits + start_offset, lower_bound))
        if column_key.stop is None:
            inner_limits = _if_ge_zero(step, lambda: limits, lambda: starts - 1)
        else:
            stop_offset = math_ops.cast(column_key.stop, starts.dtype)
            inner_limits = _if_ge_zero(
                column_key.stop,
                lambda: math_ops.minimum(starts + stop_offset, upper_bound),
                lambda: math_ops.maximum(limits + stop_offset, lower_bound))
        inner_rt = _from_value_ranges(inner_starts, inner_limits, column_key.step,
                                      rt_input.values)
        if rt_input.uniform_row_length is not None:
            new_row_length = _slice_length(rt_input.uniform_row_length, column_key)
            inner_rt = RaggedTensor.from_uniform_row_length(inner_rt.values, new_row_length,
                                                            rt_input.nrows())
        return inner_rt.with_values(
            _ragged_getitem_inner_dimensions(inner_rt.values, key_list[1:]))
    if rt_input.uniform_row_length is None:
        raise ValueError("Cannot index into an inner ragged dimension.")
    row_length = rt_input.uniform_row_length
    column_key = math_ops.cast(column_key, row_length.dtype)
    message = "Index out of bounds when indexing into a ragged tensor"
    checks = [check_ops.assert_greater_equal(column_key, -row_length, message=message),
              check_ops.assert_less(column_key, row_length, message=message)]
    with get_default_graph().control_dependencies(checks):
        offset = _if_ge_zero(column_key, lambda: column_key, lambda: row_length + column_key)
        sliced_rt = rt_input.values[offset::row_length]
        return _ragged_getitem_inner_dimensions(sliced_rt, key_list[1:])


def _slice_length(value_length, slice_key):
    zeros = array_ops.zeros(value_length, dtype=dtypes.bool)
    return array_ops.size(zeros[slice_key], out_type=value_length.dtype)


def _expand_ellipsis(key_list, num_remaining_dims):
    if num_remaining_dims is None:
        raise ValueError("Ellipsis not supported for unknown shape RaggedTensors")
    num_indices = sum(1 for idx in key_list if idx is not None)
    if num_indices > num_remaining_dims + 1:
        raise IndexError("Too many indices for RaggedTensor")
    if num_indices == num_remaining_dims + 1:
        return key_list[1:]
    return [slice(None, None, None)] + key_list


def _tensors_in_key_list(key_list):
    if isinstance(key_list, Tensor):
        yield key_list
    if isinstance(key_list, (list, tuple)):
        for v in key_list:
            yield from _tensors_in_key_list(v)
    if isinstance(key_list, slice):
        for part in (key_list.start, key_list.stop, key_list.step):
            yield from _tensors_in_key_list(part)


def _from_value_ranges(starts, limits, step, values):
    if step is None:
        step = 1
    step = convert_to_tensor(step, name="step")
    if not step.dtype.is_integer:
        raise TypeError("slice strides must be integers or None")
    step = math_ops.cast(step, starts.dtype)
    value_indices = ragged_ops.range(starts, limits, step, row_splits_dtype=starts.dtype)
    if isinstance(values, RaggedTensor):
        gathered = ragged_array.gather(params=values, indices=value_indices.values)
    else:
        gathered = array_ops.gather(params=values, indices=value_indices.values)
    return value_indices.with_values(gathered)


def _if_ge_zero(value, true_fn, false_fn):
    if isinstance(value, Tensor):
        const = constant_value(value)
        if const is None:
            return cond(value >= 0, true_fn, false_fn)
        value = const
    return true_fn() if value >= 0 else false_fn()
