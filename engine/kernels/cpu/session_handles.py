"""NumPy CPU kernels of the session-handle ops (GetSessionHandle, GetSessionHandleV2,
GetSessionTensor, DeleteSessionTensor), as TensorFlow's session_ops.cc runs them: a handle
is "<node name>;<id>;<device>", the id the session's next; the value waits in the session's
store under that handle until a DeleteSessionTensor (or the session) drops it."""

import threading

import numpy as np

from engine.framework import dtypes, errors
from engine.kernels import register
from engine.kernels.common import datatype_string
from engine.runtime.resources import ResourceHandle

_LOCK = threading.Lock()
_FULL_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def _store(resources):
    return resources.table("session_tensors")


def _new_handle(ctx, value):
    store = _store(ctx.resources)
    device = _device_name(ctx.device)
    with _LOCK:
        handle_id = store.setdefault("__next_id__", 0)
        store["__next_id__"] = handle_id + 1
        handle = f"{ctx.name};{handle_id};{device}"
        store[handle] = np.array(value, copy=True)
    return handle


def _device_name(device):
    """The device's full name, as a handle spells it."""
    if not device:
        return _FULL_CPU
    if device.startswith("/job:"):
        return device
    return "/job:localhost/replica:0/task:0" + (device if device.startswith("/device:")
                                                 else "/device:" + device.lstrip("/"))


def _lookup(ctx, handle):
    value = _store(ctx.resources).get(handle)
    if value is None or handle == "__next_id__":
        raise errors.InvalidArgumentError(
            ctx.node_def, None, f"The tensor with handle '{handle}' is not in the session "
                                f"store.")
    return value


def _text(value):
    value = np.asarray(value).item() if isinstance(value, np.ndarray) else value
    return value.decode() if isinstance(value, bytes) else str(value)


@register("GetSessionHandle")
def get_session_handle(ctx, value):
    return np.array(_new_handle(ctx, value).encode(), object)


@register("GetSessionHandleV2")
def get_session_handle_v2(ctx, value):
    handle = _new_handle(ctx, value)
    return ResourceHandle("TensorHandle", handle, handle.rsplit(";", 1)[-1], None, ())


@register("GetSessionTensor")
def get_session_tensor(ctx, handle):
    value = _lookup(ctx, _text(handle))
    declared = ctx.attr("dtype")
    stored = dtypes.as_dtype(value.dtype) if value.dtype != object else dtypes.string
    if stored != declared:   # TensorFlow's executor checks each output's type
        raise errors.InternalError(
            ctx.node_def, None, f"Output 0 of type {datatype_string(stored)} does not match "
                                f"declared output type {datatype_string(declared)} for node "
                                f"{{{{node {ctx.name}}}}}")
    return value


@register("DeleteSessionTensor")
def delete_session_tensor(ctx, handle):
    handle = _text(handle)
    with _LOCK:
        if handle == "__next_id__" or _store(ctx.resources).pop(handle, None) is None:
            raise errors.InvalidArgumentError(
                ctx.node_def, None, f"Failed to delete a tensor with handle '{handle}' in the "
                                    f"session store.")

