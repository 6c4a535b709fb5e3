"""tf.math's elementary functions, complex numbers and tf.bitwise against TensorFlow 2.21
(tests/fixtures/elementary_math/, tools/make_elementary_math_fixtures.py): values and
tf.gradients of each case in its dtypes, error classes and texts, static shapes, and the nodes
(names, ops, inputs) of a graph of the new APIs with tf.gradients through them.

Tolerances: integers, booleans and every float32 value not listed in FLOAT32_RTOL bit for bit
(Acosh and Asinh are glibc's acoshf/asinhf as Eigen calls them, Atanh Eigen's patanh_float
step by step with plog_float and glibc's atanhf on the tail, Angle and ComplexAbs glibc's
atan2f/hypotf as std::arg and std::abs call them, CumulativeLogsumexp's scan glibc's expf and
log1pf, complex Mul and Square Eigen's (ac - bd) + (ad + bc)i, the Bessel functions Eigen's
series step by step, Dawsn ... Spence TensorFlow's scalar functors with glibc's functions).
The listed float32 keys are within a few ulps, for the reasons given there. float64
at rtol 1e-15 (TensorFlow's double log, exp and Atanh's log are Eigen's packets, NumPy's here:
an ulp apart at times), except the gradient keys in FLOAT64_RTOL."""

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import elementary_math_cases as cases

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "elementary_math"
EXPECTED = np.load(FIXTURES / "elementary_math.npz")
ERRORS = json.loads((FIXTURES / "elementary_math_errors.json").read_text())

FLOAT32_RTOL = {
    # grad / cosh(y) and grad / sinh(y): the engine's Cosh and Sinh are NumPy's, TensorFlow's
    # glibc's coshf and sinhf (an ulp apart in about a third of the values)
    ("acosh", "grad:x"): 3e-7, ("asinh", "grad:x"): 3e-7,
    # a sum over both axes: Eigen's order of additions differs from NumPy's
    ("reduce_euclidean_norm", "all"): 2e-7,
    # complex sums in Eigen's packet order; the Angle gradient's reciprocal of a complex
    # number is Eigen's pdiv_complex (scaled by the larger part), NumPy's division is not
    ("complex_parts", "grad:re"): 2e-7, ("complex_arithmetic", "sum"): 2e-7,
    ("complex_arithmetic", "norm"): 2e-7,
}
FLOAT64_RTOL = {**{("cumulative_logsumexp", key): 4e-15 for key in (
                    "grad:a0", "grad:a0r", "grad:a0e", "grad:a0er", "grad:a1", "grad:a1r",
                    "grad:a1e", "grad:a1er")}}


def _compare(name, prefix, key, got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (prefix, key)
    message = f"{prefix} {key}"
    real = want.real if want.dtype.kind == "c" else want
    if real.dtype == np.float64:
        rtol = FLOAT64_RTOL.get((name, key), 1e-15)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-300, err_msg=message)
    elif real.dtype == np.float32 and (name, key) in FLOAT32_RTOL:
        np.testing.assert_allclose(got, want, rtol=FLOAT32_RTOL[name, key], atol=1e-37,
                                   err_msg=message)
    else:  # integers, booleans, and float32 by its bits (NaN where TensorFlow has NaN)
        np.testing.assert_array_equal(got, want, err_msg=message, strict=True)


@pytest.mark.parametrize("name, dtype, prefix", list(cases.case_keys()),
                         ids=[key for _, _, key in cases.case_keys()])
def test_values_and_gradients_are_tensorflows(name, dtype, prefix):
    values = cases.run_case(tf, name, dtype)
    keys = sorted(k.split("--", 1)[1].replace("__", ":") for k in EXPECTED.files
                  if k.startswith(prefix + "--"))
    assert sorted(values) == keys
    for key, got in values.items():
        _compare(name, prefix, key, got, EXPECTED[f"{prefix}--{key.replace(':', '__')}"])


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_errors_are_tensorflows(name):
    assert cases.run_error(tf, name) == ERRORS[name]


def test_static_shapes_are_tensorflows():
    want = json.loads((FIXTURES / "static_shapes.json").read_text())
    assert cases.static_shapes(tf) == want


def test_graph_nodes_and_gradient_nodes_are_tensorflows():
    want = json.loads(gzip.decompress((FIXTURES / "graph_nodes.json.gz").read_bytes()))
    assert cases.gradient_graph_nodes(tf) == want


def test_atanh_packets_and_tail_are_tensorflows_paths():
    # 500 values: 496 through the float32 packet formula, the last 4 through glibc's atanhf;
    # the same values one at a time all take glibc's.
    from engine.kernels.cpu import inverse_hyperbolic
    x = cases.ATANH_WIDE.astype(np.float32)
    whole = inverse_hyperbolic.atanh(x)
    singly = np.concatenate([inverse_hyperbolic.atanh(x[i:i + 1]) for i in range(x.size)])
    want = EXPECTED["atanh_wide_float32--y"]
    np.testing.assert_array_equal(whole, want, strict=True)
    tail = slice(x.size - x.size % 8, None)
    np.testing.assert_array_equal(singly[tail], want[tail], strict=True)


def test_shifts_clamp_as_tensorflow_does():
    left = tf.bitwise.left_shift(np.int32([1, 1, 1, -1]), np.int32([-1, 31, 32, 40]))
    right = tf.bitwise.right_shift(np.int32([-8, 8, 8]), np.int32([100, -5, 3]))
    with tf.Session() as sess:
        got_left, got_right = sess.run([left, right])
    np.testing.assert_array_equal(got_left, [1, -2 ** 31, -2 ** 31, -2 ** 31])
    np.testing.assert_array_equal(got_right, [-1, 8, 1])
