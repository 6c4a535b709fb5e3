"""tf.ragged.boolean_mask, stack and the ragged concat, stack and gather
(ragged_array_ops.py, ragged_concat_ops.py, ragged_gather_ops.py)."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.framework.tensor_shape import TensorShape
from engine.ops import array_ops, check_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.op_def_library import apply_op
from engine.ops.ragged.ragged_math import reduce_sum
from engine.ops.ragged.ragged_ops import (assert_splits_match,
                                          convert_to_tensor_or_ragged_tensor,
                                          lengths_to_splits, map_flat_values,
                                          match_row_splits_dtypes)
from engine.ops.ragged.ragged_tensor import RaggedTensor, is_ragged
from engine.ops.ragged.segment_ids import row_splits_to_segment_ids
from engine.ops.repeat_ops import get_positive_axis

_builtin_range = range


def boolean_mask(data, mask, name=None):
    with name_scope(name, "RaggedMask", [data, mask]):
        data = convert_to_tensor_or_ragged_tensor(data, name="data")
        mask = convert_to_tensor_or_ragged_tensor(mask, dtypes.bool, name="mask")
        row_splits_dtype, (data, mask) = match_row_splits_dtypes(data, mask, return_dtype=True)
        if mask.shape.ndims is None:
            raise ValueError("mask.shape.ndims must be known statically.")
        if mask.shape.ndims == 0:
            raise ValueError("mask cannot be scalar.")
        if is_ragged(mask):
            if not is_ragged(data):
                data = RaggedTensor.from_tensor(data, ragged_rank=mask.ragged_rank,
                                                row_splits_dtype=mask.row_splits.dtype)
            splits_list = [mask.nested_row_splits, data.nested_row_splits[:mask.ragged_rank]]
            with get_default_graph().control_dependencies(assert_splits_match(splits_list)):
                splits = []
                while is_ragged(mask):
                    if mask.shape.ndims > 2:
                        splits.append(mask.row_splits)
                    else:
                        int_mask = map_flat_values(math_ops.cast, mask, dtype=row_splits_dtype)
                        masked_row_lengths = reduce_sum(int_mask, axis=1)
                        splits.append(lengths_to_splits(masked_row_lengths))
                    mask = mask.values
                    data = data.values
                masked_values = boolean_mask(data, mask)
                return RaggedTensor.from_nested_row_splits(masked_values, splits,
                                                           validate=False)
        if is_ragged(data) and mask.shape.ndims == 1:
            lengths = data.row_lengths()
            masked_lengths = array_ops.boolean_mask(lengths, mask)
            masked_splits = lengths_to_splits(masked_lengths)
            segment_ids = row_splits_to_segment_ids(data.row_splits)
            segment_mask = array_ops.gather(mask, segment_ids)
            masked_values = boolean_mask(data.values, segment_mask)
            return RaggedTensor.from_row_splits(masked_values, masked_splits, validate=False)
        if is_ragged(data):
            mask = RaggedTensor.from_tensor(mask, ragged_rank=min(data.ragged_rank,
                                                                  mask.shape.ndims - 1),
                                            row_splits_dtype=data.row_splits.dtype)
            return boolean_mask(data, mask)
        masked_values = array_ops.boolean_mask(data, mask)
        if mask.shape.ndims >= 2:
            masked_lengths = math_ops.count_nonzero(mask, axis=-1, dtype=row_splits_dtype
                                                    or dtypes.int64)
            flattened = array_ops.reshape(masked_lengths, [-1])
            masked_values = RaggedTensor.from_row_lengths(masked_values, flattened,
                                                          validate=False)
            if mask.shape.ndims > 2:
                mask_shape = array_ops.shape(mask, out_type=row_splits_dtype or dtypes.int64)
                split_size = math_ops.cumprod(mask_shape) + 1
                for dim in _builtin_range(mask.shape.ndims - 3, -1, -1):
                    elt_size = mask_shape[dim + 1]
                    masked_splits = math_ops.range(split_size[dim]) * elt_size
                    masked_values = RaggedTensor.from_row_splits(masked_values, masked_splits,
                                                                 validate=False)
        return masked_values


def concat(values, axis, name=None):
    if not isinstance(values, (list, tuple)):
        values = [values]
    with name_scope(name, "RaggedConcat", values):
        return _stack_concat(values, axis, stack_values=False)


def stack(values, axis=0, name=None):
    if not isinstance(values, (list, tuple)):
        values = [values]
    with name_scope(name, "RaggedConcat", values):
        return _stack_concat(values, axis, stack_values=True)


def _stack_concat(rt_inputs, axis, stack_values):
    if not rt_inputs:
        raise ValueError("rt_inputs may not be empty.")
    rt_inputs = [convert_to_tensor_or_ragged_tensor(rt, name="rt_input") for rt in rt_inputs]
    row_splits_dtype, rt_inputs = match_row_splits_dtypes(*rt_inputs, return_dtype=True)
    row_splits_dtype = row_splits_dtype or dtypes.int64
    rt_inputs = list(rt_inputs)
    if len(rt_inputs) == 1 and not stack_values:
        return rt_inputs[0]
    ndims = None
    for rt in rt_inputs:
        if ndims is None:
            ndims = rt.shape.ndims
        else:
            rt.shape.assert_has_rank(ndims)
    out_ndims = ndims if (ndims is None or not stack_values) else ndims + 1
    axis = get_positive_axis(axis, out_ndims)
    if stack_values and ndims == 1 and axis == 0:
        return RaggedTensor.from_row_lengths(
            values=array_ops.concat(rt_inputs, axis=0),
            row_lengths=array_ops.concat([array_ops.shape(r) for r in rt_inputs], axis=0))
    if all(not is_ragged(rt) for rt in rt_inputs):
        if ndims is not None and (axis == out_ndims - 1 or axis == ndims - 1):
            if stack_values:
                return array_ops.stack(rt_inputs, axis)
            return array_ops.concat(rt_inputs, axis)
    for i, rt in enumerate(rt_inputs):
        if not is_ragged(rt):
            rt_inputs[i] = RaggedTensor.from_tensor(rt, ragged_rank=1,
                                                    row_splits_dtype=row_splits_dtype)
    ragged_rank = max(max(rt.ragged_rank for rt in rt_inputs), 1)
    rt_inputs = [_increase_ragged_rank_to(rt, ragged_rank, row_splits_dtype)
                 for rt in rt_inputs]
    if axis == 0:
        return _stack_concat_axis_0(rt_inputs, stack_values)
    if axis == 1:
        return _stack_concat_axis_1(rt_inputs, stack_values)
    values = [rt.values for rt in rt_inputs]
    splits = [[rt.row_splits] for rt in rt_inputs]
    with get_default_graph().control_dependencies(assert_splits_match(splits)):
        return RaggedTensor.from_row_splits(_stack_concat(values, axis - 1, stack_values),
                                            splits[0][0], validate=False)


def _stack_concat_axis_0(rt_inputs, stack_values):
    flat_values = array_ops.concat([rt.flat_values for rt in rt_inputs], axis=0)
    nested_splits = [rt.nested_row_splits for rt in rt_inputs]
    ragged_rank = rt_inputs[0].ragged_rank
    splits = [_concat_splits([ns[dim] for ns in nested_splits])
              for dim in _builtin_range(ragged_rank)]
    if stack_values:
        stack_lengths = array_ops.stack([rt.nrows() for rt in rt_inputs])
        splits.insert(0, lengths_to_splits(stack_lengths))
    return RaggedTensor.from_nested_row_splits(flat_values, splits, validate=False)


def _stack_concat_axis_1(rt_inputs, stack_values):
    num_inputs = len(rt_inputs)
    rt_nrows = rt_inputs[0].nrows()
    checks = [check_ops.assert_equal(
        rt_nrows, rt.nrows(),
        message=f"Input tensors at index 0 (=x) and {index + 1} (=y) have incompatible "
                "shapes.") for index, rt in enumerate(rt_inputs[1:])]
    with get_default_graph().control_dependencies(checks):
        concatenated = _stack_concat_axis_0(rt_inputs, stack_values=False)
        row_indices = math_ops.range(rt_nrows * num_inputs)
        row_index_matrix = array_ops.reshape(row_indices, [num_inputs, -1])
        permutation = array_ops.reshape(array_ops.transpose(row_index_matrix), [-1])
        permuted = gather(concatenated, permutation)
        if stack_values:
            stack_splits = math_ops.range(0, rt_nrows * num_inputs + 1, num_inputs)
            _copy_row_shape(rt_inputs, stack_splits)
            return RaggedTensor.from_row_splits(permuted, stack_splits, validate=False)
        concat_splits = permuted.row_splits[::num_inputs]
        _copy_row_shape(rt_inputs, concat_splits)
        return RaggedTensor.from_row_splits(permuted.values, concat_splits, validate=False)


def _copy_row_shape(rt_inputs, splits):
    for rt in rt_inputs:
        if rt.shape[0] is not None and rt.shape.dims[0].value is not None:
            splits.set_shape(TensorShape([rt.shape.dims[0].value + 1]))


def _increase_ragged_rank_to(rt, ragged_rank, row_splits_dtype):
    if ragged_rank > 0:
        if not is_ragged(rt):
            rt = RaggedTensor.from_tensor(rt, row_splits_dtype=row_splits_dtype)
        if rt.ragged_rank < ragged_rank:
            rt = rt.with_values(_increase_ragged_rank_to(rt.values, ragged_rank - 1,
                                                         row_splits_dtype))
    return rt


def _concat_splits(splits_list):
    pieces = [splits_list[0]]
    offset = splits_list[0][-1]
    for splits in splits_list[1:]:
        pieces.append(splits[1:] + offset)
        offset += splits[-1]
    return array_ops.concat(pieces, axis=0)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """tf.gather of a RaggedTensor's rows (axis 0) or by ragged indices."""
    with name_scope(name, "RaggedGather", [params, indices]):
        params = convert_to_tensor_or_ragged_tensor(params, name="params")
        indices = convert_to_tensor_or_ragged_tensor(indices, name="indices")
        params, indices = match_row_splits_dtypes(params, indices)
        if batch_dims != 0 or axis not in (None, 0):
            raise NotImplementedError("the engine gathers RaggedTensors along axis 0 only")
        return _gather(params, indices)


