"""CPU kernels of QuantizedConv2D, QuantizedMaxPool and QuantizedAvgPool: TensorFlow's
quantized_conv_ops.cc and quantized_pooling_ops.cc on quint8 (held as uint8) and qint8 where
TensorFlow's CPU takes them: quint8 input with a quint8 or qint8 filter into qint32, pools of
quint8 or qint8.

QuantizedConv2D sums (input - input_offset) * (filter - filter_offset) in int32, the offsets
being where 0.0 falls in each range (FloatToQuantizedUnclamped), and gives the range
QuantizationRangeForMultiplication computes: one level of each range multiplied, times
qint32's lowest and highest. The pools keep the input's range; the average is Eigen's
integer mean over the window's elements inside the input (a truncating division).
"""

import numpy as np

from engine.framework.errors import InternalError, UnimplementedError
from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu import nn
from engine.kernels.cpu.cpu_refusals import no_kernel_error

_F = np.float32
_INT32_LOWEST, _INT32_HIGHEST = -(2 ** 31), 2 ** 31 - 1


def float_to_quantized_unclamped(value, low, high, bits=8, lowest=0):
    """quantization_utils.h's FloatToQuantizedUnclamped<T>: in double, from float range ends.

    >>> float_to_quantized_unclamped(0.0, -1.0, 2.0)
    85
    """
    if _F(low) == _F(high):
        return lowest
    steps = 1 << bits
    range_scale = steps / (float(_F(high) - _F(low)) * (steps / (steps - 1.0)))
    return int(_round(float(value) * range_scale) - _round(float(_F(low)) * range_scale)) + lowest


def _round(x):
    """std::round of a double: half away from zero."""
    return float(np.sign(x) * np.floor(abs(x) + 0.5))


_CONV_KERNELS = ("  device='CPU'; Tinput in [DT_QUINT8]; Tfilter in [DT_QUINT8]; out_type in "
                 "[DT_QINT32]\n  device='CPU'; Tinput in [DT_QUINT8]; Tfilter in [DT_QINT8]; "
                 "out_type in [DT_QINT32]\n")
_POOL_KERNELS = "  device='CPU'; T in [DT_QINT8]\n  device='CPU'; T in [DT_QUINT8]\n"


def _type_name(ctx, attr):
    value = ctx.attrs.get(attr)
    return getattr(value, "name", str(value))


def float_for_one_level(low, high, levels=255):
    """FloatForOneQuantizedLevel: the float range over (highest - lowest), in float32."""
    return _F(_F(high) - _F(low)) / _F(levels)


def _scalar(ctx, value, what):
    value = np.asarray(value)
    if value.ndim != 0:
        raise invalid(ctx, f"{what} must be rank 0 but is rank {value.ndim}")
    return _F(value)


@register("QuantizedConv2D")
def quantized_conv2d(ctx, x, filters, min_input, max_input, min_filter, max_filter):
    if (_type_name(ctx, "Tinput"), _type_name(ctx, "out_type")) != ("quint8", "qint32") or \
            _type_name(ctx, "Tfilter") not in ("quint8", "qint8"):
        raise no_kernel_error(ctx, _CONV_KERNELS)
    strides = list(ctx.attrs["strides"])
    if len(strides) != 4:
        raise invalid(ctx, "sliding window strides field must specify 4 dimensions")
    if strides[0] != 1 or strides[3] != 1:
        raise invalid(ctx, "Current implementation does not yet support strides in the batch "
                           "and depth dimensions.")
    dilations = list(ctx.attrs.get("dilations") or [1, 1, 1, 1])
    if dilations != [1, 1, 1, 1]:
        raise invalid(ctx, "Current implementation only supports dilated rate as 1 in the "
                           "row and column dimensions.")
    if x.ndim != 4:
        raise invalid(ctx, f"input must be 4-dimensional{shape_str(x.shape)}")
    if filters.ndim != 4:
        raise invalid(ctx, f"filter must be 4-dimensional: {shape_str(filters.shape)}")
    ranges = [_scalar(ctx, v, name) for v, name in (
        (min_input, "min_input"), (max_input, "max_input"), (min_filter, "min_filter"),
        (max_filter, "max_filter"))]
    if x.shape[3] != filters.shape[2]:
        raise invalid(ctx, f"input and filter must have the same depth: {x.shape[3]} vs "
                           f"{filters.shape[2]}")
    if strides[1] != strides[2]:
        raise invalid(ctx, "Current implementation only supports equal length strides in "
                           "the row and column dimensions.")
    input_offset = float_to_quantized_unclamped(0.0, ranges[0], ranges[1])
    if _type_name(ctx, "Tfilter") == "qint8":
        # TensorFlow 2.21 registers a quint8 x qint8 kernel whose CPU form (oneDNN off)
        # leaves its output unset: the session fails so.
        name = ctx.node_def.name if getattr(ctx, "node_def", None) is not None else ""
        raise InternalError(getattr(ctx, "node_def", None), None,
                            f"Missing 0-th output from {{{{node {name}}}}}")
    filter_offset = float_to_quantized_unclamped(0.0, ranges[2], ranges[3])
    centred_x = x.astype(np.int64) - input_offset
    centred_w = filters.astype(np.int64) - filter_offset
    # Conv2D's windows and padding; padded positions add nothing (TensorFlow skips them).
    inner = _Attrs(ctx, strides=strides, dilations=[1, 1, 1, 1],
                   padding=ctx.attrs["padding"])
    window = filters.shape[:2]
    out_hw, pads = nn.window_geometry(inner, x, window, strides[1:3], (1, 1))
    padded = np.pad(centred_x, ((0, 0), pads[0], pads[1], (0, 0)))
    if 0 in out_hw or 0 in x.shape or 0 in filters.shape:
        out = np.zeros((x.shape[0], *out_hw, filters.shape[3]), np.int64)
    else:
        cols = nn._windows(np.ascontiguousarray(padded), out_hw, window, strides[1:3], (1, 1))
        out = np.tensordot(cols, centred_w, axes=([3, 4, 5], [0, 1, 2]))
    one_level = float_for_one_level(ranges[0], ranges[1]) * \
        float_for_one_level(ranges[2], ranges[3])
    return (out.astype(np.int32), _F(one_level * _F(_INT32_LOWEST)),
            _F(one_level * _F(_INT32_HIGHEST)))


