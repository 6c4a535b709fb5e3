"""tf.nn.depth_to_space and space_to_depth (DepthToSpace, SpaceToDepth), and the dilated
and separable convolutions built of existing ops: tf.nn.separable_conv2d (a depthwise
convolution, then a 1x1 Conv2D) and tf.nn.atrous_conv2d (a Conv2D between SpaceToBatchND and
BatchToSpaceND), with TensorFlow 2.21's nodes and names."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, nn_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.nn_conv_norm_ops import (_adjust, _space_to_batch_paddings,
                                         batch_to_space_nd, depthwise_conv2d_native,
                                         space_to_batch_nd)
from engine.ops.op_def_library import apply_op


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    return apply_op("DepthToSpace", input=input, block_size=block_size,
                    data_format=data_format, name=name)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    return apply_op("SpaceToDepth", input=input, block_size=block_size,
                    data_format=data_format, name=name)


def _checked_rate(rate):
    """dilation_rate as an int32 Const (named as TensorFlow names it) and its value."""
    dilation_rate = convert_to_tensor(rate, dtypes.int32, name="dilation_rate")
    if dilation_rate.shape.ndims not in (None, 1):
        raise ValueError(f"`dilation_rate.shape.rank` must be 1. Received: "
                         f"dilation_rate={dilation_rate} of rank {dilation_rate.shape.ndims}")
    const_rate = constant_value(dilation_rate)
    if const_rate is not None and (const_rate < 1).any():
        raise ValueError(f"`dilation_rate` must be positive. Received: "
                         f"dilation_rate={const_rate}")
    return dilation_rate, const_rate


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
        filter_shape = array_ops.shape(depthwise_filter)
        dilation_rate, const_rate = _checked_rate(rate)
        data_format = data_format or "NHWC"
        if const_rate is not None and (const_rate == 1).all():
            depthwise = depthwise_conv2d_native(input, depthwise_filter, strides, padding,
                                                data_format=data_format, name="depthwise")
        else:
            spatial_dims = [2, 3] if data_format.startswith("NC") else [1, 2]
            paddings, crops = _space_to_batch_paddings(input, filter_shape, dilation_rate,
                                                       const_rate, padding, spatial_dims, rate)
            block = _adjust(const_rate, 1, spatial_dims)
            converted = space_to_batch_nd(input, block, _adjust(paddings, 0, spatial_dims))
            result = depthwise_conv2d_native(converted, depthwise_filter, strides, "VALID",
                                             data_format=data_format, name="depthwise")
            depthwise = batch_to_space_nd(result, block, _adjust(crops, 0, spatial_dims))
        return nn_ops.conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], padding="VALID",
                             data_format=data_format, name=name)


def atrous_conv2d(value, filters, rate, padding, name=None):
    """tf.nn.atrous_conv2d: tf.nn.convolution with dilation_rate [rate, rate]: a Conv2D
    named as the "convolution" scope, between SpaceToBatchND and BatchToSpaceND when the
    rate is above 1 (the paddings computed in Python from the static shapes)."""
    with name_scope(name, "convolution", [value, filters]) as name:
        value = convert_to_tensor(value, name="input")
        filters = convert_to_tensor(filters, name="filters")
        rates = np.broadcast_to(np.asarray(rate, np.int32), (2,))
        if (rates == 1).all():
            return nn_ops.conv2d(value, filters, [1, 1, 1, 1], padding, name=name)
        dilation_rate, const_rate = _checked_rate(rates)
        filter_dims = filters.get_shape().as_list() if filters.shape.ndims is not None \
            else None
        input_dims = value.get_shape().as_list() if value.shape.ndims is not None else None
        if input_dims is None or None in input_dims[1:3] or (
                padding == "SAME" and (filter_dims is None or None in filter_dims[:2])):
            raise NotImplementedError(f"tf.nn.atrous_conv2d with rate={rate} needs the "
                                      f"input's spatial shape (and for SAME padding the "
                                      f"filter's) known when the graph is built (the engine "
                                      f"has no dynamic path yet)")
        if padding == "SAME":
            # _with_space_to_batch_base_paddings: the dilated filter's extent, split.
            convert_to_tensor(filter_dims, name="filter_shape")
            extra = (np.asarray(filter_dims[:2], np.int32) - 1) * const_rate
            base = convert_to_tensor(np.stack([[extra[i] // 2, extra[i] - extra[i] // 2]
                                               for i in range(2)]), name="stack")
        elif padding == "VALID":
            base = np.zeros([2, 2], np.int32)
        else:
            raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: "
                             f"padding={padding}")
        with name_scope(None, "required_space_to_batch_paddings"):
            convert_to_tensor(input_dims[1:3], dtypes.int32, name="input_shape")
            base = constant_value(convert_to_tensor(base, dtypes.int32, name="base_paddings"))
            full = np.asarray(input_dims[1:3], np.int32) + base[:, 0] + base[:, 1]
            extra_end = (const_rate - full % const_rate) % const_rate
            paddings = np.stack([[base[i, 0], base[i, 1] + extra_end[i]] for i in range(2)])
            crops = np.stack([[0, extra_end[i]] for i in range(2)])
            convert_to_tensor(paddings, name="paddings")
            convert_to_tensor(crops, name="crops")
        converted = space_to_batch_nd(value, const_rate, paddings)
        result = nn_ops.conv2d(converted, filters, [1, 1, 1, 1], "VALID", name=name)
        return batch_to_space_nd(result, const_rate, crops)
