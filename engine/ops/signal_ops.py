"""tf.signal's framing and windows as TensorFlow 2.21 builds them (python/ops/signal/
shape_ops.py, reconstruction_ops.py, util_ops.py, window_ops.py): frame, overlap_and_add,
hann_window, hamming_window, kaiser_window, kaiser_bessel_derived_window, vorbis_window."""

import math

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, math_ops
from engine.ops.cast import cast
from engine.ops.constant_op import constant
from engine.ops.control_flow.cond import cond
from engine.ops.control_flow.while_loop import while_loop
from engine.ops.convert import convert_to_tensor
from engine.ops.nn_ops import relu
from engine.ops.special_math_ops import bessel_i0e


def floormod(x, y, name=None):
    """math_ops.floormod as TensorFlow 2.21 names it: a FloorMod node in scope "mod"."""
    with name_scope(name, "mod", [x, y]) as name:
        return math_ops.floormod(x, y, name=name)


def gcd(a, b, name=None):
    """The greatest common divisor: a constant when both are, else a while loop of mods."""
    with name_scope(name, "gcd", [a, b]):
        a = convert_to_tensor(a)
        b = convert_to_tensor(b)
        a.shape.assert_has_rank(0)
        b.shape.assert_has_rank(0)
        if not a.dtype.is_integer:
            raise ValueError(f"a must be an integer type. Got: {a.dtype}")
        if not b.dtype.is_integer:
            raise ValueError(f"b must be an integer type. Got: {b.dtype}")
        const_a, const_b = constant_value(a), constant_value(b)
        if const_a is not None and const_b is not None:
            return convert_to_tensor(math.gcd(int(const_a), int(const_b)))
        a, b = while_loop(lambda _, b: math_ops.greater(b, array_ops.zeros_like(b)),
                          lambda a, b: [b, floormod(a, b)], [a, b], back_prop=False)
        return a


