"""`diff A B` over function bodies: two loop models TensorFlow 2.21 wrote (tests/fixtures/tf2/
while_cond and while_cond_changed, whose loop body scales the total each step; every function
above the loop got another number) differ inside the loop body, not in renamed `f` attrs."""

import json
from pathlib import Path

from engine.proto import graph_pb2, saved_model_pb2
from inspector import cli
from parsers.functions import FunctionLibrary
from parsers.loaded import LabeledGraph
from views.function_diff import diff_libraries, pair_functions

TF2 = Path(__file__).resolve().parents[1] / "fixtures" / "tf2"
BEFORE, AFTER = TF2 / "while_cond", TF2 / "while_cond_changed"


def run(capsys, *argv):
    status = cli.main(["diff", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def library(model):
    saved = saved_model_pb2.SavedModel.FromString((TF2 / model / "saved_model.pb").read_bytes())
    return {f.signature.name: f for f in saved.meta_graphs[0].graph_def.library.function}


def test_a_changed_loop_body_shows_as_its_nodes(capsys):
    before, after = library("while_cond"), library("while_cond_changed")
    new_nodes = [n.name for n in after["while_body_13"].node_def
                 if n.name not in {m.name for m in before["while_body_13"].node_def}]
    assert new_nodes == ["while/mul/y", "while/mul"]
    status, out, err = run(capsys, BEFORE, AFTER)
    assert (status, err) == (0, "")
    assert out == (
        "while_cond (serve) -> while_cond_changed (serve): 0 added, 0 removed, 0 changed,"
        " 7 unchanged; functions: 1 changed, 7 unchanged, 0 added, 0 removed\n"
        "function while_body_13: 2 added, 0 removed, 1 changed, 34 unchanged\n"
        "+ while/mul/y (Const)\n"
        "+ while/mul (Mul)\n"
        "~ while/add_1 (AddV2)\n"
        "    input 0: while_placeholder_1 -> while/mul\n")


def test_json_pairs_the_renumbered_functions(capsys):
    _, out, _ = run(capsys, BEFORE, AFTER, "--json")
    result = json.loads(out)
    assert result["counts"] == {"added": 0, "removed": 0, "changed": 0, "unchanged": 7}
    functions = result["functions"]
    [changed] = functions["changed"]
    assert (changed["before"], changed["after"], changed["added"]) == (
        "while_body_13", "while_body_13", ["while/mul/y", "while/mul"])
    pairs = {pair["before"]: pair["after"] for pair in functions["unchanged"]}
    assert pairs["__inference_serve_78"] == "__inference_serve_80"
    assert pairs["__inference_signature_wrapper_serve_86"] == "__inference_signature_wrapper_serve_88"
    assert functions["added"] == functions["removed"] == []


def test_a_model_against_itself_has_no_difference(capsys):
    _, out, _ = run(capsys, BEFORE, BEFORE, "--json")
    functions = json.loads(out)["functions"]
    assert functions["changed"] == [] and len(functions["unchanged"]) == 8


def test_function_bodies_are_addressed_by_name(capsys):
    status, out, _ = run(capsys, f"{BEFORE}#while_body_13", f"{AFTER}#while_body_13")
    assert status == 0
    assert out.splitlines()[0].endswith(": 2 added, 0 removed, 1 changed, 34 unchanged")


def _graph(calls, functions):
    """A GraphDef whose nodes call (node name, attr, function) and whose library holds
    `functions` (name -> op of its one node)."""
    graph = graph_pb2.GraphDef()
    for node_name, attr, function in calls:
        graph.node.add(name=node_name, op="PartitionedCall").attr[attr].func.name = function
    for name, op in functions.items():
        function = graph.library.function.add()
        function.signature.name = name
        function.node_def.add(name="n", op=op)
    return graph


def test_functions_pair_by_call_site_then_name_then_name_without_its_number():
    before = _graph([("call", "f", "a_1")], {"a_1": "Neg", "same": "NoOp", "loop_3": "Abs", "x": "Exp"})
    after = _graph([("call", "f", "b_7")], {"b_7": "Neg", "same": "NoOp", "loop_9": "Sign", "y": "Exp"})
    old = FunctionLibrary([LabeledGraph("before", before, "")])
    new = FunctionLibrary([LabeledGraph("after", after, "")])
    assert pair_functions(old, new) == {"a_1": "b_7", "same": "same", "loop_3": "loop_9"}
    found = diff_libraries(before, after)
    assert [(c.before, c.after) for c in found.changed] == [("loop_3", "loop_9")]
    assert (found.added, found.removed) == (("y",), ("x",))
