"""tf.nn.fractional_max_pool and fractional_avg_pool against TensorFlow 2.21 (tf.compat.v1):
the pooling boundaries drawn from each node's Philox stream bit for bit over two runs (a
shuffle of region sizes, or pseudo-random boundaries), pooled values, gradients
(FractionalMaxPoolGrad, FractionalAvgPoolGrad), static shapes and nodes
(tests/engine/fractional_pool_cases.py; fixtures by tools/make_fractional_pool_fixtures.py)."""

import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import fractional_pool_cases as cases  # noqa: E402

TF = tf_fixture_set.load("fractional_pool")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_boundaries_and_gradients_equal_tensorflows(name):
    # boundaries, maxima and their gradients are exact; an average divides a sum taken in
    # TensorFlow's order, and its gradient sums shares in double, as the engine does
    tf_fixture_set.assert_values_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)
