"""A tensor's shape, size and rank as tensors (tf.shape, tf.size, tf.rank): constants when known."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op


def shape_internal(input, name=None, optimize=True, out_type=None):  # noqa: A002
    with name_scope(name, "Shape", [input]) as name:
        input = convert_to_tensor(input)
        if optimize and input.shape.is_fully_defined():
            if not out_type:
                return convert_to_tensor(input.shape, name="shape_as_tensor")
            return constant(input.shape.as_list(), out_type, name=name)
        return apply_op("Shape", input=input, out_type=out_type or dtypes.int32, name=name)


def shape(input, name=None, out_type=None):  # noqa: A002
    if out_type is None:
        out_type = dtypes.int32
    return shape_internal(input, name, optimize=True, out_type=out_type)


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return apply_op("ShapeN", input=list(input), out_type=out_type, name=name)


def size(input, name=None, out_type=dtypes.int32):  # noqa: A002
    with name_scope(name, "Size", [input]) as name:
        input = convert_to_tensor(input)
        input_shape = input.shape
        if input_shape.is_fully_defined():
            return constant(input_shape.num_elements(), out_type, name=name)
        if input_shape.dims and any(d.value == 0 for d in input_shape.dims):
            return constant(0, out_type, name=name)
        return apply_op("Size", input=input, out_type=out_type, name=name)


def rank(input, name=None):  # noqa: A002
    with name_scope(name, "Rank", [input]) as name:
        input = convert_to_tensor(input)
        if input.shape.ndims is not None:
            return constant(input.shape.ndims, dtypes.int32, name=name)
        return apply_op("Rank", input=input, name=name)
