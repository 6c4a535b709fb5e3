"""NumPy CPU kernels: MatMul, BatchMatMul, BiasAdd, Softmax, Conv2D (im2col) and pooling."""

import functools

import numpy as np
from numpy.lib.stride_tricks import as_strided

from engine.kernels import register, register_table
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu import compiled_forms, eigen_reduce, threaded_elementwise, threaded_matmul


@register("MatMul")
def mat_mul(ctx, a, b):
    transpose_a, transpose_b = check_mat_mul(ctx, a, b)
    return threaded_matmul.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


def check_mat_mul(ctx, a, b):
    """MatMul's (transpose_a, transpose_b) once its operands' shapes are checked."""
    attrs = ctx.attrs
    transpose_a, transpose_b = attrs.get("transpose_a", False), attrs.get("transpose_b", False)
    if a.ndim != 2 or b.ndim != 2:
        bad, which = (a, 0) if a.ndim != 2 else (b, 1)
        raise invalid(ctx, f"In[{which}] is not a matrix. Instead it has shape "
                           f"{shape_str(bad.shape)}")
    if a.shape[0 if transpose_a else 1] != b.shape[1 if transpose_b else 0]:
        raise invalid(ctx, f"Matrix size-incompatible: In[0]: {shape_str(a.shape)}, "
                           f"In[1]: {shape_str(b.shape)}")
    return transpose_a, transpose_b


def _adjoint(x):
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if x.dtype.kind == "c" else x


@register("BatchMatMul")
@register("BatchMatMulV2")
@register("BatchMatMulV3")
def batch_mat_mul(ctx, x, y):
    adj_x, adj_y = check_batch_mat_mul(ctx, x, y)
    result = threaded_matmul.batch_matmul(_adjoint(x) if adj_x else x,
                                          _adjoint(y) if adj_y else y)
    out = batch_mat_mul_dtype(ctx)
    return result.astype(out, copy=False) if out is not None else result


def batch_mat_mul_dtype(ctx):
    """BatchMatMulV3's Tout, or None where the result keeps its operands' dtype."""
    return ctx.output_dtypes[0].as_numpy_dtype if ctx.op_type == "BatchMatMulV3" else None


def check_batch_mat_mul(ctx, x, y):
    adj_x, adj_y = ctx.attrs.get("adj_x", False), ctx.attrs.get("adj_y", False)
    for i, t in enumerate((x, y)):
        if t.ndim < 2:
            raise invalid(ctx, f"In[{i}] ndims must be >= 2: {t.ndim}")
    if ctx.op_type != "BatchMatMul":
        try:
            np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
        except ValueError:
            raise invalid(ctx, f"In[0] and In[1] must have compatible batch dimensions: "
                               f"{shape_str(x.shape)} vs. {shape_str(y.shape)}") from None
    if x.shape[-2 if adj_x else -1] != y.shape[-1 if adj_y else -2]:
        raise invalid(ctx, f"Matrix size-incompatible: In[0]: {shape_str(x.shape)}, "
                           f"In[1]: {shape_str(y.shape)} {int(adj_x)} {int(adj_y)}")
    return adj_x, adj_y


def _channel_axis(ctx, ndim):
    return 1 if ctx.attrs.get("data_format", b"NHWC") in (b"NCHW", b"NCDHW") and ndim > 2 \
        else ndim - 1


@register("BiasAdd")
@register("BiasAddV1")
def bias_add(ctx, value, bias):
    axis = check_bias_add(ctx, value, bias)
    fast = compiled_forms.module("bias", value.dtype, value.size) \
        if isinstance(value, np.ndarray) and isinstance(bias, np.ndarray) and value.size \
        and bias.dtype == value.dtype else None
    if fast is not None:  # the same additions over the intra-op threads
        return fast.bias_add(value, bias, axis)
    if axis == value.ndim - 1:
        return value + bias
    return value + bias.reshape((-1,) + (1,) * (value.ndim - axis - 1))