def _gather(params, indices):
    if not (is_ragged(params) or is_ragged(indices)):
        return array_ops.gather(params, indices)
    if is_ragged(indices):
        return indices.with_values(_gather(params, indices.values))
    if indices.shape.ndims is None:
        raise ValueError("rank(indices) must be known statically")
    out_ragged_rank = indices.shape.ndims + len(params.nested_row_splits) - 1
    *splits, values = apply_op("RaggedGather", indices=indices,
                               params_dense_values=params.flat_values,
                               params_nested_splits=list(params.nested_row_splits),
                               OUTPUT_RAGGED_RANK=out_ragged_rank)
    result = RaggedTensor.from_nested_row_splits(values, splits, validate=False)
    if indices.shape.ndims > 1:
        # TensorFlow computes the index dimensions' sizes here and keeps them as plain
        # attributes nothing reads; the nodes are in its graph
        target = result
        indices_shape = array_ops.shape(indices, out_type=params.row_splits.dtype)
        shape_cumprod = math_ops.cumprod(indices_shape)
        for dim in _builtin_range(indices.shape.ndims - 1):
            target._cached_nrows = shape_cumprod[dim]
            target._cached_uniform_row_length = indices_shape[dim + 1]
            target = target.values
    return result


def where(condition, x=None, y=None, name=None):
    """tf.compat.v1.where of RaggedTensors (ragged_where_op.where): coordinates, or elements
    of x and y (rows of them for a vector condition)."""
    if (x is None) != (y is None):
        raise ValueError("x and y must be either both None or both non-None")
    with name_scope("RaggedWhere", name, [condition, x, y]):
        condition = convert_to_tensor_or_ragged_tensor(condition, name="condition")
        if x is None:
            return _coordinate_where(condition)
        x = convert_to_tensor_or_ragged_tensor(x, name="x")
        y = convert_to_tensor_or_ragged_tensor(y, name="y")
        condition, x, y = match_row_splits_dtypes(condition, x, y)
        return _elementwise_where(condition, x, y)


