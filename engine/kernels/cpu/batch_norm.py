"""CPU kernels of FusedBatchNormV3 and FusedBatchNormGradV3, bit for bit as TensorFlow's Eigen
kernels compute them (tensorflow/core/kernels/fused_batch_norm_op.cc, the x86 wheel with
TF_ENABLE_ONEDNN_OPTS=0, the path the engine's graphs and values follow).

The tensor is seen as [rest, depth] (channels last; NCHW is transposed there and back), the
statistics in float32 (U) whatever x's dtype (T). TensorFlow's order of operations, which the
values depend on:
- the forward pass's per-channel sums are Eigen's reduction of the outer dimension (four
  running sums over the rows, _eigen_sums below), the gradient's add the rows one after
  another (the ReduceOuterDimensions functor), the same at any intra-op thread count
  (measured at 1 and 2 threads against TensorFlow 2.21: tools/make_batch_norm_fixtures.py);
- a mean is that sum times 1.0f / rest (the forward pass, the gradient's mean of y_backprop)
  or divided by rest (the gradient's mean of y_backprop * x centred);
- rsqrt(variance + epsilon) over the [depth] vector is Eigen's: packets of 8 lanes through
  EIGEN_FAST_MATH's prsqrt, the last depth % 8 channels by the scalar path
  (engine/kernels/cpu/eigen_float32.rsqrt);
- Bessel's correction multiplies by float(rest) / float(rest - 1), and with an
  exponential_avg_factor the running variance is (1 - f) * old + (f * correction) * batch.
With NumPy's own arithmetic (np.mean's pairwise sums, 1 / np.sqrt) 15 of the 16 batch means
of a [16, 8, 8, 16] batch, and most of y and x_backprop, differed from TensorFlow's in their
last bits (2026-11-28); tests/engine/test_batch_norm_bits.py now compares every output.
"""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu import eigen_float32, eigen_reduce
from engine.kernels.cpu.grad import channel_sums

_U = np.float32


def _data_format(ctx):
    data_format = ctx.attrs.get("data_format", b"NHWC")
    return data_format.decode() if isinstance(data_format, bytes) else data_format


def _rows(ctx, x):
    """x as float32 [rest, depth] rows, channels last, and a function giving a [rest, depth]
    array back in x's layout and shape."""
    if _data_format(ctx).startswith("NC"):
        order = (0,) + tuple(range(2, x.ndim)) + (1,)
        channels_last = np.transpose(x, order)
        back = tuple(np.argsort(order))
        shape = channels_last.shape
        return (np.ascontiguousarray(channels_last, _U).reshape(-1, shape[-1]),
                lambda rows: np.ascontiguousarray(np.transpose(rows.reshape(shape), back)))
    return (np.ascontiguousarray(x, _U).reshape(-1, x.shape[-1]),
            lambda rows: rows.reshape(x.shape))


def _rsqrt(values):
    """Eigen's rsqrt over a [depth] float32 vector (packets, then the scalar tail)."""
    return eigen_float32.rsqrt(np.ascontiguousarray(values, _U))


def _sums(rows):
    """Each channel's sum, its rows added in order: the gradient's ReduceOuterDimensions."""
    return channel_sums(rows)


def _eigen_sums(rows):
    """Each channel's sum as Eigen's reduction of the outer dimension adds it (the forward
    pass's x.sum(reduce_dims)): the reduction Sum over leading axes is
    (eigen_reduce.outer_sums, four running sums for the channels in whole packets)."""
    return eigen_reduce.outer_sums(rows[np.newaxis])[0]


@register("FusedBatchNormV3")
def fused_batch_norm(ctx, x, scale, offset, mean, variance):
    if x.ndim not in (4, 5):
        raise invalid(ctx, f"input must be 4 or 5-dimensional{x.shape}")
    epsilon = _U(ctx.attrs["epsilon"])
    factor = _U(ctx.attrs.get("exponential_avg_factor", 1.0))
    rows, back = _rows(ctx, x)
    empty = np.zeros([0], _U)
    with np.errstate(all="ignore"):
        if not ctx.attrs.get("is_training", True):
            scaling = _rsqrt(variance + epsilon) * scale
            y = ((rows - mean) * scaling + offset).astype(x.dtype)
            return back(y), mean, variance, mean, variance, empty
        rest = rows.shape[0]
        rest_inv = _U(1) / _U(rest)
        correction = _U(rest) / _U(rest - 1 if rest > 1 else 1)
        batch_mean = _eigen_sums(rows) * rest_inv
        centered = rows - batch_mean
        batch_var = _eigen_sums(np.square(centered)) * rest_inv
        scaling = _rsqrt(batch_var + epsilon) * scale
        y = (centered * scaling + offset).astype(x.dtype)
        if factor != 1:
            keep = _U(1) - factor
            new_mean = keep * mean + factor * batch_mean
            new_var = keep * variance + (factor * correction) * batch_var
        else:
            new_mean, new_var = batch_mean, batch_var * correction
    return (back(y), new_mean.astype(_U), new_var.astype(_U), batch_mean, batch_var, empty)


@register("FusedBatchNormGradV3")
def fused_batch_norm_grad(ctx, y_backprop, x, scale, saved_mean, saved_variance, _reserve):
    epsilon = _U(ctx.attrs["epsilon"])
    training = ctx.attrs.get("is_training", True)
    if not training and _data_format(ctx).startswith("NC"):
        raise invalid(ctx, "The implementation of FusedBatchNormGrad with is_training=False "
                           "only support NHWC tensor format for now.")
    dy, back = _rows(ctx, y_backprop)
    rows, _ = _rows(ctx, x)
    rest = rows.shape[0]
    empty = np.zeros([0], _U)
    with np.errstate(all="ignore"):
        offset_backprop = _sums(dy)
        centered = rows - saved_mean
        if training:
            coef0 = _rsqrt(saved_variance + epsilon)
            scale_backprop = _sums(dy * (centered * coef0))
            dy_centered = dy - offset_backprop * (_U(1) / _U(rest))
            centered_mean = _sums(dy * centered) / _U(rest)
            coef2 = np.square(coef0) * centered_mean
            x_backprop = (scale * coef0) * (dy_centered - centered * coef2)
        else:
            # FusedBatchNormFreezeGrad: the sum of dy * (x - mean) scaled once at the end
            coef0 = _rsqrt(saved_variance + epsilon)
            scale_backprop = _sums(dy * centered) * coef0
            x_backprop = dy * (coef0 * scale)
    return (back(x_backprop.astype(x.dtype)), scale_backprop.astype(_U),
            offset_backprop.astype(_U), empty, empty)
