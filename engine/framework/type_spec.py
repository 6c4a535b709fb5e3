"""tf.TypeSpec and its kinds (TensorSpec, SparseTensorSpec, IndexedSlicesSpec, TensorArraySpec,
NoneTensorSpec, OptionalSpec; tf.data.DatasetSpec lives with the datasets), as TensorFlow's
type_spec.py defines them: a spec is its type and a tuple of serialized parts, and equality,
hashing, compatibility, the most specific common spec and repr all read that tuple.

>>> TensorSpec([2, None], name="x")
TensorSpec(shape=(2, ?), dtype=tf.float32, name='x')
>>> TensorSpec([2]).most_specific_compatible_type(TensorSpec([3]))
TensorSpec(shape=(?,), dtype=tf.float32, name=None)
>>> SparseTensorSpec([3], "int64")
SparseTensorSpec(TensorShape([Dimension(3)]), tf.int64)
"""

from engine.framework import dtypes
from engine.framework.tensor_shape import TensorShape, as_dimension


def _as_dtype(value):
    try:
        return dtypes.as_dtype(value)
    except TypeError:
        raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow "
                        f"DType.") from None


def as_spec_shape(dims):
    """TensorShape(dims) with TensorFlow's words for what is not a shape."""
    if isinstance(dims, TensorShape):
        return dims
    if dims is None:
        return TensorShape(None)
    try:
        items = list(dims)
    except TypeError:
        items = [dims]
    for item in items:
        try:
            as_dimension(item)
        except (TypeError, ValueError):
            raise TypeError(f"Failed to convert '{dims!r}' to a shape: '{item!r}'could not be "
                            f"converted to a dimension. A shape should either be single "
                            f"dimension (e.g. 10), or an iterable of dimensions (e.g. "
                            f"[1, 10, None]).") from None
    return TensorShape(dims)


def _shape_key(shape):
    return ("shape", None if shape.ndims is None else tuple(d.value for d in shape.dims))


def _key(part):
    """A hashable, comparable form of a serialized part (nested specs, shapes, dtypes)."""
    if isinstance(part, TensorShape):
        return _shape_key(part)
    if isinstance(part, dtypes.DType):
        return ("dtype", part.name)
    if isinstance(part, TypeSpec):
        return (type(part).__name__, _key(part._serialize()))
    if isinstance(part, dict):
        return ("dict", tuple((k, _key(part[k])) for k in sorted(part)))
    if isinstance(part, (tuple, list)):
        return (type(part).__name__, tuple(_key(p) for p in part))
    return part


def _compatible(a, b):
    if isinstance(a, TypeSpec):
        return a.is_compatible_with(b)
    if isinstance(a, TensorShape):
        return isinstance(b, TensorShape) and a.is_compatible_with(b)
    if isinstance(a, dtypes.DType):
        return isinstance(b, dtypes.DType) and a.is_compatible_with(b)
    if isinstance(a, dict):
        return (isinstance(b, dict) and sorted(a) == sorted(b)
                and all(_compatible(a[k], b[k]) for k in a))
    if isinstance(a, (tuple, list)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(_compatible(x, y) for x, y in zip(a, b)))
    return a == b


class _NoCommonType(Exception):
    pass


def _common(a, b):
    """The most specific part compatible with both (TypeSpec.__most_specific_compatible_type_
    serialization): shapes generalize, everything else must be equal."""
    if isinstance(a, TypeSpec):
        if type(a) is not type(b):
            raise _NoCommonType
        return a._deserialize(_common(a._serialize(), b._serialize()))
    if isinstance(a, TensorShape):
        if not isinstance(b, TensorShape):
            raise _NoCommonType
        return a.most_specific_compatible_shape(b)
    if isinstance(a, dict):
        if not isinstance(b, dict) or sorted(a) != sorted(b):
            raise _NoCommonType
        return type(a)((k, _common(a[k], b[k])) for k in a)
    if isinstance(a, (tuple, list)):
        if type(a) is not type(b) or len(a) != len(b):
            raise _NoCommonType
        return type(a)(_common(x, y) for x, y in zip(a, b))
    if type(a) is not type(b) or a != b:
        raise _NoCommonType
    return a


class TypeSpec:
    """What kind of value a tensor-like is: its type and serialized parts."""

    __slots__ = ()

    def _serialize(self):
        raise NotImplementedError

    def _deserialize(self, parts):
        return type(self)(*parts)

    @property
    def value_type(self):
        raise NotImplementedError

    def is_compatible_with(self, spec_or_value):
        if not isinstance(spec_or_value, TypeSpec):
            spec_or_value = type_spec_from_value(spec_or_value)
        return (type(self) is type(spec_or_value)
                and _compatible(self._serialize(), spec_or_value._serialize()))

    def most_specific_compatible_type(self, other):
        try:
            if type(self) is not type(other):
                raise _NoCommonType
            return self._deserialize(_common(self._serialize(), other._serialize()))
        except _NoCommonType:
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}") from None

    def _cmp_key(self):
        return (type(self).__name__, _key(self._serialize()))

    def __eq__(self, other):
        return type(self) is type(other) and self._cmp_key() == other._cmp_key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._cmp_key())

    def __repr__(self):
        return f"{type(self).__name__}{self._serialize()!r}"

    def __reduce__(self):
        return type(self), self._serialize()


