"""tf.conv (TensorFlow 2.x's generic Conv op), tf.conv2d_backprop_filter_v2 and
tf.conv2d_backprop_input_v2 (the filter or input given as a tensor, not its shape), and
tf.nn's quantized ops: quantized_conv2d, quantized_avg_pool, quantized_max_pool and
quantized_relu_x, each TensorFlow's generated wrapper with its defaults; the quantized ops'
three outputs are TensorFlow's named tuples."""

from collections import namedtuple

from engine.framework import dtypes
from engine.ops.op_def_library import apply_op

QuantizedConv2D = namedtuple("QuantizedConv2D", ["output", "min_output", "max_output"])
QuantizedAvgPool = namedtuple("QuantizedAvgPool", ["output", "min_output", "max_output"])
QuantizedMaxPool = namedtuple("QuantizedMaxPool", ["output", "min_output", "max_output"])
QuantizedReluX = namedtuple("QuantizedReluX",
                            ["activations", "min_activations", "max_activations"])


def conv(input, filter, strides, padding, explicit_paddings=[],  # noqa: A002,B006
         data_format="CHANNELS_LAST", dilations=[], batch_dims=1, groups=1,  # noqa: B006
         name=None):
    return apply_op("Conv", input=input, filter=filter, strides=strides, padding=padding,
                    explicit_paddings=explicit_paddings, data_format=data_format,
                    dilations=dilations, batch_dims=batch_dims, groups=groups, name=name)


def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding,  # noqa: A002
                              use_cudnn_on_gpu=True, explicit_paddings=[],  # noqa: B006
                              data_format="NHWC", dilations=[1, 1, 1, 1],  # noqa: B006
                              name=None):
    return apply_op("Conv2DBackpropFilterV2", input=input, filter=filter,
                    out_backprop=out_backprop, strides=strides, padding=padding,
                    use_cudnn_on_gpu=use_cudnn_on_gpu, explicit_paddings=explicit_paddings,
                    data_format=data_format, dilations=dilations, name=name)


def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding,  # noqa: A002
                             use_cudnn_on_gpu=True, explicit_paddings=[],  # noqa: B006
                             data_format="NHWC", dilations=[1, 1, 1, 1],  # noqa: B006
                             name=None):
    return apply_op("Conv2DBackpropInputV2", input=input, filter=filter,
                    out_backprop=out_backprop, strides=strides, padding=padding,
                    use_cudnn_on_gpu=use_cudnn_on_gpu, explicit_paddings=explicit_paddings,
                    data_format=data_format, dilations=dilations, name=name)


def quantized_conv2d(input, filter, min_input, max_input, min_filter, max_filter,  # noqa: A002
                     strides, padding, out_type=dtypes.qint32,
                     dilations=[1, 1, 1, 1], name=None):  # noqa: B006
    return QuantizedConv2D(*apply_op(
        "QuantizedConv2D", input=input, filter=filter, min_input=min_input,
        max_input=max_input, min_filter=min_filter, max_filter=max_filter, strides=strides,
        padding=padding, out_type=out_type, dilations=dilations, name=name))


def quantized_avg_pool(input, min_input, max_input, ksize, strides, padding,  # noqa: A002
                       name=None):
    return QuantizedAvgPool(*apply_op(
        "QuantizedAvgPool", input=input, min_input=min_input, max_input=max_input,
        ksize=ksize, strides=strides, padding=padding, name=name))


def quantized_max_pool(input, min_input, max_input, ksize, strides, padding,  # noqa: A002
                       name=None):
    return QuantizedMaxPool(*apply_op(
        "QuantizedMaxPool", input=input, min_input=min_input, max_input=max_input,
        ksize=ksize, strides=strides, padding=padding, name=name))


def quantized_relu_x(features, max_value, min_features, max_features,
                     out_type=dtypes.quint8, name=None):
    return QuantizedReluX(*apply_op(
        "QuantizedReluX", features=features, max_value=max_value, min_features=min_features,
        max_features=max_features, out_type=out_type, name=name))


TOP_LEVEL = ("conv", "conv2d_backprop_filter_v2", "conv2d_backprop_input_v2")
NN = ("quantized_conv2d", "quantized_avg_pool", "quantized_max_pool", "quantized_relu_x")
