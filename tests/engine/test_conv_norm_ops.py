"""tf.nn.depthwise_conv2d (DepthwiseConv2dNative and its two backprops) and tf.nn.lrn (LRN,
LRNGrad) against TensorFlow 2.21 (tf.compat.v1): values, gradients (second order through
the backprops too), static shapes, graphs node for node and the kernels' errors
(tests/engine/conv_norm_cases.py; fixtures by tools/make_conv_norm_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import conv_norm_cases as cases  # noqa: E402
import tf_fixture_set  # noqa: E402

TF = tf_fixture_set.load("conv_norm")
TF_VALUES, TF_SHAPES, TF_NODES = TF.values, TF.shapes, TF.nodes
TF_ERRORS = TF.errors
# TensorFlow's float kernels sum in another order (and LRN's in float32, the engine's in
# float64); float16 LRN rounds each step to half in TensorFlow, once in the engine.
TOLERANCE = {np.dtype(np.float64): dict(rtol=1e-12, atol=1e-12),
             np.dtype(np.float32): dict(rtol=2e-5, atol=2e-6),
             np.dtype(np.float16): dict(rtol=4e-3, atol=4e-3)}


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF_VALUES.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF_VALUES[f"{name}__{key}"]
        assert np.asarray(value).dtype == want.dtype, key
        np.testing.assert_allclose(np.asarray(value, np.float64), want.astype(np.float64),
                                   err_msg=key, **TOLERANCE[want.dtype])
    assert shapes == TF_SHAPES[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    with tf.Graph().as_default() as graph:
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == TF_NODES[name]


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    assert list(cases.run_error_case(tf, name)) == TF_ERRORS[name]


def test_static_shape_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
            tf.nn.lrn(tf.zeros([2, 3, 4]))
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
            tf.nn.depthwise_conv2d(tf.zeros([1, 4, 4, 3]), tf.zeros([2, 2, 2, 1]),
                                   [1, 1, 1, 1], "SAME")
        # Dtypes outside the OpDef's list fail as TensorFlow's do, at graph construction.
        with pytest.raises(TypeError, match="float64"):
            tf.nn.lrn(tf.zeros([1, 2, 2, 3], tf.float64))
