"""tf.nn: activations, bias_add, softmax, conv2d and pooling, as TF 1.x builds them."""

import collections.abc

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.math_ops import bias_add, cast, sigmoid, subtract, tanh  # noqa: F401
from engine.ops.math_ops import range as _range
from engine.ops.op_def_library import apply_op
from engine.ops.random_ops import random_uniform
from engine.framework.tensor import Tensor


def relu(features, name=None):
    return apply_op("Relu", features=features, name=name)


def relu6(features, name=None):
    with name_scope(name, "Relu6", [features]) as name:
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
    with name_scope(name, "LeakyRelu", [features, alpha]) as name:
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


def convert_padding(padding, expected_length=4):
    """("EXPLICIT", flat pairs) for a list of [before, after] pairs, else (padding, [])."""
    explicit_paddings = []
    if padding == "EXPLICIT":
        raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit "
                         "padding, `padding` must be a list.")
    if isinstance(padding, (list, tuple)):
        for i, dim_paddings in enumerate(padding):
            if not isinstance(dim_paddings, (list, tuple)):
                raise ValueError("When `padding` is a list, each element of `padding` must be "
                                 f"a list/tuple of size 2. Received: padding={padding} with "
                                 f"element at index {i} of type {type(dim_paddings)}")
            if len(dim_paddings) != 2:
                raise ValueError("When `padding` is a list, each element of `padding` must be "
                                 f"a list/tuple of size 2. Received: padding={padding} with "
                                 f"element at index {i} of size {len(dim_paddings)}")
            explicit_paddings.extend(dim_paddings)
        if len(padding) != expected_length:
            raise ValueError(f"When padding is a list, it must be of size {expected_length}. "
                             f"Received: padding={padding} of size {len(padding)}")
        padding = "EXPLICIT"
    return padding, explicit_paddings



def _get_sequence(value, n, channel_index, name):
    """nn_ops._get_sequence: strides or dilations as a full list of n + 2."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, list):
        pass
    elif isinstance(value, tuple):
        value = list(value)
    elif isinstance(value, int) or not isinstance(value, collections.abc.Sized):
        value = [value]
    else:
        value = list(value)
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: "
                         f"{name}={value} of length {len(value)}")
    return [1, 1] + value if channel_index == 1 else [1] + value + [1]


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
    with name_scope(name, "MaxPool", [value]) as name:
        data_format = data_format or "NHWC"
        channel_index = 1 if data_format.startswith("NC") else 3
        return apply_op("MaxPool", input=value,
                        ksize=_get_sequence(ksize, 2, channel_index, "ksize"),
                        strides=_get_sequence(strides, 2, channel_index, "strides"),
                        padding=padding, data_format=data_format, name=name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    value = input if value is None else value
    with name_scope(name, "AvgPool", [value]) as name:
        value = convert_to_tensor(value, name="input")
        data_format = data_format or "NHWC"
        channel_index = 1 if data_format.startswith("NC") else 3
        return apply_op("AvgPool", value=value,
                        ksize=_get_sequence(ksize, 2, channel_index, "ksize"),
                        strides=_get_sequence(strides, 2, channel_index, "strides"),
                        padding=padding, data_format=data_format, name=name)


# -- losses and dropout (TF's nn_ops: the same nodes, in the same order) --

def _flatten_outer_dims(logits):
    rank = array_ops.rank(logits)
    last_dim_size = array_ops.slice(array_ops.shape(logits), [subtract(rank, 1)], [1])
    output = array_ops.reshape(logits, array_ops.concat([[-1], last_dim_size], 0))
    shape = logits.shape
    if shape.ndims is not None:
        dims = shape.as_list()
        if None not in dims[:-1]:
            product = 1
            for d in dims[:-1]:
                product *= d
            output.set_shape([product, dims[-1]])
    return output


def _move_dim_to_end(tensor, dim_index, rank):
    return array_ops.transpose(tensor, array_ops.concat(
        [_range(dim_index), _range(dim_index + 1, rank), [dim_index]], 0))


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """Softmax cross entropy per example; gradients reach both logits and labels."""
    axis = dim if axis is None else axis
    axis = -1 if axis is None else axis
    with name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as name:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        to_float32 = logits.dtype in (dtypes.float16, dtypes.bfloat16)
        precise_logits = cast(logits, dtypes.float32) if to_float32 else logits
        labels = cast(labels, precise_logits.dtype)
        input_rank = array_ops.rank(precise_logits)
        shape = logits.shape
        if axis != -1:
            precise_logits = _move_dim_to_end(precise_logits, axis, input_rank)
            labels = _move_dim_to_end(labels, axis, input_rank)
        input_shape = array_ops.shape(precise_logits)
        precise_logits = _flatten_outer_dims(precise_logits)
        labels = _flatten_outer_dims(labels)
        cost, _ = apply_op("SoftmaxCrossEntropyWithLogits", features=precise_logits,
                           labels=labels, name=name)
        output_shape = array_ops.slice(input_shape, [0], [subtract(input_rank, 1)])
        cost = array_ops.reshape(cost, output_shape)
        if shape.ndims is not None:
            dims = shape.as_list()
            del dims[axis]
            cost.set_shape(dims)
        return cast(cost, logits.dtype) if to_float32 else cost


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None,
                                      _sentinel=None):
    """TF 1.x's: labels pass through StopGradient, then the v2 op."""
    if _sentinel is not None or labels is None or logits is None:
        raise ValueError("Only call `softmax_cross_entropy_with_logits` with named arguments "
                         "(labels=..., logits=..., ...). Received unnamed argument: "
                         f"{_sentinel}")
    dim = axis if axis is not None else dim
    with name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as name:
        labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=dim,
                                                name=name)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None,
                                             _sentinel=None):
    if _sentinel is not None or labels is None or logits is None:
        raise ValueError("Only call `sparse_softmax_cross_entropy_with_logits` with named "
                         "arguments (labels=..., logits=..., ...). Received unnamed argument: "
                         f"{_sentinel}")
    with name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
        labels = convert_to_tensor(labels)
        logits = convert_to_tensor(logits)
        precise_logits = cast(logits, dtypes.float32) if logits.dtype == dtypes.float16 \
            else logits
        labels_static_shape = labels.shape
        labels_shape = array_ops.shape(labels)
        logits_shape = logits.shape
        if logits_shape.ndims == 0:
            raise ValueError(f"`logits` cannot be a scalar. Received logits={logits}`")
        if logits_shape.ndims is not None and labels_static_shape.ndims is not None \
                and labels_static_shape.ndims != logits_shape.ndims - 1:
            raise ValueError(
                f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                f"labels.shape={labels_static_shape} of rank {labels_static_shape.ndims} and "
                f"logits.shape={logits_shape} of rank {logits_shape.ndims}")
        if (labels_static_shape.is_fully_defined() and logits_shape[:-1].is_fully_defined()
                and labels_static_shape != logits_shape[:-1]):
            raise ValueError(
                f"`labels.shape` must equal `logits.shape` except for the last dimension. "
                f"Received: labels.shape={labels_static_shape} and logits.shape={logits_shape}")
        if logits_shape.ndims != 2:
            num_classes = array_ops.shape(logits)[array_ops.rank(logits) - 1]
            precise_logits = array_ops.reshape(precise_logits, [-1, num_classes])
            labels = array_ops.reshape(labels, [-1])
        cost, _ = apply_op("SparseSoftmaxCrossEntropyWithLogits", features=precise_logits,
                           labels=labels, name=name)
        if logits_shape.ndims != 2:
            cost = array_ops.reshape(cost, labels_shape)
            cost.set_shape(labels_static_shape)
        return cast(cost, dtypes.float16) if logits.dtype == dtypes.float16 else cost


