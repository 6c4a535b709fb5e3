"""NumPy CPU kernels of the ops gradient graphs contain: activation *Grad ops, BiasAddGrad,
the conv and pool backprops (and the max pool gradients' own gradients), BroadcastGradientArgs,
StridedSliceGrad, MirrorPadGrad, ConcatOffset, DynamicStitch and UnsortedSegmentSum."""

import numpy as np

from engine.framework import errors
from engine.kernels import register, register_table
from engine.kernels.common import as_array, invalid, shape_str
from engine.kernels.cpu import compiled_forms
from engine.kernels.cpu.nn import (_channel_axis, _from_nhwc, _nhwc, _windows, lowest_value,
                                   spatial_hw, window_geometry)
from engine.kernels.cpu.array import strided_slice_spec
from engine.kernels.cpu import eigen_float32

_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_ALPHA = 1.6732632423543772848170429916717


def _typed(fn):
    """A kernel whose result has the dtype of its first array input."""
    def kernel(ctx, a, b, *rest):
        return as_array(fn(ctx, a, b, *rest), np.asarray(a).dtype)
    return kernel


def activation_grads(xp, typed):
    """The activation *Grad ops' formulas over array module `xp`, each made a kernel by
    `typed` (the CPU's and the GPU's own dtype handling): one table for both devices."""
    return {
        "ReluGrad": typed(lambda ctx, g, f: g * (f > 0)),
        "Relu6Grad": typed(lambda ctx, g, f: g * ((f > 0) & (f < 6))),
        "EluGrad": typed(lambda ctx, g, y: xp.where(y < 0, g * (y + 1), g)),
        "SeluGrad": typed(lambda ctx, g, y: xp.where(
            y < 0, g * (y + g.dtype.type(_SELU_SCALE * _SELU_ALPHA)),
            g * g.dtype.type(_SELU_SCALE))),
        "LeakyReluGrad": typed(lambda ctx, g, f: xp.where(
            f > 0, g, g * g.dtype.type(ctx.attrs.get("alpha", 0.2)))),
        "SoftplusGrad": typed(lambda ctx, g, f: g / (xp.exp(-f) + 1)),
        "SoftsignGrad": typed(lambda ctx, g, f: g / xp.square(1 + xp.abs(f))),
        "TanhGrad": typed(lambda ctx, y, dy: dy * (1 - y * y)),
        "SigmoidGrad": typed(lambda ctx, y, dy: dy * (y * (1 - y))),
        "SqrtGrad": typed(lambda ctx, y, dy: dy * y.dtype.type(0.5) / y),
        "RsqrtGrad": typed(lambda ctx, y, dy: (y * y * y) * dy * y.dtype.type(-0.5)),
        "ReciprocalGrad": typed(lambda ctx, y, dy: -dy * y * y),
        "InvGrad": typed(lambda ctx, y, dy: -dy * y * y),
    }


register_table(activation_grads(np, _typed))
_relu_grad_reference = activation_grads(np, _typed)["ReluGrad"]


@register("ReluGrad")
def relu_grad(ctx, gradients, features):
    """ReluGrad, compiled where that serves its inputs (engine/kernels/cpu/compiled_forms.py)."""
    if isinstance(gradients, np.ndarray) and isinstance(features, np.ndarray) \
            and gradients.shape == features.shape and gradients.dtype == features.dtype \
            and gradients.ndim and gradients.size:
        fast = compiled_forms.module("activation", gradients.dtype, gradients.size)
        if fast is not None:
            return fast.relu_grad(gradients, features)
    return _relu_grad_reference(ctx, gradients, features)


def _sigmoid_grad_packet(y, dy):
    return dy * (y * (np.float32(1) - y))


def _sigmoid_grad_scalar(y, dy):
    return dy * y * (np.float32(1) - y)  # Eigen's scalar path multiplies in the other order


def _softplus_grad(g, f):
    return g / (eigen_float32.exp(-f) + np.float32(1))


def _float32_on_eigen(formula, generic):
    """`formula` (TensorFlow's float32 CPU arithmetic) for float32 inputs, `generic` for others."""
    def kernel(ctx, a, b):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype == b.dtype == np.float32 and a.shape == b.shape:
            return formula(a, b)
        return generic(ctx, a, b)
    return kernel


