"""tf.conv, tf.conv2d_backprop_filter_v2 and tf.conv2d_backprop_input_v2 (the generic
Conv op and the V2 backprops), and tf.nn's quantized convolution, pools and ReluX."""

from engine.api import math_and_nn as _math_and_nn
from engine.ops import conv_quantized_ops as _conv_quantized

for _name in _conv_quantized.NN:
    setattr(_math_and_nn.nn, _name, getattr(_conv_quantized, _name))

conv = _conv_quantized.conv
conv2d_backprop_filter_v2 = _conv_quantized.conv2d_backprop_filter_v2
conv2d_backprop_input_v2 = _conv_quantized.conv2d_backprop_input_v2

__all__ = list(_conv_quantized.TOP_LEVEL)
