"""tf.nn.conv3d, max_pool3d and avg_pool3d against TensorFlow 2.21 (tf.compat.v1): values,
gradients (second order through the backprops too), static shapes and graphs node for node
(tests/engine/volumetric_cases.py; fixtures by tools/make_volumetric_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import volumetric_cases as cases  # noqa: E402

TF = tf_fixture_set.load("volumetric")
# Max pooling selects values: TensorFlow's bits. Convolutions and average pooling sum in
# another order than Eigen's (the tolerances of tests/engine/test_conv_norm_ops.py).
TOLERANCE = {np.dtype(np.float64): dict(rtol=1e-12, atol=1e-12),
             np.dtype(np.float32): dict(rtol=2e-5, atol=2e-6)}
EXACT = {"max_pool3d_valid", "max_pool3d_same_overlap", "max_pool3d_second_order"}


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if name in EXACT and key != "loss":
            np.testing.assert_array_equal(value, want, err_msg=key)
        else:
            # The loss is a float64 sum of the outputs' squares: as close as the outputs are
            # (a float32 convolution's sums vary with OpenBLAS's kernels, Haswell or SkylakeX).
            source = TF.values[f"{name}__out0"].dtype if key == "loss" else want.dtype
            np.testing.assert_allclose(value, want, err_msg=key, **TOLERANCE[source])
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


def test_max_pool3d_grad_feeds_every_input_within_1e_5_of_the_max():
    """TensorFlow's MaxPool3DGrad masks |input - max| < 1e-5, not exact ties: values TF 2.21
    printed for these windows (the engine gave 3.0's and 1.0's share to nobody)."""
    x = np.array([1.0, 1.0 - 5e-6, 1.0 - 2e-5, 0.5, 3.0, 3.0 + 9e-6, -4.0, 2.99998], np.float32)
    d = np.array([1e-6, 1.0 + 1e-6, 1.0, 1e-6 - 1e-5, -2e-6, 0.0], np.float32)
    with tf.Graph().as_default():
        t = tf.constant(x.reshape(1, 1, 2, 4, 1))
        y = tf.nn.max_pool3d(t, [1, 1, 2, 2, 1], [1, 1, 2, 2, 1], "VALID")
        g = tf.gradients(y, t, grad_ys=tf.constant([[[[[10.0], [100.0]]]]]))[0]
        c = tf.constant(d.reshape(1, 1, 1, 6, 1))
        gd = tf.gradients(tf.nn.max_pool3d(c, [1, 1, 1, 3, 1], [1, 1, 1, 3, 1], "VALID"), c)[0]
        with tf.Session() as sess:
            got, got_d = sess.run([g, gd])
    assert got.ravel().tolist() == [0.0, 0.0, 0.0, 0.0, 10.0, 10.0, 0.0, 100.0]
    assert got_d.ravel().tolist() == [0.0, 1.0, 1.0, 1.0, 1.0, 1.0]
