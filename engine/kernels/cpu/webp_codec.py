"""WebP as TensorFlow's DecodeWebP (decode_image_op.cc's DecodeWebPV2) reads it, through
Pillow's libwebp: every file, still or animated, as frames [count, height, width, channels],
3 channels without alpha and 4 with (the header's has_alpha), an animation's frames as
WebPAnimDecoder composes them (Pillow's decoder is the same one). Pillow's pixels equal
TensorFlow's for lossy and lossless files (tests/engine/test_webp.py).

TensorFlow 2.21 crashes (free(): invalid size) on an animation without alpha, whose RGBA
canvases it copies into a 3-channel buffer; here its frames are RGB.
"""

import io

import numpy as np

from engine.kernels.cpu.jpeg_codec import MissingPillow

HEADER_FAILED = "Failed to decode WebP header."
IMAGE_FAILED = "Failed to decode WebP image."


class CodecError(Exception):
    """A WebP that cannot be read: TensorFlow's InvalidArgument words."""


def is_webp(data):
    """TensorFlow's magic: RIFF, a size, then WEBPVP8 (VP8 , VP8L or VP8X chunks).

    >>> is_webp(b"RIFF\\x10\\x00\\x00\\x00WEBPVP8L"), is_webp(b"RIFF\\x00\\x00\\x00\\x00WEBP")
    (True, False)
    """
    return data[:4] == b"RIFF" and data[8:15] == b"WEBPVP8"


def header_readable(data):
    r"""Whether libwebp's WebPGetFeatures would read the first chunk's header (a file cut
    after it fails later, as its image): VP8's frame tag and start code, VP8L's signature
    byte, or VP8X's flags and canvas size.

    >>> header_readable(b"RIFF\x10\x00\x00\x00WEBPVP8 xxxxxxxx")
    False
    """
    chunk, body = data[12:16], data[20:]
    if chunk == b"VP8 ":
        return len(body) >= 10 and body[3:6] == b"\x9d\x01\x2a"
    if chunk == b"VP8L":
        return len(body) >= 5 and body[0] == 0x2F
    return chunk == b"VP8X" and len(body) >= 10


def decode(data):
    """(frames as uint8 [count, height, width, channels])."""
    try:
        from PIL import Image, ImageSequence
    except ImportError:
        raise MissingPillow("WebP images need Pillow (pip install 'pillow>=10'), which is "
                            "not installed") from None
    try:
        image = Image.open(io.BytesIO(data), formats=["WEBP"])
    except Exception:  # noqa: BLE001  (Pillow's errors for a bad header vary)
        raise CodecError(IMAGE_FAILED if header_readable(data) else HEADER_FAILED) from None
    mode = "RGBA" if image.mode in ("RGBA", "LA", "PA") or "A" in image.mode else "RGB"
    try:
        frames = [np.asarray(frame.convert(mode)) for frame in ImageSequence.Iterator(image)]
    except Exception:  # noqa: BLE001
        raise CodecError(IMAGE_FAILED) from None
    return np.stack(frames).astype(np.uint8, copy=False)
