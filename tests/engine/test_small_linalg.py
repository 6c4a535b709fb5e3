"""tf.linalg.matvec, normalize, matrix_rank, sqrtm, logm, tridiagonal_matmul and
tridiagonal_solve against TensorFlow 2.21 (tf.compat.v1): values, gradients, static shapes,
graphs node for node, the kernels' errors and the Python layer's
(tests/engine/small_linalg_cases.py; fixtures by tools/make_small_linalg_fixtures.py)."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import small_linalg_cases as cases  # noqa: E402

TF = tf_fixture_set.load("small_linalg")
# Products, norms and sums are NumPy's (pairwise, BLAS) where TensorFlow's are Eigen's; the
# square root and logarithm go through an eigendecomposition where Eigen takes a Schur
# form; the solves are LAPACK's elimination order: all round apart from TensorFlow's, within
# these bounds (a few ulps of the conditioning of the small, well-conditioned cases).
TOLERANCE = {"f8": dict(rtol=1e-9, atol=1e-12), "f4": dict(rtol=5e-5, atol=1e-6)}
# The cases that round apart; every other output and gradient is TensorFlow's bits (the
# tridiagonal products and solves in TF's order of operations, the bisection's steps), and
# only the float64 loss, a sum in Eigen's order, is compared within the tolerance.
# eigh_tridiagonal's eigenvectors: norms summed in NumPy's order, clusters orthogonalized by
# LAPACK's QR where TensorFlow's is Eigen's (an ulp in float64, 1.2e-7 in float32).
APPROXIMATE = {"matvec_adjoint_named", "normalize", "normalize_matrix_fro", "sqrtm",
               "sqrtm_batch_float32", "sqrtm_spd", "logm", "logm_complex64_batch",
               "eigh_tridiagonal_vectors", "eigh_tridiagonal_vectors_clustered_float32",
               "eigh_tridiagonal_vectors_index"}


def _tolerance(dtype):
    return TOLERANCE["f4" if dtype in (np.float32, np.complex64) else "f8"]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_gradients_equal_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    expected = {key.split("__", 1)[1] for key in TF.values.files if key.startswith(name + "__")}
    assert set(values) == expected
    case_dtype = np.asarray(cases.CASES[name][1]).dtype
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        value = np.asarray(value)
        assert value.dtype == want.dtype and value.shape == want.shape, key
        if want.dtype.kind in "iub" or (name not in APPROXIMATE and key != "loss"):
            np.testing.assert_array_equal(value, want, err_msg=key)
        else:
            np.testing.assert_allclose(value, want, err_msg=key,
                                       **_tolerance(np.dtype(case_dtype).type))
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", [name for name in cases.CASES
                                  if name not in cases.NODES_NOT_KEPT])
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


def test_sqrtm_squares_back_and_has_tensorflows_gradient_graph_at_float64_precision():
    """R @ R gives the input back to 1e-12: the engine's root is the principal one."""
    x = cases.CASES["sqrtm"][1]
    with tf.Graph().as_default(), tf.Session() as sess:
        root = sess.run(tf.linalg.sqrtm(tf.constant(x)))
    np.testing.assert_allclose(root @ root, x, rtol=1e-12, atol=1e-12)
