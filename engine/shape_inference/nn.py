"""Shape functions of the matrix products, convolutions, pools and cross-entropies."""

import numpy as np

from engine.kernels.cpu.nn import conv_output_size
from engine.shape_inference.dims import ShapeError, _dims, broadcast, merge_dim
from engine.shape_inference.partial_values import _ints


def mat_mul(attrs, inputs):
    a, b = _dims(inputs[0]), _dims(inputs[1])
    a = a if a is not None else [None, None]
    b = b if b is not None else [None, None]
    if attrs.get("transpose_a"):
        a = a[::-1]
    if attrs.get("transpose_b"):
        b = b[::-1]
    if a[1] is not None and b[0] is not None and a[1] != b[0]:
        raise ShapeError(f"Dimensions must be equal, but are {a[1]} and {b[0]}")
    return [a[0], b[1]]


def batch_mat_mul(attrs, inputs):
    x, y = _dims(inputs[0]), _dims(inputs[1])
    if x is None or y is None:
        return None
    if attrs.get("adj_x"):
        x = x[:-2] + [x[-1], x[-2]]
    if attrs.get("adj_y"):
        y = y[:-2] + [y[-1], y[-2]]
    merge_dim(x[-1], y[-2])
    return broadcast(x[:-2], y[:-2]) + [x[-2], y[-1]]


def _nhwc(attrs, dims):
    if attrs.get("data_format") == b"NCHW":
        return [dims[0], dims[2], dims[3], dims[1]]
    return dims


def _from_nhwc(attrs, dims):
    if attrs.get("data_format") == b"NCHW":
        return [dims[0], dims[3], dims[1], dims[2]]
    return dims


def _hw(attrs, values):
    values = values or [1, 1, 1, 1]
    return (values[2], values[3]) if attrs.get("data_format") == b"NCHW" \
        else (values[1], values[2])


def _spatial(attrs, dims, window, channels):
    if dims is None:
        return [None] * 4
    dims = _nhwc(attrs, dims)
    stride, dilation = _hw(attrs, attrs.get("strides")), _hw(attrs, attrs.get("dilations"))
    explicit = attrs.get("explicit_paddings") or [0] * 8
    pads = _hw(attrs, [tuple(explicit[i:i + 2]) for i in range(0, 8, 2)])
    out = [dims[0]]
    padding = attrs.get("padding")
    for i in range(2):
        size = dims[1 + i]
        if padding in (b"VALID", "VALID", b"EXPLICIT", "EXPLICIT"):
            padded = None if size is None else size + (sum(pads[i]) if padding in (
                b"EXPLICIT", "EXPLICIT") else 0)
            _check_window_fits(padded, window[i], (dilation[i] if dilation else 1) or 1)
        out.append(None if size is None or window[i] is None else conv_output_size(
            size, window[i], stride[i], dilation[i], attrs.get("padding"), pads[i])[0])
    return _from_nhwc(attrs, out + [channels if channels is not None else dims[3]])


def _check_window_fits(size, window, dilation):
    """TensorFlow's InferenceContext::Subtract in GetWindowedOutputSizeFromDimsV2: a VALID
    window larger than its (padded) input is refused while the graph is built."""
    if size is None or window is None:
        return
    effective = (window - 1) * dilation + 1
    if size < effective:
        raise ShapeError(f"Negative dimension size caused by subtracting {effective} from "
                         f"{size}")


def conv2d(attrs, inputs):
    dims, filters = _dims(inputs[0]), _dims(inputs[1]) or [None] * 4
    depth = _nhwc(attrs, dims)[3] if dims is not None and len(dims) == 4 else None
    if depth is not None and filters[2] is not None:
        if filters[2] == 0:
            raise ShapeError("Depth of filter must not be 0")
        if depth % filters[2]:
            raise ShapeError(f"Depth of input ({depth}) is not a multiple of input depth of "
                             f"filter ({filters[2]})")
    return _spatial(attrs, dims, filters[:2], filters[3])


def depthwise_conv2d(attrs, inputs):
    """DepthwiseConv2dNative: Conv2D's spatial dims, depth input depth * depth_multiplier."""
    dims, filters = _dims(inputs[0]), _dims(inputs[1]) or [None] * 4
    for value in (dims, filters):
        if value is not None and len(value) != 4:
            raise ShapeError(f"Shape must be rank 4 but is rank {len(value)}")
    depth = merge_dim(_nhwc(attrs, dims)[3] if dims else None, filters[2])
    out_depth = depth * filters[3] if depth is not None and filters[3] is not None else None
    out = _spatial(attrs, dims, filters[:2], out_depth)
    if out_depth is None:
        out[1 if attrs.get("data_format") == b"NCHW" else 3] = None
    return out


