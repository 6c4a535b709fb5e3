"""engine.optimizer: the pass contract, RewriterConfig control, and values unchanged.

Every GraphDef TensorFlow wrote (tests/fixtures/graphs) runs with the optimizer on and off
and fetches the same values; the rules TensorFlow keeps (no folding through fed or stateful
nodes, kept names, errors where the user's node is) hold.
"""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine import optimizer
from engine.proto import rewriter_config_pb2


# these tests are about the optimizer
pytestmark = pytest.mark.usefixtures("optimizer_on")


RewriterConfig = rewriter_config_pb2.RewriterConfig
GRAPHS = Path(__file__).resolve().parents[1] / "fixtures" / "graphs"
MANIFESTS = sorted(p for p in GRAPHS.glob("*.json") if not p.name.endswith(".tf.json"))


def config(**fields):
    """A ConfigProto whose rewrite_options set `fields` (e.g. constant_folding=OFF)."""
    return tf.ConfigProto(graph_options=tf.GraphOptions(
        rewrite_options=RewriterConfig(**fields)))


OFF = config(disable_meta_optimizer=True)


def chain_graph(adds=10):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        y = x
        for i in range(adds):
            y = tf.add(y, float(i + 1), name=f"add{i}")
        a = tf.constant(2.0, name="a")
        z = tf.multiply(a, tf.constant(3.0, name="b"), name="z")
    return graph, x, y, z


def partition_ops(sess, fetches, feeds):
    metadata = tf.RunMetadata()
    value = sess.run(fetches, feeds, options=tf.RunOptions(output_partition_graphs=True),
                     run_metadata=metadata)
    return value, [(n.name, n.op) for g in metadata.partition_graphs for n in g.node]


# The contract -------------------------------------------------------------------------------

def test_optimize_returns_one_stage_per_pass_in_table_order():
    graph, *_ = chain_graph()
    graph_def = graph.as_graph_def()
    before = graph_def.SerializeToString()
    result = optimizer.optimize(graph_def, fetches=["add9", "z:0"], feeds=["x"])
    assert graph_def.SerializeToString() == before  # the input is not changed
    names = [stage.name for stage in result.stages if stage.iteration == 0]
    assert names == [n for n in optimizer.PASS_NAMES if n != "remapping"
                     or optimizer.enabled_passes(None, ["remapping"])]
    assert result.graph_def is result.stages[-1].graph_def
    name, stage_graph, report = result.stages[0]
    assert name == "pruning" and report.nodes_before == len(graph_def.node)
    folded = {s.name: s.report for s in result.stages if s.iteration == 0}
    # z = a * b, and the chain's nine constants pushed down and combined, one fold each, as
    # TensorFlow's constant folding does (ConstantPushDown); nothing is left for arithmetic
    assert folded["constant_folding"].folded == 10
    assert folded["arithmetic_optimization"].folded == 0
    ops = sorted(n.op for n in result.graph_def.node)
    assert ops == ["AddV2", "Const", "Const", "Placeholder"]


def test_a_field_set_off_leaves_its_pass_out():
    graph, *_ = chain_graph()
    options = RewriterConfig(constant_folding=RewriterConfig.OFF, disable_model_pruning=True)
    result = optimizer.optimize(graph.as_graph_def(), fetches=["add9", "z"],
                                rewrite_options=options)
    names = {stage.name for stage in result.stages}
    assert "constant_folding" not in names and "pruning" not in names
    assert "arithmetic_optimization" in names
    assert any(n.name == "z" and n.op == "Mul" for n in result.graph_def.node)


def test_tensorflows_short_names_choose_the_passes():
    graph, *_ = chain_graph()
    result = optimizer.optimize(graph.as_graph_def(), fetches=["add9", "z"],
                                rewrite_options=RewriterConfig(optimizers=["constfold"]))
    assert {stage.name for stage in result.stages} == {"constant_folding"}


def test_graphs_smaller_than_min_graph_nodes_are_left_alone():
    graph, *_ = chain_graph(adds=1)
    small = optimizer.optimize(graph.as_graph_def(), fetches=["add0", "z"],
                               rewrite_options=RewriterConfig(min_graph_nodes=100))
    assert small.stages == [] and len(small.graph_def.node) == len(graph.as_graph_def().node)


def test_the_environment_switch_turns_every_pass_off(monkeypatch):
    monkeypatch.setenv("GRAPH_INSPECTOR_REWRITE", "off")
    graph, x, y, _ = chain_graph()
    assert optimizer.optimize(graph.as_graph_def(), fetches=["add9"]).stages == []
    with tf.Session(graph=graph) as sess:
        _, ops = partition_ops(sess, y, {x: [1, 2, 3]})
    assert sum(op == "AddV2" for _, op in ops) == 10


def test_unknown_pass_names_are_refused():
    with pytest.raises(ValueError, match="unknown pass 'folding'"):
        optimizer.optimize(tf.GraphDef(), passes=["folding"])


# In the session ------------------------------------------------------------------------------