# SqrtGrad, RsqrtGrad and ReciprocalGrad (InvGrad) as TensorFlow's functors compute them
# (scalar_sqrt_gradient_op etc., tensorflow/core/kernels/cwise_ops_gradients.h): the packet
# path multiplies by dy last through mul_no_nan (+0 where dy is zero), in its own order; the
# scalar path (a tensor's last n % 8 floats, n % 4 doubles) returns +0 where dy is zero and
# multiplies in another order. Both conjugate y (complex). Floats under FTZ/DAZ.

_ftz = eigen_float32.flush_floats


def _conj(y):
    return np.conj(y) if y.dtype.kind == "c" else y


def _mul_no_nan(a, b):
    """TensorFlow's mul_no_nan_op: a * b, and +0 where b is zero."""
    return np.where(b == 0, np.zeros((), a.dtype), _ftz(a * b))


def _zero_where_dy_is(dy, value):
    return np.where(dy == 0, np.zeros((), value.dtype), value)


def _grad_inputs(formula):
    def apply(y, dy):
        with np.errstate(all="ignore"):
            return formula(_conj(_ftz(y)), _ftz(dy), y.dtype.type)
    apply.__name__ = formula.__name__
    return apply


@_grad_inputs
def _packet_sqrt_grad(y, dy, t):
    return _mul_no_nan(_ftz(t(0.5) / y), dy)


@_grad_inputs
def _scalar_sqrt_grad(y, dy, t):
    return _zero_where_dy_is(dy, _ftz(_ftz(t(0.5) * dy) / y))


@_grad_inputs
def _packet_rsqrt_grad(y, dy, t):
    return _mul_no_nan(_ftz(t(-0.5) * _ftz(y * y)), _mul_no_nan(y, dy))


@_grad_inputs
def _scalar_rsqrt_grad(y, dy, t):
    return _zero_where_dy_is(dy, _ftz(_ftz(t(-0.5) * _ftz(dy * y)) * _ftz(y * y)))


@_grad_inputs
def _packet_reciprocal_grad(y, dy, t):
    return _mul_no_nan(-_ftz(y * y), dy)


@_grad_inputs
def _scalar_reciprocal_grad(y, dy, t):
    return _zero_where_dy_is(dy, _ftz(_ftz(-y * y) * dy))


_LANES = {np.float32: 8, np.float16: 8, np.float64: 4}  # AVX's packets (halves as floats)


def _eigen_grad(packet, scalar, generic):
    """The kernel of a gradient functor: packets and tail for floats, the scalar formula over
    complex values (whose rounding is NumPy's, not Eigen's), `generic` for operands of other
    dtypes or shapes."""
    by_dtype = {t: eigen_float32.packets_and_tail(packet, scalar, lanes=lanes, dtype=t)
                for t, lanes in _LANES.items()}

    def kernel(ctx, y, dy):
        y, dy = np.asarray(y), np.asarray(dy)
        if y.dtype == dy.dtype and y.shape == dy.shape:
            if y.dtype.type in by_dtype:
                return by_dtype[y.dtype.type](y, dy)
            if y.dtype.kind == "c":
                return scalar(y, dy)
        return generic(ctx, y, dy)
    return kernel


_GENERIC_GRADS = activation_grads(np, _typed)
register_table({
    "SqrtGrad": _eigen_grad(_packet_sqrt_grad, _scalar_sqrt_grad, _GENERIC_GRADS["SqrtGrad"]),
    "RsqrtGrad": _eigen_grad(_packet_rsqrt_grad, _scalar_rsqrt_grad,
                             _GENERIC_GRADS["RsqrtGrad"]),
    "ReciprocalGrad": _eigen_grad(_packet_reciprocal_grad, _scalar_reciprocal_grad,
                                  _GENERIC_GRADS["ReciprocalGrad"]),
    "InvGrad": _eigen_grad(_packet_reciprocal_grad, _scalar_reciprocal_grad,
                           _GENERIC_GRADS["InvGrad"]),
})
register_table({
    "SigmoidGrad": _float32_on_eigen(
        eigen_float32.packets_and_tail(_sigmoid_grad_packet, _sigmoid_grad_scalar),
        _GENERIC_GRADS["SigmoidGrad"]),
    "SoftplusGrad": _float32_on_eigen(
        eigen_float32.packets_and_tail(_softplus_grad, _softplus_grad),
        _GENERIC_GRADS["SoftplusGrad"]),
})


