"""The FFT ops as TensorFlow 2.21 builds them (python/ops/signal/fft_ops.py): tf.fft, tf.ifft,
tf.fft2d ... the raw ops; tf.signal.rfft/irfft (2d, 3d) inferring and padding to fft_length; fftshift and ifftshift
through Roll; tf.fftnd (the raw op) and tf.signal.fftnd, ifftnd, rfftnd, irfftnd with their
fft_length, axes and norm. TensorFlow 2.21 has CPU kernels for none of FFTND, IFFTND, RFFTND
and IRFFTND (cuFFT's alone): their nodes build, and fail when they run, as TensorFlow's do."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor_util import constant_value, constant_value_as_shape
from engine.ops import array_ops, math_ops
from engine.ops.array_ops import rank, shape, zeros, zeros_like
from engine.ops.convert import convert_to_tensor
from engine.ops.manip_ops import roll
from engine.ops.op_def_library import apply_op


def _raw(op):
    def fn(input, name=None):  # noqa: A002
        return apply_op(op, input=input, name=name)
    fn.__name__ = op.lower()
    return fn


fft, ifft = _raw("FFT"), _raw("IFFT")
fft2d, ifft2d = _raw("FFT2D"), _raw("IFFT2D")
fft3d, ifft3d = _raw("FFT3D"), _raw("IFFT3D")


def _infer_fft_length_for_rfft(input_tensor, fft_rank):
    fft_shape = input_tensor.get_shape()[-fft_rank:]
    if not fft_shape.is_fully_defined():
        return shape(input_tensor)[-fft_rank:]
    return convert_to_tensor(fft_shape.as_list(), dtypes.int32)


def _infer_fft_length_for_irfft(input_tensor, fft_rank):
    fft_shape = input_tensor.get_shape()[-fft_rank:]
    if not fft_shape.is_fully_defined():
        fft_length = array_ops.unstack(shape(input_tensor)[-fft_rank:])
        fft_length[-1] = math_ops.maximum(0, 2 * (fft_length[-1] - 1))
        return array_ops.stack(fft_length)
    fft_length = fft_shape.as_list()
    if fft_length:
        fft_length[-1] = max(0, 2 * (fft_length[-1] - 1))
    return convert_to_tensor(fft_length, dtypes.int32)


def _maybe_pad_for_rfft(input_tensor, fft_rank, fft_length, is_reverse=False):
    """Pads `input_tensor` to `fft_length` on its inner `fft_rank` dimensions."""
    fft_shape = constant_value_as_shape(fft_length)
    if input_tensor.shape.ndims is not None and any(
            dim.value == 0 for dim in input_tensor.shape.dims):
        return input_tensor
    if fft_shape.is_fully_defined() and input_tensor.shape.ndims is not None:
        input_fft_shape = input_tensor.shape[-fft_shape.ndims:]
        if input_fft_shape.is_fully_defined():
            lengths = fft_shape.as_list()
            if is_reverse:
                lengths[-1] = lengths[-1] // 2 + 1
            paddings = [[0, max(fft_dim - input_dim, 0)] for fft_dim, input_dim in
                        zip(lengths, input_fft_shape.as_list())]
            if any(pad > 0 for _, pad in paddings):
                outer_paddings = [[0, 0]] * max(input_tensor.shape.ndims - fft_shape.ndims, 0)
                return array_ops.pad(input_tensor, outer_paddings + paddings)
            return input_tensor
    input_rank = rank(input_tensor)
    input_fft_shape = shape(input_tensor)[-fft_rank:]
    outer_dims = math_ops.maximum(0, input_rank - fft_rank)
    outer_paddings = zeros([outer_dims], fft_length.dtype)
    if is_reverse:
        fft_length = array_ops.concat([fft_length[:-1], fft_length[-1:] // 2 + 1], 0)
    fft_paddings = math_ops.maximum(0, fft_length - input_fft_shape)
    paddings = array_ops.concat([outer_paddings, fft_paddings], 0)
    paddings = array_ops.stack([zeros_like(paddings), paddings], axis=1)
    return array_ops.pad(input_tensor, paddings)


def _real_input(input_tensor):
    input_tensor = convert_to_tensor(input_tensor, preferred_dtype=dtypes.float32)
    if input_tensor.dtype not in (dtypes.float32, dtypes.float64):
        raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {input_tensor}")
    complex_dtype = dtypes.complex64 if input_tensor.dtype == dtypes.float32 \
        else dtypes.complex128
    return input_tensor, complex_dtype


def _complex_input(input_tensor, fft_rank):
    input_tensor = convert_to_tensor(input_tensor, preferred_dtype=dtypes.complex64)
    input_tensor.shape.with_rank_at_least(fft_rank)
    if input_tensor.dtype not in (dtypes.complex64, dtypes.complex128):
        raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: "
                         f"{input_tensor}")
    return input_tensor


def _static_or_tensor(fft_length):
    static = constant_value(fft_length)
    return fft_length if static is None else static


def _rfft_wrapper(op, fft_rank, default_name):
    def _rfft(input_tensor, fft_length=None, name=None):
        with name_scope(name, default_name, [input_tensor, fft_length]) as name:
            input_tensor, complex_dtype = _real_input(input_tensor)
            input_tensor.shape.with_rank_at_least(fft_rank)
            if fft_length is None:
                fft_length = _infer_fft_length_for_rfft(input_tensor, fft_rank)
            else:
                fft_length = convert_to_tensor(fft_length, dtypes.int32)
            input_tensor = _maybe_pad_for_rfft(input_tensor, fft_rank, fft_length)
            return apply_op(op, input=input_tensor, fft_length=_static_or_tensor(fft_length),
                            Tcomplex=complex_dtype, name=name)
    _rfft.__name__ = default_name
    return _rfft


def _irfft_wrapper(op, fft_rank, default_name):
    def _irfft(input_tensor, fft_length=None, name=None):
        with name_scope(name, default_name, [input_tensor, fft_length]) as name:
            input_tensor = _complex_input(input_tensor, fft_rank)
            if fft_length is None:
                fft_length = _infer_fft_length_for_irfft(input_tensor, fft_rank)
            else:
                fft_length = convert_to_tensor(fft_length, dtypes.int32)
            input_tensor = _maybe_pad_for_rfft(input_tensor, fft_rank, fft_length,
                                               is_reverse=True)
            return apply_op(op, input=input_tensor, fft_length=_static_or_tensor(fft_length),
                            Treal=input_tensor.dtype.real_dtype, name=name)
    _irfft.__name__ = default_name
    return _irfft


rfft = _rfft_wrapper("RFFT", 1, "rfft")
irfft = _irfft_wrapper("IRFFT", 1, "irfft")
rfft2d = _rfft_wrapper("RFFT2D", 2, "rfft2d")
irfft2d = _irfft_wrapper("IRFFT2D", 2, "irfft2d")
rfft3d = _rfft_wrapper("RFFT3D", 3, "rfft3d")
irfft3d = _irfft_wrapper("IRFFT3D", 3, "irfft3d")


def _shift(x, axes, name, default_name, sign):
    with name_scope(name, default_name) as name:
        x = convert_to_tensor(x)
        if axes is None:
            axes = tuple(range(x.shape.ndims))
            shift = shape(x) // 2
        elif isinstance(axes, int):
            shift = shape(x)[axes] // 2
        else:
            x_rank = rank(x)
            axes = array_ops.where(math_ops.less(axes, 0), axes + x_rank, axes)
            shift = array_ops.gather(shape(x), axes) // 2
        return roll(x, -shift if sign < 0 else shift, axes, name)


def fftshift(x, axes=None, name=None):
    return _shift(x, axes, name, "fftshift", 1)


def ifftshift(x, axes=None, name=None):
    return _shift(x, axes, name, "ifftshift", -1)


def _nd_raw(op):
    def fn(input, fft_length, axes, name=None):  # noqa: A002
        return apply_op(op, input=input, fft_length=fft_length, axes=axes, name=name)
    fn.__name__ = op.lower()
    return fn


def _nd_axes(input_tensor, axes):
    if axes is None:
        return convert_to_tensor(np.arange(len(input_tensor.shape)), dtypes.int32)
    return convert_to_tensor(axes, dtypes.int32)


def _nd_scaled(input_tensor, fft_length, norm, forward):
    """The input scaled for norm="forward" or "ortho" as TensorFlow's wrappers do it: by the
    product of the (static) fft_length, divided going forward, multiplied going back."""
    if norm is None or norm == "backward":
        return input_tensor
    n = 1
    for length in fft_length:
        n *= length
    factor = n if norm == "forward" else np.sqrt(n)
    return input_tensor / factor if forward else input_tensor * factor


def _fftn_wrapper(op, default_name, real, forward):
    def _fftn(input_tensor, fft_length=None, axes=None, norm=None, name=None):
        values = [input_tensor, fft_length] if real and not forward else \
            [input_tensor, fft_length, axes]
        with name_scope(name, default_name, values) as name:
            axes = _nd_axes(input_tensor, axes)
            fft_rank = axes.shape[0]
            if real and forward:
                input_tensor, complex_dtype = _real_input(input_tensor)
            else:
                input_tensor = convert_to_tensor(input_tensor,
                                                 preferred_dtype=dtypes.complex64)
            input_tensor.shape.with_rank_at_least(fft_rank)
            if real and not forward and input_tensor.dtype not in (dtypes.complex64,
                                                                   dtypes.complex128):
                raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: "
                                 f"{input_tensor}")
            if fft_length is None:
                if real and not forward:
                    lengths = input_tensor.get_shape().as_list()
                    lengths[-1] = max(0, 2 * (lengths[-1] - 1))
                    fft_length = convert_to_tensor(lengths, dtypes.int32)
                else:
                    fft_length = shape(input_tensor)[-len(input_tensor.shape):]
            else:
                fft_length = convert_to_tensor(fft_length, dtypes.int32)
            input_tensor = _maybe_pad_for_rfft(input_tensor, fft_rank, fft_length,
                                               is_reverse=real and not forward)
            fft_length = _static_or_tensor(fft_length)
            input_tensor = _nd_scaled(input_tensor, fft_length, norm, forward)
            if real and forward:
                return apply_op(op, input=input_tensor, fft_length=fft_length, axes=axes,
                                Tcomplex=complex_dtype, name=name)
            if real:
                return apply_op(op, input=input_tensor, fft_length=fft_length, axes=axes,
                                Treal=input_tensor.dtype.real_dtype, name=name)
            return apply_op(op, input=input_tensor, fft_length=fft_length, axes=axes,
                            name=name)
    _fftn.__name__ = default_name
    return _fftn


fftnd_raw, ifftnd_raw = _nd_raw("FFTND"), _nd_raw("IFFTND")


def rfftnd_raw(input, fft_length, axes, Tcomplex=dtypes.complex64, name=None):  # noqa: A002,N803
    return apply_op("RFFTND", input=input, fft_length=fft_length, axes=axes,
                    Tcomplex=Tcomplex, name=name)


def irfftnd_raw(input, fft_length, axes, Treal=dtypes.float32, name=None):  # noqa: A002,N803
    return apply_op("IRFFTND", input=input, fft_length=fft_length, axes=axes, Treal=Treal,
                    name=name)


fftnd = _fftn_wrapper("FFTND", "fftnd", real=False, forward=True)
ifftnd = _fftn_wrapper("IFFTND", "ifftnd", real=False, forward=False)
rfftnd = _fftn_wrapper("RFFTND", "rfftnd", real=True, forward=True)
irfftnd = _fftn_wrapper("IRFFTND", "irfftnd", real=True, forward=False)
