"""tf.feature_column.input_layer builds TensorFlow's nodes (names, ops, inputs: the variable
names checkpoints are keyed by), gives TensorFlow's values and gradients, trains as TensorFlow
does, and its columns raise TensorFlow's errors (tests/engine/feature_column_cases.py,
tests/fixtures/feature_columns/ from tools/make_feature_column_fixtures.py)."""

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf

import feature_column_cases as cases

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "feature_columns"
VALUES = json.loads((FIXTURES / "values.json").read_text())
ERRORS = json.loads((FIXTURES / "errors.json").read_text())
NODES = json.loads(gzip.decompress((FIXTURES / "nodes.json.gz").read_bytes()))


def _nodes(graph):
    return [[node.name, node.op, list(node.input)] for node in graph.as_graph_def().node]


@pytest.mark.parametrize("name", sorted(cases.BUILDS))
def test_graph_and_values_are_tensorflows(name):
    graph, values = cases.run(tf, name)
    assert _nodes(graph) == NODES[name]
    expected = VALUES[name]
    assert sorted(values) == sorted(expected)
    for key in expected:
        if np.asarray(expected[key]).dtype.kind != "f":  # ids, hashes, strings: exactly
            assert values[key] == expected[key], f"{name}: {key}"
            continue
        np.testing.assert_allclose(np.asarray(values[key], np.float64),
                                   np.asarray(expected[key], np.float64), rtol=1e-5, atol=1e-6,
                                   err_msg=f"{name}: {key}")


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_bad_columns_raise_tensorflows_errors(name):
    assert cases.error_text(tf, name) == ERRORS[name]


def test_input_layer_is_in_both_namespaces():
    assert tf.compat.v1.feature_column.input_layer is tf.feature_column.input_layer
    with pytest.raises(AttributeError):
        tf.feature_column.no_such_column  # noqa: B018
