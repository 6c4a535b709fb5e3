"""NumPy CPU kernels of QuantizeV2, Dequantize and QuantizedConcat: TensorFlow's quantize_op.cc and
dequantize_op.cc in float32, a quantized tensor held as its integer type (qint8 as int8, ...)
as TensorFlow's session fetches it.

MIN_COMBINED maps [min, max] onto the type's whole range (shifted by half of it when signed),
MIN_FIRST is quantization_utils.h's FloatToQuantizedStruct (round(x * scale) less
round(min * scale)), SCALED a symmetric scale from the side that needs the smaller one.
QuantizeV2 widens the range to hold 0 and to span at least ensure_minimum_range.
"""

import numpy as np

from engine.framework import dtypes
from engine.framework.errors import UnimplementedError
from engine.kernels import register
from engine.kernels.common import invalid, shape_str

_F = np.float32
_INTS = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16,
         "qint32": np.int32}


def _int_type(dtype):
    return np.dtype(_INTS[dtypes.as_dtype(dtype).name])


def std_round(x):
    """std::round in float32: half away from zero."""
    whole = np.trunc(x)
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(x - whole) >= _F(0.5), whole + np.sign(x), whole).astype(_F)


def _cast(values, int_type):
    """Eigen's float-to-integer cast (truncation) of values in the type's range."""
    return np.trunc(values).astype(np.int64).astype(int_type)


def _half_range(info):
    return _F(0) if info.min == 0 else _F((float(info.max) - float(info.min) + 1) / 2.0)


def _widened(low, high, ensure_minimum_range):
    min_range = min(_F(0), _F(low))
    epsilon = _F(max(_F(1), max(abs(_F(low)), abs(_F(high))))) * _F(ensure_minimum_range)
    return min_range, max(_F(0), max(_F(high), _F(min_range + epsilon)))


def _quantize_slice(ctx, x, low, high, int_type):
    if high < low:
        raise invalid(ctx, "input_max_range must be larger than input_min_range.")
    info = np.iinfo(int_type)
    mode = _text(ctx.attrs["mode"])
    min_range, max_range = _widened(low, high, ctx.attrs["ensure_minimum_range"])
    with np.errstate(all="ignore"):
        if mode == "MIN_COMBINED":
            scale = _F((float(info.max) - float(info.min)) / float(max_range - min_range))
            shifted = (np.maximum(np.minimum(x, max_range), min_range) - min_range) * scale
            if info.min < 0:
                return _cast(std_round(shifted - _half_range(info)), int_type), min_range, \
                    max_range
            return _cast(shifted + _F(0.5), int_type), min_range, max_range
        min_out = int(info.min) + (1 if ctx.attrs["narrow_range"] else 0)
        max_out = int(info.max)
        big = _F(np.finfo(_F).max)
        from_min = _F(min_out) / min_range if _F(min_out) * min_range > 0 else big
        from_max = _F(max_out) / max_range if _F(max_out) * max_range > 0 else big
        scale = min(from_min, from_max)
        min_range, max_range = _F(min_out) / scale, _F(max_out) / scale
        scaled = np.maximum(np.minimum(x, max_range), min_range) * scale
        rounded = np.rint(scaled) if _text(ctx.attrs["round_mode"]) == "HALF_TO_EVEN" \
            else std_round(scaled)
        return _cast(rounded, int_type), min_range, max_range


def _min_first(x, min_range, max_range, int_type):
    """QUANTIZE_WITH_EIGEN of FloatToQuantizedStruct(min_range, max_range)."""
    info = np.iinfo(int_type)
    steps = float(1 << (8 * np.dtype(int_type).itemsize))
    with np.errstate(all="ignore"):
        scale = _F(0.0 if max_range == min_range else (steps - 1.0) / float(max_range - min_range))
        min_scaled = std_round(np.array(min_range * scale, _F))
        lower = max(_F(info.min), _F(-2.147483648e+09))
        upper = min(_F(info.max), _F(2.147483520e+09))
        values = std_round(x * scale) - (min_scaled - _F(info.min))
        return _cast(np.minimum(np.maximum(values, lower), upper), int_type)


def _dequantize_min_first(x, low, high):
    """DEQUANTIZE_WITH_EIGEN of QuantizedToFloatStruct(low, high)."""
    steps = float(1 << (8 * x.dtype.itemsize))
    with np.errstate(all="ignore"):
        scale = _F(float(_F(high) - _F(low)) / (steps - 1.0))
        rounded = _F(low) if high == low else std_round(np.array(low / scale, _F)) * scale
        return (_F(rounded) - _F(np.iinfo(x.dtype).min) * scale) + x.astype(_F) * scale


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