def lrn(attrs, inputs):
    """LRN and LRNGrad: the (rank 4) input's shape."""
    dims = _dims(inputs[0])
    if dims is not None and len(dims) != 4:
        raise ShapeError(f"Shape must be rank 4 but is rank {len(dims)}")
    for other in inputs[1:]:
        other_dims = _dims(other)
        if other_dims is not None and dims is not None:
            dims = [merge_dim(a, b) for a, b in zip(dims, other_dims)]
    return dims if dims is not None else [None] * 4


def pool(attrs, inputs):
    return _spatial(dict(attrs, dilations=None), _dims(inputs[0]),
                    _hw(attrs, attrs.get("ksize")), None)


def softmax_cross_entropy(attrs, inputs):
    logits = broadcast(_dims(inputs[0]), _dims(inputs[1])) or [None, None]
    return ([logits[0]], logits)


def sparse_softmax_cross_entropy(attrs, inputs):
    logits = _dims(inputs[0]) or [None, None]
    return (logits[:-1], logits)


def max_pool_v2(attrs, inputs):
    """MaxPoolV2: MaxPool's shape once its ksize and strides inputs are constants, else
    unknown (TensorFlow does not keep even the rank)."""
    ksize, strides = _ints(inputs[1]), _ints(inputs[2])
    if ksize is None or strides is None:
        return None
    return pool(dict(attrs, ksize=ksize, strides=strides), inputs)


def in_top_k(attrs, inputs):
    """InTopKV2: one bool per row of predictions [batch, classes], as targets [batch]."""
    predictions, targets = _dims(inputs[0]), _dims(inputs[1])
    if predictions is not None and len(predictions) != 2:
        raise ShapeError(f"Shape must be rank 2 but is rank {len(predictions)}")
    if targets is not None and len(targets) != 1:
        raise ShapeError(f"Shape must be rank 1 but is rank {len(targets)}")
    return [merge_dim(predictions[0] if predictions else None,
                      targets[0] if targets else None)]


def _batch_norm_channel_axis(attrs, rank):
    data_format = attrs.get("data_format", b"NHWC")
    return 1 if data_format in (b"NCHW", "NCHW", b"NCDHW", "NCDHW") else rank - 1


def fused_batch_norm(attrs, inputs):
    """FusedBatchNormV3: y as x; batch mean and variance, reserve spaces 1 and 2 per channel;
    reserve space 3 unknown."""
    x = _dims(inputs[0])
    channels = None if x is None else x[_batch_norm_channel_axis(attrs, len(x))]
    vector = [channels]
    return x, vector, vector, vector, vector, None


def fused_batch_norm_grad(attrs, inputs):
    x = _dims(inputs[1])
    channels = None if x is None else x[_batch_norm_channel_axis(attrs, len(x))]
    return x, [channels], [channels], [0], [0]


def _block_shape_args(inputs):
    """(input dims, block sizes, [before, after] pairs) as far as they are known."""
    dims, block, pairs = _dims(inputs[0]), _ints(inputs[1]), _ints(inputs[2])
    if pairs is not None:
        pairs = [pairs[i:i + 2] for i in range(0, len(pairs), 2)]
    return dims, block, pairs


def space_to_batch_nd(attrs, inputs):
    """[batch * prod(block), (padded spatial) / block..., rest...]."""
    dims, block, pads = _block_shape_args(inputs)
    if dims is None or block is None:
        return None
    m = len(block)
    batch = dims[0] * int(np.prod(block)) if dims[0] is not None else None
    spatial = [None if size is None or pads is None else (size + sum(pads[i])) // block[i]
               for i, size in enumerate(dims[1:1 + m])]
    return [batch] + spatial + dims[1 + m:]


def batch_to_space_nd(attrs, inputs):
    """[batch / prod(block), spatial * block - crops..., rest...]."""
    dims, block, crops = _block_shape_args(inputs)
    if dims is None or block is None:
        return None
    m = len(block)
    batch = dims[0] // int(np.prod(block)) if dims[0] is not None else None
    spatial = [None if size is None or crops is None else size * block[i] - sum(crops[i])
               for i, size in enumerate(dims[1:1 + m])]
    return [batch] + spatial + dims[1 + m:]
