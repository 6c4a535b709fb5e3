"""`graph-inspector run GRAPH --restore CKPT`: the graph runs with the values TensorFlow saved."""

import json
from pathlib import Path

import numpy as np
import pytest

from inspector.cli import main

CHECKPOINTS = Path(__file__).resolve().parents[1] / "fixtures" / "checkpoints"
TF_VALUES = json.loads((CHECKPOINTS / "values.json").read_text())


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_saved_model_runs_with_its_variables(capsys, tmp_path):
    saved = tmp_path / "y.npz"
    status, _, err = run(capsys, "run", CHECKPOINTS / "saved_model" / "saved_model.pb",
                         "--restore", CHECKPOINTS / "saved_model", "--feed", "x=[[1, 2], [-3, 0.5]]",
                         "--fetch", "y:0", "--save", saved)
    assert (status, err) == (0, "")
    variables = TF_VALUES["saved_model/variables/variables"]
    w = np.array(variables["w"]["values"], np.float32).reshape(variables["w"]["shape"])
    b = np.array(variables["b"]["values"], np.float32)
    np.testing.assert_allclose(np.load(saved)["y:0"], np.array([[1, 2], [-3, 0.5]], np.float32) @ w + b)


def test_restore_comes_after_the_initializer_and_fills_each_part(capsys, tmp_path):
    """--before init then --restore: a checkpoint with other values than the initializers' wins,
    each part of TensorFlow's partitioned variable taking its slice of the full tensor."""
    from engine.checkpoint.bundle import BundleWriter
    from engine.proto import types_pb2
    writer = BundleWriter(tmp_path / "other")
    embedding = np.arange(30, dtype=np.float32).reshape(10, 3)
    for start, length in ((0, 4), (4, 3), (7, 3)):
        writer.add_slice("embedding", [10, 3], [(start, length), (0, 3)], embedding[start:start + length],
                         types_pb2.DT_FLOAT)
    writer.add("plain", np.float32([-1, -2]), types_pb2.DT_FLOAT)
    writer.finish()
    saved = tmp_path / "v.npz"
    status, _, err = run(capsys, "run", CHECKPOINTS / "partitioned" / "model.ckpt.meta", "--before", "init",
                         "--restore", tmp_path / "other", "--fetch", "embedding/part_1:0",
                         "--fetch", "embedding/part_2:0", "--fetch", "plain:0", "--fetch", "wide/part_0:0",
                         "--save", saved)
    assert (status, err) == (0, "")
    values = np.load(saved)
    np.testing.assert_array_equal(values["embedding/part_1:0"], embedding[4:7])
    np.testing.assert_array_equal(values["embedding/part_2:0"], embedding[7:10])
    assert values["plain:0"].tolist() == [-1, -2]
    wide = TF_VALUES["partitioned/model.ckpt"]["wide"]  # not in the checkpoint: the initializer's
    np.testing.assert_allclose(values["wide/part_0:0"].ravel(), wide["values"][:200], rtol=1e-6)


def test_tensorflows_partitioned_checkpoint_restores(capsys, tmp_path):
    saved = tmp_path / "v.npz"
    status, _, err = run(capsys, "run", CHECKPOINTS / "partitioned" / "model.ckpt.meta",
                         "--restore", CHECKPOINTS / "partitioned", "--fetch", "embedding/part_0:0",
                         "--fetch", "wide/part_1:0", "--save", saved)
    assert (status, err) == (0, "")
    expected = TF_VALUES["partitioned/model.ckpt"]
    embedding = np.array(expected["embedding"]["values"], np.float32).reshape(10, 3)
    wide = np.array(expected["wide"]["values"], np.float32).reshape(200, 2)
    np.testing.assert_array_equal(np.load(saved)["embedding/part_0:0"], embedding[:4])
    np.testing.assert_array_equal(np.load(saved)["wide/part_1:0"], wide[100:])


def test_a_checkpoint_of_another_model_is_one_error_line(capsys):
    status, out, err = run(capsys, "run", CHECKPOINTS / "saved_model" / "saved_model.pb",
                           "--restore", CHECKPOINTS / "dtypes", "--feed", "x=[[1, 2]]", "--fetch", "y:0")
    assert (status, out) == (2, "")
    assert err == f"error: {CHECKPOINTS / 'dtypes' / 'model.ckpt-7'}: holds none of the graph's variables\n"


@pytest.mark.parametrize("model", ["tf_keras_mlp.keras", "tf_keras_mlp.h5"])
def test_a_keras_model_file_is_named_as_no_checkpoint(capsys, model):
    # it read as a prefix: "tf_keras_mlp.keras.index: no such file (not a checkpoint prefix?)"
    path = CHECKPOINTS.parent / "keras" / model
    status, out, err = run(capsys, "run", CHECKPOINTS / "saved_model" / "saved_model.pb",
                           "--restore", path, "--feed", "x=[[1, 2]]", "--fetch", "y:0")
    assert (status, out) == (2, "")
    assert err == (f"error: {path}: a Keras model file, not a TensorFlow checkpoint: --restore "
                   "takes a checkpoint prefix, its .index, a checkpoint directory or a SavedModel\n")
