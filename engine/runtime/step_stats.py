"""Step stats: the executor observer that fills RunMetadata.step_stats as TensorFlow does.

One DeviceStepStats per device; one NodeExecStats per executed node (none for a dead one, as
TensorFlow's executor skips it), `_SOURCE` first, then _Arg, kernel and _Retval nodes in run
order, with TensorFlow's fields: absolute start in
micros and nanos, op start/end and all-end relative to it, when the node became ready
(scheduled), the thread, the timeline label `name = Op(input, ...)`, output tensor
descriptions and memory stats.

On a GPU (GpuStepStatsCollector) the device's NodeExecStats are the same host-side launch
times, with device arrays allocated by "GPU_<n>_bfc" and each kernel's use of the GPU memory
pool (NodeExecStats.memory); CUDA events recorded around every kernel call give a second
DeviceStepStats, "<device>/stream:all", with the kernels' times on the GPU, as TensorFlow's
GPU tracer adds one (its node names `name:Op`, as TensorFlow's timeline.py splits them).
"""

import threading
import time

import numpy as np

from engine.framework.devices import DeviceSpec
from engine.kernels.cuda import backend
from engine.kernels.cuda.backend import is_device_array
from engine.proto import step_stats_pb2
from engine.runtime.resources import Ref

ALLOCATOR = "cpu"
STREAM_ALL = "/stream:all"


class StepStatsCollector:
    """An executor observer recording one device's NodeExecStats."""

    allocator = ALLOCATOR

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
        if info is not None and info.dead:
            # A dead node (an untaken cond branch, a loop's body once it exits) does not run:
            # TensorFlow's executor records no NodeExecStats for it.
            self._stats = None
            return
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
        if stats is None:
            return
        for slot, (dtype, value) in enumerate(zip(node.output_dtypes, outputs)):
            if value is None:  # a dead output: TensorFlow records no tensor for it
                continue
            output = stats.output.add(slot=slot)
            # TensorFlow reports allocated_bytes only for a buffer the kernel allocated: not a
            # constant, a feed, a variable's buffer or an input forwarded (Identity).
            allocated = (node.kind == "kernel" and node.op_type != "Const"
                         and not isinstance(value, Ref) and not _forwarded(value, inputs))
            describe_tensor(output.tensor_description, dtype, value, allocated,
                            self._allocator_of(value))
        stats.memory_stats.SetInParent()
        if node.op_type == "Const" and outputs:
            stats.memory_stats.persistent_memory_size = _nbytes(outputs[0])
        _set_rel(stats, "all_end_rel", time.perf_counter_ns() - self._start_perf)
        if not stats.op_end_rel_nanos:
            stats.op_start_rel_nanos = stats.op_start_rel_nanos or 0
            _set_rel(stats, "op_end_rel", stats.all_end_rel_nanos)

    def device_step_stats(self):
        """The DeviceStepStats this collector recorded (one per device or stream)."""
        return [self.dev_stats]

    # -----------------------------------------------------------------------------------------

    def _allocator_of(self, value):
        return self.allocator

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


def describe_tensor(description, dtype, value, allocated=True, allocator=ALLOCATOR):
    """Fills a TensorDescription: dtype, shape, allocation (requested/allocated bytes)."""
    if isinstance(value, Ref):
        value = value.value
    description.dtype = dtype.base_dtype.as_datatype_enum
    if value is None:
        return
    shape = getattr(value, "shape", None)
    if shape is None:
        shape = np.shape(value)
    description.shape.SetInParent()
    for size in shape:
        description.shape.dim.add(size=int(size))
    nbytes = _nbytes(value)
    allocation = description.allocation_description
    allocation.requested_bytes = nbytes
    if allocated:
        allocation.allocated_bytes = nbytes
    allocation.allocator_name = allocator


def _nbytes(value):
    nbytes = getattr(value, "nbytes", None)
    return int(nbytes) if nbytes is not None else 0


