"""tf.math's inverse hyperbolic functions, rint, nextafter, reciprocal_no_nan, erfcinv,
reduce_euclidean_norm, cumulative_logsumexp, accumulate_n, zero_fraction and the monotonicity
tests (is_non_decreasing, is_strictly_increasing), as TF 1.x builds them."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor_shape import TensorShape, unknown_shape
from engine.framework.tensor import Tensor
from engine.ops import array_ops, math_ops, shape_ops
from engine.ops.cast import cast
from engine.ops.constant_op import constant
from engine.ops.control_flow.cond import cond
from engine.ops.convert import convert_to_tensor
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.op_def_library import apply_op
from engine.ops.special_math_ops import ndtri


def _unary(op_type):
    def fn(x, name=None):
        return apply_op(op_type, x=x, name=name)
    fn.__name__ = op_type.lower()
    return fn


acosh, asinh, atanh, rint = _unary("Acosh"), _unary("Asinh"), _unary("Atanh"), _unary("Rint")


def nextafter(x1, x2, name=None):
    return apply_op("NextAfter", x1=x1, x2=x2, name=name)


def reciprocal_no_nan(x, name=None):
    with name_scope(name, "reciprocal_no_nan", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        one = constant(1, dtype=x.dtype.base_dtype, name="one")
        return apply_op("DivNoNan", x=one, y=x, name=scope)


def erfcinv(x, name=None):
    with name_scope(name, "erfcinv", [x]):
        x = convert_to_tensor(x, name="start")
        return -ndtri(0.5 * x) * np.sqrt(0.5)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    keepdims = bool(keepdims)
    return math_ops._may_reduce_to_scalar(keepdims, axis, apply_op(
        "EuclideanNorm", input=input_tensor,
        reduction_indices=math_ops._reduction_dims(input_tensor, axis), keep_dims=keepdims,
        name=name))


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    with name_scope(name, "CumulativeLogsumexp", [x]) as name:
        x = convert_to_tensor(x, name="x")
        return apply_op("CumulativeLogsumexp", x=x, axis=axis, exclusive=exclusive,
                        reverse=reverse, name=name)


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """tf.math.accumulate_n: TensorFlow 2.21's is add_n after its checks."""
    def input_error():
        return ValueError("inputs must be a list of at least one Tensor with the same dtype "
                          "and shape")
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise input_error()
    inputs = [t if isinstance(t, IndexedSlices) else convert_to_tensor(t) for t in inputs]
    if not all(isinstance(t, Tensor) for t in inputs):
        raise input_error()
    if not all(t.dtype == inputs[0].dtype for t in inputs):
        raise input_error()
    shape = TensorShape(shape) if shape is not None else unknown_shape()
    for t in inputs:
        shape = shape.merge_with(t.shape)
    if tensor_dtype is not None and tensor_dtype != inputs[0].dtype:
        raise TypeError(
            f"The `tensor_dtype` argument is {tensor_dtype}, but `input` is of type "
            f"{inputs[0].dtype}. These must be equal. Try casting the input to the desired "
            "type.")
    if len(inputs) == 1:
        return inputs[0] if name is None else array_ops.identity(inputs[0], name=name)
    return math_ops.add_n(inputs, name=name)


def _count_nonzero(value, dtype):
    with name_scope("count_nonzero", values=[value]):
        zero = array_ops.zeros([], dtype=value.dtype)
        return math_ops.reduce_sum(cast(math_ops.not_equal(value, zero), dtype=dtype),
                                   name="nonzero_count")


def zero_fraction(value, name=None):
    with name_scope(name, "zero_fraction", [value]):
        value = convert_to_tensor(value, name="value")
        size = shape_ops.size(value, out_type=dtypes.int64)
        num_nonzero = cond(
            math_ops.less_equal(size, dtypes.int32.max),
            true_fn=lambda: cast(_count_nonzero(value, dtype=dtypes.int32),
                                 dtype=dtypes.int64),
            false_fn=lambda: _count_nonzero(value, dtype=dtypes.int64))
        with name_scope("counts_to_fraction"):
            num_zero = size - num_nonzero
            num_zero_float32 = cast(num_zero, dtype=dtypes.float32)
            size_float32 = cast(size, dtype=dtypes.float32)
            zero_fraction_float32 = num_zero_float32 / size_float32
        return array_ops.identity(zero_fraction_float32, "fraction")


def _monotonic_comparison(x, compare_op):
    x = array_ops.reshape(x, [-1])
    if not x.dtype.is_numeric:
        raise TypeError(f"Expected x to be numeric, instead found: {x}")
    is_shorter_than_two = math_ops.less(shape_ops.size(x), 2)
    s_len = shape_ops.shape(x) - 1
    return cond(is_shorter_than_two,
                lambda: convert_to_tensor([], dtype=dtypes.bool),
                lambda: compare_op(array_ops.strided_slice(x, [1], [1] + s_len),
                                   array_ops.strided_slice(x, [0], s_len)))


def is_non_decreasing(x, name=None):
    with name_scope(name, "is_non_decreasing", [x]):
        return math_ops.reduce_all(_monotonic_comparison(x, math_ops.greater_equal))


def is_strictly_increasing(x, name=None):
    with name_scope(name, "is_strictly_increasing", [x]):
        return math_ops.reduce_all(_monotonic_comparison(x, math_ops.greater))
