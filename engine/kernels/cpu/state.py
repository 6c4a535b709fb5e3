"""NumPy CPU kernels: ref variables (VariableV2, Assign, ...) and resource variables.

A ref variable's buffer is the session's `Ref` (ctx.resources.ref(node name)); Assign copies
into it, AssignAdd/AssignSub update it in place, so a tensor aliasing the buffer (an Identity
of the variable) sees later updates within a run, as in TensorFlow 1.x. Resource variables
live in ctx.resources.variable(handle).
"""

import numpy as np

from engine.framework.dtypes import as_dtype
from engine.framework.errors import (FailedPreconditionError, InvalidArgumentError, NotFoundError,
                                     OutOfRangeError)
from engine.kernels import register, register_table
from engine.kernels.common import datatype_string, resource_handle, shape_str
from engine.kernels.cpu.array import index_error
from engine.runtime.resources import ResourceHandle, locked

DEFAULT_CONTAINER = b"localhost"


def uninitialized(ctx, ref):
    return FailedPreconditionError(ctx.node_def, None,
                                   f"Attempting to use uninitialized value {ref.name}")


class Arrays:
    """Where a device's variable buffers live: its array module `xp`, `owned(value)` (a fresh
    buffer holding value on the device, copied from the host when it is there) and
    `on_device(value)` (value readable by xp's functions, copied only when it must be)."""

    def __init__(self, xp, owned, on_device, from_host):
        self.xp, self.owned, self.on_device, self.from_host = xp, owned, on_device, from_host


HOST = Arrays(np, lambda value: np.array(value, copy=True), lambda value: value, np.array)


def shape_of(value):
    shape = getattr(value, "shape", None)
    return shape if shape is not None else np.shape(value)


def ref_variable_kernels(arrays):
    """Kernels of the ref-variable ops whose buffers live where `arrays` says."""
    xp = arrays.xp

    def variable(ctx):
        name = ctx.attrs.get("shared_name") or ctx.name
        if isinstance(name, bytes):
            name = name.decode()
        ref = ctx.resources.ref(name, ctx.attrs["dtype"])
        shape = ctx.attrs.get("shape")
        if shape is not None and getattr(shape, "is_fully_defined", lambda: False)():
            ref.declared_shape = tuple(shape.as_list())
        return ref

    def is_variable_initialized(ctx, ref):
        return arrays.from_host(np.array(ref.value is not None))

    def store(ref, value):
        """Copy `value` into the buffer: in place when the shape is unchanged, as TensorFlow."""
        current = ref.value
        if current is not None and current.shape == shape_of(value) \
                and getattr(current.flags, "writeable", True):
            xp.copyto(current, arrays.on_device(value))
        else:
            ref.value = arrays.owned(value)

    def assign(ctx, ref, value):
        current = ref.value
        lhs = current.shape if current is not None else getattr(ref, "declared_shape", None)
        if ctx.attrs.get("validate_shape", True) and lhs is not None \
                and tuple(lhs) != tuple(shape_of(value)):
            raise InvalidArgumentError(
                ctx.node_def, None, f"Assign requires shapes of both tensors to match. lhs "
                                    f"shape= {shape_str(lhs)} rhs shape= "
                                    f"{shape_str(shape_of(value))}")
        with locked([ref], ctx.attrs.get("use_locking", True)):
            store(ref, value)
        return ref

    def update(ufunc):
        def kernel(ctx, ref, value):
            current = ref.value
            if current is None:
                raise uninitialized(ctx, ref)
            if current.shape != shape_of(value):
                raise InvalidArgumentError(ctx.node_def, None,
                                           "Parameters and update must be the same size")
            with locked([ref], ctx.attrs.get("use_locking", False)):
                ufunc(ref.value, arrays.on_device(value), out=ref.value)
            return ref
        return kernel

    return {"Variable": variable, "VariableV2": variable, "TemporaryVariable": variable,
            "IsVariableInitialized": is_variable_initialized, "Assign": assign,
            "AssignAdd": update(xp.add), "AssignSub": update(xp.subtract)}


# --- resource variables ---

def _text(value):
    return value.decode() if isinstance(value, bytes) else (value or "")


