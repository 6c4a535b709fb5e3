"""JPEG as TensorFlow's jpeg_mem.cc reads and writes it with libjpeg-turbo, done through
Pillow's own libjpeg-turbo (imported here, when a JPEG is first met, never with the engine).

Measured against TensorFlow 2.21 (tools/make_image_codec_fixtures.py, tests/fixtures/
image_codecs/): Pillow's decoder gives TensorFlow's bytes wherever its settings are the same
ones: libjpeg's accurate integer IDCT with fancy upsampling (Pillow's default) and the fast
integer IDCT without it (Pillow's draft flag), at every scale. TensorFlow's default pairs the
fast IDCT *with* fancy upsampling, which Pillow cannot ask for; there the colour planes are
taken from Pillow un-upsampled (the draft flag, YCbCr out: chroma replicated, so every other
sample is the plane) and upsampled and converted as libjpeg-turbo's jdsample.c and jdcolor.c
do (integer arithmetic, the same bytes; 4:2:0, 4:2:2 and 4:4:0). The accurate IDCT without
fancy upsampling takes 4:2:0 chroma planes from a half-scale decode (libjpeg then decodes
2x2-subsampled chroma with the full 8x8 IDCT); for other subsamplings that pairing is an
UnimplementedError. Scaled down (ratio 2, 4, 8), only the IDCT or only the upsampling
matters, and Pillow's flag is picked for it (_pillow_flag). Pillow's encoder, given
TensorFlow's quality, subsampling, progression and Huffman optimisation, writes TensorFlow's
bytes; the JFIF density and XMP are set in the bytes as libjpeg writes them.
"""

import io

import numpy as np

_PILLOW = "Pillow (pip install 'pillow>=10')"


class CodecError(Exception):
    """A JPEG that cannot be read or written: TensorFlow's InvalidArgument words."""


class MissingPillow(CodecError):
    """The Pillow package, which the JPEG kernels need, is not installed."""


class Unsupported(CodecError):
    """What the engine does not do as TensorFlow does: an UnimplementedError, not pixels that
    would differ from TensorFlow's."""


RECOVERY_UNSUPPORTED = (
    "recovering a truncated JPEG (try_recover_truncated=True) is not supported by the engine: "
    "its decoder does not fill the missing rows as TensorFlow's libjpeg-turbo does")


def pillow():
    """PIL.Image, or MissingPillow naming the package."""
    try:
        from PIL import Image
    except ImportError:
        raise MissingPillow(f"JPEG images need {_PILLOW}, which is not installed") from None
    return Image


UNCOMPRESS_FAILED = "jpeg::Uncompress failed. Invalid JPEG data or crop window."


def _open(data):
    """The JPEG as a Pillow image whose pixels are not read yet, or None."""
    image_module = pillow()
    try:
        image = image_module.open(io.BytesIO(data), formats=["JPEG"])
    except Exception:  # Pillow's many parse errors: TensorFlow fails them all alike
        return None
    return image


def _configure(image, mode, scale, fast):
    """Read `image` as `mode` ("L", "RGB", "YCbCr", "CMYK"), scaled 1/scale by libjpeg, with
    the fast IDCT and no fancy upsampling when `fast` (JpegImageFile.draft's settings, with
    the scale exact and the draft flag Pillow's decoder takes)."""
    decoder, extents, offset, args = image.tile[0]
    rawmode = args[1] if isinstance(args, tuple) and len(args) > 1 else ""
    if mode != image.mode:
        rawmode = ""
        image._mode = mode
    width = (image.size[0] + scale - 1) // scale
    height = (image.size[1] + scale - 1) // scale
    image._size = (width, height)
    tile_type = type(image.tile[0])
    fields = (decoder, (0, 0, width, height), offset, (mode, rawmode))
    image.tile = [tile_type(*fields) if tile_type is not tuple else fields]
    image.decoderconfig = (scale, 1 if fast else 0)
    return image


def _read(data, mode, scale, fast):
    image = _open(data)
    if image is None:
        raise CodecError(UNCOMPRESS_FAILED)
    try:
        return np.asarray(_configure(image, mode, scale, fast))
    except Exception:
        raise CodecError(UNCOMPRESS_FAILED) from None


# --- libjpeg-turbo's jdcolor.c (YCbCr -> RGB) and jdsample.c (fancy upsampling) ---

_SCALEBITS = 16
_ONE_HALF = 1 << (_SCALEBITS - 1)


def _fix(x):
    return int(x * (1 << _SCALEBITS) + 0.5)


_CENTRED = np.arange(256, dtype=np.int64) - 128
_CR_R = (_fix(1.40200) * _CENTRED + _ONE_HALF) >> _SCALEBITS
_CB_B = (_fix(1.77200) * _CENTRED + _ONE_HALF) >> _SCALEBITS
_CR_G = -_fix(0.71414) * _CENTRED
_CB_G = -_fix(0.34414) * _CENTRED + _ONE_HALF


