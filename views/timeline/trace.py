"""Step stats of many runs into Chrome trace events (Perfetto, chrome://tracing).

The picture: a "runs" process whose one lane holds a span per run ("run <label>", its step in
args); a process per device whose lanes hold the ops as "X" events (node name, op, inputs,
thread in args), assigned so that events in one lane never overlap; "s"/"f" flow arrows for
data crossing devices (a _Send to its _Recv, paired by rendezvous key, else a producer to a
consumer whose input came through a _Recv, as TensorFlow's timeline.py draws them); and "C"
counters of memory per allocator. Runs are shifted to lie one after another from time 0.
Everything is computed in integer nanoseconds and emitted in a fixed order: the same runs
always give the same JSON.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from engine.framework import op_families
from views.graph_index import rendezvous
from views.timeline.labels import (duration_nanos, node_op_inputs, start_nanos,
                                   strip_partition_suffix)
from views.timeline.layout import assign_lanes, occupied_end, run_offsets

RUNS_PID = 0
GAP_NS = 100_000  # 100 µs between runs


@dataclass(frozen=True)
class TraceRun:
    """One run to draw: its StepStats, the partition graphs that name its _Send/_Recv
    rendezvous keys (optional), a label ("step 3", a tag) and its step where known."""

    label: str
    step_stats: object
    partition_graphs: tuple = ()
    step: int | None = None
    source: str = ""

    @classmethod
    def of_run_metadata(cls, run_metadata, label, step=None, source=""):
        return cls(label, run_metadata.step_stats, tuple(run_metadata.partition_graphs),
                   step, source)


@dataclass
class _Op:
    run: int
    device: str
    stats: object
    start: int           # shifted, nanoseconds
    duration: int
    name: str = ""
    op: str = ""
    inputs: list = field(default_factory=list)
    lane: int = 0


def chrome_trace(runs) -> dict:
    """The whole trace document: {"traceEvents": [...], "displayTimeUnit": "ms", ...}."""
    runs = list(runs)
    return {"traceEvents": trace_events(runs), "displayTimeUnit": "ms",
            "otherData": {"generator": "graph-inspector", "runs": len(runs)}}


def trace_events(runs) -> list[dict]:
    """Chrome trace events for `runs` (TraceRun), laid out one after another."""
    runs = list(runs)
    ops_per_run = [_ops_of(run, index) for index, run in enumerate(runs)]
    spans = [_span(ops) for ops in ops_per_run]
    offsets = run_offsets(spans, GAP_NS)
    for ops, offset in zip(ops_per_run, offsets):
        for op in ops:
            op.start += offset
    devices = _devices(runs)
    pids = {device: i + 1 for i, device in enumerate(devices)}
    by_device = defaultdict(list)
    for ops in ops_per_run:
        for op in ops:
            by_device[op.device].append(op)
    for device_ops in by_device.values():
        lanes = assign_lanes([(op.start, op.duration) for op in device_ops])
        for op, lane in zip(device_ops, lanes):
            op.lane = lane

    events = _metadata(devices, pids, by_device, runs)
    for index, (run, ops) in enumerate(zip(runs, ops_per_run)):
        start, end = spans[index]
        events.append(_run_span(run, index, start + offsets[index], end - start))
        events.extend(_op_event(run, op, pids) for op in ops)
        events.extend(_flows(run, ops, pids, flow_base=_flow_base(events)))
        events.extend(_counters(run, ops, pids, offsets[index], start + offsets[index]))
    return events


# ---- runs and ops ------------------------------------------------------------------------------

def _ops_of(run, index):
    ops = []
    for dev_stats in run.step_stats.dev_stats:
        for stats in dev_stats.node_stats:
            node_name, op, inputs = node_op_inputs(dev_stats.device, stats)
            ops.append(_Op(index, dev_stats.device, stats, start_nanos(stats),
                           duration_nanos(stats), node_name,
                           op or ("NoOp" if stats.node_name == "_SOURCE" else ""), inputs))
    return ops


def _span(ops):
    if not ops:
        return (0, 0)
    return (min(op.start for op in ops), max(occupied_end(op.start, op.duration) for op in ops))


def _devices(runs):
    seen = {}
    for run in runs:
        for dev_stats in run.step_stats.dev_stats:
            seen.setdefault(dev_stats.device, None)
    return list(seen)


def _metadata(devices, pids, by_device, runs):
    events = [_meta("process_name", RUNS_PID, {"name": "runs"}),
              _meta("process_sort_index", RUNS_PID, {"sort_index": 0}),
              _meta("thread_name", RUNS_PID, {"name": f"{len(runs)} runs"}, tid=0)]
    for device in devices:
        pid = pids[device]
        events.append(_meta("process_name", pid, {"name": device}))
        events.append(_meta("process_sort_index", pid, {"sort_index": pid}))
        lanes = max((op.lane for op in by_device.get(device, ())), default=-1) + 1
        for lane in range(lanes):
            events.append(_meta("thread_name", pid, {"name": f"ops {lane}"}, tid=lane))
    return events


def _meta(name, pid, args, tid=None):
    event = {"name": name, "ph": "M", "pid": pid, "args": args}
    if tid is not None:
        event["tid"] = tid
    return event


def _run_span(run, index, start, span):
    args = {"label": run.label, "run": index}
    if run.step is not None:
        args["step"] = run.step
    if run.source:
        args["source"] = run.source
    return {"name": f"run {run.label}", "cat": "Run", "ph": "X", "pid": RUNS_PID, "tid": 0,
            "ts": _us(start), "dur": _us(max(span, 1)), "args": args}


def _op_event(run, op, pids):
    args = {"name": op.name, "op": op.op, "inputs": op.inputs, "run": run.label}
    if op.stats.thread_id:
        args["thread"] = op.stats.thread_id
    if run.step is not None:
        args["step"] = run.step
    return {"name": op.name, "cat": "Op", "ph": "X", "pid": pids[op.device], "tid": op.lane,
            "ts": _us(op.start), "dur": _us(max(op.duration, 1)), "args": args}


def _us(nanos):
    """Nanoseconds as the format's microseconds: an int where exact, else a float."""
    return nanos // 1000 if nanos % 1000 == 0 else nanos / 1000


