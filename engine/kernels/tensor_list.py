"""The value a DT_VARIANT tensor holds for TF2's TensorArray: a TensorList (list_kernels.h).

A TensorList is a scalar variant: a Python list of element tensors (None for an element not
set yet, TensorFlow's DT_INVALID tensor), the element dtype, a partial element shape and an
optional maximum size. Kernels never change a list they receive: each makes its output with
`copy()` (a new list sharing the element arrays) and changes that, which is what TensorFlow's
ForwardInputOrCreateNewList amounts to when the input cannot be forwarded, so a list read
twice (a loop variable and its gradient's copy) keeps its value.

What the list kernels share is here too: an element_shape input as a partial shape
(TensorShapeFromTensor), the merge of two partial shapes with TensorFlow's error words, and
the input check (GetInputList).
"""

import numpy as np

from engine.framework.dtypes import as_dtype
from engine.framework.tensor_shape import TensorShape, shape_text
from engine.kernels.common import datatype_string, invalid


class TensorList:
    """One list of tensors; `shape` is the variant tensor's own (a scalar) for step stats."""

    __slots__ = ("tensors", "element_dtype", "element_shape", "max_num_elements")
    shape = ()

    def __init__(self, element_dtype, element_shape, tensors=(), max_num_elements=-1):
        self.element_dtype = as_dtype(element_dtype)
        self.element_shape = element_shape  # a TensorShape, possibly partial
        self.tensors = list(tensors)
        self.max_num_elements = max_num_elements

    def copy(self):
        """A new list holding the same element arrays (they are never written in place)."""
        return TensorList(self.element_dtype, self.element_shape, self.tensors,
                          self.max_num_elements)

    def __repr__(self):
        return (f"<TensorList {datatype_string(self.element_dtype)} "
                f"{shape_text(self.element_shape)} x{len(self.tensors)}>")


def input_list(ctx, value):
    """The TensorList a variant input holds (fed as itself or as a 0-d object array), or
    TensorFlow's error for anything else."""
    if isinstance(value, np.ndarray) and value.dtype == object:
        if value.ndim != 0:
            raise invalid(ctx, f"Input list must be a scalar saw: {shape_text(value.shape)}")
        value = value.item()
    if not isinstance(value, TensorList):
        raise invalid(ctx, f"Input handle is not a list. Saw: '{_debug_string(value)}'")
    return value


def _debug_string(value):
    return type(value).__name__ if not isinstance(value, (np.ndarray, np.generic)) \
        else f"{value!r}"


def check_element_dtype(ctx, wanted, tensor_list):
    """The op's element_dtype against the list's, in TensorFlow's words."""
    if as_dtype(wanted) != tensor_list.element_dtype:
        raise invalid(ctx, f"Invalid data types; op elements {datatype_string(as_dtype(wanted))}"
                           f" but list elements {datatype_string(tensor_list.element_dtype)}")


def shape_from_tensor(ctx, value):
    """An element_shape input as a TensorShape: -1 (a scalar) is an unknown rank, -1 in a
    vector an unknown dimension (TensorFlow's TensorShapeFromTensor)."""
    array = np.asarray(value)
    if array.ndim == 0:
        if array.dtype.kind in "iu" and int(array) == -1:
            return TensorShape(None)
        raise invalid(ctx, "The only valid scalar shape tensor is the fully unknown shape "
                           "specified as -1.")
    if array.dtype not in (np.int32, np.int64):
        raise invalid(ctx, f"Expected an int32 or int64 shape tensor; found "
                           f"{datatype_string(as_dtype(array.dtype))}")
    dims = []
    for size in array.reshape(-1).tolist():
        if size < -1:
            raise invalid(ctx, f"Dimension {size} must be >= -1")
        dims.append(None if size == -1 else size)
    return TensorShape(dims)


def merge_shapes(ctx, first, second):
    """PartialTensorShape::MergeWith: the more specific of two compatible shapes."""
    first, second = TensorShape(first), TensorShape(second)
    if first.ndims is None:
        return second
    if second.ndims is None:
        return first
    if first.ndims != second.ndims:
        raise invalid(ctx, f"PartialTensorShape: Incompatible ranks during merge: "
                           f"{first.ndims} vs. {second.ndims}")
    if not first.is_compatible_with(second):
        raise invalid(ctx, f"PartialTensorShape: Incompatible shapes during merge: "
                           f"{shape_text(first)} vs. {shape_text(second)}")
    return first.merge_with(second)


def element_shape_input(ctx, tensor_list, value):
    """GetElementShapeFromInput: the element_shape input merged with the list's own."""
    return merge_shapes(ctx, shape_from_tensor(ctx, value), tensor_list.element_shape)


def with_set_elements(ctx, shape, tensors):
    """`shape` merged with the shape of each element that is set, while it is not fully
    defined (how TensorFlow learns an unset element's shape for zeros)."""
    if shape.is_fully_defined():
        return shape
    for tensor in tensors:
        if tensor is not None:
            shape = merge_shapes(ctx, shape, np.shape(tensor))
    return shape


def dims_of(shape):
    """A fully defined TensorShape as a tuple of ints."""
    return tuple(shape.as_list())


def add_lists(ctx, first, second, add):
    """Two lists added element by element (TensorListBinaryAdd): how AddN sums the gradient
    lists of a list read twice; `add` adds two element tensors."""
    if first.element_dtype != second.element_dtype:
        raise invalid(ctx, f"Trying to add two lists of tensors of different dtypes. One is "
                           f"{datatype_string(first.element_dtype)} and the other is "
                           f"{datatype_string(second.element_dtype)}")
    if not first.element_shape.is_compatible_with(second.element_shape):
        raise invalid(ctx, f"Trying to add two lists of tensors with incompatible element "
                           f"shapes. One is {shape_text(first.element_shape)} and the other is "
                           f"{shape_text(second.element_shape)}")
    if len(first.tensors) != len(second.tensors):
        raise invalid(ctx, f"Trying to add two lists of tensors with different lengths. One is "
                           f"{len(first.tensors)} and the other is {len(second.tensors)}")
    shape = merge_shapes(ctx, first.element_shape, second.element_shape)
    tensors = [a if b is None else b if a is None else add(a, b)
               for a, b in zip(first.tensors, second.tensors)]
    return TensorList(first.element_dtype, shape, tensors, first.max_num_elements)


def zeros_like_list(tensor_list, zeros_like):
    """A list of zeros shaped as the elements that are set (TensorListZerosLike)."""
    return TensorList(tensor_list.element_dtype, tensor_list.element_shape,
                      [None if t is None else zeros_like(t) for t in tensor_list.tensors],
                      tensor_list.max_num_elements)
