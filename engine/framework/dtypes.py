"""DType: TensorFlow's element types, with their DataType enum values and NumPy twins."""

import numpy as np

from engine.proto import types_pb2

_REF_OFFSET = 100  # DT_FLOAT_REF == DT_FLOAT + 100, for every type


class DType:
    """One element type, as tf.DType: `tf.float32`, `tf.int32_ref`, ...

    >>> float32.name, float32.as_datatype_enum, float32.as_numpy_dtype
    ('float32', 1, <class 'numpy.float32'>)
    >>> float32._as_ref.name, float32._as_ref.base_dtype == float32
    ('float32_ref', True)
    >>> as_dtype("int64") == int64, as_dtype(np.float64) == float64
    (True, True)
    """

    __slots__ = ("_enum",)

    def __init__(self, type_enum):
        self._enum = int(type_enum)

    @property
    def as_datatype_enum(self):
        return self._enum

    @property
    def _is_ref_dtype(self):
        return self._enum > _REF_OFFSET

    is_ref_dtype = _is_ref_dtype

    @property
    def base_dtype(self):
        return DType(self._enum - _REF_OFFSET) if self._is_ref_dtype else self

    @property
    def _as_ref(self):
        return self if self._is_ref_dtype else DType(self._enum + _REF_OFFSET)

    @property
    def name(self):
        base = _NAMES[self.base_dtype._enum]
        return base + "_ref" if self._is_ref_dtype else base

    @property
    def as_numpy_dtype(self):
        return _NUMPY[self.base_dtype._enum]

    @property
    def is_floating(self):
        return self.base_dtype._enum in _FLOATING

    @property
    def is_integer(self):
        return self.base_dtype._enum in _INTEGER

    @property
    def is_quantized(self):
        return self.base_dtype._enum in _QUANTIZED

    @property
    def is_complex(self):
        return self.base_dtype._enum in (types_pb2.DT_COMPLEX64, types_pb2.DT_COMPLEX128)

    @property
    def is_numeric(self):
        return self.is_integer or self.is_floating or self.is_complex

    @property
    def real_dtype(self):
        """A complex type's part type (complex64: float32); any other type itself."""
        base = self.base_dtype._enum
        if base == types_pb2.DT_COMPLEX64:
            return DType(types_pb2.DT_FLOAT)
        if base == types_pb2.DT_COMPLEX128:
            return DType(types_pb2.DT_DOUBLE)
        return self

    @property
    def is_bool(self):
        return self.base_dtype._enum == types_pb2.DT_BOOL

    @property
    def is_unsigned(self):
        return self.base_dtype._enum in (types_pb2.DT_UINT8, types_pb2.DT_UINT16,
                                          types_pb2.DT_UINT32, types_pb2.DT_UINT64)

    @property
    def is_numpy_compatible(self):
        return self.base_dtype._enum in _NUMPY

    @property
    def size(self):
        base = self.base_dtype._enum
        if base in (types_pb2.DT_STRING, types_pb2.DT_RESOURCE, types_pb2.DT_VARIANT):
            return 1
        return np.dtype(_NUMPY[base]).itemsize

    @property
    def min(self):
        if self.is_quantized:
            raise TypeError(f"Cannot find minimum value of {self} with quantized type "
                            f"{self.base_dtype}.")
        np_type = self.as_numpy_dtype
        return np.finfo(np_type).min if self.is_floating else np.iinfo(np_type).min

    @property
    def max(self):
        if self.is_quantized:
            raise TypeError(f"Cannot find maximum value of {self} with quantized type "
                            f"{self.base_dtype}.")
        np_type = self.as_numpy_dtype
        return np.finfo(np_type).max if self.is_floating else np.iinfo(np_type).max

    def is_compatible_with(self, other):
        other = as_dtype(other)
        return self._enum in (other._enum, other.base_dtype._enum)

    def __eq__(self, other):
        if other is None:
            return False
        if not isinstance(other, DType):
            try:
                other = as_dtype(other)
            except TypeError:
                return False
        return self._enum == other._enum

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return self._enum

    def __reduce__(self):
        return as_dtype, (self.name,)

    def __repr__(self):
        return f"tf.{self.name}"

    def __str__(self):
        return f"<dtype: {self.name!r}>"


_NAMES = {
    types_pb2.DT_FLOAT: "float32", types_pb2.DT_DOUBLE: "float64", types_pb2.DT_INT32: "int32",
    types_pb2.DT_UINT8: "uint8", types_pb2.DT_INT16: "int16", types_pb2.DT_INT8: "int8",
    types_pb2.DT_STRING: "string", types_pb2.DT_COMPLEX64: "complex64",
    types_pb2.DT_INT64: "int64", types_pb2.DT_BOOL: "bool", types_pb2.DT_QINT8: "qint8",
    types_pb2.DT_QUINT8: "quint8", types_pb2.DT_QINT32: "qint32",
    types_pb2.DT_BFLOAT16: "bfloat16", types_pb2.DT_QINT16: "qint16",
    types_pb2.DT_QUINT16: "quint16", types_pb2.DT_UINT16: "uint16",
    types_pb2.DT_COMPLEX128: "complex128", types_pb2.DT_HALF: "float16",
    types_pb2.DT_RESOURCE: "resource", types_pb2.DT_VARIANT: "variant",
    types_pb2.DT_UINT32: "uint32", types_pb2.DT_UINT64: "uint64",
}

