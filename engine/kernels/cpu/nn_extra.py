"""NumPy CPU kernels of DepthwiseConv2dNative with its two backprops, LRN with LRNGrad, and
SpaceToBatchND / BatchToSpaceND (how TensorFlow dilates a depthwise convolution).

Like TensorFlow's CPU kernels, the depthwise ones take NHWC only and no dilations (TensorFlow
dilates a depthwise convolution by SpaceToBatchND around it, not by the attr), and say so
with TensorFlow's UnimplementedError.
"""

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu import compiled_forms
from engine.kernels.cpu.grad import (backprop_geometry, crop_padding, padded_shape,
                                     tap_offsets)
from engine.kernels.cpu.nn import _windows, spatial_hw, window_geometry


def _check_attrs(ctx):
    """(row and column strides, dilations): TensorFlow's kernel constructor's checks."""
    strides = list(ctx.attrs.get("strides") or [1, 1, 1, 1])
    nchw = ctx.attrs.get("data_format") == b"NCHW"
    batch_stride, depth_stride = strides[0], strides[1 if nchw else 3]
    if batch_stride != 1 or depth_stride != 1:
        raise invalid(ctx, "Current implementation does not yet support strides in the batch "
                           "and depth dimensions.")
    stride = spatial_hw(ctx, strides)
    if stride[0] != stride[1]:
        raise invalid(ctx, "Current implementation only supports equal length strides in the "
                           "row and column dimensions.")
    dilations = list(ctx.attrs.get("dilations") or [1, 1, 1, 1])
    if dilations != [1, 1, 1, 1]:
        raise errors.UnimplementedError(
            ctx.node_def, None, f"Current kernel implementation does not support dilations, "
                                f"received [{' '.join(str(d) for d in dilations)}]")
    return stride, (1, 1)


def _check_nhwc(ctx):
    if ctx.attrs.get("data_format") == b"NCHW":
        raise errors.UnimplementedError(ctx.node_def, None, "Depthwise convolution on CPU is "
                                        "only supported for NHWC format")


def _check_depth(ctx, in_depth, filter_depth):
    if in_depth != filter_depth:
        raise invalid(ctx, f"input and filter must have the same depth: {in_depth} vs "
                           f"{filter_depth}")


@register("DepthwiseConv2dNative")
def depthwise_conv2d_native(ctx, x, filters):
    """out[n, h, w, c * M + m] = sum over the window of x[n, ., ., c] * filters[., ., c, m]."""
    stride, dilation = _check_attrs(ctx)
    if x.ndim != 4:
        raise invalid(ctx, f"input must be 4-dimensional{shape_str(x.shape)}")
    if filters.ndim != 4:
        raise invalid(ctx, f"filter must be 4-dimensional: {shape_str(filters.shape)}")
    depth_axis = 1 if ctx.attrs.get("data_format") == b"NCHW" else 3
    _check_depth(ctx, x.shape[depth_axis], filters.shape[2])
    _check_nhwc(ctx)
    window = filters.shape[:2]
    out_hw, pads = window_geometry(ctx, x, window, stride, dilation)
    n, channels, multiplier = x.shape[0], x.shape[3], filters.shape[3]
    if 0 in out_hw or x.size == 0:
        return np.zeros((n, *out_hw, channels * multiplier), x.dtype)
    if x.dtype == np.float16 and filters.dtype == np.float16:
        padded = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
        return _half_depthwise(padded, filters, stride, out_hw)
    fast = _fast(x.dtype, filters, n * out_hw[0] * out_hw[1] * filters.size)
    if fast is not None and np.isfinite(filters).all():  # the padding's zeros add nothing
        return fast.depthwise_conv2d(x, filters, stride, out_hw, (pads[0][0], pads[1][0]))
    padded = np.ascontiguousarray(np.pad(x, ((0, 0), pads[0], pads[1], (0, 0))))
    if fast is not None:
        return fast.depthwise_conv2d(padded, filters, stride, out_hw)
    cols = _windows(padded, out_hw, window, stride, dilation)
    result = np.einsum("nhwijc,ijcm->nhwcm", cols, filters, optimize=True)
    return result.reshape(n, *out_hw, channels * multiplier).astype(x.dtype, copy=False)


def _half_depthwise(padded, filters, stride, out_hw):
    """float16 as TensorFlow's DepthwiseConv2DKernel computes it: each output accumulated in
    half from 0, tap by tap in row-major window order, each step Eigen's pmadd on half packets
    (a float32 multiply-add rounded to half; a product of two halves is exact in float32).
    A sum of the taps rounded once (NumPy's einsum) had 45% of values a bit off."""
    n, channels, multiplier = padded.shape[0], padded.shape[3], filters.shape[3]
    total = np.zeros((n, *out_hw, channels, multiplier), np.float16)
    weights = filters.astype(np.float32)
    for i, j, rows, cols in tap_offsets(filters.shape[:2], stride, (1, 1), out_hw):
        taps = padded[:, rows, cols, :, None].astype(np.float32)
        total = (total.astype(np.float32) + taps * weights[i, j]).astype(np.float16)
    return total.reshape(n, *out_hw, channels * multiplier)