@register("QuantizeV2")
def quantize_v2(ctx, input, min_range, max_range):  # noqa: A002
    int_type = _int_type(ctx.attrs["T"])
    mode = _text(ctx.attrs["mode"])
    if _text(ctx.attrs["round_mode"]) == "HALF_TO_EVEN" and mode != "SCALED":
        raise invalid(ctx, "Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', "
                           f"but mode is '{mode}'.")
    axis = int(ctx.attrs["axis"])
    x = input.astype(_F, copy=False)
    if axis == -1 or input.shape[axis] == 1:
        low, high = _F(min_range.reshape(-1)[0]), _F(max_range.reshape(-1)[0])
        if mode == "MIN_FIRST":
            if high < low:
                raise invalid(ctx, "input_max_range must be larger than input_min_range.")
            lo, hi = _widened(low, high, ctx.attrs["ensure_minimum_range"])
            return _min_first(x, lo, hi, int_type), np.array(lo, _F), np.array(hi, _F)
        out, lo, hi = _quantize_slice(ctx, x, low, high, int_type)
        return out, np.array(lo, _F), np.array(hi, _F)
    if mode == "MIN_FIRST":
        raise UnimplementedError(ctx.node_def, None, "MIN_FIRST mode is not implemented for "
                                 "Quantize with axis != -1.")
    depth = input.shape[axis]
    shape3 = (int(np.prod(input.shape[:axis])), depth, int(np.prod(input.shape[axis + 1:])))
    x3 = x.reshape(shape3)
    out = np.empty(shape3, int_type)
    lows, highs = np.empty(min_range.shape, _F), np.empty(max_range.shape, _F)
    for i in range(depth):
        out[:, i, :], lows.reshape(-1)[i], highs.reshape(-1)[i] = _quantize_slice(
            ctx, x3[:, i, :], min_range.reshape(-1)[i], max_range.reshape(-1)[i], int_type)
    return out.reshape(input.shape), lows, highs


def _dequantize_slice(x, low, high, mode, narrow, info):
    values = x.astype(_F)
    with np.errstate(all="ignore"):
        if mode == "MIN_COMBINED":
            scale = (_F(high) - _F(low)) / (_F(info.max) - _F(info.min))
            return (values + _half_range(info)) * scale + _F(low)
        if info.min == 0:
            scale = _F(high) / _F(info.max)
        else:
            min_out = int(info.min) + (1 if narrow else 0)
            scale = max(_F(low) / _F(min_out), _F(high) / _F(info.max))
        return values * _F(scale)


@register("Dequantize")
def dequantize(ctx, input, min_range, max_range):  # noqa: A002
    mode = _text(ctx.attrs["mode"])
    info = np.iinfo(input.dtype)
    axis = int(ctx.attrs["axis"])
    if axis >= input.ndim:
        raise invalid(ctx, f"Axis must be less than input dimension({input.ndim}), got {axis}")
    slices = 1 if axis == -1 else input.shape[axis]
    for name, value in (("input_min_tensor", min_range), ("input_max_tensor", max_range)):
        if value.size != slices:
            raise invalid(ctx, f"{name} must have as many elements as input on the "
                               f"dequantization axis ({axis}), got {value.size}, expected "
                               f"{slices}")
    out_type = dtypes.as_dtype(ctx.attrs["dtype"]).as_numpy_dtype
    if slices == 1:
        low, high = _F(min_range.reshape(-1)[0]), _F(max_range.reshape(-1)[0])
        if mode == "MIN_FIRST":
            out = _dequantize_min_first(input, low, high)
        else:
            out = _dequantize_slice(input, low, high, mode, ctx.attrs["narrow_range"], info)
        return out.astype(out_type)
    if mode == "MIN_FIRST":
        raise UnimplementedError(ctx.node_def, None, "MIN_FIRST mode is not implemented for "
                                 "Dequantize with axis != -1.")
    shape3 = (int(np.prod(input.shape[:axis])), slices, int(np.prod(input.shape[axis + 1:])))
    x3 = input.reshape(shape3)
    out = np.empty(shape3, _F)
    for i in range(slices):
        out[:, i, :] = _dequantize_slice(x3[:, i, :], min_range.reshape(-1)[i],
                                         max_range.reshape(-1)[i], mode,
                                         ctx.attrs["narrow_range"], info)
    return out.reshape(input.shape).astype(out_type)


@register("QuantizedConcat")
def quantized_concat(ctx, concat_dim, *tensors):
    """Each input requantized (MIN_FIRST's structs) into the range of them all, widened to
    hold 0 (and symmetric for the signed qint32), then concatenated; an input already in
    that range is copied."""
    n = len(tensors) // 3
    values, mins, maxes = tensors[:n], tensors[n:2 * n], tensors[2 * n:]
    if np.ndim(concat_dim) != 0:
        raise invalid(ctx, "Concat dim tensor should be a scalar integer, but got shape "
                           f"{shape_str(np.shape(concat_dim))}")
    axis, rank = int(concat_dim), values[0].ndim
    if not 0 <= axis < rank:
        raise invalid(ctx, "ConcatOp : Expected concatenating dimensions in the range [0, "
                           f"{rank}), but got {axis}")
    low = min(_F(0), min(_F(m.reshape(-1)[0]) for m in mins))
    high = max(_F(m.reshape(-1)[0]) for m in maxes)
    if np.iinfo(values[0].dtype).min < 0:  # qint32: a range symmetric about 0
        high = max(abs(low), abs(high))
        low = -high
    for i, value in enumerate(values):
        if value.ndim != rank:
            raise invalid(ctx, "ConcatOp : Ranks of all input tensors should match: shape[0] "
                               f"= {shape_str(values[0].shape)} vs. shape[{i}] = "
                               f"{shape_str(value.shape)}")
        if any(value.shape[j] != values[0].shape[j] for j in range(rank) if j != axis):
            raise invalid(ctx, "ConcatOp : Dimensions of inputs should match: shape[0] = "
                               f"{shape_str(values[0].shape)} vs. shape[{i}] = "
                               f"{shape_str(value.shape)}")
    parts = []
    for value, vmin, vmax in zip(values, mins, maxes):
        vmin, vmax = _F(vmin.reshape(-1)[0]), _F(vmax.reshape(-1)[0])
        if vmin == low and vmax == high:
            parts.append(value)
        else:
            floats = _dequantize_min_first(value, vmin, vmax)
            parts.append(_min_first(floats, low, high, value.dtype))
    return np.concatenate(parts, axis), np.array(low, _F), np.array(high, _F)
