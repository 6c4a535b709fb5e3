"""tf.nn.depthwise_conv2d, depthwise_conv2d_native, lrn / local_response_normalization,
tf.space_to_batch_nd and batch_to_space_nd as TF 1.x builds them (nn_impl.py, nn_ops.py's
with_space_to_batch, gen_nn_ops, gen_array_ops)."""

from engine.framework.default_graph import name_scope
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.space_batch_ops import (batch_to_space_nd, space_to_batch_nd,  # noqa: F401
                                        with_space_to_batch)


def _padding_attrs(padding):
    """(padding, explicit_paddings): a list of [before, after] pairs is EXPLICIT padding."""
    if isinstance(padding, (list, tuple)):
        return "EXPLICIT", [int(p) for pair in padding for p in pair]
    return padding, []


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002
                            dilations=(1, 1, 1, 1), name=None):
    """One DepthwiseConv2dNative: each input channel convolved with its own filters."""
    padding, explicit = _padding_attrs(padding)
    return apply_op("DepthwiseConv2dNative", input=input, filter=filter,
                    strides=list(strides), padding=padding, explicit_paddings=explicit,
                    data_format=data_format or "NHWC", dilations=list(dilations), name=name)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None,  # noqa: A002
                     data_format=None, dilations=None):
    """tf.nn.depthwise_conv2d (v1): DepthwiseConv2dNative inside with_space_to_batch, as
    TensorFlow's (its spatial dims the default ones, whatever the data format)."""
    rate = dilations if rate is None else rate
    with name_scope(name, "depthwise", [input, filter]) as name:
        input = convert_to_tensor(input, name="tensor_in")  # noqa: A001
        filter = convert_to_tensor(filter, name="filter_in")  # noqa: A001
        if rate is None:
            rate = [1, 1]

        def op(converted, _, converted_padding):
            return depthwise_conv2d_native(converted, filter, strides, converted_padding,
                                           data_format=data_format or "NHWC", name=name)

        return with_space_to_batch(input, rate, padding, op,
                                   filter_shape=array_ops.shape(filter))


def lrn(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, name=None):  # noqa: A002
    """Local response normalization over the last axis of a 4-D input."""
    return apply_op("LRN", input=input, depth_radius=depth_radius, bias=bias, alpha=alpha,
                    beta=beta, name=name)


local_response_normalization = lrn
