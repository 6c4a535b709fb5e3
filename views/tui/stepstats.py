"""Step-stats rows for the runs screen: one per node execution, sortable, with totals per op.

Start times are relative to the run's first node (microseconds), so the table shows no clock.
A run is read once into StepColumns (arrays); views/tui/step_table.py indexes them for the
screen's questions (which rows, in which order, their totals).

>>> from engine.proto import step_stats_pb2 as s
>>> stats = s.StepStats(dev_stats=[{"device": "/device:CPU:0", "node_stats": [
...     {"node_name": "a", "timeline_label": "a = Const()", "all_start_micros": 100,
...      "op_end_rel_micros": 2, "all_end_rel_micros": 3},
...     {"node_name": "b", "timeline_label": "b = Add(a, a)", "all_start_micros": 110,
...      "op_start_rel_micros": 1, "op_end_rel_micros": 6, "all_end_rel_micros": 7}]}])
>>> rows = step_rows(stats)
>>> [(r.node, r.op, r.start_us, r.op_us) for r in sort_rows(rows, "op_us", reverse=True)]
[('b', 'Add', 10, 5.0), ('a', 'Const', 0, 2.0)]
>>> [(t.op, t.count, t.op_us) for t in op_totals(rows)]
[('Add', 1, 5.0), ('Const', 1, 2.0)]
>>> columns = read_columns(stats)
>>> columns.ops, columns.op_us.tolist(), columns.row(1) == rows[1]
(['Const', 'Add'], [2.0, 5.0], True)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from views.timeline.labels import is_gpu_stream

# column key -> title, in table order; the keys are StepRow fields
COLUMNS = {"short_device": "device", "node": "node", "op": "op", "start_us": "start µs",
           "op_us": "op µs", "all_us": "total µs", "bytes": "output bytes"}
# Columns whose first sort is largest first: what took longest is what one looks for.
DESCENDING_FIRST = {"op_us", "all_us", "bytes"}


class StepRow(NamedTuple):     # a tuple: 100,000 of them are made in a second, not five
    device: str
    node: str
    op: str
    start_us: int
    op_us: float
    all_us: float
    bytes: int

    @property
    def short_device(self):
        return short_device(self.device)


def short_device(device):
    """The device's type and number: "CPU:0" for /job:localhost/.../device:CPU:0."""
    return device.rpartition("device:")[2] or device


class Cancelled(Exception):
    """The work was dropped (a newer action replaced it)."""


CHUNK = 5000   # rows between checks of `cancelled`


@dataclass(frozen=True)
class OpTotal:
    op: str
    count: int
    op_us: float
    all_us: float
    bytes: int


@dataclass
class StepColumns:
    """A run's node executions as columns, in recorded order (device by device): what
    step_table.StepTable indexes. Times are NumPy arrays; names and ops stay strings."""

    devices: list          # distinct device strings, in order of first appearance
    device_codes: object   # int32 array: the row's device, a position in `devices`
    names: list            # node name per row
    ops: list              # distinct op types, in order of first appearance
    op_codes: object       # int32 array: the row's op, a position in `ops`
    start_us: object       # int64 array, relative to the run's first node
    op_us: object          # float64 arrays
    all_us: object
    bytes: object          # int64 array

    def __len__(self):
        return len(self.names)

    def row(self, number):
        return StepRow(self.devices[self.device_codes[number]], self.names[number],
                       self.ops[self.op_codes[number]], int(self.start_us[number]),
                       float(self.op_us[number]), float(self.all_us[number]),
                       int(self.bytes[number]))


