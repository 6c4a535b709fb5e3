"""tf.distributions (Normal, Bernoulli, Categorical, Uniform, Laplace, kl_divergence) against
TensorFlow 2.21 (tests/fixtures/mathops/distributions.json, tools/make_distribution_fixtures.py):
seeded samples exactly, densities, moments and KL divergences at float32 rtol 1e-6, static
shapes, names and every node of the graph."""

import pytest

import distribution_fixture
import distribution_cases as cases
import engine as tf

FIXTURE = distribution_fixture.load("distributions")


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


def test_kl_between_unregistered_kinds_is_refused_as_tensorflow_refuses_it():
    with tf.Graph().as_default():
        with pytest.raises(NotImplementedError, match="No KL\\(distribution_a \\|\\| "
                                                      "distribution_b\\) registered for "
                                                      "distribution_a type Normal and "
                                                      "distribution_b type Bernoulli"):
            tf.distributions.kl_divergence(tf.distributions.Normal(0.0, 1.0),
                                           tf.distributions.Bernoulli(logits=0.0))
        with pytest.raises(ValueError, match="Must pass probs or logits, but not both."):
            tf.distributions.Bernoulli()
