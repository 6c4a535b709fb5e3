"""tf.conv, tf.conv2d_backprop_filter_v2 and tf.conv2d_backprop_input_v2 (the generic
Conv op and the V2 backprops), tf.nn's quantized convolution, pools and ReluX, and
tf.image.decode_webp (tf.io.decode_webp through engine/api/aliases.py),
tf.image.generate_bounding_box_proposals, tf.image.non_max_suppression_padded,
tf.io.decode_proto and tf.io.encode_proto."""

from engine.api import image_and_spatial as _image_and_spatial
from engine.api import input_output as _input_output
from engine.api import math_and_nn as _math_and_nn
from engine.ops import box_proposal_ops as _box_proposals
from engine.ops import conv_quantized_ops as _conv_quantized
from engine.ops import image_codec_ops as _codecs
from engine.ops import nms_padded_ops as _nms_padded
from engine.ops import proto_ops as _proto

_image_and_spatial.image.decode_webp = _codecs.decode_webp
_image_and_spatial.image.generate_bounding_box_proposals = (
    _box_proposals.generate_bounding_box_proposals)
_image_and_spatial.image.non_max_suppression_padded = _nms_padded.non_max_suppression_padded
_input_output.io.decode_proto = _proto.decode_proto
_input_output.io.encode_proto = _proto.encode_proto

for _name in _conv_quantized.NN:
    setattr(_math_and_nn.nn, _name, getattr(_conv_quantized, _name))

conv = _conv_quantized.conv
conv2d_backprop_filter_v2 = _conv_quantized.conv2d_backprop_filter_v2
conv2d_backprop_input_v2 = _conv_quantized.conv2d_backprop_input_v2

__all__ = list(_conv_quantized.TOP_LEVEL)
