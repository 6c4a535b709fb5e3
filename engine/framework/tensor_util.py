"""TensorProto <-> NumPy, encoded exactly as TensorFlow's tensor_util encodes them.

>>> print(make_tensor_proto(1.0))
dtype: DT_FLOAT
tensor_shape {
}
float_val: 1
<BLANKLINE>
>>> make_ndarray(make_tensor_proto([1, 2], shape=[4])).tolist()
[1, 2, 2, 2]
"""

import math
import numbers
import os

import numpy as np

from engine.framework import dtypes
from engine.framework.tensor import Tensor
from engine.proto import tensor_pb2
from engine.framework.tensor_shape import Dimension, as_shape
from engine.framework.tensor_shape import TensorShape
from engine.framework.tensor_shape import TensorShape, unknown_shape

# Dtypes whose arrays of more than one element go into tensor_content as raw bytes.
_TENSOR_CONTENT_TYPES = frozenset(dtypes.as_dtype(name) for name in (
    "float16", "float32", "float64", "int32", "uint8", "int16", "int8", "int64", "qint8",
    "quint8", "qint32", "uint32", "uint64", "bfloat16"))

_INT_VAL = frozenset(np.dtype(t) for t in (np.int32, np.uint8, np.uint16, np.int16, np.int8))


def _append(proto, flat):
    """Appends flat values to the typed repeated field TensorFlow uses for their dtype."""
    kind = flat.dtype
    if kind == np.float32:
        proto.float_val.extend(flat.tolist())
    elif kind == np.float64:
        proto.double_val.extend(flat.tolist())
    elif kind in _INT_VAL:
        proto.int_val.extend(flat.tolist())
    elif kind == np.int64:
        proto.int64_val.extend(flat.tolist())
    elif kind == np.uint32:
        proto.uint32_val.extend(flat.tolist())
    elif kind == np.uint64:
        proto.uint64_val.extend(flat.tolist())
    elif kind == np.float16:
        proto.half_val.extend(flat.view(np.uint16).tolist())
    elif kind == np.bool_:
        proto.bool_val.extend(flat.tolist())
    elif kind == np.complex64:
        proto.scomplex_val.extend(np.stack([flat.real, flat.imag], -1).ravel().tolist())
    elif kind == np.complex128:
        proto.dcomplex_val.extend(np.stack([flat.real, flat.imag], -1).ravel().tolist())
    elif kind.kind in "SUO":
        proto.string_val.extend(_as_bytes(v) for v in flat.tolist())
    else:
        raise TypeError(f"Element type not supported in TensorProto: {kind.name}")


