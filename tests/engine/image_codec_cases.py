"""The image codecs (tf.image / tf.io decode_*, encode_*, is_jpeg, extract_jpeg_shape,
adjust_jpeg_quality, random_jpeg_quality), built the same way by real TensorFlow
(tf.compat.v1) and the engine.

Inputs are small files in tests/fixtures/image_codecs/inputs/ that
tools/make_image_codec_fixtures.py writes first: JPEGs TensorFlow encoded (4:2:0, 4:4:4,
progressive, gray, tiny and odd sizes), a CMYK JPEG, PNGs of every colour type (TensorFlow's,
Pillow's palette, 1-bit and tRNS ones, an Adam7-interlaced one), GIFs (animated, with
transparency and a frame smaller than the canvas), BMPs, and broken files. A decode case is
`(build(tf, contents) -> output or tuple, input file)`, the contents fed through a scalar
string placeholder; an encode case `(build(tf, image) -> output or tuple, image array)`.
"""

from pathlib import Path

import numpy as np

INPUTS = Path(__file__).resolve().parents[1] / "fixtures" / "image_codecs" / "inputs"


def read_input(name):
    return (INPUTS / name).read_bytes()


def smooth_image(height, width, channels, seed, dtype=np.uint8):
    """A photo-like image: smooth waves and a little noise (JPEG's kind of input)."""
    rs = np.random.RandomState(seed)
    y, x = np.mgrid[0:height, 0:width]
    planes = [127 + 100 * np.sin(x / 5.0 + k) * np.cos(y / 7.0 - k) for k in range(channels)]
    image = np.stack(planes, -1) + rs.normal(0, 12, (height, width, channels))
    image = np.clip(image, 0, 255)
    if dtype == np.uint16:
        return (image * 257).astype(np.uint16) + rs.randint(0, 200, image.shape).astype(
            np.uint16)
    return image.astype(dtype)


def _grid(tf, contents):
    """decode_jpeg over the IDCTs, upsampling on and off and every ratio."""
    return tuple(tf.image.decode_jpeg(contents, dct_method=dct, fancy_upscaling=fancy,
                                      ratio=ratio)
                 for dct in ("", "INTEGER_FAST", "INTEGER_ACCURATE")
                 for fancy in (True, False) for ratio in (1, 2, 4, 8))


def _grid_422(tf, contents):
    """_grid without the accurate IDCT unupsampled at full size, which the engine does not
    do for 4:2:2 (tests/engine/test_image_codecs.py checks that it says so)."""
    return tuple(tf.image.decode_jpeg(contents, dct_method=dct, fancy_upscaling=fancy,
                                      ratio=ratio)
                 for dct in ("", "INTEGER_FAST", "INTEGER_ACCURATE")
                 for fancy in (True, False) for ratio in (1, 2, 4, 8)
                 if (dct, fancy, ratio) != ("INTEGER_ACCURATE", False, 1))


def _png_all(tf, contents):
    return tuple(tf.image.decode_png(contents, channels=channels, dtype=dtype)
                 for channels in (0, 1, 3, 4) for dtype in (tf.uint8, tf.uint16))


