"""tf.nn.depthwise_conv2d, depthwise_conv2d_native, lrn / local_response_normalization as
TF 1.x builds them (nn_impl.py, gen_nn_ops)."""

from engine.default_graph import name_scope
from engine.ops import array_ops
from engine import dtypes
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.tensor_util import constant_value


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
    """tf.nn.depthwise_conv2d (v1): DepthwiseConv2dNative inside nn_ops.with_space_to_batch,
    which for rate 1 adds only its two constants (the filter's shape, the dilation rate)."""
    rate = dilations if rate is None else rate
    with name_scope(name, "depthwise", [input, filter]) as name:
        input = convert_to_tensor(input, name="tensor_in")  # noqa: A001
        filter = convert_to_tensor(filter, name="filter_in")  # noqa: A001
        if rate is None:
            rate = [1, 1]
        array_ops.shape(filter)  # with_space_to_batch's filter_shape, built and left unused
        dilation_rate = convert_to_tensor(rate, dtypes.int32, name="dilation_rate")
        if dilation_rate.shape.ndims not in (None, 1):
            raise ValueError(f"`dilation_rate.shape.rank` must be 1. Received: "
                             f"dilation_rate={rate} of rank {dilation_rate.shape.ndims}")
        const_rate = constant_value(dilation_rate)
        if const_rate is None or any(int(r) != 1 for r in const_rate.reshape(-1)):
            # TensorFlow wraps the op in SpaceToBatchND / BatchToSpaceND then; the engine
            # has neither yet.
            raise NotImplementedError(f"tf.nn.depthwise_conv2d with rate={rate} is not "
                                      f"supported by the engine yet (only rate 1)")
        return depthwise_conv2d_native(input, filter, strides, padding,
                                       data_format=data_format or "NHWC", name=name)


def lrn(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, name=None):  # noqa: A002
    """Local response normalization over the last axis of a 4-D input."""
    return apply_op("LRN", input=input, depth_radius=depth_radius, bias=bias, alpha=alpha,
                    beta=beta, name=name)


local_response_normalization = lrn
