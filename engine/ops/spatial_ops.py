"""tf.nn.depth_to_space and space_to_depth (DepthToSpace, SpaceToDepth), and the dilated
and separable convolutions built of existing ops: tf.nn.separable_conv2d (a depthwise
convolution, then a 1x1 Conv2D) and tf.nn.atrous_conv2d (a Conv2D between SpaceToBatchND and
BatchToSpaceND), with TensorFlow 2.21's nodes and names."""

import numpy as np

from engine.framework.default_graph import name_scope
from engine.ops import array_ops, nn_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.nn_conv_norm_ops import depthwise_conv2d_native
from engine.ops.nn_conv_wrappers import convolution
from engine.ops.space_batch_ops import with_space_to_batch
from engine.ops.op_def_library import apply_op


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    return apply_op("DepthToSpace", input=input, block_size=block_size,
                    data_format=data_format, name=name)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    return apply_op("SpaceToDepth", input=input, block_size=block_size,
                    data_format=data_format, name=name)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     rate=None, name=None, data_format=None, dilations=None):
    """tf.nn.separable_conv2d (v1): DepthwiseConv2dNative "depthwise" (inside
    SpaceToBatchND / BatchToSpaceND for a rate above 1), then a VALID 1x1 Conv2D named as
    the scope."""
    rate = dilations if rate is None else rate
    with name_scope(name, "separable_conv2d",
                    [input, depthwise_filter, pointwise_filter]) as name:
        input = convert_to_tensor(input, name="tensor_in")  # noqa: A001
        depthwise_filter = convert_to_tensor(depthwise_filter, name="depthwise_filter")
        pointwise_filter = convert_to_tensor(pointwise_filter, name="pointwise_filter")
        pointwise_shape = pointwise_filter.get_shape().with_rank(4).as_list()
        for dim in pointwise_shape[:2]:
            if dim not in (None, 1):
                raise ValueError(f"Dimensions {dim} and 1 are not compatible")
        if rate is None:
            rate = [1, 1]
        data_format = data_format or "NHWC"

        def op(converted, _, converted_padding):
            return depthwise_conv2d_native(converted, depthwise_filter, strides,
                                           converted_padding, data_format=data_format,
                                           name="depthwise")

        depthwise = with_space_to_batch(input, rate, padding, op,
                                        filter_shape=array_ops.shape(depthwise_filter))
        return nn_ops.conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], padding="VALID",
                             data_format=data_format, name=name)


def atrous_conv2d(value, filters, rate, padding, name=None):
    """tf.nn.atrous_conv2d: tf.nn.convolution with dilation_rate [rate, rate], as
    TensorFlow's (a Conv2D between SpaceToBatchND and BatchToSpaceND for a rate above 1)."""
    return convolution(input=value, filter=filters, padding=padding,
                       dilation_rate=np.broadcast_to(rate, (2,)), name=name)
