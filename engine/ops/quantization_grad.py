"""Gradients of the fake-quantization ops, TensorFlow's array_grad.py: the straight-through
estimator inside the nudged range, and the sums of what falls outside it for min and max."""

from engine.ops import quantization_ops
from engine.ops.gradient_registry import RegisterGradient, no_gradient

for _op in ("FakeQuantWithMinMaxArgsGradient", "FakeQuantWithMinMaxVarsGradient",
            "FakeQuantWithMinMaxVarsPerChannelGradient"):
    no_gradient(_op)


def _attrs(op):
    return dict(num_bits=op.get_attr("num_bits"), narrow_range=op.get_attr("narrow_range"))


@RegisterGradient("FakeQuantWithMinMaxArgs")
def _fake_quant_with_min_max_args_grad(op, grad):
    return quantization_ops.fake_quant_with_min_max_args_gradient(
        grad, op.inputs[0], min=op.get_attr("min"), max=op.get_attr("max"), **_attrs(op))


@RegisterGradient("FakeQuantWithMinMaxVars")
def _fake_quant_with_min_max_vars_grad(op, grad):
    return quantization_ops.fake_quant_with_min_max_vars_gradient(
        grad, op.inputs[0], op.inputs[1], op.inputs[2], **_attrs(op))


@RegisterGradient("FakeQuantWithMinMaxVarsPerChannel")
def _fake_quant_with_min_max_vars_per_channel_grad(op, grad):
    return quantization_ops.fake_quant_with_min_max_vars_per_channel_gradient(
        grad, op.inputs[0], op.inputs[1], op.inputs[2], **_attrs(op))


@RegisterGradient("QuantizeAndDequantizeV2")
def _quantize_and_dequantize_v2_grad(_, grad):
    return [grad, None, None]


@RegisterGradient("QuantizeAndDequantizeV4")
def _quantize_and_dequantize_v4_grad(op, grad):
    return quantization_ops.quantize_and_dequantize_v4_grad(
        grad, op.inputs[0], op.inputs[1], op.inputs[2], axis=op.get_attr("axis"))


@RegisterGradient("QuantizeAndDequantizeV4Grad")
def _quantize_and_dequantize_v4_grad_grad(op, grad):
    # TensorFlow's: the V4 gradient of the Grad op's first three inputs, as written there.
    return _quantize_and_dequantize_v4_grad(op, grad)