def _as_bytes(value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(f"Expected binary or unicode string, got {value!r}")


def _flatten(values):
    if isinstance(values, (list, tuple)):
        for inner in values:
            yield from _flatten(inner)
    else:
        yield values


def _dense_dimensions(values):
    if not isinstance(values, (list, tuple)):
        return []
    if not values:
        return [0]
    return [len(values)] + _dense_dimensions(values[0])


_CHECKS = {
    "int": (numbers.Integral, np.integer, Dimension),
    "float": (numbers.Real, np.integer, np.floating),
    "complex": (numbers.Complex, np.number),
    "string": (bytes, str),
    "bool": (bool, np.bool_),
}


def _check_kind(dtype):
    if dtype == dtypes.bool:
        return "bool"
    if dtype == dtypes.string:
        return "string"
    if dtype.is_integer:
        return "int"
    if dtype.is_floating:
        return "float"
    if dtype.is_complex:
        return "complex"
    return None


def _assert_compatible(values, dtype):
    """TypeError as TensorFlow words it when a Python value does not fit `dtype`."""
    kind = None if dtype is None else _check_kind(dtype)
    for value in _flatten(values):
        if kind is None:
            if isinstance(value, Tensor):
                raise TypeError("Expected any non-tensor type, but got a tensor instead.")
            continue
        expected = _CHECKS[kind]
        if isinstance(value, expected) or (
                isinstance(value, np.ndarray) and issubclass(value.dtype.type, expected)):
            continue
        raise TypeError(f"Expected {dtype.name}, but got {value} of type "
                        f"'{type(value).__name__}'.")


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False,
                      allow_broadcast=False):
    """A TensorProto for `values`, as tf.make_tensor_proto writes it."""
    if isinstance(values, tensor_pb2.TensorProto):
        return values
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(values, (np.ndarray, np.generic)):
        if dtype is not None and dtype.is_numpy_compatible and dtype != dtypes.string:
            nparray = values.astype(dtype.as_numpy_dtype)
        else:
            nparray = np.asarray(values)
    else:
        if values is None:
            raise ValueError("None values not supported.")
        np_dt = dtype.as_numpy_dtype if dtype is not None and dtype.is_numpy_compatible else None
        if shape is not None and np.prod(shape, dtype=np.int64) == 0:
            nparray = np.empty(shape, dtype=np_dt)
        else:
            _assert_compatible(values, dtype)
            try:
                nparray = np.array(values, dtype=np_dt)
            except OverflowError:
                # TensorFlow wraps out-of-range Python ints as a C cast would (2**40 -> 0).
                nparray = np.array(values).astype(np_dt)
            if list(nparray.shape) != _dense_dimensions(values):
                raise ValueError(f"Expected values {values} to be a dense tensor with shape "
                                 f"{_dense_dimensions(values)}, but got shape "
                                 f"{list(nparray.shape)}.")
        if nparray.dtype == np.float64 and dtype is None:
            nparray = nparray.astype(np.float32)
        elif nparray.dtype == np.int64 and dtype is None:
            downcast = nparray.astype(np.int32)
            if np.array_equal(downcast, nparray):
                nparray = downcast
    if nparray.dtype.kind == "O" and dtype is None:
        # A list that mixes types NumPy can only hold as objects.
        if not all(isinstance(v, (bytes, str)) for v in nparray.ravel().tolist()):
            raise TypeError(f"Failed to convert elements of {values} to Tensor. Consider "
                            f"casting elements to a supported type. See "
                            f"https://www.tensorflow.org/api_docs/python/tf/dtypes for "
                            f"supported TF dtypes.")
    try:
        numpy_dtype = dtypes.as_dtype(nparray.dtype)
    except TypeError:
        raise TypeError(f"Unrecognized data type: {nparray.dtype}") from None
    if dtype is not None and dtype.is_quantized and nparray.dtype == dtype.as_numpy_dtype:
        numpy_dtype = dtype.base_dtype  # quint8 held as uint8, as tf.constant(x, tf.quint8)
    if dtype is not None and dtype.base_dtype != numpy_dtype.base_dtype:
        raise TypeError(f"`dtype` {dtype} is not compatible with {values} of dtype "
                        f"{nparray.dtype}.")
    if shape is None:
        shape = nparray.shape
        is_same_size = True
        shape_size = nparray.size
    else:
        shape = [int(dim) for dim in shape]
        shape_size = int(np.prod(shape, dtype=np.int64))
        is_same_size = shape_size == nparray.size
        if allow_broadcast:
            if nparray.shape == (1,) or nparray.shape == tuple():
                pass
            elif nparray.size != shape_size:
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got "
                                f"{nparray.shape}.")
        else:
            if verify_shape and nparray.shape != tuple(shape):
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got "
                                f"{nparray.shape}.")
            if nparray.size > shape_size:
                raise ValueError(f"Too many elements provided. Takes at most {shape_size:d}, "
                                 f"but got {nparray.size:d}.")
    proto = tensor_pb2.TensorProto(dtype=numpy_dtype.as_datatype_enum,
                                   tensor_shape=as_shape(shape).as_proto())
    if is_same_size and numpy_dtype in _TENSOR_CONTENT_TYPES and shape_size > 1:
        proto.tensor_content = nparray.tobytes()
        return proto
    if numpy_dtype == dtypes.string and not isinstance(values, np.ndarray):
        flat = list(_flatten(values))
        if not all(isinstance(v, (bytes, str)) for v in flat):
            raise TypeError(f"Failed to convert elements of {values} to Tensor. Consider casting "
                            f"elements to a supported type. See "
                            f"https://www.tensorflow.org/api_docs/python/tf/dtypes for "
                            f"supported TF dtypes.")
        proto.string_val.extend(_as_bytes(v) for v in flat)
        return proto
    _append(proto, nparray.ravel())
    return proto


