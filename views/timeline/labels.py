"""Reading what one NodeExecStats says: its op and inputs, its times in nanoseconds.

>>> parse_label("product = MatMul(_arg_a_0_0, b)")
('product', 'MatMul', ['_arg_a_0_0', 'b'])
>>> parse_label("s = AddV2(b, _arg_x_0_0) (dead)")
('s', 'AddV2', ['b', '_arg_x_0_0'])
>>> parse_label("_SOURCE = NoOp()"), parse_label("")
(('_SOURCE', 'NoOp', []), ('', '', []))
>>> strip_partition_suffix("product/_1"), strip_partition_suffix("a/b:1")
('product', 'a/b:1')
"""

from __future__ import annotations

import re

# `name = Op(in, in)`, as the executor writes timeline_label; a VLOG trace may add " (dead)".
_LABEL = re.compile(r"(?P<name>.*?) = (?P<op>[^(]*)\((?P<inputs>.*?)\)(?: \(dead\))?\Z", re.S)


def parse_label(label: str) -> tuple[str, str, list[str]]:
    """(node name, op, inputs) of a timeline label; ("", "", []) when it has no `=`."""
    match = _LABEL.match(label)
    if match is None:
        return "", "", []
    inputs = match.group("inputs").strip()
    return match.group("name"), match.group("op").strip(), [i.strip() for i in inputs.split(",")
                                                            if i.strip()] if inputs else []


def is_gpu_stream(device: str) -> bool:
    """TensorFlow's GPU tracer devices: "<gpu>/stream:all", "<gpu>/stream:7", "<gpu>/memcpy"."""
    return "/stream:" in device or device.endswith("/memcpy")


def node_op_inputs(device: str, stats) -> tuple[str, str, list[str]]:
    """(node name, op, inputs) of one NodeExecStats of `device`. On a GPU stream the node is
    "name:Op" and the label a kernel's name; elsewhere the label is `name = Op(inputs)`.

    >>> class Stats: node_name, timeline_label = "y:MatMul", "MatMul"
    >>> node_op_inputs("/device:GPU:0/stream:all", Stats)
    ('y', 'MatMul', [])
    """
    if is_gpu_stream(device) and ":" in stats.node_name:
        name, _, op = stats.node_name.rpartition(":")
        return name, op, []
    name, op, inputs = parse_label(stats.timeline_label)
    return stats.node_name or name, op, inputs


def strip_partition_suffix(tensor: str) -> str:
    """A tensor name without the `/_N` partitioning adds to a _Recv's name (TF's timeline.py
    does the same, to draw data flow from the node that produced the value)."""
    index = tensor.rfind("/_")
    if index > 0 and tensor[index + 2:].isascii() and tensor[index + 2:].isdigit():
        return tensor[:index]
    return tensor


def start_nanos(stats) -> int:
    """Absolute start in nanoseconds: all_start_nanos where set, else from micros."""
    return stats.all_start_nanos or stats.all_start_micros * 1000


def duration_nanos(stats) -> int:
    """All-end relative to start, in nanoseconds."""
    return stats.all_end_rel_nanos or stats.all_end_rel_micros * 1000