def test_partition_graphs_are_the_optimized_graph_and_off_means_off():
    graph, x, y, z = chain_graph()
    feed = {x: np.array([1, 2, 3], np.float32)}
    with tf.Session(graph=graph) as sess:
        (on_y, on_z), on_ops = partition_ops(sess, [y, z], feed)
    with tf.Session(graph=graph, config=OFF) as sess:
        (off_y, off_z), off_ops = partition_ops(sess, [y, z], feed)
    np.testing.assert_allclose(on_y, off_y)
    assert on_z == off_z == 6.0
    assert sum(op == "AddV2" for _, op in on_ops) == 1
    assert sum(op == "AddV2" for _, op in off_ops) == 10
    assert ("z", "Const") in on_ops and ("z", "Mul") in off_ops


def test_a_fed_constant_is_not_folded():
    graph = tf.Graph()
    with graph.as_default():
        c = tf.constant(1, name="c")
        y = tf.add(tf.add(c, 1, name="y0"), 2, name="y")
        w = tf.multiply(y, 1, name="w")
    with tf.Session(graph=graph) as sess:
        assert sess.run(w) == 4
        assert sess.run(w, {c: 5}) == 8
        assert sess.run(w, {y: 10}) == 10


def test_stateful_nodes_are_not_folded_and_run_each_time():
    graph = tf.Graph()
    with graph.as_default():
        v = tf.Variable(1.0, name="v")
        bump = tf.assign_add(v, 1.0)
        u = tf.add(tf.random_uniform([], seed=3, name="u"), 0.0, name="u0")
        init = tf.global_variables_initializer()
    with tf.Session(graph=graph) as sess:
        sess.run(init)
        assert [sess.run(bump) for _ in range(3)] == [2.0, 3.0, 4.0]
        assert sess.run(u) != sess.run(u)


def test_a_kernel_error_is_reported_at_the_users_node():
    graph = tf.Graph()
    with graph.as_default():
        r = tf.gather(tf.constant([1.0, 2.0, 3.0]), [5], name="bad_gather")
        y = tf.add(tf.add(r, 1.0), 1.0, name="y")
    with tf.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as caught:
            sess.run(y)
    assert caught.value.node_def.name == "bad_gather"


def test_a_switch_on_a_constant_predicate_loses_its_dead_branch():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        p = tf.cond(tf.constant(False), lambda: x * 2.0, lambda: tf.sin(x), name="cond")
        q = tf.add(p, 1.0, name="q")
    feed = {x: [0.5, 1.0]}
    with tf.Session(graph=graph) as sess:
        on, ops = partition_ops(sess, q, feed)
    with tf.Session(graph=graph, config=OFF) as sess:
        off = sess.run(q, feed)
    np.testing.assert_allclose(on, off)
    kinds = {op for _, op in ops}
    assert "Switch" not in kinds and "Merge" not in kinds and "Mul" not in kinds
    assert "Sin" in kinds


# Every TensorFlow-written graph, both ways ----------------------------------------------------

def _fetch_all(path, session_config):
    manifest = json.loads(path.read_text())
    graph_def = tf.GraphDef.FromString((GRAPHS / f"{path.stem}.pb").read_bytes())
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    feeds = {name: np.load(GRAPHS / value["npy"]) if isinstance(value, dict) else value
             for name, value in manifest["feeds"].items()}
    if manifest.get("config"):
        session_config.MergeFrom(tf.ConfigProto(**manifest["config"]))
    fetches = manifest["fetches"]
    with tf.Session(graph=graph, config=session_config) as sess:
        for op in manifest["before"]:
            sess.run(op)
        return [sess.run(fetches + manifest["targets"], feeds)[:len(fetches)]
                for _ in range(manifest.get("steps", 1))]


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.stem)
def test_every_fixture_graph_fetches_the_same_values_optimized(path):
    on = _fetch_all(path, tf.ConfigProto())
    off = _fetch_all(path, config(disable_meta_optimizer=True))
    for row_on, row_off in zip(on, off):
        for got, want in zip(row_on, row_off):
            got, want = np.asarray(got), np.asarray(want)
            assert got.dtype == want.dtype and got.shape == want.shape
            if want.dtype.kind in "fc":
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
            else:
                np.testing.assert_array_equal(got, want)


def test_a_failing_pass_is_skipped_unless_fail_on_optimizer_errors(monkeypatch):
    from engine.optimizer import constant_folding

    def broken(graph_def, context):
        raise RuntimeError("a bug")
    monkeypatch.setattr(constant_folding, "optimize", broken)
    monkeypatch.setattr(optimizer, "_FUNCTIONS", {})
    graph, x, y, z = chain_graph()
    result = optimizer.optimize(graph.as_graph_def(), fetches=["add9", "z"])
    failed = [s for s in result.stages if s.name == "constant_folding"]
    assert failed and failed[0].report.error == "RuntimeError: a bug"
    assert any(n.name == "z" and n.op == "Mul" for n in result.graph_def.node)
    with tf.Session(graph=graph) as sess:  # the run goes on without the pass
        assert sess.run(z) == 6.0
    with pytest.raises(RuntimeError, match="a bug"):
        optimizer.optimize(graph.as_graph_def(), fetches=["z"],
                           rewrite_options=RewriterConfig(fail_on_optimizer_errors=True))
