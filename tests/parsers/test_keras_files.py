"""Keras model files (.keras zips, .h5) open as the Keras layer graph with the model's weights,
checked against what Keras said of each model (tests/fixtures/keras/reference, written by
tools/make_keras_fixtures.py) and against TensorBoard's own conversion of a model config."""

import json
import zipfile

import numpy as np
import pytest

import parsers
from inspector import info_checkpoint
from parsers_testing import FIXTURES

KERAS = FIXTURES / "keras"
MODELS = ("two_inputs", "sequential_cnn", "nested", "tf_keras_mlp", "dict_io")
FUNCTIONAL = ("two_inputs", "nested", "tf_keras_mlp", "dict_io")  # a Sequential's config states few shapes
FILES = [(model, suffix) for model in MODELS for suffix in (".keras", ".h5")]


def reference(model):
    return json.loads((KERAS / "reference" / f"{model}.json").read_text())


def reference_values(model):
    return np.load(KERAS / "reference" / f"{model}.npz")


def load(model, suffix):
    loaded = parsers.load(KERAS / f"{model}{suffix}")
    assert loaded.kind == "keras" and loaded.files == [str(KERAS / f"{model}{suffix}")]
    [graph] = loaded.graphs
    return loaded, {node.name: node for node in graph.graph_def.node}


def output_shape(node):
    shapes = node.attr["_output_shapes"].list.shape if "_output_shapes" in node.attr else []
    if not shapes or shapes[0].unknown_rank:
        return None
    return [None if dim.size < 0 else dim.size for dim in shapes[0].dim]


@pytest.mark.parametrize("model,suffix", FILES)
def test_every_layer_is_a_node_fed_by_the_layers_keras_calls_it_on(model, suffix):
    _, nodes = load(model, suffix)
    layers = reference(model)["layers"]
    for name, class_name, inbound, shape in layers:
        node = nodes[name]
        assert (node.op, node.attr["keras_class"].s.decode()) == (class_name, class_name)
        if class_name == "InputLayer" and name.count("/") > 1:
            # A nested model's input: fed, as TensorBoard draws it, by what the model is called on.
            assert inbound == [] and len(node.input) == 1
        else:
            assert list(node.input) == inbound, name
        if shape is not None and output_shape(node) is not None:
            assert output_shape(node) == shape, name
    # Beyond Keras's own layers: only the InputLayers a Sequential keeps out of its list.
    extra = set(nodes) - {layer[0] for layer in layers}
    assert all(nodes[name].op == "InputLayer" for name in extra)
    if suffix == ".keras" and model in FUNCTIONAL:
        # Its config states the shape of every tensor a layer is called on (Keras 3) or was
        # built for (Keras 2): so every layer whose output another takes has its shape.
        consumed = {source for node in nodes.values() for source in node.input}
        assert {name for name in consumed if output_shape(nodes[name]) is None} == set()


@pytest.mark.parametrize("suffix", (".keras", ".h5"))
def test_a_model_of_named_inputs_takes_a_dict_by_key(suffix):
    """Keras 3 writes a model of dict inputs/outputs with dict input_layers/output_layers (it
    was refused: 'a dict, not a list'); the inner model's inputs are fed by key, in sorted key
    order as Keras flattens a dict, though its config and its caller order the keys apart."""
    _, nodes = load("dict_io", suffix)
    assert list(nodes["dict_io/inner/inner_a"].input) == ["dict_io/seq_pool"]
    assert list(nodes["dict_io/inner/inner_b"].input) == ["dict_io/vol_pool"]
    assert list(nodes["dict_io/score"].input) == ["dict_io/inner/minus"]


@pytest.mark.parametrize("model,suffix", FILES)
def test_layer_config_entries_are_attrs(model, suffix):
    loaded, nodes = load(model, suffix)
    path = KERAS / f"{model}{suffix}"
    if suffix == ".keras":
        config = json.loads(zipfile.ZipFile(path).read("config.json"))
    else:
        h5py = pytest.importorskip("h5py")
        with h5py.File(path) as h5file:
            config = json.loads(h5file.attrs["model_config"])
    dense = [layer for layer in config["config"]["layers"] if layer["class_name"] == "Dense"][-1]
    [node] = [n for name, n in nodes.items() if name.endswith("/" + dense["config"]["name"])]
    assert node.attr["units"].i == dense["config"]["units"]
    assert node.attr["activation"].s.decode() == dense["config"]["activation"]
    assert node.attr["use_bias"].b is dense["config"]["use_bias"]
    assert node.attr["kernel_initializer"].s.decode() == dense["config"]["kernel_initializer"]["class_name"]
    assert node.attr["dtype"].type == 1  # DT_FLOAT, as TensorBoard sets it


# TensorBoard's keras_util cannot read dict input_layers (KeyError: 0, its own failure).
@pytest.mark.parametrize("model", [model for model in MODELS if model != "dict_io"])
def test_graph_is_tensorboards_conceptual_graph(model):
    """Node names as TensorBoard's graph plugin makes them from the same config, and their
    inputs too, but for Keras 2 configs, whose list-form inbound nodes TensorBoard skips."""
    keras_util = pytest.importorskip("tensorboard.plugins.graph.keras_util")
    config = json.loads(zipfile.ZipFile(KERAS / f"{model}.keras").read("config.json"))
    theirs = keras_util.keras_model_to_graph_def(config).node
    _, ours = load(model, ".keras")
    assert list(ours) == [node.name for node in theirs]
    if model != "tf_keras_mlp":
        assert {n: list(node.input) for n, node in ours.items()} == {n.name: list(n.input) for n in theirs}
    else:
        assert not any(node.input for node in theirs) and any(node.input for node in ours.values())