@register("BiasAddGrad")
def bias_add_grad(ctx, out_backprop, xp=np):
    if out_backprop.ndim < 2:
        raise invalid(ctx, f"Input tensor must be at least 2D: "
                           f"{shape_str(out_backprop.shape)}")
    axis = _channel_axis(ctx, out_backprop.ndim)
    if xp is np and axis == out_backprop.ndim - 1 and out_backprop.size:
        if out_backprop.size == out_backprop.shape[-1]:
            return channel_sums(out_backprop)  # one row: TensorFlow hands it back as it is
        fast = compiled_forms.module("pool", out_backprop.dtype, out_backprop.size)
        if fast is not None:
            return fast.bias_add_grad(out_backprop)
        if out_backprop.dtype in (np.float32, np.float64):
            return channel_sums(out_backprop)
    axes = tuple(i for i in range(out_backprop.ndim) if i != axis)
    return xp.sum(out_backprop, axis=axes, dtype=out_backprop.dtype)


# BiasAddGrad of channels-last float32 or float64 adds as TensorFlow does (bias_op.cc: the sum
# of the [rows, channels] matrix over its rows): each channel's rows one after another in the
# input's dtype, from zero, whatever the threads (measured against TensorFlow 2.21 at 1 and 2
# intra-op threads: tools/make_bias_grad_fixtures.py); the compiled form
# (engine/kernels/compiled/pool_numba.bias_add_grad) adds in the same order. np.sum's pairwise
# order changed 24 of a [96, 27] gradient's 27 values (2026-11-28).


def _sums_in_order(a):
    """The sums over axis 1 of the 3-D `a`, its rows added one after another from the first.
    np.add.reduce adds them so where the last axis is the inner loop (two values or more a
    row); with one, NumPy sums the axis pairwise, so its transpose is summed (the blocks as
    the inner loop), or where there is one block add.accumulate, always in order. (One
    channel of 2^20 rows: 0.7 ms through the transpose, 3.0 through add.accumulate; np.sum
    took 0.14. Measured 2026-11-28.)"""
    if a.shape[2] >= 2:
        return np.add.reduce(a, axis=1)
    if a.shape[0] >= 2:
        return np.add.reduce(np.ascontiguousarray(a[:, :, 0].T), axis=0)[:, None]
    return np.add.accumulate(a, axis=1)[:, -1]


def channel_sums(dy):
    """BiasAddGrad of the channels-last float `dy` in TensorFlow's order (above): from zero,
    so a column of negative zeros sums to +0.0, except where there is one row, which
    TensorFlow's reduction of the outer dimension hands back as it is (-0.0 stays; measured
    on BiasAddGrad and FusedBatchNormGradV3, 2026-11-28)."""
    rows = np.ascontiguousarray(dy).reshape(-1, dy.shape[-1])
    if rows.shape[0] == 1:
        return rows[0].copy()
    return _sums_in_order(rows[None])[0] + dy.dtype.type(0)


@register("BroadcastGradientArgs")
def broadcast_gradient_args(ctx, s0, s1):
    x, y = [int(d) for d in np.reshape(s0, -1)], [int(d) for d in np.reshape(s1, -1)]
    out_type = np.asarray(s0).dtype
    if x == y:
        return np.zeros(0, out_type), np.zeros(0, out_type)
    rank = max(len(x), len(y))
    x, y = [1] * (rank - len(x)) + x, [1] * (rank - len(y)) + y
    for a, b in zip(x, y):
        if a != b and a != 1 and b != 1:
            raise invalid(ctx, f"Incompatible shapes: {shape_str(s0)} vs. {shape_str(s1)}")
    return (np.array([i for i, d in enumerate(x) if d == 1], out_type),
            np.array([i for i, d in enumerate(y) if d == 1], out_type))


