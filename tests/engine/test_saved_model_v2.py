"""tf.saved_model.save and tf.saved_model.load_v2 in graph mode against TensorFlow 2.21.

Fixtures: tools/make_saved_model_v2_fixtures.py (tests/engine/saved_model_v2_cases.py on
TensorFlow): TensorFlow's SavedModel of the module, what saved_model_cli and the object
graph say of it, what load_v2 of it runs to, and TensorFlow's errors. The other direction,
TensorFlow 2.21 loading the engine's SavedModel, is tools/check_saved_model_v2_in_tf.py.
"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.proto import saved_model_pb2, trackable_object_graph_pb2

import saved_model_v2_cases as cases

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "saved_model_v2"
TF_MODULE = FIXTURES / "tf_scaler"
STRUCTURES = json.loads((FIXTURES / "structure.json").read_text())
OUTPUTS = json.loads((FIXTURES / "outputs.json").read_text())
REPO = Path(__file__).resolve().parents[2]


def _expected_outputs(program="scaler"):
    return {key: np.array(entry["values"], entry["dtype"]).reshape(entry["shape"])
            for key, entry in OUTPUTS[program].items()}


def assert_outputs_equal(ours, theirs):
    assert sorted(ours) == sorted(theirs)
    for key, expected in theirs.items():
        assert ours[key].dtype == expected.dtype, key
        assert ours[key].shape == expected.shape, key
        np.testing.assert_allclose(ours[key], expected, rtol=1e-6, err_msg=key)


@pytest.fixture(scope="module")
def engine_saved(tmp_path_factory):
    """{program: the engine's SavedModel of it}."""
    root = tmp_path_factory.mktemp("saved")
    for name, (save, _) in cases.PROGRAMS.items():
        save(tf, root / name)
    return {name: root / name for name in cases.PROGRAMS}


@pytest.fixture(scope="module")
def engine_module(engine_saved):
    return engine_saved["scaler"]


def _structure(export_dir):
    saved_model = saved_model_pb2.SavedModel()
    saved_model.ParseFromString((export_dir / "saved_model.pb").read_bytes())
    return cases.structure(saved_model, trackable_object_graph_pb2.TrackableObjectGraph())


@pytest.mark.parametrize("program", sorted(cases.PROGRAMS))
def test_engine_saved_model_has_tensorflows_structure(engine_saved, program):
    """Signature keys, inputs and outputs (names, dtypes, shapes), object graph node kinds,
    children and variables, function names and bound inputs, as TensorFlow writes them."""
    assert _structure(engine_saved[program]) == STRUCTURES[program]


@pytest.mark.parametrize("program", sorted(cases.PROGRAMS))
def test_engine_variables_are_tensorflows_bytes(engine_saved, program):
    """variables/ (each variable by its object path, the object graph) byte for byte."""
    for name in ("variables.index", "variables.data-00000-of-00001"):
        theirs = FIXTURES / f"tf_{program}" / "variables" / name
        ours = engine_saved[program] / "variables" / name
        assert ours.read_bytes() == theirs.read_bytes(), name


def test_engine_saved_model_files(engine_module):
    assert (engine_module / "saved_model.pb").is_file()
    assert (engine_module / "assets").is_dir()
    reader = tf.train.load_checkpoint(str(engine_module / "variables" / "variables"))
    shapes = reader.get_variable_to_shape_map()
    assert shapes["w/.ATTRIBUTES/VARIABLE_VALUE"] == [2, 2]
    assert shapes["b/.ATTRIBUTES/VARIABLE_VALUE"] == [2]
    assert "_CHECKPOINTABLE_OBJECT_GRAPH" in shapes


@pytest.mark.parametrize("program", sorted(cases.PROGRAMS))
def test_load_v2_of_tensorflows_saved_model_runs_to_tensorflows_values(program):
    run = cases.PROGRAMS[program][1]
    assert_outputs_equal(run(tf, FIXTURES / f"tf_{program}"), _expected_outputs(program))


@pytest.mark.parametrize("program", sorted(cases.PROGRAMS))
def test_load_v2_of_engines_saved_model_runs_to_tensorflows_values(engine_saved, program):
    run = cases.PROGRAMS[program][1]
    assert_outputs_equal(run(tf, engine_saved[program]), _expected_outputs(program))


def test_loaded_variables_wait_for_their_initializer():
    with tf.Graph().as_default(), tf.Session() as sess:
        loaded = tf.saved_model.load_v2(str(TF_MODULE))
        assert loaded.w in tf.global_variables() and loaded.b in tf.trainable_variables()
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(loaded.w)
        sess.run(loaded.w.initializer)
        np.testing.assert_array_equal(sess.run(loaded.w), [[2.0, 0.0], [1.0, -1.0]])


def test_load_v2_twice_in_one_graph_keeps_the_functions_apart():
    with tf.Graph().as_default(), tf.Session() as sess:
        first = tf.saved_model.load_v2(str(TF_MODULE))
        second = tf.saved_model.load_v2(str(TF_MODULE))
        x = tf.constant(cases.X)
        outputs = [first.apply(x)["y"], second.apply(x)["y"]]
        sess.run(tf.global_variables_initializer())
        a, b = sess.run(outputs)
    np.testing.assert_array_equal(a, b)
    assert first.w is not second.w


def test_restored_function_refuses_arguments_no_trace_fits():
    with tf.Graph().as_default():
        loaded = tf.saved_model.load_v2(str(FIXTURES / "tf_nested"))
        # scale was saved without an input signature: its one trace takes a float vector
        with pytest.raises(ValueError, match="Could not find matching concrete function"):
            loaded.scale(tf.constant([1, 2]))
        with pytest.raises(TypeError, match="unexpected keyword argument 'y'"):
            loaded.signatures["serving_default"](y=tf.constant(cases.X))


@pytest.mark.parametrize("name", sorted(cases.ERROR_CASES))
def test_errors_in_tensorflows_words(name, tmp_path):
    expected = json.loads((FIXTURES / "errors.json").read_text())[name]
    assert cases.error_of(tf, name, tmp_path / name) == expected


def test_ref_variables_are_refused_in_one_line(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        module = tf.Module()
        module.v = tf.Variable(1.0, use_resource=False)
        sess.run(tf.global_variables_initializer())
        with pytest.raises(TypeError, match="resource variables only"):
            tf.saved_model.save(module, str(tmp_path / "ref"))


def test_signature_defaults_to_the_roots_only_traced_function(tmp_path):
    with tf.Graph().as_default(), tf.Session() as sess:
        module = tf.Module()
        module.v = tf.Variable(2.0, use_resource=True)
        module.double = tf.function(lambda x: x * module.v,
                                    input_signature=[tf.TensorSpec([], tf.float32, name="x")])
        sess.run(tf.global_variables_initializer())
        tf.saved_model.save(module, str(tmp_path / "plain"))
    with tf.Graph().as_default(), tf.Session() as sess:
        loaded = tf.saved_model.load_v2(str(tmp_path / "plain"))
        assert sorted(loaded.signatures) == ["serving_default"]
        result = loaded.signatures["serving_default"](x=tf.constant(4.0))
        sess.run(tf.global_variables_initializer())
        assert sess.run(result) == {"output_0": 8.0}


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, args)], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