def var_handle_op(ctx):
    attrs = ctx.attrs
    container = _text(attrs.get("container")) or DEFAULT_CONTAINER.decode()
    name = _text(attrs.get("shared_name")) or ctx.name
    return ResourceHandle(container, name, ctx.device, attrs.get("dtype"), attrs.get("shape"))


def _not_found(ctx, handle):
    containers = {container for container, _ in ctx.resources.variables}
    where = f"{handle.container}/{handle.name}"
    if handle.container not in containers:
        return f"Container {handle.container} does not exist. (Could not find resource: {where})"
    return f"Resource {where}/N10tensorflow3VarE does not exist."


def _existing(ctx, handle):
    buffer = ctx.resources.variables.get((handle.container, handle.name))
    return buffer if buffer is not None and buffer.value is not None else None


def _dtype_name(np_dtype):
    return datatype_string(as_dtype(np_dtype))


def resource_variable_kernels(arrays):
    """Kernels reading and writing resource variables whose buffers live where `arrays` says
    (the handle ops, VarHandleOp and DestroyResourceOp, hold no array and are shared)."""

    def read_variable_op(ctx, resource):
        handle = resource_handle(resource)
        buffer = _existing(ctx, handle)
        if buffer is None:
            raise FailedPreconditionError(
                ctx.node_def, None,
                f"Could not find variable {handle.name}. This could mean that the variable has "
                f"been deleted. In TF1, it can also mean the variable is uninitialized. Debug "
                f"info: container={handle.container}, status error message="
                f"{_not_found(ctx, handle)}")
        dtype = ctx.attrs.get("dtype")
        if dtype is not None and buffer.value.dtype != dtype.as_numpy_dtype:
            raise InvalidArgumentError(
                ctx.node_def, None, f"Trying to read variable with wrong dtype. Expected "
                                    f"{_dtype_name(buffer.value.dtype)} got "
                                    f"{datatype_string(dtype)}")
        # Resource updates replace the buffer rather than write into it: a read is a snapshot.
        return buffer.value

    def assign_variable_op(ctx, resource, value):
        handle = resource_handle(resource)
        dtype = ctx.attrs.get("dtype")
        buffer = ctx.resources.variable(handle)
        if dtype is not None and buffer.value is not None \
                and buffer.value.dtype != dtype.as_numpy_dtype:
            raise InvalidArgumentError(
                ctx.node_def, None, f"Trying to assign variable with wrong dtype. Expected "
                                    f"{_dtype_name(buffer.value.dtype)} got "
                                    f"{datatype_string(dtype)}")
        if ctx.attrs.get("validate_shape", False) and buffer.value is not None \
                and buffer.value.shape != shape_of(value):
            raise InvalidArgumentError(
                ctx.node_def, None, f"Trying to assign to variable with tensor with wrong "
                                    f"shape. Expected {shape_str(buffer.value.shape)} got "
                                    f"{shape_str(shape_of(value))}")
        owned = arrays.owned(value)
        with locked([buffer]):
            buffer.value = owned
        return None

    def update_variable(ufunc):
        def kernel(ctx, resource, value):
            handle = resource_handle(resource)
            buffer = _existing(ctx, handle)
            if buffer is None:
                raise NotFoundError(ctx.node_def, None, _not_found(ctx, handle))
            if buffer.value.shape != shape_of(value):
                raise InvalidArgumentError(
                    ctx.node_def, None, f"Cannot update variable with shape "
                                        f"{shape_str(buffer.value.shape)} using a Tensor with "
                                        f"shape {shape_str(shape_of(value))}, shapes must be "
                                        f"equal.")
            with locked([buffer]):  # TensorFlow always locks resource variable updates
                buffer.value = ufunc(buffer.value, arrays.on_device(value))
            return None
        return kernel

    def var_is_initialized_op(ctx, resource):
        return arrays.from_host(np.array(_existing(ctx, resource_handle(resource)) is not None))

    def existing_or_not_found(ctx, resource):
        handle = resource_handle(resource)
        buffer = _existing(ctx, handle)
        if buffer is None:
            raise NotFoundError(ctx.node_def, None, _not_found(ctx, handle))
        return buffer

    def resource_gather(ctx, resource, indices):
        """Rows of the variable (TensorFlow's ResourceGatherOp), read under its lock."""
        buffer = existing_or_not_found(ctx, resource)
        with locked([buffer]):
            params = buffer.value
        batch_dims = ctx.attrs.get("batch_dims", 0)
        if batch_dims < 0:
            batch_dims += np.ndim(indices)
        if np.ndim(params) < 1:
            raise InvalidArgumentError(ctx.node_def, None,
                                       "params must be at least 1 dimensional")
        if np.ndim(params) < batch_dims:
            raise InvalidArgumentError(
                ctx.node_def, None, f"params must have at least {batch_dims} (batch_dims) "
                                    f"dimensions but it has shape {shape_str(shape_of(params))}")
        return gather_rows(ctx, arrays.xp, params, indices, batch_dims)

    def variable_shape(ctx, resource):
        """The variable's shape (in host memory on a GPU too, as TensorFlow's)."""
        value = existing_or_not_found(ctx, resource).value
        return np.array(shape_of(value), ctx.attrs.get("out_type").as_numpy_dtype)

    def resource_count_up_to(ctx, resource):
        """The variable's value before adding one; OutOfRangeError once it reached limit."""
        buffer = existing_or_not_found(ctx, resource)
        limit = int(ctx.attr("limit"))
        with locked([buffer]):
            value = buffer.value
            if len(shape_of(value)) != 0:
                raise InvalidArgumentError(ctx.node_def, None, "input is not a scalar: "
                                                               f"{shape_str(shape_of(value))}")
            if int(value) >= limit:
                raise OutOfRangeError(ctx.node_def, None, f"Reached limit of {limit}")
            buffer.value = value + arrays.xp.asarray(1, dtype=value.dtype)
        return value

    def disable_copy_on_read(ctx, resource):
        # The engine never copies a variable for a read (its updates replace the buffer), so
        # there is no mode to change; the variable must exist, as TensorFlow looks it up.
        existing_or_not_found(ctx, resource)

    return {"ReadVariableOp": read_variable_op, "AssignVariableOp": assign_variable_op,
            "AssignAddVariableOp": update_variable(arrays.xp.add),
            "AssignSubVariableOp": update_variable(arrays.xp.subtract),
            "VarIsInitializedOp": var_is_initialized_op, "ResourceGather": resource_gather,
            "DisableCopyOnRead": disable_copy_on_read, "VariableShape": variable_shape,
            "ResourceCountUpTo": resource_count_up_to}


