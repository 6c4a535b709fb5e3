"""tf.bitwise: the bits of integers (BitwiseAnd, BitwiseOr, BitwiseXor, Invert, LeftShift,
RightShift), each TensorFlow's generated wrapper."""

from engine.ops.op_def_library import apply_op


def _binary(op_type):
    def fn(x, y, name=None):
        return apply_op(op_type, x=x, y=y, name=name)
    return fn


bitwise_and = _binary("BitwiseAnd")
bitwise_or = _binary("BitwiseOr")
bitwise_xor = _binary("BitwiseXor")
left_shift = _binary("LeftShift")
right_shift = _binary("RightShift")


def invert(x, name=None):
    return apply_op("Invert", x=x, name=name)
