"""tf.complex, tf.real, tf.imag and tf.conj as TensorFlow's math_ops builds them, with their
gradients (math_grad.py): what the signal ops (dct, stft) and the FFT gradients need.

The math-special branch adds these ops too (with ComplexAbs and Angle) and exports them;
this module does not export them, so that one of the two can be kept when they meet."""

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.ops import array_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import RegisterGradient
from engine.ops.math_grad import reduce_gradient_args
from engine.ops.op_def_library import apply_op


def complex(real, imag, name=None):  # noqa: A001  (TensorFlow's name)
    real = convert_to_tensor(real, name="real")
    imag = convert_to_tensor(imag, name="imag")
    with name_scope(name, "Complex", [real, imag]) as name:
        input_types = (real.dtype, imag.dtype)
        if input_types == (dtypes.float64, dtypes.float64):
            out = dtypes.complex128
        elif input_types == (dtypes.float32, dtypes.float32):
            out = dtypes.complex64
        else:
            raise TypeError(f"real and imag have incorrect types: {real.dtype.name} "
                            f"{imag.dtype.name}")
        return apply_op("Complex", real=real, imag=imag, Tout=out, name=name)


def real(input, name=None):  # noqa: A002
    with name_scope(name, "Real", [input]) as name:
        input = convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return apply_op("Real", input=input, Tout=input.dtype.real_dtype, name=name)
        if input.dtype.is_floating or input.dtype.is_integer:
            return input
        raise TypeError("input must be a numeric tensor, but got tensor with dtype "
                        f"{input.dtype}")


def imag(input, name=None):  # noqa: A002
    with name_scope(name, "Imag", [input]) as name:
        input = convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return apply_op("Imag", input=input, Tout=input.dtype.real_dtype, name=name)
        return array_ops.zeros_like(input)


def conj(x, name=None):
    if isinstance(x, Tensor) and (x.dtype.is_floating or x.dtype.is_integer):
        return x
    with name_scope(name, "Conj", [x]) as name:
        x = convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            return apply_op("Conj", input=x, name=name)
        if x.dtype.is_floating or x.dtype.is_integer:
            return x
        raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}")


@RegisterGradient("Complex")
def _complex_grad(op, grad):
    x, y = op.inputs
    return reduce_gradient_args(x, y, real(grad), imag(grad))


@RegisterGradient("Real")
def _real_grad(_, grad):
    zero = constant(0, dtype=grad.dtype)
    return complex(grad, zero)


@RegisterGradient("Imag")
def _imag_grad(_, grad):
    zero = constant(0, dtype=grad.dtype)
    return complex(zero, grad)


@RegisterGradient("Conj")
def _conj_grad(_, grad):
    return conj(grad)