def check_bias_add(ctx, value, bias):
    """BiasAdd's channel axis once the shapes are checked."""
    if value.ndim < 2:
        raise invalid(ctx, f"Input tensor must be at least 2D: {shape_str(value.shape)}")
    if bias.ndim != 1:
        raise invalid(ctx, f"Biases must be 1D: {shape_str(bias.shape)}")
    axis = _channel_axis(ctx, value.ndim)
    if value.shape[axis] != bias.shape[0]:
        raise invalid(ctx, f"Must provide as many biases as the last dimension of the input "
                           f"tensor: {shape_str(bias.shape)} vs. {shape_str(value.shape)}")
    return axis


def check_logits(ctx, logits):
    if logits.ndim < 1:
        raise invalid(ctx, f"logits must have >= 1 dimension, got {shape_str(logits.shape)}")


def _softmax_input(ctx, logits):
    check_logits(ctx, logits)
    return logits - np.max(logits, axis=-1, keepdims=True)


def _eigen_softmax(logits, op, out=None):
    """float32 Softmax or LogSoftmax ("softmax", "log_softmax") along the last axis in
    TensorFlow's bits (engine/kernels/cpu/eigen_reduce.py), compiled where
    engine/kernels/compiled/eigen_reduce_numba.py is loaded, written into `out` (the logits
    themselves, forwarded) or a new array; None for other dtypes and empty logits. Logits
    laid out otherwise (an einsum's transposed product) are read through a C-ordered copy:
    their values are the same, so their softmax is TensorFlow's too. float16 logits: Eigen's
    half steps (eigen_reduce.half_softmax), NumPy only."""
    if isinstance(logits, np.ndarray) and logits.dtype == np.float16 and logits.size:
        rows = np.ascontiguousarray(logits).reshape(-1, logits.shape[-1])
        exact = (eigen_reduce.half_softmax(rows) if op == "softmax"
                 else eigen_reduce.half_log_softmax(rows))
        if out is None:
            return exact.reshape(logits.shape)
        out.reshape(-1, logits.shape[-1])[...] = exact
        return out
    if not (isinstance(logits, np.ndarray) and logits.dtype == np.float32 and logits.size):
        return None
    if not logits.flags.c_contiguous:
        if out is not None:
            return None
        logits = np.ascontiguousarray(logits)
    result = np.empty(logits.shape, np.float32) if out is None else out
    rows, target = logits.reshape(-1, logits.shape[-1]), result.reshape(-1, logits.shape[-1])
    module = compiled_forms.module("eigen_reduce", np.float32, logits.size)
    if module is not None and module.fits(op, rows.shape):
        module.softmax(op, rows, target)
    else:
        target[...] = eigen_reduce.softmax(rows) if op == "softmax" else \
            eigen_reduce.log_softmax(rows)
    return result


@register("Softmax")
def softmax(ctx, logits):
    check_logits(ctx, logits)
    exact = _eigen_softmax(logits, "softmax")
    if exact is not None:
        return exact
    split = threaded_elementwise.rows(_rows_of(logits), logits)
    if split is not None:
        return split
    exp = np.exp(_softmax_input(ctx, logits))
    return exp / np.sum(exp, axis=-1, keepdims=True)


def _softmax_rows(rows, out, fast=None):
    """Softmax of a block of rows into `out`: the unsplit kernel's NumPy calls, row by row the
    same values (threaded_elementwise.rows). `out` None: over `rows` (forwarding). `fast`:
    the compiled module whose shifted_rows (shift_rows over one array) gives x - max(x),
    NumPy's max and subtract in one pass (engine/kernels/compiled/reduce_numba.py: the same
    softmax, bit for bit)."""
    if fast is not None:
        shifted = rows if out is None else out
        fast.shift_rows(rows) if out is None else fast.shifted_rows(rows, out)
    else:
        shifted = np.subtract(rows, np.max(rows, axis=-1, keepdims=True),
                              out=rows if out is None else None)
    np.exp(shifted, out=shifted)
    np.divide(shifted, np.sum(shifted, axis=-1, keepdims=True),
              out=rows if out is None else out)