def ycc_to_rgb(y, cb, cr):
    """ycc_rgb_convert: the tables' fixed-point products, each channel clamped to [0, 255]."""
    red = y + _CR_R[cr]
    green = y + ((_CB_G[cb] + _CR_G[cr]) >> _SCALEBITS)
    blue = y + _CB_B[cb]
    return np.clip(np.stack([red, green, blue], -1), 0, 255).astype(np.uint8)


def _neighbours(plane, axis):
    """(previous, next) along `axis`, the edge sample repeated (libjpeg's context rows and
    its first and last columns)."""
    first = np.take(plane, [0], axis=axis)
    last = np.take(plane, [-1], axis=axis)
    count = plane.shape[axis]
    before = np.concatenate([first, np.take(plane, range(count - 1), axis=axis)], axis)
    after = np.concatenate([np.take(plane, range(1, count), axis=axis), last], axis)
    return before, after


def _interleave(even, odd, axis):
    return np.stack([even, odd], axis + 1).reshape(
        even.shape[:axis] + (even.shape[axis] * 2,) + even.shape[axis + 1:])


def fancy_upsample(plane, h_factor, v_factor):
    """h2v1_fancy_upsample, h1v2_fancy_upsample or h2v2_fancy_upsample of one component."""
    plane = plane.astype(np.int64)
    if h_factor == 2 and v_factor == 2:
        above, below = _neighbours(plane, 0)
        rows = []
        for near in (above, below):
            colsum = plane * 3 + near
            left, right = _neighbours(colsum, 1)
            rows.append(_interleave((colsum * 3 + left + 8) >> 4,
                                    (colsum * 3 + right + 7) >> 4, 1))
        return _interleave(rows[0], rows[1], 0)
    if h_factor == 2:
        left, right = _neighbours(plane, 1)
        return _interleave((plane * 3 + left + 1) >> 2, (plane * 3 + right + 2) >> 2, 1)
    above, below = _neighbours(plane, 0)
    return _interleave((plane * 3 + above + 1) >> 2, (plane * 3 + below + 2) >> 2, 0)


def _sampling(image):
    """The luma's (h, v) sampling factors relative to chroma, or None when the layout is not
    one chroma sample per h x v luma samples with h, v in {1, 2}."""
    layers = getattr(image, "layer", None) or []
    if len(layers) != 3:
        return None
    (_, h0, v0, _), (_, h1, v1, _), (_, h2, v2, _) = layers
    if (h1, v1) != (1, 1) or (h2, v2) != (1, 1) or h0 not in (1, 2) or v0 not in (1, 2):
        return None
    return h0, v0


def _rgb_own_upsampling(data, height, width, h_factor, v_factor, fast, fancy):
    """RGB from Pillow's unconverted planes, upsampled and converted here: the pairings of
    IDCT and upsampling Pillow's decoder has no setting for."""
    planes = _read(data, "YCbCr", 1, fast).astype(np.int64)
    luma = planes[..., 0]
    if fast:
        chroma = planes[::v_factor, ::h_factor, 1:]
    else:
        # The accurate IDCT of the chroma at its own size: libjpeg scales the chroma's IDCT up
        # (8x8 against the luma's 4x4) at half scale instead of upsampling it.
        chroma = _read(data, "YCbCr", 2, False).astype(np.int64)[..., 1:]
    chroma_width = chroma.shape[1]
    upsampled = []
    for k in (0, 1):
        plane = chroma[..., k]
        if fancy and (h_factor == 1 or chroma_width > 2):
            plane = fancy_upsample(plane, h_factor, v_factor)
        else:
            plane = plane.repeat(v_factor, 0).repeat(h_factor, 1)
        upsampled.append(plane[:height, :width])
    return ycc_to_rgb(luma, upsampled[0], upsampled[1])