_NUMPY = {
    types_pb2.DT_FLOAT: np.float32, types_pb2.DT_DOUBLE: np.float64,
    types_pb2.DT_INT32: np.int32, types_pb2.DT_UINT8: np.uint8, types_pb2.DT_INT16: np.int16,
    types_pb2.DT_INT8: np.int8, types_pb2.DT_STRING: np.object_,
    types_pb2.DT_COMPLEX64: np.complex64, types_pb2.DT_INT64: np.int64,
    types_pb2.DT_BOOL: np.bool_, types_pb2.DT_UINT16: np.uint16,
    types_pb2.DT_COMPLEX128: np.complex128, types_pb2.DT_HALF: np.float16,
    types_pb2.DT_UINT32: np.uint32, types_pb2.DT_UINT64: np.uint64,
    types_pb2.DT_RESOURCE: np.object_, types_pb2.DT_VARIANT: np.object_,
    # A quantized tensor is held (and fetched, as TensorFlow's session fetches it) as its
    # integer type.
    types_pb2.DT_QINT8: np.int8, types_pb2.DT_QUINT8: np.uint8, types_pb2.DT_QINT16: np.int16,
    types_pb2.DT_QUINT16: np.uint16, types_pb2.DT_QINT32: np.int32,
}

_QUANTIZED = {types_pb2.DT_QINT8, types_pb2.DT_QUINT8, types_pb2.DT_QINT16,
              types_pb2.DT_QUINT16, types_pb2.DT_QINT32}
_FLOATING = {types_pb2.DT_FLOAT, types_pb2.DT_DOUBLE, types_pb2.DT_HALF, types_pb2.DT_BFLOAT16}
_INTEGER = {types_pb2.DT_INT8, types_pb2.DT_INT16, types_pb2.DT_INT32, types_pb2.DT_INT64,
            types_pb2.DT_UINT8, types_pb2.DT_UINT16, types_pb2.DT_UINT32, types_pb2.DT_UINT64}

float16 = half = DType(types_pb2.DT_HALF)
float32 = DType(types_pb2.DT_FLOAT)
float64 = double = DType(types_pb2.DT_DOUBLE)
bfloat16 = DType(types_pb2.DT_BFLOAT16)
int8, int16 = DType(types_pb2.DT_INT8), DType(types_pb2.DT_INT16)
int32, int64 = DType(types_pb2.DT_INT32), DType(types_pb2.DT_INT64)
uint8, uint16 = DType(types_pb2.DT_UINT8), DType(types_pb2.DT_UINT16)
uint32, uint64 = DType(types_pb2.DT_UINT32), DType(types_pb2.DT_UINT64)
bool = DType(types_pb2.DT_BOOL)  # noqa: A001  (TensorFlow's name)
string = DType(types_pb2.DT_STRING)
complex64, complex128 = DType(types_pb2.DT_COMPLEX64), DType(types_pb2.DT_COMPLEX128)
qint8, quint8, qint32 = DType(types_pb2.DT_QINT8), DType(types_pb2.DT_QUINT8), DType(types_pb2.DT_QINT32)
qint16, quint16 = DType(types_pb2.DT_QINT16), DType(types_pb2.DT_QUINT16)
# TensorFlow's set: the quantized types and their reference types.
QUANTIZED_DTYPES = frozenset(DType(enum)._as_ref for enum in _QUANTIZED) | frozenset(
    DType(enum) for enum in _QUANTIZED)
resource, variant = DType(types_pb2.DT_RESOURCE), DType(types_pb2.DT_VARIANT)
float32_ref, float64_ref = float32._as_ref, float64._as_ref
int32_ref, int64_ref = int32._as_ref, int64._as_ref

_BY_NAME = {name: DType(enum) for enum, name in _NAMES.items()}
_BY_NAME.update({name + "_ref": dtype._as_ref for name, dtype in list(_BY_NAME.items())})
_BY_NAME.update({"half": float16, "double": float64, "float": float32})

_BY_NUMPY = {np.dtype(np.float32): float32, np.dtype(np.float64): float64,
             np.dtype(np.float16): float16, np.dtype(np.int8): int8, np.dtype(np.int16): int16,
             np.dtype(np.int32): int32, np.dtype(np.int64): int64, np.dtype(np.uint8): uint8,
             np.dtype(np.uint16): uint16, np.dtype(np.uint32): uint32,
             np.dtype(np.uint64): uint64, np.dtype(np.bool_): bool,
             np.dtype(np.complex64): complex64, np.dtype(np.complex128): complex128,
             np.dtype(np.object_): string}


def as_dtype(type_value):
    """A DType from a DType, a DataType enum value, a name, a NumPy type or a Python type."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        try:
            return _BY_NAME[type_value]
        except KeyError:
            raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.") from None
    if isinstance(type_value, int) and not isinstance(type_value, type(True)):
        if type_value in _NAMES or type_value - _REF_OFFSET in _NAMES:
            return DType(type_value)
        raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.")
    py_types = {float: float32, int: int32, type(True): bool, str: string, bytes: string,
                complex: complex128}
    if type_value in py_types:
        return py_types[type_value]
    try:
        np_dtype = np.dtype(type_value)
    except TypeError:
        raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.") from None
    if np_dtype.kind in "SU":
        return string
    try:
        return _BY_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.") from None


# A name TensorFlow has here and the engine lacks says so (engine/framework/api_namespace.py).
from engine.framework.api_namespace import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("tf.dtypes")