def _memory_bytes():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 40


# What one element costs at least: a string is a Python object (a pointer and a bytes object).
_STRING_ELEMENT_BYTES = 64


def check_allocatable(shape, tensor_dtype):
    """MemoryError, worded as TensorFlow's OOM, when a tensor of `shape` could never fit in
    this machine's memory (a GraphDef can declare 10^12 elements in a few bytes)."""
    if any(d < 0 for d in shape):
        raise ValueError(f"tensor shape {list(shape)} has a negative dimension")
    num_elements = 1
    for d in shape:
        num_elements *= d  # Python ints: no overflow however absurd the dims
    itemsize = _STRING_ELEMENT_BYTES if tensor_dtype == dtypes.string else \
        np.dtype(tensor_dtype.as_numpy_dtype).itemsize
    if num_elements * itemsize > _memory_bytes():
        dims = ",".join(str(d) for d in shape)
        type_name = {"float32": "float", "float64": "double"}.get(tensor_dtype.name, tensor_dtype.name)
        raise MemoryError(f"OOM when allocating tensor with shape[{dims}] and type "
                          f"{type_name} by allocator cpu")


def MakeNdarray(tensor):  # noqa: N802  (TensorFlow's name)
    """The NumPy array a TensorProto holds (repeated fields padded with their last value, or
    cut to the shape's size as TensorFlow's Tensor::FromProto copies them: tf.zeros([2, 0],
    tf.string) stores one ""); MemoryError naming the shape when it could never fit in
    memory."""
    shape = [d.size for d in tensor.tensor_shape.dim]
    tensor_dtype = dtypes.as_dtype(tensor.dtype)
    check_allocatable(shape, tensor_dtype)
    num_elements = int(np.prod(shape, dtype=np.int64))
    dtype = tensor_dtype.as_numpy_dtype
    if tensor.tensor_content:
        return np.frombuffer(tensor.tensor_content, dtype=dtype).copy().reshape(shape)
    if tensor_dtype == dtypes.string:
        values = list(tensor.string_val)[:num_elements]
        padding = num_elements - len(values)
        if padding > 0:
            values.extend([values[-1] if values else b""] * padding)
        return np.array(values, dtype=object).reshape(shape)
    values = _stored_values(tensor, tensor_dtype)
    if values.size == 0:
        return np.zeros(shape, dtype)
    if values.size > num_elements:
        values = values[:num_elements]
    elif values.size != num_elements:
        values = np.pad(values, (0, num_elements - values.size), "edge")
    return values.reshape(shape)


def shape_elements(shape):
    """The element count of a TensorShapeProto as an exact Python int (a file may declare
    10^12 elements in a few bytes); None for an unknown rank or an unknown (-1) dimension."""
    if shape.unknown_rank or any(d.size < 0 for d in shape.dim):
        return None
    return math.prod(d.size for d in shape.dim)


def splat_value(tensor):
    """The one value every element of a numeric TensorProto holds (a NumPy scalar), else None
    (values that differ, no elements, strings). Read from what is stored, never the padded
    array: a folded tf.ones([10**9]) is one float_val, and stays one."""
    tensor_dtype = dtypes.as_dtype(tensor.dtype)
    count = shape_elements(tensor.tensor_shape)
    if tensor_dtype == dtypes.string or not count:
        return None
    if tensor.tensor_content:
        itemsize = np.dtype(tensor_dtype.as_numpy_dtype).itemsize
        if len(tensor.tensor_content) != count * itemsize:
            return None  # malformed: MakeNdarray says what is wrong with it
        values = np.frombuffer(tensor.tensor_content, tensor_dtype.as_numpy_dtype)
    else:
        values = _stored_values(tensor, tensor_dtype)
    if values.size == 0:
        return tensor_dtype.as_numpy_dtype(0)  # no values stored: all zeros
    first = values[0]
    return first if (values == first).all() else None


