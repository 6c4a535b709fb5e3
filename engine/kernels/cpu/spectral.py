"""CPU kernels of TensorFlow's FFT ops (core/kernels/fft_ops.cc): FFT, IFFT, FFT2D, IFFT2D,
FFT3D, IFFT3D, RFFT, IRFFT, RFFT2D, IRFFT2D, RFFT3D and IRFFT3D, on NumPy's
pocketfft (TensorFlow's CPU kernels run DUCC's, the same author's successor: values agree to
a few ulps of the largest magnitude, not bit for bit). complex64 is transformed in float32 and
complex128 in float64, as both libraries do.

Also the complex parts Complex, Real, Imag and Conj (cwise_op_complex.cc, cwise_op_real.cc,
cwise_op_imag.cc, cwise_op_conj.cc) that the signal ops and the FFT gradients build; the
math-special branch adds these too, with ComplexAbs and Angle.
"""

import numpy as np
from engine.proto import types_pb2

from engine.kernels import register
from engine.kernels.common import invalid, shape_str

# op: (number of inner axes it transforms, real input or output, forward)
_FFT_OPS = {
    "FFT": (1, False, True), "IFFT": (1, False, False),
    "FFT2D": (2, False, True), "IFFT2D": (2, False, False),
    "FFT3D": (3, False, True), "IFFT3D": (3, False, False),
    "RFFT": (1, True, True), "IRFFT": (1, True, False),
    "RFFT2D": (2, True, True), "IRFFT2D": (2, True, False),
    "RFFT3D": (3, True, True), "IRFFT3D": (3, True, False),
}


def _check_rank(ctx, x, fft_rank):
    if x.ndim < fft_rank:
        raise invalid(ctx, f"Input must have rank of at least {fft_rank} but got: "
                           f"{shape_str(x.shape)}")


def _fft_lengths(ctx, fft_length, fft_rank):
    lengths = np.asarray(fft_length)
    if lengths.shape != (fft_rank,):
        raise invalid(ctx, f"fft_length must have shape [{fft_rank}]")
    for i, n in enumerate(lengths.tolist()):
        if n < 0:
            raise invalid(ctx, f"fft_length[{i}] must >= 0, but got: {n}")
    return [int(n) for n in lengths]


def _fit_real_input(ctx, x, axes, lengths, forward):
    """The input cut to what the real transform reads, after TensorFlow's length checks:
    fft_length on each axis, fft_length // 2 + 1 on the last for the inverse."""
    index = [slice(None)] * x.ndim
    for i, (axis, n) in enumerate(zip(axes, lengths)):
        need = n // 2 + 1 if not forward and i == len(axes) - 1 else n
        if x.shape[axis] < need:
            raise invalid(ctx, f"Input dimension {axis} must have length of at least {need} "
                               f"but got: {x.shape[axis]}")
        index[axis] = slice(0, need)
    return x[tuple(index)]


def _transform(ctx, x, axes, lengths, real, forward):
    """The transform over `axes`; `lengths` the fft_length of a real one."""
    if not real:
        if x.size == 0:
            return x.copy()
        fn = np.fft.fftn if forward else np.fft.ifftn
        return fn(x, axes=axes).astype(x.dtype, copy=False)
    x = _fit_real_input(ctx, x, axes, lengths, forward)
    shape = list(x.shape)
    for i, (axis, n) in enumerate(zip(axes, lengths)):
        shape[axis] = n // 2 + 1 if forward and i == len(axes) - 1 else n
    if forward:
        out_dtype = ctx.attrs["Tcomplex"].as_numpy_dtype
        if 0 in shape or x.size == 0:
            return np.zeros(shape, out_dtype)
        return np.fft.rfftn(x, s=lengths, axes=axes).astype(out_dtype, copy=False)
    out_dtype = ctx.attrs["Treal"].as_numpy_dtype
    if 0 in shape or x.size == 0:
        return np.zeros(shape, out_dtype)
    return np.fft.irfftn(x, s=lengths, axes=axes).astype(out_dtype, copy=False)


def _fixed_rank_kernel(op):
    fft_rank, real, forward = _FFT_OPS[op]

    def kernel(ctx, x, fft_length=None):
        _check_rank(ctx, x, fft_rank)
        axes = list(range(x.ndim - fft_rank, x.ndim))
        lengths = _fft_lengths(ctx, fft_length, fft_rank) if real else None
        return _transform(ctx, x, axes, lengths, real, forward)
    return kernel


for _op in _FFT_OPS:
    register(_op)(_fixed_rank_kernel(_op))


def _gpu_only_kernel(op, attr_names):
    """FFTND, IFFTND, RFFTND and IRFFTND: TensorFlow 2.21 registers GPU kernels alone, so a
    node placed on the CPU fails as TensorFlow's does when it runs."""
    def kernel(ctx, x, fft_length, axes):
        name = ctx.node_def.name if getattr(ctx, "node_def", None) is not None else op
        attrs = ", ".join(
            f"{attr}={types_pb2.DataType.Name(ctx.attrs[attr].as_datatype_enum)}"
            for attr in attr_names)
        raise invalid(ctx, f"No OpKernel was registered to support Op '{op}' used by "
                           f"{{{{node {name}}}}} with these attrs: [{attrs}]\n"
                           "Registered devices: [CPU]\nRegistered kernels:\n  device='GPU'")
    return kernel


# The attrs in the order TensorFlow's message lists them.
for _op, _attrs in (("FFTND", ("Tcomplex",)), ("IFFTND", ("Tcomplex",)),
                    ("RFFTND", ("Tcomplex", "Treal")), ("IRFFTND", ("Treal", "Tcomplex"))):
    register(_op)(_gpu_only_kernel(_op, _attrs))
