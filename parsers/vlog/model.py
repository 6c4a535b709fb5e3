"""What a VLOG log holds: graph dumps, executions per step and device, and the events around them.

The reader fills these; GraphDefs, StepStats and RunMetadata are built from them on demand,
so reading a log costs only the parse and the `--json` document never builds a message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from parsers.vlog.events import event_fields
from parsers.vlog.prefix import split_prefix

DUMP_ID = re.compile(r"n(\d+)\Z")


@dataclass(frozen=True, slots=True)
class DumpNode:
    """One node line of a `||` block, as printed: `name = Op[attrs](inputs) @ control`."""

    name: str
    op: str
    inputs: tuple[str, ...]
    control_inputs: tuple[str, ...]
    device: str
    attrs: tuple[tuple[str, str], ...]  # (key, value text) in printed order


@dataclass(slots=True)
class GraphDump:
    """One `||` block: a graph (`(args) -> (rets) {`) or a FunctionDef (`name[..](args) -> (outs) {`)."""

    label: str
    first_line: int
    kind: str = "graph"  # "graph" or "function"
    function_name: str = ""
    args: list[tuple[str, str]] = field(default_factory=list)  # (name, "float@CPU:0")
    rets: list[tuple[str, str]] = field(default_factory=list)
    nodes: list[DumpNode] = field(default_factory=list)
    returns: list[tuple[str, str]] = field(default_factory=list)  # FunctionDef `return x = y`
    complete: bool = False
    last_line: int = 0
    thread: int | None = None
    # n<id> -> the real name the executor trace gave that node id; empty until matched.
    real_names: dict[str, str] = field(default_factory=dict)
    names_from: tuple[int, str] | None = None  # (step, device) of the execution that named it
    # returned node -> the name of the _Retval that execution ran for it
    retval_names: dict[str, str] = field(default_factory=dict)
    _graph_def: object = None

    def rename(self, name: str) -> str:
        """A dumped name, input (`n4:1`) or control input with the real node name where known."""
        if not self.real_names:
            return name
        base, colon, index = name.partition(":")
        real = self.real_names.get(base)
        if real is None:
            return name
        return real + colon + index

    def node_ids(self) -> dict[int, str]:
        """Node id -> op for every n<id> node of a graph dump (args as _Arg, rets as _Retval)."""
        ids = {}
        for name, _ in self.args:
            match = DUMP_ID.match(name)
            if match:
                ids[int(match.group(1))] = "_Arg"
        for name, _ in self.rets:
            match = DUMP_ID.match(name)
            if match:
                ids[int(match.group(1))] = "_Retval"
        for node in self.nodes:
            match = DUMP_ID.match(node.name)
            if match is None:
                return {}
            ids[int(match.group(1))] = node.op
        return ids

    def graph_def(self):
        """This dump as a GraphDef (built once): args and rets become _Arg/_Retval nodes."""
        if self._graph_def is None:
            # Loaded here, not at the top: reading a log and its JSON need no protobuf.
            from parsers.vlog.graph_def import build_graph_def

            self._graph_def = build_graph_def(self)
        return self._graph_def

    def node_json(self, node: DumpNode) -> dict:
        rename = self.rename
        return {
            "name": rename(node.name),
            "op": node.op,
            "inputs": [rename(i) for i in node.inputs],
            "control_inputs": [rename(c) for c in node.control_inputs],
            "device": node.device,
            "attr": dict(node.attrs),
        }

    def to_json(self) -> dict:
        return {
            "label": self.label,
            "first_line": self.first_line,
            "nodes": [self.node_json(node) for node in self.nodes],
        }


@dataclass(slots=True)
class ExecutedNode:
    """One `Process node:` line: a node the executor ran (or propagated as dead) in a step."""

    id: int
    name: str
    op: str
    inputs: tuple[str, ...]
    thread: int | None
    start_us: int | None
    dead: bool
    line: int
    end_us: int | None = None  # from its `kernel done` line, where one pairs with it
    attr_text: str = ""

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "op": self.op,
            "inputs": list(self.inputs),
            "thread": self.thread,
            "start_us": self.start_us,
            "dead": self.dead,
        }


@dataclass(slots=True)
class Execution:
    """The nodes one executor ran for one step on one device, in log order."""

    step: int
    device: str
    first_line: int
    nodes: list[ExecutedNode] = field(default_factory=list)
    last_line: int = 0
    _ids: dict[int, tuple[str, str]] | None = None

    def id_names(self) -> dict[int, tuple[str, str]]:
        """Node id -> (name, op); ids that named two different nodes are left out."""
        if self._ids is None:
            ids = {node.id: (node.name, node.op) for node in self.nodes}
            if len(ids) == len(self.nodes):  # no id ran twice: nothing can clash
                self._ids = ids
                return ids
            ids = {}
            clashes = set()
            for node in self.nodes:
                seen = ids.get(node.id)
                if seen is None:
                    ids[node.id] = (node.name, node.op)
                elif seen[0] != node.name:
                    clashes.add(node.id)
            for node_id in clashes:
                del ids[node_id]
            self._ids = ids
        return self._ids

    def device_step_stats(self):
        """One DeviceStepStats: a NodeExecStats per Process line, times from the log."""
        from engine.proto import step_stats_pb2

        stats = step_stats_pb2.DeviceStepStats(device=self.device)
        threads = set()
        for node in self.nodes:
            ns = stats.node_stats.add()
            ns.node_name = node.name
            if node.start_us is not None:
                ns.all_start_micros = node.start_us
                ns.all_start_nanos = node.start_us * 1000
                if node.end_us is not None and node.end_us >= node.start_us:
                    took = node.end_us - node.start_us
                    ns.op_end_rel_micros = ns.all_end_rel_micros = took
                    ns.op_end_rel_nanos = ns.all_end_rel_nanos = took * 1000
            if node.thread is not None:
                ns.thread_id = node.thread & 0xFFFFFFFF
                threads.add(ns.thread_id)
            dead = " (dead)" if node.dead else ""
            ns.timeline_label = f"{node.name} = {node.op}({', '.join(node.inputs)}){dead}"
        for thread in sorted(threads):
            stats.thread_names[thread] = f"thread {thread}"
        return stats

    def to_json(self) -> dict:
        return {
            "step": self.step,
            "device": self.device,
            "nodes": [node.to_json() for node in self.nodes],
        }


class LogEvent:
    """A line that explains a run: a pass, grappler results, a dump file, memory, placement.

    kind: "phase", "pass", "grappler", "dumped_graph", "memory", "placement". The line is kept
    as read; its text, time, thread and `fields` (see parsers.vlog.events) are parsed on use.
    """

    __slots__ = ("kind", "line", "raw")

    def __init__(self, kind: str, line: int, raw: bytes):
        self.kind = kind
        self.line = line
        self.raw = raw

    def _prefix(self):
        return split_prefix(self.raw)

    @property
    def text(self) -> str:
        prefix = self._prefix()
        message = prefix.message if prefix is not None else self.raw
        return message.decode("utf-8", "replace").strip()

    @property
    def micros(self) -> int | None:
        prefix = self._prefix()
        return prefix.micros if prefix is not None else None

    @property
    def thread(self) -> int | None:
        prefix = self._prefix()
        return prefix.thread if prefix is not None else None

    @property
    def fields(self) -> dict:
        return event_fields(self.kind, self.text)

    def __repr__(self):
        return f"LogEvent({self.kind!r}, line={self.line}, text={self.text!r})"


@dataclass(slots=True)
class VlogLog:
    """Everything read from one log; graphs and executions in log order, every dump kept."""

    path: str
    graphs: list[GraphDump] = field(default_factory=list)
    executions: list[Execution] = field(default_factory=list)
    # (kind, line number, raw line) per event line; `events` wraps them on first use.
    event_rows: list[tuple[str, int, bytes]] = field(default_factory=list)
    lines: int = 0
    unparsed_lines: int = 0
    event_counts: dict[str, int] = field(default_factory=dict)  # kind -> lines, kept or not
    _events: list[LogEvent] = field(default_factory=list)

    @property
    def events(self) -> list[LogEvent]:
        """Every event line (passes, grappler, dumped graphs, memory, placement) in log order."""
        if len(self._events) != len(self.event_rows):
            self._events.extend(LogEvent(*row) for row in self.event_rows[len(self._events):])
        return self._events

    def steps(self) -> list[int]:
        """Step ids in the order they first ran."""
        seen = {}
        for execution in self.executions:
            seen.setdefault(execution.step, None)
        return list(seen)

    def step_stats(self, step: int):
        """StepStats of one step: one DeviceStepStats per device, nodes in log order."""
        from engine.proto import step_stats_pb2

        stats = step_stats_pb2.StepStats()
        by_device = {}
        for execution in self.executions:
            if execution.step != step:
                continue
            part = execution.device_step_stats()
            existing = by_device.get(execution.device)
            if existing is None:
                by_device[execution.device] = stats.dev_stats.add()
                by_device[execution.device].CopyFrom(part)
            else:
                existing.MergeFrom(part)
        return stats

    def run_metadata(self, step: int):
        """RunMetadata of one step: its StepStats and, as partition graphs, the dumps it named."""
        from engine.proto import config_pb2

        metadata = config_pb2.RunMetadata()
        metadata.step_stats.CopyFrom(self.step_stats(step))
        seen = set()
        for graph in self.graphs:
            if graph.names_from and graph.names_from[0] == step:
                key = (graph.names_from, tuple(graph.nodes))
                if key not in seen:
                    seen.add(key)
                    metadata.partition_graphs.add().CopyFrom(graph.graph_def())
        return metadata

    def write_json(self, out) -> None:
        """Write to_json() to a text stream as json.dump would, as it is made
        (parsers/vlog/json_document.py)."""
        from parsers.vlog.json_document import write_json

        write_json(self, out)

    def to_json(self) -> dict:
        return {
            "graphs": [graph.to_json() for graph in self.graphs],
            "executions": [execution.to_json() for execution in self.executions],
            "lines": self.lines,
            "unparsed_lines": self.unparsed_lines,
        }