# --- conv2d and pooling backprops, computed in NHWC ---

def nhwc_shape(ctx, shape):
    """A 4-element shape tensor in NHWC order, whatever the op's data_format."""
    shape = [int(d) for d in np.reshape(shape, -1)]
    if ctx.attrs.get("data_format") == b"NCHW":
        return [shape[0], shape[2], shape[3], shape[1]]
    return shape


def backprop_geometry(ctx, input_shape, window, stride, dilation):
    """window_geometry for an input known only by its NHWC shape."""
    probe = np.empty((1, input_shape[1], input_shape[2], 1), np.float32)
    return window_geometry(ctx, probe, window, stride, dilation)


def padded_shape(shape, pads):
    """The NHWC shape of `shape` padded by ((top, bottom), (left, right))."""
    return (shape[0], shape[1] + sum(pads[0]), shape[2] + sum(pads[1]), shape[3])


def crop_padding(padded, shape, pads):
    """The NHWC `shape` window of `padded` inside its padding."""
    return padded[:, pads[0][0]:pads[0][0] + shape[1], pads[1][0]:pads[1][0] + shape[2], :]


def tap_offsets(window, stride, dilation, out_hw):
    """(i, j, rows, cols): the padded-input positions that kernel tap (i, j) reads."""
    for i in range(window[0]):
        for j in range(window[1]):
            rows = slice(i * dilation[0], i * dilation[0] + stride[0] * (out_hw[0] - 1) + 1,
                         stride[0])
            cols = slice(j * dilation[1], j * dilation[1] + stride[1] * (out_hw[1] - 1) + 1,
                         stride[1])
            yield i, j, rows, cols


@register("Conv2DBackpropInput")
def conv2d_backprop_input(ctx, input_sizes, filters, out_backprop):
    shape = nhwc_shape(ctx, input_sizes)
    dy = _nhwc(ctx, out_backprop)
    stride = spatial_hw(ctx, ctx.attrs.get("strides"))
    dilation = spatial_hw(ctx, ctx.attrs.get("dilations"))
    window = filters.shape[:2]
    out_hw, pads = backprop_geometry(ctx, shape, window, stride, dilation)
    if tuple(out_hw) != dy.shape[1:3]:
        raise invalid(ctx, f"Conv2DCustomBackpropInput: Size of out_backprop doesn't match "
                           f"computed: actual = {dy.shape[1]}, computed = {out_hw[0]}")
    if filters.shape[2] and shape[3] != filters.shape[2] and shape[3] % filters.shape[2] == 0:
        # A grouped convolution's: its forward runs on the CPU, its gradients do not.
        raise invalid(ctx, f"Gradients for grouped convolutions are not supported on CPU. "
                           f"Please file a feature request if you run into this issue. "
                           f"Computed input depth {shape[3]} doesn't match filter input "
                           f"depth {filters.shape[2]}")
    fast = None if 0 in shape or 0 in dy.shape or filters.dtype != dy.dtype else \
        compiled_forms.module("conv", dy.dtype, dy.size * filters[..., 0].size)
    if fast is not None:
        return _from_nhwc(ctx, fast.conv2d_backprop_input(dy, filters, shape[1:3], pads,
                                                          stride, dilation))
    padded = np.zeros(padded_shape(shape, pads), out_backprop.dtype)
    for i, j, rows, cols in tap_offsets(window, stride, dilation, out_hw):
        padded[:, rows, cols, :] += np.tensordot(dy, filters[i, j], axes=([3], [1]))
    return _from_nhwc(ctx, np.ascontiguousarray(crop_padding(padded, shape, pads)))


