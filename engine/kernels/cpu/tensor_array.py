"""NumPy CPU kernels of the TensorArray ops: TensorArrayV3 and its Read, Write, Gather,
Scatter, Concat, Split, Size, Close and Grad (TensorFlow's tensor_array.h semantics).

A TensorArray is a resource of the step, found by its handle (a ResourceHandle named as
TensorFlow names arrays: the tensor_array_name attr or the node's name, "_<counter>"). Its
element slots remember whether they were written, read or cleared, so the errors TensorFlow
raises (a second write, a read after clear_after_read, an index past a fixed size) come with
TensorFlow's words. The flow tensor is a float scalar passed through: it only orders the ops.
A gradient array ("<name>@<source>", made by TensorArrayGradV3) adds a second write to a
slot into the first, and an unwritten slot reads as zeros of its forward element's shape.
TensorFlow drops the arrays when the step ends; the engine has no end-of-step hook, so the
arrays of steps more than _STEPS_KEPT behind the one creating an array are dropped then.
"""

import itertools

import numpy as np

from engine.framework import dtypes
from engine.kernels import register
from engine.kernels.common import datatype_string, int_scalar, invalid, open_resource
from engine.runtime.resources import ResourceHandle
from engine.framework.tensor_shape import TensorShape, shape_text

_COUNTER = itertools.count()
_STEPS_KEPT = 16
_FLOW = np.float32(0.0)


class _Slot:
    __slots__ = ("value", "shape", "written", "read", "cleared")

    def __init__(self):
        self.value, self.shape = None, None
        self.written = self.read = self.cleared = False


class _TensorArray:
    """One array's elements and flags (TensorFlow's TensorArray class)."""

    def __init__(self, name, dtype, size, element_shape, dynamic_size, clear_after_read,
                 identical_element_shapes, step_id, is_grad=False):
        self.name, self.dtype, self.step_id = name, dtype, step_id
        self.slots = [_Slot() for _ in range(size)]
        self.element_shape = element_shape  # a TensorShape, possibly partial
        self.dynamic_size, self.clear_after_read = dynamic_size, clear_after_read
        self.identical_element_shapes = identical_element_shapes
        self.is_grad, self.closed = is_grad, False
        self.grads = {}  # source -> the gradient array made for it

    def label(self):
        return f"TensorArray {self.name}"

    def write(self, ctx, index, value):
        if index < 0 or (index >= len(self.slots) and not self.dynamic_size):
            raise invalid(ctx, f"{self.label()}: Tried to write to index {index} but array is "
                               f"not resizeable and size is: {len(self.slots)}")
        while index >= len(self.slots):
            self.slots.append(_Slot())
        if not self.element_shape.is_compatible_with(TensorShape(value.shape)):
            raise invalid(ctx, f"{self.label()}: Could not write to TensorArray index "
                               f"{index} because the value shape is {shape_text(value.shape)} which is incompatible "
                               f"with the TensorArray's inferred element shape: "
                               f"{shape_text(self.element_shape)} (consider setting "
                               f"infer_shape=False).")
        if self.identical_element_shapes and not self.element_shape.is_fully_defined():
            self.element_shape = TensorShape(value.shape)
        slot = self.slots[index]
        if slot.read:
            raise invalid(ctx, f"{self.label()}: Could not write to TensorArray index {index} "
                               f"because it has already been read.")
        if slot.written and not self.is_grad:
            raise invalid(ctx, f"{self.label()}: Could not write to TensorArray index {index} "
                               f"because it has already been written to.")
        if slot.written:  # a gradient array sums what its slot receives
            if tuple(value.shape) != tuple(slot.shape):
                raise invalid(ctx, f"{self.label()}: Could not aggregate to TensorArray index "
                                   f"{index} because the existing shape is "
                                   f"{shape_text(slot.shape)} but the new input shape is "
                                   f"{shape_text(value.shape)}.")
            slot.value = value if slot.value is None else slot.value + value
            return
        slot.value, slot.shape, slot.written = value, tuple(value.shape), True

    def read(self, ctx, index):
        if index < 0 or (not self.is_grad and index >= len(self.slots)):
            raise invalid(ctx, f"Tried to read from index {index} but array size is: "
                               f"{len(self.slots)}")
        slot = self.slots[index] if index < len(self.slots) else None
        if slot is None or not slot.written:
            if self.is_grad and slot is not None and slot.shape:
                shape = slot.shape  # the forward element's shape, copied by TensorArrayGrad
            elif self.element_shape.is_fully_defined():
                shape = tuple(self.element_shape.as_list())
            else:
                raise invalid(ctx, f"{self.label()}: Could not read from TensorArray index "
                                   f"{index}.  Furthermore, the element shape is not fully "
                                   f"defined: {shape_text(self.element_shape)}.  It is possible "
                                   f"you are working with a resizeable TensorArray and "
                                   f"stop_gradients is not allowing the gradients to be "
                                   f"written.  If you set the full element_shape property on "
                                   f"the forward TensorArray, the proper all-zeros tensor will "
                                   f"be returned instead of incurring this error.")
            return np.zeros(shape, self.dtype.as_numpy_dtype)
        if slot.cleared:
            raise invalid(ctx, f"{self.label()}: Could not read index {index} twice because "
                               f"it was cleared after a previous read (perhaps try setting "
                               f"clear_after_read = false?).")
        value = slot.value
        if slot.value is None:  # a gradient slot holding only a shape: zeros
            value = np.zeros(slot.shape, self.dtype.as_numpy_dtype)
        if self.clear_after_read:
            slot.value, slot.cleared = None, True
        slot.read = True
        return value


