"""tf.quantization and the top-level fake-quantization functions (tf.fake_quant_with_min_max_args,
..._vars, ..._vars_per_channel and their _gradient forms); tf.quantization.quantize_and_dequantize
(QuantizeAndDequantizeV2) and quantize_and_dequantize_v2 (V4); tf.quantization.quantize
(tf.quantize), tf.quantize_v2, tf.quantization.dequantize (tf.dequantize) and
tf.quantization.quantized_concat (tf.quantized_concat)."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine.ops import quantization_grad as _quantization_grad  # noqa: F401  (gradients)
from engine.ops import quantization_ops as _quantization

fake_quant_with_min_max_args = _quantization.fake_quant_with_min_max_args
fake_quant_with_min_max_args_gradient = _quantization.fake_quant_with_min_max_args_gradient
fake_quant_with_min_max_vars = _quantization.fake_quant_with_min_max_vars
fake_quant_with_min_max_vars_gradient = _quantization.fake_quant_with_min_max_vars_gradient
fake_quant_with_min_max_vars_per_channel = _quantization.fake_quant_with_min_max_vars_per_channel
fake_quant_with_min_max_vars_per_channel_gradient = (
    _quantization.fake_quant_with_min_max_vars_per_channel_gradient)

# The fake-quantization functions under tf.quantization come from engine/api/aliases.py.
quantization = _Namespace(
    "tf.quantization", quantize_and_dequantize=_quantization.quantize_and_dequantize,
    quantize_and_dequantize_v2=_quantization.quantize_and_dequantize_v2,
    quantize=_quantization.quantize, dequantize=_quantization.dequantize,
    quantized_concat=_quantization.quantized_concat)
quantized_concat = _quantization.quantized_concat
quantize = _quantization.quantize
quantize_v2 = _quantization.quantize_v2
dequantize = _quantization.dequantize

__all__ = [*_quantization.FAKE_QUANT, "quantization", "quantize", "quantize_v2", "dequantize",
           "quantized_concat"]