def _rows_of(logits):
    """_softmax_rows for logits, with the compiled first step where it is loaded for them
    (a row of one value or more, C-contiguous float32 or float64)."""
    fast = compiled_forms.module("reduce", logits.dtype, logits.size) \
        if logits.ndim and logits.shape[-1] and logits.flags.c_contiguous else None
    return _softmax_rows if fast is None else functools.partial(_softmax_rows, fast=fast)


def _softmax_forwarding(ctx, donated, logits):
    """Softmax written over its logits where the executor gives their buffer (engine/runtime/
    executor.py, forwarding): the same NumPy calls in the same order, in place. Measured in a
    BERT call (2026-11-28, load 2 to 3): 2.3 to 3.2 ms a [8, 12, 128, 128] softmax, 25 to 85
    page faults of its fresh results."""
    if not donated or logits.dtype.kind != "f" or not logits.flags.c_contiguous:
        return softmax(ctx, logits)
    check_logits(ctx, logits)
    if _eigen_softmax(logits, "softmax", out=logits) is not None:
        return logits
    rows = _rows_of(logits)
    if threaded_elementwise.rows(rows, logits, out=logits) is None:
        if logits.size:
            rows(logits.reshape(-1, logits.shape[-1]), None)
    return logits


softmax.forwarding = _softmax_forwarding


@register("LogSoftmax")
def log_softmax(ctx, logits):
    check_logits(ctx, logits)
    exact = _eigen_softmax(logits, "log_softmax")
    if exact is not None:
        return exact
    shifted = _softmax_input(ctx, logits)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


@register("SoftmaxCrossEntropyWithLogits")
def softmax_cross_entropy(ctx, features, labels, xp=np):
    try:
        features, labels = xp.broadcast_arrays(features, labels)
    except ValueError:
        raise xent_shapes_error(ctx, features, labels) from None
    if (xp is np and features.dtype == labels.dtype == np.float32 and features.ndim == 2
            and features.size):
        # TensorFlow's bits: its exp, log and order of additions (eigen_reduce.py)
        return eigen_reduce.softmax_cross_entropy(np.ascontiguousarray(features),
                                                  np.ascontiguousarray(labels))
    shifted = features - xp.max(features, axis=-1, keepdims=True)
    log_sum = xp.log(xp.sum(xp.exp(shifted), axis=-1, keepdims=True))
    loss = xp.sum(labels * (log_sum - shifted), axis=-1)
    return loss, xp.exp(shifted - log_sum) - labels


def xent_shapes_error(ctx, features, labels):
    return invalid(ctx, f"logits and labels must be broadcastable: logits_size="
                        f"{shape_str(features.shape)} labels_size={shape_str(labels.shape)}")


@register("SparseSoftmaxCrossEntropyWithLogits")
def sparse_softmax_cross_entropy(ctx, features, labels):
    classes = features.shape[-1]
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        raise label_range_error(ctx, labels, classes)
    if features.dtype == np.float32 and features.ndim == 2 and features.size:
        # TensorFlow's bits: its exp, log and order of additions (eigen_reduce.py)
        return eigen_reduce.sparse_softmax_cross_entropy(features, labels)
    return sparse_cross_entropy_and_backprop(np, features, labels)


def sparse_cross_entropy_and_backprop(xp, features, labels):
    """(loss, backprop) of SparseSoftmaxCrossEntropyWithLogits for labels in range."""
    shifted = features - xp.max(features, axis=-1, keepdims=True)
    log_sum = xp.log(xp.sum(xp.exp(shifted), axis=-1, keepdims=True))
    one_hot = xp.arange(features.shape[-1]) == labels[..., None]
    loss = xp.sum(xp.where(one_hot, log_sum - shifted, 0), axis=-1).astype(features.dtype)
    return loss, xp.exp(shifted - log_sum) - one_hot.astype(features.dtype)