DECODE_CASES = {
    "jpeg_420_grid": (_grid, "rgb420.jpg"),
    "jpeg_444_grid": (_grid, "rgb444.jpg"),
    "jpeg_progressive_grid": (_grid, "rgb420_progressive.jpg"),
    "jpeg_odd_grid": (_grid, "odd420.jpg"),
    "jpeg_tiny_grid": (_grid, "tiny420.jpg"),
    "jpeg_gray_grid": (_grid, "gray.jpg"),
    "jpeg_422_grid": (_grid_422, "rgb422.jpg"),
    "jpeg_channels": (lambda tf, c: (tf.image.decode_jpeg(c, channels=1),
                                     tf.image.decode_jpeg(c, channels=3, name="rgb"),
                                     tf.io.decode_jpeg(c, channels=1, ratio=2)), "rgb420.jpg"),
    "jpeg_gray_to_rgb": (lambda tf, c: tf.image.decode_jpeg(c, channels=3), "gray.jpg"),
    "jpeg_cmyk": (lambda tf, c: (tf.image.decode_jpeg(c),
                                 tf.image.decode_jpeg(c, dct_method="INTEGER_ACCURATE")),
                  "cmyk.jpg"),
    "jpeg_recover_complete": (lambda tf, c: tf.image.decode_jpeg(
        c, try_recover_truncated=True, acceptable_fraction=0.5), "rgb420.jpg"),
    "jpeg_decode_image": (lambda tf, c: (tf.image.decode_image(c),
                                         tf.image.decode_image(c, channels=3,
                                                               dtype=tf.float32),
                                         tf.io.decode_image(c, dtype=tf.uint16,
                                                            expand_animations=False)),
                          "rgb420.jpg"),
    "jpeg_through_decode_gif": (lambda tf, c: tf.image.decode_gif(c), "gray.jpg"),
    "decode_and_crop": (lambda tf, c: (
        tf.image.decode_and_crop_jpeg(c, [3, 5, 20, 30]),
        tf.image.decode_and_crop_jpeg(c, tf.constant([0, 17, 37, 16]), channels=1),
        tf.image.decode_and_crop_jpeg(c, [8, 0, 8, 53], dct_method="INTEGER_ACCURATE")),
        "rgb420.jpg"),
    "decode_and_crop_444": (lambda tf, c: tf.image.decode_and_crop_jpeg(c, [1, 2, 30, 40]),
                            "rgb444.jpg"),
    "extract_jpeg_shape": (lambda tf, c: (tf.image.extract_jpeg_shape(c),
                                          tf.io.extract_jpeg_shape(c, output_type=tf.int64)),
                           "odd420.jpg"),
    "extract_jpeg_shape_gray": (lambda tf, c: tf.image.extract_jpeg_shape(c), "gray.jpg"),
    "is_jpeg_of_jpeg": (lambda tf, c: tf.image.is_jpeg(c), "rgb420.jpg"),
    "is_jpeg_of_png": (lambda tf, c: tf.io.is_jpeg(c, name="check"), "rgb8.png"),
    "png_rgb8": (_png_all, "rgb8.png"),
    "png_rgba16": (_png_all, "rgba16.png"),
    "png_gray8": (_png_all, "gray8.png"),
    "png_gray_alpha8": (_png_all, "gray_alpha8.png"),
    "png_gray16": (_png_all, "gray16.png"),
    "png_palette": (_png_all, "palette.png"),
    "png_palette_trns": (_png_all, "palette_trns.png"),
    "png_gray1": (_png_all, "gray1.png"),
    "png_gray_trns": (_png_all, "gray_trns.png"),
    "png_rgb_trns": (_png_all, "rgb_trns.png"),
    "png_interlaced": (_png_all, "interlaced.png"),
    "png_decode_image": (lambda tf, c: (tf.image.decode_image(c),
                                        tf.image.decode_image(c, dtype=tf.float32),
                                        tf.image.decode_image(c, channels=1,
                                                              dtype=tf.uint16)),
                         "rgba16.png"),
    "png_through_decode_jpeg": (lambda tf, c: tf.image.decode_jpeg(c, channels=3),
                                "rgb8.png"),
    "gif_animated": (lambda tf, c: (tf.image.decode_gif(c), tf.image.decode_image(c),
                                    tf.image.decode_image(c, expand_animations=False)),
                     "animated.gif"),
    "gif_truncated": (lambda tf, c: tf.io.decode_gif(c), "truncated.gif"),
    "gif_frame_smaller_than_screen": (lambda tf, c: tf.io.decode_gif(c), "small_frame.gif"),
    "gif_interlaced": (lambda tf, c: tf.io.decode_gif(c), "interlaced.gif"),
    "gif_single_through_decode_png": (lambda tf, c: (tf.image.decode_png(c),
                                                     tf.image.decode_image(
                                                         c, dtype=tf.float32)),
                                      "single.gif"),
    "bmp_24": (lambda tf, c: (tf.image.decode_bmp(c), tf.image.decode_bmp(c, channels=4),
                              tf.image.decode_image(c)), "rgb24.bmp"),
    "bmp_32_top_down": (lambda tf, c: (tf.image.decode_bmp(c),
                                       tf.io.decode_bmp(c, channels=3)), "rgba32.bmp"),
    "bmp_8": (lambda tf, c: (tf.image.decode_bmp(c), tf.image.decode_bmp(c, channels=3)),
              "gray8.bmp"),
}

