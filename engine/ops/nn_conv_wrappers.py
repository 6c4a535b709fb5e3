"""tf.nn's wrappers over the convolution and pooling ops the engine already runs (TensorFlow's
nn_ops.py and nn_impl.py): the backprop ops by name, the 1-D and n-D transposed
convolutions and pools, atrous_conv2d_transpose, relu_layer,
batch_norm_with_global_normalization, and the distribution-aware loss scalings (one replica
outside a strategy, as in TensorFlow's default strategy)."""

import collections.abc

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops, shape_ops
from engine.ops.batch_norm import batch_normalization
from engine.ops.convert import convert_to_tensor
from engine.ops.nn_extra_ops import conv2d_transpose
from engine.ops.nn_ops import _get_sequence, convert_padding
from engine.ops.space_batch_ops import batch_to_space_nd, space_to_batch_nd, with_space_to_batch
from engine.ops.op_def_library import apply_op
from engine.ops.volumetric_ops import max_pool3d


# -- the backprop ops by name -----------------------------------------------------------------

def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1),
                           name=None):
    padding, explicit_paddings = convert_padding(padding)
    return apply_op("Conv2DBackpropFilter", input=input, filter_sizes=filter_sizes,
                    out_backprop=out_backprop, strides=strides, padding=padding,
                    use_cudnn_on_gpu=use_cudnn_on_gpu, explicit_paddings=explicit_paddings,
                    data_format=data_format, dilations=list(dilations), name=name)


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None,  # noqa: A002
                          padding=None, use_cudnn_on_gpu=True, data_format="NHWC",
                          dilations=(1, 1, 1, 1), name=None, filters=None):
    filter = filters if filters is not None else filter  # noqa: A001
    padding, explicit_paddings = convert_padding(padding)
    return apply_op("Conv2DBackpropInput", input_sizes=input_sizes, filter=filter,
                    out_backprop=out_backprop, strides=strides, padding=padding,
                    use_cudnn_on_gpu=use_cudnn_on_gpu, explicit_paddings=explicit_paddings,
                    data_format=data_format, dilations=list(dilations), name=name)


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                              data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
    return apply_op("Conv3DBackpropFilterV2", input=input, filter_sizes=filter_sizes,
                    out_backprop=out_backprop, strides=strides, padding=padding,
                    data_format=data_format, dilations=list(dilations), name=name)


def depthwise_conv2d_native_backprop_filter(input, filter_sizes,  # noqa: A002
                                            out_backprop, strides, padding, data_format="NHWC",
                                            dilations=(1, 1, 1, 1), name=None):
    padding, explicit_paddings = convert_padding(padding)
    return apply_op("DepthwiseConv2dNativeBackpropFilter", input=input,
                    filter_sizes=filter_sizes, out_backprop=out_backprop, strides=strides,
                    padding=padding, explicit_paddings=explicit_paddings,
                    data_format=data_format, dilations=list(dilations), name=name)


def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa: A002
                                           padding, data_format="NHWC",
                                           dilations=(1, 1, 1, 1), name=None):
    padding, explicit_paddings = convert_padding(padding)
    return apply_op("DepthwiseConv2dNativeBackpropInput", input_sizes=input_sizes,
                    filter=filter, out_backprop=out_backprop, strides=strides,
                    padding=padding, explicit_paddings=explicit_paddings,
                    data_format=data_format, dilations=list(dilations), name=name)


# -- transposed convolutions ------------------------------------------------------------------

def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None):
    with name_scope(name, "conv1d_transpose", [input, filters, output_shape]) as name:
        if data_format is None or data_format == "NWC":
            data_format, spatial_start_dim, channel_index = "NHWC", 1, 2
        elif data_format == "NCW":
            data_format, spatial_start_dim, channel_index = "NCHW", 2, 1
        else:
            raise ValueError("`data_format` must be 'NWC' or 'NCW'. "
                             f"Received: data_format={data_format}")
        strides = [1] + _get_sequence(strides, 1, channel_index, "stride")
        dilations = [1] + _get_sequence(dilations, 1, channel_index, "dilations")
        input = array_ops.expand_dims(input, spatial_start_dim)  # noqa: A001
        filters = array_ops.expand_dims(filters, 0)
        if not hasattr(output_shape, "op"):
            output_shape = list(output_shape)
        output_shape = array_ops.concat([output_shape[:spatial_start_dim], [1],
                                         output_shape[spatial_start_dim:]], 0)
        result = apply_op("Conv2DBackpropInput", input_sizes=output_shape, filter=filters,
                          out_backprop=input, strides=strides, padding=padding,
                          explicit_paddings=[], data_format=data_format,
                          dilations=dilations, name=name)
        return array_ops.squeeze(result, [spatial_start_dim])


