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
            np.testing.assert_allclose(value, want, err_msg=key, **TOLERANCE[want.dtype])
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    with tf.Graph().as_default() as graph:
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == TF.nodes[name]


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    assert list(cases.run_error_case(tf, name)) == TF.errors[name]