def _elementwise_where(condition, x, y):
    condition_is_ragged, x_is_ragged, y_is_ragged = (is_ragged(t) for t in (condition, x, y))
    if not (condition_is_ragged or x_is_ragged or y_is_ragged):
        return array_ops.where(condition, x, y)
    if condition_is_ragged and x_is_ragged and y_is_ragged:
        return map_flat_values(array_ops.where, condition, x, y)
    if not condition_is_ragged:
        condition.shape.assert_has_rank(1)
        x_and_y = concat([x, y], axis=0)
        x_nrows = _nrows(x, x_and_y.row_splits.dtype)
        y_nrows = _nrows(y, x_and_y.row_splits.dtype)
        indices = array_ops.where(condition, math_ops.range(x_nrows),
                                  x_nrows + math_ops.range(y_nrows))
        return gather(x_and_y, indices)
    raise ValueError("Input shapes do not match.")


def _nrows(rt_input, out_type):
    if is_ragged(rt_input):
        return rt_input.nrows(out_type=out_type)
    return array_ops.shape(rt_input, out_type=out_type)[0]


def _coordinate_where(condition):
    if not is_ragged(condition):
        return array_ops.where(condition)
    selected_coords = _coordinate_where(condition.values)
    condition = condition.with_row_splits_dtype(selected_coords.dtype)
    first_index = selected_coords[:, 0]
    selected_rows = array_ops.gather(condition.value_rowids(), first_index)
    selected_row_starts = array_ops.gather(condition.row_splits, selected_rows)
    selected_cols = first_index - selected_row_starts
    return array_ops.concat([array_ops.expand_dims(selected_rows, 1),
                             array_ops.expand_dims(selected_cols, 1), selected_coords[:, 1:]],
                            axis=1)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """ragged_one_hot: the one-hot rows of the flat ids, the row partitions kept."""
    if isinstance(axis, int) and axis >= 0:
        if axis <= indices.ragged_rank:
            raise ValueError("axis (%d) must be greater than indices.ragged_rank (%d)."
                             % (axis, indices.ragged_rank))
        axis -= indices.ragged_rank
    with name_scope(name, "RaggedOneHot", [indices, depth, on_value, off_value, axis]):
        indices = convert_to_tensor_or_ragged_tensor(indices, name="indices")
        return indices.with_flat_values(array_ops.one_hot(
            indices.flat_values, depth, on_value, off_value, axis, dtype, name))