def test_cli_runs_an_engine_saved_model_signature(engine_module):
    result = _cli("run", engine_module, "--signature", "clip", "--feed", "v=[1.5,-0.25]")
    assert result.returncode == 0, result.stderr
    assert "output_0 = [ 0.75   -0.0625]" in result.stdout
    assert "output_1 = 1.5" in result.stdout
    info = _cli("info", engine_module)
    assert info.returncode == 0, info.stderr
    assert "signature 'serving_default': tensorflow/serving/predict" in info.stdout
    assert "calls apply (__inference_apply_" in info.stdout


# TensorFlow's own TF2 SavedModels of tools/make_tf2_run_fixtures.py and
# make_tf2_model_fixtures.py (Keras models, loops over TensorArrays, a training step, lookup
# tables from constants and from a vocabulary file asset, a multi-hot encoder), with the
# inputs and outputs TensorFlow's signatures gave; lookup_module holds a mutable table, whose
# state in the checkpoint load_v2 does not restore yet.
TF2_FOLDERS = [FIXTURES.parent / "tf2_run", FIXTURES.parent / "tf2_models"]
NOT_REBUILT = {"lookup_module"}


def _tf2_signatures():
    found = {}
    for folder in TF2_FOLDERS:
        expected = np.load(folder / "expected.npz")
        for key in expected.keys():
            parts = key.split("/")
            if len(parts) != 3 or parts[0] in NOT_REBUILT or \
                    not (folder / parts[0] / "saved_model.pb").is_file():
                continue
            found.setdefault((folder.name, parts[0], parts[1]), {})[parts[2]] = expected[key]
    return found


TF2_SIGNATURES = _tf2_signatures()


@pytest.mark.parametrize("folder, model, signature", sorted(TF2_SIGNATURES))
def test_load_v2_runs_tensorflows_tf2_models_to_tensorflows_values(folder, model, signature):
    arrays = TF2_SIGNATURES[(folder, model, signature)]
    with tf.Graph().as_default(), tf.Session() as sess:
        loaded = tf.saved_model.load_v2(str(FIXTURES.parent / folder / model))
        function = loaded.signatures[signature]
        names = sorted(function.structured_input_signature[1])
        outputs = function(**{name: tf.constant(arrays[name]) for name in names})
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        values = sess.run(outputs)
    assert set(values) == set(arrays) - set(names)
    for name, value in values.items():
        if value.dtype.kind in "OSUb" or arrays[name].dtype.kind in "iu":
            np.testing.assert_array_equal(value, arrays[name], err_msg=name)
        else:
            np.testing.assert_allclose(value, arrays[name], rtol=1e-5, atol=1e-6, err_msg=name)


def test_load_v2_says_what_it_does_not_rebuild():
    with tf.Graph().as_default(), pytest.raises(NotImplementedError,
                                                match="mutable lookup table"):
        tf.saved_model.load_v2(str(FIXTURES.parent / "tf2_models" / "lookup_module"))
