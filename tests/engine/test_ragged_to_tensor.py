"""RaggedTensorToTensor (RaggedTensor.to_tensor) gives TensorFlow's padded tensors and errors
(tests/fixtures/tf2_models/expected.npz, tools/make_tf2_model_fixtures.py's RAGGED_CASES)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from engine.framework import errors

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from make_tf2_model_fixtures import (RAGGED_CASES, RAGGED_GRADIENT_CASES,  # noqa: E402
                                     ragged_weights)

EXPECTED = np.load(ROOT / "tests" / "fixtures" / "tf2_models" / "expected.npz")


def _run(case):
    shape, values, default, partitions, kinds = RAGGED_CASES[case]
    with tf.Graph().as_default():
        result = tf.raw_ops.RaggedTensorToTensor(
            shape=shape, values=values, default_value=default,
            row_partition_tensors=partitions, row_partition_types=kinds)
        static = result.shape.as_list() if result.shape.ndims is not None else None
        with tf.Session() as sess:
            return static, sess.run(result)


@pytest.mark.parametrize("case", [c for c in RAGGED_CASES
                                  if f"ragged_to_tensor/{c}/result" in EXPECTED.files])
def test_padded_like_tensorflow(case):
    want = EXPECTED[f"ragged_to_tensor/{case}/result"]
    static, got = _run(case)
    if want.dtype.kind == "S":  # the engine's strings are bytes in object arrays
        assert got.dtype == object
        got = got.astype(bytes)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert static is not None and len(static) == want.ndim
    assert all(d is None or d == w for d, w in zip(static, want.shape))


@pytest.mark.parametrize("case", [c for c in RAGGED_CASES
                                  if f"ragged_to_tensor/{c}/error" in EXPECTED.files])
def test_errors_like_tensorflow(case):
    with pytest.raises(errors.InvalidArgumentError) as raised:
        _run(case)
    assert str(EXPECTED[f"ragged_to_tensor/{case}/error"]) in raised.value.message


@pytest.mark.parametrize("case", RAGGED_GRADIENT_CASES)
def test_gradients_like_tensorflow(case):
    """What the padding kept goes back to its flat value (cut values get 0), what the default
    filled is summed into the default's gradient."""
    shape, values, default, partitions, kinds = RAGGED_CASES[case]
    want_values = EXPECTED[f"ragged_to_tensor/{case}/grad_values"]
    want_default = EXPECTED[f"ragged_to_tensor/{case}/grad_default"]
    with tf.Graph().as_default():
        values, default = tf.constant(values), tf.constant(default)
        result = tf.raw_ops.RaggedTensorToTensor(
            shape=shape, values=values, default_value=default,
            row_partition_tensors=partitions, row_partition_types=kinds)
        weights = tf.constant(ragged_weights(EXPECTED[f"ragged_to_tensor/{case}/result"].shape,
                                             result.dtype.as_numpy_dtype))
        grads = tf.gradients(tf.reduce_sum(result * weights), [values, default])
        with tf.Session() as sess:
            got_values, got_default = sess.run([tf.convert_to_tensor(grads[0]), grads[1]])
    np.testing.assert_array_equal(got_values, want_values)
    np.testing.assert_array_equal(got_default, want_default)
