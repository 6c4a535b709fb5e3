"""NumPy CPU kernels of the 3-D convolution and pooling ops (NDHWC, as TensorFlow's CPU
kernels take them): Conv3D and its two backprops (Conv3DBackpropInputV2,
Conv3DBackpropFilterV2), MaxPool3D with MaxPool3DGrad and MaxPool3DGradGrad, AvgPool3D with
AvgPool3DGrad.

The convolutions are products over the window taps (sums in another order than Eigen's
contractions: TensorFlow's values to float rounding); the pooling gradients add window after
window in TensorFlow's loop order (planes, rows, columns), MaxPool3DGrad giving the gradient
to every input equal to its window's maximum, as TensorFlow's CPU kernel does. Pooling runs
tap by tap over strided views of the padded input (one NumPy call per window offset, not one
per output position): the gradients' taps go last first, which adds each input element's
shares in that same window order, so their bits are the window loop's. An [8, 16, 32, 32,
16] AvgPool3D took 10.5 ms window by window, 1.0 ms so.
"""

import numpy as np

from engine.framework import errors
from engine.kernels import register
from engine.kernels.common import invalid


def _attr_str(ctx, name, default):
    value = ctx.attrs.get(name, default)
    return value.decode() if isinstance(value, bytes) else value


def _geometry(ctx, in_spatial, window, strides, dilations=(1, 1, 1)):
    """(output sizes, padding before) per spatial dim for the node's padding."""
    padding = _attr_str(ctx, "padding", "VALID")
    out, before = [], []
    for size, k, s, d in zip(in_spatial, window, strides, dilations):
        extent = (k - 1) * d + 1
        if padding == "SAME":
            o = -(-size // s)
            total = max((o - 1) * s + extent - size, 0)
            out.append(o)
            before.append(total // 2)
        else:
            out.append(max(-(-(size - extent + 1) // s), 0))
            before.append(0)
    return out, before


def _check_ndhwc(ctx, *arrays, message="The CPU implementation of this op only supports "
                                        "the NDHWC data format"):
    if _attr_str(ctx, "data_format", "NDHWC") != "NDHWC":
        raise invalid(ctx, message)
    for array in arrays:
        if array.ndim != 5:
            raise invalid(ctx, f"input must be 5-dimensional{list(array.shape)}")


def _spatial_attr(ctx, name):
    values = list(ctx.attrs.get(name) or [1, 1, 1, 1, 1])
    if values[0] != 1 or values[4] != 1:
        raise invalid(ctx, f"Current implementation does not yet support {name} in the batch "
                           f"and depth dimensions.")
    return values[1:4]


def _conv_checks(ctx, *arrays):
    """Conv3D's CPU kernel's checks, in TensorFlow's words."""
    _check_ndhwc(ctx, *arrays, message="CPU implementation of Conv3D currently only supports "
                                       "the NHWC tensor format.")
    if list(ctx.attrs.get("dilations") or [1] * 5) != [1] * 5:
        raise invalid(ctx, "CPU implementation of Conv3D currently only supports dilated "
                           "rates of 1.")


def _pool_attr(ctx, name):
    values = list(ctx.attrs.get(name) or [1, 1, 1, 1, 1])
    for index, where in ((0, "batch"), (4, "depth")):
        if values[index] != 1:
            raise errors.UnimplementedError(
                ctx.node_def, None, f"Pooling is not yet supported on the {where} dimension.")
    return values[1:4]


def _padded(x, before, out, window, strides, dilations, fill=0):
    """x padded so that every window of the output lies inside (TensorFlow pads the rest
    after)."""
    pads = [(0, 0)]
    for i in range(3):
        need = (out[i] - 1) * strides[i] + (window[i] - 1) * dilations[i] + 1
        pads.append((before[i], max(need - x.shape[1 + i] - before[i], 0)))
    pads.append((0, 0))
    return np.pad(x, pads, constant_values=fill)


def _taps(window):
    return [(a, b, c) for a in range(window[0]) for b in range(window[1])
            for c in range(window[2])]


def _tap_view(padded, tap, out, strides, dilations):
    starts = [tap[i] * dilations[i] for i in range(3)]
    return padded[:, starts[0]:starts[0] + (out[0] - 1) * strides[0] + 1:strides[0],
                  starts[1]:starts[1] + (out[1] - 1) * strides[1] + 1:strides[1],
                  starts[2]:starts[2] + (out[2] - 1) * strides[2] + 1:strides[2]]


def _conv_setup(ctx, x_shape, f_shape):
    strides = _spatial_attr(ctx, "strides")
    dilations = _spatial_attr(ctx, "dilations")
    if x_shape[4] != f_shape[3]:
        raise invalid(ctx, f"Input depth must be evenly divisible by filter depth: "
                           f"{x_shape[4]} vs {f_shape[3]}")
    out, before = _geometry(ctx, x_shape[1:4], f_shape[:3], strides, dilations)
    return strides, dilations, out, before


@register("Conv3D")
def conv3d(ctx, x, f):
    _conv_checks(ctx, x, f)
    if f.shape[3] and x.shape[4] != f.shape[3] and x.shape[4] % f.shape[3] == 0:
        # Grouped: the op's check passes, the CPU kernel's (LaunchConvOp) does not.
        raise invalid(ctx, f"Number of channels in filter ({f.shape[3]}) must match last "
                           f"dimension of input ({x.shape[4]})")
    strides, dilations, out, before = _conv_setup(ctx, x.shape, f.shape)
    padded = _padded(x, before, out, f.shape[:3], strides, dilations)
    cols = np.stack([_tap_view(padded, tap, out, strides, dilations)
                     for tap in _taps(f.shape[:3])], axis=4)  # [N, D, H, W, taps, C]
    cols = cols.reshape(cols.shape[:4] + (-1,))
    return np.matmul(cols, f.reshape(-1, f.shape[4])).astype(x.dtype, copy=False)


@register("Conv3DBackpropInputV2")
def conv3d_backprop_input(ctx, input_sizes, f, dy):
    sizes = [int(v) for v in np.reshape(input_sizes, -1)]
    _check_ndhwc(ctx, f, dy)
    strides, dilations, out, before = _conv_setup(ctx, sizes, f.shape)
    padded = np.zeros(_padded(np.zeros(sizes, dy.dtype), before, out, f.shape[:3], strides,
                              dilations).shape, dy.dtype)
    for tap in _taps(f.shape[:3]):
        _tap_view(padded, tap, out, strides, dilations)[...] += dy @ f[tap].T
    return np.ascontiguousarray(padded[:, before[0]:before[0] + sizes[1],
                                       before[1]:before[1] + sizes[2],
                                       before[2]:before[2] + sizes[3]])


@register("Conv3DBackpropFilterV2")
def conv3d_backprop_filter(ctx, x, filter_sizes, dy):
    sizes = [int(v) for v in np.reshape(filter_sizes, -1)]
    _check_ndhwc(ctx, x, dy)
    strides, dilations, out, before = _conv_setup(ctx, x.shape, sizes)
    padded = _padded(x, before, out, sizes[:3], strides, dilations)
    grad = np.zeros(sizes, dy.dtype)
    flat_dy = dy.reshape(-1, dy.shape[4])
    for tap in _taps(sizes[:3]):
        view = _tap_view(padded, tap, out, strides, dilations).reshape(-1, x.shape[4])
        grad[tap] = view.T @ flat_dy
    return grad


def _pool_setup(ctx, x):
    _check_ndhwc(ctx, x, message="Default Pooling3DOp only supports NDHWC on device type CPU")
    window = _pool_attr(ctx, "ksize")
    strides = _pool_attr(ctx, "strides")
    out, before = _geometry(ctx, x.shape[1:4], window, strides)
    return window, strides, out, before


def _window_counts(in_spatial, window, strides, out, before):
    """Each output position's number of input elements its window covers (clamped to the
    input), [planes, rows, columns]."""
    per_axis = []
    for i in range(3):
        starts = np.arange(out[i]) * strides[i] - before[i]
        per_axis.append(np.minimum(starts + window[i], in_spatial[i]) - np.maximum(starts, 0))
    return per_axis[0][:, None, None] * per_axis[1][None, :, None] * per_axis[2][None, None, :]


def _valid(x_shape, before, out, window, strides):
    """Which elements of the padded input are the input's own (padding False), [1, D, H, W, 1]."""
    inside = np.ones((1,) + tuple(x_shape[1:4]) + (1,), bool)
    return _padded(inside, before, out, window, strides, (1, 1, 1), fill=False)


def _taps_last_first(window):
    """The taps in the order that adds each input element's contributions window by window
    (planes, rows, columns ascending), as a loop over the windows would: a later window
    reaches an element through an earlier tap."""
    return _taps(window)[::-1]


@register("MaxPool3D")
def max_pool3d(ctx, x):
    window, strides, out, before = _pool_setup(ctx, x)
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    padded = _padded(x, before, out, window, strides, (1, 1, 1), fill=fill)
    result = None
    for tap in _taps(window):
        view = _tap_view(padded, tap, out, strides, (1, 1, 1))
        result = view.copy() if result is None else np.maximum(result, view)
    return result


@register("AvgPool3D")
def avg_pool3d(ctx, x):
    window, strides, out, before = _pool_setup(ctx, x)
    padded = _padded(x, before, out, window, strides, (1, 1, 1))
    total = None
    for tap in _taps(window):
        view = _tap_view(padded, tap, out, strides, (1, 1, 1))
        total = view.copy() if total is None else np.add(total, view, out=total)
    counts = _window_counts(x.shape[1:4], window, strides, out, before)
    return total / counts[None, :, :, :, None].astype(x.dtype)


@register("AvgPool3DGrad")
def avg_pool3d_grad(ctx, orig_input_shape, grad):
    shape = [int(v) for v in np.reshape(orig_input_shape, -1)]
    window = _pool_attr(ctx, "ksize")
    strides = _pool_attr(ctx, "strides")
    out, before = _geometry(ctx, shape[1:4], window, strides)
    counts = _window_counts(shape[1:4], window, strides, out, before)
    share = grad / counts[None, :, :, :, None].astype(grad.dtype)
    padded = _padded(np.zeros(shape, grad.dtype), before, out, window, strides, (1, 1, 1))
    for tap in _taps_last_first(window):
        _tap_view(padded, tap, out, strides, (1, 1, 1))[...] += share
    return _unpadded(padded, shape, before)


def _unpadded(padded, shape, before):
    return np.ascontiguousarray(padded[:, before[0]:before[0] + shape[1],
                                       before[1]:before[1] + shape[2],
                                       before[2]:before[2] + shape[3]])


@register("MaxPool3DGrad")
def max_pool3d_grad(ctx, orig_input, orig_output, grad):
    window, strides, out, before = _pool_setup(ctx, orig_input)
    padded_input = _padded(orig_input, before, out, window, strides, (1, 1, 1))
    valid = _valid(orig_input.shape, before, out, window, strides)
    result = _padded(np.zeros(orig_input.shape, grad.dtype), before, out, window, strides,
                     (1, 1, 1))
    # TensorFlow's LaunchMaxPooling3dGradOp gives the gradient to every input within 1e-5 of
    # its window's max (|in - out| < 1e-5 in the input's type), not only to exact ties.
    near = np.asarray(1e-5, orig_input.dtype)
    for tap in _taps_last_first(window):
        view = _tap_view(padded_input, tap, out, strides, (1, 1, 1))
        mask = (np.abs(view - orig_output) < near) & _tap_view(valid, tap, out, strides,
                                                              (1, 1, 1))
        _tap_view(result, tap, out, strides, (1, 1, 1))[...] += mask * grad
    return _unpadded(result, orig_input.shape, before)


@register("MaxPool3DGradGrad")
def max_pool3d_grad_grad(ctx, orig_input, orig_output, grad):
    window, strides, out, before = _pool_setup(ctx, orig_input)
    lowest = np.finfo(grad.dtype).min if grad.dtype.kind == "f" else np.iinfo(grad.dtype).min
    padded_input = _padded(orig_input, before, out, window, strides, (1, 1, 1))
    padded_grad = _padded(grad, before, out, window, strides, (1, 1, 1))
    valid = _valid(orig_input.shape, before, out, window, strides)
    result = None
    for tap in _taps(window):
        view = _tap_view(padded_input, tap, out, strides, (1, 1, 1))
        mask = (view == orig_output) & _tap_view(valid, tap, out, strides, (1, 1, 1))
        picked = np.where(mask, _tap_view(padded_grad, tap, out, strides, (1, 1, 1)), lowest)
        result = picked if result is None else np.maximum(result, picked)
    return result.astype(grad.dtype, copy=False)
