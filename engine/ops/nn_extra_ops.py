"""tf.nn ops of TF 1.x built from others: xw_plus_b, conv1d, conv2d_transpose, crelu,
weighted_cross_entropy_with_logits (nn_ops.py, nn_impl.py); tf.losses.huber_loss and
get_total_loss (losses_impl.py, losses/util.py)."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import GraphKeys, get_collection
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.losses import Reduction, compute_weighted_loss, get_losses
from engine.ops.nn_ops import _get_sequence
from engine.ops.op_def_library import apply_op


def xw_plus_b(x, weights, biases, name=None):
    with name_scope(name, "xw_plus_b") as scope:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        mm = math_ops.matmul(x, weights)
        return apply_op("BiasAdd", value=mm, bias=biases, name=scope)


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None,
           data_format=None, name=None, input=None, dilations=None):  # noqa: A002
    value = input if input is not None else value
    with name_scope(name, "conv1d") as scope:
        if data_format is None or data_format in ("NHWC", "NWC"):
            data_format, spatial_start_dim, channel_index = "NHWC", -3, 2
        elif data_format in ("NCHW", "NCW"):
            data_format, spatial_start_dim, channel_index = "NCHW", -2, 1
        else:
            raise ValueError("`data_format` must be 'NWC' or 'NCW'. Received: "
                             f"data_format={data_format}")
        strides = [1] + _get_sequence(stride, 1, channel_index, "stride")
        dilations = [1] + _get_sequence(dilations, 1, channel_index, "dilations")
        value = array_ops.expand_dims(value, spatial_start_dim)
        filters = array_ops.expand_dims(filters, 0)
        attrs = {} if use_cudnn_on_gpu is None else {"use_cudnn_on_gpu": use_cudnn_on_gpu}
        result = apply_op("Conv2D", input=value, filter=filters, strides=strides,
                          padding=padding, data_format=data_format, dilations=dilations,
                          name=scope, **attrs)
        return array_ops.squeeze(result, [spatial_start_dim])


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NHWC", name=None, input=None,  # noqa: A002
                     filters=None, dilations=None):
    value = input if input is not None else value
    filter = filters if filters is not None else filter  # noqa: A001
    with name_scope(name, "conv2d_transpose") as scope:
        with name_scope(scope, "conv2d_transpose") as inner:
            data_format = data_format or "NHWC"
            channel_index = 1 if data_format.startswith("NC") else 3
            strides = _get_sequence(strides, 2, channel_index, "strides")
            dilations = _get_sequence(dilations, 2, channel_index, "dilations")
            return apply_op("Conv2DBackpropInput", input_sizes=output_shape, filter=filter,
                            out_backprop=value, strides=strides, padding=padding,
                            explicit_paddings=[], data_format=data_format,
                            dilations=dilations, name=inner)


def crelu(features, name=None, axis=-1):
    with name_scope(name, "CRelu") as scope:
        features = convert_to_tensor(features, name="features")
        c = array_ops.concat([features, -features], axis, name=scope)
        return apply_op("Relu", features=c)


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None,
                                       targets=None):
    labels = targets if labels is None else labels
    with name_scope(name, "logistic_loss") as scope:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        if not labels.get_shape().is_compatible_with(logits.get_shape()):
            raise ValueError("`logits` and `labels` must have the same shape, received "
                             f"({logits.get_shape()} vs {labels.get_shape()}).")
        log_weight = 1 + (pos_weight - 1) * labels
        return math_ops.add(
            (1 - labels) * logits,
            log_weight * (math_ops.log1p(math_ops.exp(-math_ops.abs(logits)))
                          + apply_op("Relu", features=-logits)),
            name=scope)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None,
               loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if predictions is None:
        raise ValueError("Argument `predictions` must not be None.")
    with name_scope(scope, "huber_loss") as scope:
        predictions = math_ops.cast(predictions, dtype=dtypes.float32)
        labels = math_ops.cast(labels, dtype=dtypes.float32)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        error = math_ops.subtract(predictions, labels)
        abs_error = math_ops.abs(error)
        quadratic = math_ops.minimum(abs_error, delta)
        linear = math_ops.subtract(abs_error, quadratic)
        losses = math_ops.add(
            math_ops.multiply(convert_to_tensor(0.5, dtype=quadratic.dtype),
                              math_ops.multiply(quadratic, quadratic)),
            math_ops.multiply(delta, linear))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def get_regularization_losses(scope=None):
    return get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses += get_regularization_losses(scope=scope)
    return math_ops.add_n(losses, name=name)
