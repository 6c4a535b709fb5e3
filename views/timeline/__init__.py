"""Chrome trace timelines (Perfetto, chrome://tracing) of one run or many, from step stats.

Pure functions: TraceRun (step stats, a label, a step) -> events -> JSON text; the same runs
always give the same bytes.

>>> from engine.proto import step_stats_pb2
>>> stats = step_stats_pb2.StepStats()
>>> node = stats.dev_stats.add(device="/cpu:0").node_stats.add(node_name="a")
>>> node.timeline_label, node.all_start_micros, node.all_end_rel_micros = "a = Const()", 5, 2
>>> trace = chrome_trace([TraceRun("step 1", stats, step=1)])
>>> [(e["ph"], e["name"]) for e in trace["traceEvents"] if e["ph"] == "X"]
[('X', 'run step 1'), ('X', 'a')]
"""

from __future__ import annotations

import json

from views import outputs
from views.timeline.labels import parse_label
from views.timeline.trace import TraceRun, chrome_trace, trace_events

__all__ = ["TraceRun", "chrome_trace", "trace_events", "dumps", "write_trace", "parse_label"]


def dumps(trace: dict) -> str:
    """The trace as JSON text, keys sorted, compact: deterministic."""
    return json.dumps(trace, sort_keys=True, separators=(",", ":"))


def write_trace(path, runs) -> int:
    """Writes the trace of `runs` to `path` ("-": stdout), whole or not at all (an old file
    stays as it was when the write fails); returns the number of events."""
    trace = chrome_trace(runs)
    outputs.write_text(path, dumps(trace) + "\n")
    return len(trace["traceEvents"])
