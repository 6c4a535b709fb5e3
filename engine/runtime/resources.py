"""State that outlives one step: ref variables (Ref) and resource variables (by handle)."""

import itertools
import threading
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

import numpy as np


class Ref:
    """The mutable buffer a ref-typed tensor (float32_ref, ...) points at.

    A VariableV2 kernel returns its Ref; Assign/AssignAdd mutate it in place and return it;
    consumers of a non-ref input read `.value` when they run, which is TensorFlow 1.x's
    aliasing (seed 002's a, a_i, b, b_i study). `.value` is None until initialised.
    """

    __slots__ = ("name", "dtype", "value", "lock", "declared_shape")

    def __init__(self, name, dtype, value=None):
        self.name, self.dtype, self.value = name, dtype, value
        self.lock = threading.Lock()  # the variable's mutex (TensorFlow's Var::mu)
        # The VariableV2's fully known shape attr, or None: an uninitialised variable's
        # tensor has that shape in TensorFlow, which Assign's validate_shape checks.
        self.declared_shape = None

    @property
    def initialized(self):
        return self.value is not None

    def __repr__(self):
        return f"<Ref {self.name} {'uninitialized' if self.value is None else self.value!r}>"


class ReceivedRef(Ref):
    """A variable sent from another device (engine/runtime/partition.py sends a ref as the Ref):
    reading it reads the variable then, copied into the receiving device's memory. A fetched
    one is read once every partition of the run has finished (engine/runtime/session.py)."""

    __slots__ = ("source", "copy_in")

    def __init__(self, source, copy_in):
        self.name, self.dtype, self.lock = source.name, source.dtype, source.lock
        self.source, self.copy_in = source, copy_in

    @property
    def value(self):
        value = self.source.value
        return None if value is None else self.copy_in(value)


@dataclass(frozen=True)
class ResourceHandle:
    """The value of a DT_RESOURCE tensor: which resource, where (ResourceHandleProto)."""

    container: str
    name: str
    device: str = ""
    dtype: object = None
    shape: object = None


# TensorFlow's ResourceMgr::GenerateUniqueId: one counter for the whole process, so the second
# session of a graph names its queue "_1_fifo_queue" where the first named it "_0_fifo_queue".
_unique_ids = itertools.count()
_unique_lock = threading.Lock()


def restart_unique_names():
    """Numbers resources from 0 again, as a fresh process would (for tests that compare names
    with what TensorFlow printed in a process of its own)."""
    global _unique_ids
    with _unique_lock:
        _unique_ids = itertools.count()


class ResourceMgr:
    """A session's resources: ref-variable buffers by node name, resource variables by handle."""

    def __init__(self):
        self.refs: dict[str, Ref] = {}
        self.variables: dict[tuple[str, str], Ref] = {}
        self.clear_hooks: list = []
        self._tables: dict[str, dict] = {}
        self._unique_names: dict[str, str] = {}
        # tf.CriticalSection's locks held, by thread (engine/runtime/mutexes.py)
        self.held_mutex_locks: dict[int, set] = {}

    def resource_name(self, node_name, shared_name=""):
        """The name of the resource a kernel makes, as TensorFlow's ContainerInfo::Init names
        it: `shared_name` where given, else "_N_<node name>", N the process's next number,
        taken the first time the node's kernel runs here (later runs keep it). Queues,
        readers and iterators are named so; variables, stacks and tensor arrays are not."""
        if shared_name:
            return shared_name
        name = self._unique_names.get(node_name)
        if name is None:
            with _unique_lock:
                name = self._unique_names.get(node_name)
                if name is None:
                    name = self._unique_names[node_name] = f"_{next(_unique_ids)}_{node_name}"
        return name

    def table(self, kind):
        """The resources of one kind that kernels keep by name (stacks, tensor_arrays,
        iterators, ...), made on first use (setdefault: two kernels creating it at once get
        the same table). clear() leaves them: each kind's kernels say when one goes."""
        return self._tables.setdefault(kind, {})

    def ref(self, name, dtype):
        """The buffer of the ref variable `name`, created (uninitialised) on first use."""
        ref = self.refs.get(name)
        if ref is None:  # setdefault: two runs creating it at once get the same buffer
            ref = self.refs.setdefault(name, Ref(name, dtype))
        return ref

    def variable(self, handle: ResourceHandle) -> Ref:
        """The buffer behind a resource handle, created (uninitialised) on first use."""
        key = (handle.container, handle.name)
        buffer = self.variables.get(key)
        if buffer is None:
            buffer = self.variables.setdefault(key, Ref(handle.name, handle.dtype))
        return buffer

    def clear(self):
        self.refs.clear()
        self.variables.clear()
        # Resources that threads may wait on (queues) are cancelled when the session closes.
        for hook in getattr(self, "clear_hooks", ()):
            hook()


@contextmanager
def locked(buffers, use_locking=True):
    """Hold the locks of `buffers` (Refs) while an update reads and writes them, taken in one
    order so two updates of the same variables cannot deadlock (TensorFlow's
    MaybeLockVariableInputMutexesInOrder); nothing when `use_locking` is false."""
    if not use_locking:
        yield
        return
    with ExitStack() as stack:
        for buffer in sorted({id(b): b for b in buffers}.values(), key=id):
            stack.enter_context(buffer.lock)
        yield


def as_array(value, dtype):
    """`value` as an ndarray of NumPy dtype `dtype`, copying only when the type differs."""
    array = np.asarray(value)
    return array if array.dtype == dtype else array.astype(dtype)
