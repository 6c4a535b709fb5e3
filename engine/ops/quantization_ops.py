"""tf.quantization's fake quantization (tf.fake_quant_with_min_max_args, ..._vars,
..._vars_per_channel and their _gradient forms), each TensorFlow's generated wrapper with
its defaults; the gradient ops' three outputs are TensorFlow's named tuples."""

from collections import namedtuple

from engine.ops.op_def_library import apply_op

FakeQuantWithMinMaxVarsGradient = namedtuple(
    "FakeQuantWithMinMaxVarsGradient",
    ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])
FakeQuantWithMinMaxVarsPerChannelGradient = namedtuple(
    "FakeQuantWithMinMaxVarsPerChannelGradient",
    ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])


def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8,  # noqa: A002
                                 narrow_range=False, name=None):
    return apply_op("FakeQuantWithMinMaxArgs", inputs=inputs, min=min, max=max,
                    num_bits=num_bits, narrow_range=narrow_range, name=name)


def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6,  # noqa: A002
                                          num_bits=8, narrow_range=False, name=None):
    return apply_op("FakeQuantWithMinMaxArgsGradient", gradients=gradients, inputs=inputs,
                    min=min, max=max, num_bits=num_bits, narrow_range=narrow_range,
                    name=name)


def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8,  # noqa: A002
                                 narrow_range=False, name=None):
    return apply_op("FakeQuantWithMinMaxVars", inputs=inputs, min=min, max=max,
                    num_bits=num_bits, narrow_range=narrow_range, name=name)


def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max,  # noqa: A002
                                          num_bits=8, narrow_range=False, name=None):
    return FakeQuantWithMinMaxVarsGradient(*apply_op(
        "FakeQuantWithMinMaxVarsGradient", gradients=gradients, inputs=inputs, min=min,
        max=max, num_bits=num_bits, narrow_range=narrow_range, name=name))


def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8,  # noqa: A002
                                             narrow_range=False, name=None):
    return apply_op("FakeQuantWithMinMaxVarsPerChannel", inputs=inputs, min=min, max=max,
                    num_bits=num_bits, narrow_range=narrow_range, name=name)


def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max,  # noqa: A002
                                                      num_bits=8, narrow_range=False,
                                                      name=None):
    return FakeQuantWithMinMaxVarsPerChannelGradient(*apply_op(
        "FakeQuantWithMinMaxVarsPerChannelGradient", gradients=gradients, inputs=inputs,
        min=min, max=max, num_bits=num_bits, narrow_range=narrow_range, name=name))


FAKE_QUANT = ("fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
              "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
              "fake_quant_with_min_max_vars_per_channel",
              "fake_quant_with_min_max_vars_per_channel_gradient")


QuantizeAndDequantizeV4Grad = namedtuple(
    "QuantizeAndDequantizeV4Grad",
    ["input_backprop", "input_min_backprop", "input_max_backprop"])


def _axis(input, axis):  # noqa: A002
    """TensorFlow's axis: -1 for None; a negative one counted from the input's known rank."""
    if axis is None:
        return -1
    if axis < 0:
        if input.shape.ndims is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= input.shape.ndims
    return axis


def quantize_and_dequantize(input, input_min, input_max, signed_input=True,  # noqa: A002
                            num_bits=8, range_given=False, round_mode="HALF_TO_EVEN",
                            name=None, narrow_range=False, axis=None):
    """The deprecated form (QuantizeAndDequantizeV2): its gradient passes everything."""
    return apply_op("QuantizeAndDequantizeV2", input=input, input_min=input_min,
                    input_max=input_max, signed_input=signed_input, num_bits=num_bits,
                    range_given=range_given, round_mode=round_mode,
                    narrow_range=narrow_range, axis=_axis(input, axis), name=name)


def quantize_and_dequantize_v2(input, input_min, input_max, signed_input=True,  # noqa: A002
                               num_bits=8, range_given=False, round_mode="HALF_TO_EVEN",
                               name=None, narrow_range=False, axis=None):
    """QuantizeAndDequantizeV4: its gradient is zero outside [input_min, input_max]."""
    return apply_op("QuantizeAndDequantizeV4", input=input, input_min=input_min,
                    input_max=input_max, signed_input=signed_input, num_bits=num_bits,
                    range_given=range_given, round_mode=round_mode,
                    narrow_range=narrow_range, axis=_axis(input, axis), name=name)


def quantize_and_dequantize_v4_grad(gradients, input, input_min, input_max,  # noqa: A002
                                    axis=-1, name=None):
    return QuantizeAndDequantizeV4Grad(*apply_op(
        "QuantizeAndDequantizeV4Grad", gradients=gradients, input=input, input_min=input_min,
        input_max=input_max, axis=axis, name=name))


QuantizeV2 = namedtuple("QuantizeV2", ["output", "output_min", "output_max"])


def quantize_v2(input, min_range, max_range, T, mode="MIN_COMBINED", name=None,  # noqa: A002,N803
                round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False, axis=None,
                ensure_minimum_range=0.01):
    """tf.quantize_v2 (QuantizeV2): a quantized tensor of type T and its range."""
    return QuantizeV2(*apply_op(
        "QuantizeV2", input=input, min_range=min_range, max_range=max_range, T=T, mode=mode,
        round_mode=round_mode, narrow_range=narrow_range, axis=_axis(input, axis),
        ensure_minimum_range=ensure_minimum_range, name=name))


def quantize(input, min_range, max_range, T, mode="MIN_COMBINED",  # noqa: A002,N803
             round_mode="HALF_AWAY_FROM_ZERO", name=None, narrow_range=False, axis=None,
             ensure_minimum_range=0.01):
    """tf.quantization.quantize (tf.quantize): quantize_v2 with its arguments reordered."""
    return quantize_v2(input, min_range, max_range, T, mode=mode, round_mode=round_mode,
                       name=name, narrow_range=narrow_range, axis=axis,
                       ensure_minimum_range=ensure_minimum_range)


def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None,  # noqa: A002
               axis=None, narrow_range=False, dtype=None):
    """tf.quantization.dequantize (Dequantize): float32 (or `dtype`) from a quantized tensor."""
    from engine.framework import dtypes
    return apply_op("Dequantize", input=input, min_range=min_range, max_range=max_range,
                    mode=mode, narrow_range=narrow_range, axis=_axis(input, axis),
                    dtype=dtypes.float32 if dtype is None else dtype, name=name)


QuantizedConcat = namedtuple("QuantizedConcat", ["output", "output_min", "output_max"])


def quantized_concat(concat_dim, values, input_mins, input_maxes, name=None):
    """tf.quantization.quantized_concat (tf.quantized_concat): QuantizedConcat."""
    return QuantizedConcat(*apply_op("QuantizedConcat", concat_dim=concat_dim, values=values,
                                     input_mins=input_mins, input_maxes=input_maxes,
                                     name=name))
