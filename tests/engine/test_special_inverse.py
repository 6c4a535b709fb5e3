"""tf.math.erfinv and tf.math.ndtri against TensorFlow 2.21 (tf.compat.v1): values (float32
bit for bit, packets and tail), gradients, static shapes, graphs node for node and the
kernels' errors (tests/engine/special_inverse_cases.py; fixtures by
tools/make_special_inverse_fixtures.py, whose `--check 1000000` found 0 float32 values
differing)."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import special_inverse_cases as cases  # noqa: E402

TF = tf_fixture_set.load("special_inverse")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if want.dtype == np.float32 and key.startswith("out"):
            np.testing.assert_array_equal(value, want, err_msg=key)   # Eigen's bits
        else:
            # float64's log is NumPy's, not Eigen's plog_double (an ulp apart at times);
            # the float32 gradients multiply by exp, summed in float64 by the loss
            np.testing.assert_allclose(value, want, rtol=2e-6 if "32" in name else 1e-13,
                                       err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


def test_an_integer_tensor_is_tensorflows_type_error():
    assert cases.type_error(tf) + "\n" == (TF.folder / "type_error.txt").read_text()


def test_erfinv_is_in_tf_math_only():
    assert tf.math.erfinv is not None and tf.math.ndtri is not None
    with pytest.raises(AttributeError):
        tf.erfinv  # noqa: B018  (tf.compat.v1 has no top-level erfinv)
