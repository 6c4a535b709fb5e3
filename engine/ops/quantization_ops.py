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