def _fast(dtype, filters, work):
    """The compiled depthwise kernels when they serve arrays of `dtype` (and `filters`')."""
    if filters is not None and (filters.dtype != dtype or 0 in filters.shape):
        return None
    return compiled_forms.module("depthwise", dtype, work)


def _out_backprop(ctx, out_backprop, out_hw, channels, multiplier):
    """out_backprop [N, OH, OW, C * M] as [N, OH, OW, C, M], its size checked."""
    expected = (*out_hw, channels * multiplier)
    if out_backprop.ndim != 4 or tuple(out_backprop.shape[1:]) != expected:
        raise invalid(ctx, f"Depthwise conv2d backprop: out_backprop has shape "
                           f"{shape_str(out_backprop.shape)}, but the input and filter give "
                           f"[{out_backprop.shape[0] if out_backprop.ndim else '?'},"
                           f"{','.join(str(d) for d in expected)}]")
    return out_backprop.reshape(*out_backprop.shape[:3], channels, multiplier)


@register("DepthwiseConv2dNativeBackpropInput")
def depthwise_conv2d_native_backprop_input(ctx, input_sizes, filters, out_backprop):
    shape = [int(d) for d in np.reshape(input_sizes, -1)]
    if len(shape) != 4:
        raise invalid(ctx, f"input_sizes must be 4-dimensional, got: {len(shape)}")
    stride, dilation = _check_attrs(ctx)
    _check_nhwc(ctx)
    _check_depth(ctx, shape[3], filters.shape[2])
    window = filters.shape[:2]
    out_hw, pads = backprop_geometry(ctx, shape, window, stride, dilation)
    dy = _out_backprop(ctx, out_backprop, out_hw, shape[3], filters.shape[3])
    fast = None if 0 in out_hw or 0 in shape else _fast(out_backprop.dtype, filters,
                                                        out_backprop.size * filters[..., 0].size)
    if fast is not None:
        return fast.depthwise_input_gradient(out_backprop, filters, tuple(shape), stride,
                                             (pads[0][0], pads[1][0]))
    padded = np.zeros(padded_shape(shape, pads), out_backprop.dtype)
    if 0 not in out_hw:
        for i, j, rows, cols in tap_offsets(window, stride, dilation, out_hw):
            padded[:, rows, cols, :] += np.einsum("nhwcm,cm->nhwc", dy, filters[i, j])
    return np.ascontiguousarray(crop_padding(padded, shape, pads))


@register("DepthwiseConv2dNativeBackpropFilter")
def depthwise_conv2d_native_backprop_filter(ctx, x, filter_sizes, out_backprop):
    fshape = [int(d) for d in np.reshape(filter_sizes, -1)]
    if len(fshape) != 4:
        raise invalid(ctx, f"filter_sizes must be 4-dimensional, got: {len(fshape)}")
    stride, dilation = _check_attrs(ctx)
    _check_nhwc(ctx)
    _check_depth(ctx, x.shape[3], fshape[2])
    window = fshape[:2]
    out_hw, pads = backprop_geometry(ctx, x.shape, window, stride, dilation)
    dy = _out_backprop(ctx, out_backprop, out_hw, fshape[2], fshape[3])
    fast = None if 0 in out_hw or 0 in x.shape or x.dtype != out_backprop.dtype else _fast(
        x.dtype, None, out_backprop.size * fshape[0] * fshape[1])
    if fast is not None:
        return fast.depthwise_filter_gradient(x, out_backprop, fshape, stride,
                                              (pads[0][0], pads[1][0]))
    padded = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    result = np.zeros(fshape, out_backprop.dtype)
    if 0 not in out_hw:
        for i, j, rows, cols in tap_offsets(window, stride, dilation, out_hw):
            result[i, j] = np.einsum("nhwc,nhwcm->cm", padded[:, rows, cols, :], dy)
    return result


# --- local response normalization, across the last (depth) axis of NHWC ---

def _band(depth, radius):
    """[depth, depth]: 1 where |k - j| <= radius (which channels a channel's sum covers)."""
    index = np.arange(depth)
    return (np.abs(index[:, None] - index[None, :]) <= radius).astype(np.float64)


def _lrn_input(ctx, name, value):
    if value.ndim != 4:
        raise invalid(ctx, f"{name} must be 4-dimensional")
    return value


def _lrn_norm(ctx, x):
    """(bias + alpha * the sum of squares over each channel's window), computed in float64
    at least: TensorFlow's float32 kernel sums in float32; the difference is rounding."""
    radius, bias = int(ctx.attrs.get("depth_radius", 5)), ctx.attrs.get("bias", 1.0)
    alpha = ctx.attrs.get("alpha", 1.0)
    wide = x.astype(np.float64)
    return bias + alpha * (wide * wide) @ _band(x.shape[-1], radius), wide


