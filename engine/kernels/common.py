"""Helpers shared by the NumPy CPU kernels: TensorFlow's error wording, axes, shapes."""

import os
import sys

import numpy as np

from engine.framework.errors import InvalidArgumentError
from engine.framework.tensor_shape import shape_text


# A shape as TensorShape::DebugString writes it: `[2,3]`, `[]`.
shape_str = shape_text


def invalid(ctx, message):
    """The InvalidArgumentError a kernel raises, naming its node."""
    return InvalidArgumentError(getattr(ctx, "node_def", None), None, message)


def split_outputs(parts):
    """A kernel's result of a variable number of outputs (Unpack, Split, SplitV): the one
    array itself when there is one, as the executor stores a one-output node's result."""
    parts = tuple(parts)
    return parts[0] if len(parts) == 1 else parts


def resource_handle(value):
    """The ResourceHandle a resource input holds: fed as itself, or as a 0-d object array."""
    return value.item() if isinstance(value, np.ndarray) else value


def open_resource(ctx, kind, handle):
    """The resource of `kind` (a table of the session's resources, by name) that `handle`
    names, with TensorFlow's error when there is none or it was closed (its `closed` flag;
    its `label()` names it as TensorFlow's messages do)."""
    handle = resource_handle(handle)
    found = ctx.resources.table(kind).get(handle.name)
    if found is None:
        raise invalid(ctx, f"Resource {handle.container}/{handle.name} does not exist.")
    if found.closed:
        raise invalid(ctx, f"{found.label()} has already been closed.")
    return found


def int_scalar(ctx, value, what):
    """A 0-d or 1-element integer tensor's value as a Python int."""
    array = np.asarray(value)
    if array.size != 1:
        raise invalid(ctx, f"{what} must be a scalar, got shape {shape_str(array.shape)}")
    return int(array.reshape(()))


def reduction_axes(ctx, axes, ndims):
    """reduction_indices normalised as TensorFlow's ReductionHelper: sorted, >= 0; an axis out
    of range or named twice (as -1 and 1, say) is TensorFlow's error."""
    result = set()
    for axis in np.asarray(axes).reshape(-1).tolist():
        if not -ndims <= axis < ndims:
            raise invalid(ctx, f"Invalid reduction dimension ({axis} for input with "
                               f"{ndims} dimension(s)")
        if axis % ndims in result:
            raise invalid(ctx, "Invalid reduction arguments: Axes contains duplicate "
                               f"dimension: {axis % ndims}")
        result.add(axis % ndims)
    return tuple(sorted(result))


def check_axis(ctx, axis, ndims, what="dimension"):
    """`axis` in [-ndims, ndims) made non-negative, or TensorFlow's error."""
    if not -ndims <= axis < ndims:
        raise invalid(ctx, f"Expected {what} in the range [{-ndims}, {ndims}), but got {axis}")
    return axis % ndims


_DATATYPE_STRINGS = {"float32": "float", "float64": "double", "float16": "half"}


def datatype_string(dtype):
    """DataTypeString: TensorFlow's C++ name of a dtype ("float" for float32)."""
    return _DATATYPE_STRINGS.get(dtype.name, dtype.name)


def as_array(value, dtype=None):
    """`value` as an ndarray (NumPy scalars from ufuncs included) of `dtype` when given."""
    array = np.asarray(value)
    if dtype is not None and array.dtype != dtype:
        array = array.astype(dtype)
    return array


def write_standard_stream(fd, data):
    """`data` (bytes) to C++'s std::cout (fd 1) or std::cerr (fd 2), where TensorFlow's Print,
    PrintV2 and LOG write: the file descriptor itself, unless the program has put a stream of
    its own in sys.stdout or sys.stderr (the debugger's program-output pane, a notebook's
    cell). Then the text goes there, beside the program's own prints, and not under a TUI
    that owns the terminal."""
    stream = sys.stdout if fd == 1 else sys.stderr
    if stream is None or stream is (sys.__stdout__ if fd == 1 else sys.__stderr__):
        os.write(fd, data)
        return
    stream.write(data.decode("utf-8", "backslashreplace"))
    stream.flush()
