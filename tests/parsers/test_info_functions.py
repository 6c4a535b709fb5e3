"""`info` on TF2 SavedModels: what each graph's calls reach, every function as a graph entry of
`--json`, the SavedObjectGraph's concrete functions, TF2 checkpoint names; checked against what
TensorFlow 2.21 said of the same models (tests/fixtures/tf2/reference/<model>/)."""

import json

import pytest

from parsers_testing import FIXTURES

TF2 = FIXTURES / "tf2"
MODELS = sorted(p.name for p in (TF2 / "reference").iterdir() if (p / "functions.json").is_file())


def reference(model):
    [meta] = json.loads((TF2 / "reference" / model / "functions.json").read_text())["meta_graphs"]
    return meta


def reached(meta):
    calls = {f["name"]: f["calls"] for f in meta["functions"]}
    found, todo = set(), list(meta["graph_calls"])
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += calls[name]
    return found


@pytest.mark.parametrize("model", MODELS)
def test_the_graph_line_counts_the_functions_its_calls_reach(run_info, model):
    code, out, err = run_info(TF2 / model)
    assert (code, err) == (0, "")
    meta = reference(model)
    names = reached(meta)
    nodes = sum(len(f["nodes"]) for f in meta["functions"] if f["name"] in names)
    assert (f"graph 'serve': {meta['graph_node_count']} nodes; {len(names)} functions,"
            f" {nodes} nodes in them\n") in out
    uncalled = [f for f in meta["functions"] if f["name"] not in names]
    if uncalled:
        assert (f"  library functions nothing calls: {len(uncalled)},"
                f" {sum(len(f['nodes']) for f in uncalled)} nodes in them: ") in out
    else:
        assert "nothing calls" not in out
    assert "_CHECKPOINTABLE_OBJECT_GRAPH" not in out


def test_the_call_tree_shows_the_loop_inside_the_function():
    from inspector import cmd_info
    import parsers
    lines = cmd_info.summary_lines(parsers.load(TF2 / "while_cond"))
    start = lines.index("  calls:")
    assert lines[start + 1:start + 7] == [
        "    PartitionedCall (f) -> __inference_signature_wrapper_serve_86: 3 nodes",
        "      PartitionedCall (f) -> __inference_serve_78: 16 nodes",
        "        while (body) -> while_body_13: 21 nodes",
        "          while/cond (else_branch) -> while_cond_false_42: 3 nodes",
        "          while/cond (then_branch) -> while_cond_true_41: 3 nodes",
        "        while (cond) -> while_cond_12: 2 nodes"]
    assert "    calls serve (__inference_serve_78) through __inference_signature_wrapper_serve_86" in lines


def test_concrete_functions_show_their_training_variants(run_info):
    _, out, _ = run_info(TF2 / "tf_keras_mlp")
    spec = "x: TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')"
    assert (f"    __call__: 2 concrete functions\n"
            f"      #1 ({spec}, training=False, mask=None) -> __inference_mlp_layer_call_fn_1032\n"
            f"      #2 ({spec}, training=True, mask=None) -> __inference_mlp_layer_call_fn_1011\n"
            in out)
    assert ("    calls _default_save_signature (__inference__wrapped_model_824) through"
            " __inference_signature_wrapper_1088\n") in out
    assert "\n  hidden/kernel  " in out and "\n  Adam/hidden/kernel/m  " in out


@pytest.mark.parametrize("model", MODELS)
def test_json_has_every_function_as_a_graph_named_and_counted_as_tensorflow_does(run_info, model):
    code, out, _ = run_info(TF2 / model, "--json")
    document = json.loads(out)
    meta = reference(model)
    graphs = {g["label"]: g for g in document["graphs"]}
    assert [g["label"] for g in document["graphs"]][0] == "serve"
    assert sorted(graphs["serve"]["functions"]) == [f["name"] for f in meta["functions"]]
    assert len(graphs["serve"]["nodes"]) == meta["graph_node_count"]
    assert sorted(label for label in graphs if label != "serve") == sorted(
        f"function {f['name']}" for f in meta["functions"])
    callers = {}
    for caller in meta["functions"]:
        for callee in caller["calls"]:
            callers.setdefault(callee, set()).add(f"function {caller['name']}")
    for callee in meta["graph_calls"]:
        callers.setdefault(callee, set()).add("serve")
    for record in meta["functions"]:
        entry = graphs[f"function {record['name']}"]
        function = entry["function"]
        assert function["name"] == record["name"]
        assert [a["name"] for a in function["inputs"]] == [n for n, _ in record["input_arg"]]
        assert [a["name"] for a in function["outputs"]] == [n for n, _ in record["output_arg"]]
        assert function["calls"] == record["calls"]
        assert {site["graph"] for site in function["called_by"]} == callers.get(record["name"], set())
        body = [n["name"] for n in entry["nodes"] if n["op"] not in ("_Arg", "_Retval")]
        assert body == [name for name, _ in record["nodes"]]
        args = [n["name"] for n in entry["nodes"] if n["op"] == "_Arg"]
        assert args == [n for n, _ in record["input_arg"]]


def test_json_variables_keep_the_raw_key(run_info):
    _, out, _ = run_info(TF2 / "tf_keras_mlp", "--json")
    variables = {v["name"]: v["key"] for v in json.loads(out)["variables"]}
    assert variables["hidden/kernel"] == "layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE"
    assert "_CHECKPOINTABLE_OBJECT_GRAPH" not in set(variables) | set(variables.values())


def test_json_saved_objects_list_nested_functions_and_signatures(run_info):
    _, out, _ = run_info(TF2 / "tf_keras_mlp", "--json")
    [objects] = json.loads(out)["saved_objects"]
    functions = {f["path"]: f for f in objects["functions"]}
    options = functions["layer_with_weights-1.__call__"]["options"]
    assert [[a["value"] for a in o["args"]][1:] for o in options] == [["False", "None"],
                                                                       ["True", "None"]]
    assert objects["signatures"] == [{
        "key": "serving_default", "function": "__inference_signature_wrapper_1088",
        "calls": [{"path": "_default_save_signature",
                   "function": "__inference__wrapped_model_824"}]}]
