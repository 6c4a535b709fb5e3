"""tf.nn.fused_batch_norm (FusedBatchNormV3 and its gradient), tf.nn.moments and
tf.nn.batch_normalization, as TensorFlow's nn_impl builds them."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.ops import array_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.op_def_library import apply_op


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001,
                     data_format="NHWC", is_training=True, name=None,
                     exponential_avg_factor=1.0):
    """(y, batch or running mean, batch or running variance) of FusedBatchNormV3."""
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None
                                                               or variance is None):
        raise ValueError(f"Both `mean` and `variance` must be a 1D tensor when is_training is "
                         f"False or exponential_avg_factor != 1.0. Received: `mean` {mean!r} "
                         f"and `variance` {variance!r}")
    x = convert_to_tensor(x, name="input")
    scale = convert_to_tensor(scale, name="scale")
    offset = convert_to_tensor(offset, name="offset")
    if mean is None:
        mean = constant([])
    if variance is None:
        variance = constant([])
    epsilon = max(epsilon, 1.001e-5)  # cuDNN's minimum, which TensorFlow applies everywhere
    outputs = apply_op("FusedBatchNormV3", x=x, scale=scale, offset=offset, mean=mean,
                       variance=variance, epsilon=float(epsilon),
                       exponential_avg_factor=float(1.0 if exponential_avg_factor is None
                                                    else exponential_avg_factor),
                       data_format=data_format, is_training=is_training, name=name)
    return outputs[0], outputs[1], outputs[2]


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """(mean, variance) of `x` over `axes`; the variance's mean is a StopGradient."""
    keep_dims = keepdims if keepdims is not None else bool(keep_dims)
    with name_scope(name, "moments", [x, axes]):
        x = convert_to_tensor(x, name="x")
        y = math_ops.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
        mean = math_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = math_ops.reduce_mean(
            math_ops.squared_difference(y, array_ops.stop_gradient(mean)), axes,
            keepdims=True, name="variance")
        if not keep_dims:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if x.dtype == dtypes.float16:
            return math_ops.cast(mean, dtypes.float16), math_ops.cast(variance, dtypes.float16)
        return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + epsilon) + offset, in TensorFlow's node order."""
    with name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        inv = math_ops.rsqrt(variance + variance_epsilon)
        if scale is not None:
            inv *= scale
        scaled = x * math_ops.cast(inv, x.dtype)
        shift = offset - mean * inv if offset is not None else -mean * inv
        return scaled + math_ops.cast(shift, x.dtype)


@RegisterGradient("FusedBatchNormV3")
def _fused_batch_norm_v3_grad(op, *grads):
    """TensorFlow's _BaseFusedBatchNormGrad: in training from the batch statistics the op
    saved (reserve spaces 1 and 2), in inference from the population mean and variance."""
    x, scale = op.inputs[0], op.inputs[1]
    data_format = op.get_attr("data_format")
    is_training = op.get_attr("is_training")
    if is_training:
        saved_mean, saved_variance = op.outputs[3], op.outputs[4]
    else:
        saved_mean, saved_variance = op.inputs[3], op.inputs[4]
        if data_format in ("NCHW", b"NCHW"):
            x = array_ops.transpose(x, [0, 2, 3, 1])
            grads = (array_ops.transpose(grads[0], [0, 2, 3, 1]),) + grads[1:]
            data_format_used = "NHWC"
        else:
            data_format_used = data_format
    dx, dscale, doffset, _, _ = apply_op(
        "FusedBatchNormGradV3", y_backprop=grads[0], x=x, scale=scale,
        reserve_space_1=saved_mean, reserve_space_2=saved_variance,
        reserve_space_3=op.outputs[5], epsilon=op.get_attr("epsilon"),
        data_format=data_format if is_training else data_format_used,
        is_training=is_training)
    if not is_training and data_format in ("NCHW", b"NCHW"):
        dx = array_ops.transpose(dx, [0, 3, 1, 2])
    return dx, dscale, doffset, None, None