@register("Conv2DBackpropFilter")
def conv2d_backprop_filter(ctx, x, filter_sizes, out_backprop):
    fshape = [int(d) for d in np.reshape(filter_sizes, -1)]
    x, dy = _nhwc(ctx, x), _nhwc(ctx, out_backprop)
    stride = spatial_hw(ctx, ctx.attrs.get("strides"))
    dilation = spatial_hw(ctx, ctx.attrs.get("dilations"))
    window = fshape[:2]
    if len(fshape) == 4 and fshape[2] and x.shape[3] != fshape[2] and \
            x.shape[3] % fshape[2] == 0:
        # A grouped convolution's filter gradient: TensorFlow's CPU kernel sizes it from the
        # input's depth and finds filter_sizes too small.
        raise invalid(ctx, f"filter_size does not have enough elements, requested "
                           f"{fshape[0] * fshape[1] * x.shape[3] * fshape[3]}, got "
                           f"{int(np.prod(fshape))}")
    out_hw, pads = backprop_geometry(ctx, x.shape, window, stride, dilation)
    padded = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    fast = None if 0 in x.shape or 0 in dy.shape or 0 in fshape or x.dtype != dy.dtype else \
        compiled_forms.module("conv", x.dtype, dy.size * fshape[0] * fshape[1] * fshape[2])
    if fast is not None and tuple(out_hw) == dy.shape[1:3]:
        return fast.conv2d_backprop_filter(padded, dy, fshape, stride, dilation)
    result = np.zeros(fshape, out_backprop.dtype)
    for i, j, rows, cols in tap_offsets(window, stride, dilation, out_hw):
        result[i, j] = np.tensordot(padded[:, rows, cols, :], dy, axes=([0, 1, 2], [0, 1, 2]))
    return result


def _check_max_pool_grad_args(ctx, orig_input, orig_output, grad, ksize, strides, what,
                              grad_name):
    """TensorFlow's MaxPoolingGrad(Grad)Op checks before it pools: the ranks, then a window
    of 4 dims that pools neither the batch nor the depth (ksize and strides come from the
    inputs in the V2 ops, so they may be anything)."""
    for value, name in ((orig_input, "tensor_in"), (orig_output, "tensor_out"),
                        (grad, grad_name)):
        if np.ndim(value) != 4:
            raise invalid(ctx, f"{name} must be 4-dimensional")
    ksize, strides = [int(k) for k in np.reshape(ksize, -1)], \
        [int(k) for k in np.reshape(strides, -1)]
    if len(ksize) != 4:
        raise invalid(ctx, "Sliding window ksize field must specify 4 dimensions")
    if len(strides) != 4:
        raise invalid(ctx, "Sliding window strides field must specify 4 dimensions")
    n, c = (0, 1) if ctx.attrs.get("data_format") == b"NCHW" else (0, 3)
    if ksize[n] != 1 or strides[n] != 1:
        raise errors.UnimplementedError(ctx.node_def, None,
                                        "Pooling is not yet supported on the batch dimension.")
    if ksize[c] != 1 or strides[c] != 1:
        raise errors.UnimplementedError(
            ctx.node_def, None, f"{what} is not yet supported on the depth dimension.")
    return ksize, strides


def _expect_shape(ctx, what, expected, actual):
    if tuple(expected) != tuple(actual):
        raise invalid(ctx, f"Expected {what} shape to be {shape_str(expected)}, but got "
                           f"{shape_str(actual)}")


def _max_pool_grad(ctx, orig_input, orig_output, grad, ksize, strides):
    x, dy = _nhwc(ctx, orig_input), _nhwc(ctx, grad)
    window, stride = spatial_hw(ctx, ksize), spatial_hw(ctx, strides)
    out_hw, pads = window_geometry(ctx, x, window, stride, (1, 1))
    fast = None if 0 in x.shape or 0 in out_hw or dy.shape[1:3] != tuple(out_hw) \
        or x.dtype != dy.dtype else compiled_forms.module("pool", x.dtype, x.size)
    if fast is not None:
        return _from_nhwc(ctx, fast.max_pool_grad(x, dy, window, stride, pads))
    padded = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)), constant_values=lowest_value(x.dtype))
    result = np.zeros(padded.shape, grad.dtype)
    if 0 not in out_hw and x.size:
        windows = _windows(padded, out_hw, window, stride, (1, 1))
        n, oh, ow, kh, kw, c = windows.shape
        # The first maximum in row-major window order takes the gradient, as TensorFlow's CPU
        # kernel does.
        flat = np.moveaxis(windows.reshape(n, oh, ow, kh * kw, c), 3, -1)
        arg = np.argmax(flat, axis=-1)
        ni, hi, wi, ci = np.indices((n, oh, ow, c))
        rows = hi * stride[0] + arg // kw
        cols = wi * stride[1] + arg % kw
        np.add.at(result, (ni, rows, cols, ci), dy)
    return _from_nhwc(ctx, np.ascontiguousarray(crop_padding(result, x.shape, pads)))


