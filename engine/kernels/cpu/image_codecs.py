"""CPU kernels of the image codecs: DecodeJpeg, DecodeAndCropJpeg, DecodePng, DecodeGif,
DecodeBmp, DecodeWebP and DecodeImage (one kernel, as TensorFlow's DecodeImageV2Op: each op
sniffs the format and decodes JPEG, PNG, GIF and WebP alike, BMP only through DecodeBmp and
DecodeImage),
EncodeJpeg, EncodeJpegVariableQuality, EncodePng and ExtractJpegShape.

The formats are jpeg_codec.py (Pillow's libjpeg-turbo), png_codec.py, gif_codec.py and
webp_codec.py (Pillow's libwebp); BMP is
decode_image_op.cc's own reader, here. Errors are TensorFlow's InvalidArgument words.
"""

import numpy as np

from engine.framework.errors import UnimplementedError
from engine.kernels import register
from engine.kernels.common import invalid, shape_str
from engine.kernels.cpu import gif_codec, jpeg_codec, png_codec, webp_codec

_JPEG, _PNG, _GIF, _BMP = b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"GIF8", b"BM"


def _attr_str(value):
    return value.decode() if isinstance(value, bytes) else str(value or "")


def _contents(ctx, value):
    array = np.asarray(value, dtype=object)
    if array.ndim != 0:
        raise invalid(ctx, f"`contents` must be scalar but got shape{shape_str(array.shape)}")
    data = array.item()
    data = data if isinstance(data, bytes) else str(data).encode()
    if not data:
        raise invalid(ctx, "Input is empty.")
    return data


def _jpeg_error(ctx, error):
    if isinstance(error, (jpeg_codec.MissingPillow, jpeg_codec.Unsupported)):
        return UnimplementedError(getattr(ctx, "node_def", None), None, str(error))
    return invalid(ctx, str(error))


def _convert(image, dtype):
    """uint8 pixels as decode_image_op.cc gives other dtypes: uint16 as v * 256, float as
    v * (1 / 255) in float."""
    if dtype == np.uint16:
        return image.astype(np.uint16) * np.uint16(256)
    if dtype == np.float32:
        return image.astype(np.float32) * np.float32(1.0 / 255)
    return image