def label_range_error(ctx, labels, classes):
    """TF's error for host `labels` some of which are outside [0, classes)."""
    bad = labels[(labels < 0) | (labels >= classes)][0]
    return invalid(ctx, f"Received a label value of {bad} which is outside the valid "
                        f"range of [0, {classes}).  Label values: "
                        f"{' '.join(str(v) for v in labels.reshape(-1).tolist())}")


# --- spatial ops, computed in NHWC ---

def conv_output_size(size, window, stride, dilation, padding, explicit=(0, 0)):
    """Output size and (before, after) padding of one spatial dim, as TensorFlow computes it.

    >>> conv_output_size(5, 3, 2, 1, b"SAME"), conv_output_size(5, 3, 2, 1, b"VALID")
    ((3, (1, 1)), (2, (0, 0)))
    """
    effective = (window - 1) * dilation + 1
    if padding == b"VALID":
        return max((size - effective + stride) // stride, 0), (0, 0)
    if padding == b"SAME":
        out = -(-size // stride)
        total = max((out - 1) * stride + effective - size, 0)
        return out, (total // 2, total - total // 2)
    before, after = explicit
    return max((size + before + after - effective) // stride + 1, 0), (before, after)


def _nhwc(ctx, x):
    return np.transpose(x, (0, 2, 3, 1)) if ctx.attrs.get("data_format") == b"NCHW" else x


def _from_nhwc(ctx, x):
    return np.transpose(x, (0, 3, 1, 2)) if ctx.attrs.get("data_format") == b"NCHW" else x


def spatial_hw(ctx, values, default=1):
    """(height, width) of a 4-element strides/ksize/dilations attr in the op's data_format."""
    values = list(values) if values is not None else [default] * 4
    return (values[2], values[3]) if ctx.attrs.get("data_format") == b"NCHW" \
        else (values[1], values[2])


def _windows(x, out_hw, window, stride, dilation):
    """A (N, OH, OW, KH, KW, C) view of the windows of an already padded NHWC array."""
    n, _, _, c = x.shape
    sn, sh, sw, sc = x.strides
    return as_strided(x, (n, out_hw[0], out_hw[1], window[0], window[1], c),
                      (sn, sh * stride[0], sw * stride[1], sh * dilation[0],
                       sw * dilation[1], sc), writeable=False)


def window_geometry(ctx, x, window, stride, dilation):
    """(output height and width, paddings) of a conv or pool window over NHWC `x`."""
    padding = ctx.attrs.get("padding")
    explicit = ctx.attrs.get("explicit_paddings") or [0] * 8
    if ctx.attrs.get("data_format") == b"NCHW":
        pads = ((explicit[4], explicit[5]), (explicit[6], explicit[7]))
    else:
        pads = ((explicit[2], explicit[3]), (explicit[4], explicit[5]))
    out, paddings = [], []
    for dim in range(2):
        size, pad = conv_output_size(x.shape[1 + dim], window[dim], stride[dim], dilation[dim],
                                     padding, pads[dim])
        out.append(size)
        paddings.append(pad)
    return out, paddings


@register("Conv2D")
def conv2d(ctx, x, filters):
    check_conv2d_ranks(ctx, x, filters)
    x = _nhwc(ctx, x)
    check_conv2d_depth(ctx, x, filters)
    stride = spatial_hw(ctx, ctx.attrs.get("strides"))
    dilation = spatial_hw(ctx, ctx.attrs.get("dilations"))
    window = filters.shape[:2]
    out_hw, pads = window_geometry(ctx, x, window, stride, dilation)
    x = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0))) if any(map(any, pads)) else x
    groups = x.shape[3] // filters.shape[2] if filters.shape[2] else 1
    if groups == 1:
        result = _conv2d_padded(x, filters, window, stride, dilation, out_hw)
    else:
        # A grouped convolution (TensorFlow's CPU LaunchGrouped; Keras's Conv2D(groups=)):
        # group g's input channels through its filter_depth-deep slice of the out channels.
        in_depth, out_depth = filters.shape[2], filters.shape[3] // groups
        result = np.concatenate([_conv2d_padded(
            x[..., g * in_depth:(g + 1) * in_depth],
            filters[..., g * out_depth:(g + 1) * out_depth], window, stride, dilation, out_hw)
            for g in range(groups)], axis=3)
    return _from_nhwc(ctx, result.astype(x.dtype, copy=False))


def _conv2d_padded(x, filters, window, stride, dilation, out_hw):
    """The NHWC convolution of the padded `x` by `filters` of its depth."""
    empty = 0 in out_hw or 0 in x.shape or 0 in filters.shape
    fast = None if empty or filters.dtype != x.dtype else compiled_forms.module(
        "conv", x.dtype, x.shape[0] * out_hw[0] * out_hw[1] * filters[..., 0].size)
    if empty:
        return np.zeros((x.shape[0], *out_hw, filters.shape[3]), np.result_type(x, filters))
    if fast is not None:
        return fast.conv2d(np.ascontiguousarray(x), np.ascontiguousarray(filters), stride,
                           dilation, out_hw)
    cols = _windows(np.ascontiguousarray(x), out_hw, window, stride, dilation)
    return np.tensordot(cols, filters, axes=([3, 4, 5], [0, 1, 2]))


def check_conv2d_ranks(ctx, x, filters):
    if x.ndim != 4:
        raise invalid(ctx, f"input must be 4-dimensional{shape_str(x.shape)}")
    if filters.ndim != 4:
        raise invalid(ctx, f"filter must be 4-dimensional: {shape_str(filters.shape)}")


def check_conv2d_depth(ctx, x_nhwc, filters, groups_allowed=True):
    """conv_ops.cc's depth checks: the input's depth a multiple of the filter's (a grouped
    convolution, in_depth / filter_depth groups, where `groups_allowed`: the CPU's Conv2D
    forward), the output's a multiple of the groups."""
    in_depth, filter_depth, out_depth = x_nhwc.shape[3], filters.shape[2], filters.shape[3]
    grouped_ok = groups_allowed and filter_depth and in_depth % filter_depth == 0
    if in_depth != filter_depth and not grouped_ok:
        raise invalid(ctx, f"input depth must be evenly divisible by filter depth: "
                           f"{in_depth} vs {filter_depth}")
    groups = in_depth // filter_depth if filter_depth else 1
    if groups > 1 and (out_depth % groups or out_depth < groups):
        raise invalid(ctx, f"output depth must be evenly divisible by number of groups: "
                           f"{out_depth} vs {groups}")


def check_pool_input(ctx, x):
    if x.ndim != 4:
        raise invalid(ctx, "tensor_in must be 4-dimensional")


def _pool_args(ctx, x, ksize, strides):
    check_pool_input(ctx, x)
    x = _nhwc(ctx, x)
    window, stride = spatial_hw(ctx, ksize), spatial_hw(ctx, strides)
    out_hw, pads = window_geometry(ctx, x, window, stride, (1, 1))
    return x, window, stride, out_hw, pads


def lowest_value(dtype):
    """The smallest value of `dtype` (-inf for floats): max pooling's padding."""
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _max_pool(ctx, x, ksize, strides):
    x, window, stride, out_hw, pads = _pool_args(ctx, x, ksize, strides)
    fast = _fast_pool(x, out_hw)
    if fast is not None:
        return _from_nhwc(ctx, fast.max_pool(x, window, stride, pads, out_hw,
                                             lowest_value(x.dtype)))
    padded = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)), constant_values=lowest_value(x.dtype))
    if 0 in out_hw or x.shape[0] == 0 or x.shape[3] == 0:
        return _from_nhwc(ctx, np.zeros((x.shape[0], *out_hw, x.shape[3]), x.dtype))
    windows = _windows(padded, out_hw, window, stride, (1, 1))
    return _from_nhwc(ctx, windows.max(axis=(3, 4)))