def conv3d_transpose_v2(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                        data_format="NDHWC", dilations=None, name=None):
    with name_scope(name, "conv3d_transpose", [input, filters, output_shape]) as name:
        data_format = data_format or "NDHWC"
        channel_index = 1 if data_format.startswith("NC") else 4
        return apply_op("Conv3DBackpropInputV2", input_sizes=output_shape, filter=filters,
                        out_backprop=input,
                        strides=_get_sequence(strides, 3, channel_index, "strides"),
                        padding=padding, data_format=data_format,
                        dilations=_get_sequence(dilations, 3, channel_index, "dilations"),
                        name=name)


def conv3d_transpose(value, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NDHWC", name=None, input=None,  # noqa: A002
                     filters=None, dilations=None):
    filter = filters if filters is not None else filter  # noqa: A001
    value = input if input is not None else value
    return conv3d_transpose_v2(value, filter, output_shape, strides, padding=padding,
                               data_format=data_format, dilations=dilations, name=name)


def _conv2d_transpose_v2(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                         data_format="NHWC", dilations=None, name=None):
    with name_scope(name, "conv2d_transpose", [input, filters, output_shape]) as name:
        data_format = data_format or "NHWC"
        channel_index = 1 if data_format.startswith("NC") else 3
        padding, explicit_paddings = convert_padding(padding)
        return apply_op("Conv2DBackpropInput", input_sizes=output_shape, filter=filters,
                        out_backprop=input,
                        strides=_get_sequence(strides, 2, channel_index, "strides"),
                        padding=padding, explicit_paddings=explicit_paddings,
                        data_format=data_format,
                        dilations=_get_sequence(dilations, 2, channel_index, "dilations"),
                        name=name)


_CONV_TRANSPOSE_OPS = (conv1d_transpose, _conv2d_transpose_v2, conv3d_transpose_v2)


