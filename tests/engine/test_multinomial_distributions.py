"""tf.distributions.Multinomial and DirichletMultinomial against TensorFlow 2.21
(tests/fixtures/mathops/multinomial_distributions.json, tools/make_multinomial_fixtures.py):
seeded samples exactly, densities, moments and covariances at rtol 1e-6, static shapes,
names and every node of the graph."""

import numpy as np
import pytest

import distribution_fixture
from distribution_fixture import numbers
import multinomial_distribution_cases as cases
import engine as tf

# Multinomial draws a batch row by row in map_fn's while loop, each iteration's Multinomial op
# taking the next part of one Philox stream. TensorFlow's executor runs the (at most ten)
# parallel iterations' ops last first, so its first row takes the last part; the engine runs
# iterations in order. A batch's draws are compared by their totals; a single row's (one
# iteration) bit for bit, as are DirichletMultinomial's (no loop).
ROWS_REORDERED = {"multinomial/sample", "multinomial/sample_n", "batch/sample"}

FIXTURE = distribution_fixture.load("multinomial_distributions")


@pytest.fixture(scope="module")
def ran():
    return cases.run(tf)


@pytest.mark.parametrize("key", sorted(FIXTURE["values"]))
def test_values_are_tensorflows(ran, key):
    got, want = ran["values"][key], FIXTURE["values"][key]
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"])
    if key in ROWS_REORDERED:
        got_counts, want_counts = numbers(got), numbers(want)
        rows = np.array(want["shape"][:-1]).prod()
        np.testing.assert_array_equal(got_counts.reshape(rows, -1).sum(-1),
                                      want_counts.reshape(rows, -1).sum(-1))
    else:
        distribution_fixture.assert_value_is_tensorflows(key, got, want)


def test_shapes_names_and_nodes_are_tensorflows(ran):
    assert ran["shapes"] == FIXTURE["shapes"]
    assert ran["nodes"] == FIXTURE["nodes"]


# Multinomial.log_prob checks its counts twice (for the unnormalised log prob and for the
# normalisation, as TensorFlow's does), so bad counts fail two twin assertions; TensorFlow's
# executor reaches the second first, the engine's the first. Those errors are compared by
# class and message, and by the failing node being one of the twins.
TWIN_ASSERTIONS = {"counts_sum/multinomial/log_prob", "counts_sum/from_logits/log_prob",
                   "fractional_counts/multinomial/log_prob",
                   "fractional_counts/from_logits/log_prob"}


def _twin(node_line):
    return (node_line.replace("embed_check_nonnegative_integer_form_1/",
                              "embed_check_nonnegative_integer_form/")
            .replace("assert_equal_3/", "assert_equal_1/"))


def test_validate_args_is_tensorflows(ran):
    got, want = ran["checked"], FIXTURE["checked"]
    assert sorted(got["errors"]) == sorted(want["errors"])
    for key, (error_class, node, assertion) in want["errors"].items():
        if key in TWIN_ASSERTIONS:
            got_class, got_node, got_assertion = got["errors"][key]
            assert (got_class, _twin(got_node)) == (error_class, _twin(node))
            assert got_assertion.split("[Condition")[0] == assertion.split("[Condition")[0]
        else:
            assert got["errors"][key] == [error_class, node, assertion], key
    assert got["nodes"] == want["nodes"]
    distribution_fixture.assert_checked_values_are_tensorflows(got, want)
