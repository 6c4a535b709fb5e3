"""TensorShape and Dimension: static shapes, possibly partial, with TensorFlow 1.x semantics.

>>> s = TensorShape([2, None, 3])
>>> print(s), s.as_list(), s.ndims
(2, ?, 3)
(None, [2, None, 3], 3)
>>> print(s.merge_with([None, 4, 3]))
(2, 4, 3)
>>> print(TensorShape(None))
<unknown>
"""

from engine.proto import tensor_shape_pb2


class Dimension:
    """One dimension of a shape: a non-negative int, or unknown (value None)."""

    __slots__ = ("_value",)

    def __init__(self, value):
        if isinstance(value, Dimension):
            value = value._value
        if value is None:
            self._value = None
            return
        if isinstance(value, (bytes, str, float)):
            raise TypeError(f"Dimension value must be integer or None or have an __index__ "
                            f"method, got value '{value!r}' with type '{type(value)}'")
        try:
            self._value = int(value.__index__())
        except AttributeError:
            raise TypeError(f"Dimension value must be integer or None or have an __index__ "
                            f"method, got value '{value!r}' with type '{type(value)}'") from None
        if self._value < 0:
            raise ValueError(f"Dimension {self._value} must be >= 0")

    @property
    def value(self):
        return self._value

    def __repr__(self):
        return f"Dimension({self._value!r})"

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __int__(self):
        return self._value

    def __index__(self):
        return self._value

    def __hash__(self):
        return hash(self._value)

    def __eq__(self, other):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other._value is None:
            return None
        return self._value == other._value

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is None or result is NotImplemented else not result

    def __bool__(self):
        return bool(self._value)

    def is_compatible_with(self, other):
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")

    def merge_with(self, other):
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other._value if self._value is None else self._value)

    def _binary(self, other, fn):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other._value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other._value))

    def __add__(self, other):
        return self._binary(other, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, other):
        return self._binary(other, lambda a, b: a - b)

    def __rsub__(self, other):
        return as_dimension(other) - self

    def __mul__(self, other):
        return self._binary(other, lambda a, b: a * b)

    __rmul__ = __mul__

    def __floordiv__(self, other):
        return self._binary(other, lambda a, b: a // b)

    def __rfloordiv__(self, other):
        return as_dimension(other) // self

    def __mod__(self, other):
        return self._binary(other, lambda a, b: a % b)

    def _compare(self, other, fn):
        other = as_dimension(other)
        if self._value is None or other._value is None:
            return None
        return fn(self._value, other._value)

    def __lt__(self, other):
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other):
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other):
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other):
        return self._compare(other, lambda a, b: a >= b)

    def __reduce__(self):
        return Dimension, (self._value,)


def as_dimension(value):
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension):
    return dimension.value if isinstance(dimension, Dimension) else dimension


class TensorShape:
    """A static shape: unknown rank (dims None), or a tuple of Dimensions."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif dims is None:
            self._dims = None
        elif isinstance(dims, tensor_shape_pb2.TensorShapeProto):
            self._dims = None if dims.unknown_rank else tuple(
                Dimension(None if d.size == -1 else d.size) for d in dims.dim)
        elif isinstance(dims, (bytes, str)):
            raise TypeError(f"Cannot convert {dims!r} to a TensorShape")
        else:
            try:
                items = iter(dims)
            except TypeError:
                self._dims = (as_dimension(dims),)  # A scalar int: a rank-1 shape.
            else:
                self._dims = tuple(as_dimension(d) for d in items)

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    @property
    def ndims(self):
        return None if self._dims is None else len(self._dims)

    rank = ndims

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is not None:
            if isinstance(key, slice):
                return TensorShape(self._dims[key])
            return self._dims[key]
        if isinstance(key, slice):
            start, stop = key.start, key.stop
            if key.step is not None or (start is not None and start < 0) or (
                    stop is not None and stop < 0):
                return unknown_shape()
            if stop is None:
                return unknown_shape()
            return unknown_shape(stop - (start or 0))
        return Dimension(None)

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return "TensorShape([" + ", ".join(repr(d) for d in self._dims) + "])"

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        size = 1
        for dim in self._dims:
            size *= dim._value
        return size

    def is_fully_defined(self):
        return self._dims is not None and all(d._value is not None for d in self._dims)

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return [d._value for d in self._dims]

    def as_proto(self):
        if self._dims is None:
            return tensor_shape_pb2.TensorShapeProto(unknown_rank=True)
        return tensor_shape_pb2.TensorShapeProto(dim=[
            tensor_shape_pb2.TensorShapeProto.Dim(size=-1 if d._value is None else d._value)
            for d in self._dims])

    def is_compatible_with(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a.is_compatible_with(b) for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def merge_with(self, other):
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        try:
            self.assert_same_rank(other)
            return TensorShape([a.merge_with(b) for a, b in zip(self._dims, other._dims)])
        except ValueError:
            raise ValueError(f"Shapes {self} and {other} are not compatible") from None

    def assert_same_rank(self, other):
        other = as_shape(other)
        if self.ndims is not None and other.ndims is not None and self.ndims != other.ndims:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_has_rank(self, rank):
        if self.ndims not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def with_rank(self, rank):
        try:
            return self.merge_with(unknown_shape(rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank):
        if self.ndims is not None and self.ndims < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self.ndims is not None and self.ndims > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return unknown_shape()
        return TensorShape(self._dims + other._dims)

    def most_specific_compatible_shape(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return unknown_shape()
        return TensorShape([a if a._value == b._value else Dimension(None)
                            for a, b in zip(self._dims, other._dims)])

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except TypeError:
            return NotImplemented
        return self._values() == other._values()

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def _values(self):
        return None if self._dims is None else tuple(d._value for d in self._dims)

    def __hash__(self):
        return hash(self._values())

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def __reduce__(self):
        return TensorShape, (self.dims,)


def as_shape(shape):
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None, ndims=None):
    rank = ndims if rank is None else rank
    return TensorShape(None if rank is None else [None] * rank)


def scalar():
    return TensorShape([])


def vector(length):
    return TensorShape([length])


def matrix(rows, cols):
    return TensorShape([rows, cols])


def shape_text(shape):
    """A shape as TensorFlow's TensorShape::DebugString writes it: `[2,3]`, `[?,3]`, `[]`, or
    `<unknown>` for an unknown rank. Takes a TensorShape, a TensorShapeProto or a sequence of
    ints (an array's .shape).

    >>> shape_text((2, 3)), shape_text(TensorShape([None, 3])), shape_text(TensorShape(None))
    ('[2,3]', '[?,3]', '<unknown>')
    >>> shape_text(tensor_shape_pb2.TensorShapeProto(dim=[{"size": -1}, {"size": 2}]))
    '[?,2]'
    """
    if isinstance(shape, tensor_shape_pb2.TensorShapeProto):
        if shape.unknown_rank:
            return "<unknown>"
        # Only -1 is unknown ("?"); TensorFlow prints any other negative size as it is.
        dims = [None if dim.size == -1 else dim.size for dim in shape.dim]
    elif isinstance(shape, TensorShape):
        if shape.ndims is None:
            return "<unknown>"
        dims = shape.as_list()
    else:
        dims = [int(d) for d in shape]
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"
