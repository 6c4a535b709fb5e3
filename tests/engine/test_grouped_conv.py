"""Grouped Conv2D (a Keras Conv2D(groups=2) model failed: 'input depth must be evenly
divisible by filter depth: 4 vs 2', though 4 is) against TensorFlow 2.21's values, and the
kernels' errors for grouped inputs in TensorFlow's words: its gradients and grouped Conv3D,
which TensorFlow's CPU kernels refuse (tests/engine/grouped_conv_cases.py; fixtures by
tools/make_grouped_conv_fixtures.py)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import grouped_conv_cases as cases  # noqa: E402

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "ops" / "grouped_conv.npz")
TOLERANCE = {np.dtype(np.float64): dict(rtol=1e-12, atol=1e-12),
             np.dtype(np.float32): dict(rtol=1e-5, atol=1e-6)}


@pytest.mark.parametrize("name", list(cases.VALUE_CASES))
def test_grouped_conv2d_gives_tensorflows_values(name):
    got = cases.run_value_case(tf, name)
    want = FIXTURE[f"value__{name}"]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, **TOLERANCE[want.dtype])


def test_a_bias_and_relu_after_a_grouped_conv2d_are_fused_by_the_remapper():
    """The engine's remapper makes them a _FusedConv2D, whose kernel takes the groups (the
    values: test_grouped_conv2d_gives_tensorflows_values[bias_relu_after])."""
    x_value, f_value, kwargs, _ = cases.VALUE_CASES["bias_relu_after"]
    with tf.Graph().as_default():
        x, f = tf.placeholder(tf.float32, x_value.shape), tf.placeholder(tf.float32, f_value.shape)
        y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, f, **kwargs), tf.ones([4])))
        with tf.Session() as sess:
            run_metadata = tf.RunMetadata()
            sess.run(y, {x: x_value, f: f_value},
                     options=tf.RunOptions(output_partition_graphs=True),
                     run_metadata=run_metadata)
    assert "_FusedConv2D" in {node.op for g in run_metadata.partition_graphs for node in g.node}


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_grouped_kernel_errors_are_tensorflows(name):
    assert list(cases.run_error_case(tf, name)) == FIXTURE[f"error__{name}"].tolist()