def _stored_values(tensor, tensor_dtype):
    """The typed values a TensorProto stores (not padded to its shape), as an array."""
    dtype = tensor_dtype.as_numpy_dtype
    if tensor_dtype in (dtypes.float16, dtypes.bfloat16):
        values = np.array(list(tensor.half_val), dtype=np.uint16).view(np.float16)
    elif tensor_dtype == dtypes.float32:
        values = np.array(tensor.float_val, dtype=dtype)
    elif tensor_dtype == dtypes.float64:
        values = np.array(tensor.double_val, dtype=dtype)
    elif tensor_dtype == dtypes.int64:
        values = np.array(tensor.int64_val, dtype=dtype)
    elif tensor_dtype == dtypes.uint32:
        values = np.array(tensor.uint32_val, dtype=dtype)
    elif tensor_dtype == dtypes.uint64:
        values = np.array(tensor.uint64_val, dtype=dtype)
    elif tensor_dtype in (dtypes.complex64, dtypes.complex128):
        pairs = tensor.scomplex_val if tensor_dtype == dtypes.complex64 else tensor.dcomplex_val
        # (the parts as they are: arithmetic would make NaN of an infinite part's partner)
        part = np.float32 if tensor_dtype == dtypes.complex64 else np.float64
        values = np.array(pairs, dtype=part).view(dtype)
    elif tensor_dtype == dtypes.bool:
        values = np.array(tensor.bool_val, dtype=dtype)
    elif tensor_dtype.is_integer or tensor_dtype.name.startswith(("qint", "quint")):
        values = np.array(tensor.int_val, dtype=dtype)
    else:
        raise TypeError(f"Unsupported tensor type: {tensor.dtype}. See "
                        f"https://www.tensorflow.org/api_docs/python/tf/dtypes for supported "
                        f"TF dtypes.")
    return values


make_ndarray = MakeNdarray


def constant_value(tensor, partial=False):
    """The tensor's value if it is statically known (Const, Shape of a full shape, ...).

    Walks the producers with a stack, not recursion: a graph can chain thousands of Identity
    ops between a Const and its user.
    """
    if not isinstance(tensor, Tensor):
        raise TypeError(f"{tensor!r} must be a Tensor, but got {type(tensor)}.")
    known = {}  # (id(tensor), partial) -> value or None
    pending = [(tensor, partial)]
    on_stack = set()
    while pending:
        current, current_partial = pending[-1]
        key = (id(current), current_partial)
        if key in known:
            pending.pop()
            continue
        needed = [(t, p) for t, p in _folded_inputs(current, current_partial)
                  if (id(t), p) not in known]
        if needed and key not in on_stack:
            on_stack.add(key)
            pending.extend(needed)
            continue
        pending.pop()
        on_stack.discard(key)
        inputs = [known.get((id(t), p)) for t, p in _folded_inputs(current, current_partial)]
        known[key] = _fold(current, current_partial, inputs)
    return known[(id(tensor), partial)]


def _folded_inputs(tensor, partial):
    """(input tensor, partial) pairs whose constant values fold into `tensor`'s."""
    op = tensor.op
    kind = op.type
    if kind in ("Range", "ConcatV2"):
        return [(t, False) for t in op.inputs]
    if kind == "Cast":
        return [(op.inputs[0], False)]
    if kind == "Pack" and op.inputs and op.get_attr("axis") == 0:
        return [(t, partial) for t in op.inputs]
    if kind == "Fill":
        return [(op.inputs[1], False)]
    if kind in ("Identity", "StopGradient"):
        return [(op.inputs[0], partial)]
    return []