# ---- data flow between devices -------------------------------------------------------------------

def _flow_base(events):
    return sum(1 for e in events if e["ph"] == "s")


def _flows(run, ops, pids, flow_base):
    """Flow start/end pairs: _Send -> _Recv by rendezvous key, then producer -> consumer for
    inputs that name a node on another device (directly or through a `/_N` _Recv name)."""
    pairs = _send_recv_pairs(run, ops)
    by_name = {}
    for op in ops:
        by_name.setdefault(op.name, op)
    for consumer in ops:
        for tensor in consumer.inputs:
            if tensor.startswith("^"):
                continue
            producer = by_name.get(tensor.split(":")[0])
            if producer is None:
                producer = by_name.get(strip_partition_suffix(tensor).split(":")[0])
            if producer is not None and producer.device != consumer.device:
                pairs.append((producer, consumer, strip_partition_suffix(tensor)))
    events = []
    number = flow_base
    for source, target, name in pairs:
        arrival = _arrival(source, target)
        if arrival is None:
            continue
        number += 1
        common = {"name": name, "cat": "DataFlow", "id": number}
        events.append({**common, "ph": "s", "pid": pids[source.device], "tid": source.lane,
                       "ts": _us(source.start)})
        events.append({**common, "ph": "f", "bp": "e", "pid": pids[target.device],
                       "tid": target.lane, "ts": _us(arrival)})
    return events


def _arrival(source, target):
    """Where a flow ends: inside the target's slice (so it binds to it), no earlier than the
    source started (a _Recv often starts waiting before its _Send). None when the target's
    slice ends before the source starts (a VLOG log can time a _Recv at 1 ns, long before its
    _Send): an arrow ending before it starts is dropped by Perfetto, so it is not drawn.

    >>> _arrival(_Op(0, "a", None, start=10, duration=5), _Op(0, "b", None, 0, 100))
    10
    >>> _arrival(_Op(0, "a", None, start=10, duration=5), _Op(0, "b", None, 0, 1)) is None
    True
    """
    latest = occupied_end(target.start, target.duration) - 1
    arrival = min(max(source.start, target.start), latest)
    return arrival if arrival >= source.start else None


def _send_recv_pairs(run, ops):
    keys = _rendezvous_keys(run.partition_graphs)
    sends, pairs = {}, []
    for op in ops:
        if op.op in op_families.SEND and op.name in keys:
            sends.setdefault(keys[op.name], op)
    for op in ops:
        if op.op in op_families.RECV and op.name in keys:
            send = sends.get(keys[op.name])
            if send is not None and send.device != op.device:
                pairs.append((send, op, keys[op.name][0]))
    return pairs


def _rendezvous_keys(partition_graphs):
    """_Send/_Recv node name -> (tensor_name, send_device, recv_device) from the graphs."""
    keys = {}
    for graph in partition_graphs:
        for node in graph.node:
            if node.op in op_families.SEND or node.op in op_families.RECV:
                keys[node.name] = rendezvous(node)
    return keys


# ---- memory counters -----------------------------------------------------------------------------

def _counters(run, ops, pids, offset, run_start):
    """"C" events per device and allocator: bytes over the run from allocation records where
    the stats have them (alloc and free), else from the bytes each output allocated."""
    deltas = defaultdict(list)  # (device, counter name) -> [(time, bytes)]
    for op in ops:
        stats = op.stats
        recorded = set()
        for memory in stats.memory:
            if memory.allocation_records:
                recorded.add(memory.allocator_name)
                for record in memory.allocation_records:
                    deltas[(op.device, f"memory {memory.allocator_name}")].append(
                        (record.alloc_micros * 1000 + offset, record.alloc_bytes))
        end = op.start + op.duration
        for output in stats.output:
            allocation = output.tensor_description.allocation_description
            if allocation.allocated_bytes and allocation.allocator_name not in recorded:
                deltas[(op.device, f"memory {allocation.allocator_name}")].append(
                    (end, allocation.allocated_bytes))
        persistent = stats.memory_stats.persistent_memory_size
        if persistent:
            deltas[(op.device, "persistent memory")].append((end, persistent))
    events = []
    for (device, name), changes in sorted(deltas.items(), key=lambda item: item[0]):
        pid = pids[device]
        total = 0
        events.append({"name": name, "ph": "C", "pid": pid, "ts": _us(run_start),
                       "args": {"bytes": 0}})
        for time, change in sorted(changes, key=lambda c: c[0]):
            total += change
            events.append({"name": name, "ph": "C", "pid": pid, "ts": _us(max(time, run_start)),
                           "args": {"bytes": total}})
    return events
