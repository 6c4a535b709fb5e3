"""Shape functions of the image ops (TensorFlow's core/ops/image_ops.cc and array_ops.cc's
DepthToSpace / SpaceToDepth) and of the 3-D convolutions and pooling."""

from engine.shape_inference.dims import ShapeError, _dims, with_rank, merge_dim
from engine.shape_inference.partial_values import _from_value, _ints


def _rank4(info, what="Shape"):
    dims = _dims(info)
    if dims is None:
        return [None] * 4
    if len(dims) != 4:
        raise ShapeError(f"{what} must be rank 4 but is rank {len(dims)}")
    return dims


def resize(attrs, inputs):
    """[batch, size[0], size[1], channels]: the size's values as far as they are known."""
    dims = _rank4(inputs[0])
    size = _from_value(inputs[1])
    if size is not None and len(size) != 2:
        raise ShapeError(f"Dimension must be 2 but is {len(size)}")
    size = size or [None, None]
    return [dims[0], size[0], size[1], dims[3]]


def projective_transform(attrs, inputs):
    """ImageProjectiveTransformV2/V3: [batch, output_shape[0], output_shape[1], channels]."""
    dims = _rank4(inputs[0])
    size = _from_value(inputs[2])
    if size is not None and len(size) != 2:
        raise ShapeError(f"Dimension must be 2 but is {len(size)}")
    size = size or [None, None]
    return [dims[0], size[0], size[1], dims[3]]


def resize_grad(attrs, inputs):
    """ResizeBilinearGrad, ResizeBicubicGrad: the original image's shape."""
    _rank4(inputs[0])
    return _rank4(inputs[1])


def adjust(attrs, inputs):
    """AdjustContrastv2, AdjustSaturation, AdjustHue: the images' shape (rank 3 at least)."""
    dims = _dims(inputs[0])
    if dims is not None and len(dims) < 3:
        raise ShapeError(f"Shape must be at least rank 3 but is rank {len(dims)}")
    return dims


