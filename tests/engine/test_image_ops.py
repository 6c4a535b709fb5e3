"""tf.image, tf.random_crop and tf.nn.depth_to_space / space_to_depth against TensorFlow 2.21
(tf.compat.v1): values, gradients, static shapes and graphs node for node
(tests/engine/image_cases.py; fixtures by tools/make_image_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import image_cases as cases  # noqa: E402
import tf_fixture_set  # noqa: E402

TF = tf_fixture_set.load("image")
# The kernels are TensorFlow's float operations in its order: their values are its bits.
# A case that sums (the loss, means and variances, a tensordot) sums in NumPy's order, not
# Eigen's: float32 sums of 60-120 terms, and the standardization's gradient (sums of
# products over the image) came within 2.3e-6 of TensorFlow's, relatively.
SUMMED = {"loss"}
SUMMED_CASES = {"per_image_standardization_3d", "per_image_standardization_4d",
                "rgb_to_grayscale"}
SUM_TOLERANCE = dict(rtol=3e-6, atol=2.5e-7)
# A depthwise convolution's filter sums: tests/engine/test_conv_norm_ops.py's tolerance.
CONVOLVED_CASES = {"sobel_edges"}
CONV_TOLERANCE = dict(rtol=2e-5, atol=2e-6)
# The engine's graph differs from TensorFlow's outside the image ops: the static shape of
# zeros(stack([batch, 1, width, depth])) of a known image is unknown to the engine (Fill's
# shape function does not evaluate the Pack of slices of a constant Shape), so ConcatV2's
# gradient asks a Shape op where TensorFlow has a Const.
GRAPH_DIFFERS = {"image_gradients"}


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype, key
        assert value.shape == want.shape, key
        if name in CONVOLVED_CASES and key != "out0":
            np.testing.assert_allclose(value, want, err_msg=key, **CONV_TOLERANCE)
        elif key in SUMMED or name in SUMMED_CASES:
            np.testing.assert_allclose(value, want, err_msg=key, **SUM_TOLERANCE)
        else:
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", [name for name in cases.CASES if name not in GRAPH_DIFFERS])
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)
