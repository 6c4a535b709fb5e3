"""Step-stats rows for the runs screen: one per node execution, sortable, with totals per op.

Start times are relative to the run's first node (microseconds), so the table shows no clock.
A StepTable holds a run's rows once and answers the screen's questions (which rows, in which
order) as lists of row numbers, so that sorting and filtering 100,000 rows stay cheap and can
run in a worker.

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
>>> table = StepTable(rows)
>>> table.select(column="op_us", descending=True)
[1, 0]
>>> import re; table.select(pattern=re.compile("^a$", re.M))
[0]
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

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
        """The device's type and number: "CPU:0" for /job:localhost/.../device:CPU:0."""
        return self.device.rpartition("device:")[2] or self.device


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


def step_rows(step_stats, report=None):
    """Every node execution of every device, in recorded order; report(done, total) now and
    then (a run of 100,000 executions takes seconds to read)."""
    starts = [n.all_start_micros for d in step_stats.dev_stats for n in d.node_stats]
    origin = min(starts) if starts else 0
    total, rows = len(starts), []
    for device_stats in step_stats.dev_stats:
        device = device_stats.device
        stream = is_gpu_stream(device)
        for node in device_stats.node_stats:
            name, op = _node_and_op(node, stream)
            # views.dot.stats' op_time_us and output_bytes, inline: this loop is the slow part
            if node.op_end_rel_nanos or node.op_start_rel_nanos:
                op_us = (node.op_end_rel_nanos - node.op_start_rel_nanos) / 1000
            else:
                op_us = float(node.op_end_rel_micros - node.op_start_rel_micros)
            all_us = (node.all_end_rel_nanos / 1000 if node.all_end_rel_nanos
                      else float(node.all_end_rel_micros))
            size = 0
            for output in node.output:
                allocation = output.tensor_description.allocation_description
                size += allocation.allocated_bytes or allocation.requested_bytes
            rows.append(StepRow(device, name, op, node.all_start_micros - origin, op_us, all_us,
                                size))
            if report is not None and len(rows) % 10_000 == 0:
                report(len(rows), total)
    return rows


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


class StepTable:
    """A run's rows, with orders and matches cached: select() is what the screen shows."""

    def __init__(self, rows):
        self.rows = rows
        self.devices = list(dict.fromkeys(row.device for row in rows))
        self._orders = {}
        self._node_text = None

    def __len__(self):
        return len(self.rows)

    def order(self, column, descending=False):
        """Row numbers by `column` (ties in recorded order, either way)."""
        key = (column, descending)
        if key not in self._orders:
            values = [getattr(row, column) for row in self.rows]
            self._orders[key] = sorted(range(len(values)), key=values.__getitem__,
                                       reverse=descending)
        return self._orders[key]

    def matching(self, pattern, cancelled=lambda: False):
        """A bytearray, 1 for each row whose node name, op or device `pattern` finds. The
        pattern runs over the node names one per line (MULTILINE), so ^ and $ anchor on the
        name; ops and devices are few, each matched once."""
        keep = bytearray(len(self.rows))
        ops = {op for op in {row.op for row in self.rows} if pattern.search(op)}
        devices = {d for d in self.devices if pattern.search(d)}
        if ops or devices:
            for number, row in enumerate(self.rows):
                if row.op in ops or row.device in devices:
                    keep[number] = 1
        if self._node_text is None:
            text = "\n".join(row.node for row in self.rows)
            starts, position = [0], text.find("\n")
            while position >= 0:
                starts.append(position + 1)
                position = text.find("\n", position + 1)
            self._node_text = (text, starts)
        text, starts = self._node_text
        position, found = 0, 0
        while True:
            found += 1
            if found % CHUNK == 0 and cancelled():
                raise Cancelled()
            match = pattern.search(text, position)
            if match is None:
                break
            line = bisect_right(starts, match.start()) - 1
            keep[line] = 1
            if line + 1 >= len(starts):
                break
            position = starts[line + 1]
        return keep

    def select(self, device=None, pattern=None, column="start_us", descending=False,
               cancelled=lambda: False):
        """Row numbers on `device` (every device when None) that `pattern` finds, ordered;
        raises Cancelled once cancelled() holds."""
        order = self.order(column, descending)
        if device is None and pattern is None:
            return order
        rows = self.rows
        keep = self.matching(pattern, cancelled) if pattern is not None else None
        if cancelled():
            raise Cancelled()
        if keep is None:
            return [n for n in order if rows[n].device == device]
        if device is None:
            return [n for n in order if keep[n]]
        return [n for n in order if keep[n] and rows[n].device == device]

    def widths(self):
        """The widest cell of each column over every row (the table fits its columns to them)."""
        widths = {key: len(title) + 2 for key, title in COLUMNS.items()}
        for key in ("short_device", "node", "op"):
            values = {getattr(row, key) for row in self.rows}
            widths[key] = max([widths[key]] + [len(value) for value in values])
        for key in ("start_us", "op_us", "all_us", "bytes"):
            largest = max((getattr(row, key) for row in self.rows), default=0)
            widths[key] = max(widths[key], len(cell(key, largest)) + 1)
        return widths


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
