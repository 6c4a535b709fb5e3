"""GPU kernels: MatMul, BatchMatMul, BiasAdd, softmax and cross-entropy, Conv2D and pooling
(im2col: CuPy has no cuDNN module, so a window view and one tensordot), their backprops, the
activation *Grad ops and TopKV2.

Checks and geometry are the CPU kernels' (cpu/nn.py, cpu/grad.py), so errors, paddings and
output sizes agree; only the arithmetic runs on the device.
"""

import numpy as np

from engine.kernels import register_table
from engine.kernels.cpu import grad as cpu_grad
from engine.kernels.cpu import nn as cpu_nn
from engine.kernels.common import invalid
from engine.kernels.cpu.grad import (activation_grads, backprop_geometry, crop_padding,
                                     nhwc_shape, padded_shape, tap_offsets)
from engine.kernels.cpu.nn import (batch_mat_mul_dtype, check_batch_mat_mul, check_bias_add,
                                   check_conv2d_depth, check_conv2d_ranks, check_logits,
                                   check_mat_mul, check_pool_input, label_range_error,
                                   lowest_value, spatial_hw, sparse_cross_entropy_and_backprop,
                                   top_k_count, top_k_index_dtype, window_geometry)
from engine.kernels.cuda.array import pad_constant
from engine.kernels.cuda.common import device, host


def _pool_counts(shape, pads, window, stride, out_hw, dtype):
    """How many input (not padding) elements each SAME-padded window covers: (1, OH, OW, 1)."""
    ones = np.pad(np.ones((1, shape[1], shape[2], 1), dtype), ((0, 0), pads[0], pads[1], (0, 0)))
    counts = np.zeros((1, out_hw[0], out_hw[1], 1), dtype)
    for _, _, rows, cols in tap_offsets(window, stride, (1, 1), out_hw):
        counts += ones[:, rows, cols, :]
    return counts


