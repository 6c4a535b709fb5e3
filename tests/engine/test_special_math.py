"""The special math and manipulation ops against TensorFlow 2.21 (tests/fixtures/mathops/,
tools/make_special_math_fixtures.py): values and tf.gradients of each case in float32 and
float64, and the kernels' error texts.

Tolerances: integers exactly, float32 bit for bit (values and gradients: the special functions
are Eigen's scalar code step by step with glibc's float functions, float32 log and log1p
Eigen's packets and glibc's tail, the Bessel series Eigen's packets with FAST_MATH's rsqrt);
float64 at rtol 1e-15, as TensorFlow's double log and exp are Eigen's packet functions where
the engine's are NumPy's (measured: at most 1 ulp, in 2-9 of 21 values of xlogy, xlog1py,
log_sigmoid, swish and the gradients through them)."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import special_math_cases as cases

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mathops"
EXPECTED = np.load(FIXTURES / "special_math.npz")
ERRORS = json.loads((FIXTURES / "special_math_errors.json").read_text())


@pytest.mark.parametrize("name, dtype, prefix", list(cases.case_keys()),
                         ids=[key for _, _, key in cases.case_keys()])
def test_values_and_gradients_are_tensorflows(name, dtype, prefix):
    values = cases.run_case(tf, name, dtype)
    keys = sorted(k.split("--", 1)[1].replace("__", ":") for k in EXPECTED.files
                  if k.startswith(prefix + "--"))
    assert sorted(values) == keys
    for key, got in values.items():
        want = EXPECTED[f"{prefix}--{key.replace(':', '__')}"]
        assert got.dtype == want.dtype and got.shape == want.shape, key
        if want.dtype == np.float64:
            np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-300,
                                       err_msg=f"{prefix} {key}")
        else:  # integers, and float32 by its bits (NaN where TensorFlow has NaN)
            np.testing.assert_array_equal(got, want, err_msg=f"{prefix} {key}", strict=True)


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_errors_are_tensorflows(name):
    assert cases.run_error(tf, name) == ERRORS[name]
