"""NumPy CPU kernels of QuantizeAndDequantizeV2/V4 and QuantizeAndDequantizeV4Grad:
TensorFlow's quantize_and_dequantize_op.h in the input's precision (float32 or float64), one
scale or one per slice along `axis`, with its error texts.

The range (a given scalar, or the input's minimum and maximum, per slice along `axis`; TensorFlow
2.21's kernels refuse a given range with an axis) is widened so that the side that needs
the smaller scale sets it: scale = min_quantized / min or max_quantized / max, whichever is
smaller, the other end moved to its quantized end times 1 / scale. The output is
round(clamp(x, min, max) * scale) * inverse_scale (no clamp when the range is the input's),
rounded half to even (rint) or half up (floor(x + 0.5)).
"""

import numpy as np

from engine.framework.text_formats import float_text
from engine.kernels import register
from engine.kernels.common import invalid


def _round(mode):
    if mode == b"HALF_UP" or mode == "HALF_UP":
        return lambda v: np.floor(v + v.dtype.type(0.5))
    return np.rint


def quantization_range(dtype, signed_input, num_bits, narrow_range, low, high):
    """(min_range, max_range, scale, inverse_scale), TensorFlow's ComputeQuantizationRange."""
    t = np.dtype(dtype).type
    if signed_input:
        min_q = -(1 << (num_bits - 1)) + (1 if narrow_range else 0)
        max_q = (1 << (num_bits - 1)) - 1
    else:
        min_q, max_q = 0, (1 << num_bits) - 1
    low, high = t(low), t(high)
    big = t(np.finfo(dtype).max)
    with np.errstate(all="ignore"):
        from_min = t(min_q) / low if t(min_q) * low > 0 else big
        from_max = t(max_q) / high if t(max_q) * high > 0 else big
        if from_min < from_max:
            inverse = low / t(min_q)
            return low, t(max_q) * inverse, from_min, inverse
        inverse = high / t(max_q)
        return t(min_q) * inverse, high, from_max, inverse


def _one_scale(x, low, high, scale, inverse, round_fn, clamp):
    with np.errstate(all="ignore"):
        if clamp:
            x = np.maximum(np.minimum(x, high), low)
        return (round_fn(x * scale) * inverse).astype(x.dtype)


def _attrs(ctx):
    signed_input = bool(ctx.attrs["signed_input"])
    num_bits = int(ctx.attrs["num_bits"])
    if not 0 < num_bits < (62 if signed_input else 63):
        raise invalid(ctx, f"num_bits is out of range: {num_bits} with signed_input_ "
                           f"{int(signed_input)}")
    return signed_input, num_bits


def _per_channel_shape(shape, axis):
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    inner = int(np.prod(shape[axis + 1:], dtype=np.int64))
    return outer, shape[axis], inner


def _range_text(value):
    return float_text(value, double=np.asarray(value).dtype == np.float64)


@register("QuantizeAndDequantizeV2")
@register("QuantizeAndDequantizeV4")
def quantize_and_dequantize(ctx, input, input_min, input_max):  # noqa: A002
    signed_input, num_bits = _attrs(ctx)
    axis = int(ctx.attrs["axis"])
    range_given = bool(ctx.attrs["range_given"])
    narrow = bool(ctx.attrs["narrow_range"])
    round_fn = _round(ctx.attrs["round_mode"])
    if axis < -1:
        raise invalid(ctx, f"Axis must be at least -1. Found {axis}")
    if axis != -1 and axis >= input.ndim:
        raise invalid(ctx, f"Shape must be at least rank {axis + 1} but is rank {input.ndim}")
    if range_given:
        # TensorFlow 2.21's kernel takes scalars first, then vectors when an axis is given:
        # a given range with an axis fails either way.
        for name, value in (("input_min", input_min), ("input_max", input_max)):
            if np.ndim(value) != 0:
                raise invalid(ctx, f"{name} must be a scalar.")
        if axis != -1:
            raise invalid(ctx, "Shape must be rank 1 for input_min_tensor when the axis is "
                               "specified")
        if not input_min <= input_max:
            raise invalid(ctx, f"Invalid range: input_min {_range_text(input_min)} > "
                               f"input_max {_range_text(input_max)}")
    if not input.size:
        return input.copy()
    if axis == -1:
        low, high = (input_min, input_max) if range_given else (input.min(), input.max())
        low, high, scale, inverse = quantization_range(input.dtype, signed_input, num_bits,
                                                       narrow, low, high)
        return _one_scale(input, low, high, scale, inverse, round_fn, range_given)
    x = input.reshape(_per_channel_shape(input.shape, axis))
    lows, highs = x.min(axis=(0, 2)), x.max(axis=(0, 2))
    out = np.empty_like(x)
    for i in range(x.shape[1]):
        _, _, scale, inverse = quantization_range(input.dtype, signed_input, num_bits, narrow,
                                                  lows[i], highs[i])
        out[:, i, :] = _one_scale(x[:, i, :], None, None, scale, inverse, round_fn, False)
    return out.reshape(input.shape)


@register("QuantizeAndDequantizeV4Grad")
def quantize_and_dequantize_v4_grad(ctx, gradients, input, input_min, input_max):  # noqa: A002
    axis = int(ctx.attrs["axis"])
    if not (axis == -1 or 0 <= axis < input.ndim):
        raise invalid(ctx, f"Axis should be -1 or 0 or a positive value less than "
                           f"{input.ndim}but given axis value was {axis}")
    if gradients.size != input.size:
        raise invalid(ctx, "gradient and input must be the same size")
    zero = input.dtype.type(0)
    if axis == -1:
        for name, value in (("input_min", input_min), ("input_max", input_max)):
            if np.ndim(value) != 0:
                raise invalid(ctx, f"{name} must be a scalar if axis is unspecified")
        inside = (input >= input_min) & (input <= input_max)
        return gradients * inside.astype(input.dtype), zero, zero
    shape3 = _per_channel_shape(input.shape, axis)
    depth = shape3[1]
    for name, value in (("min", input_min), ("max", input_max)):
        if np.size(value) != depth:
            raise invalid(ctx, f"{name} has incorrect size, expected {depth} was "
                               f"{np.size(value)}")
    x, g = input.reshape(shape3), gradients.reshape(shape3)
    inside = (x >= input_min.reshape(1, -1, 1)) & (x <= input_max.reshape(1, -1, 1))
    return ((g * inside.astype(input.dtype)).reshape(input.shape),
            np.zeros(depth, input.dtype), np.zeros(depth, input.dtype))