def _lookup(ctx, handle):
    return open_resource(ctx, "tensor_arrays", handle)


def _check_dtype(ctx, array, value):
    value = np.asarray(value)
    if dtypes.as_dtype(value.dtype) != array.dtype:
        raise invalid(ctx, f"TensorArray dtype is {datatype_string(array.dtype)} but Op is "
                           f"trying to write dtype "
                           f"{datatype_string(dtypes.as_dtype(value.dtype))}.")
    return value


def _new(ctx, name, array):
    arrays = ctx.resources.table("tensor_arrays")
    for key in [k for k, a in arrays.items() if a.step_id < ctx.step_id - _STEPS_KEPT]:
        del arrays[key]
    arrays[name] = array
    return ResourceHandle("", name, ctx.device, array.dtype, ())


@register("TensorArrayV3")
def tensor_array_v3(ctx, size):
    size = int_scalar(ctx, size, "size")
    if size < 0:
        raise invalid(ctx, "Size should be >= 0.")
    attrs = ctx.attrs
    base = attrs.get("tensor_array_name") or b""
    base = (base.decode() if isinstance(base, bytes) else base) or ctx.name
    name = f"{base}_{next(_COUNTER)}"
    array = _TensorArray(name, dtypes.as_dtype(attrs["dtype"]), size,
                         attrs.get("element_shape") or TensorShape(None),
                         bool(attrs.get("dynamic_size")), attrs.get("clear_after_read", True),
                         bool(attrs.get("identical_element_shapes")), ctx.step_id)
    return _new(ctx, name, array), _FLOW


@register("TensorArrayGradV3")
def tensor_array_grad_v3(ctx, handle, flow_in):
    forward = _lookup(ctx, handle)
    source = ctx.attrs.get("source") or b""
    source = source.decode() if isinstance(source, bytes) else source
    grad = forward.grads.get(source)
    if grad is None:
        grad = _TensorArray(f"{forward.name}@{source}", forward.dtype, len(forward.slots),
                            forward.element_shape, False, True,
                            forward.identical_element_shapes, ctx.step_id, is_grad=True)
        for slot, forward_slot in zip(grad.slots, forward.slots):
            slot.shape = forward_slot.shape  # unwritten gradient slots read as these zeros
        forward.grads[source] = grad
        _new(ctx, grad.name, grad)
    return ResourceHandle("", grad.name, ctx.device, grad.dtype, ()), np.float32(flow_in)


@register("TensorArrayWriteV3")
def tensor_array_write_v3(ctx, handle, index, value, flow_in):
    array = _lookup(ctx, handle)
    array.write(ctx, int_scalar(ctx, index, "index"), _check_dtype(ctx, array, value))
    return np.float32(flow_in)


@register("TensorArrayReadV3")
def tensor_array_read_v3(ctx, handle, index, flow_in):
    array = _lookup(ctx, handle)
    _check_read_dtype(ctx, array)
    return array.read(ctx, int_scalar(ctx, index, "index"))


def _check_read_dtype(ctx, array):
    wanted = dtypes.as_dtype(ctx.attrs["dtype"])
    if wanted != array.dtype:
        raise invalid(ctx, f"TensorArray dtype is {datatype_string(array.dtype)} but Op "
                           f"requested dtype {datatype_string(wanted)}.")