_RGB = smooth_image(37, 53, 3, 1)
_GRAY = smooth_image(29, 31, 1, 2)
ENCODE_CASES = {
    "encode_jpeg_default": (lambda tf, x: tf.image.encode_jpeg(x), _RGB),
    "encode_jpeg_options": (lambda tf, x: (
        tf.image.encode_jpeg(x, quality=50, progressive=True),
        tf.image.encode_jpeg(x, quality=80, optimize_size=True, chroma_downsampling=False),
        tf.io.encode_jpeg(x, format="rgb", quality=10, density_unit="cm", x_density=72,
                          y_density=96, xmp_metadata="<x:xmpmeta>engine</x:xmpmeta>"),
        tf.image.encode_jpeg(x, quality=100, x_density=0, y_density=1)), _RGB),
    "encode_jpeg_gray": (lambda tf, x: (tf.image.encode_jpeg(x),
                                        tf.image.encode_jpeg(x, format="grayscale",
                                                             quality=70)), _GRAY),
    "jpeg_round_trip": (lambda tf, x: tf.image.decode_jpeg(tf.image.encode_jpeg(x)), _RGB),
    "encode_png_rgb": (lambda tf, x: (tf.image.encode_png(x),
                                      tf.image.encode_png(x, compression=1),
                                      tf.io.encode_png(x, compression=9)), _RGB),
    "encode_png_channels": (lambda tf, x: (tf.image.encode_png(x[..., :1]),
                                           tf.image.encode_png(x[..., :2]),
                                           tf.image.encode_png(tf.concat([x, x[..., :1]],
                                                                         -1))), _RGB),
    "encode_png_uint16": (lambda tf, x: tf.image.encode_png(x),
                          smooth_image(19, 23, 3, 3, np.uint16)),
    "encode_png_large": (lambda tf, x: tf.image.encode_png(x), smooth_image(90, 120, 3, 4)),
    "adjust_jpeg_quality": (lambda tf, x: (tf.image.adjust_jpeg_quality(x, 30),
                                           tf.image.adjust_jpeg_quality(
                                               tf.cast(x, tf.float32) / 255.0, 60)), _RGB),
    "random_jpeg_quality": (lambda tf, x: tuple(tf.image.random_jpeg_quality(x, 20, 90, seed=s)
                                                for s in (1, 2)), _RGB),
}

GRAPH_SEEDS = {"random_jpeg_quality": 42}


def build_case(tf, name):
    """(feed dict, outputs) in the default graph."""
    if name in DECODE_CASES:
        build, filename = DECODE_CASES[name]
        x = tf.placeholder(tf.string, [], name="contents")
        value = read_input(filename)
    else:
        build, value = ENCODE_CASES[name]
        x = tf.placeholder(tf.as_dtype(value.dtype), value.shape, name="image")
    if name in GRAPH_SEEDS:
        tf.set_random_seed(GRAPH_SEEDS[name])
    outputs = build(tf, x)
    outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
    return {x: value}, outputs


def run_case(tf, name):
    """({"out<i>": array, or "out<i>_bytes": the encoded bytes as uint8}, static shapes)."""
    with tf.Graph().as_default():
        feed, outputs = build_case(tf, name)
        with tf.Session() as sess:
            fetched = sess.run(outputs, feed)
        shapes = [out.shape.as_list() if out.shape.ndims is not None else None
                  for out in outputs]
    values = {}
    for i, value in enumerate(fetched):
        if isinstance(value, bytes):
            values[f"out{i}_bytes"] = np.frombuffer(value, np.uint8)
        else:
            values[f"out{i}"] = np.asarray(value)
    return values, shapes


CASES = {**DECODE_CASES, **ENCODE_CASES}

