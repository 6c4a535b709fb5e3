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


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_array_lgamma_and_digamma_are_the_scalar_codes_bits(dtype):
    # The kernels run Eigen's digamma on whole arrays and glibc's lgamma element by element;
    # special_functions.digamma/lgamma, one element at a time, are the reference.
    from engine.kernels.cpu import special_functions as sf
    rng = np.random.RandomState(5)
    x = np.concatenate([rng.uniform(-20, 20, 3000), rng.uniform(0, 1e-3, 100),
                        [0, -1, -2.5, -0.5, 1, 2, 9.999, 10, 1e9, 1e20, -1e9, np.inf, -np.inf,
                         np.nan, 1e-30]]).astype(dtype)
    bits = np.uint64 if dtype == np.float64 else np.uint32
    for vectorised, scalar in ((sf.digamma_array, sf.digamma), (sf.lgamma_array, sf.lgamma)):
        got, want = vectorised(x), sf.elementwise(scalar, x)
        np.testing.assert_array_equal(got.view(bits), want.view(bits))


def test_static_shapes_are_tensorflows():
    want = json.loads((FIXTURES / "static_shapes.json").read_text())
    assert cases.static_shapes(tf) == want


def test_graph_nodes_and_gradient_nodes_are_tensorflows():
    want = json.loads((FIXTURES / "graph_nodes.json").read_text())
    assert cases.gradient_graph_nodes(tf) == want


def test_float32_xlogy_and_xlog1py_of_scalars_are_scalars():
    # float32 log went through np.ascontiguousarray, which makes a 0-d array [1]: a Beta's
    # log_prob of one value ran as shape [1] under a static shape [] (TensorFlow's: []).
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [])
        outs = [tf.math.xlogy(x, 0.5), tf.math.xlog1py(x, 0.5)]
        with tf.Session() as sess:
            values = sess.run(outs, {x: 2.0})
    assert [np.shape(v) for v in values] == [(), ()]
    np.testing.assert_allclose(values, [2.0 * np.log(0.5), 2.0 * np.log1p(0.5)], rtol=1e-6)
