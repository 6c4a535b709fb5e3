"""tf.nn's convolution and pooling wrappers, relu_layer, batch_norm_with_global_normalization,
compute_average_loss and scale_regularization_loss against TensorFlow 2.21 (tf.compat.v1):
values, gradients, static shapes and graphs node for node
(tests/engine/conv_wrapper_cases.py; fixtures by tools/make_conv_wrapper_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import conv_wrapper_cases as cases  # noqa: E402

TF = tf_fixture_set.load("conv_wrappers")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_match_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    assert set(values) == {key.split("__", 1)[1] for key in TF.values.files
                           if key.startswith(name + "__")}
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if value.dtype.kind == "f":
            # The wrappers add no arithmetic of their own; the convolutions' sums run in
            # Eigen's blocked order in TensorFlow and the engine's in its own: 1e-5 relative.
            np.testing.assert_allclose(value, want, rtol=1e-5, atol=1e-6, err_msg=key)
        else:
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


def test_explicit_padding_must_be_pairs():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="must be a list/tuple of size 2"):
            tf.nn.conv2d_backprop_filter(tf.constant(cases.IMAGES), [3, 3, 3, 4],
                                         tf.constant(cases.OUT_SAME), [1, 1, 1, 1],
                                         [[0, 0], [1, 1, 1], [0, 2], [0, 0]])


def test_pool_rank_must_be_3_to_5():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="`input.shape.rank` must be 3, 4 or 5"):
            tf.nn.max_pool_v2(tf.constant(cases.MATRIX), 2, 2, "VALID")


def test_compute_average_loss_wants_rank_1():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Expected a tensor with at least rank 1"):
            tf.nn.compute_average_loss(tf.constant(1.0))
