"""A step's StepStats as TensorFlow's client Timeline writes it (python/client/timeline.py).

tf.train.ProfilerHook writes this format: an "Allocators" process, then per device a
"<device> Compute" process of "X" op events (name = op type, args name/op/inputN) on lanes that
never overlap, and a "<device> Tensors" process; "s"/"t" flow events for tensors crossing
lanes; with show_memory, tensor lifetimes ("N"/"O"/"D") and "C" memory counters per allocator.
(views/timeline draws many runs for the inspector; the engine cannot import views.)
"""

import copy
import json
import re


class _TensorTracker:
    def __init__(self, name, object_id, timestamp, pid, allocator, num_bytes):
        self.name, self.object_id, self.create_time = name, object_id, timestamp
        self.pid, self.allocator, self.num_bytes = pid, allocator, num_bytes
        self._unref_times = []

    @property
    def last_unref(self):
        return max(self._unref_times)

    def add_ref(self, timestamp):
        pass  # TensorFlow records it and never reads it

    def add_unref(self, timestamp):
        self._unref_times.append(timestamp)


def _event(ph, category, name, pid, tid, timestamp):
    return {"ph": ph, "cat": category, "name": name, "pid": pid, "tid": tid, "ts": timestamp}


def _parse_op_label(label):
    """`name = Op(in1, in2)` -> (name, op, [inputs])."""
    match = re.match(r"(.*) = (.*)\((.*)\)", label)
    if match is None:
        return "unknown", "unknown", []
    name, op, inputs = match.groups()
    return name, op, inputs.split(", ") if inputs else []


def _parse_kernel_label(label, node_name):
    start, end = label.find("@@"), label.find("#")
    if start >= 0 and end >= 0 and start + 2 < end:
        node_name = label[start + 2:end]
    fields = node_name.split(":") + ["unknown"]
    return fields[0], fields[1]


