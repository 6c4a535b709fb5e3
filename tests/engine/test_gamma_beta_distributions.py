"""tf.distributions.Gamma, Exponential and Beta against TensorFlow 2.21
(tests/fixtures/mathops/gamma_beta_distributions.json, tools/make_gamma_beta_fixtures.py):
seeded samples exactly, densities, moments and KL divergences at rtol 1e-6, static shapes,
names, every node of the graph, and the errors of invalid constructions."""

import pytest

import distribution_fixture
import gamma_beta_cases as cases
import engine as tf

FIXTURE = distribution_fixture.load("gamma_beta_distributions")


@pytest.fixture(scope="module")
def ran():
    return cases.run(tf)


@pytest.mark.parametrize("key", sorted(FIXTURE["values"]))
def test_values_are_tensorflows(ran, key):
    got, want = ran["values"][key], FIXTURE["values"][key]
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"])
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
