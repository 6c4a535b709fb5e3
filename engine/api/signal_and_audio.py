"""tf.signal, tf.spectral and tf.audio, and the FFT ops at the top level (tf.fft, tf.ifft,
tf.fft2d, tf.ifft2d, tf.fft3d, tf.ifft3d), as TensorFlow 1.x exports them. TensorFlow's other
names for the same functions (tf.spectral.fft is tf.signal.fft is tf.fft) come from
engine/api/aliases.py once one of them is bound here."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine.ops import audio_ops as _audio, fft_ops as _fft
from engine.ops import signal_ops as _signal_ops, spectral_ops as _spectral_ops
from engine.ops import fft_grad as _fft_grad  # noqa: F401  (registers gradients)

fft = _fft.fft
ifft = _fft.ifft
fft2d = _fft.fft2d
ifft2d = _fft.ifft2d
fft3d = _fft.fft3d
ifft3d = _fft.ifft3d

_SPECTRAL = ("rfft", "irfft", "rfft2d", "irfft2d", "rfft3d", "irfft3d")
spectral = _Namespace("tf.spectral", **{name: getattr(_fft, name) for name in _SPECTRAL},
                      dct=_spectral_ops.dct, idct=_spectral_ops.idct)
signal = _Namespace(
    "tf.signal",
    **{name: getattr(_fft, name) for name in _SPECTRAL + ("fftshift", "ifftshift")},
    **{name: getattr(_signal_ops, name) for name in (
        "frame", "overlap_and_add", "hann_window", "hamming_window", "kaiser_window",
        "kaiser_bessel_derived_window", "vorbis_window")},
    **{name: getattr(_spectral_ops, name) for name in (
        "dct", "idct", "stft", "inverse_stft", "inverse_stft_window_fn", "mdct",
        "inverse_mdct", "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms")})
audio = _Namespace("tf.audio", decode_wav=_audio.decode_wav, encode_wav=_audio.encode_wav)
