"""tf.nn's CTC functions against TensorFlow 2.21 (tf.compat.v1): ctc_loss and its gradient
(options, batch-major, float64, no valid path, ignored long labels), ctc_loss_v2 with sparse
and dense labels, the greedy and beam search decoders (ties, wide beams), collapse_repeated,
ctc_unique_labels; static shapes, graphs node for node, the kernels' errors
(tests/engine/ctc_cases.py; fixtures by tools/make_ctc_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import ctc_cases as cases  # noqa: E402

TF = tf_fixture_set.load("ctc")
# Losses, gradients and log probabilities: TensorFlow's softmax and sums are Eigen's packet
# exp and its reduction order, the engine's NumPy's; over these few steps the two stay within
# 1e-5 relative, 2e-6 absolute in float32. TensorFlow's float64 kernel takes log1pf, expf
# and the gradient's expf in float (ctc_loss_util.h, ctc_loss_calculator.h), as the engine's
# does, but NumPy's float32 exp and log1p are not glibc's: 1e-6 relative, 5e-7 absolute.
# Decoded labels and integer outputs are compared exactly.
FLOAT_TOLERANCE = {np.dtype(np.float32): dict(rtol=1e-5, atol=2e-6),
                   np.dtype(np.float64): dict(rtol=1e-6, atol=5e-7)}


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_match_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if value.dtype.kind == "f":
            np.testing.assert_allclose(value, want, err_msg=key,
                                       **FLOAT_TOLERANCE[value.dtype])
        else:
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == {**TF.shapes[name], **cases.STATIC_SHAPES_DIFFER.get(name, {})}


@pytest.mark.parametrize("name", sorted(set(cases.CASES) - cases.NODES_DIFFER))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


def test_ctc_loss_wants_a_sparse_tensor():
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="Expected argument `labels` to be a SparseTensor"):
            tf.nn.ctc_loss(tf.constant([[1]]), tf.constant(cases.LOGITS), cases.LENGTHS)


def test_ctc_loss_v2_sparse_labels_want_a_blank_index():
    with tf.Graph().as_default():
        labels = tf.SparseTensor(cases.INDICES, cases.VALUES, cases.SHAPE)
        with pytest.raises(ValueError, match="`blank_index` must be provided"):
            tf.nn.ctc_loss_v2(labels, tf.constant(cases.LOGITS), None, cases.LENGTHS)


def test_second_derivative_is_prevented():
    with tf.Graph().as_default():
        x = tf.constant(cases.LOGITS)
        labels = tf.SparseTensor(cases.INDICES, cases.VALUES, cases.SHAPE)
        grad = tf.gradients(tf.nn.ctc_loss(labels, x, cases.LENGTHS), x)[0]
        with pytest.raises(LookupError, match="second  derivative of ctc_loss"):
            tf.gradients(grad, x)


def test_static_shapes_are_checked():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
            tf.nn.ctc_greedy_decoder(tf.constant(cases.LOGITS), tf.constant([6, 5]))
