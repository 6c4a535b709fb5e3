"""Shape functions of the generic Conv op, Conv2DBackpropFilterV2/InputV2, the quantized
convolution, pools and ReluX (TensorFlow's common_shape_fns.cc ConvShape, nn_ops.cc),
DecodeWebP and GenerateBoundingBoxProposals (image_ops.cc), DecodeProtoV2 and EncodeProto."""

from engine.kernels.cpu.nn import conv_output_size
from engine.shape_inference.dims import ShapeError, _dims, with_rank
from engine.shape_inference.nn import conv2d, pool


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value or "")


def _check_depth(input_depth, filter_depth):
    if input_depth is not None and filter_depth is not None and filter_depth and \
            input_depth % filter_depth:
        raise ShapeError(f"Depth of input ({input_depth}) is not a multiple of input depth "
                         f"of filter ({filter_depth})")


def conv(attrs, inputs):
    """Conv: batch_dims leading dims kept, 2 or 3 spatial dims, channels last or first."""
    batch_dims = int(attrs.get("batch_dims", 1))
    x, w = _dims(inputs[0]), _dims(inputs[1])
    if x is None:
        return None
    rank = len(x) - batch_dims + 1
    if rank not in (4, 5):
        raise ShapeError(f"Input tensor must be rank 4 or 5, excluding extra batch "
                         f"dimensions, but got: {rank}")
    if w is not None and len(w) != rank:
        raise ShapeError("Input tensor rank must be the same as filter rank.")
    strides = list(attrs.get("strides") or [])
    if len(strides) != rank:
        raise ShapeError(f"Stride attribute should contain {rank} values, but got: "
                         f"{len(strides)}")
    spatial = rank - 2
    dilations = list(attrs.get("dilations") or [1] * rank)
    channels_first = _text(attrs.get("data_format")) == "CHANNELS_FIRST"
    lead, inner = x[:batch_dims], x[batch_dims:]
    if channels_first:
        depth, sizes = inner[0], inner[1:]
        stride, dilation = strides[2:], dilations[2:]
    else:
        depth, sizes = inner[-1], inner[:-1]
        stride, dilation = strides[1:-1], dilations[1:-1]
    w = w if w is not None else [None] * rank
    _check_depth(depth, w[spatial])
    padding = attrs.get("padding")
    padding = padding if isinstance(padding, bytes) else str(padding).encode()
    explicit = list(attrs.get("explicit_paddings") or [])
    out = []
    for i in range(spatial):
        pad = (0, 0)
        if padding == b"EXPLICIT":
            start = 2 * (i + (2 if channels_first else 1))
            pad = tuple(explicit[start:start + 2])
        out.append(None if sizes[i] is None or w[i] is None else conv_output_size(
            sizes[i], w[i], stride[i], dilation[i], padding, pad)[0])
    return lead + ([w[-1]] + out if channels_first else out + [w[-1]])


def quantized_conv2d(attrs, inputs):
    x = with_rank(inputs[0], 4, fill_unknown=True)
    w = with_rank(inputs[1], 4, fill_unknown=True)
    for info in inputs[2:6]:
        with_rank(info, 0, fill_unknown=True)
    _check_depth(x[3], w[2])
    return conv2d(attrs, inputs), [], []


def quantized_pool(attrs, inputs):
    with_rank(inputs[0], 4, fill_unknown=True)
    for info in inputs[1:3]:
        with_rank(info, 0, fill_unknown=True)
    return pool(attrs, inputs), [], []


def quantized_relu_x(attrs, inputs):
    for info in inputs[1:4]:
        with_rank(info, 0, fill_unknown=True)
    return _dims(inputs[0]), [], []


def decode_webp(attrs, inputs):
    """DecodeWebP: frames [count, height, width, channels or unknown] of a scalar string."""
    with_rank(inputs[0], 0, fill_unknown=True)
    channels = int(attrs.get("channels", 0))
    if channels < 0:
        raise ShapeError(f"channels must be non-negative, got {channels}")
    return [None, None, None, channels or None]


def decode_proto(attrs, inputs):
    """DecodeProtoV2: sizes [batch..., fields], each value [batch..., unknown]."""
    batch = _dims(inputs[0])
    count = len(attrs.get("output_types") or [])
    if batch is None:
        return (None,) * (count + 1)
    return (batch + [len(attrs.get("field_names") or [])],) + \
        tuple(batch + [None] for _ in range(count))


def encode_proto(attrs, inputs):
    """EncodeProto: the sizes' batch dims."""
    sizes = _dims(inputs[0])
    return None if sizes is None else sizes[:-1]


def generate_bounding_box_proposals(attrs, inputs):
    """GenerateBoundingBoxProposals: rois [batch, post_nms_topn, 4] and their scores."""
    for index, rank in enumerate((4, 4, 2, 3, 0, 0, 0)):
        dims = with_rank(inputs[index], rank, fill_unknown=True)
        if index == 0:
            batch = dims[0]
    count = int(attrs.get("post_nms_topn", 300))
    return [batch, count, 4], [batch, count]


SHAPE_FUNCTIONS = {
    "GenerateBoundingBoxProposals": generate_bounding_box_proposals,
    "DecodeProtoV2": decode_proto,
    "EncodeProto": encode_proto,
    "DecodeWebP": decode_webp,
    "Conv": conv,
    "Conv2DBackpropFilterV2": lambda attrs, inputs: _dims(inputs[1]),
    "Conv2DBackpropInputV2": lambda attrs, inputs: _dims(inputs[0]),
    "QuantizedConv2D": quantized_conv2d,
    "QuantizedMaxPool": quantized_pool,
    "QuantizedAvgPool": quantized_pool,
    "QuantizedReluX": quantized_relu_x,
}