def _fast_pool(x, out_hw):
    """The compiled pooling kernels when they serve `x` (NHWC), else None."""
    if 0 in out_hw or 0 in x.shape:
        return None
    return compiled_forms.module("pool", x.dtype, x.size)


def _avg_pool(ctx, x, ksize, strides):
    x, window, stride, out_hw, pads = _pool_args(ctx, x, ksize, strides)
    if 0 in out_hw or x.shape[0] == 0 or x.shape[3] == 0:
        return _from_nhwc(ctx, np.zeros((x.shape[0], *out_hw, x.shape[3]), x.dtype))
    fast = _fast_pool(x, out_hw)
    if fast is not None:
        return _from_nhwc(ctx, fast.avg_pool(x, window, stride, pads, out_hw))
    padded = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    # Each window's elements added from zero in row-major window order, as the compiled
    # kernel (pool_numba._avg_pool) adds them: the same bits. A sum over the window axes of
    # the windows' view took another order where there is one channel (NumPy reorders the
    # axes of that reduction): 15% of such values differed (measured 2026-11-28), so a
    # program's values changed where the compiled module loaded.
    sums = np.zeros((x.shape[0], *out_hw, x.shape[3]), x.dtype)
    for i in range(window[0]):
        for j in range(window[1]):
            sums += padded[:, i:i + stride[0] * (out_hw[0] - 1) + 1:stride[0],
                           j:j + stride[1] * (out_hw[1] - 1) + 1:stride[1]]
    # SAME padding averages over the elements inside the input only.
    ones = np.pad(np.ones((1, x.shape[1], x.shape[2], 1), x.dtype),
                  ((0, 0), pads[0], pads[1], (0, 0)))
    counts = _windows(ones, out_hw, window, stride, (1, 1)).sum(axis=(3, 4), dtype=x.dtype)
    return _from_nhwc(ctx, (sums / counts).astype(x.dtype, copy=False))


