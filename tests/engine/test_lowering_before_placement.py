"""A TF1 graph built with control flow v2: its own If and While are lowered before placement,
as TensorFlow's LowerFunctionalOpsPass does, then Grappler's passes run; the run's partition
graph is TensorFlow 2.21's node for node (tests/fixtures/lowering/, made by
tools/make_lowering_fixtures.py), but for the loop's one Enter TensorFlow's partition-time CSE
merges (see tests/engine/test_tf2_signatures.py)."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.proto import config_pb2, graph_pb2

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "lowering"
MERGED_BY_TENSORFLOW = {"cond_and_while": {"loop/enter/_10": "loop/enter/_12"}}


def table(graph_defs, merged):
    result = {}
    for graph_def in graph_defs:
        for node in graph_def.node:
            if node.name in merged:
                continue
            data = [merged.get(i, i) for i in node.input if not i.startswith("^")]
            result[node.name] = (node.op, data, sorted(i for i in node.input if i.startswith("^")))
    return result


@pytest.mark.parametrize("name", ["cond_and_while"])
def test_the_run_is_tensorflows_node_for_node(name):
    case = json.loads((FIXTURES / f"{name}.json").read_text())
    theirs = config_pb2.RunMetadata.FromString((FIXTURES / f"{name}.run_metadata.pb").read_bytes())
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_pb2.GraphDef.FromString((FIXTURES / f"{name}.pb").read_bytes()),
                            name="")
    with tf.Session(graph=graph) as sess:
        metadata = tf.RunMetadata()
        values = sess.run(list(case["fetches"]),
                          {k: np.array(v, np.float32) for k, v in case["feeds"].items()},
                          options=tf.RunOptions(output_partition_graphs=True),
                          run_metadata=metadata)
    for value, want in zip(values, case["fetches"].values()):
        np.testing.assert_allclose(value, want)
    ours = table(metadata.partition_graphs, MERGED_BY_TENSORFLOW[name])
    assert ours == table(theirs.partition_graphs, {})
