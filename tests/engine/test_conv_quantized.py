"""tf.conv, tf.conv2d_backprop_*_v2, tf.nn's quantized ops and
tf.image.generate_bounding_box_proposals
(tests/engine/conv_quantized_cases.py) against TensorFlow 2.21 (tf.compat.v1): values, static
shapes, graphs node for node, the kernels' errors and the shape functions' (fixtures by
tools/make_conv_quantized_fixtures.py)."""

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import conv_quantized_cases as cases  # noqa: E402

TF = tf_fixture_set.load("conv_quantized")
# float32 and float16: TensorFlow's bits (the fixtures' Conv2D/Conv3D sums agree); float64 sums are
# Eigen's contraction blocks in another order, an ulp or two apart.
_TOLERANCE = {"float32": 0, "float64": 1e-14, "float16": 0}


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_shapes_are_tensorflows(name):
    """Quantized outputs and ranges bit for bit; float convolutions as the Conv2D/Conv3D
    kernels add them (see _TOLERANCE)."""
    values, shapes = cases.run_case(tf, name)
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if name.startswith("conv_"):
            tolerance = _TOLERANCE[value.dtype.name]
            np.testing.assert_allclose(value, want, rtol=tolerance, atol=tolerance, err_msg=key)
        else:
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


def _attrs_as_set(message):
    """TensorFlow lists a missing kernel's attrs in its map's order, the engine sorted."""
    match = re.search(r"with these attrs: \[(.*)\]", message)
    return message if match is None else (message[:match.start()],
                                          sorted(match.group(1).split(", ")))


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    kind, message = cases.run_error_case(tf, name)
    want_kind, want_message = TF.errors[name]
    assert kind == want_kind
    assert _attrs_as_set(message) == _attrs_as_set(want_message)


def test_shape_function_errors_are_tensorflows():
    want = json.loads((TF.folder / "python_errors.json").read_text())
    assert cases.python_errors(tf) == want


_GRAPHS = json.loads((TF.folder / "graphs.json").read_text())


@pytest.mark.parametrize("name", list(cases.GRAPH_CASES))
def test_graphs_of_ops_without_cpu_kernels_are_tensorflows(name):
    assert cases.graph_case(tf, name) == _GRAPHS[name]
