"""Executor trace lines: `Process node:` (a node starts) and `... kernel done:` (it finished).

TensorFlow 2.x prints `Process node: <id> step <step> {{node <name>}} = <Op>[attrs](inputs)
[is dead] device: <device>`; 1.x printed the node summary without `{{node }}`.

>>> p = parse_process(b'Process node: 4 step 1 {{node counter/Assign}} = Assign[T=DT_INT32]'
...                   b'(counter, Const) device: /job:localhost/replica:0/task:0/device:CPU:0')
>>> p.id, p.step, p.name, p.op, p.inputs, p.dead, p.device
(4, 1, 'counter/Assign', 'Assign', ('counter', 'Const'), False, '/job:localhost/replica:0/task:0/device:CPU:0')
>>> parse_process(b'Process node: 15 step -1 x = Exit[](y) is dead device: /device:CPU:0').dead
True
>>> parse_done(b'Synchronous kernel done: 15 step 7 {{node x}} = Exit[](y) device: /device:CPU:0')
(False, 15, 7)
"""

from __future__ import annotations

import re
from collections import namedtuple

PROCESS = re.compile(rb"Process node: (\d+) step (-?\d+) (.*)", re.S)
DONE = re.compile(rb"(Synchronous|Async) kernel done: (\d+) step (-?\d+) ")
# A 2.x prefix and an executor head in one match (the common case): month, day, h, m, s,
# fraction, thread, then the node id, the step and (Process) the rest of the line.
_ABSL_HEAD = rb"[IWEF](\d\d)(\d\d) (\d\d):(\d\d):(\d+)\.(\d{6}) +"
PROCESS_LINE = re.compile(
    _ABSL_HEAD + rb"(?:(\d+) +)?[^\s\]]+:\d+\] Process node: (\d+) step (-?\d+) (.*)", re.S
)
DONE_LINE = re.compile(
    _ABSL_HEAD + rb"(?:\d+ +)?[^\s\]]+:\d+\] (?:Synchronous|Async) kernel done: (\d+) step (-?\d+) "
)
SUMMARY = re.compile(
    r"(?P<op>[^\s\[\]()]+)(?:\[(?P<attrs>.*)\])?\((?P<inputs>[^()]*)\)\Z", re.S
)


# A namedtuple, not typing.NamedTuple: importing typing would add 2 ms to every `vlog` start.
Process = namedtuple("Process", "id step name op inputs dead device attr_text")
Process.__doc__ = "One `Process node:` line: ids and step (int), inputs (tuple of str), dead (bool)."


def parse_process(message: bytes) -> Process | None:
    """A `Process node:` message (after the log prefix), or None if it is cut or garbled."""
    match = PROCESS.match(message)
    if match is None:
        return None
    summary = parse_summary(match.group(3))
    if summary is None:
        return None
    return Process(int(match.group(1)), int(match.group(2)), *summary)


def parse_summary(rest: bytes):
    """`{{node name}} = Op[attrs](inputs) [is dead] device: dev` as
    (name, op, inputs, dead, device, attr_text), or None if it is cut or garbled."""
    text = rest.decode("utf-8", "replace").rstrip("\r\n")
    summary, sep, device = text.rpartition(" device: ")
    if not sep or not device or " " in device:
        return None
    dead = False
    if summary.endswith(" is dead"):
        summary = summary[:-8]
        dead = True
    if summary.startswith("{{node "):
        name, sep, body = summary[7:].partition("}} = ")
    else:
        name, sep, body = summary.partition(" = ")
    if not sep or not name:
        return None
    node = SUMMARY.match(body)
    if node is None:
        return None
    op, attrs, inputs = node.groups()
    return name, op, tuple(inputs.split(", ")) if inputs else (), dead, device, attrs or ""


def parse_done(message: bytes) -> tuple[bool, int, int] | None:
    """A `kernel done:` message as (is_async, node id, step), or None."""
    match = DONE.match(message)
    if match is None:
        return None
    return match.group(1) == b"Async", int(match.group(2)), int(match.group(3))
