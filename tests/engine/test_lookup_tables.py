"""Lookup tables against TensorFlow: tf.lookup's tables (from tensors, from vocabulary files,
mutable) give TensorFlow's values and build its nodes, and the kernels fail with its errors
(tests/fixtures/lookup/, written by tools/make_lookup_fixtures.py)."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import lookup_table_cases

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lookup"
MANIFEST = json.loads((FIXTURES / "lookup.json").read_text())


@pytest.mark.parametrize("name", sorted(lookup_table_cases.CASES))
def test_values_and_nodes_are_tensorflows(name):
    values, nodes = lookup_table_cases.run_case(tf, name)
    expected = np.load(FIXTURES / f"{name}.npz")
    assert sorted(values) == sorted(expected.files)
    for key in expected.files:
        assert values[key].dtype == expected[key].dtype, (name, key)
        np.testing.assert_array_equal(values[key], expected[key], err_msg=f"{name} {key}")
    assert nodes == MANIFEST["nodes"][name]


@pytest.mark.parametrize("name", sorted(lookup_table_cases.ERRORS))
def test_errors_are_tensorflows(name):
    assert lookup_table_cases.run_error(tf, name) == MANIFEST["errors"][name]


def test_a_table_lives_as_long_as_its_session():
    """Filled by one run, read by later ones; a new session starts without it."""
    with tf.Graph().as_default():
        table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(["x"], tf.constant([4], tf.int64)), -1)
        found = table.lookup(tf.constant(["x"]))
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            assert sess.run(found).tolist() == [4] and sess.run(table.size()) == 1
        with tf.Session() as sess, pytest.raises(tf.errors.FailedPreconditionError,
                                                 match="Table not initialized"):
            sess.run(found)
