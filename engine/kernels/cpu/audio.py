"""CPU kernels of DecodeWav and EncodeWav: TensorFlow's 16-bit PCM WAV reader and writer
(core/lib/wav/wav_io.cc, core/kernels/decode_wav_op.cc, encode_wav_op.cc), with its checks
in its order and its error texts.

>>> audio = np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)
>>> wav = encode_s16le_wav(audio, 16000)
>>> wav[:4], len(wav)
(b'RIFF', 52)
>>> samples, channels, rate, values = decode_lin16_wav(wav)
>>> samples, channels, rate, values.tolist()
(2, 2, 16000, [0.5, -1.0, 0.999969482421875, 0.25])
"""

import struct

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str

_INT32_MAX = 2 ** 31 - 1


class _WavError(Exception):
    """A bad WAV file: TensorFlow's InvalidArgument text."""


def _increment(offset, increment, size):
    if offset < 0:
        raise _WavError(f"Negative offsets are not allowed: {offset}")
    if offset > size:
        raise _WavError(f"Initial offset is outside data range: {offset}")
    new_offset = offset + increment
    if new_offset > size:
        raise _WavError("Data too short when trying to read string")
    return new_offset


class _Reader:
    def __init__(self, data):
        self.data, self.offset = data, 0

    def text(self, count):
        end = _increment(self.offset, count, len(self.data))
        found = self.data[self.offset:end]
        self.offset = end
        return found

    def expect(self, expected):
        found = self.text(len(expected))
        if found != expected:
            raise _WavError(f"Header mismatch: Expected {expected.decode('latin-1')} but found "
                            f"{found.decode('latin-1')}")

    def value(self, fmt):
        return struct.unpack("<" + fmt, self.text(struct.calcsize(fmt)))[0]


def decode_lin16_wav(data):
    """(samples, channels, sample rate, the float values sample by sample) of a WAV file."""
    reader = _Reader(data)
    reader.expect(b"RIFF")
    reader.value("I")  # the file's size, unchecked as TensorFlow leaves it
    reader.expect(b"WAVE")
    reader.text(4)  # the format chunk's id, unchecked too
    format_size = reader.value("I")
    if format_size not in (16, 18):
        raise _WavError("Bad format chunk size for WAV: Expected 16 or 18, but got"
                        f"{format_size}")
    audio_format = reader.value("H")
    if audio_format != 1:
        raise _WavError(f"Bad audio format for WAV: Expected 1 (PCM), but got{audio_format}")
    channels = reader.value("H")
    if channels < 1:
        raise _WavError(f"Bad number of channels for WAV: Expected at least 1, but got "
                        f"{channels}")
    sample_rate = reader.value("I")
    bytes_per_second = reader.value("I")
    bytes_per_sample = reader.value("H")
    bits_per_sample = reader.value("H")
    if bits_per_sample != 16:
        raise _WavError(f"Can only read 16-bit WAV files, but received {bits_per_sample}")
    expected_bytes_per_sample = (bits_per_sample * channels + 7) // 8
    if bytes_per_sample != expected_bytes_per_sample:
        raise _WavError(f"Bad bytes per sample in WAV header: Expected "
                        f"{expected_bytes_per_sample} but got {bytes_per_sample}")
    if bytes_per_second != bytes_per_sample * sample_rate:
        raise _WavError(f"Bad bytes per second in WAV header: Expected "
                        f"{bytes_per_sample * sample_rate} but got {bytes_per_second} "
                        f"(sample_rate={sample_rate}, bytes_per_sample={bytes_per_sample})")
    if format_size == 18:
        reader.offset += 2  # the unused extension size
    values, samples = None, 0
    while reader.offset < len(data):
        chunk_id = reader.text(4)
        chunk_size = reader.value("I")
        if chunk_size > _INT32_MAX:
            raise _WavError(f"WAV data chunk '{chunk_id.decode('latin-1')}' is too large: "
                            f"{chunk_size} bytes, but the limit is {_INT32_MAX}")
        if chunk_id != b"data":
            # TensorFlow's offset is a C int: a chunk past 2 GiB wraps it negative.
            reader.offset = (reader.offset + chunk_size + 2 ** 31) % 2 ** 32 - 2 ** 31
            continue
        if values is not None:
            raise _WavError("More than one data chunk found in WAV")
        samples = chunk_size // bytes_per_sample
        count = (samples * channels) % 2 ** 32
        end = _increment(reader.offset, 2 * count, len(data))
        raw = np.frombuffer(data, dtype="<i2", count=count, offset=reader.offset)
        values = raw.astype(np.float32) * np.float32(1.0 / 32768)
        reader.offset = end
    if values is None:
        raise _WavError("No data chunk found in WAV")
    return samples, channels, sample_rate, values