class _Decoder:
    """One DecodeImageV2Op of `op_type`: the attributes checked as its constructor does."""

    def __init__(self, ctx, op_type):
        attrs = ctx.attrs
        self.ctx, self.op_type = ctx, op_type
        self.dtype = np.dtype(attrs["dtype"].as_numpy_dtype) if "dtype" in attrs else np.uint8
        self.channels = 3 if op_type == "DecodeGif" else int(attrs.get("channels", 0))
        self.expand_animations = bool(attrs.get("expand_animations", True))
        self.ratio, self.fancy, self.recover, self.fraction = 1, True, False, 1.0
        self.fast_idct = True
        if op_type in ("DecodeJpeg", "DecodeAndCropJpeg"):
            self.ratio = int(attrs.get("ratio", 1))
            if self.ratio not in (1, 2, 4, 8):
                raise invalid(ctx, f"ratio must be 1, 2, 4, or 8, got {self.ratio}")
            self.fancy = bool(attrs.get("fancy_upscaling", True))
            self.recover = bool(attrs.get("try_recover_truncated", False))
            self.fraction = float(attrs.get("acceptable_fraction", 1.0))
            dct = _attr_str(attrs.get("dct_method", ""))
            if dct not in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
                raise invalid(ctx, "dct_method must be one of {'', 'INTEGER_FAST', "
                                   "'INTEGER_ACCURATE'}")
            self.fast_idct = dct != "INTEGER_ACCURATE"
        if op_type == "DecodePng" and self.dtype not in (np.uint8, np.uint16):
            raise invalid(ctx, f"`dtype` for `DecodePng` must be unit8, unit16 but got: "
                               f"{self.dtype}")
        if self.channels not in (0, 1, 3, 4):
            raise invalid(ctx, f"`channels` must be 0, 1, 3 or 4 but got {self.channels}")

    def __call__(self, data, crop_window=None):
        for magic, decode in ((_JPEG, self.jpeg), (_PNG, self.png), (_GIF, self.gif),
                              (_BMP, self.bmp)):
            if data.startswith(magic):
                return decode(data, crop_window)
        if webp_codec.is_webp(data):
            return self.webp(data)
        raise invalid(self.ctx, "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, "
                                "BMP, WebP required.")

    def _frame_shape(self, image):
        return image[None] if self.op_type == "DecodeGif" else image

    def jpeg(self, data, crop_window):
        ctx = self.ctx
        if self.channels not in (0, 1, 3):
            raise invalid(ctx, "JPEG does not support 4 channels")
        if self.op_type == "DecodeBmp":
            raise invalid(ctx, "Trying to decode JPEG format using DecodeBmp op. Use "
                               "`decode_jpeg` or `decode_image` instead.")
        try:
            image = jpeg_codec.decode(data, self.channels, self.ratio, self.fancy,
                                      self.fast_idct, self.recover)
        except jpeg_codec.CodecError as error:
            raise _jpeg_error(ctx, error) from None
        if crop_window is not None:
            y, x, h, w = crop_window
            height, width = image.shape[:2]
            if not (h > 0 and w > 0 and x >= 0 and y >= 0 and y + h <= height
                    and x + w <= width):
                raise invalid(ctx, jpeg_codec.UNCOMPRESS_FAILED)
            image = np.ascontiguousarray(image[y:y + h, x:x + w])
        return _convert(self._frame_shape(image), self.dtype)

    def png(self, data, crop_window):
        ctx = self.ctx
        bits = 8 if self.dtype == np.uint8 else 16
        try:
            width, height, *_ = png_codec.info(data)
        except png_codec.CodecError:
            raise invalid(ctx, png_codec.INIT_FAILED) from None
        if self.op_type == "DecodeBmp":
            raise invalid(ctx, "Trying to decode PNG format using DecodeBmp op. Use "
                               "`decode_png` or `decode_image` instead.")
        if self.op_type == "DecodeAndCropJpeg":
            raise invalid(ctx, "DecodeAndCropJpeg operation can run on JPEG only, but "
                               "detected PNG.")
        try:
            image = png_codec.decode(data, self.channels, bits)
        except png_codec.CodecError as error:
            raise invalid(ctx, f"Invalid PNG data, size {len(data)}" if error.during_rows
                          else png_codec.INIT_FAILED) from None
        if self.dtype == np.float32:
            image = image.astype(np.float32) * np.float32(1.0 / 65535)
        return self._frame_shape(image)

    def gif(self, data, crop_window):
        ctx = self.ctx
        if self.channels not in (0, 3):
            raise invalid(ctx, f"channels must be 0 or 3 for GIF, got {self.channels}")
        if self.op_type == "DecodeBmp":
            raise invalid(ctx, "Trying to decode GIF format using DecodeBmp op. Use "
                               "`decode_gif` or `decode_image` instead.")
        if self.op_type == "DecodeAndCropJpeg":
            raise invalid(ctx, "DecodeAndCropJpeg operation can run on JPEG only, but "
                               "detected GIF.")
        expand = self.expand_animations or self.op_type != "DecodeImage"
        try:
            frames = gif_codec.decode(data, expand)
        except gif_codec.CodecError as error:
            raise invalid(ctx, f"Invalid GIF data (size {len(data)}), {error}") from None
        if self.op_type == "DecodeWebP":
            raise invalid(ctx, "Bad op type DecodeWebP")
        if self.op_type in ("DecodePng", "DecodeJpeg"):
            if len(frames) != 1:
                raise invalid(ctx, f"Got {len(frames)} frames, but animated gifs can only be "
                                   f"decoded by tf.io.decode_gif or tf.io.decode_image")
            frames = frames[0]
        elif self.op_type == "DecodeImage" and not self.expand_animations:
            frames = frames[0]
        return _convert(frames, self.dtype)

    def webp(self, data):
        """Frames [count, height, width, channels] from every op (DecodePng's and
        DecodeAndCropJpeg's too, uncropped), the first frame alone from DecodeImage without
        expand_animations, as decode_image_op.cc's DecodeWebPV2 gives them."""
        ctx = self.ctx
        if self.channels == 1:
            raise invalid(ctx, "WebP only supports 3 or 4 channels")
        if self.dtype != np.uint8:
            raise invalid(ctx, "WebP only supports uint8 for dtype")
        try:
            frames = webp_codec.decode(data)
        except webp_codec.CodecError as error:
            raise invalid(ctx, str(error)) from None
        except jpeg_codec.MissingPillow as error:
            raise _jpeg_error(ctx, error) from None
        if self.channels not in (0, frames.shape[3]):
            raise invalid(ctx, "Number of channels requested does not match input")
        if self.op_type == "DecodeImage" and not self.expand_animations:
            return frames[0]
        return frames

    def bmp(self, data, crop_window):
        ctx = self.ctx
        if self.channels == 1:
            raise invalid(ctx, f"`channels` must be 0, 3 or 4 for BMP, but got "
                               f"{self.channels}")
        if self.op_type not in ("DecodeBmp", "DecodeImage"):
            if self.op_type == "DecodeAndCropJpeg":
                raise invalid(ctx, "DecodeAndCropJpeg operation can run on JPEG only, but "
                                   "detected BMP.")
            raise invalid(ctx, f"Trying to decode BMP format using a wrong op. Use "
                               f"`decode_bmp` or `decode_image` instead. Op used: "
                               f"{self.op_type}")
        return _convert(decode_bmp(ctx, data, self.channels), self.dtype)