def squeeze(input, axis=None, name=None):  # noqa: A002  (TensorFlow's name)
    """ragged_squeeze_op.squeeze: size-1 dimensions removed, asserted size 1 where ragged."""
    from engine.ops.control_flow.ops import with_dependencies
    from engine.ops.logging_ops import Assert
    with name_scope(name, "RaggedSqueeze", [input]):
        input = convert_to_tensor_or_ragged_tensor(input)  # noqa: A001
        if not is_ragged(input):
            return array_ops.squeeze(input, axis, name)
        if axis is None:
            raise ValueError("Ragged.squeeze must have an axis argument.")
        if isinstance(axis, int):
            axis = [axis]
        elif (not isinstance(axis, (list, tuple))
              or not all(isinstance(d, int) for d in axis)):
            raise TypeError("Axis must be a list or tuple of integers.")
        axis = [get_positive_axis(d, input.shape.ndims, "axis[%d]" % i, "rank(input)")
                for i, d in enumerate(axis)]
        dense_dims = [dim - input.ragged_rank for dim in axis if dim > input.ragged_rank]
        ragged_dims = [dim for dim in axis if dim <= input.ragged_rank]
        assertions = []
        one = constant(1, dtype=input.row_splits.dtype)
        for i, lengths in enumerate(input.nested_row_lengths()):
            if i + 1 in ragged_dims:
                assertions.append(Assert(
                    math_ops.reduce_all(math_ops.equal(lengths, one)),
                    ["the given axis (axis = %d) is not squeezable!" % (i + 1)]))
        if 0 in ragged_dims:
            two = constant(2, dtype=dtypes.int32)
            assertions.append(Assert(math_ops.equal(array_ops.size(input.row_splits), two),
                                     ["the given axis (axis = 0) is not squeezable!"]))
        squeezed = with_dependencies(assertions, input.flat_values)
        if dense_dims:
            squeezed = array_ops.squeeze(squeezed, dense_dims)
        remaining = [splits for i, splits in enumerate(input.nested_row_splits)
                     if i + 1 not in ragged_dims]
        if remaining and 0 in ragged_dims:
            remaining.pop(0)
        squeezed = RaggedTensor.from_nested_row_splits(squeezed, remaining)
        if set(_builtin_range(0, input.ragged_rank + 1)).issubset(set(ragged_dims)):
            squeezed = array_ops.squeeze(squeezed, [0], name)
        return squeezed
