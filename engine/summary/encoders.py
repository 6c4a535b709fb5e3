"""PNG and WAV encoding for image and audio summaries (what TensorBoard decodes).

>>> png_bytes(np.zeros((1, 2, 1), np.uint8))[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
>>> wav_bytes(np.array([[0.0], [1.0], [-1.0]], np.float32), 8000)[40:]
b'\\x06\\x00\\x00\\x00\\x00\\x00\\xff\\x7f\\x00\\x80'
"""

import struct
import zlib

import numpy as np

_PNG_COLOR_TYPES = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> gray, gray+alpha, RGB, RGBA


def _chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def png_bytes(image):
    """An 8-bit PNG of a [height, width, channels] uint8 array (1 to 4 channels)."""
    height, width, channels = image.shape
    header = struct.pack(">IIBBBBB", width, height, 8, _PNG_COLOR_TYPES[channels], 0, 0, 0)
    rows = np.zeros((height, 1 + width * channels), np.uint8)  # column 0: filter type 0
    rows[:, 1:] = np.asarray(image, dtype=np.uint8).reshape(height, width * channels)
    raw = rows.tobytes()
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw, zlib.Z_DEFAULT_COMPRESSION))
            + _chunk(b"IEND", b""))


def float_to_int16(samples):
    """TensorFlow's FloatToInt16Sample: clip(roundf(x * 32768), -32768, 32767)."""
    scaled = np.round(np.asarray(samples, np.float32) * np.float32(32768.0))
    # roundf rounds halves away from zero; np.round to even. Fix the halves.
    exact = np.asarray(samples, np.float32) * np.float32(32768.0)
    halves = np.abs(exact - np.trunc(exact)) == 0.5
    scaled = np.where(halves, np.trunc(exact) + np.sign(exact), scaled)
    return np.clip(scaled, -32768, 32767).astype("<i2")


def wav_bytes(audio, sample_rate):
    """A 16-bit PCM WAV of [frames, channels] float samples in [-1, 1], as TensorFlow's."""
    frames, channels = audio.shape
    data = float_to_int16(audio).tobytes()
    rate = int(sample_rate)
    fmt = struct.pack("<HHIIHH", 1, channels, rate, rate * channels * 2, channels * 2, 16)
    return (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE"
            + b"fmt " + struct.pack("<I", 16) + fmt + b"data" + struct.pack("<I", len(data))
            + data)
