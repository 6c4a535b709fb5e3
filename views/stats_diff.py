"""Two runs' step stats compared op by op: time per op type and per node in A and in B, the
ratio B/A, sorted by what costs most; nodes matched by name, the unmatched listed.

A "run" here is every RunMetadata with step stats that one input holds (a RunMetadata file, an
events file's tagged runs, a VLOG log's steps): its times are the mean over those runs, so
an input of ten traced steps compares as one typical step. A node's time is its op time
(op_start to op_end, as views/dot/stats reads it), summed over devices and over the times it
ran in a run (loop bodies).

>>> from engine.proto import step_stats_pb2 as s
>>> def run(*nodes):
...     return s.StepStats(dev_stats=[{"device": "/device:CPU:0", "node_stats": [
...         {"node_name": n, "timeline_label": f"{n} = {op}()", "op_end_rel_micros": us}
...         for n, op, us in nodes]}])
>>> d = compare([run(("a", "MatMul", 10), ("b", "Relu", 2))],
...             [run(("a", "MatMul", 30), ("c", "Relu", 1))])
>>> [(r.key, r.a_us, r.b_us, r.ratio) for r in d.ops]
[('MatMul', 10.0, 30.0, 3.0), ('Relu', 2.0, 1.0, 0.5)]
>>> [(r.key, r.ratio) for r in d.nodes], d.only_a, d.only_b
([('a', 3.0)], ('b',), ('c',))
"""

from __future__ import annotations

from dataclasses import dataclass

from views.dot.stats import op_time_us
from views.timeline.labels import parse_label


@dataclass(frozen=True)
class NodeTime:
    """One node's mean time per run (µs), the op it ran, how many times per run it ran."""

    op: str
    us: float
    count: float


@dataclass(frozen=True)
class Row:
    """One op type or one node: time (µs, mean per run) and count in A and in B."""

    key: str
    op: str
    a_us: float
    b_us: float
    a_count: float
    b_count: float

    @property
    def ratio(self):
        """B's time over A's; None where A took no time."""
        return self.b_us / self.a_us if self.a_us else None

    @property
    def cost(self):
        """What the sort goes by: the larger of the two times."""
        return max(self.a_us, self.b_us)

    def to_json(self):
        ratio = self.ratio
        return {"name": self.key, "op": self.op, "a_us": round(self.a_us, 3),
                "b_us": round(self.b_us, 3), "ratio": None if ratio is None else round(ratio, 4),
                "a_count": self.a_count, "b_count": self.b_count}


@dataclass(frozen=True)
class StatsDiff:
    """ops: a Row per op type (every node of A and B, matched or not); nodes: a Row per node
    in both; only_a, only_b: names of nodes that ran in one only (by A's and B's cost);
    runs_a, runs_b: how many runs each time is the mean of."""

    ops: tuple[Row, ...]
    nodes: tuple[Row, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    runs_a: int
    runs_b: int
    total_a_us: float
    total_b_us: float
    matched_a_us: float
    matched_b_us: float

    def to_json(self):
        def ratio(b, a):
            return round(b / a, 4) if a else None
        return {"runs": [self.runs_a, self.runs_b],
                "total": {"a_us": round(self.total_a_us, 3), "b_us": round(self.total_b_us, 3),
                          "ratio": ratio(self.total_b_us, self.total_a_us)},
                "matched": {"a_us": round(self.matched_a_us, 3),
                            "b_us": round(self.matched_b_us, 3),
                            "ratio": ratio(self.matched_b_us, self.matched_a_us)},
                "ops": [row.to_json() for row in self.ops],
                "nodes": [row.to_json() for row in self.nodes],
                "only_a": list(self.only_a), "only_b": list(self.only_b)}


def node_times(step_stats_list):
    """Node name -> NodeTime: the mean over the runs (StepStats) of each node's summed time."""
    totals: dict[str, list] = {}
    for step_stats in step_stats_list:
        for device_stats in step_stats.dev_stats:
            for stats in device_stats.node_stats:
                # Some TensorFlow versions write "name:Op"; node names never hold a colon.
                name, _, op_after_colon = stats.node_name.partition(":")
                label_name, op, _ = parse_label(stats.timeline_label)
                entry = totals.setdefault(name, [op or op_after_colon, 0.0, 0])
                if not entry[0]:
                    entry[0] = op or op_after_colon
                entry[1] += op_time_us(stats)
                entry[2] += 1
    runs = max(len(step_stats_list), 1)
    return {name: NodeTime(op, us / runs, count / runs) for name, (op, us, count) in totals.items()}


def compare(runs_a, runs_b):
    """The StatsDiff of A's runs against B's (each a list of StepStats)."""
    a, b = node_times(runs_a), node_times(runs_b)
    nodes = [Row(name, a[name].op or b[name].op, a[name].us, b[name].us, a[name].count,
                 b[name].count) for name in a if name in b]
    by_op: dict[str, list] = {}
    for side, times in ((0, a), (1, b)):
        for time in times.values():
            entry = by_op.setdefault(time.op or "(unknown)", [0.0, 0.0, 0.0, 0.0])
            entry[side] += time.us
            entry[2 + side] += time.count
    ops = [Row(op, op, a_us, b_us, a_count, b_count)
           for op, (a_us, b_us, a_count, b_count) in by_op.items()]
    return StatsDiff(
        ops=tuple(_by_cost(ops)), nodes=tuple(_by_cost(nodes)),
        only_a=tuple(sorted((n for n in a if n not in b), key=lambda n: (-a[n].us, n))),
        only_b=tuple(sorted((n for n in b if n not in a), key=lambda n: (-b[n].us, n))),
        runs_a=len(runs_a), runs_b=len(runs_b),
        total_a_us=sum(t.us for t in a.values()), total_b_us=sum(t.us for t in b.values()),
        matched_a_us=sum(row.a_us for row in nodes), matched_b_us=sum(row.b_us for row in nodes))


def _by_cost(rows):
    return sorted(rows, key=lambda row: (-row.cost, row.key))


def format_ratio(ratio):
    """B/A as printed: "2.50x", "-" where A took no time.

    >>> format_ratio(2.5), format_ratio(None), format_ratio(0.123)
    ('2.50x', '-', '0.12x')
    """
    return "-" if ratio is None else f"{ratio:.2f}x"


def table_lines(rows, title, limit=None, op_column=False):
    """A text table of rows (name, [op,] A µs, B µs, B/A, counts), the first `limit`."""
    shown = list(rows if limit is None else rows[:limit])
    name_width = max([len(title)] + [len(row.key) for row in shown])
    op_width = max([2] + [len(row.op) for row in shown]) if op_column else 0
    head = f"{title:<{name_width}}" + (f"  {'op':<{op_width}}" if op_column else "")
    lines = [head + f"  {'A µs':>10}  {'B µs':>10}  {'B/A':>8}  {'ran A':>6}  {'ran B':>6}"]
    for row in shown:
        line = f"{row.key:<{name_width}}" + (f"  {row.op:<{op_width}}" if op_column else "")
        lines.append(line + f"  {row.a_us:>10.1f}  {row.b_us:>10.1f}  "
                            f"{format_ratio(row.ratio):>8}  {_count(row.a_count):>6}  "
                            f"{_count(row.b_count):>6}")
    if limit is not None and len(rows) > limit:
        lines.append(f"... {len(rows) - limit} more (--top N shows more)")
    return lines


def _count(count):
    return f"{count:g}" if count == int(count) else f"{count:.1f}"
