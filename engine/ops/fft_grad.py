"""Gradients of the FFT ops, node for node as TensorFlow's fft_ops.py registers them: FFT,
IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D, RFFT, IRFFT, RFFT2D, IRFFT2D (TensorFlow has none for
RFFT3D, IRFFT3D and the FFTND family)."""

import numpy as np

from engine.framework import dtypes
from engine.framework.tensor_util import constant_value
from engine.ops import array_ops, math_ops
from engine.ops import fft_ops
from engine.ops.cast import cast
from engine.ops.complex_ops import conj, real
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.signal_ops import floormod


def _fft_size_for_grad(grad, rank):
    return math_ops.reduce_prod(array_ops.shape(grad)[-rank:])


def _complex_grad(inverse_fn, rank):
    def grad_fn(_, grad):
        size = cast(_fft_size_for_grad(grad, rank), grad.dtype)
        return inverse_fn(grad) * size
    return grad_fn


def _inverse_complex_grad(forward_fn, rank):
    def grad_fn(_, grad):
        rsize = cast(1. / cast(_fft_size_for_grad(grad, rank), grad.dtype.real_dtype),
                     grad.dtype)
        return forward_fn(grad) * rsize
    return grad_fn


for _rank, (_forward, _inverse, _fwd_fn, _inv_fn) in enumerate((
        ("FFT", "IFFT", fft_ops.fft, fft_ops.ifft),
        ("FFT2D", "IFFT2D", fft_ops.fft2d, fft_ops.ifft2d),
        ("FFT3D", "IFFT3D", fft_ops.fft3d, fft_ops.ifft3d)), start=1):
    RegisterGradient(_forward)(_complex_grad(_inv_fn, _rank))
    RegisterGradient(_inverse)(_inverse_complex_grad(_fwd_fn, _rank))


def _rfft_grad_helper(rank, irfft_fn):
    """IRFFT of the gradient, scaled, plus the terms Hermitian symmetry dropped."""
    def _grad(op, grad):
        fft_length = op.inputs[1]
        complex_dtype = grad.dtype
        real_dtype = complex_dtype.real_dtype
        input_shape = array_ops.shape(op.inputs[0])
        is_even = cast(1 - (fft_length[-1] % 2), complex_dtype)

        def _tile_for_broadcasting(matrix, t):
            expanded = array_ops.reshape(matrix, array_ops.concat([
                array_ops.ones([array_ops.rank(t) - 2], dtypes.int32),
                array_ops.shape(matrix)], 0))
            return array_ops.tile(expanded, array_ops.concat(
                [array_ops.shape(t)[:-2], [1, 1]], 0))

        def _mask_matrix(length):
            """t_n = exp(sqrt(-1) * pi * n^2 / line_len)."""
            a = array_ops.tile(array_ops.expand_dims(math_ops.range(length), 0), (length, 1))
            b = array_ops.transpose(a, [1, 0])
            return math_ops.exp(-2j * np.pi * cast(a * b, complex_dtype)
                                / cast(length, complex_dtype))

        def _ymask(length):
            return cast(1 - 2 * (math_ops.range(length) % 2), complex_dtype)

        y0 = grad[..., 0:1]
        if rank == 1:
            ym = grad[..., -1:]
            extra_terms = y0 + is_even * ym * _ymask(input_shape[-1])
        else:
            base_mask = _mask_matrix(input_shape[-2])
            tiled_mask = _tile_for_broadcasting(base_mask, y0)
            y0_term = math_ops.matmul(tiled_mask, conj(y0))
            extra_terms = y0_term
            ym = grad[..., -1:]
            ym_term = math_ops.matmul(tiled_mask, conj(ym))
            inner_dim = input_shape[-1]
            ym_term = array_ops.tile(ym_term, array_ops.concat([
                array_ops.ones([array_ops.rank(grad) - 1], dtypes.int32),
                [inner_dim]], 0)) * _ymask(inner_dim)
            extra_terms += is_even * ym_term
        input_size = cast(_fft_size_for_grad(op.inputs[0], rank), real_dtype)
        the_irfft = irfft_fn(grad, fft_length)
        return 0.5 * (the_irfft * input_size + real(extra_terms)), None
    return _grad


def _irfft_grad_helper(rank, rfft_fn):
    """RFFT of the gradient, scaled, with the Hermitian components counted twice."""
    def _grad(op, grad):
        fft_length = op.inputs[1]
        fft_length_static = constant_value(fft_length)
        if fft_length_static is not None:
            fft_length = fft_length_static
        real_dtype = grad.dtype
        complex_dtype = dtypes.complex64 if real_dtype == dtypes.float32 else dtypes.complex128
        is_odd = floormod(fft_length[-1], 2)
        input_last_dimension = array_ops.shape(op.inputs[0])[-1]
        mask = array_ops.concat([
            [1.0], 2.0 * array_ops.ones([input_last_dimension - 2 + is_odd], real_dtype),
            array_ops.ones([1 - is_odd], real_dtype)], 0)
        rsize = math_ops.reciprocal(cast(_fft_size_for_grad(grad, rank), real_dtype))
        the_rfft = rfft_fn(grad, fft_length)
        return the_rfft * cast(rsize * mask, complex_dtype), None
    return _grad


RegisterGradient("RFFT")(_rfft_grad_helper(1, fft_ops.irfft))
RegisterGradient("IRFFT")(_irfft_grad_helper(1, fft_ops.rfft))
RegisterGradient("RFFT2D")(_rfft_grad_helper(2, fft_ops.irfft2d))
RegisterGradient("IRFFT2D")(_irfft_grad_helper(2, fft_ops.rfft2d))
