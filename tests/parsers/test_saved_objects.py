"""A SavedModel's SavedObjectGraph read without TensorFlow (parsers/saved_objects.py), against
what `saved_model_cli show --all` printed with TensorFlow 2.21 (its "Concrete Functions" part,
tests/fixtures/tf2/reference/<model>/saved_model_cli.txt) and TensorFlow's functions.json."""

import json
import re

import pytest

import parsers
from parsers.saved_objects import SavedObjects
from parsers_testing import FIXTURES

TF2 = FIXTURES / "tf2"
MODELS = sorted(p.name for p in (TF2 / "reference").iterdir()
                if (p / "saved_model_cli.txt").is_file())


def cli_concrete_functions(model):
    """{Function Name: [[the lines under each Option's `Callable with:`, stripped]]}."""
    text = (TF2 / "reference" / model / "saved_model_cli.txt").read_text()
    functions, options = {}, None
    for line in text.split("\nConcrete Functions:", 1)[1].splitlines():
        line = line.strip()
        match = re.match(r"Function Name: '(.*)'$", line)
        if match:
            options = functions.setdefault(match.group(1), [])
        elif re.match(r"Option #\d+$", line):
            options.append([])
        elif line and line != "Callable with:":
            options[-1].append(line)
    return functions


def cli_lines(option):
    """The lines saved_model_cli prints for one option (tools/saved_model_cli.py _print_args)."""
    lines = []
    for number, argument in enumerate(option.args, 1):
        lines.append(f"Argument #{number}")
        if argument.type_name == "TensorSpec":
            lines.append(f"{argument.name}: {argument.value}")
        else:
            lines += [f"DType: {argument.type_name}", f"Value: {argument.value}"]
    for number, argument in enumerate(option.kwargs, 1):
        lines += [f"Named Argument #{number}", argument.name]
    return lines


def saved_objects(model):
    loaded = parsers.load(TF2 / model)
    [meta] = loaded.meta_graphs
    return SavedObjects(meta.meta_graph_def.object_graph_def, meta.meta_graph_def.graph_def)


@pytest.mark.parametrize("model", MODELS)
def test_root_functions_and_options_are_saved_model_clis(model):
    objects = saved_objects(model)
    listed = {f.path: [cli_lines(o) for o in f.options] for f in objects.functions(root_only=True)}
    assert listed == cli_concrete_functions(model)
    concrete = set(objects.proto.concrete_functions)
    assert all(o.function in concrete for f in objects.functions() for o in f.options)


def test_training_variants_are_options_of_one_function():
    objects = saved_objects("tf_keras_mlp")
    functions = {f.path: f for f in objects.functions()}
    call = functions["__call__"]
    assert [o.call_text for o in call.options] == [
        f"(x: TensorSpec(shape=(None, 3), dtype=tf.float32, name='x'), training={flag}, mask=None)"
        for flag in ("False", "True")]
    # nested objects' functions, by Python attribute path
    assert [o.call_text.split("training=")[1] for o in
            functions["layer_with_weights-1.__call__"].options] == ["False, mask=None)",
                                                                   "True, mask=None)"]
    assert "layer_with_weights-0.kernel" in {o.path for o in objects.objects if o.kind == "variable"}


@pytest.mark.parametrize("model", MODELS)
def test_signatures_are_the_functions_the_graph_calls_for_them(model):
    objects = saved_objects(model)
    [meta] = json.loads((TF2 / "reference" / model / "functions.json").read_text())["meta_graphs"]
    nodes = {name: op for name, op, _ in meta["graph_nodes"]}
    library = parsers.load(TF2 / model).functions
    signatures = objects.signatures()
    assert sorted(signatures) == sorted(k for k in meta["signatures"] if not k.startswith("__"))
    for key, wrapper in signatures.items():
        [output_node] = {t.split(":")[0] for t in meta["signatures"][key]["outputs"].values()}
        assert nodes[output_node] in ("PartitionedCall", "StatefulPartitionedCall")
        [site] = [s for s in library.call_sites("serve") if s.node == output_node]
        assert site.callee == wrapper
        called = objects.signature_calls(wrapper)
        reached = {f.name for f in library.reached_from(f"function {wrapper}")}
        assert called and {name for _, name in called} <= reached


def test_which_saved_function_each_signature_calls():
    assert saved_objects("tf_keras_mlp").signature_calls("__inference_signature_wrapper_1088") == [
        ("_default_save_signature", "__inference__wrapped_model_824")]
    keras = saved_objects("keras_cnn")
    assert [keras.signature_calls(f) for f in keras.signatures().values()] == [
        [("serve", "__inference___call___134")]] * 2


def test_variable_names_by_object_path():
    names = saved_objects("tf_keras_mlp").variable_names()
    assert names["layer_with_weights-0/kernel"] == "hidden/kernel"
    assert names["optimizer/iter"] == "Adam/iter"
