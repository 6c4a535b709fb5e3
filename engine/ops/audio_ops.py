"""tf.audio.decode_wav and tf.audio.encode_wav (gen_audio_ops): 16-bit PCM WAV files."""

from collections import namedtuple

from engine.ops.op_def_library import apply_op

DecodeWav = namedtuple("DecodeWav", ["audio", "sample_rate"])


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """(audio [samples, channels] float32 in [-1, 1), sample_rate int32) of a WAV file."""
    return DecodeWav(*apply_op("DecodeWav", contents=contents,
                               desired_channels=desired_channels,
                               desired_samples=desired_samples, name=name))


def encode_wav(audio, sample_rate, name=None):
    """A WAV file of float samples [samples, channels], as 16-bit PCM."""
    return apply_op("EncodeWav", audio=audio, sample_rate=sample_rate, name=name)
