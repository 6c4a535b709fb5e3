"""tf.repeat as TensorFlow 2.21's array_ops.repeat_with_axis composes it: a scalar count
tiles a new axis and reshapes; counts per element tile to the largest count and keep each
element's first `count` copies with a boolean mask."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.segment_ops import _all_dimensions, _convert_to_int_tensor, sequence_mask


def get_positive_axis(axis, ndims, axis_name="axis", ndims_name="ndims"):
    """`axis` in [0, ndims), a negative one counted from the end (TensorFlow's words)."""
    if not isinstance(axis, int):
        raise TypeError(f"{axis_name} must be an int; got {type(axis).__name__}")
    if ndims is not None:
        if 0 <= axis < ndims:
            return axis
        if -ndims <= axis < 0:
            return axis + ndims
        raise ValueError(f"{axis_name}={axis} out of bounds: "
                         f"expected {-ndims}<={axis_name}<{ndims}")
    if axis < 0:
        raise ValueError(f"{axis_name}={axis} may only be negative "
                         f"if {ndims_name} is statically known.")
    return axis


def _tile_one_dimension(data, axis, multiple):
    if data.shape.ndims is not None:
        multiples = [1] * data.shape.ndims
        multiples[axis] = multiple
    else:
        ones_value = array_ops.ones(array_ops.rank(data), dtypes.int32)
        multiples = array_ops.concat([ones_value[:axis], [multiple], ones_value[axis + 1:]],
                                     axis=0)
    return array_ops.tile(data, multiples)


def _with_nonzero_rank(data):
    if data.shape.ndims is not None:
        return array_ops.stack([data]) if data.shape.ndims == 0 else data
    data_shape = array_ops.shape(data)
    data_ndims = array_ops.rank(data)
    return array_ops.reshape(data, array_ops.concat([[1], data_shape], axis=0)[-data_ndims:])


def repeat_with_axis(data, repeats, axis, name=None):
    """Each element of `data` along `axis` repeated `repeats` times (a scalar, or one count
    per element)."""
    if not isinstance(axis, int):
        raise TypeError("Argument `axis` must be an int. "
                        f"Received `axis` = {axis} of type {type(axis).__name__}")
    with name_scope(name, "Repeat", [data, repeats]):
        data = convert_to_tensor(data, name="data")
        repeats = _convert_to_int_tensor(repeats, name="repeats")
        repeats.shape.with_rank_at_most(1)
        data = _with_nonzero_rank(data)
        data_shape = array_ops.shape(data, out_type=repeats.dtype)
        axis = get_positive_axis(axis, data.shape.rank, ndims_name="rank(data)")

        if repeats.shape.num_elements() == 1:
            repeats = array_ops.reshape(repeats, [])
            expanded = array_ops.expand_dims(data, axis + 1)
            tiled = _tile_one_dimension(expanded, axis + 1, repeats)
            result_shape = array_ops.concat(
                [data_shape[:axis], [repeats * data_shape[axis]], data_shape[axis + 1:]],
                axis=0)
            return array_ops.reshape(tiled, result_shape)

        if repeats.shape.ndims == 1:
            data.shape.dims[axis].assert_is_compatible_with(repeats.shape[0])
        repeats = array_ops.broadcast_to(repeats, [data_shape[axis]])
        repeats_original = repeats
        if repeats.shape.ndims != axis + 1:
            repeats_shape = array_ops.shape(repeats)
            repeats_ndims = array_ops.rank(repeats)
            broadcast_shape = array_ops.concat(
                [data_shape[:axis + 1 - repeats_ndims], repeats_shape], axis=0)
            repeats = array_ops.broadcast_to(repeats, broadcast_shape)
            repeats.set_shape([None] * (axis + 1))

        max_repeat = apply_op("Max", input=repeats, reduction_indices=_all_dimensions(repeats))
        max_repeat = apply_op("Maximum", x=constant(0, name="zero", dtype=max_repeat.dtype),
                              y=max_repeat)
        mask = sequence_mask(repeats, max_repeat)
        expanded = array_ops.expand_dims(data, axis + 1)
        tiled = _tile_one_dimension(expanded, axis + 1, max_repeat)
        masked = array_ops.boolean_mask(tiled, mask)
        if axis == 0:
            result = masked
        else:
            repeated_dim_size = apply_op(
                "Sum", input=repeats_original,
                reduction_indices=apply_op("Range", start=0,
                                           limit=array_ops.rank(repeats_original), delta=1))
            result_shape = array_ops.concat(
                [data_shape[:axis], [repeated_dim_size], data_shape[axis + 1:]], axis=0)
            result = array_ops.reshape(masked, result_shape)
        if data.shape.ndims is not None:
            new_axis_size = 0 if repeats.shape[0] == 0 else None
            result.set_shape(data.shape[:axis].concatenate([new_axis_size]).concatenate(
                data.shape[axis + 1:]))
        return result


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """tf.repeat: without an axis, of the flattened input."""
    if axis is None:
        input = array_ops.reshape(input, [-1])
        axis = 0
    return repeat_with_axis(input, repeats, axis, name)
