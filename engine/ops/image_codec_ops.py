"""tf.image's (and tf.io's) codecs, TF 1.x names: decode_jpeg, encode_jpeg, decode_png,
encode_png, decode_bmp, decode_gif, decode_image, decode_and_crop_jpeg, extract_jpeg_shape,
is_jpeg, adjust_jpeg_quality and random_jpeg_quality, built as TensorFlow 2.21's
gen_image_ops.py and image_ops_impl.py build them in graph mode."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.ops import math_ops, random_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.image_color_ops import convert_image_dtype
from engine.ops.op_def_library import apply_op
from engine.ops.text_ops import substr
from engine.ops.variables import Variable


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True,
                try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    return apply_op("DecodeJpeg", contents=contents, channels=channels, ratio=ratio,
                    fancy_upscaling=fancy_upscaling,
                    try_recover_truncated=try_recover_truncated,
                    acceptable_fraction=acceptable_fraction, dct_method=dct_method, name=name)


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
    return apply_op("DecodeAndCropJpeg", contents=contents, crop_window=crop_window,
                    channels=channels, ratio=ratio, fancy_upscaling=fancy_upscaling,
                    try_recover_truncated=try_recover_truncated,
                    acceptable_fraction=acceptable_fraction, dct_method=dct_method, name=name)


def encode_jpeg(image, format="", quality=95, progressive=False,  # noqa: A002
                optimize_size=False, chroma_downsampling=True, density_unit="in",
                x_density=300, y_density=300, xmp_metadata="", name=None):
    return apply_op("EncodeJpeg", image=image, format=format, quality=quality,
                    progressive=progressive, optimize_size=optimize_size,
                    chroma_downsampling=chroma_downsampling, density_unit=density_unit,
                    x_density=x_density, y_density=y_density, xmp_metadata=xmp_metadata,
                    name=name)


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    return apply_op("DecodePng", contents=contents, channels=channels, dtype=dtype, name=name)


def encode_png(image, compression=-1, name=None):
    return apply_op("EncodePng", image=convert_to_tensor(image), compression=compression,
                    name=name)


def decode_bmp(contents, channels=0, name=None):
    return apply_op("DecodeBmp", contents=contents, channels=channels, name=name)


def decode_webp(contents, channels=0, dtype=dtypes.uint8, name=None):
    return apply_op("DecodeWebP", contents=contents, channels=channels, dtype=dtype, name=name)


def decode_gif(contents, name=None):
    return apply_op("DecodeGif", contents=contents, name=name)


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None,
                 expand_animations=True):
    """One DecodeImage node (uint8, uint16 or float32; other dtypes decoded as uint16 and
    converted) that sniffs JPEG, PNG, GIF, BMP or WebP."""
    with name_scope(name, "decode_image"):
        channels = 0 if channels is None else channels
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.float32, dtypes.uint8, dtypes.uint16):
            decoded = apply_op("DecodeImage", contents=contents, channels=channels,
                               expand_animations=expand_animations, dtype=dtypes.uint16)
            return convert_image_dtype(decoded, dtype)
        return apply_op("DecodeImage", contents=contents, channels=channels,
                        expand_animations=expand_animations, dtype=dtype)


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    return apply_op("ExtractJpegShape", contents=contents, output_type=output_type, name=name)


def is_jpeg(contents, name=None):
    """Whether the contents start with JPEG's magic bytes (a Substr and an Equal)."""
    with name_scope(name, "is_jpeg"):
        return math_ops.equal(substr(contents, 0, 3), b"\xff\xd8\xff", name=name)


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image through EncodeJpegVariableQuality and DecodeJpeg, in its own dtype."""
    with name_scope(name, "adjust_jpeg_quality", [image]):
        image = convert_to_tensor(image, name="image")
        channels = image.get_shape().as_list()[-1]
        orig_dtype = image.dtype
        image = convert_image_dtype(image, dtypes.uint8, saturate=True)
        if not isinstance(jpeg_quality, (Tensor, Variable)):
            jpeg_quality = convert_to_tensor(jpeg_quality, dtype=dtypes.int32)
        image = apply_op("EncodeJpegVariableQuality", images=image, quality=jpeg_quality)
        image = decode_jpeg(image, channels=channels, dct_method=dct_method)
        return convert_image_dtype(image, orig_dtype, saturate=True)


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    if (min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100
            or max_jpeg_quality > 100):
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
    jpeg_quality = random_ops.random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed,
                                             dtype=dtypes.int32)
    return adjust_jpeg_quality(image, jpeg_quality)