class _Attrs:
    """A kernel context whose attrs are given: Conv2D's geometry helpers read ctx.attrs."""

    def __init__(self, ctx, **attrs):
        self.node_def = getattr(ctx, "node_def", None)
        self.attrs = attrs


def _pool_checks(ctx, x, kind):
    if _type_name(ctx, "T") not in ("quint8", "qint8"):
        raise no_kernel_error(ctx, _POOL_KERNELS)
    ksize, strides = list(ctx.attrs["ksize"]), list(ctx.attrs["strides"])
    if len(ksize) != 4:
        raise invalid(ctx, "Sliding window ksize field must specify 4 dimensions")
    if len(strides) != 4:
        raise invalid(ctx, "Sliding window strides field must specify 4 dimensions")
    if ksize[0] != 1 or strides[0] != 1:
        raise UnimplementedError(ctx.node_def, None,
                                 "Pooling is not yet supported on the batch dimension.")
    if x.ndim != 4:
        raise invalid(ctx, "tensor_in must be 4-dimensional")
    if ksize[3] != 1 and (ksize[1] != 1 or ksize[2] != 1):
        raise UnimplementedError(ctx.node_def, None,
                                 "MaxPooling supports exactly one of pooling across depth or "
                                 "pooling across width/height.")
    if ksize[3] != 1:
        raise UnimplementedError(ctx.node_def, None,
                                 "Non-spatial pooling is not yet supported. Volunteers? :)"
                                 if kind == "avg" else
                                 "Depthwise max pooling is not supported for quantized types")
    return ksize, strides


@register("QuantizedMaxPool")
def quantized_max_pool(ctx, x, min_input, max_input):
    ksize, strides = _pool_checks(ctx, x, "max")
    return (nn._max_pool(_Attrs(ctx, padding=ctx.attrs["padding"]), x, ksize, strides),
            _F(min_input), _F(max_input))


@register("QuantizedAvgPool")
def quantized_avg_pool(ctx, x, min_input, max_input):
    ksize, strides = _pool_checks(ctx, x, "avg")
    inner = _Attrs(ctx, padding=ctx.attrs["padding"])
    window, stride = ksize[1:3], strides[1:3]
    out_hw, pads = nn.window_geometry(inner, x, window, stride, (1, 1))
    shape = (x.shape[0], *out_hw, x.shape[3])
    if 0 in shape:
        return np.zeros(shape, x.dtype), _F(min_input), _F(max_input)
    padded = np.pad(x.astype(np.int64), ((0, 0), pads[0], pads[1], (0, 0)))
    inside = np.pad(np.ones((1, x.shape[1], x.shape[2], 1), np.int64),
                    ((0, 0), pads[0], pads[1], (0, 0)))
    sums = nn._windows(padded, out_hw, window, stride, (1, 1)).sum(axis=(3, 4))
    counts = nn._windows(inside, out_hw, window, stride, (1, 1)).sum(axis=(3, 4))
    info = np.iinfo(x.dtype)
    means = np.where(sums < 0, -(-sums // counts), sums // counts)  # C++'s truncation
    means = np.clip(means, info.min, info.max)
    return means.astype(x.dtype), _F(min_input), _F(max_input)