def _fold(tensor, partial, parts):
    """`tensor`'s constant value from its folded inputs' values (None where unknown)."""
    op = tensor.op
    kind = op.type
    if kind == "Const":
        return op._const_value()
    if kind in ("Shape", "Size", "Rank"):
        shape = op.inputs[0].shape
        if kind == "Rank":
            return None if shape.ndims is None else np.array(shape.ndims, np.int32)
        if not shape.is_fully_defined():
            return None
        if kind == "Size":
            return np.array(shape.num_elements(), tensor.dtype.as_numpy_dtype)
        return np.array(shape.as_list(), tensor.dtype.as_numpy_dtype)
    if kind == "Range":
        if any(p is None for p in parts):
            return None
        return np.arange(*parts, dtype=tensor.dtype.as_numpy_dtype)
    if kind == "Cast":
        return None if parts[0] is None else parts[0].astype(tensor.dtype.as_numpy_dtype)
    if kind == "ConcatV2":
        if any(p is None for p in parts):
            return None
        return np.concatenate(parts[:-1], axis=int(parts[-1]))
    if kind == "Pack":
        if not op.inputs or op.get_attr("axis") != 0:
            return None
        if any(p is None for p in parts) and not partial:
            return None
        try:
            return np.array(parts)
        except ValueError:
            return np.array(parts, dtype=object)
    if kind == "Fill":
        if tensor.shape.is_fully_defined() and parts[0] is not None:
            return np.full(tensor.shape.as_list(), parts[0], dtype=parts[0].dtype)
        return None
    if kind in ("Identity", "StopGradient"):
        return parts[0]
    return None


# How many ConcatV2/Cast/StridedSlice levels constant_value_as_shape looks through; past it
# the shape is unknown (a hostile graph can chain thousands).
_SHAPE_DEPTH = 64


def constant_value_as_shape(tensor, _depth=0):
    """A TensorShape from a 1-D shape tensor, with the parts known statically."""
    shape = tensor.shape.with_rank(1) if tensor.shape.ndims is not None else tensor.shape
    if _depth > _SHAPE_DEPTH:
        return unknown_shape(shape[0].value) if shape.ndims == 1 and shape[0].value is not None \
            else unknown_shape()
    if shape == [0]:
        return TensorShape([])
    op = tensor.op
    if op.type == "Shape":
        return op.inputs[0].shape
    if op.type == "Pack":
        dims = []
        for part in op.inputs:
            value = constant_value(part)
            dims.append(None if value is None or value < 0 else int(value))
        return TensorShape(dims)
    if op.type == "ConcatV2":
        result = TensorShape([])
        for part in op.inputs[:-1]:
            result = result.concatenate(constant_value_as_shape(part, _depth + 1))
        return result
    if op.type == "Cast" and tensor.dtype.base_dtype.name in ("int32", "int64"):
        return constant_value_as_shape(op.inputs[0], _depth + 1)
    if op.type == "StridedSlice":
        sliced = _sliced_shape(op, _depth)
        if sliced is not None:
            return sliced
    value = constant_value(tensor)
    if value is not None:
        return TensorShape([None if d == -1 else int(d) for d in value.tolist()])
    if shape.ndims == 1 and shape[0].value is not None:
        return unknown_shape(shape[0].value)
    return unknown_shape()


def _sliced_shape(op, _depth=0):
    """constant_value_as_shape of a 1-D StridedSlice of a shape tensor (shape[1:], ...)."""
    parts = [constant_value(t) for t in op.inputs[1:4]]
    if any(p is None or np.size(p) != 1 for p in parts):
        return None
    begin, end, stride = (int(np.reshape(p, -1)[0]) for p in parts)
    masks = {k: op.get_attr(k) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                          "new_axis_mask", "shrink_axis_mask")}
    if masks["ellipsis_mask"] or masks["new_axis_mask"] or masks["shrink_axis_mask"] or \
            masks["begin_mask"] not in (0, 1) or masks["end_mask"] not in (0, 1):
        return None
    dims = constant_value_as_shape(op.inputs[0], _depth + 1)
    if dims.ndims is None:
        return None
    return TensorShape(dims.as_list()[None if masks["begin_mask"] else begin:
                                      None if masks["end_mask"] else end:stride])