def conv_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                   data_format=None, dilations=None, name=None):
    """conv1d/2d/3d_transpose by the length of output_shape."""
    with name_scope(name, "conv_transpose", [input, filters, output_shape]) as name:
        if hasattr(output_shape, "op"):
            n = output_shape.shape.as_list()[0] - 2
        elif isinstance(output_shape, collections.abc.Sized):
            n = len(output_shape) - 2
        else:
            raise ValueError("`output_shape` must be a tensor or sized collection. "
                             f"Received: output_shape={output_shape}")
        if not 1 <= n <= 3:
            raise ValueError(f"`output_shape` must be of length 3, 4 or 5. "
                             f"Received: output_shape={output_shape} of length {n + 2}.")
        return _CONV_TRANSPOSE_OPS[n - 1](input, filters, output_shape, strides,
                                          padding=padding, data_format=data_format,
                                          dilations=dilations, name=name)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of atrous_conv2d: space_to_batch, Conv2DBackpropInput, batch_to_space."""
    with name_scope(name, "atrous_conv2d_transpose", [value, filters, output_shape]) as name:
        value = convert_to_tensor(value, name="value")
        filters = convert_to_tensor(filters, name="filters")
        value_channels = value.shape.as_list()[3]
        filter_channels = filters.shape.as_list()[3]
        if None not in (value_channels, filter_channels) and value_channels != filter_channels:
            raise ValueError(
                "`value` channel count must be compatible with `filters` input channel count. "
                f"Received: value.shape={value.shape} with channel count {value_channels} "
                f"and filters.shape={filters.shape} with input channel count "
                f"{filter_channels}.")
        if rate < 1:
            raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
        if rate == 1:
            return conv2d_transpose(value, filters, output_shape, strides=[1, 1, 1, 1],
                                    padding=padding, data_format="NHWC")
        output_shape_ = convert_to_tensor(output_shape, name="output_shape")
        if not output_shape_.shape.is_compatible_with([4]):
            raise ValueError("`output_shape` must have shape (4,). "
                             f"Received: output_shape={output_shape_.shape}")
        if isinstance(output_shape, tuple):
            output_shape = list(output_shape)
        if padding == "SAME":
            if filters.shape.is_fully_defined():
                filter_shape = filters.shape.as_list()
            else:
                filter_shape = shape_ops.shape(filters)
            filter_height, filter_width = filter_shape[0], filter_shape[1]
            pad_height = filter_height + (filter_height - 1) * (rate - 1) - 1
            pad_width = filter_width + (filter_width - 1) * (rate - 1) - 1
            pad_top, pad_left = pad_height // 2, pad_width // 2
            pad_bottom, pad_right = pad_height - pad_top, pad_width - pad_left
        elif padding == "VALID":
            pad_top = pad_bottom = pad_left = pad_right = 0
        else:
            raise ValueError("`padding` must be either 'VALID' or 'SAME'. "
                             f"Received: padding={padding}")
        in_height = output_shape[1] + pad_top + pad_bottom
        in_width = output_shape[2] + pad_left + pad_right
        pad_bottom_extra = (rate - in_height % rate) % rate
        pad_right_extra = (rate - in_width % rate) % rate
        block_shape = np.array([rate, rate], np.int64)
        value = space_to_batch_nd(value, block_shape,
                                  [[0, pad_bottom_extra], [0, pad_right_extra]])
        input_sizes = [rate * rate * output_shape[0], (in_height + pad_bottom_extra) // rate,
                       (in_width + pad_right_extra) // rate, output_shape[3]]
        value = apply_op("Conv2DBackpropInput", input_sizes=input_sizes, filter=filters,
                         out_backprop=value, strides=[1, 1, 1, 1], padding="VALID",
                         explicit_paddings=[], data_format="NHWC")
        return batch_to_space_nd(value, block_shape, [[pad_top, pad_bottom + pad_bottom_extra],
                                                      [pad_left, pad_right + pad_right_extra]])


# -- pools of any rank ------------------------------------------------------------------------

def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    with name_scope(name, "MaxPool1d", [input]) as name:
        data_format = data_format or "NWC"
        channel_index = 1 if data_format.startswith("NC") else 2
        ksize = [1] + _get_sequence(ksize, 1, channel_index, "ksize")
        strides = [1] + _get_sequence(strides, 1, channel_index, "strides")
        padding, explicit_paddings = convert_padding(padding, 3)
        if padding == "EXPLICIT":
            explicit_paddings = [0, 0] + explicit_paddings
        expanding_dim = 1 if data_format == "NWC" else 2
        data_format = "NHWC" if data_format == "NWC" else "NCHW"
        input = array_ops.expand_dims(input, expanding_dim)  # noqa: A001
        result = apply_op("MaxPool", input=input, ksize=ksize, strides=strides,
                          padding=padding, explicit_paddings=explicit_paddings,
                          data_format=data_format, name=name)
        return array_ops.squeeze(result, [expanding_dim])


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    with name_scope(name, "MaxPool2d", [input]) as name:
        data_format = data_format or "NHWC"
        channel_index = 1 if data_format.startswith("NC") else 3
        padding, explicit_paddings = convert_padding(padding)
        return apply_op("MaxPool", input=input,
                        ksize=_get_sequence(ksize, 2, channel_index, "ksize"),
                        strides=_get_sequence(strides, 2, channel_index, "strides"),
                        padding=padding, explicit_paddings=explicit_paddings,
                        data_format=data_format, name=name)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    with name_scope(name, "AvgPool1D", [input]) as name:
        data_format = data_format or "NWC"
        channel_index = 1 if data_format.startswith("NC") else 2
        ksize = [1] + _get_sequence(ksize, 1, channel_index, "ksize")
        strides = [1] + _get_sequence(strides, 1, channel_index, "strides")
        expanding_dim = 1 if data_format == "NWC" else 2
        data_format = "NHWC" if data_format == "NWC" else "NCHW"
        input = array_ops.expand_dims(input, expanding_dim)  # noqa: A001
        result = apply_op("AvgPool", value=input, ksize=ksize, strides=strides,
                          padding=padding, data_format=data_format, name=name)
        return array_ops.squeeze(result, [expanding_dim])


def _pool_rank(input, data_format):  # noqa: A002
    if input.shape.ndims is not None:
        n = input.shape.ndims - 2
    elif data_format is not None:
        n = len(data_format) - 2
    else:
        raise ValueError("`input` must have a static shape or a data format must be given. "
                         f"Received: input.shape={input.shape} and "
                         f"data_format={data_format}")
    if not 1 <= n <= 3:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: "
                         f"input.shape={input.shape} of rank {n + 2}.")
    channel_index = n + 1 if data_format is None else (
        1 if data_format.startswith("NC") else n + 1)
    return n, channel_index


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """max_pool1d, max_pool2d or max_pool3d by the input's rank."""
    input = convert_to_tensor(input)  # noqa: A001
    n, channel_index = _pool_rank(input, data_format)
    ksize = _get_sequence(ksize, n, channel_index, "ksize")
    strides = _get_sequence(strides, n, channel_index, "strides")
    if isinstance(padding, (list, tuple)) and n == 3:
        raise ValueError("Explicit padding is not supported with an input tensor of rank 5. "
                         f"Received: padding={padding}")
    if n == 3:
        return max_pool3d(input, ksize=ksize, strides=strides, padding=padding,
                          data_format=data_format or "NDHWC", name=name)
    return (max_pool1d, max_pool2d)[n - 1](input, ksize=ksize, strides=strides,
                                           padding=padding, data_format=data_format,
                                           name=name)


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """avg_pool1d, AvgPool or AvgPool3D by the input's rank."""
    input = convert_to_tensor(input)  # noqa: A001
    n, channel_index = _pool_rank(input, data_format)
    ksize = _get_sequence(ksize, n, channel_index, "ksize")
    strides = _get_sequence(strides, n, channel_index, "strides")
    if n == 1:
        return avg_pool1d(input, ksize=ksize, strides=strides, padding=padding,
                          data_format=data_format, name=name)
    op, default_format = ("AvgPool", "NHWC") if n == 2 else ("AvgPool3D", "NDHWC")
    return apply_op(op, **{"value" if n == 2 else "input": input}, ksize=ksize,
                    strides=strides, padding=padding,
                    data_format=data_format or default_format, name=name)


