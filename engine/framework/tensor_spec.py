"""tf.TensorSpec: the dtype and shape of a tensor (a tf.function's input_signature), printed as
TensorFlow 2.21's tf.compat.v1 prints one (unknown dims as ?).

>>> TensorSpec([None, 3], "int32", name="ids")
TensorSpec(shape=(?, 3), dtype=tf.int32, name='ids')
"""

from engine.framework import dtypes
from engine.framework.tensor_shape import as_shape


class TensorSpec:
    """The dtype and shape a tf.function argument takes (tf.TensorSpec)."""

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name or tensor.op.name)

    def is_compatible_with(self, spec_or_tensor):
        return (self._dtype.is_compatible_with(spec_or_tensor.dtype)
                and self._shape.is_compatible_with(spec_or_tensor.shape))

    def __eq__(self, other):
        return (type(other) is type(self) and self._dtype == other._dtype
                and self._shape.as_list() == other._shape.as_list()
                if self._shape.ndims is not None and other._shape.ndims is not None
                else type(other) is type(self) and self._dtype == other._dtype
                and self._shape.ndims == other._shape.ndims and self._name == other._name)

    def __hash__(self):
        return hash((self._dtype, self._shape.ndims, self._name))

    def __repr__(self):
        name = "None" if self._name is None else repr(self._name)
        return f"TensorSpec(shape={_shape_text(self._shape)}, dtype=tf.{self._dtype.name}, " \
               f"name={name})"


def _shape_text(shape):
    if shape.ndims is None:
        return "<unknown>"
    dims = ["?" if d is None else str(d) for d in shape.as_list()]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"
