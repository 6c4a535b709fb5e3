"""TensorFlow VLOG output (1.x and 2.x) into GraphDefs and StepStats: `read_vlog(path) -> VlogLog`.

>>> from parsers.vlog import read_vlog
>>> log = read_vlog("sample_logs/counter.log")
>>> log.graphs[0].label, len(log.graphs[0].graph_def().node)
('Before running MklLayoutRewritePass', 4)
>>> [node.node_name for node in log.step_stats(1).dev_stats[0].node_stats]
['_SOURCE', 'counter/initial_value', 'counter', 'counter/Assign', 'init']
"""

from parsers.vlog.follow import finished_executions, follow_vlog
from parsers.vlog.model import DumpNode, Execution, ExecutedNode, GraphDump, LogEvent, VlogLog
from parsers.vlog.naming import name_dumps
from parsers.vlog.reader import VlogParser, read_lines, read_vlog

__all__ = [
    "read_vlog", "read_lines", "follow_vlog", "finished_executions", "name_dumps", "VlogParser",
    "VlogLog", "GraphDump", "DumpNode", "Execution", "ExecutedNode", "LogEvent",
]