# -- convolution and pool of any rank -------------------------------------------------------

def convolution(input, filter, padding, strides=None, dilation_rate=None, name=None,  # noqa: A002
                data_format=None, filters=None, dilations=None):
    """Conv1D (conv1d), Conv2D or Conv3D by the filter's rank (convolution_internal); a
    dilated one as the undilated op over SpaceToBatchND's blocks (TensorFlow's Convolution
    through with_space_to_batch)."""
    from engine.ops.nn_extra_ops import conv1d
    from engine.ops.nn_ops import conv2d
    from engine.ops.volumetric_ops import conv3d
    filters = filters if filters is not None else filter
    dilations = dilations if dilations is not None else dilation_rate
    if not hasattr(filters, "op"):
        with name_scope("convolution_internal", None, [filters, input]):
            filters = convert_to_tensor(filters, name="filters")
    if not hasattr(input, "op"):
        with name_scope("convolution_internal", None, [filters, input]):
            input = convert_to_tensor(input, name="input")  # noqa: A001
    filters_rank, inputs_rank = filters.shape.ndims, input.shape.ndims
    if filters_rank:
        num_spatial_dims = filters_rank - 2
    elif inputs_rank:
        num_spatial_dims = inputs_rank - 2
    else:
        raise ValueError("When `num_spatial_dims` is not set, one of `input.shape.rank` or "
                         "`filters.shape.rank` must be known. "
                         f"Received: input.shape={input.shape} of rank {inputs_rank} and "
                         f"filters.shape={filters.shape} of rank {filters_rank}")
    num_batch_dims = inputs_rank - num_spatial_dims - 1 if inputs_rank else 1
    if num_spatial_dims not in {1, 2, 3}:
        raise ValueError("`num_spatial_dims` must be 1, 2, or 3. "
                         f"Received: num_spatial_dims={num_spatial_dims}.")
    if data_format is None or not data_format.startswith("NC"):
        channel_index = num_batch_dims + num_spatial_dims
    else:
        channel_index = num_batch_dims
    dilations = _get_sequence(dilations, num_spatial_dims, channel_index, "dilations")
    strides = _get_sequence(strides, num_spatial_dims, channel_index, "strides")
    with name_scope(name, None if name else "convolution", [input, filters]) as name:
        if any(d != 1 for d in dilations):
            return _dilated_convolution(input, filters, padding, strides, dilations,
                                        data_format, channel_index, num_spatial_dims, name)
        if num_spatial_dims == 2:
            return conv2d(input, filters, strides, padding, data_format=data_format or "NHWC",
                          dilations=dilations, name=name)
        if num_spatial_dims == 3:
            return conv3d(input, filters, strides, padding,
                          data_format=data_format or "NDHWC", dilations=dilations, name=name)
        return conv1d(input, filters, strides, padding=padding, data_format=data_format,
                      dilations=dilations, name=name)