@register("MaxPoolGrad")
def max_pool_grad(ctx, orig_input, orig_output, grad):
    return _max_pool_grad(ctx, orig_input, orig_output, grad, ctx.attrs["ksize"],
                          ctx.attrs["strides"])


@register("MaxPoolGradV2")
def max_pool_grad_v2(ctx, orig_input, orig_output, grad, ksize, strides):
    """MaxPoolGrad with its window and strides as inputs (MaxPoolV2's gradient)."""
    ksize, strides = _check_max_pool_grad_args(ctx, orig_input, orig_output, grad, ksize,
                                               strides, "MaxPoolingGrad", "out_backprop")
    x = _nhwc(ctx, orig_input)
    out_hw, _ = window_geometry(ctx, x, spatial_hw(ctx, ksize), spatial_hw(ctx, strides),
                                (1, 1))
    expected = _from_nhwc_shape(ctx, (x.shape[0], *out_hw, x.shape[3]))
    _expect_shape(ctx, "orig_output", expected, np.shape(orig_output))
    _expect_shape(ctx, "grad", expected, np.shape(grad))
    return _max_pool_grad(ctx, orig_input, orig_output, grad, ksize, strides)


def _from_nhwc_shape(ctx, shape):
    n, h, w, c = shape
    return (n, c, h, w) if ctx.attrs.get("data_format") == b"NCHW" else (n, h, w, c)


def _max_pool_grad_grad(ctx, orig_input, orig_output, grad, ksize, strides,
                        what="MaxPoolingGradGrad"):
    """Each window's gradient-of-gradient value: `grad` at the window's first element (in
    row-major order, inside the input) equal to the window's orig_output value, 0 where none
    is equal (TensorFlow's SpatialMaxPoolGradGrad, which compares with the given output
    rather than taking a maximum again)."""
    ksize, strides = _check_max_pool_grad_args(ctx, orig_input, orig_output, grad, ksize,
                                               strides, what, "out_grad_backprop")
    x, y, g = _nhwc(ctx, orig_input), _nhwc(ctx, orig_output), _nhwc(ctx, grad)
    window, stride = spatial_hw(ctx, ksize), spatial_hw(ctx, strides)
    out_hw, pads = window_geometry(ctx, x, window, stride, (1, 1))
    forward = (x.shape[0], *out_hw, x.shape[3])
    _expect_shape(ctx, "orig_output", _from_nhwc_shape(ctx, forward), np.shape(orig_output))
    _expect_shape(ctx, "grad", np.shape(orig_input), np.shape(grad))
    dtype = np.asarray(grad).dtype
    if 0 in forward or 0 in x.shape:
        return _from_nhwc(ctx, np.zeros(forward, dtype))
    widths = ((0, 0), pads[0], pads[1], (0, 0))
    inside = np.pad(np.ones((1, x.shape[1], x.shape[2], 1), bool), widths)
    n, oh, ow, c = forward
    kh, kw = window

    def flat_windows(a):
        # (N, OH, OW, KH * KW, C): each window's elements in row-major order
        return _windows(np.ascontiguousarray(a), out_hw, window, stride, (1, 1)).reshape(
            a.shape[0], oh, ow, kh * kw, a.shape[3])

    hits = (flat_windows(np.pad(x, widths)) == y[:, :, :, None, :]) \
        & flat_windows(inside)
    first = np.argmax(hits, axis=3)[:, :, :, None, :]
    picked = np.take_along_axis(flat_windows(np.pad(g, widths)), first, axis=3)[:, :, :, 0]
    found = np.take_along_axis(hits, first, axis=3)[:, :, :, 0]
    return _from_nhwc(ctx, np.where(found, picked, np.zeros((), dtype)).astype(dtype))


