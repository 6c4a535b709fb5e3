"""`optimize` over a TF2 SavedModel's functions (tests/fixtures/tf2/, TensorFlow 2.21): each
function the graph's calls reach is optimized as a graph and written back into the library.
(TensorFlow 2.21 runs the written graphs of while_cond, train_step, text_model, keras_cnn and
transformer to the outputs of reference/*/expected.npz: tools/check_optimized_tf2.py.)"""

import json
from pathlib import Path

import pytest

from engine import optimizer
from engine.framework.function_graph import called_functions, function_body_graph
from engine.proto import graph_pb2
from inspector.cli import main
import parsers

pytestmark = pytest.mark.usefixtures("optimizer_on")

TF2 = Path(__file__).resolve().parents[1] / "fixtures" / "tf2"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_every_reached_function_is_optimized_and_reported(capsys):
    status, out, err = run(capsys, "optimize", TF2 / "while_cond", "--json")
    assert (status, err) == (0, "")
    report = json.loads(out)
    reached = [f.name for f in parsers.load(TF2 / "while_cond").functions.reached_from("serve")]
    assert [f["name"] for f in report["functions"]] == reached
    body = {f["name"]: f for f in report["functions"]}["while_body_13"]
    assert body["nodes_before"] == 35 and body["nodes_after"] < 35
    assert all("kept_as_written" not in f for f in report["functions"])


def test_by_default_the_calls_are_inlined_and_the_written_library_holds_what_is_still_called(
        capsys, tmp_path):
    """As Grappler's function optimizer: every call inlined, so the written graph needs no
    function of the library."""
    out = tmp_path / "optimized.pb"
    status, text, _ = run(capsys, "optimize", TF2 / "transformer", "-o", out)
    assert status == 0 and "function_optimization: " in text and " inlined\n" in text
    written = graph_pb2.GraphDef.FromString(out.read_bytes())
    called = {name for node in written.node for name in called_functions(node, {
        f.signature.name for f in written.library.function})}
    assert not any(node.op in ("StatefulPartitionedCall", "PartitionedCall")
                   for node in written.node)
    assert called <= {f.signature.name for f in written.library.function}


def test_the_written_library_holds_the_optimized_bodies(capsys, tmp_path):
    """Without inlining, each function the graph's calls reach is optimized in place."""
    out = tmp_path / "optimized.pb"
    passes = ",".join(p for p in optimizer.PASS_NAMES if p != "function_optimization")
    status, text, _ = run(capsys, "optimize", TF2 / "transformer", "-o", out,
                          "--passes", passes)
    assert status == 0
    assert "  functions: 5 the graph's calls reach, optimized each; 5 changed\n" in text
    written = graph_pb2.GraphDef.FromString(out.read_bytes())
    original = parsers.load(TF2 / "transformer").graphs[0].graph_def
    assert [f.signature for f in written.library.function] == [
        f.signature for f in original.library.function]
    library = {f.signature.name: f for f in written.library.function}
    report = json.loads(run(capsys, "optimize", TF2 / "transformer", "--json",
                            "--passes", passes)[1])
    for found in report["functions"]:
        body = function_body_graph(library[found["name"]], library)
        assert len(body.node) == found["nodes_after"], found["name"]
    assert sum(len(f.node_def) for f in written.library.function) < sum(
        len(f.node_def) for f in original.library.function)


def test_one_function_alone(capsys):
    status, out, _ = run(capsys, "optimize", TF2 / "while_cond", "--graph", "while_body_13")
    assert status == 0
    assert out.startswith(f"{TF2 / 'while_cond'}: function while_body_13: 35 nodes -> ")
    assert "functions:" not in out
