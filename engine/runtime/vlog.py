"""VLOG lines as TensorFlow 2.x writes them, on stderr, when TF_CPP_*VLOG* settings ask for them.

TensorFlow's settings, read at the first Session.run as TensorFlow reads them once (call
`refresh()` after changing them in a running process): TF_CPP_MAX_VLOG_LEVEL (or the older
TF_CPP_MIN_VLOG_LEVEL) is the level for every source file; TF_CPP_VMODULE
(`executor=1,function_utils=5`) sets it per file. What the engine writes, in absl's prefix
(`I0000 00:00:<epoch>.<micros> <thread> <file>:<line>] `):
- executor.cc: `Process node: <id> step <step> {{node <name>}} = <Op>[attrs](inputs)
  device: <dev>` when a node starts (level 1) and `Synchronous kernel done: ...` when it
  ends (level 2), ids as TensorFlow numbers graph nodes (0 `_SOURCE`, 1 `_SINK`, then the
  graph's nodes);
- function_utils.cc, level 5: once per executor (plan), its graph as a `||` block after a
  `Graph <label> #nodes N #edges E` line, nodes named n<id> as TensorFlow's dumps name them.
parsers/vlog reads these lines back like TensorFlow's own.

The session asks `wanted()` on every run (one global read while VLOG is off) and, when it is,
uses `run_observer` as one more run observer factory (engine/runtime/observers.py): it dumps each
plan once and gives an executor observer, None when no executor line is wanted.

>>> parse_vmodule("executor=2, function_utils=5,bad")
{'executor': 2, 'function_utils': 5}
"""

from __future__ import annotations

import fnmatch
import re
import os
import sys
import threading
import time
import weakref

from engine.framework.text_formats import dtype_text
from engine.framework.text_formats import summarize_attr_value as attr_text

EXECUTOR_LEVEL = 1      # Process node
KERNEL_DONE_LEVEL = 2   # Synchronous kernel done
DUMP_LEVEL = 5
_EXECUTOR_FILE, _PROCESS_LINE, _DONE_LINE = "executor", 879, 936
_DUMP_FILE, _LABEL_LINE, _DUMP_LINE = "function_utils", 78, 82


# ---- settings ----------------------------------------------------------------------------------

def parse_vmodule(text):
    """TF_CPP_VMODULE's `pattern=level,...` as a dict; malformed items are skipped."""
    levels = {}
    for item in (text or "").split(","):
        pattern, equals, level = item.strip().partition("=")
        if equals and pattern and re.fullmatch(r"-?[0-9]+", level.strip()):
            levels[pattern.strip()] = int(level)
    return levels


