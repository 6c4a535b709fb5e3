"""tf.nn.separable_conv2d, tf.nn.atrous_conv2d, tf.layers.conv2d_transpose / Conv2DTranspose
and tf.layers.separable_conv2d / SeparableConv2D against TensorFlow 2.21: seeded initial
variables, outputs, gradients, variable names and graphs node for node
(tests/engine/spatial_cases.py; fixtures by tools/make_spatial_fixtures.py)."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import spatial_cases
from layers_cases import run_case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "spatial"
MANIFEST = json.loads((FIXTURES / "spatial.json").read_text())


def _key(name):
    return name.replace("__", ":").replace("--", "/")


@pytest.fixture(scope="module", params=sorted(spatial_cases.CASES))
def ran(request):
    return request.param, *run_case(tf, request.param, spatial_cases.CASES)


def test_values_and_gradients_equal_tensorflows(ran):
    # Initial variables are TensorFlow's Philox draws bit for bit; convolutions sum in
    # another order than Eigen's (the tolerance of tests/engine/test_conv_norm_ops.py).
    name, values, _ = ran
    expected = np.load(FIXTURES / f"{name}.npz")
    assert sorted(values) == sorted(_key(k) for k in expected.files)
    for key in expected.files:
        want, got = expected[key], values[_key(key)]
        assert got.shape == want.shape and got.dtype == want.dtype, key
        if key.startswith("init"):
            np.testing.assert_array_equal(got, want, err_msg=f"{name} {key}")
        else:
            np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6,
                                       err_msg=f"{name} {key}")


def test_graph_and_collections_equal_tensorflows(ran):
    name, _, description = ran
    for key in ["global_variables", "trainable_variables", "update_ops", "nodes", "ops"]:
        assert description[key] == MANIFEST[name][key], (name, key)