def register_all(xp):
    as_strided = xp.lib.stride_tricks.as_strided

    def nhwc(ctx, x):
        return xp.transpose(x, (0, 2, 3, 1)) if ctx.attrs.get("data_format") == b"NCHW" else x

    def from_nhwc(ctx, x):
        x = xp.transpose(x, (0, 3, 1, 2)) if ctx.attrs.get("data_format") == b"NCHW" else x
        return xp.ascontiguousarray(x)

    def padded(x, pads, value=0):
        return pad_constant(xp, x, [(0, 0), pads[0], pads[1], (0, 0)], value) \
            if any(map(any, pads)) else xp.ascontiguousarray(x)

    def windows(x, out_hw, window, stride, dilation):
        """A (N, OH, OW, KH, KW, C) view of the windows of a contiguous padded NHWC array."""
        n, _, _, c = x.shape
        sn, sh, sw, sc = x.strides
        return as_strided(x, (n, out_hw[0], out_hw[1], window[0], window[1], c),
                          (sn, sh * stride[0], sw * stride[1], sh * dilation[0],
                           sw * dilation[1], sc))

    # --- matrix products --------------------------------------------------------------------

    def mat_mul(ctx, a, b):
        transpose_a, transpose_b = check_mat_mul(ctx, a, b)
        a, b = device(xp, a), device(xp, b)
        return xp.matmul(a.T if transpose_a else a, b.T if transpose_b else b)

    def adjoint(x):
        x = xp.swapaxes(x, -1, -2)
        return xp.conj(x) if x.dtype.kind == "c" else x

    def batch_mat_mul(ctx, x, y):
        adj_x, adj_y = check_batch_mat_mul(ctx, x, y)
        x, y = device(xp, x), device(xp, y)
        result = xp.matmul(adjoint(x) if adj_x else x, adjoint(y) if adj_y else y)
        out = batch_mat_mul_dtype(ctx)
        return result.astype(out, copy=False) if out is not None else result

    def bias_add(ctx, value, bias):
        axis = check_bias_add(ctx, value, bias)
        value, bias = device(xp, value), device(xp, bias)
        if axis == value.ndim - 1:
            return value + bias
        return value + bias.reshape((-1,) + (1,) * (value.ndim - axis - 1))

    def bias_add_grad(ctx, out_backprop):
        return cpu_grad.bias_add_grad(ctx, device(xp, out_backprop), xp=xp)

    # --- softmax and cross-entropy ----------------------------------------------------------

    def shifted_logits(ctx, logits):
        check_logits(ctx, logits)
        logits = device(xp, logits)
        return logits - xp.max(logits, axis=-1, keepdims=True)

    def softmax(ctx, logits):
        exp = xp.exp(shifted_logits(ctx, logits))
        return exp / xp.sum(exp, axis=-1, keepdims=True)

    def log_softmax(ctx, logits):
        shifted = shifted_logits(ctx, logits)
        return shifted - xp.log(xp.sum(xp.exp(shifted), axis=-1, keepdims=True))

    def softmax_cross_entropy(ctx, features, labels):
        return cpu_nn.softmax_cross_entropy(ctx, device(xp, features), device(xp, labels),
                                            xp=xp)

    def sparse_softmax_cross_entropy(ctx, features, labels):
        features, labels = device(xp, features), device(xp, labels)
        classes = features.shape[-1]
        if labels.size and bool(((labels < 0) | (labels >= classes)).any()):
            raise label_range_error(ctx, host(labels), classes)
        return sparse_cross_entropy_and_backprop(xp, features, labels)

    # --- convolution and pooling, in NHWC ---------------------------------------------------

    def conv2d(ctx, x, filters):
        check_conv2d_ranks(ctx, x, filters)
        x, filters = nhwc(ctx, device(xp, x)), device(xp, filters)
        check_conv2d_depth(ctx, x, filters, groups_allowed=False)  # grouped: CPU only, yet
        stride = spatial_hw(ctx, ctx.attrs.get("strides"))
        dilation = spatial_hw(ctx, ctx.attrs.get("dilations"))
        window = filters.shape[:2]
        out_hw, pads = window_geometry(ctx, x, window, stride, dilation)
        if 0 in out_hw or x.shape[0] == 0:
            return from_nhwc(ctx, xp.zeros((x.shape[0], *out_hw, filters.shape[3]), x.dtype))
        cols = windows(padded(x, pads), out_hw, window, stride, dilation)
        result = xp.tensordot(cols, filters, axes=([3, 4, 5], [0, 1, 2]))
        return from_nhwc(ctx, result.astype(x.dtype, copy=False))

    def conv2d_backprop_input(ctx, input_sizes, filters, out_backprop):
        shape = nhwc_shape(ctx, host(input_sizes))
        filters, dy = device(xp, filters), nhwc(ctx, device(xp, out_backprop))
        stride = spatial_hw(ctx, ctx.attrs.get("strides"))
        dilation = spatial_hw(ctx, ctx.attrs.get("dilations"))
        window = filters.shape[:2]
        out_hw, pads = backprop_geometry(ctx, shape, window, stride, dilation)
        if tuple(out_hw) != dy.shape[1:3]:
            raise invalid(ctx, f"Conv2DCustomBackpropInput: Size of out_backprop doesn't "
                               f"match computed: actual = {dy.shape[1]}, computed = "
                               f"{out_hw[0]}")
        result = xp.zeros(padded_shape(shape, pads), out_backprop.dtype)
        for i, j, rows, cols in tap_offsets(window, stride, dilation, out_hw):
            result[:, rows, cols, :] += xp.tensordot(dy, filters[i, j], axes=([3], [1]))
        return from_nhwc(ctx, crop_padding(result, shape, pads))

    def conv2d_backprop_filter(ctx, x, filter_sizes, out_backprop):
        fshape = [int(d) for d in host(filter_sizes).reshape(-1)]
        x, dy = nhwc(ctx, device(xp, x)), nhwc(ctx, device(xp, out_backprop))
        stride = spatial_hw(ctx, ctx.attrs.get("strides"))
        dilation = spatial_hw(ctx, ctx.attrs.get("dilations"))
        window = fshape[:2]
        out_hw, pads = backprop_geometry(ctx, x.shape, window, stride, dilation)
        if 0 in out_hw or x.shape[0] == 0:
            return xp.zeros(fshape, out_backprop.dtype)
        cols = windows(padded(x, pads), out_hw, window, stride, dilation)
        result = xp.tensordot(cols, dy, axes=([0, 1, 2], [0, 1, 2]))
        return result.astype(out_backprop.dtype, copy=False).reshape(fshape)

    def pool_args(ctx, x, ksize, strides):
        check_pool_input(ctx, x)
        x = nhwc(ctx, device(xp, x))
        window, stride = spatial_hw(ctx, ksize), spatial_hw(ctx, strides)
        out_hw, pads = window_geometry(ctx, x, window, stride, (1, 1))
        return x, window, stride, out_hw, pads

    def max_pool(ctx, x, ksize, strides):
        x, window, stride, out_hw, pads = pool_args(ctx, x, ksize, strides)
        if 0 in out_hw or x.shape[0] == 0 or x.shape[3] == 0:
            return from_nhwc(ctx, xp.zeros((x.shape[0], *out_hw, x.shape[3]), x.dtype))
        source = padded(x, pads, lowest_value(x.dtype))
        return from_nhwc(ctx, windows(source, out_hw, window, stride, (1, 1)).max(axis=(3, 4)))

    def avg_pool(ctx, x, ksize, strides):
        x, window, stride, out_hw, pads = pool_args(ctx, x, ksize, strides)
        if 0 in out_hw or x.shape[0] == 0 or x.shape[3] == 0:
            return from_nhwc(ctx, xp.zeros((x.shape[0], *out_hw, x.shape[3]), x.dtype))
        sums = windows(padded(x, pads), out_hw, window, stride, (1, 1)).sum(
            axis=(3, 4), dtype=x.dtype)
        # SAME padding averages over the elements inside the input only.
        counts = xp.asarray(_pool_counts(x.shape, pads, window, stride, out_hw, x.dtype))
        return from_nhwc(ctx, (sums / counts).astype(x.dtype, copy=False))

    def max_pool_grad(ctx, orig_input, orig_output, grad):
        x, dy = nhwc(ctx, device(xp, orig_input)), nhwc(ctx, device(xp, grad))
        window, stride = spatial_hw(ctx, ctx.attrs["ksize"]), spatial_hw(ctx, ctx.attrs["strides"])
        out_hw, pads = window_geometry(ctx, x, window, stride, (1, 1))
        source = padded(x, pads, lowest_value(x.dtype))
        result = xp.zeros(source.shape, grad.dtype)
        if 0 not in out_hw and x.size:
            taps = windows(source, out_hw, window, stride, (1, 1))
            n, oh, ow, kh, kw, c = taps.shape
            # The first maximum in row-major window order takes the gradient, as TensorFlow's
            # CPU kernel does; each tap then adds the gradients it won, one strided slice each.
            arg = xp.argmax(taps.reshape(n, oh, ow, kh * kw, c), axis=3)
            for i, j, rows, cols in tap_offsets(window, stride, (1, 1), out_hw):
                result[:, rows, cols, :] += xp.where(arg == i * kw + j, dy, 0).astype(
                    grad.dtype, copy=False)
        return from_nhwc(ctx, crop_padding(result, x.shape, pads))

    def avg_pool_grad(ctx, orig_input_shape, grad):
        shape = nhwc_shape(ctx, host(orig_input_shape))
        dy = nhwc(ctx, device(xp, grad))
        window, stride = spatial_hw(ctx, ctx.attrs["ksize"]), spatial_hw(ctx, ctx.attrs["strides"])
        out_hw, pads = backprop_geometry(ctx, shape, window, stride, (1, 1))
        counts = _pool_counts(shape, pads, window, stride, out_hw, grad.dtype)
        share = dy / xp.asarray(counts)
        result = xp.zeros(padded_shape(shape, pads), grad.dtype)
        for _, _, rows, cols in tap_offsets(window, stride, (1, 1), out_hw):
            result[:, rows, cols, :] += share
        return from_nhwc(ctx, crop_padding(result, shape, pads))

    def top_k(ctx, x, k):
        x = device(xp, x)
        k = top_k_count(ctx, x.shape, host(k))
        # A stable sort of the negated values keeps equal elements in index order, as TF.
        order = xp.argsort(~x if x.dtype.kind in "iu" else -x, axis=-1, kind="stable")[..., :k]
        return xp.take_along_axis(x, order, axis=-1), order.astype(top_k_index_dtype(ctx))

    register_table({
        "MatMul": mat_mul, "BatchMatMul": batch_mat_mul, "BatchMatMulV2": batch_mat_mul,
        "BatchMatMulV3": batch_mat_mul, "BiasAdd": bias_add, "BiasAddV1": bias_add,
        "BiasAddGrad": bias_add_grad, "Softmax": softmax, "LogSoftmax": log_softmax,
        "SoftmaxCrossEntropyWithLogits": softmax_cross_entropy,
        "SparseSoftmaxCrossEntropyWithLogits": sparse_softmax_cross_entropy,
        "Conv2D": conv2d, "Conv2DBackpropInput": conv2d_backprop_input,
        "Conv2DBackpropFilter": conv2d_backprop_filter,
        "MaxPool": lambda ctx, x: max_pool(ctx, x, ctx.attrs["ksize"], ctx.attrs["strides"]),
        "MaxPoolV2": lambda ctx, x, ksize, strides: max_pool(
            ctx, x, host(ksize).tolist(), host(strides).tolist()),
        "AvgPool": lambda ctx, x: avg_pool(ctx, x, ctx.attrs["ksize"], ctx.attrs["strides"]),
        "MaxPoolGrad": max_pool_grad, "AvgPoolGrad": avg_pool_grad, "TopKV2": top_k,
        **_activation_grads(xp),
    }, "GPU")


def _activation_grads(xp):
    """cpu_grad's *Grad formulas on device arrays: results in the first input's dtype."""
    def typed(fn):
        def kernel(ctx, a, b):
            a, b = device(xp, a), device(xp, b)
            return fn(ctx, a, b).astype(a.dtype, copy=False)
        return kernel

    return activation_grads(xp, typed)
