"""tf.random's stateless samplers, fold_in, split, experimental.stateless_shuffle and
create_rng_state against TensorFlow 2.21 (tf.compat.v1): values bit for bit (dtype and shape
too), static shapes, graphs node for node, the stateless gamma's gradient, the kernels' errors
and the Python-level ones (tests/engine/stateless_random_cases.py; fixtures by
tools/make_stateless_random_fixtures.py)."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import stateless_random_cases as cases  # noqa: E402

TF = tf_fixture_set.load("stateless_random")
API_ERRORS = json.loads((TF.folder / "api_errors.json").read_text())


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_are_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        np.testing.assert_array_equal(np.asarray(value), want, err_msg=key, strict=True)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", cases.API_ERROR_CASES)
def test_python_errors_are_tensorflows(name):
    assert list(cases.run_api_error_case(tf, name)) == API_ERRORS[name]


def test_algorithm_enum_and_draws_repeat_across_runs():
    assert [a.value for a in tf.random.Algorithm] == [1, 2, 3]
    with tf.Graph().as_default():
        draws = tf.random.stateless_normal([5], seed=[4, 2])
        with tf.Session() as sess:
            first, second = sess.run(draws), sess.run(draws)
    np.testing.assert_array_equal(first, second)


def test_counter_of_one_word_is_refused():
    # TensorFlow reads Philox's second counter word past the end of a one-word counter.
    with tf.Graph().as_default():
        out = tf.raw_ops.StatelessRandomUniformV2(
            shape=[2], key=np.array([7], np.uint64), counter=np.array([1], np.uint64),
            alg=1, dtype=tf.float32)
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                                 match="length at least 2"):
            sess.run(out)


def test_keras_dropout_and_random_flip_in_a_saved_model_give_tensorflows_values(tmp_path,
                                                                               capsys):
    """Keras 3 Dropout and RandomFlip called with training=True in a TF2 SavedModel: their
    seed generators' variables feed StatelessRandomGetKeyCounter and StatelessRandomUniformV2
    (tools/make_stateless_saved_model_fixtures.py); the first run after loading draws what
    TensorFlow drew."""
    from engine.proto import saved_model_pb2
    from inspector.cli import main
    folder = TF.folder / "keras_random"
    saved = saved_model_pb2.SavedModel.FromString((folder / "saved_model.pb").read_bytes())
    ops = {node.op for function in saved.meta_graphs[0].graph_def.library.function
           for node in function.node_def}
    assert {"StatelessRandomGetKeyCounter", "StatelessRandomUniformV2"} <= ops
    expected = np.load(folder / "expected.npz")
    feeds = []
    for key in ("x", "image"):
        np.save(tmp_path / f"{key}.npy", expected[f"serving_default/{key}"])
        feeds += ["--feed", f"{key}={tmp_path / f'{key}.npy'}"]
    status = main(["run", str(folder), "--signature", "serving_default", *feeds,
                   "--save", str(tmp_path / "out.npz")])
    assert (status, capsys.readouterr().err) == (0, "")
    got = np.load(tmp_path / "out.npz")
    for key in ("dropped", "flipped"):
        np.testing.assert_array_equal(got[key], expected[f"serving_default/{key}"],
                                      strict=True, err_msg=key)
