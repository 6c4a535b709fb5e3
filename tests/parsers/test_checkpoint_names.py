"""TF2 checkpoint keys called by readable names (parsers/checkpoint_names.py), against the names
TensorFlow 2.21 recorded for each variable (tests/fixtures/tf2/reference/*/checkpoint.json: the
TrackableObjectGraph's `full_name` of every attribute)."""

import json
import re

import numpy as np
import pytest

import parsers
from parsers.checkpoint import Checkpoint
from parsers_testing import FIXTURES

TF2 = FIXTURES / "tf2"
MODELS = sorted(p.name for p in (TF2 / "reference").iterdir() if (p / "checkpoint.json").is_file())
SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"


def attributes(model):
    document = json.loads((TF2 / "reference" / model / "checkpoint.json").read_text())
    return [attribute for node in document["object_graph"]["nodes"]
            for attribute in node.get("attributes", ())]


@pytest.mark.parametrize("model", MODELS)
def test_a_saved_models_variables_go_by_the_names_tensorflow_gave_them(model):
    checkpoint = parsers.load(TF2 / model).checkpoint
    expected = {a["checkpoint_key"]: a["full_name"] for a in attributes(model)}
    assert sorted(info.key for info in checkpoint.variables) == sorted(expected)
    for info in checkpoint.variables:
        # a name two variables share is told apart by the object path: `name (path)`
        assert re.sub(r" \(.*\)$", "", info.name) == expected[info.key]
        assert checkpoint.info(info.name) is checkpoint.info(info.key) is info
    names = [info.name for info in checkpoint.variables]
    assert len(set(names)) == len(names)
    assert "_CHECKPOINTABLE_OBJECT_GRAPH" not in names + [i.key for i in checkpoint.variables]
    assert checkpoint.object_graph is not None


def test_a_name_two_objects_share_goes_to_the_first_the_object_graph_reaches():
    checkpoint = parsers.load(TF2 / "keras_cnn").checkpoint
    assert checkpoint.info("variables/0/.ATTRIBUTES/VARIABLE_VALUE").name == "conv/kernel"
    assert checkpoint.info("_all_variables/0" + SUFFIX).name == "conv/kernel (_all_variables/0)"
    np.testing.assert_array_equal(checkpoint.value("conv/kernel"),
                                  checkpoint.value("conv/kernel (_all_variables/0)"))


def test_optimizer_slots_go_by_the_name_the_checkpoint_records():
    checkpoint = parsers.load(TF2 / "tf_keras_mlp").checkpoint
    key = "layer_with_weights-0/kernel/.OPTIMIZER_SLOT/optimizer/m" + SUFFIX
    assert checkpoint.info(key).name == "Adam/hidden/kernel/m"
    assert checkpoint.value("Adam/hidden/kernel/m").shape == (3, 4)


@pytest.mark.parametrize("model", ["train_step", "keras_cnn", "tf_keras_mlp"])
def test_without_a_saved_model_a_variable_goes_by_its_object_path(model):
    checkpoint = Checkpoint(TF2 / model / "variables" / "variables")
    for info in checkpoint.variables:
        if "/.OPTIMIZER_SLOT/" not in info.key:
            assert info.name == info.key[:-len(SUFFIX)]
    assert checkpoint.value("_CHECKPOINTABLE_OBJECT_GRAPH").dtype.kind in "OS"


def test_a_tf1_checkpoint_keeps_its_keys_as_names():
    checkpoint = parsers.load(FIXTURES / "containers" / "saved_model_mlp").checkpoint
    assert checkpoint.object_graph is None
    assert all(info.name == info.key for info in checkpoint.variables)