def decode_bmp(ctx, data, channels):
    """decode_image_op.cc's DecodeBmpV2 and DecodeBMP: uncompressed 8, 24 or 32 bits a pixel,
    rows bottom up (top down for a negative height), BGR(A) made RGB(A)."""
    if len(data) < 32:
        raise invalid(ctx, f"Incomplete bmp content, requires at least 32 bytes to find the "
                           f"header size, width, height, and bpp, got {len(data)} bytes")
    header_size = int.from_bytes(data[10:14], "little", signed=True)
    width = int.from_bytes(data[18:22], "little", signed=True)
    height = int.from_bytes(data[22:26], "little", signed=True)
    bpp = int.from_bytes(data[28:30], "little", signed=True)
    img_channels = int(bpp / 8)
    if img_channels not in (1, 3, 4):
        raise invalid(ctx, f"Number of channels inherent in the image must be 1, 3 or 4, "
                           f"was {img_channels}")
    out_channels = channels or img_channels
    if width <= 0:
        raise invalid(ctx, "Width must be positive")
    if height == 0:
        raise invalid(ctx, "Height must be nonzero")
    if header_size < 0:
        raise invalid(ctx, "header size must be nonnegative")
    if width * abs(height) >= (2 ** 31 - 1) // 8:
        raise invalid(ctx, "Total possible pixel bytes must be less than 2^30")
    abs_height = abs(height)
    row_size = (img_channels * width + 3) // 4 * 4
    size_diff = len(data) - header_size - row_size * abs_height
    if size_diff != 0:
        raise invalid(ctx, f"Input size should match (header_size + row_size * abs_height) "
                           f"but they differ by {size_diff}")
    pixels = np.frombuffer(data, np.uint8, row_size * abs_height, header_size).reshape(
        abs_height, row_size)[:, :width * img_channels].reshape(abs_height, width,
                                                                img_channels)
    if height > 0:
        pixels = pixels[::-1]
    if img_channels == 1:
        color = np.repeat(pixels, 3, axis=2)
    else:
        color = pixels[..., 2::-1]
    if out_channels == 1:
        return np.ascontiguousarray(pixels[..., :1])
    if out_channels == 3:
        return np.ascontiguousarray(color)
    alpha = pixels[..., 3:4] if img_channels == 4 else np.full(color.shape[:2] + (1,), 255,
                                                               np.uint8)
    return np.concatenate([color, alpha], axis=2)


def _decoder_kernel(op_type):
    def kernel(ctx, contents, *rest):
        decoder = _Decoder(ctx, op_type)
        data = _contents(ctx, contents)
        crop_window = None
        if op_type == "DecodeAndCropJpeg":
            window = np.asarray(rest[0])
            if window.ndim != 1:
                raise invalid(ctx, f"crop_window must be 1-D, got shape "
                                   f"{shape_str(window.shape)}")
            if window.shape[0] != 4:
                raise invalid(ctx, f"crop_size must have four elements "
                                   f"{shape_str(window.shape)}")
            crop_window = [int(v) for v in window]
        return decoder(data, crop_window)
    kernel.__name__ = f"decode_{op_type}"
    return kernel