# Kernels that fail at run time: (raw op, inputs (a file name is its bytes), attrs).
ERROR_CASES = {
    "jpeg_corrupt": ("DecodeJpeg", dict(contents="corrupt.jpg"), {}),
    "jpeg_truncated_strict": ("DecodeJpeg", dict(contents="truncated.jpg"), {}),
    "jpeg_empty": ("DecodeJpeg", dict(contents=b""), {}),
    "unknown_format": ("DecodeImage", dict(contents=b"not an image at all"), {}),
    "jpeg_four_channels": ("DecodeJpeg", dict(contents="rgb420.jpg"), dict(channels=4)),
    "channels_two": ("DecodePng", dict(contents="rgb8.png"), dict(channels=2)),
    "ratio_three": ("DecodeJpeg", dict(contents="rgb420.jpg"), dict(ratio=3)),
    "dct_method": ("DecodeJpeg", dict(contents="rgb420.jpg"), dict(dct_method="FLOAT")),
    "bmp_of_png": ("DecodeBmp", dict(contents="rgb8.png"), {}),
    "bmp_of_jpeg": ("DecodeBmp", dict(contents="rgb420.jpg"), {}),
    "jpeg_of_bmp": ("DecodeJpeg", dict(contents="rgb24.bmp"), {}),
    "bmp_one_channel": ("DecodeBmp", dict(contents="rgb24.bmp"), dict(channels=1)),
    "bmp_truncated": ("DecodeBmp", dict(contents="truncated.bmp"), {}),
    "crop_of_png": ("DecodeAndCropJpeg", dict(contents="rgb8.png",
                                              crop_window=np.array([0, 0, 2, 2], np.int32)),
                    {}),
    "crop_outside": ("DecodeAndCropJpeg", dict(contents="rgb420.jpg",
                                               crop_window=np.array([30, 0, 10, 5], np.int32)),
                     {}),
    "crop_window_rank": ("DecodeAndCropJpeg", dict(contents="rgb420.jpg",
                                                   crop_window=np.array([[0, 0, 2, 2]],
                                                                        np.int32)), {}),
    "png_bad_crc": ("DecodePng", dict(contents="bad_crc.png"), {}),
    "png_truncated": ("DecodePng", dict(contents="truncated.png"), {}),
    "gif_channels": ("DecodeImage", dict(contents="single.gif"), dict(channels=1)),
    "animated_through_decode_jpeg": ("DecodeJpeg", dict(contents="animated.gif"), {}),
    "extract_shape_of_png": ("ExtractJpegShape", dict(contents="rgb8.png"), {}),
    "contents_not_scalar": ("DecodeJpeg", dict(contents=np.array([b"a", b"b"], object)), {}),
    "encode_jpeg_two_channels": ("EncodeJpeg", dict(image=_RGB[..., :2]), {}),
    "encode_jpeg_rank2": ("EncodeJpeg", dict(image=_RGB[..., 0]), {}),
    "encode_jpeg_format": ("EncodeJpeg", dict(image=_RGB), dict(format="grayscale")),
    "encode_jpeg_quality": ("EncodeJpegVariableQuality",
                            dict(images=_RGB, quality=np.int32(101)), {}),
    "encode_png_five_channels": ("EncodePng", dict(image=np.zeros((2, 2, 5), np.uint8)), {}),
    "encode_png_rank2": ("EncodePng", dict(image=np.zeros((2, 2), np.uint8)), {}),
}


def _error_value(value):
    if isinstance(value, str):
        return np.array(read_input(value), dtype=object)
    if isinstance(value, bytes):
        return np.array(value, dtype=object)
    return value


def kernel_message(message):
    """The kernel's own words in a session's error message: the line after "Node: ..."."""
    lines = message.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("Node: ")) + 1]


def run_error_case(tf, name):
    """(error class name, kernel message) of ERROR_CASES[name], its inputs fed through
    placeholders of unknown shape so that only the kernel can fail."""
    op, values, attrs = ERROR_CASES[name]
    values = {key: _error_value(value) for key, value in values.items()}
    with tf.Graph().as_default():
        feeds = {key: tf.placeholder(tf.string if value.dtype == object
                                     else tf.as_dtype(value.dtype), None)
                 for key, value in values.items()}
        out = getattr(tf.raw_ops, op)(**feeds, **attrs)
        with tf.Session() as sess:
            try:
                sess.run(out, {feeds[key]: value for key, value in values.items()})
            except tf.errors.OpError as error:
                return type(error).__name__, kernel_message(error.message)
    raise AssertionError(f"{name}: no error")
