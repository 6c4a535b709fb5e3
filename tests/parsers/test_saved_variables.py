"""parsers/saved_variables.py: the checkpoint entry behind a VarHandleOp of a TF2 SavedModel's
graph and behind every ReadVariableOp in its function bodies, on SavedModels TensorFlow 2.21
wrote (tests/fixtures/tf2/)."""

import numpy as np
import pytest

import parsers
from engine.framework import dtypes
from parsers.saved_variables import SavedVariables
from parsers_testing import FIXTURES

TF2 = FIXTURES / "tf2"
MODELS = ("train_step", "text_model", "keras_cnn", "transformer", "tf_keras_mlp")


@pytest.mark.parametrize("model", MODELS)
def test_every_saved_variable_has_its_handle_and_the_handle_its_shape(model):
    loaded = parsers.load(TF2 / model)
    saved = SavedVariables(loaded)
    restored = saved.restored()
    assert sorted(set(restored.values())) == sorted(v.key for v in loaded.checkpoint.variables)
    graph = {n.name: n for n in loaded.graphs[0].graph_def.node}
    for (label, node_name), key in restored.items():
        assert label == "serve"
        handle = graph[node_name]
        assert handle.op == "VarHandleOp"
        info = loaded.checkpoint.info(key)
        assert [d.size for d in handle.attr["shape"].shape.dim] == list(info.shape)
        assert dtypes.as_dtype(handle.attr["dtype"].type).name == info.dtype
        assert saved.key_of("serve", node_name) == key


@pytest.mark.parametrize("model", MODELS)
def test_every_variable_read_in_a_served_function_finds_its_value(model):
    loaded = parsers.load(TF2 / model)
    saved = SavedVariables(loaded)
    reads = 0
    for function in loaded.functions.reached_from("serve"):
        if "traced_restore" in function.name:
            continue
        for node in function.graph_def.node:
            if node.op not in ("ReadVariableOp", "ResourceGather"):
                continue
            reads += 1
            info = saved.info_of(function.label, node.name)
            assert info is not None, (function.name, node.name)
            assert dtypes.as_dtype(node.attr["dtype"].type).name == info.dtype
            assert saved.value_of(function.label, node.name).shape == info.shape
    assert reads > 0


def test_train_steps_reads_are_its_named_variables_and_compute_tensorflows_logits():
    loaded = parsers.load(TF2 / "train_step")
    saved = SavedVariables(loaded)
    predict = loaded.functions.get("__inference_predict_32")
    reads = {node.name: saved.info_of(predict.label, node.name).name
             for node in predict.graph_def.node if node.op == "ReadVariableOp"}
    assert reads == {"MatMul/ReadVariableOp": "w1", "add/ReadVariableOp": "b1",
                     "MatMul_1/ReadVariableOp": "w2", "add_1/ReadVariableOp": "b2"}
    w1, b1, w2, b2 = (saved.value_of(predict.label, name) for name in reads)
    expected = np.load(TF2 / "reference" / "train_step" / "expected.npz")
    np.testing.assert_allclose(np.maximum(expected["predict/x"] @ w1 + b1, 0) @ w2 + b2,
                               expected["predict/logits"], rtol=1e-5, atol=1e-6)


def test_nodes_that_are_no_variable_have_no_key():
    loaded = parsers.load(TF2 / "train_step")
    saved = SavedVariables(loaded)
    predict = loaded.functions.get("__inference_predict_32").label
    assert saved.key_of(predict, "MatMul") is None      # reads a ReadVariableOp's value only
    assert saved.key_of(predict, "no such node") is None
    assert saved.key_of("serve", "predict_x") is None


def test_a_tf1_saved_models_variables_are_their_keys():
    loaded = parsers.load(FIXTURES / "containers" / "saved_model_mlp")
    saved = SavedVariables(loaded)
    variables = [n for n in loaded.graphs[0].graph_def.node if n.op == "VariableV2"]
    assert variables
    for node in variables:
        assert saved.key_of(loaded.graphs[0].label, node.name) == node.name
        assert saved.key_of(loaded.graphs[0].label, node.name + "/read") == node.name


@pytest.mark.parametrize("source, holds", [("tf2_run/preprocessing", True),
                                           ("tf2/while_cond", False)])
def test_a_saved_model_without_its_variables_index_says_so_when_it_holds_variables(
        tmp_path, source, holds):
    """A SavedModel whose variables/variables.index was lost: `info` says the variables are not
    read (it said nothing, and `run` failed at the first variable read); one without variables
    (while_cond's object graph holds none) needs no index."""
    import shutil
    copy = tmp_path / "model"
    shutil.copytree(FIXTURES / source, copy)
    (copy / "variables" / "variables.index").unlink()
    loaded = parsers.load(copy)
    assert loaded.checkpoint is None
    assert loaded.notes == (["variables/variables.index is missing: the model's variables are "
                             "not read"] if holds else [])