def depth_to_space(attrs, inputs):
    dims = _rank4(inputs[0])
    block = int(attrs["block_size"])
    batch, height, width, depth = dims
    if depth is not None and depth % (block * block):
        raise ShapeError(f"Dimension size must be evenly divisible by {block * block} but is "
                         f"{depth}")
    return [batch, None if height is None else height * block,
            None if width is None else width * block,
            None if depth is None else depth // (block * block)]


def space_to_depth(attrs, inputs):
    dims = _rank4(inputs[0])
    block = int(attrs["block_size"])
    batch, height, width, depth = dims
    for size in (height, width):
        if size is not None and size % block:
            raise ShapeError(f"Dimension size must be evenly divisible by {block} but is "
                             f"{size}")
    return [batch, None if height is None else height // block,
            None if width is None else width // block,
            None if depth is None else depth * block * block]


def crop_and_resize(attrs, inputs):
    """[num_boxes, crop_height, crop_width, depth]: boxes [num_boxes, 4], box_ind [num_boxes],
    crop_size's values as far as they are known (SetOutputToSizedImage)."""
    image = _rank4(inputs[0])
    boxes = with_rank(inputs[1], 2) or [None, None]
    box_ind = with_rank(inputs[2], 1) or [None]
    num_boxes = merge_dim(boxes[0], box_ind[0])
    if boxes[1] is not None and boxes[1] != 4:
        raise ShapeError(f"Dimension must be 4 but is {boxes[1]}")
    size_dims = with_rank(inputs[3], 1)
    if size_dims is not None and size_dims[0] is not None and size_dims[0] != 2:
        raise ShapeError(f"Dimension must be 2 but is {size_dims[0]}")
    size = _from_value(inputs[3]) or [None, None]
    return [num_boxes, size[0], size[1], image[3]]


def crop_and_resize_grad_image(attrs, inputs):
    """The image's shape from image_size (rank 4)."""
    dims = _from_value(inputs[3])
    if dims is not None and len(dims) != 4:
        raise ShapeError(f"Shape must be rank 4 but is rank {len(dims)}")
    return dims if dims is not None else [None] * 4


def _patches(attrs, inputs, op, rank, rates):
    """ExtractImagePatches, ExtractVolumePatches: [batch, windows per spatial dim...,
    depth * prod(ksizes)]."""
    from engine.kernels.cpu.patches import windowed_output_size
    dims = _dims(inputs[0])
    if dims is not None and len(dims) != rank:
        raise ShapeError(f"Shape must be rank {rank} but is rank {len(dims)}")
    dims = dims or [None] * rank
    ksizes, strides = list(attrs["ksizes"]), list(attrs["strides"])
    for name, values in (("ksizes", ksizes), ("stride", strides), ("rates", rates)):
        if len(values) != rank:
            raise ShapeError(f"{op} requires the {name} attribute to contain {rank} values, "
                             f"but got: {len(values)}")
    padding = attrs["padding"]
    padding = padding.decode() if isinstance(padding, bytes) else padding
    kernel = 1
    for k in ksizes[1:-1]:
        kernel *= k
    out = [dims[0]]
    for size, k, stride, rate in zip(dims[1:-1], ksizes[1:-1], strides[1:-1], rates[1:-1]):
        if size is None:
            out.append(None)
            continue
        effective = k + (k - 1) * (rate - 1)
        windows, _ = windowed_output_size(size, effective, stride, padding)
        if windows is None:
            raise ShapeError(f"Computed output size would be negative: "
                             f"{(size - effective + stride) // stride} [input_size: {size}, "
                             f"effective_filter_size: {effective}, stride: {stride}]")
        out.append(windows)
    return out + [None if dims[-1] is None else dims[-1] * kernel]


def extract_image_patches(attrs, inputs):
    return _patches(attrs, inputs, "ExtractImagePatches", 4, list(attrs["rates"]))


def extract_volume_patches(attrs, inputs):
    return _patches(attrs, inputs, "ExtractVolumePatches", 5, [1] * 5)


SHAPE_FUNCTIONS = {
    "ExtractImagePatches": extract_image_patches,
    "ExtractVolumePatches": extract_volume_patches,
    "CropAndResize": crop_and_resize, "CropAndResizeGradImage": crop_and_resize_grad_image,
    "CropAndResizeGradBoxes": lambda attrs, inputs: _dims(inputs[2]),
    "ResizeBilinear": resize, "ResizeNearestNeighbor": resize, "ResizeBicubic": resize,
    "ResizeArea": resize, "ScaleAndTranslate": resize, "ScaleAndTranslateGrad": resize_grad,
    "ResizeNearestNeighborGrad": resize, "ResizeBilinearGrad": resize_grad,
    "ResizeBicubicGrad": resize_grad, "AdjustContrastv2": adjust, "AdjustSaturation": adjust,
    "AdjustHue": adjust, "RGBToHSV": lambda attrs, inputs: _dims(inputs[0]),
    "HSVToRGB": lambda attrs, inputs: _dims(inputs[0]), "DepthToSpace": depth_to_space,
    "SpaceToDepth": space_to_depth, "ImageProjectiveTransformV2": projective_transform,
    "ImageProjectiveTransformV3": projective_transform,
}


# --- 3-D convolutions and pooling (NDHWC) ---

def _rank5(info):
    dims = _dims(info)
    if dims is None:
        return [None] * 5
    if len(dims) != 5:
        raise ShapeError(f"Shape must be rank 5 but is rank {len(dims)}")
    return dims


def _out_size(size, window, stride, dilation, padding):
    if size is None or window is None:
        return None
    if padding == "SAME":
        return -(-size // stride)
    effective = (window - 1) * dilation + 1
    if size < effective:  # as Conv2D's: TensorFlow refuses it while building the graph
        raise ShapeError(f"Negative dimension size caused by subtracting {effective} from "
                         f"{size}")
    return -(-(size - (window - 1) * dilation) // stride)


def _volumetric(attrs, dims, window, channels):
    padding = attrs.get("padding", b"VALID")
    padding = padding.decode() if isinstance(padding, bytes) else padding
    strides = list(attrs.get("strides") or [1] * 5)[1:4]
    dilations = list(attrs.get("dilations") or [1] * 5)[1:4]
    return [dims[0]] + [_out_size(dims[1 + i], window[i], strides[i], dilations[i], padding)
                        for i in range(3)] + [channels]


def conv3d(attrs, inputs):
    dims, filter_dims = _rank5(inputs[0]), _rank5(inputs[1])
    return _volumetric(attrs, dims, filter_dims[:3], filter_dims[4])


def pool3d(attrs, inputs):
    dims = _rank5(inputs[0])
    window = list(attrs.get("ksize") or [1] * 5)[1:4]
    return _volumetric(dict(attrs, dilations=None), dims, window, dims[4])


def _sizes(info):
    sizes = _from_value(info)
    return sizes if sizes is not None else [None] * 5


def non_max_suppression(attrs, inputs):
    """NonMaxSuppressionV3: the selected indices, a vector of unknown length; boxes [n, 4],
    scores [n] and scalar size and thresholds as TensorFlow's shape function checks them."""
    boxes, scores = _dims(inputs[0]), _dims(inputs[1])
    if boxes is not None:
        if len(boxes) != 2:
            raise ShapeError(f"Shape must be rank 2 but is rank {len(boxes)}")
        if boxes[1] is not None and boxes[1] != 4:
            raise ShapeError(f"Dimension must be 4 but is {boxes[1]}")
    if scores is not None and len(scores) != 1:
        raise ShapeError(f"Shape must be rank 1 but is rank {len(scores)}")
    if boxes is not None and scores is not None and None not in (boxes[0], scores[0]) \
            and boxes[0] != scores[0]:
        raise ShapeError(f"Dimensions must be equal, but are {boxes[0]} and {scores[0]}")
    for info in inputs[2:]:
        dims = _dims(info)
        if dims is not None and len(dims) != 0:
            raise ShapeError(f"Shape must be rank 0 but is rank {len(dims)}")
    return [None]


SHAPE_FUNCTIONS.update({
    "Conv3D": conv3d, "MaxPool3D": pool3d, "AvgPool3D": pool3d,
    "Conv3DBackpropInputV2": lambda attrs, inputs: _sizes(inputs[0]),
    "Conv3DBackpropFilterV2": lambda attrs, inputs: _sizes(inputs[1]),
    "AvgPool3DGrad": lambda attrs, inputs: _sizes(inputs[0]),
    "MaxPool3DGrad": lambda attrs, inputs: _rank5(inputs[0]),
    "MaxPool3DGradGrad": lambda attrs, inputs: _rank5(inputs[1]),
    "NonMaxSuppressionV3": non_max_suppression,
})


# --- the codecs (core/ops/image_ops.cc's DecodeImageShapeFn and the encoders') ---

def _channels(attrs):
    channels = int(attrs.get("channels", 0))
    return channels or None


def decode_image(attrs, inputs):
    """DecodeJpeg, DecodePng, DecodeBmp: [height, width, channels or unknown]."""
    with_rank(inputs[0], 0)
    return [None, None, _channels(attrs)]


def decode_any_image(attrs, inputs):
    """DecodeImage: unknown rank while animations expand (3-D or 4-D), else 3-D."""
    with_rank(inputs[0], 0)
    if attrs.get("expand_animations", True):
        return None
    return [None, None, _channels(attrs)]


def decode_and_crop_jpeg(attrs, inputs):
    """[crop height, crop width, channels] as far as the crop window is constant."""
    with_rank(inputs[0], 0)
    window = with_rank(inputs[1], 1)
    if window is not None and window[0] is not None and window[0] != 4:
        raise ShapeError(f"Dimension must be 4 but is {window[0]}")
    values = _from_value(inputs[1]) or [None] * 4
    return [values[2], values[3], _channels(attrs)]


def encode_image(attrs, inputs):
    """EncodeJpeg, EncodePng, EncodeJpegVariableQuality: a scalar string of a 3-D image."""
    with_rank(inputs[0], 3)
    if len(inputs) > 1:
        with_rank(inputs[1], 0)
    return []


SHAPE_FUNCTIONS.update({
    "DecodeJpeg": decode_image, "DecodePng": decode_image, "DecodeBmp": decode_image,
    "DecodeImage": decode_any_image, "DecodeAndCropJpeg": decode_and_crop_jpeg,
    "DecodeGif": lambda attrs, inputs: (with_rank(inputs[0], 0), [None, None, None, 3])[1],
    "ExtractJpegShape": lambda attrs, inputs: (with_rank(inputs[0], 0), [3])[1],
    "EncodeJpeg": encode_image, "EncodeJpegVariableQuality": encode_image,
    "EncodePng": encode_image,
})


def non_max_suppression_padded(attrs, inputs):
    """NonMaxSuppressionV4 / V5: the indices ([max_output_size] when padded to a constant
    size), V5's scores alike, and the scalar count of valid ones."""
    non_max_suppression(attrs, list(inputs))
    size = _ints(inputs[2])
    length = None
    if attrs.get("pad_to_max_output_size") and size is not None and len(size) == 1:
        length = int(size[0])
    count = 2 if len(inputs) == 5 else 3
    return ([length],) * (count - 1) + ([],)


def non_max_suppression_with_overlaps(attrs, inputs):
    overlaps = _dims(inputs[0])
    if overlaps is not None and len(overlaps) != 2:
        raise ShapeError(f"Shape must be rank 2 but is rank {len(overlaps)}")
    return [None]


def draw_bounding_boxes(attrs, inputs):
    dims = _rank4(inputs[0])
    boxes = _dims(inputs[1])
    if boxes is not None and len(boxes) != 3:
        raise ShapeError(f"Shape must be rank 3 but is rank {len(boxes)}")
    return dims


SHAPE_FUNCTIONS.update({
    "NonMaxSuppressionV4": non_max_suppression_padded,
    "NonMaxSuppressionV5": non_max_suppression_padded,
    "NonMaxSuppressionWithOverlaps": non_max_suppression_with_overlaps,
    "DrawBoundingBoxes": draw_bounding_boxes, "DrawBoundingBoxesV2": draw_bounding_boxes,
})


def sample_distorted_bounding_box(attrs, inputs):
    """(begin [3], size [3], bboxes [1, 1, 4]) of a 1-D image size and 3-D boxes."""
    with_rank(inputs[0], 1)
    with_rank(inputs[1], 3)
    with_rank(inputs[2], 0)
    return [3], [3], [1, 1, 4]


SHAPE_FUNCTIONS["SampleDistortedBoundingBoxV2"] = sample_distorted_bounding_box


def extract_glimpse(attrs, inputs):
    """[batch, size[0], size[1], depth]."""
    dims = _rank4(inputs[0])
    size = _from_value(inputs[1]) or [None, None]
    if len(size) != 2:
        raise ShapeError(f"Dimension must be 2 but is {len(size)}")
    with_rank(inputs[2], 2)
    return [dims[0], size[0], size[1], dims[3]]


SHAPE_FUNCTIONS["ExtractGlimpse"] = extract_glimpse


def combined_non_max_suppression(attrs, inputs):
    """([batch, size, 4], [batch, size], [batch, size], [batch]): the size is max_total_size
    where known (pad_per_class makes it unknown unless both sizes are)."""
    boxes, scores = _dims(inputs[0]), _dims(inputs[1])
    if boxes is not None and len(boxes) != 4:
        raise ShapeError(f"Shape must be rank 4 but is rank {len(boxes)}")
    if scores is not None and len(scores) != 3:
        raise ShapeError(f"Shape must be rank 3 but is rank {len(scores)}")
    batch = (boxes or scores or [None])[0]
    total = _ints(inputs[3])
    size = int(total[0]) if total is not None and len(total) == 1 else None
    if attrs.get("pad_per_class"):
        per_class = _ints(inputs[2])
        classes = scores[2] if scores is not None else None
        if size is not None and per_class is not None and classes is not None:
            size = min(size, int(per_class[0]) * classes)
        else:
            size = None
    return [batch, size, 4], [batch, size], [batch, size], [batch]


SHAPE_FUNCTIONS["CombinedNonMaxSuppression"] = combined_non_max_suppression
