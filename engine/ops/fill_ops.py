"""Tensors of one value (tf.fill, zeros, ones, zeros_like, ones_like): constants when small."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.shape_ops import shape_internal
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape, as_shape


def fill(dims, value, name=None):
    return apply_op("Fill", dims=dims, value=value, name=name)


def _zero_of(dtype):
    if dtype == dtypes.bool:
        return False
    if dtype == dtypes.string:
        return ""
    return 0


def _filled(shape, dtype, name, default_name, value):
    dtype = dtypes.as_dtype(dtype).base_dtype
    with name_scope(name, default_name, [shape]) as name:
        if not isinstance(shape, Tensor):
            try:
                if isinstance(shape, TensorShape):
                    shape_list = shape.as_list()
                else:
                    shape_list = shape
                if int(np.prod(shape_list)) < 1000:
                    return constant(value, shape=shape_list, dtype=dtype, name=name)
            except (NotImplementedError, TypeError, ValueError):  # a list holding tensors
                pass
            try:
                shape = convert_to_tensor(as_shape(shape), name="shape_as_tensor") \
                    if not isinstance(shape, (list, tuple)) or all(
                        isinstance(d, (int, np.integer)) for d in shape) else \
                    convert_to_tensor(shape, dtype=dtypes.int32)
            except (TypeError, ValueError):
                shape = convert_to_tensor(shape, dtype=dtypes.int32)
        if shape.shape.ndims == 0:
            shape = apply_op("Reshape", tensor=shape, shape=[-1])
        return fill(shape, constant(value, dtype=dtype), name=name)


def zeros(shape, dtype=dtypes.float32, name=None):
    return _filled(shape, dtype, name, "zeros", _zero_of(dtypes.as_dtype(dtype)))


def ones(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    return _filled(shape, dtype, name, "ones", True if dtype == dtypes.bool else 1)


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    with name_scope(name, "zeros_like", [tensor]) as name:
        tensor = convert_to_tensor(tensor, name="tensor")
        if optimize and tensor.shape.is_fully_defined() and tensor.dtype != dtypes.variant:
            return zeros(tensor.shape, dtype=dtype or tensor.dtype, name=name)
        if dtype is not None and dtype != tensor.dtype:
            return zeros(shape_internal(tensor, optimize=optimize), dtype=dtype, name=name)
        return apply_op("ZerosLike", x=tensor, name=name)


def ones_like_v2(input, dtype=None, name=None):  # noqa: A002
    """TF 2's tf.ones_like (array_like_impl, as zeros_like): a constant when the shape is
    known and small, else OnesLike; tf_keras's layers call this one, where TF 1's
    ones_like (below) fills a shape."""
    with name_scope(name, "ones_like", [input]) as name:
        tensor = convert_to_tensor(input, name="tensor")
        if tensor.shape.is_fully_defined() and tensor.dtype != dtypes.variant:
            return ones(tensor.shape, dtype=dtype or tensor.dtype, name=name)
        if dtype is not None and dtype != tensor.dtype and dtype != dtypes.variant:
            return ones(shape_internal(tensor), dtype=dtype, name=name)
        return apply_op("OnesLike", x=tensor, name=name)


def ones_like(tensor, dtype=None, name=None, optimize=True):
    with name_scope(name, "ones_like", [tensor]) as name:
        tensor = convert_to_tensor(tensor, name="tensor")
        ones_shape = shape_internal(tensor, optimize=optimize)
        result = ones(ones_shape, dtype=dtype or tensor.dtype, name=name)
        result.set_shape(tensor.shape)
        return result
