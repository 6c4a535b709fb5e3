"""tf.CriticalSection: subgraphs that run one at a time, as TensorFlow 2.21's
critical_section_ops builds them in a graph.

A section is a MutexV2 resource. `execute(fn)` takes its lock (MutexLock, after every tensor
`fn`'s ops read from outside), builds `fn`'s ops under a control dependency on the lock,
consumes the lock once they have run (ConsumeMutexLock) and returns `fn`'s results through
Identities that wait for that. The checks are TensorFlow's, made while the graph is built:
`fn` must not lock the section it runs in, and a resource `fn` reads may be used by another
section only where neither asked for exclusive access. engine/kernels/cpu/mutex.py runs the
ops; engine/runtime/mutex_order.py keeps one step's sections of a mutex in a row.
"""

import collections
import contextlib
import threading

from engine.framework import dtypes
from engine.framework.default_graph import get_default_graph, init_scope, name_scope
from engine.framework.operation import Operation
from engine.ops import nest
from engine.ops.array_ops import identity
from engine.ops.control_flow.ops import group, tuple as tuple_
from engine.ops.op_def_library import apply_op
from engine.ops.tensor_array_ops import TensorArray

CRITICAL_SECTIONS = "critical_sections"
CRITICAL_SECTION_EXECUTIONS = "critical_section_executions"


class _ExecutionSignature(collections.namedtuple(
        "_ExecutionSignature", ("op", "handle", "resources", "exclusive_resource_access"))):
    """One execute: its MutexLock, the section's handle, the resources its ops read."""


_sections_running = threading.local()


def _running_stack():
    stack = getattr(_sections_running, "value", None)
    if stack is None:
        stack = _sections_running.value = []
    return stack


@contextlib.contextmanager
def _running_section(signature):
    """Marks the section `signature` as being built on this thread: building an execute of
    it inside would lock a lock its own ops hold."""
    stack = _running_stack()
    if signature in stack:
        raise ValueError(f"Attempting to lock a CriticalSection (signature={signature}) in "
                         f"which we are already running. This is illegal and may cause "
                         f"deadlocks.")
    stack.append(signature)
    try:
        yield
    finally:
        popped = stack.pop()
        if popped != signature:
            raise RuntimeError(f"CriticalSection stack inconsistency: expected signature "
                               f"{signature} but received {popped}")


def _colocation(op):
    try:
        return op.get_attr("_class")
    except (ValueError, AttributeError):
        return None


def _identity(value):
    """An Identity of a tensor, a TensorArray's identity, a NoOp after an Operation."""
    if isinstance(value, TensorArray):
        return value.identity()
    if isinstance(value, Operation):
        return group(value)
    return identity(value)


class CriticalSection:
    """tf.CriticalSection(name=None, shared_name=None, critical_section_def=None,
    import_scope=None)."""

    def __init__(self, name=None, shared_name=None, critical_section_def=None,
                 import_scope=None):
        if critical_section_def and name is not None:
            raise ValueError(f"Arguments critical_section_def={critical_section_def} and "
                             f"shared_name={shared_name} are mutually exclusive. Please only "
                             f"specify one of them.")
        if critical_section_def:
            raise ValueError("Argument `critical_section_def` is not supported.")
        with name_scope(name, "CriticalSection", []) as scope:
            with init_scope():
                graph = get_default_graph()
                container = graph._container or ""
                if shared_name is None:
                    shared_name = scope
                self._handle = apply_op("MutexV2", shared_name=shared_name,
                                        container=container, name=scope)
                # What tells sections apart: a blank shared_name makes a mutex of its own.
                self._signature = (container, shared_name or id(self._handle),
                                   self._handle.op.device or _colocation(self._handle.op))
        get_default_graph().add_to_collections(CRITICAL_SECTIONS, self)

    @property
    def name(self):
        return self._handle.op.name

    def execute(self, fn, exclusive_resource_access=True, name=None):
        """Runs `fn()`'s ops while holding the section's lock; returns what `fn` returns."""
        graph = get_default_graph()
        with name_scope(name, "critical_section_execute", []):
            with _running_section(self._signature):
                lock = apply_op("MutexLock", mutex=self._handle)
                with graph._lock:  # not another thread's ops among fn's
                    existing = set(graph.get_operations())
                    with graph.control_dependencies([lock]):
                        result = fn()
                    created = [op for op in graph.get_operations() if op not in existing]
            self._args_before_lock(created, lock.op)
            captured = {}
            for op in created:
                for tensor in op.inputs:
                    if tensor.dtype == dtypes.resource:
                        captured.setdefault(tensor.name, tensor)
            captured = list(captured.values())
            if any(self._is_self_handle(tensor) for tensor in captured):
                raise ValueError(f"Attempting to lock a CriticalSection in which we are "
                                 f"already running (signature={self._signature}). This is "
                                 f"illegal and may cause deadlocks.")
            self._check_multiple_access(graph, captured, exclusive_resource_access)

            flat = [_identity(value) for value in nest.flatten(result)]
            with graph.control_dependencies(flat):
                with graph.colocate_with(self._handle):
                    consumed = apply_op("ConsumeMutexLock", mutex_lock=lock)
                result = nest.pack_sequence_as(result, tuple_(nest.flatten(result)))
            with graph.control_dependencies([consumed]):
                outputs = nest.map_structure(_identity, result)
            graph.add_to_collections(CRITICAL_SECTION_EXECUTIONS, _ExecutionSignature(
                op=lock.op, handle=self._handle, resources=captured,
                exclusive_resource_access=exclusive_resource_access))
            return outputs

    def _args_before_lock(self, created, lock_op):
        """The lock waits for every op `fn`'s ops read from outside, so that a section never
        holds its lock while waiting for another's output."""
        created_set = set(created)
        skip = created_set | set(lock_op.control_inputs) | {t.op for t in lock_op.inputs}
        skip.add(lock_op)
        args = {}
        for op in created:
            for producer in [t.op for t in op.inputs] + list(op.control_inputs):
                if producer not in skip:
                    args.setdefault(producer._id, producer)
        if args:
            lock_op._add_control_input(group(*[args[key] for key in sorted(args)]))

    def _is_self_handle(self, tensor):
        op, own = tensor.op, self._handle.op
        if op.type != "MutexV2":
            return False
        shared_name = op.get_attr("shared_name")
        return bool(shared_name and shared_name == own.get_attr("shared_name")
                    and (op.device == own.device or _colocation(op) == _colocation(own)))

    def _check_multiple_access(self, graph, captured, exclusive_resource_access):
        """ValueError when a resource `fn` reads is read by another section's execute too
        and either asked for exclusive access."""
        for other in graph.get_collection(CRITICAL_SECTION_EXECUTIONS):
            if self._is_self_handle(other.handle):
                continue
            if not (exclusive_resource_access or other.exclusive_resource_access):
                continue
            theirs = {tensor.name for tensor in other.resources}
            shared = [tensor for tensor in captured if tensor.name in theirs]
            if shared:
                # TensorFlow lists the ObjectIdentitySet's wrappers of the tensors
                shared = "[" + ", ".join(f"<_ObjectIdentityWrapper wrapping {tensor!r}>"
                                         for tensor in shared) + "]"
                raise ValueError(
                    f"This execution would access resources: {shared}. Either this lock "
                    f"(CriticalSection: {self._handle}) or lock '{other}' (CriticalSection: "
                    f"{other.handle}) requested exclusive resource access of this resource. "
                    f"Did you mean to call execute with keyword argument "
                    f"exclusive_resource_access=False?")
