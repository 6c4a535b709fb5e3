"""parsers/functions.py: every FunctionDef of a TF2 SavedModel as a graph, and the calls between
graphs, against what TensorFlow 2.21 says of the same SavedModels
(tests/fixtures/tf2/reference/<model>/functions.json, tools/make_tf2_fixtures.py)."""

import json

import pytest

import parsers
from engine.proto import graph_pb2
from parsers.functions import FunctionLibrary, function_label
from parsers.loaded import LabeledGraph
from parsers_testing import FIXTURES

TF2 = FIXTURES / "tf2"
MODELS = sorted(p.name for p in (TF2 / "reference").iterdir() if (p / "functions.json").is_file())
DTYPES = {"DT_FLOAT": "float32", "DT_INT32": "int32", "DT_INT64": "int64", "DT_STRING": "string",
          "DT_RESOURCE": "resource", "DT_VARIANT": "variant", "DT_BOOL": "bool"}


def reference(model):
    [meta] = json.loads((TF2 / "reference" / model / "functions.json").read_text())["meta_graphs"]
    return meta


def closure(start, calls):
    """Every name `start`'s calls reach, through `calls` (name -> callee names)."""
    found, todo = set(), list(start)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += calls[name]
    return found


@pytest.mark.parametrize("model", MODELS)
def test_each_function_is_a_graph_named_as_tensorflow_names_it(model):
    loaded = parsers.load(TF2 / model)
    library = loaded.functions
    expected = {record["name"]: record for record in reference(model)["functions"]}
    assert sorted(f.name for f in library) == sorted(expected)
    assert [f.label for f in library] == [function_label(f.name) for f in library]
    for function in library:
        record = expected[function.name]
        assert function.owner == "serve"
        assert function.node_count == len(record["nodes"])
        assert [(a.name, a.dtype) for a in function.inputs] == [
            (name, DTYPES[dtype]) for name, dtype in record["input_arg"]]
        assert [(a.name, a.dtype) for a in function.outputs] == [
            (name, DTYPES[dtype]) for name, dtype in record["output_arg"]]
        graph = library.graph_def(function.label)
        args = [name for name, _ in record["input_arg"]]
        rets = [f"{name}_RetVal" for name, _ in record["output_arg"]]
        assert [n.name for n in graph.node] == args + [n for n, _ in record["nodes"]] + rets
        assert [n.op for n in graph.node[len(args):len(graph.node) - len(rets)]] == [
            op for _, op in record["nodes"]]
        assert function.calls == record["calls"], function.name
        assert function.node_rows() == [(n.name, n.op, n.device) for n in graph.node]


@pytest.mark.parametrize("model", MODELS)
def test_calls_reach_what_tensorflows_calls_reach_and_callers_are_their_inverse(model):
    library = parsers.load(TF2 / model).functions
    meta = reference(model)
    calls = {record["name"]: record["calls"] for record in meta["functions"]}
    reached = closure(meta["graph_calls"], calls)
    tree = library.call_tree("serve")
    assert {f.name for f in library.reached_from("serve")} == reached
    assert [f.name for _, _, f in tree] == [f.name for f in library.reached_from("serve")]
    assert [s.callee for depth, s, _ in tree if depth == 1] == meta["graph_calls"]
    assert {f.name for f in library.uncalled()} == set(calls) - reached
    for function in library:
        expected = {"serve"} if function.name in meta["graph_calls"] else set()
        expected |= {function_label(caller) for caller, callees in calls.items()
                     if function.name in callees}
        sites = library.callers(function.label)
        assert {s.graph for s in sites} == expected, function.name
        assert all(s.callee == function.name for s in sites)
        for site in sites:
            graph = library.graph_def(site.graph)
            node = next(n for n in graph.node if n.name == site.node)
            assert node.op == site.op


def test_the_while_loop_body_is_reached_through_the_loop_node():
    library = parsers.load(TF2 / "while_cond").functions
    rows = [(depth, site.node, site.attr, function.name)
            for depth, site, function in library.call_tree("serve")]
    assert rows[:6] == [
        (1, "PartitionedCall", "f", "__inference_signature_wrapper_serve_86"),
        (2, "PartitionedCall", "f", "__inference_serve_78"),
        (3, "while", "body", "while_body_13"),
        (4, "while/cond", "else_branch", "while_cond_false_42"),
        (4, "while/cond", "then_branch", "while_cond_true_41"),
        (3, "while", "cond", "while_cond_12")]
    [site] = library.callers("while_body_13")
    assert (site.graph, site.node, site.op) == ("function __inference_serve_78", "while",
                                                "StatelessWhile")


def _graph_with(name, op):
    graph = graph_pb2.GraphDef()
    graph.node.add(name="call", op="PartitionedCall").attr["f"].func.name = name
    function = graph.library.function.add()
    function.signature.name = name
    function.node_def.add(name="inner", op=op)
    return graph


def test_the_same_name_with_another_body_in_another_graph_is_a_function_of_its_own():
    first, second, third = _graph_with("f", "NoOp"), _graph_with("f", "Const"), _graph_with("f", "NoOp")
    library = FunctionLibrary([LabeledGraph("a", first, "a.pb"), LabeledGraph("b", second, "b.pb"),
                               LabeledGraph("c", third, "c.pb")])
    assert [f.label for f in library] == ["function f", "function f (in b)"]
    assert [f.label for f in library.reached_from("b")] == ["function f (in b)"]
    assert [f.label for f in library.reached_from("c")] == ["function f"]  # the same body
    assert [s.graph for s in library.callers("function f")] == ["a", "c"]
    assert library.graph_def("function f (in b)").node[0].op == "Const"


def test_a_function_calling_itself_is_reached_once():
    graph = _graph_with("f", "f")
    library = FunctionLibrary([LabeledGraph("g", graph, "g.pb")])
    assert [(depth, f.name) for depth, _, f in library.call_tree("g")] == [(1, "f")]
    assert [s.graph for s in library.callers("f")] == ["g", "function f"]


def test_a_body_that_does_not_instantiate_comes_as_written_with_its_error(tmp_path, run_info):
    graph = _graph_with("f", "Identity")
    function = graph.library.function[0]
    function.node_def[0].input.append("nowhere:output:0")
    function.signature.output_arg.add(name="y", type=1)
    function.ret["y"] = "inner:output:0"
    library = FunctionLibrary([LabeledGraph("g", graph, "g.pb")])
    body = library.get("f")
    assert [(n.name, n.op, list(n.input)) for n in body.graph_def.node] == [
        ("inner", "Identity", ["nowhere:output:0"]), ("y_RetVal", "_Retval", ["inner:output:0"])]
    assert body.error == "function f, node inner: input nowhere:output:0 is not found"
    assert body.node_rows() == [("inner", "Identity", ""), ("y_RetVal", "_Retval", "")]
    path = tmp_path / "broken.pb"
    path.write_bytes(graph.SerializeToString())
    code, out, err = run_info(path, "--json")
    assert (code, err) == (0, "")


def test_graphs_sharing_a_label_keep_both_libraries():
    first, second = _graph_with("f", "NoOp"), _graph_with("f", "Const")
    library = FunctionLibrary([LabeledGraph("g", first, "a.pb"), LabeledGraph("g", second, "b.pb")])
    assert [(f.label, f.owner) for f in library] == [("function f", "g"), ("function f (in g #1)", "g #1")]
    assert library.graph_labels == ["g", "g #1"]
