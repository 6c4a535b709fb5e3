"""NumPy CPU kernels of FusedBatchNormV3 and FusedBatchNormGradV3 (TensorFlow's CPU formulas:
statistics in float32, the batch variance output with Bessel's correction)."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid


def _layout(ctx, x):
    """(axes reduced over, shape a per-channel vector broadcasts to)."""
    data_format = ctx.attrs.get("data_format", b"NHWC")
    data_format = data_format.decode() if isinstance(data_format, bytes) else data_format
    channel = 1 if data_format.startswith("NC") else x.ndim - 1
    axes = tuple(a for a in range(x.ndim) if a != channel)
    shape = [1] * x.ndim
    shape[channel] = -1
    return axes, shape


@register("FusedBatchNormV3")
def fused_batch_norm(ctx, x, scale, offset, mean, variance):
    if x.ndim not in (4, 5):
        raise invalid(ctx, f"input must be 4 or 5-dimensional{x.shape}")
    axes, shape = _layout(ctx, x)
    epsilon = np.float32(ctx.attrs["epsilon"])
    factor = np.float32(ctx.attrs.get("exponential_avg_factor", 1.0))
    xf = x.astype(np.float32)
    if ctx.attrs.get("is_training", True):
        count = xf.size // max(scale.size, 1)  # the elements each channel's statistics see
        batch_mean = xf.mean(axis=axes, dtype=np.float32)
        centered = xf - batch_mean.reshape(shape)
        batch_var = np.square(centered).mean(axis=axes, dtype=np.float32)
        scaling = (1 / np.sqrt(batch_var + epsilon) * scale).reshape(shape)
        y = (centered * scaling + offset.reshape(shape)).astype(x.dtype)
        unbiased = batch_var * np.float32(count / max(count - 1, 1))
        if factor != 1:
            out_mean = (1 - factor) * mean + factor * batch_mean
            out_var = (1 - factor) * variance + factor * unbiased
        else:
            out_mean, out_var = batch_mean, unbiased
        return (y, out_mean.astype(np.float32), out_var.astype(np.float32),
                batch_mean, batch_var, np.zeros([0], np.float32))
    scaling = (1 / np.sqrt(variance + epsilon) * scale).reshape(shape)
    y = ((xf - mean.reshape(shape)) * scaling + offset.reshape(shape)).astype(x.dtype)
    return y, mean, variance, mean, variance, np.zeros([0], np.float32)


@register("FusedBatchNormGradV3")
def fused_batch_norm_grad(ctx, y_backprop, x, scale, saved_mean, saved_variance, _reserve):
    axes, shape = _layout(ctx, x)
    epsilon = np.float32(ctx.attrs["epsilon"])
    dy, xf = y_backprop.astype(np.float32), x.astype(np.float32)
    rest_size_inv = np.float32(1.0 / (xf.size // max(scale.size, 1)))
    inv_std = (1 / np.sqrt(saved_variance + epsilon)).astype(np.float32)
    centered = xf - saved_mean.reshape(shape)
    scale_backprop = (dy * (centered * inv_std.reshape(shape))).sum(axis=axes,
                                                                   dtype=np.float32)
    offset_backprop = dy.sum(axis=axes, dtype=np.float32)
    coef1 = (scale * inv_std).reshape(shape)
    if ctx.attrs.get("is_training", True):
        # TensorFlow's order: y_backprop centred, minus x centred times
        # rsqrt(var + eps)^2 * mean(y_backprop * x centred)
        dy_centered = dy - (offset_backprop * rest_size_inv).reshape(shape)
        dy_x_mean = (dy * centered).sum(axis=axes, dtype=np.float32) * rest_size_inv
        coef2 = (np.square(inv_std) * dy_x_mean).reshape(shape)
        x_backprop = coef1 * (dy_centered - centered * coef2)
    else:
        x_backprop = dy * coef1
    empty = np.zeros([0], np.float32)
    return (x_backprop.astype(x.dtype), scale_backprop.astype(np.float32),
            offset_backprop, empty, empty)
