"""tf.signal's transforms built on the FFT ops as TensorFlow 2.21 builds them (python/ops/
signal/dct_ops.py, spectral_ops.py, mel_ops.py, mfcc_ops.py): dct, idct, stft, inverse_stft,
inverse_stft_window_fn, mdct, inverse_mdct, linear_to_mel_weight_matrix,
mfccs_from_log_mel_spectrograms."""

import math

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, fft_ops, math_ops, signal_ops
from engine.ops.cast import cast
from engine.ops.complex_ops import complex as complex_, real
from engine.ops.constant_op import constant
from engine.ops.control_flow.cond import cond
from engine.ops.convert import convert_to_tensor
from engine.ops.segment_ops import linspace


def _validate_dct_arguments(input_tensor, dct_type, n, axis, norm):
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        shape = input_tensor.shape.as_list() if isinstance(input_tensor, Tensor) \
            and input_tensor.shape.ndims is not None else list(np.shape(input_tensor))
        last = shape[-1] if shape else None
        if last is not None and last < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The DCT of types I-IV along the last axis, through an RFFT."""
    _validate_dct_arguments(input, type, n, axis, norm)
    return _dct_internal(input, type, n, axis, norm, name)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    _validate_dct_arguments(input, type, n, axis, norm)
    inverse_type = {1: 1, 2: 3, 3: 2, 4: 4}[type]
    return _dct_internal(input, type=inverse_type, n=n, axis=axis, norm=norm, name=name)


def _last_dim(tensor):
    static = tensor.shape[-1].value if tensor.shape.ndims else None
    return static or array_ops.shape(tensor)[-1]


def _smart_cond(pred, true_fn, false_fn):
    if isinstance(pred, Tensor):
        static = constant_value(pred)
        if static is None:
            return cond(pred, true_fn, false_fn)
        pred = bool(static)
    return true_fn() if pred else false_fn()


def _dct_internal(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    with name_scope(name, "dct", [input]):
        input = convert_to_tensor(input)
        zero = convert_to_tensor(0.0, dtype=input.dtype)
        seq_len = _last_dim(input)
        if n is not None:
            def truncate_input():
                return input[..., 0:n]

            def pad_input():
                rank = len(input.shape)
                padding = [[0, 0] for _ in range(rank)]
                padding[rank - 1][1] = n - seq_len
                padding = convert_to_tensor(padding, dtype=dtypes.int32)
                return array_ops.pad(input, paddings=padding)
            input = _smart_cond(n <= seq_len, truncate_input, pad_input)
        axis_dim = _last_dim(input)
        axis_dim_float = cast(axis_dim, input.dtype)
        if type == 1:
            dct1_input = array_ops.concat([input, input[..., -2:0:-1]], axis=-1)
            return real(fft_ops.rfft(dct1_input))
        if type == 2:
            scale = 2.0 * math_ops.exp(complex_(
                zero, -math_ops.range(axis_dim_float) * math.pi * 0.5 / axis_dim_float))
            dct2 = real(fft_ops.rfft(input, fft_length=[2 * axis_dim])[..., :axis_dim] * scale)
            if norm == "ortho":
                n1 = 0.5 * math_ops.rsqrt(axis_dim_float)
                n2 = n1 * math.sqrt(2.0)
                weights = array_ops.pad(array_ops.expand_dims(n1, 0), [[0, axis_dim - 1]],
                                        constant_values=n2)
                dct2 *= weights
            return dct2
        if type == 3:
            if norm == "ortho":
                n1 = math_ops.sqrt(axis_dim_float)
                n2 = n1 * math.sqrt(0.5)
                weights = array_ops.pad(array_ops.expand_dims(n1, 0), [[0, axis_dim - 1]],
                                        constant_values=n2)
                input *= weights
            else:
                input *= axis_dim_float
            scale = 2.0 * math_ops.exp(complex_(
                zero, math_ops.range(axis_dim_float) * math.pi * 0.5 / axis_dim_float))
            dct3 = real(fft_ops.irfft(scale * complex_(input, zero),
                                      fft_length=[2 * axis_dim]))[..., :axis_dim]
            return dct3
        dct2 = _dct_internal(input, type=2, n=2 * axis_dim, axis=axis, norm=None)
        dct4 = dct2[..., 1::2]
        if norm == "ortho":
            dct4 *= math.sqrt(0.5) * math_ops.rsqrt(axis_dim_float)
        return dct4


def _enclosing_power_of_two(value):
    value_static = constant_value(value)
    if value_static is not None:
        return constant(int(2 ** np.ceil(np.log(value_static) / np.log(2.0))), value.dtype)
    return cast(math_ops.pow(2.0, math_ops.ceil(
        math_ops.log(cast(value, dtypes.float32)) / math_ops.log(2.0))), value.dtype)


def stft(signals, frame_length, frame_step, fft_length=None,
         window_fn=signal_ops.hann_window, pad_end=False, name=None):
    with name_scope(name, "stft", [signals, frame_length, frame_step]):
        signals = convert_to_tensor(signals, name="signals")
        signals.shape.with_rank_at_least(1)
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_length.shape.assert_has_rank(0)
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        frame_step.shape.assert_has_rank(0)
        if fft_length is None:
            fft_length = _enclosing_power_of_two(frame_length)
        else:
            fft_length = convert_to_tensor(fft_length, name="fft_length")
        framed_signals = signal_ops.frame(signals, frame_length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            window = window_fn(frame_length, dtype=framed_signals.dtype)
            framed_signals *= window
        return fft_ops.rfft(framed_signals, [fft_length])


def inverse_stft_window_fn(frame_step, forward_window_fn=signal_ops.hann_window, name=None):
    """A window_fn for inverse_stft that undoes `forward_window_fn`'s overlapping frames."""
    def inverse_stft_window_fn_inner(frame_length, dtype):
        with name_scope(name, "inverse_stft_window_fn", [forward_window_fn]):
            frame_step_ = convert_to_tensor(frame_step, name="frame_step")
            frame_step_.shape.assert_has_rank(0)
            frame_length = convert_to_tensor(frame_length, name="frame_length")
            frame_length.shape.assert_has_rank(0)
            forward_window = forward_window_fn(frame_length, dtype=dtype)
            denom = math_ops.square(forward_window)
            overlaps = -(-frame_length // frame_step_)
            denom = array_ops.pad(denom, [(0, overlaps * frame_step_ - frame_length)])
            denom = array_ops.reshape(denom, [overlaps, frame_step_])
            denom = math_ops.reduce_sum(denom, 0, keepdims=True)
            denom = array_ops.tile(denom, [overlaps, 1])
            denom = array_ops.reshape(denom, [overlaps * frame_step_])
            denom = denom[:frame_length]
            return array_ops.where(math_ops.equal(denom, 0.0),
                                   array_ops.zeros_like(forward_window), forward_window / denom)
    return inverse_stft_window_fn_inner


def inverse_stft(stfts, frame_length, frame_step, fft_length=None,
                 window_fn=signal_ops.hann_window, name=None):
    with name_scope(name, "inverse_stft", [stfts]):
        stfts = convert_to_tensor(stfts, name="stfts")
        stfts.shape.with_rank_at_least(2)
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_length.shape.assert_has_rank(0)
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        frame_step.shape.assert_has_rank(0)
        if fft_length is None:
            fft_length = _enclosing_power_of_two(frame_length)
        else:
            fft_length = convert_to_tensor(fft_length, name="fft_length")
            fft_length.shape.assert_has_rank(0)
        real_frames = fft_ops.irfft(stfts, [fft_length])
        frame_length_static = constant_value(frame_length)
        ndims = real_frames.shape.ndims
        last = None if ndims is None else real_frames.shape.as_list()[-1]
        if frame_length_static is None or last is None:
            real_frames = real_frames[..., :frame_length]
            real_frames_rank = array_ops.rank(real_frames)
            real_frames_shape = array_ops.shape(real_frames)
            paddings = array_ops.concat([
                array_ops.zeros([real_frames_rank - 1, 2], dtype=frame_length.dtype),
                [[0, math_ops.maximum(0, frame_length - real_frames_shape[-1])]]], 0)
            real_frames = array_ops.pad(real_frames, paddings)
        elif last > frame_length_static:
            real_frames = real_frames[..., :int(frame_length_static)]
        elif last < frame_length_static:
            pad_amount = int(frame_length_static) - last
            real_frames = array_ops.pad(real_frames, [[0, 0]] * (ndims - 1) + [[0, pad_amount]])
        if frame_length_static is not None and real_frames.shape.ndims is not None:
            real_frames.set_shape([None] * (real_frames.shape.ndims - 1)
                                  + [int(frame_length_static)])
        if window_fn is not None:
            window = window_fn(frame_length, dtype=stfts.dtype.real_dtype)
            real_frames *= window
        return signal_ops.overlap_and_add(real_frames, frame_step)


def mdct(signals, frame_length, window_fn=signal_ops.vorbis_window, pad_end=False, norm=None,
         name=None):
    with name_scope(name, "mdct", [signals, frame_length]):
        signals = convert_to_tensor(signals, name="signals")
        signals.shape.with_rank_at_least(1)
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_length.shape.assert_has_rank(0)
        frame_length_static = constant_value(frame_length)
        if frame_length_static is not None:
            if frame_length_static % 4 != 0:
                raise ValueError("The frame length must be a multiple of 4.")
            frame_step = convert_to_tensor(int(frame_length_static) // 2,
                                           dtype=frame_length.dtype)
        else:
            frame_step = frame_length // 2
        framed_signals = signal_ops.frame(signals, frame_length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            window = window_fn(frame_length, dtype=framed_signals.dtype)
            framed_signals *= window
        else:
            framed_signals *= 1.0 / np.sqrt(2)
        split_frames = array_ops.split(framed_signals, 4, axis=-1)
        frame_firsthalf = -array_ops.reverse(split_frames[2], [-1]) - split_frames[3]
        frame_secondhalf = split_frames[0] - array_ops.reverse(split_frames[1], [-1])
        frames_rearranged = array_ops.concat((frame_firsthalf, frame_secondhalf), axis=-1)
        return dct(frames_rearranged, type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=signal_ops.vorbis_window, norm=None, name=None):
    with name_scope(name, "inverse_mdct", [mdcts]):
        mdcts = convert_to_tensor(mdcts, name="mdcts")
        mdcts.shape.with_rank_at_least(2)
        half_len = cast(mdcts.shape[-1].value, dtype=dtypes.int32)
        if norm is None:
            half_len_float = cast(half_len, dtype=mdcts.dtype)
            result_idct4 = 0.5 / half_len_float * dct(mdcts, type=4)
        elif norm == "ortho":
            result_idct4 = dct(mdcts, type=4, norm="ortho")
        split_result = array_ops.split(result_idct4, 2, axis=-1)
        real_frames = array_ops.concat((split_result[1],
                                        -array_ops.reverse(split_result[1], [-1]),
                                        -array_ops.reverse(split_result[0], [-1]),
                                        -split_result[0]), axis=-1)
        if window_fn is not None:
            window = window_fn(2 * half_len, dtype=mdcts.dtype)
            real_frames *= window
        else:
            real_frames *= 1.0 / np.sqrt(2)
        return signal_ops.overlap_and_add(real_frames, half_len)


_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(frequencies_hertz, name=None):
    with name_scope(name, "hertz_to_mel", [frequencies_hertz]):
        frequencies_hertz = convert_to_tensor(frequencies_hertz)
        return _MEL_HIGH_FREQUENCY_Q * math_ops.log(
            1.0 + frequencies_hertz / _MEL_BREAK_FREQUENCY_HERTZ)


def _validate_mel_arguments(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz,
                            dtype):
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz "
                         f"{upper_edge_hertz:.1f}")
    if not isinstance(sample_rate, Tensor):
        if sample_rate <= 0.0:
            raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency "
                             f"(sample_rate / 2). Got {upper_edge_hertz} for sample_rate: "
                             f"{sample_rate}")
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype}")


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None):
    """[num_spectrogram_bins, num_mel_bins] triangular filters, HTK's mel scale."""
    with name_scope(name, "linear_to_mel_weight_matrix") as name:
        if isinstance(sample_rate, Tensor):
            maybe_const_val = constant_value(sample_rate)
            if maybe_const_val is not None:
                sample_rate = maybe_const_val
        _validate_mel_arguments(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz,
                                dtype)
        sample_rate = cast(sample_rate, dtype, name="sample_rate")
        lower_edge_hertz = convert_to_tensor(lower_edge_hertz, dtype, name="lower_edge_hertz")
        upper_edge_hertz = convert_to_tensor(upper_edge_hertz, dtype, name="upper_edge_hertz")
        zero = convert_to_tensor(0.0, dtype)
        bands_to_zero = 1
        nyquist_hertz = sample_rate / 2.0
        linear_frequencies = linspace(zero, nyquist_hertz,
                                      num_spectrogram_bins)[bands_to_zero:]
        spectrogram_bins_mel = array_ops.expand_dims(_hertz_to_mel(linear_frequencies), 1)
        band_edges_mel = signal_ops.frame(
            linspace(_hertz_to_mel(lower_edge_hertz), _hertz_to_mel(upper_edge_hertz),
                     num_mel_bins + 2), frame_length=3, frame_step=1)
        lower_edge_mel, center_mel, upper_edge_mel = tuple(
            array_ops.reshape(t, [1, num_mel_bins])
            for t in array_ops.split(band_edges_mel, 3, axis=1))
        lower_slopes = (spectrogram_bins_mel - lower_edge_mel) / (center_mel - lower_edge_mel)
        upper_slopes = (upper_edge_mel - spectrogram_bins_mel) / (upper_edge_mel - center_mel)
        mel_weights_matrix = math_ops.maximum(zero, math_ops.minimum(lower_slopes,
                                                                     upper_slopes))
        return array_ops.pad(mel_weights_matrix, [[bands_to_zero, 0], [0, 0]], name=name)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    with name_scope(name, "mfccs_from_log_mel_spectrograms", [log_mel_spectrograms]):
        log_mel_spectrograms = convert_to_tensor(log_mel_spectrograms)
        shape = log_mel_spectrograms.shape
        if shape.ndims and shape.dims[-1].value is not None:
            num_mel_bins = shape.dims[-1].value
            if num_mel_bins == 0:
                raise ValueError(f"num_mel_bins must be positive. Got: {log_mel_spectrograms}")
        else:
            num_mel_bins = array_ops.shape(log_mel_spectrograms)[-1]
        dct2 = dct(log_mel_spectrograms, type=2)
        return dct2 * math_ops.rsqrt(cast(num_mel_bins, dct2.dtype) * 2.0)