def gather_rows(ctx, xp, params, indices, batch_dims):
    """params[indices] along axis batch_dims, TensorFlow's error for an index out of range
    (checked on a host copy: TensorFlow's GPU kernel reads indices on the device too)."""
    host_indices = np.asarray(indices.get() if hasattr(indices, "get") and not
                              isinstance(indices, np.ndarray) else indices)
    limit = shape_of(params)[batch_dims]
    if host_indices.size and (host_indices.min() < 0 or host_indices.max() >= limit):
        index_error(ctx, host_indices, limit)
    indices = xp.asarray(indices)
    if batch_dims == 0:
        return xp.take(params, indices, axis=0)
    batch = tuple(shape_of(params)[:batch_dims])
    flat_params = params.reshape((-1,) + tuple(shape_of(params)[batch_dims:]))
    flat_indices = indices.reshape((-1,) + tuple(indices.shape[batch_dims:]))
    tail = tuple(indices.shape[batch_dims:]) + tuple(shape_of(params)[batch_dims + 1:])
    if flat_params.shape[0] == 0:
        return xp.empty(batch + tail, params.dtype)
    return xp.stack([xp.take(p, i, axis=0) for p, i in zip(flat_params, flat_indices)]) \
        .reshape(batch + tail)


def destroy_resource_op(ctx, resource):
    handle = resource_handle(resource)
    key = (handle.container, handle.name)
    if key not in ctx.resources.variables and not ctx.attrs.get("ignore_lookup_error", True):
        raise NotFoundError(ctx.node_def, None, _not_found(ctx, handle))
    ctx.resources.variables.pop(key, None)
    return None


register("VarHandleOp")(var_handle_op)
register("DestroyResourceOp")(destroy_resource_op)
register_table(ref_variable_kernels(HOST))
register_table(resource_variable_kernels(HOST))