def _cmyk_to_rgb(cmyk, adobe):
    """jpeg_mem.cc's CMYK (inverted, as Adobe writes it, when the Adobe marker says so)."""
    c, m, y, k = (cmyk[..., i].astype(np.int64) for i in range(4))
    if adobe:
        rgb = [(k * c) // 255, (k * m) // 255, (k * y) // 255]
    else:
        rgb = [(255 - k) * (255 - c) // 255, (255 - k) * (255 - m) // 255,
               (255 - k) * (255 - y) // 255]
    return np.stack(rgb, -1).astype(np.uint8)


def decode(data, channels=0, ratio=1, fancy_upscaling=True, fast_idct=True,
           try_recover_truncated=False):
    """The image [height, width, channels] uint8 TensorFlow's jpeg::Uncompress gives."""
    try:
        return _decode(data, channels, ratio, fancy_upscaling, fast_idct)
    except MissingPillow:
        raise
    except CodecError:
        if try_recover_truncated and _open(data) is not None:
            raise Unsupported(RECOVERY_UNSUPPORTED) from None
        raise


def _decode(data, channels, ratio, fancy_upscaling, fast_idct):
    image = _open(data)
    if image is None:
        raise CodecError(UNCOMPRESS_FAILED)
    source = image.mode
    components = channels or min({"L": 1, "CMYK": 4}.get(source, 3), 3)
    width, height = image.size
    out_h, out_w = -(-height // ratio), -(-width // ratio)
    if out_h * out_w * components >= 1 << 29:
        raise CodecError(UNCOMPRESS_FAILED)
    if source == "CMYK":
        if components == 1:
            raise CodecError(UNCOMPRESS_FAILED)  # libjpeg converts no CMYK to grayscale
        raw = _read(data, "CMYK", ratio, fast_idct)
        inverted = image.tile[0][3][1] == "CMYK;I" if len(image.tile[0][3]) > 1 else False
        if inverted:
            raw = 255 - raw  # Pillow un-inverts Adobe's CMYK; jpeg_mem.cc reads it as stored
        return _cmyk_to_rgb(raw, "adobe" in image.info)
    if components == 1 or source == "L":
        luma = _read(data, "L", ratio, fast_idct)
        luma = luma.reshape(luma.shape[0], luma.shape[1], 1)
        return luma if components == 1 else np.repeat(luma, 3, axis=2)
    flag = _pillow_flag(image, ratio, fast_idct, fancy_upscaling)
    if flag is not None:
        return _read(data, "RGB", ratio, flag)
    factors = _sampling(image)
    if ratio == 1 and (factors in ((2, 2), (2, 1), (1, 2)) if fancy_upscaling
                       else factors == (2, 2)):
        return _rgb_own_upsampling(data, height, width, *factors, fast_idct, fancy_upscaling)
    raise Unsupported(
        f"decoding this JPEG's chroma subsampling ({_layout(image)}) with "
        f"dct_method={'INTEGER_FAST' if fast_idct else 'INTEGER_ACCURATE'!r}, "
        f"fancy_upscaling={fancy_upscaling} and ratio={ratio} is not supported by the engine: "
        f"its decoder cannot pair that IDCT with that upsampling")


def _layout(image):
    return ", ".join(f"{h}x{v}" for _, h, v, _ in getattr(image, "layer", []))


def _pillow_flag(image, ratio, fast_idct, fancy):
    """Pillow's draft flag that gives TensorFlow's bytes (fast IDCT and no fancy upsampling
    when set, accurate IDCT and fancy upsampling when not), or None when neither does.

    libjpeg-turbo (jdmaster.c) decodes a component with an IDCT of 8 / ratio, doubled while
    the component's subsampling allows, to spare upsampling it: the IDCT's method matters
    only to a component decoded at 8x8, the upsampling only to one still smaller than the
    image after its IDCT."""
    layers = getattr(image, "layer", None) or []
    if not layers:
        return fast_idct
    max_h = max(h for _, h, _, _ in layers)
    max_v = max(v for _, _, v, _ in layers)
    smallest = 8 // ratio
    idct_matters = fancy_matters = False
    for _, h, v, _ in layers:
        size = smallest
        while (size < 8 and (max_h * smallest) % (h * size * 2) == 0
               and (max_v * smallest) % (v * size * 2) == 0):
            size *= 2
        idct_matters = idct_matters or size == 8
        upsampled = h * size != max_h * smallest or v * size != max_v * smallest
        fancy_matters = fancy_matters or (upsampled and size > 1)
    if idct_matters and fancy_matters:
        return fast_idct if fancy != fast_idct else None
    if fancy_matters:
        return not fancy
    return fast_idct


def header(data):
    """(height, width, components) as libjpeg reports them after jpeg_start_decompress, or
    None."""
    image = _open(data)
    if image is None:
        return None
    return image.size[1], image.size[0], {"L": 1, "CMYK": 4}.get(image.mode, 3)


def encode(pixels, quality=95, progressive=False, optimize_size=False,
           chroma_downsampling=True, density_unit=1, x_density=300, y_density=300,
           xmp_metadata=b""):
    """jpeg::Compress of [height, width, 1 or 3] uint8 pixels: the JPEG's bytes."""
    image_module = pillow()
    height, width, components = pixels.shape
    if width <= 0 or height <= 0 or width * height >= 1 << 29:
        raise CodecError("JPEG encoding failed")
    gray = components == 1
    image = image_module.fromarray(np.ascontiguousarray(pixels[..., 0] if gray else pixels),
                                   "L" if gray else "RGB")
    out = io.BytesIO()
    image.save(out, "JPEG", quality=int(quality), progressive=bool(progressive),
               optimize=bool(optimize_size),
               subsampling=2 if chroma_downsampling and not gray else 0)
    encoded = bytearray(out.getvalue())
    # The JFIF APP0 segment libjpeg writes: SOI, FFE0, length, "JFIF\0", version, then units
    # and densities (bytes 13 to 17).
    encoded[13] = density_unit
    encoded[14:18] = int(x_density).to_bytes(2, "big") + int(y_density).to_bytes(2, "big")
    if xmp_metadata:
        payload = b"http://ns.adobe.com/xap/1.0/\0" + xmp_metadata
        segment = b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload
        app0_end = 4 + int.from_bytes(encoded[4:6], "big")
        encoded[app0_end:app0_end] = segment
    return bytes(encoded)
