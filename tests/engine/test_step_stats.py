"""FULL_TRACE step stats shaped as TensorFlow 2.21's (tests/fixtures/runs/, real RunMetadata).

The matmul/softmax graph TensorFlow wrote runs on our executor, traced; its NodeExecStats
must carry the same nodes, labels and fields as the RunMetadata TensorFlow recorded for it.
"""

from pathlib import Path

import numpy as np
from google.protobuf import text_format

from engine.runtime import plan as plan_lib
from engine.runtime.executor import Executor
from engine.proto import config_pb2, graph_pb2
from engine.runtime.resources import ResourceMgr
from engine.runtime.step_stats import StepStatsCollector

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def tf_run_metadata():
    text = (FIXTURES / "runs" / "matmul_softmax.pbtxt").read_text()
    return text_format.Parse(text, config_pb2.RunMetadata())


def traced_matmul_softmax():
    graph_def = graph_pb2.GraphDef.FromString(
        (FIXTURES / "graphs" / "matmul_softmax.pb").read_bytes())
    nodes, order = plan_lib.nodes_from_graph_def(graph_def)
    resources = ResourceMgr()
    init = plan_lib.build(nodes, order, [], [], ["w/Assign"])
    Executor(init, resources).run([])
    plan = plan_lib.build(nodes, order, [], ["MatMul:0", "Softmax:0"], [])
    collector = StepStatsCollector(plan.device)
    values = Executor(plan, resources).run_traced([], collector)
    return plan, collector.dev_stats, values


def test_values_and_nodes_match_tensorflow():
    _, ours, values = traced_matmul_softmax()
    expected = np.load(FIXTURES / "graphs" / "matmul_softmax.values.npz")
    np.testing.assert_allclose(values[1], expected["Softmax__0"], rtol=1e-5)
    (theirs,) = tf_run_metadata().step_stats.dev_stats
    assert ours.device == theirs.device
    assert ({(s.node_name, s.timeline_label) for s in ours.node_stats}
            == {(s.node_name, s.timeline_label) for s in theirs.node_stats})
    assert ours.node_stats[0].node_name == theirs.node_stats[0].node_name == "_SOURCE"


def _fields(stats):
    """Which fields are set, with outputs' allocation fields, ignoring values."""
    present = {field.name for field, _ in stats.ListFields()}
    outputs = [sorted(f.name for f, _ in o.tensor_description.allocation_description.ListFields()
                      if f.name not in ("ptr", "allocation_id", "has_single_reference"))
               for o in stats.output]
    return present, outputs


def test_fields_per_node_match_tensorflow():
    _, ours, _ = traced_matmul_softmax()
    (theirs,) = tf_run_metadata().step_stats.dev_stats
    ours_by_name = {s.node_name: s for s in ours.node_stats}
    required = {"node_name", "all_start_micros", "all_start_nanos", "timeline_label",
                "scheduled_micros", "scheduled_nanos"}
    for stats in theirs.node_stats:
        mine = ours_by_name[stats.node_name]
        present, outputs = _fields(mine)
        their_present, their_outputs = _fields(stats)
        assert required <= present, stats.node_name
        assert ("output" in present) == ("output" in their_present), stats.node_name
        assert ("memory_stats" in present) == ("memory_stats" in their_present), stats.node_name
        assert outputs == their_outputs, stats.node_name
        for mine_out, their_out in zip(mine.output, stats.output):
            assert mine_out.slot == their_out.slot
            assert mine_out.tensor_description.dtype == their_out.tensor_description.dtype
            assert mine_out.tensor_description.shape == their_out.tensor_description.shape


def test_times_are_consistent():
    _, ours, _ = traced_matmul_softmax()
    starts = [s.all_start_nanos for s in ours.node_stats]
    assert starts == sorted(starts)
    for s in ours.node_stats:
        assert s.all_start_micros == s.all_start_nanos // 1000
        assert s.op_start_rel_micros == s.op_start_rel_nanos // 1000
        assert 0 <= s.op_start_rel_nanos <= s.op_end_rel_nanos <= s.all_end_rel_nanos
        assert s.scheduled_nanos <= s.all_start_nanos
        assert s.thread_id > 0


def test_partition_graph_matches_tensorflows_nodes():
    plan, _, _ = traced_matmul_softmax()
    ours = plan.partition_graph()
    (theirs,) = tf_run_metadata().partition_graphs
    assert ({(n.name, n.op, tuple(n.input), n.device) for n in ours.node}
            == {(n.name, n.op, tuple(n.input), n.device) for n in theirs.node})
