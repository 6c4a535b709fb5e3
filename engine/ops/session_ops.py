"""Tensors kept in a session between runs: tf.get_session_handle, tf.get_session_tensor,
tf.delete_session_tensor and the TensorHandle a run gives for a fetched handle, as
TensorFlow's session_ops.py builds them (engine/kernels/cpu/session_handles.py runs the ops).

A handle is "<node name>;<id>;<device>"; the reader and deleter subgraphs a TensorHandle
runs are made once per graph, kept under TensorFlow's keys (node name and device; a
deleter's number)."""

import threading
import weakref

from engine.framework import devices, dtypes
from engine.framework.default_graph import get_default_graph
from engine.framework.tensor import Tensor
from engine.ops.array_ops import placeholder
from engine.ops.gradient_registry import NotDifferentiable
from engine.ops.op_def_library import apply_op

HANDLE_OPS = ("GetSessionHandle", "GetSessionHandleV2")
for _op_type in HANDLE_OPS + ("GetSessionTensor", "DeleteSessionTensor"):
    NotDifferentiable(_op_type)
# Per graph: {key: (placeholder, reader or deleter)} and {placeholder name: dtype}.
_SUBGRAPHS = weakref.WeakKeyDictionary()


def _graph_table(graph, kind):
    return _SUBGRAPHS.setdefault(graph, {}).setdefault(kind, {})


def _as_str(value):
    name = getattr(value, "name", None)   # a GetSessionHandleV2 value: its ResourceHandle
    if isinstance(name, str) and hasattr(value, "container"):
        return name
    return value.decode() if isinstance(value, bytes) else str(value)


class TensorHandle:
    """A handle to a tensor that lives in a session (what Session.run gives for a
    get_session_handle fetch)."""

    def __init__(self, handle, dtype, session):
        self._handle = _as_str(handle)
        self._dtype = dtype
        self._session = session
        self._auto_gc_enabled = True

    def __del__(self):
        if getattr(self, "_auto_gc_enabled", False):
            try:
                _register_dead_handle(self._session, self._handle)
            except Exception:  # noqa: BLE001  (interpreter shutdown, a closed graph)
                pass

    def __str__(self):
        return self._handle

    @property
    def handle(self):
        """The string representation of this handle."""
        return self._handle

    def eval(self):
        """The value of the tensor the handle names."""
        if not self._auto_gc_enabled:
            raise TypeError(f"Persistent tensor {self.handle} may have already been deleted.")
        holder, reader = _handle_reader(self._session.graph, self._handle, self._dtype)
        return self._session.run(reader, feed_dict={holder: self._handle})

    def delete(self):
        """Deletes the tensor from the session now."""
        if not self._auto_gc_enabled:
            raise TypeError(f"Persistent tensor {self.handle} may have already been deleted.")
        self._auto_gc_enabled = False
        holder, deleter = _handle_deleter(self._session.graph, 0, self._handle)
        self._session.run(deleter, feed_dict={holder: self.handle})

    def get_raw_handle(self):
        """The raw handle; the caller now owns the tensor's lifetime."""
        self._auto_gc_enabled = False
        return self._handle

    @staticmethod
    def _get_device_name(handle):
        return devices.canonical(_as_str(handle).split(";")[-1])

    @staticmethod
    def _get_reader_key(handle):
        parts = str(handle).split(";")
        return parts[0] + ";" + parts[-1]


def get_session_handle(data, name=None):
    """tf.get_session_handle: a string tensor naming `data`, kept in the session after the
    run that fetches it."""
    if not isinstance(data, Tensor):
        raise TypeError("`data` must be of type Tensor.")
    with get_default_graph().colocate_with(data.op):
        return apply_op("GetSessionHandle", value=data, name=name)


def get_session_tensor(handle, dtype, name=None):
    """tf.get_session_tensor: (a string placeholder to feed a handle, the tensor of type
    `dtype` it names)."""
    handle_device = TensorHandle._get_device_name(handle)
    graph = get_default_graph()
    with graph.device(handle_device):
        holder = placeholder(dtypes.string)
        _graph_table(graph, "feeders")[holder.op.name] = dtypes.as_dtype(dtype)
        tensor = apply_op("GetSessionTensor", handle=holder, dtype=dtype, name=name)
    return holder, tensor


def delete_session_tensor(handle, name=None):
    """tf.delete_session_tensor: (a string placeholder to feed a handle, the op deleting
    the tensor it names)."""
    handle_device = TensorHandle._get_device_name(handle)
    with get_default_graph().device(handle_device):
        holder = placeholder(dtypes.string)
        deleter = apply_op("DeleteSessionTensor", handle=holder, name=name)
    return holder, deleter


def _handle_reader(graph, handle, dtype):
    key = TensorHandle._get_reader_key(handle)
    readers = _graph_table(graph, "readers")
    if key not in readers:
        with graph.as_default(), graph.device(TensorHandle._get_device_name(handle)):
            holder = placeholder(dtypes.string)
            _graph_table(graph, "feeders")[holder.op.name] = dtype
            readers[key] = holder, apply_op("GetSessionTensor", handle=holder, dtype=dtype)
    return readers[key]


def _handle_deleter(graph, deleter_key, handle):
    deleters = _graph_table(graph, "deleters")
    if deleter_key not in deleters:
        with graph.as_default(), graph.device(TensorHandle._get_device_name(handle)):
            holder = placeholder(dtypes.string)
            deleters[deleter_key] = holder, apply_op("DeleteSessionTensor", handle=holder)
    return deleters[deleter_key]


# TensorFlow's BaseSession._DEAD_HANDLES_THRESHOLD: the tensors of handles Python dropped
# are deleted from the session ten at a time, by deleter subgraphs keyed 0 to 9.
_DEAD_HANDLES_THRESHOLD = 10
_DEAD_HANDLES = weakref.WeakKeyDictionary()
_DEAD_LOCK = threading.Lock()


def _register_dead_handle(session, handle):
    with _DEAD_LOCK:
        dead = _DEAD_HANDLES.setdefault(session, [])
        dead.append(handle)
        if len(dead) < _DEAD_HANDLES_THRESHOLD:
            return
        to_delete = list(dead)
        dead.clear()
    if getattr(session, "_closed", False):
        return
    feeds, fetches = {}, []
    for deleter_key, dead_handle in enumerate(to_delete):
        holder, deleter = _handle_deleter(session.graph, deleter_key, dead_handle)
        feeds[holder] = dead_handle
        fetches.append(deleter)
    session.run(fetches, feed_dict=feeds)


def fetched_handle(tensor, session):
    """For a fetch of `tensor`: a function making the fetched value a TensorHandle where
    `tensor` is a GetSessionHandle's output, else None (TensorFlow's _FetchHandler)."""
    if not isinstance(tensor, Tensor) or tensor.op.type not in HANDLE_OPS or session is None:
        return None
    dtype = tensor.op.inputs[0].dtype
    return lambda value: TensorHandle(value, dtype, session)

