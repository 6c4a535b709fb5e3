"""tf.roll, tf.bitcast, tf.searchsorted, tf.histogram_fixed_width (and _bins),
tf.unique_with_counts and
tf.sparse_tensor_dense_matmul, as TF 1.x builds them."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.sparse_tensor import SparseTensor
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import shape_internal


def roll(input, shift, axis, name=None):  # noqa: A002
    return apply_op("Roll", input=input, shift=shift, axis=axis, name=name)


def bitcast(input, type, name=None):  # noqa: A002
    return apply_op("Bitcast", input=input, type=dtypes.as_dtype(type), name=name)


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    sorted_sequence = convert_to_tensor(sorted_sequence)
    values = convert_to_tensor(values)
    sequence_size = shape_internal(sorted_sequence)[-1]
    values_size = shape_internal(values)[-1]
    sorted_sequence_2d = array_ops.reshape(sorted_sequence, [-1, sequence_size])
    values_2d = array_ops.reshape(values, [-1, values_size])
    if side == "right":
        op_type = "UpperBound"
    elif side == "left":
        op_type = "LowerBound"
    else:
        raise ValueError("Argument `side` must be either 'right' or 'left'. Received: "
                         f"`side` = '{side}'.")
    output = apply_op(op_type, sorted_inputs=sorted_sequence_2d, values=values_2d,
                      out_type=dtypes.as_dtype(out_type), name=name)
    return array_ops.reshape(output, shape_internal(values))


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    with name_scope(name, "histogram_fixed_width", [values, value_range, nbins]) as name:
        return apply_op("HistogramFixedWidth", values=values, value_range=value_range,
                        nbins=nbins, dtype=dtypes.as_dtype(dtype), name=name)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin (0 .. nbins - 1, int32) each value falls in; values outside the range in the
    first or last bin. `dtype` is unused, as in TensorFlow."""
    from engine.ops import math_ops
    from engine.ops.control_flow.ops import with_dependencies
    from engine.ops.logging_ops import Assert
    with name_scope(name, "histogram_fixed_width_bins", [values, value_range, nbins]):
        values = convert_to_tensor(values, name="values")
        shape = array_ops.shape(values)
        values = array_ops.reshape(values, [-1])
        value_range = convert_to_tensor(value_range, name="value_range")
        nbins = convert_to_tensor(nbins, dtype=dtypes.int32, name="nbins")
        check = Assert(math_ops.greater(nbins, 0), [f"nbins {nbins} must > 0"])
        nbins = with_dependencies([check], nbins)
        nbins_float = math_ops.cast(nbins, values.dtype)
        scaled_values = math_ops.truediv(values - value_range[0],
                                         value_range[1] - value_range[0],
                                         name="scaled_values")
        indices = math_ops.floor(nbins_float * scaled_values, name="indices")
        indices = math_ops.cast(math_ops.clip_by_value(indices, 0, nbins_float - 1), dtypes.int32)
        return array_ops.reshape(indices, shape)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    return apply_op("UniqueWithCounts", x=x, out_idx=dtypes.as_dtype(out_idx), name=name)


def sparse_tensor_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    if not isinstance(sp_a, SparseTensor):
        raise TypeError("sp_a must be a SparseTensor")
    with name_scope(name, "SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, b]):
        b = convert_to_tensor(b, name="b")
        return apply_op("SparseTensorDenseMatMul", a_indices=sp_a.indices,
                        a_values=sp_a.values, a_shape=sp_a.dense_shape, b=b,
                        adjoint_a=adjoint_a, adjoint_b=adjoint_b)


def unravel_index(indices, dims, name=None):
    """tf.unravel_index: flat indices as coordinates in an array of shape `dims`."""
    return apply_op("UnravelIndex", indices=indices, dims=dims, name=name)