def encode_s16le_wav(audio, sample_rate):
    """A 16-bit PCM WAV file of float samples [frames, channels], rounded and clipped."""
    frames, channels = audio.shape
    scaled = audio.astype(np.float32) * np.float32(32768)
    whole = np.trunc(scaled)  # roundf: halves away from zero
    scaled = np.where(np.abs(scaled - whole) >= 0.5, whole + np.sign(scaled), whole)
    pcm = np.clip(scaled, -32768, 32767).astype("<i2").tobytes()
    bytes_per_frame = 2 * channels
    header = b"".join((b"RIFF", struct.pack("<I", 36 + len(pcm)), b"WAVE", b"fmt ",
                       struct.pack("<IHHIIHH", 16, 1, channels, sample_rate,
                                   sample_rate * bytes_per_frame, bytes_per_frame, 16),
                       b"data", struct.pack("<I", len(pcm))))
    return header + pcm


@register("DecodeWav")
def decode_wav(ctx, contents):
    if np.ndim(contents) != 0:
        raise invalid(ctx, f"contents must be scalar, got shape {shape_str(np.shape(contents))}")
    data = contents.item() if isinstance(contents, np.ndarray) else contents
    try:
        samples, channels, sample_rate, values = decode_lin16_wav(bytes(data))
    except _WavError as error:
        raise invalid(ctx, str(error)) from None
    want_samples = ctx.attrs.get("desired_samples", -1)
    want_channels = ctx.attrs.get("desired_channels", -1)
    out_samples = samples if want_samples == -1 else want_samples
    out_channels = channels if want_channels == -1 else want_channels
    decoded = values.reshape(samples, channels)
    source = np.minimum(np.arange(out_channels), channels - 1)
    audio = np.zeros((out_samples, out_channels), np.float32)
    kept = min(out_samples, samples)
    audio[:kept] = decoded[:kept][:, source]
    return audio, np.array(sample_rate, np.int32)


@register("EncodeWav")
def encode_wav(ctx, audio, sample_rate):
    if np.ndim(sample_rate) != 0:
        raise invalid(ctx, f"Input sample_rate should be a scalar tensor, got "
                           f"{shape_str(np.shape(sample_rate))} instead.")
    if audio.ndim != 2:
        raise invalid(ctx, f"audio must be 2-dimensional{shape_str(audio.shape)}")
    rate, (frames, channels) = int(sample_rate), audio.shape
    # wav_io.cc's EncodeAudioAsS16LEWav: an empty buffer of frames, then the rate as uint64.
    if audio.size == 0 and frames > 0:
        raise invalid(ctx, "audio is null")
    if not 0 < rate < 2 ** 32:
        raise invalid(ctx, f"sample_rate must be in (0, 2^32), got: {rate % 2 ** 64}")
    if not 0 < channels < 2 ** 16:
        raise invalid(ctx, f"num_channels must be in (0, 2^16), got: {channels}")
    return np.array(encode_s16le_wav(audio, rate), dtype=object)