@register("LRN")
def lrn(ctx, x):
    """x / (bias + alpha * sum(x[..., window] ** 2)) ** beta."""
    x = _lrn_input(ctx, "input", x)
    norm, wide = _lrn_norm(ctx, x)
    return (wide * norm ** -ctx.attrs.get("beta", 0.5)).astype(x.dtype)


@register("LRNGrad")
def lrn_grad(ctx, input_grads, input_image, output_image):
    """TensorFlow's LRNGradOp: for each channel j and each k in its window,
    dx[k] += dy[j] * ([k == j] * norm[j] ** -beta - 2 * alpha * beta * x[k] * y[j] / norm[j])."""
    dy = _lrn_input(ctx, "input_grads", input_grads)
    x = _lrn_input(ctx, "input_image", input_image)
    y = _lrn_input(ctx, "output_image", output_image)
    if not dy.shape == x.shape == y.shape:
        raise invalid(ctx, "input_grads, input_image, and out_image should have the same "
                           "shape")
    beta, alpha = ctx.attrs.get("beta", 0.5), ctx.attrs.get("alpha", 1.0)
    norm, wide_x = _lrn_norm(ctx, x)
    wide_dy = dy.astype(np.float64)
    spread = (wide_dy * (-2.0 * alpha * beta) * y.astype(np.float64) / norm) @ _band(
        x.shape[-1], int(ctx.attrs.get("depth_radius", 5)))
    return (wide_dy * norm ** -beta + wide_x * spread).astype(x.dtype)


# --- SpaceToBatchND / BatchToSpaceND: how TensorFlow dilates a depthwise convolution ---

def _block_args(ctx, x, block_shape, pairs, what):
    block = [int(b) for b in np.reshape(block_shape, -1)]
    pairs = np.reshape(np.asarray(pairs, np.int64), (-1, 2))
    if len(pairs) != len(block):
        raise invalid(ctx, f"{what} should have shape [{len(block)}, 2] instead of "
                           f"{shape_str(np.shape(pairs))}")
    if x.ndim < 1 + len(block):
        raise invalid(ctx, f"input rank should be >= {1 + len(block)} instead of {x.ndim}")
    if any(b < 1 for b in block):
        raise invalid(ctx, f"All values in block_shape must be positive, got value, "
                           f"{min(block)} instead.")
    if (pairs < 0).any():
        raise invalid(ctx, f"All values in {what} must be non-negative")
    return block, pairs


@register("SpaceToBatchND")
def space_to_batch_nd(ctx, x, block_shape, paddings):
    """Pads the block dims, then moves each block offset into the batch: the output's batch
    is block offset major, input batch minor."""
    block, pads = _block_args(ctx, x, block_shape, paddings, "paddings")
    m = len(block)
    padded = np.pad(x, [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)] * (x.ndim - 1 - m))
    for i, b in enumerate(block):
        if padded.shape[1 + i] % b:
            raise invalid(ctx, f"padded_shape[{i}]={padded.shape[1 + i]} is not divisible by "
                               f"block_shape[{i}]={b}")
    batch, rest = x.shape[0], padded.shape[1 + m:]
    split = [batch]
    for i, b in enumerate(block):
        split += [padded.shape[1 + i] // b, b]
    view = padded.reshape(split + list(rest))
    order = ([2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
             + list(range(1 + 2 * m, view.ndim)))
    out_spatial = [padded.shape[1 + i] // b for i, b in enumerate(block)]
    return np.ascontiguousarray(np.transpose(view, order)).reshape(
        [batch * int(np.prod(block))] + out_spatial + list(rest))


@register("BatchToSpaceND")
def batch_to_space_nd(ctx, x, block_shape, crops):
    """SpaceToBatchND undone: block offsets from the batch back into the block dims, then
    the crops cut away."""
    block, crops = _block_args(ctx, x, block_shape, crops, "crops")
    m, product = len(block), int(np.prod(block))
    if x.shape[0] % product:
        raise invalid(ctx, f"Input batch dimension ({x.shape[0]}) is not divisible by product "
                           f"of block sizes ({product})")
    batch, spatial, rest = x.shape[0] // product, x.shape[1:1 + m], x.shape[1 + m:]
    view = x.reshape(block + [batch] + list(spatial) + list(rest))
    order = [m] + [k for i in range(m) for k in (m + 1 + i, i)] + list(
        range(2 * m + 1, view.ndim))
    full = np.transpose(view, order).reshape(
        [batch] + [s * b for s, b in zip(spatial, block)] + list(rest))
    index = [slice(None)]
    for i, (start, end) in enumerate(crops):
        size = full.shape[1 + i]
        if start + end > size:
            raise invalid(ctx, f"Cropped size must be non-negative: start: {start} end: {end} "
                               f"size {size}")
        index.append(slice(int(start), size - int(end)))
    return np.ascontiguousarray(full[tuple(index)])
