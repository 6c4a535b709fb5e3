"""NumPy CPU kernels of the fake-quantization ops (FakeQuantWithMinMaxArgs, ...Vars,
...VarsPerChannel and their Gradient ops): TensorFlow's fake_quant_ops_functor.h in float32,
operation for operation, with its nudged range and its error texts.

Nudge moves [min, max] so that 0.0 is a quantization step: scale = (max - min) / (qmax - qmin),
the zero point qmin - min / scale clamped to [qmin, qmax] and rounded half away from zero
(std::round), then nudged_min = (qmin - zero) * scale, nudged_max = (qmax - zero) * scale.
"""

import numpy as np

from engine.framework.text_formats import float_text
from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu.eigen_reduce import row_sums

_F = np.float32


def _quant_range(ctx):
    num_bits = int(ctx.attrs["num_bits"])
    if not 2 <= num_bits <= 16:
        raise invalid(ctx, "num_bits must be between 2 and 16, inclusive")
    return (1 if ctx.attrs["narrow_range"] else 0), (1 << num_bits) - 1


def _args_range(ctx):
    low, high = _F(ctx.attrs["min"]), _F(ctx.attrs["max"])
    if not low < high:
        raise invalid(ctx, f"min has to be smaller than max, was: {float_text(low)} >= "
                           f"{float_text(high)}")
    return low, high


def nudge(low, high, quant_min, quant_max):
    """(nudged_min, nudged_max, scale, inv_scale) of float32 `low` and `high`."""
    qmin, qmax = _F(quant_min), _F(quant_max)
    with np.errstate(all="ignore"):
        scale = (_F(high) - _F(low)) / (qmax - qmin)
        inv_scale = (qmax - qmin) / (_F(high) - _F(low))
        zero_from_min = qmin - _F(low) / scale
    if zero_from_min < qmin:
        zero = quant_min
    elif zero_from_min > qmax:
        zero = quant_max
    else:  # std::round, then uint16_t (a NaN lands here: TensorFlow's cast of NaN is 0)
        rounded = np.sign(zero_from_min) * np.floor(np.abs(zero_from_min) + _F(0.5)) \
            if np.isfinite(zero_from_min) else _F(0)
        zero = int(rounded) & 0xFFFF
    with np.errstate(all="ignore"):
        return (qmin - _F(zero)) * scale, (qmax - _F(zero)) * scale, scale, inv_scale


def _quantize(x, nudged_min, nudged_max, scale, inv_scale, divide=False):
    """clamp, shift, scale (a product by inv_scale, or Vars' division by scale), then
    floor(. - quant_zero + 0.5) * scale, in float32."""
    with np.errstate(all="ignore"):
        quant_zero = np.floor(-nudged_min * inv_scale + _F(0.5))
        shifted = np.maximum(np.minimum(x, nudged_max), nudged_min) - nudged_min
        steps = shifted / scale if divide else shifted * inv_scale
        return (np.floor(steps - quant_zero + _F(0.5)) * scale).astype(_F)


def _mask(x, nudged_min, nudged_max):
    inside = (x >= nudged_min) & (x <= nudged_max)
    return inside, x < nudged_min, x > nudged_max


def _total(values):
    """Eigen's full sum of a float32 vector."""
    return _F(row_sums(np.ascontiguousarray(values, _F).reshape(1, -1))[0]) if values.size \
        else _F(0)


def _same_shape(ctx, gradients, inputs):
    if gradients.shape != inputs.shape:
        op = ctx.node_def.op
        raise invalid(ctx, f"Inputs to operation {op} of type {op} must have the same size and "
                           f"shape.  Input 0: {shape_str(gradients.shape)} != input 1: "
                           f"{shape_str(inputs.shape)}")


@register("FakeQuantWithMinMaxArgs")
def fake_quant_with_min_max_args(ctx, inputs):
    low, high = _args_range(ctx)
    nudged = nudge(low, high, *_quant_range(ctx))
    return _quantize(inputs, *nudged)


