"""views/stats_diff on one conv-net training step traced on TensorFlow 2.21 and on the engine
(tests/fixtures/runs/convnet_step.*.pb, tools/make_stats_diff_fixtures.py). Expectations are
summed from the protos by the test's own loops, never by the module."""

from collections import defaultdict
from pathlib import Path

import pytest

from engine.proto import config_pb2
from views import stats_diff

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def step_stats(name):
    metadata = config_pb2.RunMetadata.FromString((RUNS / name).read_bytes())
    return metadata.step_stats


def by_hand(stats):
    """name -> (op, µs, count), and op -> µs, summed over every NodeExecStats."""
    nodes, ops = {}, defaultdict(float)
    for device in stats.dev_stats:
        for node in device.node_stats:
            op = node.timeline_label.split(" = ", 1)[1].split("(", 1)[0]
            us = (node.op_end_rel_nanos - node.op_start_rel_nanos) / 1000
            old = nodes.get(node.node_name, (op, 0.0, 0))
            nodes[node.node_name] = (op, old[1] + us, old[2] + 1)
            ops[op] += us
    return nodes, ops


@pytest.fixture(scope="module")
def sides():
    tf, engine = step_stats("convnet_step.tf.pb"), step_stats("convnet_step.engine.pb")
    return tf, engine, stats_diff.compare([tf], [engine])


def test_op_types_hold_every_node_of_both_runs(sides):
    tf, engine, found = sides
    (_, tf_ops), (_, engine_ops) = by_hand(tf), by_hand(engine)
    assert {row.key for row in found.ops} == set(tf_ops) | set(engine_ops)
    for row in found.ops:
        assert row.a_us == pytest.approx(tf_ops.get(row.key, 0.0))
        assert row.b_us == pytest.approx(engine_ops.get(row.key, 0.0))
    assert found.total_a_us == pytest.approx(sum(tf_ops.values()))
    assert found.total_b_us == pytest.approx(sum(engine_ops.values()))
    assert {"Conv2D", "Conv2DBackpropFilter", "MaxPoolGrad", "MatMul"} <= set(tf_ops)


def test_nodes_match_by_name_and_the_rest_are_listed(sides):
    tf, engine, found = sides
    (tf_nodes, _), (engine_nodes, _) = by_hand(tf), by_hand(engine)
    assert {row.key for row in found.nodes} == set(tf_nodes) & set(engine_nodes)
    assert set(found.only_a) == set(tf_nodes) - set(engine_nodes)
    assert set(found.only_b) == set(engine_nodes) - set(tf_nodes)
    conv = next(row for row in found.nodes if row.key == "conv0/Conv2D")
    assert (conv.op, conv.a_us, conv.b_us) == ("Conv2D", tf_nodes["conv0/Conv2D"][1],
                                                engine_nodes["conv0/Conv2D"][1])
    assert conv.ratio == pytest.approx(conv.b_us / conv.a_us)


def test_rows_come_costliest_first(sides):
    _, _, found = sides
    for rows in (found.ops, found.nodes):
        costs = [max(row.a_us, row.b_us) for row in rows]
        assert costs == sorted(costs, reverse=True)


def test_several_runs_count_as_their_mean(sides):
    tf, _, _ = sides
    once = stats_diff.compare([tf], [tf])
    twice = stats_diff.compare([tf, tf], [tf])
    assert [(r.key, r.a_us, r.a_count) for r in twice.ops] == [(r.key, r.a_us, r.a_count)
                                                               for r in once.ops]
    assert twice.runs_a == 2 and all(row.ratio == pytest.approx(1.0) for row in once.nodes
                                     if row.a_us)


def test_json_rounds_and_names_both_sides(sides):
    _, _, found = sides
    document = found.to_json()
    assert document["runs"] == [1, 1]
    assert [row["name"] for row in document["ops"]] == [row.key for row in found.ops]
    assert set(document["ops"][0]) == {"name", "op", "a_us", "b_us", "ratio", "a_count", "b_count"}
