"""FunctionDefs as graphs (engine/framework/function_graph.py) against TensorFlow 2.21's own
conversion of the same bodies (tests/fixtures/tf2/reference/*/functions.json: TensorFlow's
function_def_to_graph_def, made by tools/make_tf2_fixtures.py)."""

import json
from pathlib import Path

import pytest

from engine.framework.function_graph import (FunctionGraphError, called_functions,
                                             function_body_graph)
from engine.proto import function_pb2, saved_model_pb2

TF2 = Path(__file__).resolve().parents[1] / "fixtures" / "tf2"
MODELS = sorted(p.name for p in (TF2 / "reference").iterdir()
                if (p / "functions.json").is_file() and (TF2 / p.name / "saved_model.pb").is_file())


def _library(model):
    saved_model = saved_model_pb2.SavedModel()
    saved_model.ParseFromString((TF2 / model / "saved_model.pb").read_bytes())
    return {f.signature.name: f for f in saved_model.meta_graphs[0].graph_def.library.function}


def _flat(name):
    """TensorFlow's Python converter writes `node:0`; its C++ instantiation writes `node`."""
    return name[:-2] if name.endswith(":0") and not name.startswith("^") else name


def _references(model):
    data = json.loads((TF2 / "reference" / model / "functions.json").read_text())
    return {f["name"]: f for f in data["meta_graphs"][0]["functions"]}


@pytest.mark.parametrize("model", MODELS)
def test_bodies_read_as_tensorflow_reads_them(model):
    library = _library(model)
    references = _references(model)
    assert sorted(library) == sorted(references)
    for name, function_def in library.items():
        graph = function_body_graph(function_def, library)
        reference = references[name]
        args = [n for n in graph.node if n.op == "_Arg"]
        rets = [n for n in graph.node if n.op == "_Retval"]
        body = [n for n in graph.node if n.op not in ("_Arg", "_Retval")]
        # TensorFlow's Python conversion makes each argument a Placeholder of the same name.
        expected_args = [(n, "_Arg") for n, op, _ in reference["body"] if op == "Placeholder"
                         and n in {a for a, _ in reference["input_arg"]}]
        assert [(n.name, n.op) for n in args] == expected_args
        assert [n.attr["index"].i for n in args] == list(range(len(args)))
        expected_body = [(n, op, [_flat(i) for i in inputs]) for n, op, inputs in reference["body"]
                         if (n, "_Arg") not in expected_args]
        assert [(n.name, n.op, list(n.input)) for n in body] == expected_body, name
        assert [(n.name, list(n.input)) for n in rets] == [
            (f"{ret}_RetVal", [_flat(reference["ret_flat"][ret])])
            for ret, _ in reference["output_arg"]]
        calls = sorted({c for node in function_def.node_def
                        for c in called_functions(node, library)})
        assert calls == sorted(reference["calls"]), name


def _function(text):
    from google.protobuf import text_format
    return text_format.Parse(text, function_pb2.FunctionDef())


def test_list_arguments_and_outputs_are_numbered_as_tensorflow_numbers_them():
    function_def = _function('''
        signature { name: "f" input_arg { name: "xs" type: DT_FLOAT number_attr: "N" }
                    output_arg { name: "parts" type: DT_FLOAT number_attr: "num_split" }
                    attr { name: "N" type: "int" } }
        node_def { name: "sum" op: "AddN" input: "xs" input: "xs:1"
                   attr { key: "N" value { i: 2 } } attr { key: "T" value { type: DT_FLOAT } } }
        node_def { name: "axis" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
                   attr { key: "value" value { tensor { dtype: DT_INT32 int_val: 0 } } } }
        node_def { name: "split" op: "Split" input: "axis:output:0" input: "sum:sum:0"
                   attr { key: "num_split" value { i: 2 } }
                   attr { key: "T" value { type: DT_FLOAT } } }
        ret { key: "parts" value: "split:output:0" }''')
    function_def.signature.output_arg[0].number_attr = "M"
    attrs = {"N": _int(2), "M": _int(2)}
    graph = function_body_graph(function_def, call_attrs=attrs)
    assert [(n.name, n.op, list(n.input)) for n in graph.node] == [
        ("xs_0", "_Arg", []), ("xs_1", "_Arg", []),
        ("sum", "AddN", ["xs_0", "xs_1"]), ("axis", "Const", []),
        ("split", "Split", ["axis", "sum"]),
        ("parts_RetVal_0", "_Retval", ["split"]), ("parts_RetVal_1", "_Retval", ["split:1"])]
    assert [n.attr["index"].i for n in graph.node if n.op == "_Retval"] == [0, 1]


