"""Kernels of the TensorList ops (TF2's TensorArray, list_kernels.cc and list_kernels.h).

`list_kernels(xp)` makes them over an array module: NumPy here, CuPy on a GPU
(engine/kernels/cuda/list_ops.py), where a list stays a host value and its elements live in
device memory, as in TensorFlow. The list value and the checks the ops share are
engine/kernels/tensor_list.py. Each op checks what TensorFlow's checks, in its order, with
its words (tests/engine/tensor_list_cases.py against TensorFlow's fixtures).
"""

import numpy as np

from engine.framework.tensor_shape import TensorShape, shape_text
from engine.kernels import register_table
from engine.kernels.common import datatype_string, invalid
from engine.kernels.tensor_list import (TensorList, check_element_dtype, dims_of,
                                        element_shape_input, input_list, merge_shapes,
                                        shape_from_tensor, with_set_elements)
from engine.framework.dtypes import as_dtype


def _scalar(value):
    return int(np.asarray(value).reshape(()))


def _at_least_vector(ctx, shape, what="Tensor must be at least a vector, but saw shape: "):
    if len(shape) < 1:
        raise invalid(ctx, f"{what}{shape_text(shape)}")


def list_kernels(xp, host=np.asarray):
    """The TensorList kernels over array module `xp`; `host(value)` reads a shape or index
    input as a NumPy array (TensorFlow keeps those in host memory on a GPU too)."""

    def zeros(ctx, dtype, shape):
        return xp.zeros(shape, dtype=as_dtype(dtype).as_numpy_dtype)

    def stacked(ctx, tensor_list, rows, element_shape, dtype):
        """The rows of `tensor_list` (indices) stacked, unset ones as zeros."""
        shape = dims_of(element_shape)
        if not rows:
            return xp.zeros((0,) + shape, dtype=as_dtype(dtype).as_numpy_dtype)
        parts = [tensor_list.tensors[i] if tensor_list.tensors[i] is not None
                 else zeros(ctx, dtype, shape) for i in rows]
        return xp.stack([xp.asarray(p) for p in parts])

    def empty_tensor_list(ctx, element_shape, max_num_elements):
        limit = np.asarray(host(max_num_elements))
        if limit.ndim != 0:
            raise invalid(ctx, f"max_num_elements expected to be a scalar but got shape: "
                               f"{shape_text(limit.shape)}")
        return TensorList(ctx.attrs["element_dtype"], shape_from_tensor(ctx, host(element_shape)),
                          max_num_elements=int(limit))

    def reserve(ctx, element_shape, num_elements):
        shape = shape_from_tensor(ctx, host(element_shape))
        count = _scalar(host(num_elements))
        if count < 0:
            raise invalid(ctx, f"The num_elements to reserve must be a non negative number, "
                               f"but got {count}")
        return TensorList(ctx.attrs["element_dtype"], shape, [None] * count)

    def set_item(ctx, handle, index, item):
        tensor_list = input_list(ctx, handle)
        check_element_dtype(ctx, ctx.attrs["element_dtype"], tensor_list)
        index = _scalar(host(index))
        resize = ctx.attrs.get("resize_if_index_out_of_bounds", False)
        if index < 0 or (index >= len(tensor_list.tensors) and not resize):
            raise invalid(ctx, f"Trying to modify element {index} in a list with "
                               f"{len(tensor_list.tensors)} elements.")
        if not tensor_list.element_shape.is_compatible_with(TensorShape(np.shape(item))):
            raise invalid(ctx, f"Tried to set a tensor with incompatible shape at a list index. "
                               f"Item element shape: {shape_text(np.shape(item))} list shape: "
                               f"{shape_text(tensor_list.element_shape)}")
        result = tensor_list.copy()
        if index >= len(result.tensors):
            result.tensors.extend([None] * (index + 1 - len(result.tensors)))
        result.tensors[index] = item
        return result

    def get_item(ctx, handle, index, element_shape):
        tensor_list = input_list(ctx, handle)
        dtype = ctx.attrs["element_dtype"]
        check_element_dtype(ctx, dtype, tensor_list)
        index = _scalar(host(index))
        if not 0 <= index < len(tensor_list.tensors):
            raise invalid(ctx, f"Trying to access element {index} in a list with "
                               f"{len(tensor_list.tensors)} elements.")
        if tensor_list.tensors[index] is not None:
            return tensor_list.tensors[index]
        shape = element_shape_input(ctx, tensor_list, host(element_shape))
        shape = with_set_elements(ctx, shape, tensor_list.tensors)
        if not shape.is_fully_defined():
            raise invalid(ctx, f"Trying to read an uninitialized tensor but element_shape is "
                               f"not fully defined: {shape_text(shape)} and no list element "
                               f"is set.")
        return zeros(ctx, dtype, dims_of(shape))

    def stack(ctx, handle, element_shape):
        tensor_list = input_list(ctx, handle)
        dtype = ctx.attrs["element_dtype"]
        check_element_dtype(ctx, dtype, tensor_list)
        wanted = ctx.attrs.get("num_elements", -1)
        if wanted != -1 and len(tensor_list.tensors) != wanted:
            raise invalid(ctx, f"Operation expected a list with {wanted} elements but got a list "
                               f"with {len(tensor_list.tensors)} elements.")
        shape = element_shape_input(ctx, tensor_list, host(element_shape))
        if not shape.is_fully_defined() and not tensor_list.tensors:
            raise invalid(ctx, f"Tried to stack elements of an empty list with "
                               f"non-fully-defined element_shape: {shape_text(shape)}")
        if not tensor_list.element_shape.is_fully_defined():
            shape = with_set_elements(ctx, shape, tensor_list.tensors)
        if not shape.is_fully_defined():
            raise invalid(ctx, f"Tried to stack list which only contains uninitialized tensors "
                               f"and has a non-fully-defined element_shape: {shape_text(shape)}")
        return stacked(ctx, tensor_list, range(len(tensor_list.tensors)), shape, dtype)

    def gather(ctx, handle, indices, element_shape):
        tensor_list = input_list(ctx, handle)
        dtype = ctx.attrs["element_dtype"]
        check_element_dtype(ctx, dtype, tensor_list)
        rows = host(indices).reshape(-1).tolist()
        shape = element_shape_input(ctx, tensor_list, host(element_shape))
        if not shape.is_fully_defined() and not rows:
            raise invalid(ctx, f"Tried to gather 0-elements from a list with non-fully-defined "
                               f"shape: {shape_text(shape)}")
        size = len(tensor_list.tensors)
        if not tensor_list.element_shape.is_fully_defined():
            shape = with_set_elements(ctx, shape, [tensor_list.tensors[i] for i in rows
                                                   if 0 <= i < size])
        if not shape.is_fully_defined():
            raise invalid(ctx, f"Tried to gather uninitialized tensors from a list with "
                               f"non-fully-defined element_shape: {shape_text(shape)}")
        for i in rows:
            if not 0 <= i < size:
                raise invalid(ctx, f"Index {i} out o range; list only has {size} elements.")
        return stacked(ctx, tensor_list, rows, shape, dtype)

    def from_tensor(ctx, tensor, element_shape):
        shape = shape_from_tensor(ctx, host(element_shape))
        _at_least_vector(ctx, np.shape(tensor))
        rows = TensorShape(np.shape(tensor)[1:])
        if not shape.is_compatible_with(rows):
            raise invalid(ctx, f"Specified a list with shape {shape_text(shape)} from a tensor "
                               f"with shape {shape_text(rows)}")
        return TensorList(ctx.attrs["element_dtype"], shape,
                          [xp.array(tensor[i]) for i in range(np.shape(tensor)[0])])

    def length(ctx, handle):
        return np.array(len(input_list(ctx, handle).tensors), np.int32)

    def push_back(ctx, handle, tensor):
        tensor_list = input_list(ctx, handle)
        if not tensor_list.element_shape.is_compatible_with(TensorShape(np.shape(tensor))):
            raise invalid(ctx, f"Tried to append a tensor with incompatible shape to a list. Op "
                               f"element shape: {shape_text(np.shape(tensor))} list shape: "
                               f"{shape_text(tensor_list.element_shape)}")
        check_element_dtype(ctx, ctx.attrs["element_dtype"], tensor_list)
        limit = tensor_list.max_num_elements
        if limit != -1 and len(tensor_list.tensors) >= limit:
            raise invalid(ctx, f"Tried to push item into a full list list size: "
                               f"{len(tensor_list.tensors)} max_num_elements: {limit}")
        result = tensor_list.copy()
        result.tensors.append(tensor)
        return result

    def pop_back(ctx, handle, element_shape):
        tensor_list = input_list(ctx, handle)
        dtype = ctx.attrs["element_dtype"]
        check_element_dtype(ctx, dtype, tensor_list)
        if not tensor_list.tensors:
            raise invalid(ctx, "Trying to pop from an empty list.")
        last = tensor_list.tensors[-1]
        if last is None:
            shape = element_shape_input(ctx, tensor_list, host(element_shape))
            if not shape.is_fully_defined():
                raise invalid(ctx, f"Trying to read an uninitialized tensor but element_shape "
                                   f"is not fully defined.{shape_text(shape)}")
            last = zeros(ctx, dtype, dims_of(shape))
        result = tensor_list.copy()
        result.tensors.pop()
        return result, last

    def element_shape(ctx, handle):
        shape = input_list(ctx, handle).element_shape
        dtype = ctx.attrs["shape_type"].as_numpy_dtype
        if shape.ndims is None:
            return np.array(-1, dtype)
        return np.array([-1 if d is None else d for d in shape.as_list()], dtype)

    def scatter_rows(ctx, tensor_list, tensor, rows):
        for position, i in enumerate(rows):
            tensor_list.tensors[i] = xp.array(tensor[position])
        return tensor_list

    def scatter(ctx, tensor, indices, element_shape, num_elements=None):
        rows = host(indices).reshape(-1).tolist()
        shape = shape_from_tensor(ctx, host(element_shape))
        count = -1 if num_elements is None else _scalar(host(num_elements))
        if count < -1:
            raise invalid(ctx, f"TensorListScatter expects num_elements >= -1, found: {count}")
        _at_least_vector(ctx, np.shape(tensor))
        element = TensorShape(np.shape(tensor)[1:])
        if not shape.is_compatible_with(element):
            raise invalid(ctx, f"Specified a list with shape {shape_text(shape)} from a tensor "
                               f"with shape {shape_text(element)}")
        if len(rows) != np.shape(tensor)[0]:
            raise invalid(ctx, f"Invalid number of rows in input tensor. Expected: {len(rows)} "
                               f"Actual: {np.shape(tensor)[0]}")
        for i in rows:
            if i < 0:
                raise invalid(ctx, "Indices in TensorListScatter must all be non-negative.")
            if count != -1 and i >= count:
                raise invalid(ctx, f"TensorListScatter: Trying to scatter at index {i} in list "
                                   f"with size {count}")
        size = max(max(rows, default=-1) + 1, count)
        result = TensorList(ctx.attrs["element_dtype"], shape, [None] * size)
        return scatter_rows(ctx, result, tensor, rows)

    def scatter_into_existing_list(ctx, handle, tensor, indices):
        tensor_list = input_list(ctx, handle)
        dtype = as_dtype(ctx.attrs["element_dtype"])
        if dtype != tensor_list.element_dtype:
            raise invalid(ctx, f"Invalid data types; input tensor type: {datatype_string(dtype)}"
                               f" list element_type: "
                               f"{datatype_string(tensor_list.element_dtype)}")
        _at_least_vector(ctx, np.shape(tensor))
        index_array = host(indices)
        if index_array.ndim != 1:
            raise invalid(ctx, f"Expected indices to be a vector, but received shape: "
                               f"{shape_text(index_array.shape)}")
        rows = index_array.tolist()
        if len(rows) != np.shape(tensor)[0]:
            raise invalid(ctx, f"Expected len(indices) == tensor.shape[0], but saw: "
                               f"{len(rows)} vs. {np.shape(tensor)[0]}")
        for i in rows:
            if i < 0:
                raise invalid(ctx, "Indices in TensorListScatter must all be non-negative.")
        result = tensor_list.copy()
        needed = max(rows, default=-1) + 1
        if needed > len(result.tensors):
            result.tensors.extend([None] * (needed - len(result.tensors)))
        return scatter_rows(ctx, result, tensor, rows)

    def concat(ctx, handle, element_shape=None, leading_dims=None):
        tensor_list = input_list(ctx, handle)
        dtype = ctx.attrs["element_dtype"]
        check_element_dtype(ctx, dtype, tensor_list)
        first_dim = None
        if element_shape is None:  # TensorListConcat: an element_shape attr
            shape = TensorShape(ctx.attrs.get("element_shape"))
            rest = TensorShape(None) if shape.ndims is None else TensorShape(shape.as_list()[1:])
        else:
            shape = element_shape_input(ctx, tensor_list, host(element_shape))
            if shape.ndims is not None and shape.ndims < 1:
                raise invalid(ctx, "Concat requires elements to be at least vectors, found "
                                   "scalars instead.")
            first_dim = None if shape.ndims is None else shape.as_list()[0]
            rest = TensorShape(None) if shape.ndims is None else TensorShape(shape.as_list()[1:])
        if not tensor_list.tensors and not rest.is_fully_defined():
            raise invalid(ctx, f"All except the first dimension must be fully defined when "
                               f"concating an empty tensor list. element_shape: "
                               f"{shape_text(rest)}")
        if not tensor_list.element_shape.is_fully_defined():
            inferred, check = first_dim, first_dim is None
            for i, tensor in enumerate(tensor_list.tensors):
                if tensor is None:
                    continue
                if np.ndim(tensor) < 1:
                    raise invalid(ctx, f"Concat saw a scalar shape at index {i} but requires at "
                                       f"least vectors.")
                rest = merge_shapes(ctx, rest, np.shape(tensor)[1:])
                leading = np.shape(tensor)[0]
                if first_dim is not None and first_dim != leading:
                    raise invalid(ctx, f"First entry of element_shape input does not match the "
                                       f"first dim of list element at index: {i} Expected: "
                                       f"{first_dim} Actual: {leading}")
                if check:
                    if inferred is None:
                        inferred = leading
                    elif inferred != leading:
                        inferred, check = None, False
            first_dim = inferred
        if not rest.is_fully_defined():
            raise invalid(ctx, f"Trying to concat list with only uninitialized tensors but "
                               f"element_shape_except_first_dim_ is not fully defined: "
                               f"{shape_text(rest)}")
        given = None if leading_dims is None else host(leading_dims).reshape(-1).tolist()
        lengths = []
        for i, tensor in enumerate(tensor_list.tensors):
            if tensor is not None:
                lengths.append(np.shape(tensor)[0])
            elif (given is None or i >= len(given)) and first_dim is not None:
                lengths.append(first_dim)
            elif given is None:
                raise invalid(ctx, "Concating lists with uninitialized tensors is not supported "
                                   "in this version of TensorListConcat. Consider updating your "
                                   "GraphDef to run the newer version.")
            elif i >= len(given):
                raise invalid(ctx, f"List contains uninitialized tensor at index {i} but "
                                   f"leading_dims has only {len(given)} elements.")
            else:
                lengths.append(given[i])
        tail = dims_of(rest)
        parts = [xp.asarray(t) if t is not None else zeros(ctx, dtype, (n,) + tail)
                 for t, n in zip(tensor_list.tensors, lengths)]
        values = xp.concatenate(parts) if parts else \
            xp.zeros((0,) + tail, dtype=as_dtype(dtype).as_numpy_dtype)
        return values, np.array(lengths, np.int64)

    def split(ctx, tensor, element_shape, lengths):
        shape = shape_from_tensor(ctx, host(element_shape))
        if shape.ndims is not None and shape.ndims < 1:
            raise invalid(ctx, f"TensorListSplit requires element_shape to be at least of rank "
                               f"1, but saw: {shape_text(shape)}")
        _at_least_vector(ctx, np.shape(tensor))
        rest = TensorShape(None) if shape.ndims is None else TensorShape(shape.as_list()[1:])
        if not rest.is_compatible_with(TensorShape(np.shape(tensor)[1:])):
            raise invalid(ctx, f"tensor shape {shape_text(np.shape(tensor))} is not compatible "
                               f"with element_shape {shape_text(shape)}")
        sizes = host(lengths)
        if sizes.ndim != 1:
            raise invalid(ctx, f"Expected lengths to be a vector, received shape: "
                               f"{shape_text(sizes.shape)}")
        total, start, pieces = np.shape(tensor)[0], 0, []
        for size in sizes.tolist():
            if size < 0:
                raise invalid(ctx, f"Invalid value in lengths: {size}")
            end = start + size
            if end > total:
                raise invalid(ctx, f"Attempting to slice [{start}, {end}] from tensor with "
                                   f"length {total}")
            pieces.append(xp.array(tensor[start:end]))
            start = end
        if start != total:
            raise invalid(ctx, f"Unused values in tensor. Length of tensor: {total} Values "
                               f"used: {start}")
        return TensorList(ctx.attrs["element_dtype"], shape, pieces)

    def resize(ctx, handle, size):
        tensor_list = input_list(ctx, handle)
        size = _scalar(host(size))
        if size < 0:
            raise invalid(ctx, f"TensorListSlice expects size to be non-negative. Got: {size}")
        result = tensor_list.copy()
        result.tensors = (result.tensors + [None] * size)[:size]
        return result

    return {
        "EmptyTensorList": empty_tensor_list, "TensorListReserve": reserve,
        "TensorListSetItem": set_item, "TensorListGetItem": get_item,
        "TensorListStack": stack, "TensorListGather": gather,
        "TensorListFromTensor": from_tensor, "TensorListLength": length,
        "TensorListPushBack": push_back, "TensorListPopBack": pop_back,
        "TensorListElementShape": element_shape, "TensorListScatter": scatter,
        "TensorListScatterV2": scatter,
        "TensorListScatterIntoExistingList": scatter_into_existing_list,
        "TensorListConcat": concat, "TensorListConcatV2": concat,
        "TensorListSplit": split, "TensorListResize": resize,
    }


register_table(list_kernels(np))