def _int(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return 0


_settings_cache: dict = {}


def vlog_level(module, environ=os.environ):
    """The VLOG level in force for source file `module` (e.g. "executor")."""
    key = (environ.get("TF_CPP_MAX_VLOG_LEVEL"), environ.get("TF_CPP_MIN_VLOG_LEVEL"),
           environ.get("TF_CPP_VMODULE"))
    settings = _settings_cache.get(key)
    if settings is None:
        settings = (max(_int(key[0]), _int(key[1])), parse_vmodule(key[2]))
        _settings_cache.clear()
        _settings_cache[key] = settings
    level, vmodule = settings
    for pattern, module_level in vmodule.items():
        if fnmatch.fnmatchcase(module, pattern):
            return module_level
    return level


def vlog_is_on(module, level):
    return vlog_level(module) >= level


# ---- the session's hook ------------------------------------------------------------------------

_dumped = weakref.WeakSet()  # plans whose graph was dumped already
_switches = None  # (Process node lines, kernel-done lines, graph dumps), read once


def refresh():
    """Read the TF_CPP_* settings again at the next run."""
    global _switches
    _switches = None


def _read_switches():
    global _switches
    _switches = (vlog_is_on(_EXECUTOR_FILE, EXECUTOR_LEVEL),
                 vlog_is_on(_EXECUTOR_FILE, KERNEL_DONE_LEVEL),
                 vlog_is_on(_DUMP_FILE, DUMP_LEVEL))
    return _switches


def wanted():
    """Whether any VLOG line may be written: Session.run's fast path asks on every run."""
    process, _, dump = _switches or _read_switches()
    return process or dump


def run_observer(device, step_id, plan):
    """The run observer factory: an observer writing executor lines for this run, or None.

    Dumps the plan's graph first, once per plan, where function_utils' level asks.
    """
    process, kernel_done, dump = _switches or _read_switches()
    if dump and plan not in _dumped:
        _dumped.add(plan)
        write_lines(graph_dump_lines(plan))
    if not process:
        return None
    return ExecutorLines(plan, step_id, kernel_done=kernel_done)


# ---- lines ---------------------------------------------------------------------------------------

def prefix(source_file, line, now_ns=None, thread=None):
    """absl's prefix as TensorFlow 2.x prints it before absl::InitializeLog."""
    now_ns = time.time_ns() if now_ns is None else now_ns
    thread = threading.get_native_id() if thread is None else thread
    seconds, nanos = divmod(now_ns, 1_000_000_000)
    return f"I0000 00:00:{seconds}.{nanos // 1000:06d} {thread:>7} {source_file}.cc:{line}] "


def write_lines(lines, stream=None):
    stream = sys.stderr if stream is None else stream
    stream.write("".join(line + "\n" for line in lines))
    stream.flush()


class ExecutorLines:
    """Executor observer: a `Process node` line as each node starts, a `kernel done` line as
    it ends, for one step. Methods it does not know (the protocol grows) do nothing."""

    def __init__(self, plan, step_id, stream=None, kernel_done=True):
        self._texts = _plan_texts(plan)
        self._kernel_done = kernel_done
        self._step = step_id
        self._stream = sys.stderr if stream is None else stream
        # The executor's thread, known at source(): the session builds observers on its own.
        self._thread = threading.get_native_id()

    def _write(self, line, text):
        self._stream.write(prefix(_EXECUTOR_FILE, line, thread=self._thread) + text + "\n")

    def source(self, now_ns, *args, **kwargs):
        self._thread = threading.get_native_id()
        body = f"0 step {self._step} {{{{node _SOURCE}}}} = NoOp[]() device: {self._texts.device}"
        self._write(_PROCESS_LINE, "Process node: " + body)
        if self._kernel_done:
            self._write(_DONE_LINE, "Synchronous kernel done: " + body)

    def node_started(self, node, info=None, *args, **kwargs):
        dead = " is dead" if getattr(info, "dead", False) else ""
        self._write(_PROCESS_LINE, "Process node: " + self._body(node, dead))

    def node_finished(self, node, outputs=None, info=None, *args, **kwargs):
        if self._kernel_done:
            # TensorFlow's kernel-done line words deadness with a colon: "is dead:  device:".
            dead = " is dead: " if getattr(info, "dead", False) else ""
            self._write(_DONE_LINE, "Synchronous kernel done: " + self._body(node, dead))

    def _body(self, node, dead):
        node_id, text = self._texts.nodes[node.name]
        return f"{node_id} step {self._step} {text}{dead} device: {self._texts.devices[node.name]}"

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _ignore


def _ignore(*args, **kwargs):
    return None


class _PlanTexts:
    """Per plan: node name -> (TensorFlow node id, `{{node n}} = Op[attrs](in)`), device."""

    def __init__(self, plan):
        graph_def = plan.partition_graph()
        self.device = plan.device
        self.ids = {node.name: i + 2 for i, node in enumerate(graph_def.node)}
        self.nodes, self.devices = {}, {}
        for node in graph_def.node:
            attrs = node_attrs_text(node, "executor")
            device = node.device or plan.device
            attrs = ", ".join(filter(None, [attrs, f'_device="{device}"']))
            self.nodes[node.name] = (self.ids[node.name],
                                     f"{{{{node {node.name}}}}} = {node.op}[{attrs}]"
                                     f"({', '.join(node.input)})")
            self.devices[node.name] = device
        self.graph_def = graph_def


_plan_cache = weakref.WeakKeyDictionary()


def _plan_texts(plan):
    texts = _plan_cache.get(plan)
    if texts is None:
        texts = _plan_cache[plan] = _PlanTexts(plan)
    return texts


def graph_dump_lines(plan, label="Executor"):
    """The plan's graph as function_utils dumps it: label line, then the `||` block."""
    texts = _plan_texts(plan)
    graph_def, ids = texts.graph_def, texts.ids

    def ref(tensor):
        name, _, index = tensor.lstrip("^").partition(":")
        text = f"n{ids[name]}" if name in ids else name
        return text + (f":{index}" if index and index != "0" else "")

    dtype_of = {node.name: dtype_text(node.attr["T"].type) for node in graph_def.node
                if node.op in ("_Arg", "_Retval")}
    args = [f"n{ids[n.name]}:{dtype_of[n.name]}@{_short_device(n.device)}"
            for n in graph_def.node if n.op == "_Arg"]
    rets = [f"{ref(n.input[0])}:{dtype_of[n.name]}@{_short_device(n.device)}"
            for n in graph_def.node if n.op == "_Retval" and n.input]
    body = []
    edges = 0
    for node in graph_def.node:
        edges += len(node.input)
        if node.op in ("_Arg", "_Retval"):
            continue
        data = [ref(i) for i in node.input if not i.startswith("^")]
        control = [ref(i) for i in node.input if i.startswith("^")]
        attrs = ", ".join(filter(None, [node_attrs_text(node, "dump"),
                                        f"device={_short_device(node.device or plan.device)}"]))
        line = f"  n{ids[node.name]} = {node.op}[{attrs}]({', '.join(data)})"
        body.append(line + (f" @ {', '.join(control)}" if control else ""))
    counts = f"#nodes {len(graph_def.node) + 2} #edges {edges}"
    lines = [f"Graph {label} {counts}", "|| ",
             f"|| ({', '.join(args)}) -> ({', '.join(rets)}) {{",
             *(f"|| {line}" for line in body), "|| }", "|| "]
    return [prefix(_DUMP_FILE, _LABEL_LINE if i == 0 else _DUMP_LINE) + line
            for i, line in enumerate(lines)]


def _short_device(device):
    """`/job:localhost/replica:0/task:0/device:CPU:0` -> `CPU:0`, as the dumps print it."""
    return device.rsplit("device:", 1)[-1] if "device:" in device else device.lstrip("/")


# ---- attr values, as SummarizeAttrValue prints them (engine/framework/text_formats.py) ---

def node_attrs_text(node_def, style):
    """`key=value, ...` sorted by key; the executor's form leaves out a Const's value (the
    kernel strips it from its NodeDef, so TensorFlow never prints it there)."""
    items = []
    for key in sorted(node_def.attr):
        if style == "executor" and node_def.op == "Const" and key == "value":
            continue
        items.append(f"{key}={attr_text(node_def.attr[key], style)}")
    return ", ".join(items)
