"""tf.linalg.pinv, expm, lu and lu_solve against TensorFlow 2.21 (tf.compat.v1): values,
gradients, static shapes, graphs node for node (expm's cond and while loop included), the Lu
kernel's errors and the Python layer's (tests/engine/matrix_functions_cases.py; fixtures by
tools/make_matrix_functions_fixtures.py)."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import matrix_functions_cases as cases  # noqa: E402

TF = tf_fixture_set.load("matrix_functions")
# The products, SVD and solves are LAPACK's and NumPy's, not Eigen's: they round apart.
TOLERANCE = {np.dtype(np.float64): dict(rtol=1e-9, atol=1e-10),
             np.dtype(np.float32): dict(rtol=2e-4, atol=2e-5)}


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if want.dtype.kind == "i":
            np.testing.assert_array_equal(value, want, err_msg=key)   # Lu's permutation
        else:
            # (the loss is float64 whatever the case's dtype: the case's tolerance)
            tolerance = TOLERANCE[np.dtype(cases.CASES[name][1].dtype)]
            np.testing.assert_allclose(value, want, err_msg=key, **tolerance)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_lu_kernel_errors_are_tensorflows(name):
    assert list(cases.run_error_case(tf, name)) == TF.errors[name]


def test_python_errors_are_tensorflows():
    """The engine's shape functions say what TensorFlow's do without the node after it
    ("... for '{{node Lu}} = Lu[...]' with input shapes: [2,3]."), as for every op."""
    want = json.loads((TF.folder / "python_errors.json").read_text())
    ours = cases.python_errors(tf)
    assert set(ours) == set(want)
    for name, (kind, message) in ours.items():
        assert kind == want[name][0], name
        assert message == want[name][1] or want[name][1].startswith(message + " for '{{node ")


def test_lu_pivots_as_eigen_does():
    """The largest |value| of each column is the pivot, the first of equal ones: TensorFlow's
    permutation and factors for this matrix ([[7, 8, 10], [1/7, 6/7, 11/7], [4/7, 1/2, -1/2]])."""
    with tf.Graph().as_default(), tf.Session() as sess:
        lower_upper, perm = sess.run(tf.linalg.lu(np.array([[1., 2, 3], [4, 5, 6], [7, 8, 10]])))
    assert perm.tolist() == [2, 0, 1]
    np.testing.assert_allclose(lower_upper, [[7, 8, 10], [1 / 7, 6 / 7, 11 / 7],
                                             [4 / 7, 0.5, -0.5]], rtol=1e-12)