class Timeline:
    """Chrome trace of one StepStats (tensorflow.python.client.timeline.Timeline)."""

    def __init__(self, step_stats, graph=None):
        self._step_stats = copy.deepcopy(step_stats)
        self._graph = graph
        self._metadata, self._events = [], []
        self._next_pid = self._next_flow_id = 0
        self._device_pids, self._tensor_pids = {}, {}
        self._tensors, self._flow_starts = {}, {}
        self._allocators_pid = None

    def _alloc_pid(self):
        self._next_pid += 1
        return self._next_pid - 1

    def _emit_pid(self, name, pid):
        self._metadata.append({"name": "process_name", "ph": "M", "pid": pid,
                               "args": {"name": name}})

    def _allocate_pids(self):
        self._allocators_pid = self._alloc_pid()
        self._emit_pid("Allocators", self._allocators_pid)
        for dev_stats in self._step_stats.dev_stats:
            device_pid, tensors_pid = self._alloc_pid(), self._alloc_pid()
            self._device_pids[dev_stats.device] = device_pid
            self._tensor_pids[dev_stats.device] = tensors_pid
            self._emit_pid(dev_stats.device + " Compute", device_pid)
            self._emit_pid(dev_stats.device + " Tensors", tensors_pid)

    def _assign_lanes(self):
        for dev_stats in self._step_stats.dev_stats:
            lanes = [0]
            for ns in dev_stats.node_stats:
                lane = -1
                for i, lane_end in enumerate(lanes):
                    if ns.all_start_micros > lane_end:
                        lane = i
                        lanes[lane] = ns.all_start_micros + ns.all_end_rel_micros
                        break
                if lane < 0:
                    lane = len(lanes)
                    lanes.append(ns.all_start_micros + ns.all_end_rel_micros)
                ns.thread_id = lane

    def _analyze_tensors(self, show_memory):
        for dev_stats in self._step_stats.dev_stats:
            device_pid = self._device_pids[dev_stats.device]
            tensors_pid = self._tensor_pids[dev_stats.device]
            for ns in dev_stats.node_stats:
                tid, start = ns.thread_id, ns.all_start_micros
                end = ns.all_start_micros + ns.all_end_rel_micros
                for index, output in enumerate(ns.output):
                    name = "%s:%d" % (ns.node_name, index) if index else ns.node_name
                    allocation = output.tensor_description.allocation_description
                    tensor = _TensorTracker(name, len(self._tensors), start, tensors_pid,
                                            allocation.allocator_name,
                                            allocation.requested_bytes)
                    self._tensors[name] = tensor
                    tensor.add_ref(start)
                    tensor.add_unref(end)
                    self._flow_starts[name] = (end, device_pid, tid)
                    if show_memory:
                        event = _event("N", "Tensor", name, tensors_pid, tid, start)
                        event["id"] = tensor.object_id
                        self._events.append(event)
                        description = str(output.tensor_description).replace('"', "")
                        event = _event("O", "Tensor", name, tensors_pid, tid, end - 1)
                        event["id"] = tensor.object_id
                        event["args"] = {"snapshot": {"tensor_description": description}}
                        self._events.append(event)

    def _show_compute(self, show_dataflow):
        for dev_stats in self._step_stats.dev_stats:
            device_pid = self._device_pids[dev_stats.device]
            is_gputrace = "/stream:" in dev_stats.device or "/memcpy" in dev_stats.device
            for ns in dev_stats.node_stats:
                tid, start = ns.thread_id, ns.all_start_micros
                end = ns.all_start_micros + ns.all_end_rel_micros
                self._emit_op(ns, device_pid, is_gputrace)
                if is_gputrace or ns.node_name == "RecvTensor":
                    continue
                for input_name in _parse_op_label(ns.timeline_label)[2]:
                    if input_name not in self._tensors:
                        index = input_name.rfind("/_")
                        if index > 0:
                            input_name = input_name[:index]
                    if input_name not in self._tensors:
                        continue
                    tensor = self._tensors[input_name]
                    tensor.add_ref(start)
                    tensor.add_unref(end - 1)
                    if show_dataflow:
                        create_time, create_pid, create_tid = self._flow_starts[input_name]
                        if create_pid != device_pid or create_tid != tid:
                            flow_id = self._next_flow_id
                            self._next_flow_id += 1
                            for ph, ts, pid, lane in (("s", create_time, create_pid, create_tid),
                                                      ("t", start, device_pid, tid)):
                                event = _event(ph, "DataFlow", input_name, pid, lane, ts)
                                event["id"] = flow_id
                                self._events.append(event)

    def _emit_op(self, ns, pid, is_gputrace):
        node_name, inputs = ns.node_name, []
        if is_gputrace:
            node_name, op = _parse_kernel_label(ns.timeline_label, node_name)
        elif node_name == "RecvTensor":
            op = "RecvTensor"
        else:
            _, op, inputs = _parse_op_label(ns.timeline_label)
        args = {"name": node_name, "op": op}
        for i, input_name in enumerate(inputs):
            args["input%d" % i] = input_name
        event = _event("X", "Op", op, pid, ns.thread_id, ns.all_start_micros)
        event["dur"] = ns.all_end_rel_micros
        event["args"] = args
        self._events.append(event)

    def _show_memory_counters(self):
        allocations = {}
        for name, tensor in self._tensors.items():
            event = _event("D", "Tensor", name, tensor.pid, 0, tensor.last_unref)
            event["id"] = tensor.object_id
            self._events.append(event)
            rows = allocations.setdefault(tensor.allocator, [])
            rows.append((tensor.create_time, tensor.num_bytes, name))
            rows.append((tensor.last_unref, -tensor.num_bytes, name))
        for allocator, rows in allocations.items():
            rows.sort()
            total = 0
            for time, num_bytes, _ in sorted(rows, key=lambda row: row[0]):
                total += num_bytes
                event = _event("C", "Memory", allocator, self._allocators_pid, 0, time)
                event["args"] = {allocator: total}
                self._events.append(event)

    def generate_chrome_trace_format(self, show_dataflow=True, show_memory=False,
                                     op_time="schedule"):
        """The trace as TensorFlow's pretty-printed JSON text ("schedule" op times only)."""
        if op_time != "schedule":
            raise ValueError(f"op_time {op_time!r}: the engine records no GPU kernel times "
                             "apart from its ops (only 'schedule')")
        self._allocate_pids()
        self._assign_lanes()
        self._analyze_tensors(show_memory)
        self._show_compute(show_dataflow)
        if show_memory:
            self._show_memory_counters()
        return json.dumps({"traceEvents": self._metadata + self._events}, indent=4,
                          separators=(",", ": "))