def read_columns(step_stats, report=None):
    """Every node execution of every device as StepColumns; report(done, total) every 10,000
    (a run of 100,000 executions takes a few tenths of a second). Only the protobuf fields are
    read per node in Python; the arithmetic is done on whole arrays afterwards."""
    total = sum(len(d.node_stats) for d in step_stats.dev_stats)
    devices, device_codes, names, op_index, op_codes = {}, [], [], {}, []
    starts, sizes, all_nanos, all_micros = [], [], [], []
    op_start_nanos, op_end_nanos, op_start_micros, op_end_micros = [], [], [], []
    for device_stats in step_stats.dev_stats:
        device, nodes = device_stats.device, device_stats.node_stats
        if not nodes:
            continue                 # a device is listed where it ran something
        code = devices.setdefault(device, len(devices))
        stream = is_gpu_stream(device)
        device_codes.append(np.full(len(nodes), code, dtype=np.int32))
        for node in nodes:
            name, op = _node_and_op(node, stream)
            names.append(name)
            op_code = op_index.get(op)
            if op_code is None:
                op_code = op_index[op] = len(op_index)
            op_codes.append(op_code)
            starts.append(node.all_start_micros)
            op_start_nanos.append(node.op_start_rel_nanos)
            op_end_nanos.append(node.op_end_rel_nanos)
            op_start_micros.append(node.op_start_rel_micros)
            op_end_micros.append(node.op_end_rel_micros)
            all_nanos.append(node.all_end_rel_nanos)
            all_micros.append(node.all_end_rel_micros)
            size = 0
            for output in node.output:
                allocation = output.tensor_description.allocation_description
                size += allocation.allocated_bytes or allocation.requested_bytes
            sizes.append(size)
            if report is not None and len(names) % 10_000 == 0:
                report(len(names), total)
    starts = _int64(starts)
    # views.dot.stats' op_time_us and output_bytes: nanoseconds where the run has them
    op_start_nanos, op_end_nanos = _int64(op_start_nanos), _int64(op_end_nanos)
    op_us = np.where((op_start_nanos != 0) | (op_end_nanos != 0),
                     (op_end_nanos - op_start_nanos) / 1000,
                     (_int64(op_end_micros) - _int64(op_start_micros)).astype(np.float64))
    all_nanos = _int64(all_nanos)
    all_us = np.where(all_nanos != 0, all_nanos / 1000,
                      _int64(all_micros).astype(np.float64))
    return StepColumns(
        list(devices), np.concatenate(device_codes) if device_codes else np.zeros(0, np.int32),
        names, list(op_index), np.array(op_codes, dtype=np.int32),
        starts - starts.min() if len(starts) else starts, op_us, all_us,
        _int64(sizes))


def _int64(values):
    return np.array(values, dtype=np.int64)


def step_rows(step_stats, report=None):
    """Every node execution of every device as StepRows, in recorded order."""
    columns = read_columns(step_stats, report)
    return [columns.row(number) for number in range(len(columns))]


def _node_and_op(node, stream):
    """As views.timeline.labels.node_op_inputs, without parsing the inputs (the hot loop).

    >>> class Stats: node_name, timeline_label = "y", "y = MatMul(x, w) (dead)"
    >>> _node_and_op(Stats, False), _node_and_op(type("S", (), {"node_name": "y:MatMul"}), True)
    (('y', 'MatMul'), ('y', 'MatMul'))
    """
    if stream and ":" in node.node_name:
        name, _, op = node.node_name.rpartition(":")
        return name, op
    label = node.timeline_label
    name, equals, rest = label.partition(" = ")
    op = rest.partition("(")[0].strip() if equals and "(" in rest else ""
    return (node.node_name or name).partition(":")[0], op


def sort_rows(rows, column, reverse=False):
    """Rows by one column, ties kept in recorded order."""
    return sorted(rows, key=lambda row: getattr(row, column), reverse=reverse)


def cell(key, value):
    """The text of one cell."""
    if key in ("op_us", "all_us"):
        return micros(value)
    return str(value)


def op_totals(rows, cancelled=lambda: False):
    """Per op type: executions, op time, total time and bytes, most op time first."""
    totals = defaultdict(lambda: [0, 0.0, 0.0, 0])
    for number, row in enumerate(rows):
        if number % CHUNK == 0 and number and cancelled():
            raise Cancelled()
        total = totals[row.op or "(unknown)"]
        total[0] += 1
        total[1] += row.op_us
        total[2] += row.all_us
        total[3] += row.bytes
    return sorted((OpTotal(op, *values) for op, values in totals.items()),
                  key=lambda t: (-t.op_us, t.op))


def micros(value):
    """
    >>> micros(5.0), micros(0.351), micros(12345.6)
    ('5', '0.351', '12346')
    """
    return f"{value:.0f}" if value >= 100 or float(value).is_integer() else f"{value:.3g}"
