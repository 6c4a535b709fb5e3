"""`graph-inspector optimize`: the optimized GraphDef written, the per-pass report printed."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.proto.rewriter_config_pb2 import RewriterConfig
from inspector.cli import main


# these tests are about the optimizer
pytestmark = pytest.mark.usefixtures("optimizer_on")


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FOLDING = FIXTURES / "optimizer" / "folding.pb"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def fetch(graph_def, fetches, feeds):
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    with tf.Session(graph=graph, config=tf.ConfigProto(graph_options=tf.GraphOptions(
            rewrite_options=RewriterConfig(disable_meta_optimizer=True)))) as sess:
        return sess.run(fetches, feeds)


def test_writes_the_optimized_graph_and_reports_each_pass(capsys, tmp_path):
    out = tmp_path / "folded.pb"
    status, stdout, err = run(capsys, "optimize", FOLDING, "-o", out)
    assert status == 0, err
    # the constants folding left unread go in constant folding itself, as Grappler's FoldGraph
    # drops what nothing reads (TensorFlow 2.21's meta optimizer log: constant_folding -8
    # nodes, dependency_optimizer 0)
    assert "constant_folding: 9 removed, 5 folded" in stdout
    assert "dependency_optimization: no change" in stdout
    original = tf.GraphDef.FromString(FOLDING.read_bytes())
    optimized = tf.GraphDef.FromString(out.read_bytes())
    ops = {n.name: n.op for n in optimized.node}
    assert ops["c"] == ops["q"] == ops["r"] == "Const" and ops["y"] == "AddV2"
    assert len(optimized.node) < len(original.node)
    feeds = {"x:0": np.array([1, 2, 3, 4], np.float32)}
    fetches = ["y:0", "q:0", "r:0"]
    for got, want in zip(fetch(optimized, fetches, feeds), fetch(original, fetches, feeds)):
        np.testing.assert_array_equal(got, want)


def test_json_report_and_chosen_passes(capsys, tmp_path):
    status, stdout, _ = run(capsys, "optimize", FOLDING, "--passes",
                            "constant_folding,dependency_optimization", "--json")
    assert status == 0
    report = json.loads(stdout)
    names = [s["name"] for s in report["stages"]]
    assert names[:2] == ["constant_folding", "dependency_optimization"]
    assert set(names) == {"constant_folding", "dependency_optimization"}
    first = report["stages"][0]
    assert first["folded"] == 5 and first["nodes_before"] == report["nodes_before"] == 14
    assert any(line.startswith("c (Mul) -> Const") for line in first["changes"])


def test_text_output_for_pbtxt(capsys, tmp_path):
    out = tmp_path / "folded.pbtxt"
    status, _, _ = run(capsys, "optimize", FOLDING, "-o", out, "--fetch", "y")
    assert status == 0
    from google.protobuf import text_format
    graph_def = text_format.Parse(out.read_text(), tf.GraphDef())
    assert {n.name for n in graph_def.node} == {"x", "c", "y"}


@pytest.mark.parametrize("argv,message", [
    (["--passes", "folding"], "error: --passes: unknown pass 'folding'"),
    (["--fetch", "nope"], "--fetch 'nope': no such node"),
])
def test_bad_options_are_exit_2_and_one_line(capsys, argv, message):
    status, _, err = run(capsys, "optimize", FOLDING, *argv)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1


def test_output_equal_to_input_is_refused(capsys, tmp_path):
    copy = tmp_path / "g.pb"
    copy.write_bytes(FOLDING.read_bytes())
    status, _, err = run(capsys, "optimize", copy, "-o", copy)
    assert status == 2 and err.startswith(f"error: {copy}: ")
    assert copy.read_bytes() == FOLDING.read_bytes()


def test_not_a_graph_is_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\xff\xfe not a graph")
    status, _, err = run(capsys, "optimize", bad, "-o", tmp_path / "out.pb")
    assert status == 2 and err.startswith(f"error: {bad}: ")
    assert not (tmp_path / "out.pb").exists()


def test_more_counts_hidden_lines_not_nodes(capsys, tmp_path):
    """One remapping line stands for a chain of many nodes: '... N more' counts lines."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [8], name="x")
        for k in range(7):  # seven chains of four ops each (Mul, Abs, AddV2, Sqrt)
            tf.sqrt(tf.abs(x * float(k + 2)) + 1.0, name=f"out{k}")
    path = tmp_path / "chains.pb"
    path.write_bytes(graph.as_graph_def().SerializeToString())
    status, stdout, _ = run(capsys, "optimize", path, "--passes", "remapping")
    assert status == 0
    assert "remapping: 28 fused" in stdout and "      ... 2 more" in stdout  # 4 ops each
