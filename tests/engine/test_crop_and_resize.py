"""tf.image.crop_and_resize against TensorFlow 2.21 (tf.compat.v1): crops (bilinear and
nearest, extrapolated, one-pixel crops, float64 and uint8 images), the gradients to the image
and to the boxes, static shapes, graphs node for node and the kernels' errors
(tests/engine/crop_and_resize_cases.py; fixtures by tools/make_crop_and_resize_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import crop_and_resize_cases as cases  # noqa: E402

TF = tf_fixture_set.load("crop_and_resize")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if key == "loss":   # a float64 sum of squares, in NumPy's order
            np.testing.assert_allclose(value, want, rtol=1e-12, err_msg=key)
        else:               # the kernels' own float32 arithmetic, in their order
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)
