"""tf.constant: a Const node whose value attr is exactly the TensorProto TensorFlow writes."""

from engine.framework import dtypes, op_callbacks
from engine.framework.graph import get_default_graph
from engine.proto import attr_value_pb2
from engine.framework.tensor_shape import TensorShape
from engine.framework.tensor_util import make_tensor_proto


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """TF 1.x tf.constant: fewer values than `shape` holds repeat the last one."""
    return _constant_impl(value, dtype, shape, name, verify_shape, allow_broadcast=False)


def constant_v2(value, dtype=None, shape=None, name="Const"):
    return _constant_impl(value, dtype, shape, name, False, allow_broadcast=True)


def _constant_impl(value, dtype, shape, name, verify_shape, allow_broadcast):
    graph = get_default_graph()
    tensor_value = attr_value_pb2.AttrValue()
    tensor_value.tensor.CopyFrom(make_tensor_proto(value, dtype=dtype, shape=shape,
                                                   verify_shape=verify_shape,
                                                   allow_broadcast=allow_broadcast))
    dtype_value = attr_value_pb2.AttrValue(type=tensor_value.tensor.dtype)
    out_dtype = dtypes.as_dtype(dtype_value.type)
    op = graph._create_op_internal(
        "Const", [], [out_dtype], attrs={"value": tensor_value, "dtype": dtype_value},
        name=name, shapes=[TensorShape(tensor_value.tensor.tensor_shape)])
    if op_callbacks.active and op_callbacks.should_invoke_op_callbacks():
        replaced = op_callbacks.invoke_op_callbacks("Const", (), op.node_def.attr,
                                                    (op._outputs[0],), op_name=name,
                                                    graph=graph)
        if replaced is not None:
            return replaced[0]
    return op._outputs[0]


def is_constant(tensor_or_op):
    op = getattr(tensor_or_op, "op", tensor_or_op)
    return op.type == "Const"
