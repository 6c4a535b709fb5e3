"""NumPy CPU kernels of the windowed-maximum ops that remember where each maximum came from:
MaxPoolWithArgmax with its gradients, and the grayscale morphology Dilation2D with its
backprops. As TensorFlow's kernels, each window is scanned row by row and the first of equal
maxima wins; gradients are added into their positions in the output's order."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu.nn import conv_output_size


def _geometry(size_hw, window, stride, rate, padding):
    """((out_h, out_w), (pad_top, pad_left)) for a window of `window` taps `rate` apart."""
    out, before = [], []
    for dim in range(2):
        size, (pad, _) = conv_output_size(size_hw[dim], window[dim], stride[dim], rate[dim],
                                          padding)
        out.append(size)
        before.append(pad)
    return out, before


def _taps(x, window, stride, rate, padding):
    """(values [N, OH, OW, KH*KW, C] with -inf outside x, in-bounds mask [OH, OW, KH*KW],
    row [OH, KH*KW] and column [OW, KH*KW] of each tap in x)."""
    n, height, width, channels = x.shape
    (out_h, out_w), (top, left) = _geometry((height, width), window, stride, rate, padding)
    rows = np.arange(out_h)[:, None] * stride[0] - top + np.arange(window[0])[None] * rate[0]
    cols = np.arange(out_w)[:, None] * stride[1] - left + np.arange(window[1])[None] * rate[1]
    row_ok = (rows >= 0) & (rows < height)
    col_ok = (cols >= 0) & (cols < width)
    safe_rows, safe_cols = np.clip(rows, 0, max(height - 1, 0)), np.clip(cols, 0, max(width - 1, 0))
    values = x[:, safe_rows[:, None, :, None], safe_cols[None, :, None, :], :]
    ok = row_ok[:, None, :, None] & col_ok[None, :, None, :]         # [OH, OW, KH, KW]
    values = np.where(ok[None, ..., None], values, -np.inf)
    kh, kw = window
    return (values.reshape(n, out_h, out_w, kh * kw, channels), ok.reshape(out_h, out_w, -1),
            np.repeat(rows, kw, axis=1), np.tile(cols, (1, kh)))


def _hw(values):
    return int(values[1]), int(values[2])


# -- MaxPoolWithArgmax ------------------------------------------------------------------------

def _pool_argmax(ctx, x):
    """(max [N, OH, OW, C], flat argmax of each in x: ((b * H + y) * W + x) * C + c with
    include_batch_in_index, else without the batch term)."""
    if x.ndim != 4:
        raise invalid(ctx, "tensor_in must be 4-dimensional")
    window, stride = _hw(ctx.attr("ksize")), _hw(ctx.attr("strides"))
    values, _, rows, cols = _taps(x, window, stride, (1, 1), ctx.attr("padding"))
    best = np.argmax(values, axis=3)                                   # [N, OH, OW, C]
    pooled = np.take_along_axis(values, best[:, :, :, None, :], axis=3)[:, :, :, 0, :]
    n, height, width, channels = x.shape
    out_h, out_w = best.shape[1:3]
    y = rows[np.arange(out_h)[None, :, None, None], best]
    xs = cols[np.arange(out_w)[None, None, :, None], best]
    index = (y * width + xs) * channels + np.arange(channels)
    if ctx.attr("include_batch_in_index", False):
        index = index + np.arange(n)[:, None, None, None] * height * width * channels
    return pooled.astype(x.dtype), index


@register("MaxPoolWithArgmax")
def max_pool_with_argmax(ctx, x):
    pooled, index = _pool_argmax(ctx, x)
    return pooled, index.astype(ctx.attrs["Targmax"].as_numpy_dtype)


def _flat_positions(ctx, argmax, per_batch):
    """Each argmax as a position in the whole flat tensor."""
    argmax = np.asarray(argmax, np.int64).reshape(argmax.shape[0], -1)
    if not ctx.attr("include_batch_in_index", False):
        argmax = argmax + np.arange(argmax.shape[0])[:, None] * per_batch
    return argmax.reshape(-1)


@register("MaxPoolGradWithArgmax")
def max_pool_grad_with_argmax(ctx, x, grad, argmax):
    """grad added into x's shape at the argmax positions, in grad's order."""
    if x.ndim != 4:
        raise invalid(ctx, "origin input must be 4-dimensional")
    out = np.zeros(x.size, grad.dtype)
    positions = _flat_positions(ctx, argmax, x[0].size if len(x) else 0)
    if positions.size and (positions.min() < 0 or positions.max() >= out.size):
        raise invalid(ctx, "Invalid output gradient index")
    np.add.at(out, positions, grad.reshape(-1))
    return out.reshape(x.shape)


@register("MaxPoolGradGradWithArgmax")
def max_pool_grad_grad_with_argmax(ctx, x, grad, argmax):
    """grad (of x's shape) read at the argmax positions: the pooled shape."""
    positions = _flat_positions(ctx, argmax, x[0].size if len(x) else 0)
    return grad.reshape(-1)[positions].reshape(argmax.shape)


# -- Dilation2D -------------------------------------------------------------------------------

def _dilation_taps(ctx, x, filters):
    if x.ndim != 4:
        raise invalid(ctx, f"input must be 4-dimensional{shape_str(x.shape)}")
    if filters.ndim != 3:
        raise invalid(ctx, f"filter must be 3-dimensional: {shape_str(filters.shape)}")
    if x.shape[3] != filters.shape[2]:
        raise invalid(ctx, f"input and filter must have the same depth: {x.shape[3]} vs "
                           f"{filters.shape[2]}")
    window, stride = filters.shape[:2], _hw(ctx.attr("strides"))
    values, ok, rows, cols = _taps(x, window, stride, _hw(ctx.attr("rates")),
                                   ctx.attr("padding"))
    flat_filter = filters.reshape(-1, filters.shape[2])               # [KH*KW, C]
    sums = values + flat_filter[None, None, None]
    lowest = np.finfo(x.dtype).min
    # TensorFlow starts from the lowest finite value and keeps a tap only when greater.
    best = np.argmax(np.where(sums > lowest, sums, -np.inf), axis=3)
    found = np.take_along_axis(sums, best[:, :, :, None, :], axis=3)[:, :, :, 0, :] > lowest
    return sums, best, found, rows, cols, lowest


@register("Dilation2D")
def dilation2d(ctx, x, filters):
    sums, best, found, _, _, lowest = _dilation_taps(ctx, x, filters)
    out = np.take_along_axis(sums, best[:, :, :, None, :], axis=3)[:, :, :, 0, :]
    return np.where(found, out, lowest).astype(x.dtype)


@register("Dilation2DBackpropInput")
def dilation2d_backprop_input(ctx, x, filters, out_backprop):
    """out_backprop added at each window's maximum in x (the window's first in-bounds tap
    where none is found)."""
    _, best, found, rows, cols, _ = _dilation_taps(ctx, x, filters)
    n, height, width, channels = x.shape
    out_h, out_w = best.shape[1:3]
    first_row = np.clip(rows[:, 0], 0, None)[None, :, None, None]
    first_col = np.clip(cols[:, 0], 0, None)[None, None, :, None]
    y = np.where(found, rows[np.arange(out_h)[None, :, None, None], best], first_row)
    xs = np.where(found, cols[np.arange(out_w)[None, None, :, None], best], first_col)
    index = ((np.arange(n)[:, None, None, None] * height + y) * width + xs) * channels \
        + np.arange(channels)
    out = np.zeros(x.size, x.dtype)
    np.add.at(out, index.reshape(-1), out_backprop.reshape(-1))
    return out.reshape(x.shape)


@register("Dilation2DBackpropFilter")
def dilation2d_backprop_filter(ctx, x, filters, out_backprop):
    """out_backprop added at the filter tap of each window's maximum (tap 0 where none is
    found)."""
    _, best, found, _, _, _ = _dilation_taps(ctx, x, filters)
    tap = np.where(found, best, 0) * filters.shape[2] + np.arange(filters.shape[2])
    out = np.zeros(filters.size, filters.dtype)
    np.add.at(out, tap.reshape(-1), out_backprop.reshape(-1))
    return out.reshape(filters.shape)
