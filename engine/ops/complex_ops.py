"""Complex numbers and their parts, as TF 1.x builds them: tf.complex, tf.real, tf.imag,
tf.conj, tf.math.angle, tf.to_complex64 and tf.to_complex128."""

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.tensor import Tensor
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op


def complex(real, imag, name=None):  # noqa: A001  (TensorFlow's name)
    real = convert_to_tensor(real, name="real")
    imag = convert_to_tensor(imag, name="imag")
    with name_scope(name, "Complex", [real, imag]) as name:
        input_types = (real.dtype, imag.dtype)
        if input_types == (dtypes.float64, dtypes.float64):
            tout = dtypes.complex128
        elif input_types == (dtypes.float32, dtypes.float32):
            tout = dtypes.complex64
        else:
            raise TypeError(
                f"The `real` and `imag` components have incorrect types: {real.dtype.name} "
                f"{imag.dtype.name}. They must be consistent, and one of "
                f"{[dtypes.float32, dtypes.float64]}")
        return apply_op("Complex", real=real, imag=imag, Tout=tout, name=name)


def real(input, name=None):  # noqa: A002
    with name_scope(name, "Real", [input]) as name:
        input = convert_to_tensor(input, name="input")  # noqa: A001
        if input.dtype.is_complex:
            return apply_op("Real", input=input, Tout=input.dtype.real_dtype, name=name)
        if input.dtype.is_numeric:
            return input
        raise TypeError(f"input must be a numeric tensor, but got tensor with dtype "
                        f"{input.dtype}")


def imag(input, name=None):  # noqa: A002
    with name_scope(name, "Imag", [input]) as name:
        input = convert_to_tensor(input, name="input")  # noqa: A001
        if input.dtype.is_complex:
            return apply_op("Imag", input=input, Tout=input.dtype.real_dtype, name=name)
        return array_ops.zeros_like(input)


def angle(input, name=None):  # noqa: A002
    with name_scope(name, "Angle", [input]) as name:
        input = convert_to_tensor(input, name="input")  # noqa: A001
        if input.dtype.is_complex:
            return apply_op("Angle", input=input, Tout=input.dtype.real_dtype, name=name)
        return array_ops.where(input < 0, np.pi * array_ops.ones_like(input),
                               array_ops.zeros_like(input))


def conj(x, name=None):
    if isinstance(x, Tensor) and (x.dtype.is_floating or x.dtype.is_integer):
        return x
    with name_scope(name, "Conj", [x]) as name:
        x = convert_to_tensor(x, name="x")
        if x.dtype.is_complex or x.dtype == dtypes.variant:
            return apply_op("Conj", input=x, name=name)
        if x.dtype.is_floating or x.dtype.is_integer:
            return x
        raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")


to_complex64 = math_ops.to_complex64
to_complex128 = math_ops._cast_fn(dtypes.complex128, "ToComplex128")