@register("FakeQuantWithMinMaxArgsGradient")
def fake_quant_with_min_max_args_gradient(ctx, gradients, inputs):
    low, high = _args_range(ctx)
    nudged_min, nudged_max, _, _ = nudge(low, high, *_quant_range(ctx))
    _same_shape(ctx, gradients, inputs)
    inside = _mask(inputs, nudged_min, nudged_max)[0]
    return gradients * inside.astype(_F)


def _scalar_bound(ctx, value, name):
    if np.ndim(value) != 0:
        raise invalid(ctx, f"`{name}` must be rank 0 but is rank {np.ndim(value)}")
    return _F(value)


@register("FakeQuantWithMinMaxVars")
def fake_quant_with_min_max_vars(ctx, inputs, min, max):  # noqa: A002  (TensorFlow's names)
    quant = _quant_range(ctx)
    low, high = _scalar_bound(ctx, min, "min"), _scalar_bound(ctx, max, "max")
    if low == 0 and high == 0:
        return np.zeros_like(inputs, _F)
    return _quantize(inputs, *nudge(low, high, *quant), divide=True)


@register("FakeQuantWithMinMaxVarsGradient")
def fake_quant_with_min_max_vars_gradient(ctx, gradients, inputs, min, max):  # noqa: A002
    quant = _quant_range(ctx)
    _same_shape(ctx, gradients, inputs)
    low, high = _scalar_bound(ctx, min, "min"), _scalar_bound(ctx, max, "max")
    if low == 0 and high == 0:
        return gradients.astype(_F), _F(0), _F(0)
    nudged_min, nudged_max, _, _ = nudge(low, high, *quant)
    inside, below, above = _mask(inputs, nudged_min, nudged_max)
    with np.errstate(all="ignore"):
        return (gradients * inside.astype(_F), _total(gradients * below.astype(_F)),
                _total(gradients * above.astype(_F)))


def _channel_bounds(ctx, inputs, min, max):  # noqa: A002
    depth = inputs.shape[-1]
    for name, value in (("min", min), ("max", max)):
        if value.size != depth:
            raise invalid(ctx, f"{name} has incorrect size, expected {depth} was {value.size}")
    return inputs.reshape(-1, depth)


@register("FakeQuantWithMinMaxVarsPerChannel")
def fake_quant_with_min_max_vars_per_channel(ctx, inputs, min, max):  # noqa: A002
    quant = _quant_range(ctx)
    flat = _channel_bounds(ctx, inputs, min, max)
    out = np.empty(flat.shape, _F)
    for i in range(flat.shape[1]):
        if min[i] == 0 and max[i] == 0:
            out[:, i] = 0
        else:
            out[:, i] = _quantize(flat[:, i], *nudge(min[i], max[i], *quant))
    return out.reshape(inputs.shape)


@register("FakeQuantWithMinMaxVarsPerChannelGradient")
def fake_quant_with_min_max_vars_per_channel_gradient(ctx, gradients, inputs,
                                                      min, max):  # noqa: A002
    quant = _quant_range(ctx)
    if gradients.shape != inputs.shape:
        raise invalid(ctx, "gradient and input must be the same size")
    flat = _channel_bounds(ctx, inputs, min, max)
    grads = gradients.reshape(flat.shape)
    wrt_input = np.empty(flat.shape, _F)
    wrt_min = np.zeros(flat.shape[1], _F)
    wrt_max = np.zeros(flat.shape[1], _F)
    for i in range(flat.shape[1]):
        if min[i] == 0 and max[i] == 0:
            wrt_input[:, i] = grads[:, i]
            continue
        nudged_min, nudged_max, _, _ = nudge(min[i], max[i], *quant)
        inside, below, above = _mask(flat[:, i], nudged_min, nudged_max)
        with np.errstate(all="ignore"):
            wrt_input[:, i] = grads[:, i] * inside.astype(_F)
            wrt_min[i] = _total(grads[:, i] * below.astype(_F))
            wrt_max[i] = _total(grads[:, i] * above.astype(_F))
    return wrt_input.reshape(inputs.shape), wrt_min, wrt_max