register_table({
    "MaxPoolGradGrad": lambda ctx, orig_input, orig_output, grad: _max_pool_grad_grad(
        ctx, orig_input, orig_output, grad, ctx.attrs["ksize"], ctx.attrs["strides"]),
    # TensorFlow's V2 kernel names itself MaxPoolingGrad in its depth-window error.
    "MaxPoolGradGradV2": lambda ctx, orig_input, orig_output, grad, ksize, strides:
        _max_pool_grad_grad(ctx, orig_input, orig_output, grad, ksize, strides,
                            "MaxPoolingGrad"),
})


@register("AvgPoolGrad")
def avg_pool_grad(ctx, orig_input_shape, grad):
    shape = nhwc_shape(ctx, orig_input_shape)
    dy = _nhwc(ctx, grad)
    window, stride = spatial_hw(ctx, ctx.attrs["ksize"]), spatial_hw(ctx, ctx.attrs["strides"])
    out_hw, pads = backprop_geometry(ctx, shape, window, stride, (1, 1))
    fast = None if 0 in shape or dy.shape[1:3] != tuple(out_hw) or dy.shape[0] != shape[0] \
        or dy.shape[3] != shape[3] else compiled_forms.module("pool", dy.dtype, dy.size)
    if fast is not None:
        return _from_nhwc(ctx, fast.avg_pool_grad(dy, shape, window, stride, pads))
    ones = np.pad(np.ones((1, shape[1], shape[2], 1), grad.dtype),
                  ((0, 0), pads[0], pads[1], (0, 0)))
    counts = _windows(ones, out_hw, window, stride, (1, 1)).sum(axis=(3, 4), dtype=grad.dtype)
    share = dy / counts
    padded = np.zeros(padded_shape(shape, pads), grad.dtype)
    # The taps last to first: an input element then gets its windows' shares in the order of
    # the windows (row after row), as the compiled kernel (pool_numba._avg_pool_grad) and
    # TensorFlow's CPU kernel add them. Taken first to last, the same shares added in the
    # other order differed from the compiled kernel's in 60% of the values (float32 and
    # float64, measured 2026-11-28 by tools/compiled_bits.py), so a program's values changed
    # at the step where the compiled module loaded.
    for _, _, rows, cols in reversed(list(tap_offsets(window, stride, (1, 1), out_hw))):
        padded[:, rows, cols, :] += share
    return _from_nhwc(ctx, np.ascontiguousarray(crop_padding(padded, shape, pads)))


# --- array gradients ---

@register("StridedSliceGrad")
def strided_slice_grad(ctx, shape, begin, end, strides, dy):
    shape = tuple(int(d) for d in np.reshape(shape, -1))
    index = strided_slice_spec(ctx, shape, begin, end, strides)
    result = np.zeros(shape, np.asarray(dy).dtype)
    target = result[index]
    result[index] = np.reshape(dy, np.shape(target))
    return result


@register("MirrorPadGrad")
def mirror_pad_grad(ctx, x, paddings):
    """MirrorPad's gradient: the padded gradient with each mirrored border added back onto the
    elements it copied (REFLECT copies from one element in from the edge, SYMMETRIC from the
    edge), one dimension after another; TensorFlow's checks and words."""
    x, paddings = np.asarray(x), np.asarray(paddings)
    if paddings.ndim != 2 or paddings.shape[1] != 2:
        raise invalid(ctx, f"paddings must be a matrix with 2 columns: "
                           f"{shape_str(paddings.shape)}")
    if paddings.shape[0] != x.ndim:
        raise invalid(ctx, f"The first dimension of paddings must be the rank of inputs"
                           f"{shape_str(paddings.shape)} {shape_str(x.shape)}")
    symmetric = ctx.attrs["mode"] == b"SYMMETRIC"
    result = x
    for axis, (before, after) in enumerate(paddings.tolist()):
        if before < 0 or after < 0:
            raise invalid(ctx, f"Paddings must be non-negative: {before}, {after}")
        in_size, total = x.shape[axis], before + after
        if not total < in_size:
            raise invalid(ctx, f"Total paddings must be less than the input dimension size: "
                               f"{total} was not less than {in_size}")
        size = in_size - total
        if symmetric and not (before <= size and after <= size):
            raise invalid(ctx, f"paddings must be no greater than the output dimension size: "
                               f"{before}, {after} greater than {size}")
        if not symmetric and not (before < size and after < size):
            raise invalid(ctx, f"paddings must be less than the output dimension size: "
                               f"{before}, {after} not less than {size}")
        moved = np.moveaxis(result, axis, 0)
        folded = moved[before:before + size].copy()
        shift = 1 if symmetric else 0
        # padded[k] = x[before - k - shift] before; padded[before + size + j] = x[size - 2 - j
        # + shift] after
        np.add.at(folded, before - np.arange(before) - shift, moved[:before])
        np.add.at(folded, size - 2 - np.arange(after) + shift, moved[before + size:])
        result = np.moveaxis(folded, 0, axis)
    return np.ascontiguousarray(result)


