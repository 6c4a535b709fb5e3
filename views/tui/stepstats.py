"""Step-stats rows for the runs screen: one per node execution, sortable, with totals per op.

Start times are relative to the run's first node (microseconds), so the table shows no clock.

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
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from views.dot.stats import op_time_us, output_bytes
from views.timeline.labels import node_op_inputs


# column key -> title, in table order; the keys are StepRow fields
COLUMNS = {"short_device": "device", "node": "node", "op": "op", "start_us": "start µs", "op_us": "op µs",
           "all_us": "total µs", "bytes": "output bytes"}


@dataclass(frozen=True)
class StepRow:
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


@dataclass(frozen=True)
class OpTotal:
    op: str
    count: int
    op_us: float
    all_us: float
    bytes: int


def step_rows(step_stats):
    """Every node execution of every device, in recorded order."""
    starts = [n.all_start_micros for d in step_stats.dev_stats for n in d.node_stats]
    origin = min(starts) if starts else 0
    rows = []
    for device_stats in step_stats.dev_stats:
        for node in device_stats.node_stats:
            name, op, _ = node_op_inputs(device_stats.device, node)
            all_us = (node.all_end_rel_nanos / 1000 if node.all_end_rel_nanos
                      else float(node.all_end_rel_micros))
            rows.append(StepRow(device_stats.device, name.partition(":")[0], op,
                                node.all_start_micros - origin,
                                op_time_us(node), all_us, output_bytes(node)))
    return rows


def sort_rows(rows, column, reverse=False):
    """Rows by one column, ties kept in recorded order."""
    return sorted(rows, key=lambda row: getattr(row, column), reverse=reverse)


def filter_rows(rows, pattern):
    """Rows whose node, op or device the compiled `pattern` finds (all when None)."""
    if pattern is None:
        return list(rows)
    return [r for r in rows if pattern.search(r.node) or pattern.search(r.op)
            or pattern.search(r.device)]


def op_totals(rows):
    """Per op type: executions, op time, total time and bytes, most op time first."""
    totals = defaultdict(lambda: [0, 0.0, 0.0, 0])
    for row in rows:
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