@register("TensorArrayGatherV3")
def tensor_array_gather_v3(ctx, handle, indices, flow_in):
    array = _lookup(ctx, handle)
    _check_read_dtype(ctx, array)
    indices = np.asarray(indices).reshape(-1).tolist()
    if not indices:
        shape = ctx.attrs.get("element_shape") or TensorShape(None)
        if not shape.is_fully_defined():
            shape = array.element_shape
        if not shape.is_fully_defined():
            raise invalid(ctx, f"TensorArray has size zero, but element shape "
                               f"{shape_text(shape)} is not fully defined. Currently only "
                               f"static shapes are supported when packing zero-size "
                               f"TensorArrays.")
        return np.zeros([0] + shape.as_list(), array.dtype.as_numpy_dtype)
    values = [array.read(ctx, i) for i in indices]
    for i, value in enumerate(values[1:], 1):
        if value.shape != values[0].shape:
            raise invalid(ctx, f"TensorArray has inconsistent shapes.  Index 0 has shape: "
                               f"{shape_text(values[0].shape)} but index {i} has shape: "
                               f"{shape_text(value.shape)}")
    return np.stack(values)


@register("TensorArrayScatterV3")
def tensor_array_scatter_v3(ctx, handle, indices, value, flow_in):
    array = _lookup(ctx, handle)
    value = _check_dtype(ctx, array, value)
    indices = np.asarray(indices).reshape(-1).tolist()
    if value.ndim == 0 or value.shape[0] != len(indices):
        raise invalid(ctx, f"Expected len(indices) == values.shape[0], but saw: "
                           f"{len(indices)} vs. {value.shape[0] if value.ndim else 0}")
    for row, index in enumerate(indices):
        array.write(ctx, index, value[row])
    return np.float32(flow_in)


@register("TensorArrayConcatV3")
def tensor_array_concat_v3(ctx, handle, flow_in):
    array = _lookup(ctx, handle)
    _check_read_dtype(ctx, array)
    values = [array.read(ctx, i) for i in range(len(array.slots))]
    for i, value in enumerate(values):
        if value.ndim == 0:
            raise invalid(ctx, f"Concat saw a scalar shape at index {i} but requires at "
                               f"least vectors.  Did you mean to call stack instead?")
        if value.shape[1:] != values[0].shape[1:]:
            raise invalid(ctx, f"TensorArray has inconsistent shapes.  Index 0 has "
                               f"(excepting dimension 0) shape: "
                               f"{shape_text(values[0].shape[1:])} but index {i} has "
                               f"(excepting dimension 0) shape: {shape_text(value.shape[1:])}")
    lengths = np.array([v.shape[0] for v in values], np.int64)
    if not values:
        rest = ctx.attrs.get("element_shape_except0") or TensorShape(None)
        if not rest.is_fully_defined():
            raise invalid(ctx, f"TensorArray has size zero, but element_shape_except0 "
                               f"{shape_text(rest)} is not fully defined. Currently only "
                               f"static shapes are supported when concatenating zero-size "
                               f"TensorArrays.")
        return np.zeros([0] + rest.as_list(), array.dtype.as_numpy_dtype), lengths
    return np.concatenate(values), lengths


@register("TensorArraySplitV3")
def tensor_array_split_v3(ctx, handle, value, lengths, flow_in):
    array = _lookup(ctx, handle)
    value = _check_dtype(ctx, array, value)
    lengths = np.asarray(lengths).reshape(-1).astype(np.int64)
    if value.ndim == 0:
        raise invalid(ctx, f"Expected value to be at least a vector, but received shape: "
                           f"{shape_text(value.shape)}")
    if int(lengths.sum()) != value.shape[0]:
        raise invalid(ctx, f"Expected sum of lengths to be equal to values.shape[0], but sum "
                           f"of lengths is {int(lengths.sum())} and value's shape is: "
                           f"{shape_text(value.shape)}")
    if not array.dynamic_size and len(lengths) > len(array.slots):
        raise invalid(ctx, f"TensorArray's size is not equal to the size of lengths "
                           f"({len(lengths)} vs. {len(array.slots)}), and the TensorArray is "
                           f"not marked as dynamically resizeable")
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    for i in range(len(lengths)):
        array.write(ctx, i, value[offsets[i]:offsets[i + 1]])
    return np.float32(flow_in)


@register("TensorArraySizeV3")
def tensor_array_size_v3(ctx, handle, flow_in):
    return np.int32(len(_lookup(ctx, handle).slots))


@register("TensorArrayCloseV3")
def tensor_array_close_v3(ctx, handle):
    array = _lookup(ctx, handle)
    array.closed = True
    array.slots = []