class TensorSpec(TypeSpec):
    """tf.TensorSpec(shape, dtype=tf.float32, name=None): a dense tensor's shape and dtype."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = as_spec_shape(shape)
        self._dtype = _as_dtype(dtype)
        self._name = name

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)

    @property
    def value_type(self):
        from engine.framework.tensor import Tensor
        return Tensor

    @classmethod
    def from_spec(cls, spec, name=None):
        return cls(spec.shape, spec.dtype, name or spec.name)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        from engine.framework.tensor import Tensor
        if not isinstance(tensor, Tensor):
            raise ValueError(f"`tensor` should be a tf.Tensor, but got type {type(tensor)}.")
        return cls(tensor.shape, tensor.dtype, name or tensor.op.name)

    def is_compatible_with(self, spec_or_tensor):
        from engine.framework.tensor import Tensor
        return (isinstance(spec_or_tensor, (TensorSpec, Tensor))
                and self._dtype.is_compatible_with(spec_or_tensor.dtype)
                and self._shape.is_compatible_with(spec_or_tensor.shape))

    def _serialize(self):
        return (self._shape, self._dtype, self._name)

    def __repr__(self):
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"


class SparseTensorSpec(TypeSpec):
    """tf.SparseTensorSpec(shape=None, dtype=tf.float32): a SparseTensor's dense shape and
    dtype."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = as_spec_shape(shape)
        self._dtype = _as_dtype(dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    @property
    def value_type(self):
        from engine.framework.sparse_tensor import SparseTensor
        return SparseTensor

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype)

    def _serialize(self):
        return (self._shape, self._dtype)


class IndexedSlicesSpec(TypeSpec):
    """tf.IndexedSlicesSpec(shape=None, dtype=tf.float32, indices_dtype=tf.int64,
    dense_shape_dtype=None, indices_shape=None)."""

    __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype",
                 "_indices_shape")

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
                 dense_shape_dtype=None, indices_shape=None):
        self._shape = as_spec_shape(shape)
        self._values_dtype = _as_dtype(dtype)
        self._indices_dtype = _as_dtype(indices_dtype)
        self._dense_shape_dtype = (None if dense_shape_dtype is None
                                   else _as_dtype(dense_shape_dtype))
        self._indices_shape = as_spec_shape(indices_shape).with_rank(1)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._values_dtype)

    @property
    def value_type(self):
        from engine.ops.indexed_slices import IndexedSlices
        return IndexedSlices

    def _serialize(self):
        return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype,
                self._indices_shape)


class TensorArraySpec(TypeSpec):
    """tf.TensorArraySpec(element_shape=None, dtype=tf.float32, dynamic_size=False,
    infer_shape=True)."""

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
                 infer_shape=True):
        self._element_shape = as_spec_shape(element_shape)
        self._dtype = _as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    element_shape = property(lambda self: self._element_shape)
    dtype = property(lambda self: self._dtype)
    dynamic_size = property(lambda self: self._dynamic_size)
    infer_shape = property(lambda self: self._infer_shape)

    @property
    def value_type(self):
        from engine.ops.tensor_array_ops import TensorArray
        return TensorArray

    @classmethod
    def from_value(cls, value):
        return cls(value.element_shape, value.dtype, value.dynamic_size, value._infer_shape)

    def is_compatible_with(self, other):
        if not isinstance(other, TypeSpec):
            other = type_spec_from_value(other)
        # TensorFlow's TensorArraySpec ignores dynamic_size and infer_shape here.
        return (type(self) is type(other)
                and self._dtype.is_compatible_with(other._dtype)
                and self._element_shape.is_compatible_with(other._element_shape))

    def _serialize(self):
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)


class NoneTensorSpec(TypeSpec):
    """tf.NoneTensorSpec(): the spec of None."""

    __slots__ = ()

    @property
    def value_type(self):
        return type(None)

    def _serialize(self):
        return ()


class OptionalSpec(TypeSpec):
    """tf.OptionalSpec(element_spec): an optional value's element. The engine has no
    tf.experimental.Optional values, so this spec only describes one."""

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec):
        self._element_spec = element_spec

    element_spec = property(lambda self: self._element_spec)

    def _serialize(self):
        return (self._element_spec,)


def type_spec_from_value(value):
    """tf.type_spec_from_value: the TypeSpec of a tensor, SparseTensor, IndexedSlices,
    TensorArray, dataset, None, or anything convert_to_tensor takes."""
    from engine.framework.sparse_tensor import SparseTensor
    from engine.framework.tensor import Tensor
    from engine.ops.indexed_slices import IndexedSlices
    from engine.ops.tensor_array_ops import TensorArray
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec.from_value(value)
    if isinstance(value, TensorArray):
        return TensorArraySpec.from_value(value)
    if isinstance(value, IndexedSlices):
        return _indexed_slices_spec(value)
    if value is None:
        return NoneTensorSpec()
    spec = getattr(value, "_type_spec", None)
    if isinstance(spec, TypeSpec):
        return spec
    from engine.framework.graph import Graph
    from engine.ops.convert import convert_to_tensor
    try:
        with Graph().as_default():
            tensor = convert_to_tensor(value)
    except (ValueError, TypeError):
        tensor = None
    if tensor is not None:
        return TensorSpec(tensor.shape, tensor.dtype)
    raise TypeError(f"Could not build a TypeSpec for {value} of unsupported type "
                    f"{type(value)}.")


def _indexed_slices_spec(value):
    from engine.framework.tensor_util import constant_value_as_shape
    indices_shape = value.indices.shape.merge_with(value.values.shape[:1])
    dense_shape = TensorShape([None]).concatenate(value.values.shape[1:])
    dense_shape_dtype = None
    if value.dense_shape is not None:
        dense_shape_dtype = value.dense_shape.dtype
        dense_shape = dense_shape.merge_with(constant_value_as_shape(value.dense_shape))
    return IndexedSlicesSpec(dense_shape, value.dtype, value.indices.dtype, dense_shape_dtype,
                             indices_shape)