@register("ConcatOffset")
def concat_offset(ctx, concat_dim, *shapes):
    shapes = [np.asarray(s) for s in shapes]
    axis = int(concat_dim) % max(len(shapes[0]), 1)
    offsets, running = [], 0
    for s in shapes:
        offset = np.zeros_like(s)
        offset[axis] = running
        running += int(s[axis])
        offsets.append(offset)
    return offsets


@register("DynamicStitch")
@register("ParallelDynamicStitch")
def dynamic_stitch(ctx, *args):
    n = len(args) // 2
    indices, data = args[:n], args[n:]
    first = np.asarray(data[0])
    tail = first.shape[np.ndim(indices[0]):]
    size = max((int(np.max(i)) + 1 for i in indices if np.size(i)), default=0)
    result = np.zeros((size,) + tail, first.dtype)
    for idx, values in zip(indices, data):
        idx = np.asarray(idx).reshape(-1)
        result[idx] = np.asarray(values).reshape((idx.size,) + tail)
    return result


@register("DynamicPartition")
def dynamic_partition(ctx, data, partitions):
    """The rows of `data` (indexed by the leading dims `partitions` has) in partition order:
    output i holds those whose partition is i, in their order."""
    data, partitions = np.asarray(data), np.asarray(partitions)
    count = int(ctx.attrs["num_partitions"])
    if data.shape[:partitions.ndim] != partitions.shape:
        raise invalid(ctx, f"data.shape must start with partitions.shape, got data.shape = "
                           f"{shape_str(data.shape)}, partitions.shape = "
                           f"{shape_str(partitions.shape)}")
    flat = partitions.reshape(-1)
    bad = np.flatnonzero((flat < 0) | (flat >= count))
    if bad.size:
        raise invalid(ctx, f"partitions{_index_text(partitions.shape, bad[0])} = "
                           f"{flat[bad[0]]} is not in [0, {count})")
    rows = data.reshape((flat.size,) + data.shape[partitions.ndim:])
    return tuple(rows[flat == i] for i in range(count))


def _index_text(shape, flat_index):
    if not shape:
        return ""
    return "[" + ",".join(str(i) for i in np.unravel_index(flat_index, shape)) + "]"


@register("UnsortedSegmentSum")
def unsorted_segment_sum(ctx, data, segment_ids, num_segments):
    data, ids = np.asarray(data), np.asarray(segment_ids)
    count = int(num_segments)
    result = np.zeros((count,) + data.shape[ids.ndim:], data.dtype)
    keep = (ids >= 0).reshape(-1)
    flat = data.reshape((ids.size,) + data.shape[ids.ndim:])
    if np.any(ids.reshape(-1)[keep] >= count):
        bad = ids.reshape(-1)[keep][ids.reshape(-1)[keep] >= count][0]
        raise invalid(ctx, f"segment_ids[0] = {bad} is out of range [0, {count})")
    np.add.at(result, ids.reshape(-1)[keep], flat[keep])
    return result


@register("ListDiff")
def list_diff(ctx, x, y):
    x = np.asarray(x)
    keep = ~np.isin(x, np.asarray(y))
    return x[keep], np.nonzero(keep)[0].astype(ctx.output_dtypes[1].as_numpy_dtype)