def _dilated_convolution(input, filters, padding, strides, dilations, data_format,  # noqa: A002
                         channel_index, num_spatial_dims, name):
    """The undilated op over SpaceToBatchND's blocks, as TensorFlow's Convolution builds it
    through _WithSpaceToBatch (a spatial shape unknown while building: its paddings computed
    in the graph from the input's Shape)."""
    from engine.ops.nn_extra_ops import conv1d
    from engine.ops.nn_ops import conv2d
    from engine.ops.volumetric_ops import conv3d
    spatial = slice(2, None) if channel_index == 1 else slice(1, -1)
    strides, rate = list(strides)[spatial], list(dilations)[spatial]
    if any(s != 1 for s in strides):
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={strides} and dilation_rate={rate}")
    step = [1] * (num_spatial_dims + 2)

    def op(converted, _, converted_padding):
        if num_spatial_dims == 2:
            return conv2d(converted, filters, step, converted_padding,
                          data_format=data_format or "NHWC", name=name)
        if num_spatial_dims == 3:
            return conv3d(converted, filters, step, converted_padding,
                          data_format=data_format or "NDHWC", name=name)
        return conv1d(converted, filters, 1, padding=converted_padding,
                      data_format=data_format, name=name)

    filter_shape = filters.shape.as_list() if filters.shape.is_fully_defined() else None
    first = 2 if channel_index == 1 else 1
    return with_space_to_batch(input, rate, padding, op, filter_shape=filter_shape,
                               spatial_dims=list(range(first, first + num_spatial_dims)),
                               data_format=data_format)


def pool(input, window_shape, pooling_type, padding, dilation_rate=None, strides=None,  # noqa: A002
         name=None, data_format=None, dilations=None):
    """MAX or AVG pooling of 1-3 spatial dims through max_pool/avg_pool(3d); with a dilation
    rate above 1 (VALID padding), the pool of SpaceToBatchND's blocks put back by
    BatchToSpaceND, as with_space_to_batch (its paddings computed here from the static
    input shape)."""
    from engine.ops.nn_ops import avg_pool, max_pool
    from engine.ops.volumetric_ops import avg_pool3d
    dilation_rate = dilations if dilations is not None else dilation_rate
    with name_scope(name, "%s_pool" % pooling_type.lower(), [input]) as scope:
        input = convert_to_tensor(input, name="input")  # noqa: A001
        num_spatial_dims = len(window_shape)
        if num_spatial_dims < 1 or num_spatial_dims > 3:
            raise ValueError("`len(window_shape)` must be 1, 2, or 3. Received: "
                             f"window_shape={window_shape} of length {len(window_shape)}")
        input.shape.with_rank(num_spatial_dims + 2)
        strides = np.ones(num_spatial_dims, np.int64) if strides is None else np.array(strides)
        dilation_rate = (np.ones(num_spatial_dims, np.int64) if dilation_rate is None
                         else np.array(dilation_rate))
        if padding == "SAME" and np.any(dilation_rate > 1):
            raise ValueError("pooling with 'SAME' padding is not implemented for "
                             f"`dilation_rate` > 1. Received: padding={padding} and "
                             f"dilation_rate={dilation_rate}")
        if np.any(strides > window_shape):
            raise ValueError("`strides` > `window_shape` not supported due to inconsistency "
                             f"between CPU and GPU implementations. Received: strides={strides}"
                             f" and window_shape={window_shape}")
        ops = {("MAX", 1): max_pool, ("MAX", 2): max_pool, ("MAX", 3): max_pool3d,
               ("AVG", 1): avg_pool, ("AVG", 2): avg_pool, ("AVG", 3): avg_pool3d}
        if (pooling_type, num_spatial_dims) not in ops:
            raise ValueError(f"{num_spatial_dims}-D {pooling_type} pooling is not supported.")
        if data_format is None or not data_format.startswith("NC"):
            window = [1] + list(window_shape) + [1]
            steps = [1] + list(strides) + [1]
            spatial_start = 1
        else:
            window, steps, spatial_start = [1, 1] + list(window_shape), [1, 1] + list(strides), 2
        if num_spatial_dims == 1:
            if data_format is None or data_format == "NWC":
                data_format = "NHWC"
            elif data_format == "NCW":
                data_format = "NCHW"
            else:
                raise ValueError("data_format must be either 'NWC' or 'NCW'. "
                                 f"Received: data_format={data_format}")
            window, steps = [1] + window, [1] + steps
        kwargs = {} if data_format is None else {"data_format": data_format}

        def op(converted, converted_padding):
            if num_spatial_dims == 1:
                converted = array_ops.expand_dims(converted, spatial_start)
            result = ops[(pooling_type, num_spatial_dims)](
                converted, [int(v) for v in window], [int(v) for v in steps],
                converted_padding, name=scope, **kwargs)
            if num_spatial_dims == 1:
                result = array_ops.squeeze(result, [spatial_start])
            return result

        spatial_dims = list(range(spatial_start, spatial_start + num_spatial_dims))
        return with_space_to_batch(input, dilation_rate, padding,
                                   lambda converted, _, converted_padding:
                                   op(converted, converted_padding),
                                   filter_shape=window_shape, spatial_dims=spatial_dims)


