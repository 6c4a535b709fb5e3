"""Step stats: the executor observer that fills RunMetadata.step_stats as TensorFlow does.

One DeviceStepStats per device; one NodeExecStats per executed node, `_SOURCE` first, then
_Arg, kernel and _Retval nodes in run order, with TensorFlow's fields: absolute start in
micros and nanos, op start/end and all-end relative to it, when the node became ready
(scheduled), the thread, the timeline label `name = Op(input, ...)`, output tensor
descriptions and memory stats.
"""

import threading
import time

import numpy as np

from engine.proto import step_stats_pb2
from engine.resources import Ref

ALLOCATOR = "cpu"


class StepStatsCollector:
    """An executor observer recording one device's NodeExecStats."""

    def __init__(self, device):
        self.dev_stats = step_stats_pb2.DeviceStepStats(device=device)
        self._scheduled = {}
        self._thread_id = threading.get_native_id()
        self._stats = None
        self._inputs = ()
        self._start_ns = self._start_perf = 0

    # Observer protocol (see Executor.run_traced) ---------------------------------------------

    def source(self, now_ns):
        # The executor's thread: a session builds its observers before their threads run.
        self._thread_id = threading.get_native_id()
        stats = self._new("_SOURCE", "_SOURCE = NoOp()", now_ns, now_ns)
        stats.op_start_rel_nanos = stats.op_end_rel_nanos = stats.all_end_rel_nanos = 0

    def node_scheduled(self, node, now_ns, info=None):
        self._scheduled[node.name] = now_ns

    def node_started(self, node, info=None):
        self._start_perf = time.perf_counter_ns()
        self._start_ns = time.time_ns()
        self._stats = self._new(node.name, node.timeline_label, self._start_ns,
                                self._scheduled.get(node.name, self._start_ns))
        self._inputs = ()

    def op_started(self, node, inputs, info=None):
        self._inputs = inputs
        _set_rel(self._stats, "op_start_rel", time.perf_counter_ns() - self._start_perf)

    def op_finished(self, node, info=None):
        _set_rel(self._stats, "op_end_rel", time.perf_counter_ns() - self._start_perf)

    def node_finished(self, node, outputs, info=None):
        stats, inputs = self._stats, self._inputs
        for slot, (dtype, value) in enumerate(zip(node.output_dtypes, outputs)):
            if value is None:  # a dead output: TensorFlow records no tensor for it
                continue
            output = stats.output.add(slot=slot)
            # TensorFlow reports allocated_bytes only for a buffer the kernel allocated: not a
            # constant, a feed, a variable's buffer or an input forwarded (Identity).
            allocated = (node.kind == "kernel" and node.op_type != "Const"
                         and not isinstance(value, Ref) and not _forwarded(value, inputs))
            describe_tensor(output.tensor_description, dtype, value, allocated)
        stats.memory_stats.SetInParent()
        if node.op_type == "Const" and outputs:
            stats.memory_stats.persistent_memory_size = _nbytes(outputs[0])
        _set_rel(stats, "all_end_rel", time.perf_counter_ns() - self._start_perf)
        if not stats.op_end_rel_nanos:
            stats.op_start_rel_nanos = stats.op_start_rel_nanos or 0
            _set_rel(stats, "op_end_rel", stats.all_end_rel_nanos)

    # -----------------------------------------------------------------------------------------

    def _new(self, name, label, start_ns, scheduled_ns):
        stats = self.dev_stats.node_stats.add(node_name=name, timeline_label=label,
                                              thread_id=self._thread_id)
        stats.all_start_nanos = start_ns
        stats.all_start_micros = start_ns // 1000
        stats.scheduled_nanos = scheduled_ns
        stats.scheduled_micros = scheduled_ns // 1000
        return stats


def _forwarded(value, inputs):
    base = getattr(value, "base", None)
    for item in inputs:
        if isinstance(item, Ref):
            item = item.value
        if value is item or (base is not None and base is item):
            return True
    return False


def _set_rel(stats, field, nanos):
    setattr(stats, field + "_nanos", nanos)
    setattr(stats, field + "_micros", nanos // 1000)


def describe_tensor(description, dtype, value, allocated=True):
    """Fills a TensorDescription: dtype, shape, allocation (requested/allocated bytes)."""
    if isinstance(value, Ref):
        value = value.value
    description.dtype = dtype.base_dtype.as_datatype_enum
    if value is None:
        return
    shape = np.shape(value)
    description.shape.SetInParent()
    for size in shape:
        description.shape.dim.add(size=int(size))
    nbytes = _nbytes(value)
    allocation = description.allocation_description
    allocation.requested_bytes = nbytes
    if allocated:
        allocation.allocated_bytes = nbytes
    allocation.allocator_name = ALLOCATOR


def _nbytes(value):
    nbytes = getattr(value, "nbytes", None)
    return int(nbytes) if nbytes is not None else 0


class Collectors:
    """A run observer factory (engine/observers.py): one `collector_class` per executor."""

    def __init__(self, collector_class=StepStatsCollector):
        self.collector_class = collector_class
        self.collectors = []

    def __call__(self, device, step_id, plan):
        collector = self.collector_class(device)
        self.collectors.append(collector)
        return collector


def run_metadata_step_stats(run_metadata, collectors):
    """Appends each collector's DeviceStepStats to run_metadata.step_stats."""
    for collector in collectors:
        run_metadata.step_stats.dev_stats.add().CopyFrom(collector.dev_stats)
