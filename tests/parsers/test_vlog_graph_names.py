"""Graphs rebuilt from the real TensorFlow logs in sample_logs/: every node name once per graph,
and each _Retval the node the executor trace of that graph ran, fed by the node it returns."""

from collections import Counter
from pathlib import Path

import pytest

from parsers.vlog import read_vlog

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "sample_logs").glob("*.log"))


@pytest.fixture(scope="module", params=[path.stem for path in SAMPLES])
def log(request):
    return read_vlog(SAMPLES[0].with_name(f"{request.param}.log"))


def test_names_are_unique_in_every_rebuilt_graph(log):
    assert log.graphs
    for dump in log.graphs:
        names = Counter(node.name for node in dump.graph_def().node)
        assert [name for name, count in names.items() if count > 1] == [], dump.first_line


def test_retvals_are_the_ones_the_trace_ran(log):
    """TensorFlow prints a graph's rets as the nodes they return; the trace that ran the graph
    names the _Retval nodes themselves (`_retval_counter_0_0`) and their input."""
    checked = 0
    for dump in log.graphs:
        graph = dump.graph_def()
        names = {node.name for node in graph.node}
        retvals = [node for node in graph.node if node.op == "_Retval"]
        assert len(retvals) == len(dump.rets)
        if dump.kind != "graph":
            continue
        ran = {}
        for execution in log.executions:
            if (execution.step, execution.device) == dump.names_from:
                ran.update({node.name: (node.op, list(node.inputs)) for node in execution.nodes})
        for retval in retvals:
            assert len(retval.input) == 1 and retval.input[0] in names - {retval.name}
            if dump.names_from:
                assert ran[retval.name] == ("_Retval", list(retval.input))
                checked += 1
    if any(dump.names_from and dump.rets for dump in log.graphs):
        assert checked
