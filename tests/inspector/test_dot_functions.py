"""`dot --graph FUNCTION` and `dot --expand-calls` on TF2 SavedModels TensorFlow 2.21 wrote
(tests/fixtures/tf2/), node counts from TensorFlow's functions.json and saved_model.pb."""

import json
from pathlib import Path

import pytest

from engine.proto import saved_model_pb2
from inspector import cli

TF2 = Path(__file__).resolve().parents[1] / "fixtures" / "tf2"


def run(capsys, *argv):
    status = cli.main(["dot", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def records(model):
    [meta] = json.loads((TF2 / "reference" / model / "functions.json").read_text())["meta_graphs"]
    return meta, {f["name"]: f for f in meta["functions"]}


@pytest.mark.parametrize("choice", ["while_body_13", "function while_body_13"])
def test_one_function_is_drawn_with_its_args_and_returns(capsys, tmp_path, choice):
    _, functions = records("while_cond")
    body = functions["while_body_13"]
    out = tmp_path / "body.dot"
    status, _, err = run(capsys, TF2 / "while_cond", "--graph", choice, "-o", out)
    count = len(body["nodes"]) + len(body["input_arg"]) + len(body["output_arg"])
    assert (status, err) == (0, f"wrote {out}: function while_body_13, {count} nodes\n")
    text = out.read_text()
    assert '"while/cond" [' in text and "StatelessIf" in text
    assert "while_placeholder_1 -> " in text  # an _Arg feeds the body


def test_an_unknown_graph_names_the_functions_there(capsys, tmp_path):
    status, _, err = run(capsys, TF2 / "while_cond", "--graph", "while_body_99", "-o",
                         tmp_path / "x.dot")
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"error: {TF2 / 'while_cond'}: no graph 'while_body_99'; graphs here"
                          f" are 0: serve; and 8 functions, by name (")


def expanded_size(model):
    """Nodes once every call is inlined, counted from the SavedModel's FunctionDefs."""
    saved = saved_model_pb2.SavedModel.FromString((TF2 / model / "saved_model.pb").read_bytes())
    graph = saved.meta_graphs[0].graph_def
    library = {f.signature.name: f for f in graph.library.function}

    def callees(node):
        names = [node.op] if node.op in library else []
        for value in node.attr.values():
            names += [value.func.name] if value.HasField("func") else []
            names += [f.name for f in value.list.func]
        return names

    def size(name, open_):
        function = library[name]
        own = len(function.node_def) + len(function.signature.input_arg) + \
            len(function.signature.output_arg)
        return own + sum(size(c, open_ | {c}) for n in function.node_def for c in callees(n)
                         if c not in open_)

    return len(graph.node) + sum(size(c, {c}) for n in graph.node for c in callees(n))


@pytest.mark.parametrize("model", ["while_cond", "train_step", "keras_cnn"])
def test_expand_calls_inlines_every_body_under_its_call(capsys, tmp_path, model):
    out = tmp_path / "expanded.dot"
    status, _, err = run(capsys, TF2 / model, "--expand-calls", "-o", out)
    assert (status, err) == (0, f"wrote {out}: serve, calls expanded, {expanded_size(model)} nodes\n")


def test_expanded_bodies_are_clusters_fed_by_the_calls_inputs(capsys, tmp_path):
    out = tmp_path / "expanded.dot"
    run(capsys, TF2 / "while_cond", "--expand-calls", "--budget", "1000", "-o", out)
    text = out.read_text()
    wrapper = "PartitionedCall/__inference_signature_wrapper_serve_86"
    loop = f"{wrapper}/PartitionedCall/__inference_serve_78/while/while_body_13"
    for scope in (wrapper, loop, f"{loop}/while/cond/while_cond_true_41"):
        assert f'subgraph "cluster_{scope}" {{' in text
    assert f'serving_default_x -> "{wrapper}/x"' in text


def test_expand_calls_does_not_go_with_diff(capsys, tmp_path):
    status, _, err = run(capsys, "--diff", TF2 / "while_cond", TF2 / "while_cond",
                         "--expand-calls", "-o", tmp_path / "d.dot")
    assert status == 2 and err.startswith("error: ") and "--expand-calls" in err
