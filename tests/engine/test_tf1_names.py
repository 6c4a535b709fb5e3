"""TF 1.x's renamed names are the current objects, and a missing API says it is not supported."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.framework.api_namespace import NotSupportedError
from engine.api.renames import RENAMED

REPO = Path(__file__).resolve().parents[2]


def resolve(dotted):
    value = tf
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_old_name_is_the_renamed_object(old):
    assert resolve(old) is resolve(RENAMED[old])


def test_renamed_names_build_what_the_new_names_build():
    tf.reset_default_graph()
    x, y = tf.constant([4.0, 9.0]), tf.constant([2.0, 3.0])
    ops = [tf.mul(x, y), tf.sub(x, y), tf.neg(x), tf.pack([x, y]), tf.inv(y),
           tf.select(tf.constant([True, False]), x, y)]
    assert [op.op.type for op in ops] == ["Mul", "Sub", "Neg", "Pack", "Reciprocal", "Select"]
    with tf.Session() as sess:
        assert [v.tolist() for v in sess.run(ops)] == [
            [8.0, 27.0], [2.0, 6.0], [-4.0, -9.0], [[4.0, 9.0], [2.0, 3.0]],
            [0.5, float(np.float32(1) / np.float32(3))], [4.0, 3.0]]


@pytest.mark.parametrize("name, message", [
    ("tf.LMDBReader", "tf.LMDBReader is not supported by the engine yet"),
    ("tf.io.decode_jxl", "tf.io.decode_jxl is not supported by the engine yet"),
    ("tf.image.decode_jxl", "tf.image.decode_jxl is not supported by the engine yet"),
    ("tf.estimator", "tf.estimator is not supported by the engine yet"),
    ("tf.metrics.NotAMetric", "tf.metrics.NotAMetric is not supported by the engine yet"),
    ("tf.gfile.NotAFunction", "tf.gfile.NotAFunction is not supported by the engine yet"),
    ("tf.contrib", "tf.contrib is not supported: the engine has TensorFlow 1.x's core API, "
                   "not tf.contrib"),
])
def test_missing_api_names_itself(name, message):
    with pytest.raises(NotSupportedError) as caught:
        resolve(name.removeprefix("tf."))
    assert str(caught.value) == message
    assert isinstance(caught.value, AttributeError)


def test_hasattr_stays_false_for_missing_names():
    assert not hasattr(tf, "contrib") and not hasattr(tf.io, "decode_jxl")
    assert not hasattr(tf.nn, "__wrapped__")


def test_eager_mode_is_refused_with_a_reason():
    with pytest.raises(NotSupportedError, match="eager execution is not supported"):
        tf.enable_eager_execution()


def test_a_program_using_a_missing_api_fails_naming_it(tmp_path):
    program = tmp_path / "uses_contrib.py"
    program.write_text("import engine as tf\nx = tf.contrib.layers.fully_connected\n")
    result = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                            env={"PYTHONPATH": str(REPO)}, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "engine.framework.api_namespace.NotSupportedError: tf.contrib is not supported: "
        "the engine has TensorFlow 1.x's core API, not tf.contrib")