def _infer_frame_shape(signal, frame_length, frame_step, pad_end, axis):
    frame_length = constant_value(frame_length)
    frame_step = constant_value(frame_step)
    axis = constant_value(axis)
    if signal.shape.ndims is None:
        return None
    if axis is None:
        return [None] * (signal.shape.ndims + 1)
    signal_shape = signal.shape.as_list()
    num_frames = None
    frame_axis = signal_shape[axis]
    outer_dimensions = signal_shape[:axis]
    inner_dimensions = signal_shape[axis:][1:]
    if signal_shape and frame_axis is not None:
        if frame_step is not None and pad_end:
            num_frames = max(0, -(-frame_axis // int(frame_step)))
        elif frame_step is not None and frame_length is not None:
            num_frames = max(0, (frame_axis - int(frame_length) + int(frame_step))
                             // int(frame_step))
    return outer_dimensions + [num_frames, None if frame_length is None else int(
        frame_length)] + inner_dimensions


def _maybe_constant(value):
    static = constant_value(value)
    return (static, True) if static is not None else (value, False)


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Frames of `frame_length` every `frame_step` samples along `axis` (a Gather of
    subframes of their gcd's length)."""
    with name_scope(name, "frame", [signal, frame_length, frame_step, pad_value]):
        signal = convert_to_tensor(signal, name="signal")
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        axis = convert_to_tensor(axis, name="axis")
        signal.shape.with_rank_at_least(1)
        frame_length.shape.assert_has_rank(0)
        frame_step.shape.assert_has_rank(0)
        axis.shape.assert_has_rank(0)
        result_shape = _infer_frame_shape(signal, frame_length, frame_step, pad_end, axis)
        signal_shape, signal_shape_is_static = _maybe_constant(array_ops.shape(signal))
        axis, axis_is_static = _maybe_constant(axis)
        if signal_shape_is_static and axis_is_static:
            axis = range(len(signal_shape))[int(axis)]
            outer_dimensions, length_samples, inner_dimensions = np.split(
                signal_shape, indices_or_sections=[axis, axis + 1])
            length_samples = length_samples.item()
        else:
            signal_rank = array_ops.rank(signal)
            axis = math_ops.range(signal_rank)[axis]
            outer_dimensions, length_samples, inner_dimensions = array_ops.split(
                signal_shape, [axis, 1, signal_rank - 1 - axis])
            length_samples = array_ops.reshape(length_samples, [])
        num_outer_dimensions = array_ops.size(outer_dimensions)
        num_inner_dimensions = array_ops.size(inner_dimensions)
        if pad_end:
            pad_value = convert_to_tensor(pad_value, signal.dtype)
            pad_value.shape.assert_has_rank(0)
            num_frames = -(-length_samples // frame_step)
            pad_samples = math_ops.maximum(
                0, frame_length + frame_step * (num_frames - 1) - length_samples)
            paddings = array_ops.concat([
                array_ops.zeros([num_outer_dimensions, 2], dtype=pad_samples.dtype),
                convert_to_tensor([[0, pad_samples]]),
                array_ops.zeros([num_inner_dimensions, 2], dtype=pad_samples.dtype)], 0)
            signal = array_ops.pad(signal, paddings, constant_values=pad_value)
            signal_shape = array_ops.shape(signal)
            length_samples = signal_shape[axis]
        else:
            num_frames = math_ops.maximum(constant(0, dtype=frame_length.dtype),
                                          1 + (length_samples - frame_length) // frame_step)
        subframe_length, _ = _maybe_constant(gcd(frame_length, frame_step))
        subframes_per_frame = frame_length // subframe_length
        subframes_per_hop = frame_step // subframe_length
        num_subframes = length_samples // subframe_length
        slice_shape = array_ops.concat(
            [outer_dimensions, [num_subframes * subframe_length], inner_dimensions], 0)
        subframe_shape = array_ops.concat(
            [outer_dimensions, [num_subframes, subframe_length], inner_dimensions], 0)
        subframes = array_ops.reshape(array_ops.strided_slice(
            signal, array_ops.zeros_like(signal_shape), slice_shape), subframe_shape)
        frame_selector = array_ops.reshape(
            math_ops.range(num_frames, dtype=frame_length.dtype) * subframes_per_hop,
            [num_frames, 1])
        subframe_selector = array_ops.reshape(
            math_ops.range(subframes_per_frame, dtype=frame_length.dtype),
            [1, subframes_per_frame])
        selector = frame_selector + subframe_selector
        outer_dimensions = convert_to_tensor(outer_dimensions)
        inner_dimensions = convert_to_tensor(inner_dimensions, dtype=outer_dimensions.dtype)
        mid_dimensions = convert_to_tensor([num_frames, frame_length],
                                           dtype=outer_dimensions.dtype)
        frames = array_ops.reshape(
            array_ops.gather(subframes, selector, axis=axis),
            array_ops.concat([outer_dimensions, mid_dimensions, inner_dimensions], 0))
        if result_shape:
            frames.set_shape(result_shape)
        return frames


def overlap_and_add(signal, frame_step, name=None):
    """Frames [..., frames, frame_length] summed back into [..., output_length] samples."""
    with name_scope(name, "overlap_and_add", [signal, frame_step]):
        signal = convert_to_tensor(signal, name="signal")
        signal.shape.with_rank_at_least(2)
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        frame_step.shape.assert_has_rank(0)
        if not frame_step.dtype.is_integer:
            raise ValueError(f"frame_step must be an integer. Got {frame_step.dtype}")
        frame_step, frame_step_is_static = _maybe_constant(frame_step)
        signal_shape, _ = _maybe_constant(array_ops.shape(signal))
        outer_dimensions = signal_shape[:-2]
        outer_rank, _ = _maybe_constant(array_ops.size(outer_dimensions))

        def full_shape(inner_shape):
            return array_ops.concat([outer_dimensions, inner_shape], 0)

        frame_length = signal_shape[-1]
        frames = signal_shape[-2]
        output_length = frame_length + frame_step * (frames - 1)
        if frame_step_is_static and signal.shape.dims is not None and \
                frame_step == signal.shape.dims[-1].value:
            return array_ops.reshape(signal, full_shape([output_length]), name="fast_path")
        segments = -(-frame_length // frame_step)
        paddings = [[0, segments], [0, segments * frame_step - frame_length]]
        outer_paddings = array_ops.zeros([outer_rank, 2], dtypes.int32)
        paddings = array_ops.concat([outer_paddings, paddings], 0)
        signal = array_ops.pad(signal, paddings)
        signal = array_ops.reshape(signal, full_shape([frames + segments, segments, frame_step]))
        perm = array_ops.concat([math_ops.range(outer_rank), outer_rank + [1, 0, 2]], 0)
        perm, _ = _maybe_constant(perm)
        signal = array_ops.transpose(signal, perm)
        signal = array_ops.reshape(signal, full_shape([(frames + segments) * segments,
                                                       frame_step]))
        signal = signal[..., :(frames + segments - 1) * segments, :]
        signal = array_ops.reshape(signal, full_shape([segments, frames + segments - 1,
                                                       frame_step]))
        signal = math_ops.reduce_sum(signal, -3)
        signal = array_ops.reshape(signal, full_shape([(frames + segments - 1) * frame_step]))
        return signal[..., :output_length]


def _check_params(window_length, dtype):
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    window_length = convert_to_tensor(window_length, dtype=dtypes.int32)
    window_length.shape.assert_has_rank(0)
    return window_length


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    with name_scope(name, "kaiser_window"):
        window_length = _check_params(window_length, dtype)
        if constant_value(window_length) == 1:
            return array_ops.ones([1], dtype=dtype)
        halflen_float = (cast(window_length, dtype=dtypes.float32) - 1.0) / 2.0
        arg = math_ops.range(-halflen_float, halflen_float + 0.1, dtype=dtypes.float32)
        arg = cast(arg, dtype=dtype)
        beta = cast(beta, dtype=dtype)
        one = cast(1.0, dtype=dtype)
        halflen_float = cast(halflen_float, dtype=dtype)
        num = beta * math_ops.sqrt(relu(one - math_ops.square(arg / halflen_float)))
        window = math_ops.exp(num - beta) * (bessel_i0e(num) / bessel_i0e(beta))
    return window


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    with name_scope(name, "kaiser_bessel_derived_window"):
        window_length = _check_params(window_length, dtype)
        halflen = window_length // 2
        kaiserw = kaiser_window(halflen + 1, beta, dtype=dtype)
        kaiserw_csum = math_ops.cumsum(kaiserw)
        halfw = math_ops.sqrt(kaiserw_csum[:-1] / kaiserw_csum[-1])
        window = array_ops.concat((halfw, halfw[::-1]), axis=0)
    return window


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    with name_scope(name, "vorbis_window"):
        window_length = _check_params(window_length, dtype)
        arg = cast(math_ops.range(window_length), dtype=dtype)
        window = math_ops.sin(np.pi / 2.0 * math_ops.pow(math_ops.sin(
            np.pi / cast(window_length, dtype=dtype) * (arg + 0.5)), 2.0))
    return window


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    return _raised_cosine_window(name, "hann_window", window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    return _raised_cosine_window(name, "hamming_window", window_length, periodic, dtype,
                                 0.54, 0.46)


def _raised_cosine_window(name, default_name, window_length, periodic, dtype, a, b):
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    with name_scope(name, default_name, [window_length, periodic]):
        window_length = convert_to_tensor(window_length, dtype=dtypes.int32,
                                          name="window_length")
        window_length.shape.assert_has_rank(0)
        window_length_const = constant_value(window_length)
        if window_length_const == 1:
            return array_ops.ones([1], dtype=dtype)
        periodic = cast(convert_to_tensor(periodic, dtype=dtypes.bool, name="periodic"),
                        dtypes.int32)
        periodic.shape.assert_has_rank(0)
        even = 1 - floormod(window_length, 2)
        n = cast(window_length + periodic * even - 1, dtype=dtype)
        count = cast(math_ops.range(window_length), dtype)
        cos_arg = constant(2 * np.pi, dtype=dtype) * count / n
        if window_length_const is not None:
            return cast(a - b * math_ops.cos(cos_arg), dtype=dtype)
        return cond(math_ops.equal(window_length, 1),
                    lambda: array_ops.ones([window_length], dtype=dtype),
                    lambda: cast(a - b * math_ops.cos(cos_arg), dtype=dtype))