def l2_loss(t, name=None):
    return apply_op("L2Loss", t=t, name=name)


def in_top_k(predictions, targets, k, name=None):
    """tf.nn.in_top_k (TF 1.x argument order): whether each row's target class is among
    its k highest predictions (ties count for the target; a row with a non-finite
    prediction or a target out of range says False)."""
    with name_scope(name, "in_top_k", [predictions, targets]):
        return apply_op("InTopKV2", predictions=predictions, targets=targets, k=k, name=name)


def _noise_shape(x, noise_shape):
    if noise_shape is None:
        return array_ops.shape(x)
    return noise_shape


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """tf.compat.v1.nn.dropout: `rate` or the deprecated `keep_prob` (rate = 1 - keep_prob)."""
    if rate is None and keep_prob is None:
        raise ValueError(f"`rate` must be provided. Received: rate={rate}")
    if rate is None:
        rate = 1.0 - keep_prob
    return dropout_v2(x, rate, noise_shape=noise_shape, seed=seed, name=name)


def dropout_v2(x, rate, noise_shape=None, seed=None, name=None, uniform_sampler=None,
               default_name="dropout"):
    """Zeroes each element with probability `rate` (RandomUniform >= rate) and scales the
    kept ones by 1 / (1 - rate), as TensorFlow's nodes do; `uniform_sampler(shape, dtype)`
    draws the noise where not RandomUniform (tf.nn.experimental.stateless_dropout's)."""
    import numbers

    with name_scope(name, default_name, [x]):
        is_rate_number = isinstance(rate, numbers.Real)
        if is_rate_number and (rate < 0 or rate >= 1):
            raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                             f"Received: rate={rate}")
        x = convert_to_tensor(x, name="x")
        if not x.dtype.is_floating:
            raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. "
                             f"Received: x_dtype={x.dtype}")
        if is_rate_number and rate == 0:
            return x
        if not isinstance(rate, Tensor):
            scale = convert_to_tensor(1 / (1 - rate), dtype=x.dtype)
            ret = apply_op("Mul", x=x, y=scale)
        else:
            if rate.dtype != x.dtype:
                if rate.dtype.base_dtype != x.dtype.base_dtype:
                    raise ValueError("`x.dtype` must be compatible with `rate.dtype`. "
                                     f"Received: x.dtype={x.dtype} and "
                                     f"rate.dtype={rate.dtype}")
                rate = apply_op("Cast", x=rate, DstT=x.dtype, name="rate")
            one_tensor = constant(1, dtype=x.dtype)
            ret = apply_op("RealDiv", x=x, y=apply_op("Sub", x=one_tensor, y=rate))
        if uniform_sampler is None:
            random_tensor = random_uniform(_noise_shape(x, noise_shape), dtype=x.dtype,
                                           seed=seed)
        else:
            random_tensor = uniform_sampler(shape=_noise_shape(x, noise_shape), dtype=x.dtype)
        keep_mask = random_tensor >= rate
        zero_tensor = constant(0, dtype=x.dtype)
        ret = array_ops.where_v2(keep_mask, ret, zero_tensor)
        ret.set_shape(x.shape)
        return ret
