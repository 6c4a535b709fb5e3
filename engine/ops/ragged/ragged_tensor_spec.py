"""tf.RaggedTensorSpec: a RaggedTensor's static shape, dtype, ragged_rank and row-splits
dtype (ragged_tensor.py's RaggedTensorSpec), as a value to compare and check against."""

from engine.framework import dtypes
from engine.framework.tensor_shape import as_shape
from engine.ops.ragged.ragged_tensor import RaggedTensor


class RaggedTensorSpec:
    """The type of a RaggedTensor."""

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64, flat_values_spec=None):
        self._shape = as_shape(shape)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if flat_values_spec is not None:
            if dtype is None:
                dtype = flat_values_spec.dtype
            elif dtype != flat_values_spec.dtype:
                raise ValueError("dtype must be the same as flat_values_spec.dtype")
        elif dtype is None:
            raise ValueError("At least one of dtype or flat_values_spec must be provided")
        self._dtype = dtypes.as_dtype(dtype)
        self._flat_values_spec = flat_values_spec
        rank = self._shape.ndims
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        self._ragged_rank = ragged_rank
        if not isinstance(self._ragged_rank, int):
            raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"Argument `ragged_rank` ({ragged_rank}) must be less than rank "
                             f"({rank}).")

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: self._flat_values_spec)
    value_type = property(lambda self: RaggedTensor)

    @classmethod
    def from_value(cls, value):
        return cls(shape=value.shape, dtype=value.values.dtype, ragged_rank=value.ragged_rank,
                   row_splits_dtype=value.row_splits.dtype)

    def _key(self):
        dims = None if self._shape.ndims is None else tuple(self._shape.as_list())
        return (dims, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value
        if isinstance(other, RaggedTensor):
            other = RaggedTensorSpec.from_value(other)
        if not isinstance(other, RaggedTensorSpec):
            return False
        return (self._dtype == other.dtype and self._ragged_rank == other.ragged_rank
                and self._row_splits_dtype == other.row_splits_dtype
                and self._shape.is_compatible_with(other.shape))

    def __eq__(self, other):
        return type(other) is type(self) and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "RaggedTensorSpec(%r, %r, %r, %r)" % (self._shape, self._dtype,
                                                     self._ragged_rank, self._row_splits_dtype)