class GpuStepStatsCollector(StepStatsCollector):
    """A GPU device's collector: GPU_<n>_bfc memory and kernel times from CUDA events."""

    def __init__(self, device, xp=None):
        super().__init__(device)
        if xp is None:
            xp = backend.current().xp
        self._xp = xp
        self._pool = xp.get_default_memory_pool()
        self.allocator = f"GPU_{DeviceSpec.from_string(device).device_index or 0}_bfc"
        self._anchor = None  # (CUDA event, host time in ns) at the step's start
        self._kernels = []   # (node name, op type, start event, end event)
        self._launch = None  # the running kernel's (start event, pool bytes in use before)
        self._stream = None

    def source(self, now_ns):
        super().source(now_ns)
        event = self._xp.cuda.Event()
        event.record()
        self._anchor = (event, time.time_ns())

    def op_started(self, node, inputs, info=None):
        super().op_started(node, inputs, info)
        event = self._xp.cuda.Event()
        event.record()
        self._launch = (event, self._pool.used_bytes())

    def op_finished(self, node, info=None):
        event = self._xp.cuda.Event()
        event.record()
        self._kernels.append((node.name, node.op_type, self._launch[0], event))
        super().op_finished(node, info)

    def node_finished(self, node, outputs, info=None):
        launch, self._launch = self._launch, None
        result = super().node_finished(node, outputs, info)
        if launch is not None:
            in_use = self._pool.used_bytes()
            allocated = sum(o.tensor_description.allocation_description.allocated_bytes
                            for o in self._stats.output
                            if o.tensor_description.allocation_description.allocator_name
                            == self.allocator)
            live = max(0, in_use - launch[1])
            total = max(live, allocated)
            self._stats.memory.add(allocator_name=self.allocator, total_bytes=total,
                                   peak_bytes=total, live_bytes=live,
                                   allocator_bytes_in_use=in_use)
        return result

    def device_step_stats(self):
        if self._stream is None:
            self._stream = self._stream_stats()
        return [self.dev_stats, self._stream]

    def _allocator_of(self, value):
        if isinstance(value, Ref):
            value = value.value
        return self.allocator if is_device_array(value) else ALLOCATOR

    def _stream_stats(self):
        """"<device>/stream:all": every kernel's span between its CUDA events, placed on the
        host clock by the event recorded at the step's start."""
        stream = step_stats_pb2.DeviceStepStats(device=self.dev_stats.device + STREAM_ALL)
        if self._anchor is None:
            return stream
        anchor, anchor_ns = self._anchor
        elapsed = self._xp.cuda.get_elapsed_time  # milliseconds between two events
        for name, op_type, start, end in self._kernels:
            end.synchronize()
            start_ns = anchor_ns + round(elapsed(anchor, start) * 1e6)
            stats = stream.node_stats.add(node_name=f"{name}:{op_type}", timeline_label=op_type)
            stats.all_start_nanos = start_ns
            stats.all_start_micros = start_ns // 1000
            duration = max(0, round(elapsed(start, end) * 1e6))
            _set_rel(stats, "op_start_rel", 0)
            _set_rel(stats, "op_end_rel", duration)
            _set_rel(stats, "all_end_rel", duration)
        return stream


class Collectors:
    """A run observer factory (engine/runtime/observers.py): one `collector_class` per executor
    (`gpu_collector_class` for a GPU's)."""

    def __init__(self, collector_class=StepStatsCollector,
                 gpu_collector_class=GpuStepStatsCollector):
        self.collector_class = collector_class
        self.gpu_collector_class = gpu_collector_class
        self.collectors = []

    def __call__(self, device, step_id, plan):
        gpu = DeviceSpec.from_string(device).device_type == "GPU" if device else False
        collector = (self.gpu_collector_class if gpu else self.collector_class)(device)
        self.collectors.append(collector)
        return collector


def run_metadata_step_stats(run_metadata, collectors):
    """Appends each collector's DeviceStepStats to run_metadata.step_stats."""
    for collector in collectors:
        recorded = getattr(collector, "device_step_stats", None)
        for dev_stats in recorded() if recorded is not None else [collector.dev_stats]:
            run_metadata.step_stats.dev_stats.add().CopyFrom(dev_stats)
