"""tf.nn: activations, bias_add, softmax, conv2d and pooling, as TF 1.x builds them."""

from engine import dtypes
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.math_ops import _scope, bias_add, cast, sigmoid, subtract, tanh  # noqa: F401
from engine.ops.math_ops import range as _range
from engine.ops.op_def_library import apply_op


def relu(features, name=None):
    return apply_op("Relu", features=features, name=name)


def relu6(features, name=None):
    with _scope(name, "Relu6", [features]) as name:
        features = convert_to_tensor(features, name="features")
        return apply_op("Relu6", features=features, name=name)


def elu(features, name=None):
    return apply_op("Elu", features=features, name=name)


def selu(features, name=None):
    return apply_op("Selu", features=features, name=name)


def softplus(features, name=None):
    return apply_op("Softplus", features=features, name=name)


def softsign(features, name=None):
    return apply_op("Softsign", features=features, name=name)


def leaky_relu(features, alpha=0.2, name=None):
    with _scope(name, "LeakyRelu", [features, alpha]) as name:
        features = convert_to_tensor(features, name="features")
        if features.dtype.is_integer:
            features = cast(features, dtypes.float32)
        return apply_op("LeakyRelu", features=features, alpha=float(alpha), name=name)


def _swap_axis(tensor, dim_index, last_index, name=None):
    return array_ops.transpose(
        tensor, array_ops.concat([_range(dim_index), [last_index],
                                  _range(dim_index + 1, last_index), [dim_index]], 0),
        name=name)


def _wrap_2d_function(inputs, op_type, dim=-1, name=None):
    inputs = convert_to_tensor(inputs)
    shape = inputs.shape
    if dim == -1 or dim == shape.ndims - 1:
        return apply_op(op_type, logits=inputs, name=name)
    array_ops.rank(inputs)  # TensorFlow builds (and drops) this Rank too
    if dim < 0:
        dim += shape.ndims
    input_rank = array_ops.rank(inputs)
    inputs = _swap_axis(inputs, dim, subtract(input_rank, 1))
    outputs = apply_op(op_type, logits=inputs)
    outputs = _swap_axis(outputs, dim, subtract(input_rank, 1), name=name)
    outputs.set_shape(shape)
    return outputs


def softmax(logits, axis=None, name=None, dim=None):
    axis = dim if axis is None else axis
    return _wrap_2d_function(logits, "Softmax", -1 if axis is None else axis, name)


def log_softmax(logits, axis=None, name=None, dim=None):
    axis = dim if axis is None else axis
    return _wrap_2d_function(logits, "LogSoftmax", -1 if axis is None else axis, name)


def _get_sequence(value, n, channel_index, name):
    if value is None:
        value = [1]
    elif isinstance(value, int):
        value = [value]
    value = list(value)
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: "
                         f"{name}={value} of length {len(value)}")
    if channel_index == 1:
        return [1, 1] + value
    return [1] + value + [1]


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002
           data_format="NHWC", dilations=(1, 1, 1, 1), name=None, filters=None):
    filter = filters if filter is None else filter  # noqa: A001
    data_format = data_format or "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    strides = _get_sequence(strides, 2, channel_index, "strides")
    dilations = _get_sequence(dilations, 2, channel_index, "dilations")
    explicit = []
    if not isinstance(padding, str):
        explicit = [p for pair in padding for p in pair]
        padding = "EXPLICIT"
    return apply_op("Conv2D", input=input, filter=filter, strides=strides, padding=padding,
                    use_cudnn_on_gpu=use_cudnn_on_gpu, explicit_paddings=explicit,
                    data_format=data_format, dilations=dilations, name=name)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    value = input if value is None else value
    with _scope(name, "MaxPool", [value]) as name:
        data_format = data_format or "NHWC"
        channel_index = 1 if data_format.startswith("NC") else 3
        return apply_op("MaxPool", input=value,
                        ksize=_get_sequence(ksize, 2, channel_index, "ksize"),
                        strides=_get_sequence(strides, 2, channel_index, "strides"),
                        padding=padding, data_format=data_format, name=name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    value = input if value is None else value
    with _scope(name, "AvgPool", [value]) as name:
        value = convert_to_tensor(value, name="input")
        data_format = data_format or "NHWC"
        channel_index = 1 if data_format.startswith("NC") else 3
        return apply_op("AvgPool", value=value,
                        ksize=_get_sequence(ksize, 2, channel_index, "ksize"),
                        strides=_get_sequence(strides, 2, channel_index, "strides"),
                        padding=padding, data_format=data_format, name=name)
