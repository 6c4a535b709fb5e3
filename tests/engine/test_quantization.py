"""Fake quantization (tests/engine/quantization_cases.py) against TensorFlow 2.21
(tf.compat.v1): values and the gradients of every input bit for bit, static shapes, graphs
node for node, the kernels' errors and the shape functions' (fixtures by
tools/make_quantization_fixtures.py)."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import quantization_cases as cases  # noqa: E402

TF = tf_fixture_set.load("quantization")


def _bits(value):
    """float32 bits, every NaN one pattern (TensorFlow's NaN payloads are not the point)."""
    value = np.asarray(value)
    if value.dtype != np.float32:
        return value
    return np.where(np.isnan(value), np.uint32(0x7FC00000), value.view(np.uint32))


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_are_tensorflows_bits(name):
    """Outputs and gradients (the straight-through estimator, min's and max's sums) equal bit
    for bit, -0.0 included; the float64 loss is a sum in Eigen's order: to 1e-13."""
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if key == "loss":
            np.testing.assert_allclose(value, want, rtol=1e-13, err_msg=key)
        else:
            np.testing.assert_array_equal(_bits(value), _bits(want), err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


def test_shape_function_errors_are_tensorflows():
    want = json.loads((TF.folder / "python_errors.json").read_text())
    assert cases.python_errors(tf) == want


@pytest.mark.parametrize("inputs, expected", [
    (([None, 3], None, None, None), [[None, 3], [3], [3]]),
    ((None, None, [5], None), [None, [5], [5]]),
    ((None, [2, 3], None, [None]), [[2, 3], [3], [3]]),
    ((None, [2, None], None, [4]), [[2, None], [4], [4]]),
])
def test_per_channel_gradient_static_shapes_are_tensorflows(inputs, expected):
    """TensorFlow's shapes for partly known inputs (read off tf.compat.v1 by hand)."""
    with tf.Graph().as_default():
        outs = tf.fake_quant_with_min_max_vars_per_channel_gradient(
            *[tf.placeholder(tf.float32, shape) for shape in inputs])
    assert [out.shape.as_list() if out.shape.ndims is not None else None
            for out in outs] == expected


def test_args_gradient_shape_is_the_gradients():
    """TensorFlow's UnchangedShape: the inputs' shape is not merged in."""
    with tf.Graph().as_default():
        out = tf.fake_quant_with_min_max_args_gradient(tf.placeholder(tf.float32, [2, None]),
                                                       tf.placeholder(tf.float32, [None, 3, 4]))
    assert out.shape.as_list() == [2, None]


def test_quantization_namespace_is_the_top_level_functions():
    for name in ("fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
                 "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
                 "fake_quant_with_min_max_vars_per_channel",
                 "fake_quant_with_min_max_vars_per_channel_gradient"):
        assert getattr(tf.quantization, name) is getattr(tf, name)


def test_quantized_dtypes_answer_as_tensorflows():
    want = json.loads((TF.folder / "dtypes.json").read_text())
    assert json.loads(json.dumps(cases.dtype_answers(tf))) == want
