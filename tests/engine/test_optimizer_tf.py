"""The optimizer against TensorFlow's Grappler on small graphs (tests/fixtures/optimizer).

tools/make_optimizer_fixtures.py ran each graph in TensorFlow 2.21 and kept the partition
graph Grappler left. The engine, running the same GraphDef with its optimizer on, must fetch
the same values and fold what TensorFlow folded into Consts of the names TensorFlow gives
them, and keep the stateful ops TensorFlow kept.
"""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.optimizer import rules


# these tests are about the optimizer
pytestmark = pytest.mark.usefixtures("optimizer_on")


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "optimizer"
CASES = sorted(p.stem for p in FIXTURES.glob("*.json"))


def _run(case):
    manifest = json.loads((FIXTURES / f"{case}.json").read_text())
    graph_def = tf.GraphDef.FromString((FIXTURES / f"{case}.pb").read_bytes())
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    with tf.Session(graph=graph) as sess:
        sess.run(manifest["init"])
        metadata = tf.RunMetadata()
        values = sess.run(manifest["fetches"], manifest["feeds"],
                          options=tf.RunOptions(output_partition_graphs=True),
                          run_metadata=metadata)
    nodes = {n.name: n for g in metadata.partition_graphs for n in g.node}
    return manifest, graph_def, values, nodes


@pytest.mark.parametrize("case", CASES)
def test_optimized_run_fetches_tensorflows_values(case):
    manifest, _, values, _ = _run(case)
    for got, want, dtype in zip(values, manifest["values"], manifest["dtypes"]):
        want = np.asarray(want, dtype=dtype)
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6)


def _constant_subgraph(graph_def):
    """Names of the nodes computed from constants alone (what plain constant folding folds;
    constants combined across a fed tensor are named by Grappler's iteration order)."""
    by_name = {n.name: n for n in graph_def.node}
    constant = {}

    def visit(name):
        if name not in constant:
            node = by_name[name]
            inputs = [i.lstrip("^").split(":")[0] for i in node.input]
            constant[name] = node.op == "Const" or (
                bool(inputs) and rules.is_pure(node) and all(visit(i) for i in inputs))
        return constant[name]
    return {name for name in by_name if visit(name)}


def test_nodes_tensorflow_folded_are_consts_of_the_same_name():
    manifest, graph_def, _, nodes = _run("folding")
    original = {n.name: n.op for n in graph_def.node}
    constant = _constant_subgraph(graph_def)
    tf_folded = [n["name"] for n in manifest["partition_graph"] if n["op"] == "Const"
                 and original.get(n["name"], "Const") != "Const" and n["name"] in constant]
    assert tf_folded, "the fixture folds something"
    for name in tf_folded:
        assert name in nodes, f"{name}: TensorFlow folded it into a Const; the engine lost it"
        assert nodes[name].op == "Const", f"{name}: TensorFlow folded it, the engine ran " \
                                          f"{nodes[name].op}"


@pytest.mark.parametrize("case", CASES)
def test_stateful_ops_tensorflow_kept_are_kept(case):
    manifest, _, _, nodes = _run(case)
    kept = {n["op"] for n in manifest["partition_graph"]
            if rules.is_random(n["op"]) or n["op"] in ("VarHandleOp", "ReadVariableOp")}
    assert kept <= {n.op for n in nodes.values()}


def test_the_engine_runs_no_more_kernels_than_tensorflow_on_a_chain_of_adds():
    manifest, _, _, nodes = _run("chain")
    ours = sorted(n.op for n in nodes.values() if n.op not in ("Const", "_Arg", "_Retval"))
    theirs = sorted(n["op"] for n in manifest["partition_graph"]
                    if n["op"] not in ("Const", "_Arg", "_Retval"))
    assert ours == theirs == ["AddV2", "Mul"]


def test_outputs_of_a_folded_multi_output_node_are_named_as_tensorflow_names_them():
    manifest, _, values, nodes = _run("multi_output")
    theirs = {n["name"] for n in manifest["partition_graph"]
              if n["name"].startswith("ConstantFolding/")}
    assert theirs == {"ConstantFolding/split-folded-0", "ConstantFolding/split-folded-1"}
    for name in theirs:
        assert nodes[name].op == "Const"
    assert "split" not in nodes
