"""The text of the node detail tabs: NodeDef, OpDef, creation stack, tensor summaries.

>>> from engine.proto import node_def_pb2
>>> print(nodedef_text(node_def_pb2.NodeDef(name="one", op="Const")), end="")
name: "one"
op: "Const"
>>> print(opdef_text("NoSuchOp", {}), end="")
no OpDef known for op NoSuchOp (not in the engine's registry nor in the file's stripped_op_list)
>>> import numpy as np
>>> summary_lines(np.array([[1.0, np.nan], [np.inf, 3.0]], dtype=np.float32))
['shape [2, 2]  dtype float32  size 4', 'min 1  max 3  mean 2', 'NaN 1  Inf 1']
"""

from __future__ import annotations

import linecache
import os
import sysconfig

import numpy as np

from engine.framework import op_registry
from engine.framework import traceback as engine_traceback

CONTEXT_LINES = 2        # source lines shown either side of a frame's line
MAX_TABLE_ROWS = 500
MAX_TABLE_COLUMNS = 32


def nodedef_text(node_def):
    """A NodeDef as TensorFlow prints `operation.node_def` (protobuf text format); a fused
    node (the remapper's _FusedElementwise) under a line saying what it stands for.

    >>> from engine.proto import node_def_pb2
    >>> fused = node_def_pb2.NodeDef(name="hits", op="_FusedElementwise")
    >>> fused.attr["fused_ops"].list.s.extend([b"RandomUniform", b"Square", b"Sum"])
    >>> fused.attr["fused_random"].list.s.append(b"x/RandomUniform")
    >>> print(nodedef_text(fused).splitlines()[0])
    # fuses 3 ops: RandomUniform(x/RandomUniform) Square Sum
    """
    line = fused_chain_line(node_def)
    return f"# {line}\n{node_def}" if line else str(node_def)


def fused_chain_line(node_def):
    """What a _FusedElementwise node stands for, in one line ("" for any other node): its
    steps in order, a random step with the node whose Philox stream it draws."""
    if node_def.op != "_FusedElementwise" or "fused_ops" not in node_def.attr:
        return ""
    ops = [op.decode("utf-8", "replace") for op in node_def.attr["fused_ops"].list.s]
    randoms = iter([name.decode("utf-8", "replace")
                    for name in node_def.attr["fused_random"].list.s]
                   if "fused_random" in node_def.attr else [])
    steps = [f"{op}({next(randoms, '?')})" if op == "RandomUniform" else op for op in ops]
    return f"fuses {len(ops)} op{'s' if len(ops) != 1 else ''}: " + " ".join(steps)


def opdef_text(op_type, file_op_defs):
    """The OpDef of an op, under what else the engine has for it (engine.api.registry: kernels,
    shape function, gradient, families); the file's stripped_op_list for an op the engine
    does not know."""
    if op_registry.lookup(op_type) is not None:
        # engine.api.registry loads every kernel and gradient: on the tab's first use, not at start.
        from engine.api import registry
        from views import op_table
        row = registry.describe(op_type)
        return "\n".join(["# from the engine op registry", *op_table.summary_lines(row),
                          str(row.op_def)])
    op_def = file_op_defs.get(op_type)
    if op_def is None:
        return (f"no OpDef known for op {op_type} (not in the engine's registry nor in the"
                " file's stripped_op_list)\n")
    return f"# from the file's stripped_op_list\n{op_def}"


def graph_traces(graph_def):
    """{node name: StackTrace} from a GraphDef's debug_info ("name@" keys made plain)."""
    if not graph_def.HasField("debug_info"):
        return {}
    traces = {}
    for key, trace in engine_traceback.traces_from_debug_info(graph_def.debug_info).items():
        name, _, function = key.partition("@")
        if not function:
            traces.setdefault(name, trace)
    return traces


def traceback_lines(trace, context=CONTEXT_LINES + 1):
    """A creation stack, the line that created the node first (marked ▶, with the source
    around it), then the program's other frames innermost first, then the frames of the tool
    that launched the program (graph-inspector's own, runpy, threading), one line each.

    A file not on this machine shows the frame's own line as recorded (GraphDebugInfo keeps it).
    """
    if not trace:
        return []
    defining = engine_traceback.defining_frame_index(trace)
    outer = list(reversed(trace[:defining]))
    program = [frame for frame in outer if not _is_launcher(frame.filename)]
    launcher = [frame for frame in outer if _is_launcher(frame.filename)]
    creator = trace[defining]
    lines = [f'▶ File "{creator.filename}", line {creator.lineno}, in {creator.name}']
    lines += _source_lines(creator, context)
    if program:
        lines.append("called from (innermost first):")
        for frame in program:
            lines.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}')
            lines += _source_lines(frame, 0)
    if launcher:
        lines.append(f"launched through {len(launcher)} frames (graph-inspector, Python):")
        lines += [f"  {frame.filename}:{frame.lineno} in {frame.name}" for frame in launcher]
    return lines


