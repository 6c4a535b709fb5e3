"""tf.sort, argsort, repeat, ensure_shape, parallel_stack, fingerprint and the other array and
shape ops of tests/engine/array_shape_cases.py against TensorFlow 2.21 (tf.compat.v1): values,
gradients, static shapes, graphs node for node, the kernels' errors and the Python layer's
(fixtures by tools/make_array_shape_fixtures.py)."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import array_shape_cases as cases  # noqa: E402

TF = tf_fixture_set.load("array_shape")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_are_tensorflows_bits(name):
    """Sorting, repeating and stacking move values: outputs and gradients equal bit for bit.
    The loss is a float64 sum whose order is Eigen's reducer's, not NumPy's pairwise one: it
    agrees to 1e-13."""
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
            np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


def test_python_errors_are_tensorflows():
    want = json.loads((TF.folder / "python_errors.json").read_text())
    ours = cases.python_errors(tf)
    assert set(ours) == set(want)
    for name, found in ours.items():
        assert found is not None and want[name] is not None, name
        kind, message = found
        assert kind == want[name][0], name
        assert message == want[name][1] or want[name][1].startswith(message + " for '{{node "), name


def test_predicates_converters_and_count_up_to_answer_as_tensorflow():
    """is_tensor, is_numeric_tensor, get_static_value, dimension_value, dimension_at_index,
    the two converters, count_up_to (values, then OutOfRangeError at the limit) and
    ensure_shape's run-time check, question by question."""
    want = json.loads((TF.folder / "api.json").read_text())
    ours = json.loads(json.dumps(cases.api_answers(tf)))
    assert set(ours) == set(want)
    for key in want:
        assert ours[key] == want[key], key


def test_timestamp_is_the_time_it_runs():
    import time
    with tf.Graph().as_default():
        stamp = tf.timestamp()
        with tf.Session() as sess:
            before = time.time()
            first, second = sess.run(stamp), sess.run(stamp)
            after = time.time()
    assert isinstance(first, np.float64) and before - 1e-6 <= first <= second <= after + 1e-6
