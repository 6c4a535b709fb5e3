"""Eig (tf.linalg.eig, eigvals) against TensorFlow's (tests/fixtures/tf2_models/expected.npz
`eig/<case>`, tools/make_tf2_model_fixtures.py's EIG_CASES): the same eigenvalues, each with an
eigenvector equal to TensorFlow's up to phase. LAPACK's order is not always Eigen's, so each
engine eigenvalue is matched to TensorFlow's nearest."""

import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from make_tf2_model_fixtures import EIG_CASES  # noqa: E402

EXPECTED = np.load(ROOT / "tests" / "fixtures" / "tf2_models" / "expected.npz")


@pytest.mark.parametrize("case", EIG_CASES)
def test_eigenpairs_like_tensorflow(case):
    matrix, compute_v, tout = EIG_CASES[case]
    want_e, want_v = EXPECTED[f"eig/{case}/e"], EXPECTED[f"eig/{case}/v"]
    with tf.Graph().as_default():
        e, v = tf.raw_ops.Eig(input=matrix, Tout=getattr(tf, tout), compute_v=compute_v)
        assert e.shape.as_list() == list(want_e.shape)
        with tf.Session() as sess:
            got_e, got_v = sess.run([e, v])
    assert (got_e.dtype, got_e.shape) == (want_e.dtype, want_e.shape)
    assert (got_v.dtype, got_v.shape) == (want_v.dtype, want_v.shape)
    tolerance = 1e-4 if want_e.dtype == np.complex64 else 1e-10
    n = matrix.shape[-1]
    for index in np.ndindex(want_e.shape[:-1]):
        for i in range(n):
            j = int(np.argmin(np.abs(want_e[index] - got_e[index][i])))
            assert abs(want_e[index][j] - got_e[index][i]) < tolerance
            if compute_v:
                mine, theirs = got_v[index][:, i], want_v[index][:, j]
                assert abs(abs(np.vdot(theirs, mine)) - 1) < tolerance