# Frames that started the program rather than being it: graph-inspector's own, the Python
# library's (runpy, threading, asyncio) and installed packages'.
_LAUNCHER_DIRS = (os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "inspector") + os.sep, sysconfig.get_paths()["stdlib"] + os.sep)
_LAUNCHER_FILES = ("graph-inspector", "__main__.py")


def _is_launcher(filename):
    return (filename.startswith(_LAUNCHER_DIRS) or "site-packages" in filename
            or os.path.basename(filename) in _LAUNCHER_FILES)


def _source_lines(frame, context):
    """The frame's line with `context` lines either side, its own marked with >."""
    around = [(n, linecache.getline(frame.filename, n).rstrip())
              for n in range(max(1, frame.lineno - context), frame.lineno + context + 1)]
    # A file changed since the graph was made no longer holds the recorded line: trust the record.
    changed = frame.line and linecache.getline(frame.filename, frame.lineno).strip() != \
        frame.line.strip()
    if any(text for _, text in around) and not changed:
        return [f"  {'>' if number == frame.lineno else ' '}{number:5d}  {text}"
                for number, text in around if text or number == frame.lineno]
    if frame.line:
        return [f"  >{frame.lineno:5d}  {frame.line}"]
    return []


def signature_lines(signatures):
    """A SavedModel's signatures, one line each: key, method, inputs -> outputs (tensor names).

    >>> from engine.proto import meta_graph_pb2
    >>> sig = meta_graph_pb2.SignatureDef(method_name="tensorflow/serving/predict",
    ...     inputs={"x": {"name": "x:0"}}, outputs={"y": {"name": "logits:0"}})
    >>> signature_lines({"serving_default": sig})
    ["signature 'serving_default' (predict): x=x:0 -> y=logits:0"]
    """
    lines = []
    for key in sorted(signatures):
        signature = signatures[key]
        method = signature.method_name.rpartition("/")[2] or "?"
        inputs = ", ".join(f"{k}={signature.inputs[k].name}" for k in sorted(signature.inputs))
        outputs = ", ".join(f"{k}={signature.outputs[k].name}" for k in sorted(signature.outputs))
        lines.append(f"signature {key!r} ({method}): {inputs or '-'} -> {outputs or '-'}")
    return lines


def summary_lines(value):
    """Shape, dtype, min/max/mean and NaN/Inf counts of a tensor value."""
    array = np.asarray(value)
    lines = [f"shape {list(array.shape)}  dtype {array.dtype}  size {array.size}"]
    if array.size and (np.issubdtype(array.dtype, np.number) or array.dtype == bool):
        numbers = array.astype(np.float64) if array.dtype == bool else array
        finite = numbers[np.isfinite(numbers)] if np.issubdtype(numbers.dtype, np.inexact) else numbers
        if finite.size:
            lines.append(f"min {_num(finite.min())}  max {_num(finite.max())}"
                         f"  mean {_num(finite.astype(np.float64).mean())}")
        if np.issubdtype(numbers.dtype, np.inexact):
            lines.append(f"NaN {int(np.isnan(numbers).sum())}  Inf {int(np.isinf(numbers).sum())}")
    return lines


def value_table(value):
    """(column labels, rows of cell texts) for a value: the last axis across, the rest down."""
    array = np.asarray(value)
    if array.ndim == 0:
        return ["value"], [[_num(array.item())]]
    matrix = array.reshape(-1, array.shape[-1]) if array.ndim > 1 else array.reshape(-1, 1)
    if array.ndim == 1:
        columns = ["value"]
        labels = [f"[{i}]" for i in range(min(len(matrix), MAX_TABLE_ROWS))]
    else:
        columns = [str(i) for i in range(min(matrix.shape[1], MAX_TABLE_COLUMNS))]
        leading = array.shape[:-1]
        labels = [str([int(d) for d in np.unravel_index(i, leading)])
                  for i in range(min(len(matrix), MAX_TABLE_ROWS))]
    rows = [[label] + [_num(x) for x in matrix[i, :MAX_TABLE_COLUMNS]]
            for i, label in enumerate(labels)]
    return ["index"] + columns, rows


def _num(x):
    """
    >>> _num(2.0), _num(0.125), _num(1/3), _num(True), _num(b"ab")
    ('2', '0.125', '0.333333', 'True', "b'ab'")
    """
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    if isinstance(x, (np.generic,)):
        x = x.item()
    return str(x)


def const_value(node_def):
    """The value a Const holds (None for other ops or an unreadable tensor)."""
    if node_def.op != "Const" or "value" not in node_def.attr:
        return None
    try:
        from engine.framework import tensor_util
        return tensor_util.MakeNdarray(node_def.attr["value"].tensor)
    except Exception:  # noqa: BLE001  (a tensor the engine cannot read: show no values)
        return None