@pytest.mark.parametrize("model", MODELS)
def test_keras_zip_and_h5_hold_the_same_graph(model):
    _, from_zip = load(model, ".keras")
    _, from_h5 = load(model, ".h5")
    assert {n: (node.op, list(node.input)) for n, node in from_zip.items()} == \
        {n: (node.op, list(node.input)) for n, node in from_h5.items()}


def weight_rows(model):
    """(scoped layer, index in the layer, variable path, shape, dtype) of Keras's weights."""
    return [(layer, index, path, shape, dtype) for layer, variables in reference(model)["weights"]
            for index, (path, shape, dtype) in enumerate(variables)]


@pytest.mark.parametrize("model", MODELS)
def test_h5_weights_are_named_under_their_layer_with_kerass_values(model):
    loaded, _ = load(model, ".h5")
    weights = loaded.checkpoint
    rows = weight_rows(model)
    values = reference_values(model)
    listed = [info for info in weights.variables if not info.name.startswith("optimizer/")]
    assert len(listed) == len(rows)
    for info, (layer, index, path, shape, dtype) in zip(listed, rows):
        assert info.name == f"{layer}/{path.split(':')[0].rsplit('/', 1)[-1]}"
        assert (list(info.shape), info.dtype) == (shape, dtype)
        np.testing.assert_array_equal(weights.value(info.name), values[f"{layer}--{index}".replace("/", "--")])
    optimizer = [info for info in weights.variables if info.name.startswith("optimizer/")]
    assert [[list(i.shape), i.dtype] for i in optimizer] == [[s, d] for _, s, d in reference(model)["optimizer"]]


@pytest.mark.parametrize("model", MODELS)
def test_keras_zip_weights_are_each_layers_vars_in_order_with_kerass_values(model):
    loaded, nodes = load(model, ".keras")
    weights = loaded.checkpoint
    values = reference_values(model)
    for layer, index, _, shape, dtype in weight_rows(model):
        info = weights.info(f"{layer}/vars/{index}")
        assert (list(info.shape), info.dtype) == (shape, dtype)
        assert info.key.endswith(f"/vars/{index}")
        np.testing.assert_array_equal(weights.value(info.name), values[f"{layer}--{index}".replace("/", "--")])
    layer_weights = [info.name for info in weights.variables if not info.name.startswith("optimizer/")]
    assert len(layer_weights) == len(weight_rows(model))
    # Listed in the graph's layer order, each under its layer's node.
    order = list(nodes)
    positions = [order.index(name.rsplit("/vars/", 1)[0]) for name in layer_weights]
    assert positions == sorted(positions)
    assert len([i for i in weights.variables if i.name.startswith("optimizer/")]) == len(reference(model)["optimizer"])


def test_weights_statistics_are_the_checkpoint_tables():
    loaded, _ = load("sequential_cnn", ".keras")
    values = reference_values("sequential_cnn")
    rows = {row["name"]: row for row in info_checkpoint.variables_json(loaded.checkpoint)}
    kernel = values["sequential_cnn--conv--0"]
    row = rows["sequential_cnn/conv/vars/0"]
    assert (row["dtype"], row["shape"], row["size"], row["bytes"]) == ("float32", [3, 3, 1, 3], 27, 108)
    assert row["min"] == pytest.approx(float(kernel.min())) and row["max"] == pytest.approx(float(kernel.max()))
    assert row["mean"] == pytest.approx(float(kernel.mean()), rel=1e-5)
    moving_variance = rows["sequential_cnn/norm/vars/3"]  # non-trainable, after one training step
    assert moving_variance["min"] == pytest.approx(float(values["sequential_cnn--norm--3"].min()))


@pytest.mark.parametrize("suffix", [".keras", ".h5"])
def test_the_tf2_fixture_cnn_is_the_graph_its_tensorboard_log_shows(suffix):
    """keras_cnn.keras and .h5 (tests/fixtures/tf2) hold the model logdir_fit's callback wrote."""
    from_file = parsers.load(FIXTURES / "tf2" / f"keras_cnn{suffix}").graphs[0].graph_def
    from_log = parsers.load(FIXTURES / "tf2" / "logdir_fit").graphs[0].graph_def
    assert [(n.name, n.op, list(n.input)) for n in from_file.node] == \
        [(n.name, n.op, list(n.input)) for n in from_log.node]


def test_info_json_lists_the_layers_and_the_weights(run_info):
    code, out, err = run_info(KERAS / "two_inputs.h5", "--json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["kind"] == "keras"
    [graph] = document["graphs"]
    assert graph["label"] == "two_inputs (Functional, Keras 3.15.1)"
    concat = next(node for node in graph["nodes"] if node["name"] == "two_inputs/concat")
    assert concat["op"] == "Concatenate" and concat["inputs"] == ["two_inputs/flatten", "two_inputs/meta_dense"]
    assert concat["attr"]["_output_shapes"] == "[[?,76]]"
    names = [variable["name"] for variable in document["variables"]]
    assert names[:2] == ["two_inputs/conv/kernel", "two_inputs/conv/bias"]
    assert set(document["variables"][0]) >= {"name", "dtype", "shape", "size", "bytes", "min", "max", "mean"}


def test_info_summary_names_the_model_and_its_weights(run_info):
    code, out, _ = run_info(KERAS / "nested.keras")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("nested.keras: Keras model (layer graph and weights)")
    assert "graph 'nested (Functional, Keras 3.15.1)': 10 nodes" in lines
    assert any(line.startswith("checkpoint nested.keras/model.weights.h5: 10 variables") for line in lines)
    assert any(line.split()[:3] == ["nested/block/d1/vars/0", "float32", "[4,5]"] for line in lines)