register_table({
    "MaxPool": lambda ctx, x: _max_pool(ctx, x, ctx.attrs["ksize"], ctx.attrs["strides"]),
    "MaxPoolV2": lambda ctx, x, ksize, strides: _max_pool(ctx, x, ksize.tolist(),
                                                          strides.tolist()),
    "AvgPool": lambda ctx, x: _avg_pool(ctx, x, ctx.attrs["ksize"], ctx.attrs["strides"]),
})


@register("TopKV2")
def top_k(ctx, x, k):
    k = top_k_count(ctx, x.shape, k)
    # A stable sort on the negated values keeps equal elements in index order, as TensorFlow;
    # integers through ~x (-x - 1), which has no overflow at the dtype's minimum.
    order = np.argsort(~x if x.dtype.kind in "iu" else -x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(top_k_index_dtype(ctx))


def top_k_count(ctx, shape, k):
    k = int(k)
    if k < 0:
        raise invalid(ctx, f"Need k >= 0, got {k}")
    if shape[-1] < k:
        raise invalid(ctx, f"input must have at least k columns. Had {shape[-1]}, "
                           f"needed {k}")
    return k


def top_k_index_dtype(ctx):
    return ctx.attrs["index_type"].as_numpy_dtype if "index_type" in ctx.attrs else np.int32


@register("InTopKV2")
def in_top_k(ctx, predictions, targets, k):
    """True where the target's prediction has fewer than k predictions above it; False for a
    target out of [0, classes) and for a row holding a non-finite prediction."""
    if np.ndim(k) != 0:
        raise invalid(ctx, f"k must be 0-D, got shape {shape_str(np.shape(k))}")
    if predictions.ndim != 2:
        raise invalid(ctx, "predictions must be 2-dimensional")
    if targets.ndim != 1:
        raise invalid(ctx, "targets must be 1-dimensional")
    batch, classes = predictions.shape
    if batch != targets.shape[0]:
        raise invalid(ctx, f"First dimension of predictions {batch} must match length of "
                           f"targets {targets.shape[0]}")
    in_range = (targets >= 0) & (targets < classes)
    if not classes:
        return in_range
    target_scores = predictions[np.arange(batch), np.where(in_range, targets, 0)]
    above = (predictions > target_scores[:, None]).sum(axis=1)
    return in_range & np.isfinite(predictions).all(axis=1) & (above < int(k))
