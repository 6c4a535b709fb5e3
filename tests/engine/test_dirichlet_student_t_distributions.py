"""tf.distributions.Dirichlet and StudentT against TensorFlow 2.21
(tests/fixtures/mathops/dirichlet_student_t_distributions.json,
tools/make_dirichlet_student_t_fixtures.py):
seeded samples exactly, densities, moments and KL divergences at rtol 1e-6, static shapes,
names, every node of the graph, and the errors of invalid constructions."""

import numpy as np
import pytest

import distribution_fixture
from distribution_fixture import numbers
import dirichlet_student_t_cases as cases
import engine as tf

# StudentT's draw is normal * rsqrt(gamma / df) * scale + loc. Grappler's arithmetic optimizer
# (MinimizeBroadcasts) regroups the product as (rsqrt * scale) * normal, smallest shapes
# first; the engine's optimizer has no such stage and multiplies normal * scale first (after
# ConstantPushDown, as TensorFlow's iteration 0 does), so a float32 draw may differ in its
# rounding (one value of eight here, by 3.5e-7 of it after `+ loc` cancels). The draws
# themselves (RandomStandardNormal, RandomGamma seeded by gen_new_seed) are TensorFlow's bit
# for bit: every intermediate value agrees when fetched, and float64 draws agree exactly.
REASSOCIATED = {"student/sample", "student/sample_n"}

FIXTURE = distribution_fixture.load("dirichlet_student_t_distributions")


@pytest.fixture(scope="module")
def ran():
    return cases.run(tf)


@pytest.mark.parametrize("key", sorted(FIXTURE["values"]))
def test_values_are_tensorflows(ran, key):
    got, want = ran["values"][key], FIXTURE["values"][key]
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"])
    if key in REASSOCIATED:
        np.testing.assert_allclose(numbers(got), numbers(want), rtol=1e-6, atol=0)
    else:
        distribution_fixture.assert_value_is_tensorflows(key, got, want)


def test_shapes_names_and_nodes_are_tensorflows(ran):
    assert ran["shapes"] == FIXTURE["shapes"]
    assert ran["nodes"] == FIXTURE["nodes"]


def test_errors_are_tensorflows(ran):
    assert ran["errors"] == FIXTURE["errors"]


def test_validate_args_and_allow_nan_stats_false_are_tensorflows(ran):
    got, want = ran["checked"], FIXTURE["checked"]
    assert got["errors"] == want["errors"]
    assert got["nodes"] == want["nodes"]
    distribution_fixture.assert_checked_values_are_tensorflows(got, want)
