"""tf.sets (set_intersection, set_union, set_difference, set_size) as TF 1.x builds them
(sets_impl.py): dense or sparse inputs, SparseTensor results."""

from engine.framework import dtypes
from engine.framework.sparse_tensor import SparseTensor
from engine.ops.convert import convert_to_tensor
from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op

_VALID_DTYPES = frozenset({dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
                           dtypes.uint16, dtypes.string})


def _convert(value, name):
    return value if isinstance(value, SparseTensor) else convert_to_tensor(value, name=name)


def set_size(a, validate_indices=True):
    a = _convert(a, "a")
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    if a.values.dtype.base_dtype not in _VALID_DTYPES:
        raise TypeError(f"Invalid dtype `{a.values.dtype}` not in supported dtypes: "
                        f"`{_VALID_DTYPES}`.")
    return apply_op("SetSize", set_indices=a.indices, set_values=a.values,
                    set_shape=a.dense_shape, validate_indices=validate_indices)


def _set_operation(a, b, set_operation, validate_indices=True):
    if isinstance(a, SparseTensor):
        if isinstance(b, SparseTensor):
            outputs = apply_op("SparseToSparseSetOperation", set1_indices=a.indices,
                               set1_values=a.values, set1_shape=a.dense_shape,
                               set2_indices=b.indices, set2_values=b.values,
                               set2_shape=b.dense_shape, set_operation=set_operation,
                               validate_indices=validate_indices)
        else:
            raise ValueError("Sparse,Dense is not supported, but Dense,Sparse is. Please flip "
                             "the order of your inputs.")
    elif isinstance(b, SparseTensor):
        outputs = apply_op("DenseToSparseSetOperation", set1=a, set2_indices=b.indices,
                           set2_values=b.values, set2_shape=b.dense_shape,
                           set_operation=set_operation, validate_indices=validate_indices)
    else:
        outputs = apply_op("DenseToDenseSetOperation", set1=a, set2=b,
                           set_operation=set_operation, validate_indices=validate_indices)
    return SparseTensor(*outputs)


def _convert_pair(a, b):
    a = _convert(a, "a")
    if a.dtype.base_dtype not in _VALID_DTYPES:
        raise TypeError(f"'a' has invalid dtype `{a.dtype}` not in supported dtypes: "
                        f"`{_VALID_DTYPES}`.")
    b = _convert(b, "b")
    if b.dtype.base_dtype != a.dtype.base_dtype:
        raise TypeError(f"Types don't match, {a.dtype} vs {b.dtype}.")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        return b, a, True
    return a, b, False


def set_intersection(a, b, validate_indices=True):
    a, b, _ = _convert_pair(a, b)
    return _set_operation(a, b, "intersection", validate_indices)


def set_difference(a, b, aminusb=True, validate_indices=True):
    a, b, flipped = _convert_pair(a, b)
    if flipped:
        aminusb = not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


def set_union(a, b, validate_indices=True):
    a, b, _ = _convert_pair(a, b)
    return _set_operation(a, b, "union", validate_indices)


for _op in ("SetSize", "DenseToDenseSetOperation", "DenseToSparseSetOperation",
            "SparseToSparseSetOperation"):
    NotDifferentiable(_op)