for _op in ("DecodeJpeg", "DecodeAndCropJpeg", "DecodePng", "DecodeGif", "DecodeBmp",
            "DecodeImage", "DecodeWebP"):
    register(_op)(_decoder_kernel(_op))


@register("ExtractJpegShape")
def extract_jpeg_shape(ctx, contents):
    data = _contents(ctx, contents) if np.asarray(contents, dtype=object).item() else b""
    try:
        found = jpeg_codec.header(data) if data else None
    except jpeg_codec.CodecError as error:
        raise _jpeg_error(ctx, error) from None
    if found is None:
        raise invalid(ctx, f"Invalid JPEG data, size {len(data)}")
    dtype = np.dtype(ctx.attrs["output_type"].as_numpy_dtype) \
        if "output_type" in ctx.attrs else np.int32
    return np.array(found, dtype)


_FORMATS = {"": 0, "grayscale": 1, "rgb": 3}
_DENSITY_UNITS = {"in": 1, "cm": 2}


def _encode_jpeg(ctx, image, quality):
    attrs = ctx.attrs
    image = np.asarray(image)
    fmt = _attr_str(attrs.get("format", ""))
    if fmt not in _FORMATS:
        raise invalid(ctx, f"format must be '', grayscale or rgb, got {fmt}")
    if not 0 <= quality <= 100:
        raise invalid(ctx, f"quality must be in [0,100], got {quality}")
    unit = _attr_str(attrs.get("density_unit", "in"))
    if unit not in _DENSITY_UNITS:
        raise invalid(ctx, f"density_unit must be 'in' or 'cm' {unit}")
    if image.ndim != 3:
        raise invalid(ctx, f"image must be 3-dimensional{shape_str(image.shape)}")
    if image.size >= 2 ** 31 - 1:
        raise invalid(ctx, "image too large to encode: " + shape_str(image.shape))
    channels = image.shape[2]
    if _FORMATS[fmt] == 0:
        if channels not in (1, 3):
            raise invalid(ctx, f"image must have 1 or 3 channels, got "
                               f"{shape_str(image.shape)}")
    elif channels != _FORMATS[fmt]:
        raise invalid(ctx, f"format {fmt} expects {_FORMATS[fmt]} channels, got "
                           f"{shape_str(image.shape)}")
    try:
        encoded = jpeg_codec.encode(
            image, quality, attrs.get("progressive", False), attrs.get("optimize_size", False),
            attrs.get("chroma_downsampling", True), _DENSITY_UNITS[unit],
            int(attrs.get("x_density", 300)), int(attrs.get("y_density", 300)),
            attrs.get("xmp_metadata", b"") or b"")
    except jpeg_codec.CodecError as error:
        if isinstance(error, (jpeg_codec.MissingPillow, jpeg_codec.Unsupported)):
            raise _jpeg_error(ctx, error) from None
        raise invalid(ctx, "JPEG encoding failed") from None
    return np.array(encoded, dtype=object)


@register("EncodeJpeg")
def encode_jpeg(ctx, image):
    return _encode_jpeg(ctx, image, int(ctx.attrs.get("quality", 95)))


@register("EncodeJpegVariableQuality")
def encode_jpeg_variable_quality(ctx, images, quality):
    quality = np.asarray(quality)
    if quality.ndim != 0:
        raise invalid(ctx, f"quality must be a scalar: {shape_str(quality.shape)}")
    return _encode_jpeg(ctx, images, int(quality))


@register("EncodePng")
def encode_png(ctx, image):
    image = np.asarray(image)
    compression = int(ctx.attrs.get("compression", -1))
    if not -1 <= compression <= 9:
        raise invalid(ctx, f"compression should be in [-1,9], got {compression}")
    if image.ndim < 3:
        raise invalid(ctx, f"images must be at least rank 3{shape_str(image.shape)}")
    channels = image.shape[-1]
    if channels not in (1, 2, 3, 4):
        raise invalid(ctx, f"image must have 1, 2, 3, or 4 channels, got {channels}")
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise invalid(ctx, "PNG encoding failed")
    return np.array(png_codec.encode(image, compression), dtype=object)