def _int(value):
    from engine.proto import attr_value_pb2
    return attr_value_pb2.AttrValue(i=value)


def test_a_missing_input_names_the_function_and_the_node():
    function_def = _function('''
        signature { name: "g" output_arg { name: "y" type: DT_FLOAT } }
        node_def { name: "n" op: "Identity" input: "nowhere:output:0"
                   attr { key: "T" value { type: DT_FLOAT } } }
        ret { key: "y" value: "n:output:0" }''')
    with pytest.raises(FunctionGraphError, match="function g, node n: input nowhere:output:0 "
                                                 "is not found"):
        function_body_graph(function_def)


def test_a_missing_return_is_named():
    function_def = _function('signature { name: "h" output_arg { name: "y" type: DT_FLOAT } }')
    with pytest.raises(FunctionGraphError, match="function h: return y missing"):
        function_body_graph(function_def)


@pytest.mark.parametrize("model", MODELS)
def test_a_body_graph_writes_back_to_the_same_function_def(model):
    from engine.framework.function_from_graph import function_def_from_graph
    library = _library(model)
    for name, function_def in library.items():
        graph = function_body_graph(function_def, library)
        back = function_def_from_graph(graph, function_def, library)
        assert back == function_def, name


def test_a_rewritten_body_writes_its_new_edges_in_function_def_syntax():
    from engine.framework.function_from_graph import function_def_from_graph
    function_def = _function('''
        signature { name: "f" input_arg { name: "x" type: DT_FLOAT }
                    output_arg { name: "parts" type: DT_FLOAT number_attr: "num_split" } }
        node_def { name: "axis" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
                   attr { key: "value" value { tensor { dtype: DT_INT32 int_val: 0 } } } }
        node_def { name: "split" op: "Split" input: "axis:output:0" input: "x"
                   attr { key: "num_split" value { i: 2 } }
                   attr { key: "T" value { type: DT_FLOAT } } }
        node_def { name: "neg" op: "Neg" input: "split:output:0"
                   attr { key: "T" value { type: DT_FLOAT } } }
        ret { key: "parts" value: "split:output:0" }''')
    function_def.signature.output_arg[0].number_attr = ""
    graph = function_body_graph(function_def)
    [neg] = [n for n in graph.node if n.name == "neg"]
    neg.input[0] = "split:1"  # a rewrite reads the second piece
    back = function_def_from_graph(graph, function_def)
    assert list(back.node_def[2].input) == ["split:output:1"]


def test_an_op_the_engine_does_not_run_resolves_by_tensorflows_op_def():
    """CudnnRNNParamsToCanonical's outputs are two lists of num_params tensors: `biases:1` of
    a two-parameter call is its fourth output. The engine has no such op; TensorFlow's op list
    (engine/framework/tensorflow_op_list.py) says where each output starts."""
    from engine.framework import op_registry
    assert op_registry.lookup("CudnnRNNParamsToCanonical") is None
    function_def = _function('''
        signature { name: "f" input_arg { name: "layers" type: DT_INT32 }
                    input_arg { name: "units" type: DT_INT32 }
                    input_arg { name: "size" type: DT_INT32 }
                    input_arg { name: "params" type: DT_FLOAT }
                    output_arg { name: "y" type: DT_FLOAT } }
        node_def { name: "split" op: "CudnnRNNParamsToCanonical" input: "layers"
                   input: "units" input: "size" input: "params"
                   attr { key: "num_params" value { i: 2 } }
                   attr { key: "T" value { type: DT_FLOAT } } }
        node_def { name: "neg" op: "Neg" input: "split:biases:1"
                   attr { key: "T" value { type: DT_FLOAT } } }
        ret { key: "y" value: "neg:y:0" }''')
    graph = function_body_graph(function_def)
    assert [list(n.input) for n in graph.node if n.name == "neg"] == [["split:3"]]