# -- nn_impl ----------------------------------------------------------------------------------

def relu_layer(x, weights, biases, name=None):
    """Relu(matmul(x, weights) + biases)."""
    with name_scope(name, "relu_layer", [x, weights, biases]) as name:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        xw_plus_b = math_ops.bias_add(math_ops.matmul(x, weights), biases)
        return apply_op("Relu", features=xw_plus_b, name=name)


def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None,
                                         variance_epsilon=None,
                                         scale_after_normalization=None, name=None,
                                         input=None, mean=None, variance=None):  # noqa: A002
    """batch_normalization with gamma only when scale_after_normalization."""
    t = input if input is not None else t
    m = mean if mean is not None else m
    v = variance if variance is not None else v
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None,
                               variance_epsilon, name)


def _scale_losses_by_sample_weight(losses, sample_weight):
    """losses * sample_weight in float32, the weights' rank brought to the losses' (losses_util's
    squeeze_or_expand_dimensions on static ranks)."""
    losses = math_ops.cast(losses, dtypes.float32)
    sample_weight = math_ops.cast(sample_weight, dtypes.float32)
    loss_rank, weight_rank = losses.shape.ndims, sample_weight.shape.ndims
    if weight_rank and loss_rank is not None:
        if weight_rank - loss_rank == 1:
            sample_weight = array_ops.squeeze(sample_weight, [-1])
        elif loss_rank - weight_rank == 1:
            sample_weight = array_ops.expand_dims(sample_weight, [-1])
    return math_ops.multiply(losses, sample_weight)


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size (by default the first
    dimension: one replica), 0 when that is 0."""
    from engine.ops import check_ops
    per_example_loss = convert_to_tensor(per_example_loss)
    input_dtype = per_example_loss.dtype
    if per_example_loss.shape.ndims == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor "
                         "with at least rank 1. Received per_example_loss="
                         f"{per_example_loss}")
    if sample_weight is not None:
        sample_weight = convert_to_tensor(sample_weight)
        per_example_loss = _scale_losses_by_sample_weight(per_example_loss, sample_weight)
    per_example_loss = math_ops.cast(per_example_loss, input_dtype)
    if global_batch_size is None:
        global_batch_size = shape_ops.shape(per_example_loss)[0] * 1
    check_ops.assert_scalar(global_batch_size, message="global_batch_size must be scalar.")
    check_ops.assert_integer(global_batch_size, message="global_batch_size must be an integer.")
    check_ops.assert_non_negative(global_batch_size,
                                  message="global_batch_size must be non-negative.")
    loss = math_ops.reduce_sum(per_example_loss)
    global_batch_size = math_ops.cast(global_batch_size, input_dtype)
    return math_ops.div_no_nan(loss, global_batch_size)


def scale_regularization_loss(regularization_loss):
    """sum(regularization_loss) divided by the number of replicas (one)."""
    return math_ops.reduce_sum(regularization_loss) / 1

