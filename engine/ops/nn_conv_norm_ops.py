"""tf.nn.depthwise_conv2d, depthwise_conv2d_native, lrn / local_response_normalization,
tf.space_to_batch_nd and batch_to_space_nd as TF 1.x builds them (nn_impl.py, nn_ops.py's
with_space_to_batch, gen_nn_ops, gen_array_ops)."""

from engine.framework.default_graph import name_scope
from engine.ops import array_ops
import numpy as np

from engine.framework import dtypes
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.framework.tensor_util import constant_value


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


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    return apply_op("SpaceToBatchND", input=input, block_shape=block_shape, paddings=paddings,
                    name=name)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    return apply_op("BatchToSpaceND", input=input, block_shape=block_shape, crops=crops,
                    name=name)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None,  # noqa: A002
                     data_format=None, dilations=None):
    """tf.nn.depthwise_conv2d (v1): DepthwiseConv2dNative inside nn_ops.with_space_to_batch.
    Rate 1 adds only its two constants (the filter's shape, the dilation rate); a larger rate
    pads and moves the input's blocks into the batch (SpaceToBatchND), convolves VALID and
    moves them back (BatchToSpaceND), all sizes computed in Python as TensorFlow does when
    the input's spatial shape and the filter's shape are known."""
    rate = dilations if rate is None else rate
    with name_scope(name, "depthwise", [input, filter]) as name:
        input = convert_to_tensor(input, name="tensor_in")  # noqa: A001
        filter = convert_to_tensor(filter, name="filter_in")  # noqa: A001
        if rate is None:
            rate = [1, 1]
        filter_shape = array_ops.shape(filter)
        dilation_rate = convert_to_tensor(rate, dtypes.int32, name="dilation_rate")
        if dilation_rate.shape.ndims not in (None, 1):
            raise ValueError(f"`dilation_rate.shape.rank` must be 1. Received: "
                             f"dilation_rate={dilation_rate} of rank {dilation_rate.shape.ndims}")
        const_rate = constant_value(dilation_rate)
        if const_rate is not None and (const_rate < 1).any():
            raise ValueError(f"`dilation_rate` must be positive. Received: "
                             f"dilation_rate={const_rate}")
        if const_rate is not None and (const_rate == 1).all():
            return depthwise_conv2d_native(input, filter, strides, padding,
                                           data_format=data_format or "NHWC", name=name)
        nchw = (data_format or "NHWC").startswith("NC")
        spatial_dims = [2, 3] if nchw else [1, 2]
        paddings, crops = _space_to_batch_paddings(input, filter_shape, dilation_rate,
                                                   const_rate, padding, spatial_dims, rate)
        block = _adjust(const_rate, 1, spatial_dims)
        converted = space_to_batch_nd(input, block, _adjust(paddings, 0, spatial_dims))
        result = depthwise_conv2d_native(converted, filter, strides, "VALID",
                                         data_format=data_format or "NHWC", name=name)
        return batch_to_space_nd(result, block, _adjust(crops, 0, spatial_dims))


def _space_to_batch_paddings(input, filter_shape, dilation_rate, const_rate, padding,  # noqa: A002
                             spatial_dims, rate):
    """nn_ops._WithSpaceToBatch's and array_ops.required_space_to_batch_paddings' constant
    path: (paddings, crops) as NumPy arrays, their Consts made where TensorFlow makes them."""
    const_filter_shape = constant_value(filter_shape)
    input_dims = input.shape.as_list() if input.shape.ndims is not None else None
    input_spatial = [input_dims[i] for i in spatial_dims] if input_dims else None
    if const_rate is None or const_filter_shape is None or input_spatial is None \
            or None in input_spatial:
        raise NotImplementedError(f"tf.nn.depthwise_conv2d with rate={rate} needs the "
                                  f"input's spatial shape, the filter's shape and the rate "
                                  f"known when the graph is built (the engine has no "
                                  f"dynamic path yet)")
    padding, explicit = _padding_attrs(padding)
    if padding == "SAME":
        extra = (const_filter_shape[:2] - 1) * const_rate
        base = convert_to_tensor(np.stack([[extra[i] // 2, extra[i] - extra[i] // 2]
                                           for i in range(2)]), name="stack")
    elif padding == "VALID":
        base = np.zeros([2, 2], np.int32)
    elif padding == "EXPLICIT":
        pairs = np.array(explicit).reshape([4, 2])
        base = pairs[2:] if spatial_dims[0] == 2 else pairs[1:-1]
    else:
        raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: "
                         f"padding={padding}")
    with name_scope(None, "required_space_to_batch_paddings", [input_spatial, dilation_rate]):
        convert_to_tensor(input_spatial, dtypes.int32, name="input_shape")
        base = constant_value(convert_to_tensor(base, dtypes.int32, name="base_paddings"))
        pad_start, pad_end = base[:, 0], base[:, 1]
        full = np.array(input_spatial, np.int32) + pad_start + pad_end
        pad_end_extra = (const_rate - full % const_rate) % const_rate
        paddings = np.stack([[pad_start[i], pad_end[i] + pad_end_extra[i]] for i in range(2)])
        crops = np.stack([[0, pad_end_extra[i]] for i in range(2)])
        convert_to_tensor(paddings, name="paddings")
        convert_to_tensor(crops, name="crops")
    return paddings, crops


def _adjust(values, fill_value, spatial_dims):
    """nn_ops._with_space_to_batch_adjust: `values` (one row per spatial dim) with fill rows
    for the non-spatial dims before them (NCHW's channel)."""
    parts = []
    if spatial_dims[0] > 1:  # the spatial dims are contiguous here: one fill before them
        parts.append(np.full([spatial_dims[0] - 1] + list(values.shape[1:]), fill_value,
                             values.dtype))
    parts.append(values)
    return np.concatenate(parts)


def lrn(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, name=None):  # noqa: A002
    """Local response normalization over the last axis of a 4-D input."""
    return apply_op("LRN", input=input, depth_radius=depth_radius, bias=bias, alpha=alpha,
                    beta=beta, name=name)


local_response_normalization = lrn
