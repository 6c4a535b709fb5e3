"""WAV encoding for audio summaries (what TensorBoard decodes); image summaries' PNGs are
EncodePng's (engine/kernels/cpu/png_codec.py).

>>> wav_bytes(np.array([[0.0], [1.0], [-1.0]], np.float32), 8000)[40:]
b'\\x06\\x00\\x00\\x00\\x00\\x00\\xff\\x7f\\x00\\x80'
"""

import struct

import numpy as np

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
